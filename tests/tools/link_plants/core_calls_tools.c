/* A violation planted by test_link_rules, as if in core/: it calls a CLI
 * subcommand. Built as an object and never linked: the declaration stands in
 * for the header the real code would include. */
#include <stddef.h>

int cmd_decode(int argc, char **argv);
int plant_core_calls_tools(void);

int plant_core_calls_tools(void)
{
	return cmd_decode(0, NULL);
}
