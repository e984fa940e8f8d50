/* hwtrace config */
#include "cli.h"

int cmd_config(int argc, char **argv)
{
	fprintf(stderr, "hwtrace config: not available in this build yet\n");
	return EXIT_RUNTIME;
}
