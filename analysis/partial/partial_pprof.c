/* The pprof partial: the profile of an export (analysis/export's
 * pprof_profile, identified by content), copied, added up, and written
 * by the export's own canonical writer, so that a merge gives the bytes
 * one export of all the captures gives. */
#include <stdlib.h>

#include "analysis/partial/partial_internal.h"
#include "hwtrace/error.h"

int partial_pprof_new(struct hwt_partial *p)
{
	p->pprof = calloc(1, sizeof(*p->pprof));
	return p->pprof ? 0 : hwt_error(HWT_ERR_NOMEM, "out of memory");
}

void partial_pprof_free(struct hwt_partial *p)
{
	if (!p->pprof)
		return;
	pprof_profile_free(p->pprof);
	free(p->pprof);
	p->pprof = NULL;
}

int partial_pprof_from_export(const struct hwt_export *ex,
			      struct hwt_partial **out)
{
	*out = NULL;
	const struct pprof_profile *prof = hwt_pprof_profile(ex);
	if (!prof)
		return hwt_error(HWT_ERR_INVAL, "only a pprof export made with "
				 "opts.partial has a pprof partial result");
	struct hwt_partial *p = partial_new(HWT_PARTIAL_PPROF);
	if (!p)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	int err = pprof_profile_merge(p->pprof, prof);
	if (err) {
		hwt_partial_free(p);
		return err;
	}
	*out = p;
	return 0;
}

int partial_pprof_merge(struct hwt_partial *dst, const struct hwt_partial *src)
{
	return pprof_profile_merge(dst->pprof, src->pprof);
}

int hwt_partial_write_pprof(const struct hwt_partial *p, FILE *out)
{
	if (p->kind != HWT_PARTIAL_PPROF)
		return hwt_error(HWT_ERR_INVAL, "a %s partial result has no "
				 "pprof profile", hwt_partial_kind_name(p->kind));
	size_t nfuncs;
	return pprof_profile_write(p->pprof, out, &nfuncs);
}
