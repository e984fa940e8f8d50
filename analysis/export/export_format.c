/* The export formats by name (`hwtrace export --to`), and which of them
 * write one file per binary. */
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/export.h"

/* In enum hwt_export_format's order. */
static const char *const format_names[] = {
	"sqlite", "pprof", "autofdo", "bolt", "bolt-preagg", "postgresql",
};

#define NFORMATS (sizeof(format_names) / sizeof(format_names[0]))

int hwt_export_format_parse(const char *name, enum hwt_export_format *out)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (!strcmp(name, format_names[i])) {
			*out = (enum hwt_export_format)i;
			return 0;
		}
	return HWT_ERR_INVAL;
}

const char *hwt_export_format_name(enum hwt_export_format format)
{
	return (size_t)format < NFORMATS ? format_names[format] : "unknown";
}

bool hwt_export_format_per_binary(enum hwt_export_format format)
{
	return format == HWT_EXPORT_AUTOFDO || format == HWT_EXPORT_BOLT ||
	       format == HWT_EXPORT_BOLT_PREAGG;
}
