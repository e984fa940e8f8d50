/* The closing lines of a program recording (hwt_recorder_record_program:
 * sw_branch): with a flight recorder, what its trigger saw and how the
 * program ended; else each thread's ring, a detach, and the stepping's
 * summary. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "hwtrace/recorder.h"
#include "hwtrace/swbranch.h"
#include "hwtrace/text.h"

/* @s for a terminal, at most @size - 1 bytes of it. */
static const char *escaped(const char *s, char *buf, size_t size)
{
	size_t n = hwt_term_escape(buf, size - 1, s, strlen(s));
	buf[n < size - 1 ? n : size - 1] = 0;
	return buf;
}

static void print_detached(FILE *out, const char *prefix,
			   const struct hwt_swb_opts *o)
{
	fprintf(out, "%s: sw_branch: detached from process %d: it runs on\n",
		prefix, (int)o->attach_pid);
}

/* How the program ended, or that it was let go. */
static void print_program_end(FILE *out, const char *prefix,
			      const struct hwt_swb_opts *o,
			      const struct hwt_swb_stats *st)
{
	if (o->attach_pid)
		print_detached(out, prefix, o);
	else if (WIFSIGNALED(st->exit_status))
		fprintf(out, "%s: the program was killed by signal %d (%s)%s\n",
			prefix, WTERMSIG(st->exit_status),
			strsignal(WTERMSIG(st->exit_status)),
			WCOREDUMP(st->exit_status) ? ", core dumped" : "");
	else if (WIFEXITED(st->exit_status))
		fprintf(out, "%s: the program exited with status %d\n", prefix,
			WEXITSTATUS(st->exit_status));
}

/* The trigger's count of entries or calls timed, the windows written. */
static void print_trigger(FILE *out, const char *prefix,
			  const struct hwt_swb_opts *o,
			  const struct hwt_swb_stats *st)
{
	char safe[256];

	fprintf(out, "%s: sw_branch: trigger %s: ", prefix,
		escaped(o->trigger, safe, sizeof(safe)));
	if (!strncmp(o->trigger, "latency:", 8))
		fprintf(out, "%" PRIu64 " calls seen, %" PRIu64 " fired\n",
			st->trigger_calls, st->trigger_fired);
	else if (!strncmp(o->trigger, "symbol:", 7))
		fprintf(out, "%" PRIu64 " entries seen, %" PRIu64 " fired\n",
			st->trigger_entries, st->trigger_fired);
	else
		fprintf(out, "%s\n", st->trigger_fired ? "fired" : "did not fire");
	if (!st->trigger_fired)
		fprintf(out, "%s: no window written (the trigger did not fire%s)\n",
			prefix, st->interrupted ? " before the stop request" : "");
	print_program_end(out, prefix, o, st);
}

void hwt_record_print_program_stats(FILE *out, const char *prefix,
				    const struct hwt_swb_opts *o,
				    const struct hwt_swb_stats *st)
{
	if (o->trigger) {
		print_trigger(out, prefix, o, st);
		return;
	}
	const struct hwt_emu_stats *trace[HWT_SWB_MAX_RINGS];
	size_t n = st->nrings < HWT_SWB_MAX_RINGS ? st->nrings : HWT_SWB_MAX_RINGS;
	for (size_t r = 0; r < n; r++)
		trace[r] = &st->trace[r];
	hwt_record_print_capture_stats(out, prefix, st->rings, n, trace, NULL);
	if (o->attach_pid)
		print_detached(out, prefix, o);
	double secs = st->elapsed_ns / 1e9;
	fprintf(out, "%s: sw_branch: %" PRIu64 " instructions, %" PRIu64
		" branches in %.2f s (%.0f instructions/s), %s; sideband from %s\n",
		prefix, st->insns, st->branches, secs,
		secs > 0 ? st->insns / secs : 0.0,
		st->interrupted ? "stopped by a signal" :
		st->stopped ? "stopped at --stop" :
		st->exited ? "the program exited" : "--max reached",
		st->kernel_sideband ? "the kernel" : "/proc/PID/maps");
}
