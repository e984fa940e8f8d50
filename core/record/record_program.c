/* A backend that is its own trace source (hwt_program_ops): which -e
 * names one, its checks of an event and a trigger, and the recording,
 * all through the backend's table so that the core names no backend. */
#include <string.h>

#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/recorder.h"

const struct hwt_backend *hwt_record_program_backend(const char *event)
{
	char name[64];

	if (!event)
		return NULL;
	/* The backend's name is what comes before its terms' slash. */
	size_t len = strcspn(event, "/");
	if (!len || len >= sizeof(name))
		return NULL;
	memcpy(name, event, len);
	name[len] = '\0';
	const struct hwt_backend *be = hwt_backend_find(name);
	if (!be || strcmp(be->name, name) || !be->record || !be->record->program)
		return NULL;
	return be;
}

/* @be's program ops, or NULL with HWT_ERR_NOSUP naming it. */
static const struct hwt_program_ops *program_ops(const struct hwt_backend *be)
{
	if (be && be->record && be->record->program)
		return be->record->program;
	hwt_error(HWT_ERR_NOSUP, "backend %s is not a trace source of its own: "
		  "record it through a session (hwt_record_setup_new)",
		  be && be->name ? be->name : "(none)");
	return NULL;
}

int hwt_record_program_check_event(const struct hwt_backend *be,
				   const char *event)
{
	const struct hwt_program_ops *ops = program_ops(be);

	if (!ops)
		return HWT_ERR_NOSUP;
	return ops->check_event ? ops->check_event(event) : 0;
}

int hwt_record_program_check_trigger(const struct hwt_backend *be,
				     const char *trigger)
{
	const struct hwt_program_ops *ops = program_ops(be);

	if (!ops)
		return HWT_ERR_NOSUP;
	if (!ops->check_trigger)
		return hwt_error(HWT_ERR_CONFIG, "%s has no flight recorder: "
				 "it takes no trigger", be->name);
	return ops->check_trigger(trigger);
}

int hwt_recorder_record_program(const struct hwt_backend *be,
				const struct hwt_swb_opts *o,
				struct hwt_swb_stats *stats)
{
	const struct hwt_program_ops *ops = program_ops(be);

	if (!ops)
		return HWT_ERR_NOSUP;
	if (!o || !ops->record)
		return hwt_error(HWT_ERR_INVAL, "hwt_recorder_record_program: "
				 "no options, or %s has no record op", be->name);
	return ops->record(o, stats);
}
