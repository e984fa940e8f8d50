/* A profile as a command line asks for it, in the terms of `hwtrace
 * config check`'s options: an INI file, then -e event strings, then
 * --set SECTION.KEY=VALUE overrides, then --filter for the backend the
 * profile names, checked against this machine or another one's sysfs
 * tree. A program offering the same options refuses the same requests
 * with the same words and builds the same profile. */
#ifndef HWTRACE_PROFILE_REQUEST_H
#define HWTRACE_PROFILE_REQUEST_H

#include <stddef.h>

#include "hwtrace/common.h"
#include "hwtrace/config.h"
#include "hwtrace/profile_check.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A profile as asked for. Zero-initialise, then set size. Strings and
 * arrays are borrowed for the call. */
struct hwt_profile_request {
	size_t size;               /* sizeof(struct hwt_profile_request) */
	const char *file;          /* an INI profile; NULL: an empty profile */
	const char *const *events; /* -e strings, applied in this order */
	size_t nevents;
	const char *const *sets;   /* "SECTION.KEY=VALUE" (or SECTION:KEY),
				    * applied after the events, in order */
	size_t nsets;
	const char *filter;        /* --filter: the backend's address
				    * filters; NULL: none */
	const char *sysfs;         /* a sysfs tree to check against; NULL:
				    * this machine's /sys */
};

/* Whether @rq is a request at all, before anything is read: it names a
 * file, an event, a --set or a filter ("check needs a profile FILE, -e
 * EVENT or --set KEY=VALUE"); sysfs is a directory ("--sysfs DIR: the
 * directory does not exist", "--sysfs DIR: not a directory"); the
 * filter is not empty; every --set has an '=' ("--set ITEM: expected
 * SECTION.KEY=VALUE"). The checks are made in that order and the first
 * that fails is the message. Errors: HWT_ERR_INVAL (also for no @rq or
 * no size). */
HWT_API int hwt_profile_request_validate(const struct hwt_profile_request *rq);

/* The profile @rq asks for into *@out (free it with hwt_profile_free):
 * the file loaded (or an empty profile), each event applied
 * (hwt_profile_parse_event), each --set applied with origin "--set",
 * then the filter set as "BACKEND:filter" with origin "--filter", where
 * BACKEND is the profile's session:backend by then (intel_pt when it
 * names none). Does not validate @rq. Errors: hwt_profile_load's,
 * hwt_profile_parse_event's and hwt_profile_set_from's (a key longer
 * than 255 characters is cut there), HWT_ERR_NOMEM; *@out is NULL on
 * failure. */
HWT_API int hwt_profile_request_build(const struct hwt_profile_request *rq,
				      struct hwt_profile **out);

/* The profile of @rq built (hwt_profile_request_build) and checked
 * against the PMUs of rq->sysfs (or this machine's) by
 * hwt_profile_check, into *@out (free it with hwt_profile_check_free).
 * Nothing is opened. Does not validate @rq. Errors:
 * hwt_profile_request_build's and hwt_profile_check's, HWT_ERR_NOMEM;
 * *@out is NULL on failure. */
HWT_API int hwt_profile_request_check(const struct hwt_profile_request *rq,
				      struct hwt_profile_check **out);

#ifdef __cplusplus
}
#endif

#endif
