/* hwtrace decode */
#include "cli.h"

int cmd_decode(int argc, char **argv)
{
	fprintf(stderr, "hwtrace decode: not available in this build yet\n");
	return EXIT_RUNTIME;
}
