/* hwtrace record -e sw_branch's flight recorder on the command line:
 * --snapshot=SIZE, and the lines it prints about its windows and the
 * program. What the options mean together (the profile's [snapshot]
 * keys among them) is the recorder's, hwt_record_program_resolve. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"
#include "hwtrace/bts_format.h"
#include "hwtrace/error.h"
#include "record_swb_recorder.h"

/* --snapshot=SIZE: a number of records into *records, or bytes with a
 * K, M or G suffix into *bytes (the recorder keeps their whole records). */
int swb_snapshot_size(const char *text, uint64_t *records, uint64_t *bytes)
{
	size_t len = strlen(text);
	/* The last --snapshot=SIZE given counts, in either unit. */
	*records = *bytes = 0;
	if (len && text[len - 1] >= '0' && text[len - 1] <= '9')
		return cli_number_u64(&(struct cli_number){"record", "--snapshot",
				1, 1u << 30, "a number of records, 1 to "
				"1073741824, or bytes with K, M or G"}, text,
				records);
	return cli_number_size(&(struct cli_number){"record", "--snapshot",
			HWT_BTS_RECORD_SIZE, (uint64_t)HWT_BTS_RECORD_SIZE << 30,
			"24 bytes (one record) to 24G, or a number of records"},
			text, bytes);
}

void swb_print_detached(const struct hwt_swb_opts *o)
{
	fprintf(stderr, "hwtrace record: sw_branch: detached from process %d: "
		"it runs on\n", (int)o->attach_pid);
}

/* What the flight recorder saw: the trigger's count of entries, calls
 * timed and windows written, and how the program ended. */
void swb_print_trigger_summary(const struct hwt_swb_opts *o,
			       const struct hwt_swb_stats *st)
{
	char safe[256];

	fprintf(stderr, "hwtrace record: sw_branch: trigger %s: ",
		cli_safe(o->trigger, safe, sizeof(safe)));
	if (!strncmp(o->trigger, "latency:", 8))
		fprintf(stderr, "%" PRIu64 " calls seen, %" PRIu64 " fired\n",
			st->trigger_calls, st->trigger_fired);
	else if (!strncmp(o->trigger, "symbol:", 7))
		fprintf(stderr, "%" PRIu64 " entries seen, %" PRIu64 " fired\n",
			st->trigger_entries, st->trigger_fired);
	else
		fprintf(stderr, "%s\n", st->trigger_fired ? "fired" : "did not fire");
	if (!st->trigger_fired)
		fprintf(stderr, "hwtrace record: no window written (the trigger "
			"did not fire%s)\n", st->interrupted ? " before the stop "
			"request" : "");
	if (o->attach_pid)
		swb_print_detached(o);
	else if (WIFSIGNALED(st->exit_status))
		fprintf(stderr, "hwtrace record: the program was killed by "
			"signal %d (%s)%s\n", WTERMSIG(st->exit_status),
			strsignal(WTERMSIG(st->exit_status)),
			WCOREDUMP(st->exit_status) ? ", core dumped" : "");
	else if (WIFEXITED(st->exit_status))
		fprintf(stderr, "hwtrace record: the program exited with status "
			"%d\n", WEXITSTATUS(st->exit_status));
}

/* A flight recorder window is complete on disk. Runs in the tracer. */
void swb_show_window(void *arg, const char *path, int tid)
{
	char safe[512];

	(void)arg;
	fprintf(stderr, "hwtrace record: sw_branch: trigger fired in thread %d: "
		"wrote %s\n", tid, cli_safe(path, safe, sizeof(safe)));
}

