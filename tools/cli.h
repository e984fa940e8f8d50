/* What the subcommands of the hwtrace CLI share. Each subcommand lives in
 * tools/cmd_<name>.c and talks to the library through include/hwtrace only. */
#ifndef HWT_TOOLS_CLI_H
#define HWT_TOOLS_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes. */
#define EXIT_OK 0
#define EXIT_RUNTIME 1
#define EXIT_USAGE 2

int cmd_list(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_timeline(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_units(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_cluster(int argc, char **argv);

/* A whole unsigned number in C's bases (0x..., 0...), no sign: 0, or
 * -1 for anything else. */
int cli_parse_u64(const char *s, uint64_t *out);

/* Refuses an empty --filter of @cmd (NULL is no --filter): 0, or
 * EXIT_USAGE after printing why. */
int cli_filter_check(const char *cmd, const char *filter);

/* Prints @prefix ("hwtrace decode: warning: ") and @message on stderr,
 * the message through the terminal sanitiser (it may quote a capture's
 * names), and a newline. */
void cli_message(const char *prefix, const char *message);

/* @s through the terminal sanitiser into @buf (cut to @size, which must
 * be at least 1); returns @buf, for printf's arguments. NULL gives "". */
const char *cli_safe(const char *s, char *buf, size_t size);

/* Prints "hwtrace: " and the library's detailed message for @err (or its
 * short description when there is none) to stderr; returns EXIT_RUNTIME. */
int cli_report(int err);

/* As cli_report, but a wrong option or profile value (HWT_ERR_CONFIG)
 * is a usage error: returns EXIT_USAGE for it, EXIT_RUNTIME otherwise. */
int cli_report_status(int err);

/* Prints a usage error and a pointer to `hwtrace CMD --help`; returns
 * EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The schema version the first line of every jsonl output names
 * (docs/jsonl.md). */
#define CLI_JSONL_VERSION 4

/* {"type":"header","version":3,"listing":LISTING,"producer":"hwtrace V"}
 * where LISTING is "elements", "packets", "branch_profile", ..
 * (tools/cli_output.c). */
void cli_jsonl_header(FILE *out, const char *listing, const char *version);

/* Output (tools/cli_output.c). Checks that @path may be written as the
 * output of a command reading @inputs (hwt_outfile_check): 0, or the exit
 * status after printing why not (EXIT_USAGE for a directory, device,
 * symbolic link or input file). */
int cli_output_check(const char *cmd, const char *path,
		     const char *const *inputs, size_t ninputs);
/* Prints "hwtrace CMD: writing PATH failed: ERRNO TEXT" (PATH NULL:
 * standard output); returns EXIT_RUNTIME. */
int cli_write_failed(const char *cmd, const char *path, int err);
/* Flushes @f and, unless it is stdout, closes it; 0, or the message of
 * cli_write_failed and EXIT_RUNTIME when a write, the flush or the close
 * failed. */
int cli_stream_close(const char *cmd, FILE *f, const char *path);
/* -o PATH for a command that reads @inputs: *out is a stream on the
 * temporary file beside PATH (standard output when @path is NULL).
 * Returns 0 or the exit status after printing why not. */
struct hwt_outfile;
int cli_output_open(const char *cmd, const char *path,
		    const char *const *inputs, size_t ninputs, FILE **out,
		    struct hwt_outfile **of);
/* Closes what cli_output_open gave: the file is renamed over PATH unless
 * @failed or a write failed (then PATH is left as it was). Returns 0, or
 * after printing why EXIT_USAGE (PATH turned out to be a file the
 * command read, or exists where it must not) or EXIT_RUNTIME. */
int cli_output_close(const char *cmd, FILE *out, const char *path,
		     struct hwt_outfile *of, bool failed);
/* At the end of every command: flushes and closes standard output, and
 * turns @status into EXIT_RUNTIME (with the message) when anything
 * written there was lost. */
int cli_finish_stdout(const char *cmd, int status);
/* hwtrace --plugin FILE (tools/plugin.c): loads FILE and runs its
 * hwt_plugin_init(). Returns EXIT_OK, or EXIT_RUNTIME with a message. */
int cli_load_plugin(const char *path);

/* Whether argv holds -h or --help before a "--". */
int cli_wants_help(int argc, char **argv);

/* hwtrace record -e sw_branch (tools/cmd_record_swb.c): whether the
 * record command line names the sw_branch event, and its handler. */
bool cli_record_is_sw_branch(int argc, char **argv);
/* Whether `hwtrace record` samples branch records (-b, -j or
 * --emulate-branches before any "--"), and that recording
 * (tools/record_branch.c). */
bool cli_record_is_branch(int argc, char **argv);
int cmd_record_branch(int argc, char **argv);
int cmd_record_sw_branch(int argc, char **argv);

/* Numeric options (tools/cli_number.c). Each parser prints the usage
 * error itself, naming the command, the option, the value and the valid
 * range, and returns EXIT_USAGE; 0 when @text was a number in range. */
struct cli_number {
	const char *cmd;    /* "record" */
	const char *option; /* "--max" */
	uint64_t min, max;
	const char *valid;  /* the range in words: "1 to 4194304" */
};
int cli_number_u64(const struct cli_number *n, const char *text,
		   uint64_t *out);
/* A byte count with an optional K, M or G suffix (powers of 1024). */
int cli_number_size(const struct cli_number *n, const char *text,
		    uint64_t *out);
/* A number in (lo, hi]; n->min and n->max are unused. */
int cli_number_double(const struct cli_number *n, const char *text,
		      double lo, double hi, double *out);
/* The kernel's largest pid_max. */
#define CLI_MAX_PID 4194304u
/* -m DATA_PAGES[,AUX_PAGES] as hwt_record_ring_pages_parse reads it,
 * its message printed as @cmd's usage error. */
int cli_parse_pages(const char *cmd, const char *option, const char *arg,
		    uint32_t *data, uint32_t *aux);
/* --unit N: one of hwtrace units' work units, numbered from 1. */
int cli_unit(const char *cmd, const char *arg, size_t *unit);
/* -j/--jobs N: threads, 1 to CLI_MAX_JOBS. */
#define CLI_MAX_JOBS 256u
int cli_jobs(const char *cmd, const char *arg, unsigned int *jobs);
/* --virtual-lbr N: records a sample, 1 to HWT_VIRTUAL_LBR_MAX. */
int cli_virtual_lbr(const char *cmd, const char *arg, unsigned int *n);
/* The default of --jobs: the online CPUs, 1 to CLI_MAX_JOBS. */
unsigned int cli_online_cpus(void);

#endif
