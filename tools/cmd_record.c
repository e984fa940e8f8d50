/* hwtrace record */
#include "cli.h"

int cmd_record(int argc, char **argv)
{
	fprintf(stderr, "hwtrace record: not available in this build yet\n");
	return EXIT_RUNTIME;
}
