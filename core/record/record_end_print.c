/* The lines that end a recording (hwtrace/record_console.h): a trace's,
 * a branch-record sampling's and a program recording's, after the
 * recorder has returned. */
#include <inttypes.h>
#include <stdio.h>

#include "hwtrace/brstack.h"
#include "hwtrace/error.h"
#include "hwtrace/record_console.h"
#include "hwtrace/recorder.h"
#include "hwtrace/session.h"
#include "hwtrace/swbranch.h"

static void print_wrote(FILE *out, const char *prefix, const char *path)
{
	fprintf(out, "%s: wrote %s\n", prefix, path);
}

void hwt_record_print_trace_end(FILE *out, const char *prefix,
				const struct hwt_trace_request *rq, int err,
				bool output_existed,
				const struct hwt_trace_summary *sum)
{
	if (err >= 0)
		print_wrote(out, prefix, rq->output);
	/* The writer kept the file that was there and dropped the part
	 * recorded: say how to keep that part next time. */
	else if (err == HWT_ERR_NOSPC && sum->recorded && output_existed &&
		 !rq->keep_partial)
		fprintf(out, "%s: --keep-partial replaces %s with the part "
			"recorded (marked as cut short) when the disk fills up\n",
			prefix, rq->output);
	if (sum->command_running)
		fprintf(out, "%s: the command is still running: it gets SIGTERM, "
			"and SIGKILL if it has not ended %d ms later\n", prefix,
			HWT_TERM_GRACE_MS);
}

void hwt_record_print_branch_end(FILE *out, const char *prefix,
				 const struct hwt_branch_request *rq,
				 const struct hwt_branch_summary *sum)
{
	/* On this machine the kernel's counts are not the recorder's to
	 * know; the emulator's sampler counts what it kept and lost. */
	if (sum->emulated)
		fprintf(out, "%s: %" PRIu64 " samples of %s's %u-record branch "
			"stacks (%s), %" PRIu64 " records lost\n", prefix,
			sum->samples, sum->hw.pmu, sum->hw.depth,
			hwt_branch_hw_name(sum->hw.kind), sum->lost);
	print_wrote(out, prefix, rq->output);
}

void hwt_record_print_program_end(FILE *out, const char *prefix,
				  const struct hwt_swb_opts *o,
				  const struct hwt_swb_stats *st)
{
	hwt_record_print_program_stats(out, prefix, o, st);
	/* A flight recorder's windows were each told of as written. */
	if (!o->trigger)
		print_wrote(out, prefix, o->output);
}
