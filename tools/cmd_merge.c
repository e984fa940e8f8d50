/* hwtrace merge: partial results (report --partial, decode --edges
 * --partial, export --partial) merged into the final output, or into
 * one partial. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hwtrace/error.h"
#include "hwtrace/merge_request.h"
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
		"export --to sqlite, to -o, a new file), or branch-profile (decode\n"
		"--branch-profile). The merge does not depend\n"
		"on the order or grouping of the parts. See docs/scale-out.md.\n\n"
		"  --kind KIND             report, collapsed, edges, autofdo, bolt,\n"
		"                          bolt-preagg, pprof, sqlite or\n"
		"                          branch-profile\n"
		"  --partial               write the merged partial result instead\n"
		"  --weight insns|time|calls  collapsed: what a stack counts\n"
		"  --top N                 report: the N first functions (default 25;\n"
		"                          0 for all)\n"
		"  --format text|jsonl     edges, branch-profile: lines or JSON\n"
		"                          objects\n"
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

struct merge_args {
	bool has_kind;
	enum hwt_merge_kind kind;
	bool partial;
	enum hwt_report_weight weight;
	uint64_t top;
	enum hwt_output_format format;
	const char *output;
};

/* The request the options make, once they are read: the parts follow
 * them. */
static struct hwt_merge_request request_of(const struct merge_args *a,
					   int argc)
{
	return (struct hwt_merge_request){
		.has_kind = a->has_kind,
		.kind = a->kind,
		.partial = a->partial,
		.output = a->output,
		.nparts = optind < argc ? (size_t)(argc - optind) : 0,
	};
}

static int parse_args(int argc, char **argv, struct merge_args *a)
{
	int c, rc;
	a->top = 25;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_KIND: {
			struct hwt_merge_request rq = {.has_kind = false};
			if (hwt_merge_request_kind(&rq, optarg))
				return cli_usage_error("merge", "%s",
						       hwt_errmsg());
			a->kind = rq.kind;
			a->has_kind = true;
			break;
		}
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
	const struct hwt_merge_request rq = request_of(a, argc);
	if (hwt_merge_request_check(&rq))
		return cli_usage_error("merge", "%s", hwt_errmsg());
	return 0;
}

/* -o or standard output: the merged result, or the merged partial. */
static int merge_stream(const struct merge_args *a,
			const struct hwt_merge_request *rq, char **parts)
{
	FILE *out;
	struct hwt_outfile *of;
	int rc = cli_output_open("merge", a->output, (const char *const *)parts,
				 rq->nparts, &out, &of);
	if (rc)
		return rc;
	struct hwt_partial *sum;
	int err = hwt_merge_request_merge(rq, (const char *const *)parts, &sum);
	/* decode --edges --format jsonl's stream starts so too. */
	if (!err && !a->partial && a->kind == HWT_MERGE_EDGES &&
	    a->format == HWT_OUTPUT_JSONL)
		cli_jsonl_header(out, "edges", hwt_version());
	if (a->kind == HWT_MERGE_BRANCH_PROFILE && a->format == HWT_OUTPUT_JSONL)
		cli_jsonl_header(out, "branch_profile", hwt_version());
	struct hwt_merge_write_opts opts = {
		.top = (size_t)a->top, .weight = a->weight, .format = a->format,
	};
	if (!err)
		err = hwt_merge_request_write(rq, sum, &opts, out);
	hwt_partial_free(sum);
	int wrc = cli_output_close("merge", out, a->output, of, err < 0);
	if (wrc)
		return wrc;
	return err ? cli_report(err) : EXIT_OK;
}

/* SQLite: the database, written to the output's temporary file, which
 * takes its place when complete; as export, it creates a database and
 * replaces none. */
static int merge_database(const struct hwt_merge_request *rq, char **parts)
{
	if (hwt_merge_request_output_check(rq)) {
		fprintf(stderr, "hwtrace merge: %s\n", hwt_errmsg());
		return EXIT_USAGE;
	}
	FILE *out;
	struct hwt_outfile *of;
	int rc = cli_output_open("merge", rq->output, (const char *const *)parts,
				 rq->nparts, &out, &of);
	if (rc)
		return rc;
	int err = 0;
	if (!of)
		err = hwt_error(HWT_ERR_INVAL, "%s: a database is a regular "
				"file: give another -o", rq->output);
	else
		hwt_outfile_set_no_replace(of);
	struct hwt_partial *sum = NULL;
	if (!err)
		err = hwt_merge_request_merge(rq, (const char *const *)parts, &sum);
	if (!err)
		err = hwt_partial_write_sqlite(sum, hwt_outfile_temp_path(of),
					       rq->output);
	hwt_partial_free(sum);
	int wrc = cli_output_close("merge", out, rq->output, of, err < 0);
	if (wrc)
		return wrc;
	return err ? cli_report(err) : EXIT_OK;
}

/* AutoFDO, BOLT: the merged profiles as export's files, named from -o;
 * the files written listed on standard error. */
static int merge_profiles(const struct hwt_merge_request *rq, char **parts)
{
	struct hwt_partial *sum;
	int err = hwt_merge_request_merge(rq, (const char *const *)parts, &sum);
	if (!err)
		err = hwt_merge_request_write_profiles(rq, sum, stderr,
						       "hwtrace merge: ");
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
	const struct hwt_merge_request rq = request_of(&a, argc);
	char **parts = argv + optind;
	switch (hwt_merge_request_dest(&rq)) {
	case HWT_MERGE_TO_PROFILES:
		return merge_profiles(&rq, parts);
	case HWT_MERGE_TO_DATABASE:
		return merge_database(&rq, parts);
	case HWT_MERGE_TO_STREAM:
		break;
	}
	return merge_stream(&a, &rq, parts);
}
