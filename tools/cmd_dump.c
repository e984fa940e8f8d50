/* hwtrace dump */
#include "cli.h"

int cmd_dump(int argc, char **argv)
{
	fprintf(stderr, "hwtrace dump: not available in this build yet\n");
	return EXIT_RUNTIME;
}
