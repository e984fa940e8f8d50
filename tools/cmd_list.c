/* hwtrace list */
#include "cli.h"

int cmd_list(int argc, char **argv)
{
	fprintf(stderr, "hwtrace list: not available in this build yet\n");
	return EXIT_RUNTIME;
}
