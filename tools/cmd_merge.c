/* hwtrace merge: partial results (report --partial, decode --edges
 * --partial, export --partial) merged into the final output, or into
 * one partial. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "hwtrace/error.h"
#include "hwtrace/infile.h"
#include "hwtrace/outfile.h"
#include "hwtrace/partial.h"
#include "report_options.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace merge --kind KIND PART... [options]\n\n"
		"Merges partial results into what one process gives on the whole\n"
		"input: KIND report (the table of hwtrace report), collapsed (its\n"
		"folded stacks), edges (decode --edges), or autofdo, bolt or\n"
		"bolt-preagg (export --partial: the files of export --to KIND, one\n"
		"per binary, named from -o as export names them), or pprof (the\n"
		"profile of export --to pprof, to -o), or sqlite (the database of\n"
		"export --to sqlite, to -o, a new file). The merge does not depend\n"
		"on the order or grouping of the parts. See docs/scale-out.md.\n\n"
		"  --kind KIND             report, collapsed, edges, autofdo, bolt,\n"
		"                          bolt-preagg, pprof or sqlite\n"
		"  --partial               write the merged partial result instead\n"
		"  --weight insns|time|calls  collapsed: what a stack counts\n"
		"  --top N                 report: the N first functions (default 25;\n"
		"                          0 for all)\n"
		"  --format text|jsonl     edges: lines or JSON objects\n"
		"  -o FILE                 write to FILE instead of standard output\n"
		"                          (autofdo, bolt: the files' prefix or\n"
		"                          directory, required without --partial;\n"
		"                          pprof, sqlite: required without\n"
		"                          --partial; sqlite: a file that does not\n"
		"                          exist yet)\n"
		"  -h, --help              this text\n\n"
		"Exit status: 0 done, 1 failed (a part that is not a partial\n"
		"result, or of another kind: the message names it), 2 usage.\n");
}

enum { OPT_KIND = 256, OPT_PARTIAL, OPT_WEIGHT, OPT_TOP, OPT_FORMAT };

static const struct option long_opts[] = {
	{"kind", required_argument, NULL, OPT_KIND},
	{"partial", no_argument, NULL, OPT_PARTIAL},
	{"weight", required_argument, NULL, OPT_WEIGHT},
	{"top", required_argument, NULL, OPT_TOP},
	{"format", required_argument, NULL, OPT_FORMAT},
	{"output", required_argument, NULL, 'o'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

enum merge_kind {
	KIND_NONE, KIND_REPORT, KIND_COLLAPSED, KIND_EDGES, KIND_AUTOFDO,
	KIND_BOLT, KIND_BOLT_PREAGG, KIND_PPROF, KIND_SQLITE,
};

/* The --kind names, in enum merge_kind's order from KIND_REPORT. */
static const char *const kind_names[] = {
	"report", "collapsed", "edges", "autofdo", "bolt", "bolt-preagg",
	"pprof", "sqlite",
};

static enum merge_kind parse_kind(const char *name)
{
	for (size_t i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		if (!strcmp(name, kind_names[i]))
			return (enum merge_kind)(KIND_REPORT + i);
	return KIND_NONE;
}

/* The partials that merge into @kind. */
static enum hwt_partial_kind partial_kind(enum merge_kind kind)
{
	switch (kind) {
	case KIND_EDGES:
		return HWT_PARTIAL_EDGES;
	case KIND_AUTOFDO:
		return HWT_PARTIAL_AUTOFDO;
	case KIND_BOLT:
		return HWT_PARTIAL_BOLT;
	case KIND_BOLT_PREAGG:
		return HWT_PARTIAL_BOLT_PREAGG;
	case KIND_PPROF:
		return HWT_PARTIAL_PPROF;
	case KIND_SQLITE:
		return HWT_PARTIAL_SQLITE;
	default:
		return HWT_PARTIAL_REPORT;
	}
}

static bool per_binary(enum merge_kind kind)
{
	return kind == KIND_AUTOFDO || kind == KIND_BOLT ||
	       kind == KIND_BOLT_PREAGG;
}

struct merge_args {
	enum merge_kind kind;
	bool partial;
	enum hwt_report_weight weight;
	uint64_t top;
	enum hwt_output_format format;
	const char *output;
};

static int parse_args(int argc, char **argv, struct merge_args *a)
{
	int c, rc;
	a->top = 25;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_KIND:
			a->kind = parse_kind(optarg);
			if (!a->kind)
				return cli_usage_error("merge", "--kind %s: use "
						       "report, collapsed, edges, "
						       "autofdo, bolt, "
						       "bolt-preagg, pprof or "
						       "sqlite", optarg);
			break;
		case OPT_PARTIAL:
			a->partial = true;
			break;
		case OPT_WEIGHT:
			if ((rc = cli_report_weight("merge", optarg, &a->weight)))
				return rc;
			break;
		case OPT_TOP:
			if ((rc = cli_report_top("merge", optarg, &a->top)))
				return rc;
			break;
		case OPT_FORMAT:
			if (hwt_output_format_parse(optarg, &a->format) < 0)
				return cli_usage_error("merge", "--format %s: use "
						       "text or jsonl", optarg);
			break;
		case 'o':
			a->output = optarg;
			break;
		case ':':
			return cli_usage_error("merge", "%s needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error("merge", "unknown option %s",
					       argv[optind - 1]);
		}
	}
	if (!a->kind)
		return cli_usage_error("merge", "no --kind (report, collapsed, "
				       "edges, autofdo, bolt, bolt-preagg, "
				       "pprof or sqlite)");
	if (per_binary(a->kind) && !a->partial && !a->output)
		return cli_usage_error("merge", "--kind %s writes one file per "
				       "binary: -o PREFIX or DIRECTORY is "
				       "required", kind_names[a->kind -
							      KIND_REPORT]);
	/* A compressed profile is not for a terminal or a pipe's reader
	 * to guess at: export --to pprof takes -o too. */
	if (a->kind == KIND_PPROF && !a->partial && !a->output)
		return cli_usage_error("merge", "--kind pprof writes a "
				       "compressed profile: -o FILE is "
				       "required");
	if (a->kind == KIND_SQLITE && !a->partial && !a->output)
		return cli_usage_error("merge", "--kind sqlite writes a "
				       "database: -o FILE is required");
	if (optind >= argc)
		return cli_usage_error("merge", "no partial result to merge");
	return 0;
}

/* Reads @path and adds it to *@sum (the first part becomes it). */
static int merge_part(const char *path, enum hwt_partial_kind want,
		      struct hwt_partial **sum)
{
	FILE *in;
	int err = hwt_infile_fopen(path, "partial result", 0, &in);
	if (err < 0)
		return err;
	struct hwt_partial *p;
	err = hwt_partial_read(in, path, &p);
	fclose(in);
	if (err < 0)
		return err;
	if (hwt_partial_kind(p) != want)
		err = hwt_error(HWT_ERR_FORMAT, "%s: a partial result of kind %s "
				"where %s was asked for", path,
				hwt_partial_kind_name(hwt_partial_kind(p)),
				hwt_partial_kind_name(want));
	else if (*sum)
		err = hwt_partial_merge(*sum, p);
	if (err < 0 && err != HWT_ERR_NOMEM && hwt_errmsg()[0] &&
	    strncmp(hwt_errmsg(), path, strlen(path))) {
		char msg[512];
		snprintf(msg, sizeof(msg), "%s", hwt_errmsg());
		err = hwt_error(err, "%s: %s", path, msg);
	}
	if (!err && !*sum) {
		*sum = p;
		p = NULL;
	}
	hwt_partial_free(p);
	return err;
}

static int write_merged(const struct merge_args *a, const struct hwt_partial *p,
			FILE *out)
{
	if (a->partial)
		return hwt_partial_write(p, out);
	switch (a->kind) {
	case KIND_REPORT:
		return hwt_partial_write_report(p, out, (size_t)a->top);
	case KIND_COLLAPSED:
		return hwt_partial_write_collapsed(p, out, a->weight);
	case KIND_PPROF:
		return hwt_partial_write_pprof(p, out);
	default:
		/* decode --edges --format jsonl's stream starts so too. */
		if (a->format == HWT_OUTPUT_JSONL)
			cli_jsonl_header(out, "edges", hwt_version());
		return hwt_partial_write_edges(p, out, a->format);
	}
}

/* SQLite: the database, written to the output's temporary file, which
 * takes its place when complete; as export, it creates a database and
 * replaces none. */
static int merge_database(const struct merge_args *a, int argc, char **argv)
{
	struct stat st;
	if (lstat(a->output, &st) == 0) {
		fprintf(stderr, "hwtrace merge: %s exists: give another -o (the "
			"merge creates a database, it does not replace one)\n",
			a->output);
		return EXIT_USAGE;
	}
	FILE *out;
	struct hwt_outfile *of;
	int rc = cli_output_open("merge", a->output,
				 (const char *const *)argv + optind,
				 (size_t)(argc - optind), &out, &of);
	if (rc)
		return rc;
	int err = 0;
	if (!of)
		err = hwt_error(HWT_ERR_INVAL, "%s: a database is a regular "
				"file: give another -o", a->output);
	else
		hwt_outfile_set_no_replace(of);
	struct hwt_partial *sum = NULL;
	for (int i = optind; i < argc && !err; i++)
		err = merge_part(argv[i], HWT_PARTIAL_SQLITE, &sum);
	if (!err)
		err = hwt_partial_write_sqlite(sum, hwt_outfile_temp_path(of),
					       a->output);
	hwt_partial_free(sum);
	int wrc = cli_output_close("merge", out, a->output, of, err < 0);
	if (wrc)
		return wrc;
	return err ? cli_report(err) : EXIT_OK;
}

/* AutoFDO, BOLT: the merged profiles as export's files, named from -o;
 * the files written listed on standard error. */
static int merge_profiles(const struct merge_args *a, int argc, char **argv)
{
	struct hwt_partial *sum = NULL;
	int err = 0;
	for (int i = optind; i < argc && !err; i++)
		err = merge_part(argv[i], partial_kind(a->kind), &sum);
	/* The files are listed once all are in place. */
	char *listing = NULL;
	size_t len = 0;
	FILE *list = err ? NULL : open_memstream(&listing, &len);
	if (!err && !list)
		err = hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (!err)
		err = hwt_partial_write_profiles(sum, a->output, list);
	if (list)
		fclose(list);
	if (!err)
		fprintf(stderr, "hwtrace merge: %d partial results merged into "
			"the files:\n%s", argc - optind, listing ? listing : "");
	free(listing);
	hwt_partial_free(sum);
	return err ? cli_report(err) : EXIT_OK;
}

int cmd_merge(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	struct merge_args a;
	memset(&a, 0, sizeof(a));
	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc;
	if (per_binary(a.kind) && !a.partial)
		return merge_profiles(&a, argc, argv);
	if (a.kind == KIND_SQLITE && !a.partial)
		return merge_database(&a, argc, argv);
	FILE *out;
	struct hwt_outfile *of;
	rc = cli_output_open("merge", a.output, (const char *const *)argv + optind,
			     (size_t)(argc - optind), &out, &of);
	if (rc)
		return rc;
	enum hwt_partial_kind want = partial_kind(a.kind);
	struct hwt_partial *sum = NULL;
	int err = 0;
	for (int i = optind; i < argc && !err; i++)
		err = merge_part(argv[i], want, &sum);
	if (!err)
		err = write_merged(&a, sum, out);
	hwt_partial_free(sum);
	int wrc = cli_output_close("merge", out, a.output, of, err < 0);
	if (wrc)
		return wrc;
	return err ? cli_report(err) : EXIT_OK;
}
