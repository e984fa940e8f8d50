/* A violation planted by test_link_rules, as if in backends/x86-bts/: it
 * calls a CLI subcommand. Built as an object and never linked: the
 * declaration stands in for the header the real code would include. */
#include <stddef.h>

int cmd_list(int argc, char **argv);
int plant_backend_calls_tools(void);

int plant_backend_calls_tools(void)
{
	return cmd_list(0, NULL);
}
