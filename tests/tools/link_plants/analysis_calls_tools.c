/* A violation planted by test_link_rules, as if in analysis/: it calls a CLI
 * subcommand. Built as an object and never linked: the declaration stands in
 * for the header the real code would include. */
#include <stddef.h>

int cmd_report(int argc, char **argv);
int plant_analysis_calls_tools(void);

int plant_analysis_calls_tools(void)
{
	return cmd_report(0, NULL);
}
