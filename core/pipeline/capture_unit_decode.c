/* One unit of a capture decoded through a cursor on it, its elements
 * handed to a sink as the whole decode would hand them, and its branch
 * profile when the options ask for one (hwt_capture_decode_unit,
 * hwtrace/capture.h): what `report --unit`, `decode --edges --unit` and
 * `decode --branch-profile --unit` decode, and a batch worker's piece. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/pipeline/pipeline_internal.h"
#include "hwtrace/capture.h"
#include "hwtrace/error.h"
#include "hwtrace/image.h"
#include "hwtrace/listing.h"
#include "hwtrace/sample.h"

/* The error @err again, its message led by the file and the unit, so that
 * a batch engine's log says which unit failed. */
static int name_unit(int err, const char *file, size_t unit)
{
	char msg[512];
	snprintf(msg, sizeof(msg), "%s", hwt_errmsg()[0] ? hwt_errmsg()
							 : hwt_errstr(err));
	return hwt_error(err, "%s, unit %zu: %s", file, unit, msg);
}

/* A unit's decode: where its elements go and, when the options ask for
 * a branch profile, the profile they are counted into and the image its
 * addresses are rendered with. The image is a reference of our own: the
 * cursor's decode lets go of it when it ends, and the profile is written
 * after the cursor is freed. */
struct unit_run {
	const struct hwt_decode_opts *opts;
	const struct hwt_elem_sink *sink;
	struct hwt_branch_count_sink counts; /* .branch NULL: no profile */
	struct hwt_branch_profile *p;
	struct hwt_image *image;
};

/* On the cursor's decode thread, before its first element; the cursor
 * is joined before the reference is used or let go. */
static void unit_on_image(void *arg, struct hwt_image *image)
{
	struct unit_run *r = arg;
	if (r->p && !r->image)
		r->image = hwt_image_ref(image);
	if (r->opts->on_image)
		r->opts->on_image(r->opts->on_image_arg, image);
}

/* Pulls the unit's elements into the sink, counting each into the
 * profile first when there is one. */
static int pull(struct unit_run *r, struct hwt_cursor *cur)
{
	struct hwt_elem e;
	int got;
	while ((got = hwt_cursor_next(cur, &e)) > 0) {
		int err = r->p ? hwt_branch_profile_add_elem(r->p, &e) : 0;
		if (!err)
			err = r->sink->emit(r->sink->arg, &e);
		if (err)
			return err;
	}
	return got;
}

static int open_cursor(struct hwt_capture *cap, size_t unit,
		       struct unit_run *r, struct hwt_cursor **cur)
{
	const struct hwt_decode_opts *opts = r->opts;
	const struct hwt_capture_unit *units;
	int64_t n = hwt_capture_units(cap, &units);
	if (n < 0)
		return (int)n;
	if (unit < 1 || (uint64_t)unit > (uint64_t)n)
		return hwt_error(HWT_ERR_INVAL, "no such unit: the capture has "
				 "%lld (hwtrace units lists them)", (long long)n);
	struct hwt_cursor_opts o = {
		.size = sizeof(o),
		.order = HWT_CURSOR_ORDER_STREAM,
		.filter_cpu = opts->filter_cpu,
		.cpu = opts->cpu,
		.filter_tid = opts->filter_tid,
		.tid = opts->tid,
		.filter_time = opts->filter_time,
		.time_start = opts->time_start,
		.time_end = opts->time_end,
		.disasm = opts->disasm,
		.unit = unit,
		/* The decode's warnings where the whole-file decode puts
		 * them, not as error elements the counts would count. */
		.warn = opts->warn,
		.warn_arg = opts->warn_arg,
		.on_image = unit_on_image,
		.on_image_arg = r,
	};
	return hwt_cursor_new(cap, &o, cur);
}

int hwt_capture_decode_unit(const char *file, size_t unit,
			    const struct hwt_decode_opts *opts,
			    const struct hwt_elem_sink *sink)
{
	if (!file || !opts || !sink || !sink->emit)
		return hwt_error(HWT_ERR_INVAL, "hwt_capture_decode_unit: "
				 "missing argument");
	/* The options as the whole-file decode reads them: a branch_profile
	 * FILE given alone gets the text printer as its sink. */
	struct hwt_decode_opts o;
	int err = hwt_decode_opts_copy(opts, &o);
	if (err)
		return err;
	opts = &o;
	struct unit_run r = {opts, sink, opts->branch_count_sink, NULL, NULL};
	if (r.counts.branch && !(r.p = hwt_branch_profile_new()))
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the profile");
	struct hwt_capture_opts copts = {
		.size = sizeof(copts),
		.lookup = opts->lookup,
		.kcore = opts->kcore,
		.cpu_model = opts->cpu_model,
		.ignore_build_ids = opts->ignore_build_ids,
	};
	struct hwt_capture *cap = NULL;
	struct hwt_cursor *cur = NULL;
	err = hwt_capture_open(file, &copts, &cap);
	if (!err)
		err = open_cursor(cap, unit, &r, &cur);
	if (!err)
		err = pull(&r, cur);
	/* The decode thread is joined here: the image is ours alone. */
	hwt_cursor_free(cur);
	if (!err && r.p)
		err = hwt_branch_profile_emit(r.p, r.image, opts->name_addr,
					      opts->name_addr_arg, &r.counts);
	hwt_image_free(r.image);
	hwt_branch_profile_free(r.p);
	hwt_capture_free(cap);
	return err ? name_unit(err, file, unit) : 0;
}
