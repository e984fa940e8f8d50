/* hwtrace info */
#include "cli.h"

int cmd_info(int argc, char **argv)
{
	fprintf(stderr, "hwtrace info: not available in this build yet\n");
	return EXIT_RUNTIME;
}
