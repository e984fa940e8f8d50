/* hwtrace record -e sw_branch (or another backend that is its own trace
 * source): the options into struct hwt_swb_opts, then the library's
 * recording on the command's console (hwt_record_program_resolve,
 * hwt_record_program_on_console). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_record_opts.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/record_console.h"
#include "hwtrace/record_options.h"
#include "hwtrace/recorder.h"
#include "hwtrace/swbranch.h"
#include "hwtrace/trigger.h"

static const char *event_arg(int argc, char **argv, int *i)
{
	const char *a = argv[*i];

	if ((!strcmp(a, "-e") || !strcmp(a, "--event")) && *i + 1 < argc)
		return argv[++*i];
	if (!strncmp(a, "--event=", 8))
		return a + 8;
	if (!strncmp(a, "-e", 2) && a[2])
		return a + 2;
	return NULL;
}

/* The backend of the first -e that is its own trace source, or NULL. */
static const struct hwt_backend *program_backend(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *ev = event_arg(argc, argv, &i);
		const struct hwt_backend *be = ev ? hwt_record_program_backend(ev) : NULL;
		if (be)
			return be;
	}
	return NULL;
}

bool cli_record_is_sw_branch(int argc, char **argv)
{
	return program_backend(argc, argv) != NULL;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace record -e sw_branch [--start SYM] [--stop SYM] "
		"[--filter F]\n                      [--max N] [-m DATA,AUX] [-o FILE]\n"
		"                      [--snapshot[=SIZE] --trigger T "
		"[--trigger-count N]\n                      [--trigger-after T]]\n                      (-- CMD [ARGS] | -p PID "
		"| --tid TID)\n\n"
		"Records the branches of CMD without trace hardware, by stepping "
		"it under\nptrace, into a perf.data file of Intel BTS records "
		"(hwtrace decode and\nperf script --itrace=b read it). Slow: every "
		"instruction traps (about\n80,000 to 145,000 instructions/s), so "
		"trace only from --start to --stop.\n\n"
		"  --start SYM     start stepping at a symbol (main, parse+0x10) or "
		"an address\n                  (0x4011d0); default: the first "
		"instruction after exec\n"
		"  --stop SYM      stop there (a library's symbol too: exit); "
		"default: at exit\n"
		"                  SYM may name its file (exit@libc.so.6), an "
		"address too\n                  (0x1149@./prog)\n"
		"  --filter F      perf's address filter syntax: 'filter SYM [@ "
		"FILE]' traces\n                  one call of SYM until it "
		"returns; 'start SYM, stop SYM'\n"
		"  --max N         stop after N instructions\n"
		"  -m, --mmap-pages DATA[,AUX]  the capture session's ring sizes in "
		"pages\n                  (powers of two; the emulated trace unit "
		"writes at most\n                  half the AUX ring at a time)\n"
		"  --snapshot[=SIZE]  flight recorder: keep each thread's last SIZE "
		"branch\n                  records (a number) or bytes (with K, M or "
		"G) in memory,\n                  default 16384 records, and write "
		"them when --trigger fires,\n                  each window as "
		"FILE.1, FILE.2, ... (docs/record.md); a stop\n                  "
		"request (Ctrl-C) keeps the windows written, adds none\n"
		"  --trigger T     symbol:FUNC[@BIN] (FUNC entered), "
		"latency:FUNC>DURATION\n                  (a call longer than "
		"DURATION: 5ms, 200us), signal:SIGSEGV,...\n                  (the "
		"program's fatal signal; it then dies of it)\n"
		"  --trigger-count N  windows to write, then trace no more (default "
		"1;\n                  latency: every slow call)\n"
		"  --trigger-after T  write no window before T of tracing (500ms, "
		"2s);\n                  signal: triggers are always armed\n"
		"  -c, --config FILE  an INI profile's [snapshot] trigger, "
		"trigger_count and\n                  size (bytes), for those not "
		"given here\n"
		"  -p, --pid PID   attach to running process PID (all its threads) "
		"instead\n                  of running CMD; on a stop request "
		"(Ctrl-C), --stop or\n                  the last window it detaches "
		"and the program runs on\n"
		"  --tid TID       attach to thread TID alone\n"
		"  -o, --output FILE  output file (default perf.data)\n"
		"  -q, --quiet     the program's output goes to /dev/null\n");
}

static int record_resolved(const struct hwt_backend *be,
			   struct hwt_swb_opts *o);

int cmd_record_sw_branch(int argc, char **argv)
{
	const struct hwt_backend *be = program_backend(argc, argv);
	struct hwt_swb_opts o = {.size = sizeof(o), .output = "perf.data"};
	struct hwt_program_request rq = {.size = sizeof(rq)};
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		const char *ev = event_arg(argc, argv, &i);
		if (ev && hwt_record_program_check_event(be, ev))
			return record_refused();
		if (ev)
			continue;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return EXIT_OK;
		}
		if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && i + 1 < argc)
			o.output = argv[++i];
		else if ((!strcmp(a, "-m") || !strcmp(a, "--mmap-pages")) &&
			 i + 1 < argc) {
			int r = cli_parse_pages("record", a, argv[++i],
						&o.data_pages, &o.aux_pages);
			if (r)
				return r;
		} else if (!strcmp(a, "--start") && i + 1 < argc)
			o.start = argv[++i];
		else if (!strcmp(a, "--stop") && i + 1 < argc)
			o.stop = argv[++i];
		else if (!strcmp(a, "--filter") && i + 1 < argc)
			o.filter = argv[++i];
		else if (!strcmp(a, "--max") && i + 1 < argc) {
			int r = cli_number_u64(&(struct cli_number){"record",
					"--max", 1, UINT64_MAX, "a number of "
					"instructions, 1 to 18446744073709551615"},
					argv[++i], &o.max_insns);
			if (r)
				return r;
		} else if (!strcmp(a, "--snapshot") || !strncmp(a, "--snapshot=", 11)) {
			rq.snapshot = true;
			if (a[10] && hwt_record_program_snapshot_size(a + 11,
					&o.snapshot_records, &rq.snapshot_bytes))
				return record_refused();
		} else if ((!strcmp(a, "-p") || !strcmp(a, "--pid") ||
			    !strcmp(a, "--tid")) && i + 1 < argc) {
			uint64_t id;
			int r = cli_number_u64(&(struct cli_number){"record", a, 1,
					INT32_MAX, "a process or thread id"},
					argv[++i], &id);
			if (r)
				return r;
			if (strcmp(a, "--tid"))
				o.attach_pid = (int32_t)id;
			else
				o.attach_tid = (int32_t)id;
		} else if ((!strcmp(a, "-c") || !strcmp(a, "--config")) && i + 1 < argc) {
			rq.profile = argv[++i];
		} else if (!strcmp(a, "--trigger") && i + 1 < argc) {
			o.trigger = argv[++i];
			if (hwt_record_program_check_trigger(be, o.trigger))
				return record_refused();
		} else if (!strcmp(a, "--trigger-after") && i + 1 < argc) {
			if (hwt_trigger_duration_check(argv[++i], &o.trigger_after_ns))
				return cli_usage_error("record", "--trigger-after: %s",
						       hwt_errmsg());
		} else if (!strcmp(a, "--trigger-count") && i + 1 < argc) {
			int r = cli_number_u64(&(struct cli_number){"record",
					"--trigger-count", 1, 1000000, "a number of "
					"windows, 1 to 1000000"}, argv[++i],
					&o.trigger_count);
			if (r)
				return r;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
			o.quiet_child = true;
		else if (a[0] == '-')
			return cli_usage_error("record", "%s does not apply to "
					       "-e sw_branch (it takes --start, "
					       "--stop, --filter, --max, -m, -o, "
					       "-q, --snapshot, --trigger, "
					       "--trigger-count, --trigger-after, "
					       "-p, --tid, -c)",
					       a);
		else
			break;
	}
	if (i < argc)
		o.argv = argv + i;
	struct hwt_profile *profile = NULL;
	int err = hwt_record_program_resolve(be, &rq, &o, &profile);
	int rc = !err ? record_resolved(be, &o) :
		 rq.option_error ? record_refused() :
		 cli_report_status(err);
	hwt_profile_free(profile);
	return rc;
}

/* The checks every command that writes a file makes, then the recording
 * and its summary. */
static int record_resolved(const struct hwt_backend *be,
			   struct hwt_swb_opts *o)
{
	int fr = cli_filter_check("record", o->filter);
	if (fr)
		return fr;
	/* The program traced is an input too. */
	const char *inputs[] = {o->argv ? o->argv[0] : NULL};
	int rc = cli_output_check("record", o->output, inputs, o->argv ? 1 : 0);
	if (rc)
		return rc;
	/* The live lines and the stop requests are the library's. */
	struct hwt_program_console console = {
		.size = sizeof(console), .out = stderr, .prefix = "hwtrace record",
		.progress = !o->quiet_child && isatty(STDERR_FILENO),
	};
	int err = hwt_record_program_on_console(be, o, &console, NULL);
	return err ? cli_report_status(err) : EXIT_OK;
}
