/* One unit of a capture decoded through a cursor on it, its elements
 * handed to a sink as the whole decode would hand them
 * (hwt_capture_decode_unit, hwtrace/capture.h): what `report --unit` and
 * `decode --edges --unit` decode, and a batch worker's piece. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hwtrace/capture.h"
#include "hwtrace/error.h"
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

/* What a unit's branch profile needs: the image its addresses are
 * rendered with, which the capture owns, so the profile is written
 * before the capture is freed. */
struct unit_profile {
	struct hwt_branch_profile *p;
	const struct hwt_elem_sink *next;
	struct hwt_image *image;
	const struct hwt_decode_opts *opts;
};

static void profile_on_image(void *arg, struct hwt_image *image)
{
	struct unit_profile *up = arg;
	up->image = image;
	if (up->opts->on_image)
		up->opts->on_image(up->opts->on_image_arg, image);
}

static int profile_emit(void *arg, const struct hwt_elem *e)
{
	struct unit_profile *up = arg;
	int err = hwt_branch_profile_add_elem(up->p, e);
	return err < 0 ? err : up->next->emit(up->next->arg, e);
}

/* The unit's elements to @sink; with @up, counted into its profile on
 * the way, and the profile handed to the decode's branch_count_sink at
 * the end. */
static int unit_decode(const char *file, size_t unit,
		       const struct hwt_decode_opts *opts,
		       const struct hwt_elem_sink *sink,
		       struct unit_profile *up)
{
	if (!file || !opts || !sink || !sink->emit)
		return hwt_error(HWT_ERR_INVAL, "hwt_capture_decode_unit: "
				 "missing argument");
	struct hwt_capture_opts copts = {
		.size = sizeof(copts),
		.lookup = opts->lookup,
		.kcore = opts->kcore,
		.cpu_model = opts->cpu_model,
		.ignore_build_ids = opts->ignore_build_ids,
	};
	struct hwt_capture *cap = NULL;
	int err = hwt_capture_open(file, &copts, &cap);
	const struct hwt_capture_unit *units;
	int64_t n = err ? 0 : hwt_capture_units(cap, &units);
	if (!err && n < 0)
		err = (int)n;
	if (!err && (unit < 1 || (uint64_t)unit > (uint64_t)n))
		err = hwt_error(HWT_ERR_INVAL, "no such unit: the capture has "
				"%lld (hwtrace units lists them)", (long long)n);
	struct hwt_cursor *cur = NULL;
	if (!err) {
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
			.on_image = up ? profile_on_image : opts->on_image,
			.on_image_arg = up ? (void *)up : opts->on_image_arg,
		};
		err = hwt_cursor_new(cap, &o, &cur);
	}
	struct hwt_elem e;
	int got;
	while (!err && (got = hwt_cursor_next(cur, &e)) != 0)
		err = got < 0 ? got : sink->emit(sink->arg, &e);
	if (!err && up)
		err = hwt_branch_profile_emit(up->p, up->image, opts->name_addr,
					      opts->name_addr_arg,
					      &opts->branch_count_sink);
	hwt_cursor_free(cur);
	hwt_capture_free(cap);
	return err ? name_unit(err, file, unit) : 0;
}

int hwt_capture_decode_unit(const char *file, size_t unit,
			    const struct hwt_decode_opts *opts,
			    const struct hwt_elem_sink *sink)
{
	return unit_decode(file, unit, opts, sink, NULL);
}

int hwt_capture_decode_unit_profile(const char *file, size_t unit,
				    const struct hwt_decode_opts *opts,
				    const struct hwt_elem_sink *sink)
{
	if (!file || !opts || !sink || !sink->emit)
		return hwt_error(HWT_ERR_INVAL, "hwt_capture_decode_unit_profile: "
				 "missing argument");
	struct unit_profile up = {hwt_branch_profile_new(), sink, NULL, opts};
	if (!up.p)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the profile");
	struct hwt_elem_sink counted = {profile_emit, &up};
	int err = unit_decode(file, unit, opts, &counted, &up);
	hwt_branch_profile_free(up.p);
	return err;
}
