/* A program recording run as the command line runs it: the console's
 * live lines and stop signals set up, the recording, its closing lines.
 * One call, so that a script recording a program tells its user what
 * `hwtrace record -e sw_branch` tells. */
#include "hwtrace/record_console.h"
#include "hwtrace/recorder.h"
#include "hwtrace/swbranch.h"

int hwt_record_program_on_console(const struct hwt_backend *be,
				  struct hwt_swb_opts *o,
				  const struct hwt_program_console *c,
				  struct hwt_swb_stats *st)
{
	struct hwt_swb_stats own;
	struct hwt_swb_stats *stats = st ? st : &own;
	int err = hwt_program_console_attach(c, o);

	if (!err)
		err = hwt_record_count_stop_signals(o);
	if (!err)
		err = hwt_recorder_record_program(be, o, stats);
	if (!err)
		hwt_record_print_program_end(c->out, c->prefix, o, stats);
	return err;
}
