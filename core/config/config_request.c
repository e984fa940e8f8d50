/* hwt_profile_request (hwtrace/profile_request.h): a command line's
 * profile pieces put together in the order their options promise. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/profile_request.h"

/* A sysfs tree that is not there would read as a machine without trace
 * PMUs, and the check would blame the profile. */
static int sysfs_check(const char *dir)
{
	struct stat st;

	if (stat(dir, &st)) {
		if (errno == ENOENT || errno == ENOTDIR)
			return hwt_error(HWT_ERR_INVAL, "--sysfs %s: the directory "
					 "does not exist", dir);
		return hwt_error(HWT_ERR_INVAL, "--sysfs %s: %s", dir,
				 strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return hwt_error(HWT_ERR_INVAL, "--sysfs %s: not a directory", dir);
	return 0;
}

int hwt_profile_request_validate(const struct hwt_profile_request *rq)
{
	if (!rq || rq->size < sizeof(*rq))
		return hwt_error(HWT_ERR_INVAL, "no profile request");
	if (!rq->file && !rq->nevents && !rq->nsets && !rq->filter)
		return hwt_error(HWT_ERR_INVAL, "check needs a profile FILE, -e "
				 "EVENT or --set KEY=VALUE");
	int err = rq->sysfs ? sysfs_check(rq->sysfs) : 0;
	if (err)
		return err;
	/* An empty filter would silently mean no filter. */
	if (rq->filter && !*rq->filter)
		return hwt_error(HWT_ERR_INVAL, "--filter '': an empty filter "
				 "(give filter|start|stop|tracestop "
				 "SYM|ADDR[/SIZE] [@ FILE], or no --filter)");
	for (size_t i = 0; i < rq->nsets; i++)
		if (!strchr(rq->sets[i], '='))
			return hwt_error(HWT_ERR_INVAL, "--set %s: expected "
					 "SECTION.KEY=VALUE", rq->sets[i]);
	return 0;
}

static int apply_set(struct hwt_profile *profile, const char *item)
{
	const char *eq = strchr(item, '=');
	char key[256];

	if (!eq)
		return hwt_error(HWT_ERR_INVAL, "--set %s: expected "
				 "SECTION.KEY=VALUE", item);
	snprintf(key, sizeof(key), "%.*s", (int)(eq - item), item);
	return hwt_profile_set_from(profile, key, eq + 1, "--set");
}

/* The filter belongs to the trace PMU's section, so it goes in last,
 * once the events and sets have said which backend that is. */
static int apply_filter(struct hwt_profile *profile, const char *filter)
{
	const char *be = hwt_profile_get(profile, "session:backend");
	char key[96];

	snprintf(key, sizeof(key), "%s:filter", be ? be : "intel_pt");
	return hwt_profile_set_from(profile, key, filter, "--filter");
}

int hwt_profile_request_build(const struct hwt_profile_request *rq,
			      struct hwt_profile **out)
{
	struct hwt_profile *profile = NULL;
	int err;

	if (!out)
		return hwt_error(HWT_ERR_INVAL, "no profile to build into");
	*out = NULL;
	if (!rq || rq->size < sizeof(*rq))
		return hwt_error(HWT_ERR_INVAL, "no profile request");
	if (rq->file)
		err = hwt_profile_load(rq->file, &profile);
	else
		err = (profile = hwt_profile_new()) ? 0 :
		      hwt_error(HWT_ERR_NOMEM, "no memory for a profile");
	for (size_t i = 0; !err && i < rq->nevents; i++)
		err = hwt_profile_parse_event(profile, rq->events[i]);
	for (size_t i = 0; !err && i < rq->nsets; i++)
		err = apply_set(profile, rq->sets[i]);
	if (!err && rq->filter)
		err = apply_filter(profile, rq->filter);
	if (err) {
		hwt_profile_free(profile);
		return err;
	}
	*out = profile;
	return 0;
}

int hwt_profile_request_check(const struct hwt_profile_request *rq,
			      struct hwt_profile_check **out)
{
	struct hwt_profile *profile = NULL;
	struct hwt_os *own = NULL;

	if (!out)
		return hwt_error(HWT_ERR_INVAL, "no profile check to fill");
	*out = NULL;
	int err = hwt_profile_request_build(rq, &profile);
	if (!err && rq->sysfs && !(own = hwt_os_linux_new(rq->sysfs)))
		err = hwt_error(HWT_ERR_NOMEM, "no memory for the sysfs tree %s",
				rq->sysfs);
	if (!err)
		err = hwt_profile_check(profile, own ? own : hwt_os_linux(), out);
	hwt_os_free(own);
	hwt_profile_free(profile);
	return err;
}
