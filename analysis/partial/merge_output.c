/* A checked merge request carried out: its parts merged, and the result
 * written where hwt_merge_request_dest says, as `hwtrace merge` does. */
#include <stdlib.h>
#include <sys/stat.h>

#include "hwtrace/error.h"
#include "hwtrace/merge_request.h"

int hwt_merge_request_merge(const struct hwt_merge_request *rq,
			    const char *const *parts, struct hwt_partial **out)
{
	return hwt_partial_merge_files(parts, rq->nparts,
				       hwt_merge_kind_partial(rq->kind), out);
}

int hwt_merge_request_output_check(const struct hwt_merge_request *rq)
{
	struct stat st;

	/* As export, a merge creates a database and replaces none: lstat,
	 * so that a link is not followed to a file it would replace. */
	if (hwt_merge_request_dest(rq) == HWT_MERGE_TO_DATABASE &&
	    rq->output && lstat(rq->output, &st) == 0)
		return hwt_error(HWT_ERR_CONFIG, "%s exists: give another -o "
				 "(the merge creates a database, it does not "
				 "replace one)", rq->output);
	return 0;
}

int hwt_merge_request_write(const struct hwt_merge_request *rq,
			    const struct hwt_partial *sum,
			    const struct hwt_merge_write_opts *opts, FILE *out)
{
	if (rq->partial)
		return hwt_partial_write(sum, out);
	return hwt_partial_write_merged(sum, rq->kind, opts, out);
}

int hwt_merge_request_write_profiles(const struct hwt_merge_request *rq,
				     const struct hwt_partial *sum,
				     FILE *report, const char *prefix)
{
	/* The files are listed once all are in place, so the listing is
	 * kept until then. */
	char *listing = NULL;
	size_t len = 0;
	FILE *list = report ? open_memstream(&listing, &len) : NULL;
	if (report && !list)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	int err = hwt_partial_write_profiles(sum, rq->output, list);
	if (list)
		fclose(list);
	if (!err && report)
		fprintf(report, "%s%zu partial results merged into the files:\n%s",
			prefix ? prefix : "", rq->nparts, listing ? listing : "");
	free(listing);
	return err;
}
