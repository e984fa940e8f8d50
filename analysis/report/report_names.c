/* The names a report's orders and weights go by on a command line:
 * perf report's --sort keys where they apply, and the folded stacks'
 * weights. */
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/report_request.h"

static const struct {
	const char *name;
	enum hwt_report_sort_key key;
} sort_keys[] = {
	{"self", HWT_SORT_SELF}, {"total", HWT_SORT_TOTAL},
	{"children", HWT_SORT_TOTAL}, {"calls", HWT_SORT_CALLS},
	{"dso", HWT_SORT_DSO}, {"sym", HWT_SORT_SYM},
	{"tid", HWT_SORT_TID}, {"pid", HWT_SORT_TID},
	{"comm", HWT_SORT_COMM},
};

#define NSORT_KEYS (sizeof(sort_keys) / sizeof(sort_keys[0]))

/* The key of the @len bytes at @name, or NSORT_KEYS. */
static size_t sort_key_at(const char *name, size_t len)
{
	size_t i = 0;
	while (i < NSORT_KEYS && (strlen(sort_keys[i].name) != len ||
				  strncmp(sort_keys[i].name, name, len)))
		i++;
	return i;
}

int hwt_report_sort_parse(const char *list, enum hwt_report_sort_key *keys,
			  size_t *nkeys, bool *by_line)
{
	*nkeys = 0;
	/* By source line: the table of --srcline, by self instructions. */
	if (!strcmp(list, "srcline")) {
		*by_line = true;
		return 0;
	}
	for (const char *k = list;; k++) {
		/* "dso,sym": the key at k, up to the next comma. */
		size_t len = strcspn(k, ",");
		size_t i = sort_key_at(k, len);
		if (len == 7 && !strncmp(k, "srcline", 7))
			return hwt_error(HWT_ERR_INVAL, "--sort srcline goes "
					 "alone: the table by source line (as "
					 "--srcline)");
		if (i == NSORT_KEYS)
			return hwt_error(HWT_ERR_INVAL, "--sort: no key '%.*s' "
					 "(keys: self, total, children, calls, "
					 "dso, sym, tid (or pid), comm, "
					 "srcline)", (int)len, k);
		if (*nkeys == HWT_REPORT_SORT_MAX)
			return hwt_error(HWT_ERR_INVAL, "--sort: at most %d keys",
					 HWT_REPORT_SORT_MAX);
		keys[(*nkeys)++] = sort_keys[i].key;
		k += len;
		if (!*k)
			return 0;
	}
}

int hwt_report_weight_parse(const char *name, enum hwt_report_weight *out)
{
	static const char *const names[] = {
		[HWT_WEIGHT_INSNS] = "insns",
		[HWT_WEIGHT_TIME] = "time",
		[HWT_WEIGHT_CALLS] = "calls",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i])) {
			*out = (enum hwt_report_weight)i;
			return 0;
		}
	return HWT_ERR_INVAL;
}
