/* Profile values read as numbers, booleans, sizes ("4M") and CPU lists
 * ("0-3,6"), with messages naming the key and where it was set. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/config/config_internal.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/value.h"

int hwt_profile_get_u64(const struct hwt_profile *p, const char *key,
			uint64_t def, uint64_t *out)
{
	const char *v = hwt_profile_get(p, key);

	if (!v) {
		*out = def;
		return 0;
	}
	if (hwt_value_parse_u64(v, out) != HWT_VALUE_OK)
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: %s = \"%s\" is not a number (use decimal "
				 "or 0x-hexadecimal)", hwt_config_where(p, key),
				 key, v);
	return 0;
}

int hwt_profile_get_bool(const struct hwt_profile *p, const char *key,
			 bool def, bool *out)
{
	static const char *const yes[] = {"1", "yes", "true", "on"};
	static const char *const no[] = {"0", "no", "false", "off"};
	const char *v = hwt_profile_get(p, key);

	*out = def;
	if (!v)
		return 0;
	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(v, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(v, no[i])) {
			*out = false;
			return 0;
		}
	}
	return hwt_error(HWT_ERR_CONFIG,
			 "%s: %s = \"%s\" is not a boolean (use yes or no)",
			 hwt_config_where(p, key), key, v);
}

int hwt_profile_get_size(const struct hwt_profile *p, const char *key,
			 uint64_t def, uint64_t *out)
{
	const char *v = hwt_profile_get(p, key);

	if (!v) {
		*out = def;
		return 0;
	}
	if (hwt_value_parse_size(v, out) != HWT_VALUE_OK)
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: %s = \"%s\" is not a size (e.g. 4M, 512K "
				 "or 65536)", hwt_config_where(p, key), key, v);
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int hwt_cpu_list_parse(const char *text, int **cpus, size_t *count)
{
	const char *s = text;
	int *v = NULL;
	size_t n = 0, cap = 0;

	for (;;) {
		char *end;
		long lo, hi;

		while (*s == ' ')
			s++;
		if (!isdigit((unsigned char)*s))
			goto bad;
		lo = strtol(s, &end, 10);
		hi = lo;
		s = end;
		if (*s == '-') {
			s++;
			if (!isdigit((unsigned char)*s))
				goto bad;
			hi = strtol(s, &end, 10);
			s = end;
		}
		if (lo > hi || hi > 4095)
			goto bad;
		for (long c = lo; c <= hi; c++) {
			if (n == cap) {
				size_t ncap = cap ? cap * 2 : 16;
				int *nv = realloc(v, ncap * sizeof(*v));
				if (!nv) {
					free(v);
					return hwt_error(HWT_ERR_NOMEM, "out of memory");
				}
				v = nv;
				cap = ncap;
			}
			v[n++] = (int)c;
		}
		while (*s == ' ' || *s == '\n')
			s++;
		if (!*s)
			break;
		if (*s != ',')
			goto bad;
		s++;
	}
	qsort(v, n, sizeof(*v), cmp_int);
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (!u || v[u - 1] != v[i])
			v[u++] = v[i];
	*cpus = v;
	*count = u;
	return 0;
bad:
	free(v);
	return hwt_error(HWT_ERR_CONFIG,
			 "\"%s\" is not a CPU list (use e.g. 0-3,6 or all)", text);
}
