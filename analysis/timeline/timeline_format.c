/* The timeline formats by name (`hwtrace timeline --format`). */
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/timeline.h"

/* In enum hwt_timeline_format's order. */
static const char *const format_names[] = {"perfetto", "chrome", "speedscope"};

#define NFORMATS (sizeof(format_names) / sizeof(format_names[0]))

int hwt_timeline_format_parse(const char *name, enum hwt_timeline_format *out)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (!strcmp(name, format_names[i])) {
			*out = (enum hwt_timeline_format)i;
			return 0;
		}
	return HWT_ERR_INVAL;
}

const char *hwt_timeline_format_name(enum hwt_timeline_format format)
{
	return (size_t)format < NFORMATS ? format_names[format] : "unknown";
}
