/* The profile: "section:key = value" entries from an INI file (iniparser),
 * command-line overrides and perf-style event strings. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <iniparser.h>

#include "core/config_internal.h"
#include "hwtrace/error.h"

struct hwt_profile *hwt_profile_new(void)
{
	return calloc(1, sizeof(struct hwt_profile));
}

void hwt_profile_free(struct hwt_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->count; i++) {
		free(p->entries[i].key);
		free(p->entries[i].value);
		free(p->entries[i].origin);
	}
	free(p->entries);
	free(p->cpus);
	free(p);
}

static struct hwt_profile_entry *find(const struct hwt_profile *p,
				      const char *key)
{
	for (size_t i = 0; i < p->count; i++)
		if (!strcmp(p->entries[i].key, key))
			return &p->entries[i];
	return NULL;
}

/* "section.key" and "Section:Key" both become "section:key". */
static int normalise(const char *key, char *out, size_t size)
{
	size_t n = strlen(key);
	const char *sep = strchr(key, ':');

	if (!sep)
		sep = strchr(key, '.');
	if (!sep || sep == key || !sep[1] || n >= size)
		return hwt_error(HWT_ERR_CONFIG,
				 "\"%s\" is not section.key (e.g. session.mode "
				 "or intel_pt.cyc)", key);
	for (size_t i = 0; i <= n; i++)
		out[i] = (char)tolower((unsigned char)key[i]);
	out[sep - key] = ':';
	return 0;
}

int hwt_profile_set_from(struct hwt_profile *p, const char *key,
			 const char *value, const char *origin)
{
	struct hwt_profile_entry *e;
	char k[256];
	char *v, *o;
	int ret = normalise(key, k, sizeof(k));

	if (ret)
		return ret;
	v = strdup(value);
	o = strdup(origin ? origin : "--set");
	if (!v || !o) {
		free(v);
		free(o);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	e = find(p, k);
	if (e) {
		free(e->value);
		free(e->origin);
		e->value = v;
		e->origin = o;
		return 0;
	}
	if (p->count == p->cap) {
		size_t ncap = p->cap ? p->cap * 2 : 32;
		void *n = realloc(p->entries, ncap * sizeof(*p->entries));
		if (!n) {
			free(v);
			free(o);
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		}
		p->entries = n;
		p->cap = ncap;
	}
	e = &p->entries[p->count];
	e->key = strdup(k);
	if (!e->key) {
		free(v);
		free(o);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	e->value = v;
	e->origin = o;
	p->count++;
	return 0;
}

int hwt_profile_set(struct hwt_profile *p, const char *key, const char *value)
{
	return hwt_profile_set_from(p, key, value, "--set");
}

const char *hwt_profile_get(const struct hwt_profile *p, const char *key)
{
	const struct hwt_profile_entry *e = find(p, key);

	return e ? e->value : NULL;
}

const char *hwt_profile_origin(const struct hwt_profile *p, const char *key)
{
	const struct hwt_profile_entry *e = find(p, key);

	return e ? e->origin : NULL;
}

int hwt_profile_foreach(const struct hwt_profile *p, const char *section,
			int (*cb)(void *arg, const char *key, const char *value),
			void *arg)
{
	size_t len = strlen(section);

	for (size_t i = 0; i < p->count; i++) {
		const char *k = p->entries[i].key;
		int ret;

		if (strncmp(k, section, len) || k[len] != ':')
			continue;
		ret = cb(arg, k + len + 1, p->entries[i].value);
		if (ret)
			return ret;
	}
	return 0;
}

/* iniparser reports syntax errors through a global callback; keep the
 * first one for our message instead of letting it print. */
static _Thread_local char ini_error[256];

static int ini_errback(const char *fmt, ...)
{
	va_list ap;

	if (ini_error[0])
		return 0;
	va_start(ap, fmt);
	vsnprintf(ini_error, sizeof(ini_error), fmt, ap);
	va_end(ap);
	ini_error[strcspn(ini_error, "\n")] = '\0';
	return 0;
}

int hwt_profile_load(const char *path, struct hwt_profile **out)
{
	struct hwt_profile *p;
	dictionary *d;
	FILE *f;
	int ret = 0;

	f = fopen(path, "r");
	if (!f)
		return hwt_error(errno == ENOENT ? HWT_ERR_NOENT : HWT_ERR_IO,
				 "cannot open profile %s: %s", path,
				 strerror(errno));
	fclose(f);
	ini_error[0] = '\0';
	iniparser_set_error_callback(ini_errback);
	d = iniparser_load(path);
	if (!d || ini_error[0]) {
		if (d)
			iniparser_freedict(d);
		return hwt_error(HWT_ERR_FORMAT, "%s is not a valid INI file: %s",
				 path, ini_error[0] ? ini_error : "parse error");
	}
	p = hwt_profile_new();
	if (!p) {
		iniparser_freedict(d);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	for (int s = 0; !ret && s < iniparser_getnsec(d); s++) {
		const char *sec = iniparser_getsecname(d, s);
		int nkeys = iniparser_getsecnkeys(d, sec);
		const char **keys;

		if (nkeys <= 0)
			continue;
		keys = calloc((size_t)nkeys, sizeof(*keys));
		if (!keys) {
			ret = hwt_error(HWT_ERR_NOMEM, "out of memory");
			break;
		}
		iniparser_getseckeys(d, sec, keys);
		for (int k = 0; !ret && k < nkeys; k++) {
			const char *v = iniparser_getstring(d, keys[k], NULL);

			ret = hwt_profile_set_from(p, keys[k], v ? v : "", path);
		}
		free(keys);
	}
	iniparser_freedict(d);
	if (ret) {
		hwt_profile_free(p);
		return ret;
	}
	snprintf(p->path, sizeof(p->path), "%s", path);
	*out = p;
	return 0;
}

static const char *where(const struct hwt_profile *p, const char *key)
{
	const char *o = hwt_profile_origin(p, key);

	return o ? o : "default";
}

int hwt_profile_get_u64(const struct hwt_profile *p, const char *key,
			uint64_t def, uint64_t *out)
{
	const char *v = hwt_profile_get(p, key);
	char *end;

	if (!v) {
		*out = def;
		return 0;
	}
	errno = 0;
	*out = strtoull(v, &end, 0);
	if (errno || end == v || *end || v[0] == '-')
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: %s = \"%s\" is not a number (use decimal "
				 "or 0x-hexadecimal)", where(p, key), key, v);
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
			 where(p, key), key, v);
}

int hwt_config_parse_size(const char *v, uint64_t *out)
{
	char *end;
	uint64_t n, mul = 1;

	errno = 0;
	if (!isdigit((unsigned char)v[0]))
		return -1;
	n = strtoull(v, &end, 0);
	if (errno || end == v)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case 'K': mul = 1ull << 10; end++; break;
	case 'M': mul = 1ull << 20; end++; break;
	case 'G': mul = 1ull << 30; end++; break;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end || (n && mul > UINT64_MAX / n))
		return -1;
	*out = n * mul;
	return 0;
}

int hwt_profile_get_size(const struct hwt_profile *p, const char *key,
			 uint64_t def, uint64_t *out)
{
	const char *v = hwt_profile_get(p, key);

	if (!v) {
		*out = def;
		return 0;
	}
	if (hwt_config_parse_size(v, out))
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: %s = \"%s\" is not a size (e.g. 4M, 512K "
				 "or 65536)", where(p, key), key, v);
	return 0;
}

enum hwt_mode hwt_profile_mode(const struct hwt_profile *p)
{
	return p->mode;
}

bool hwt_profile_per_thread(const struct hwt_profile *p)
{
	return p->per_thread;
}

size_t hwt_profile_cpus(const struct hwt_profile *p, const int **cpus)
{
	*cpus = p->cpus;
	return p->ncpus;
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

int hwt_profile_parse_event(struct hwt_profile *p, const char *event)
{
	char pmu[64], terms[1024];
	const char *slash = strchr(event, '/');
	const char *close, *mods;
	int ret;

	if (!slash || slash == event || (size_t)(slash - event) >= sizeof(pmu))
		return hwt_error(HWT_ERR_CONFIG,
				 "-e %s: expected PMU/terms/modifiers, e.g. "
				 "intel_pt/cyc,mtc_period=2/u", event);
	close = strchr(slash + 1, '/');
	if (!close || (size_t)(close - slash - 1) >= sizeof(terms))
		return hwt_error(HWT_ERR_CONFIG,
				 "-e %s: the terms need a closing '/', e.g. "
				 "%.*s//u", event, (int)(slash - event), event);
	memcpy(pmu, event, (size_t)(slash - event));
	pmu[slash - event] = '\0';
	memcpy(terms, slash + 1, (size_t)(close - slash - 1));
	terms[close - slash - 1] = '\0';
	mods = close + 1;
	if (*mods == ':')
		mods++;
	for (const char *m = mods; *m; m++)
		if (*m != 'u' && *m != 'k')
			return hwt_error(HWT_ERR_CONFIG,
					 "-e %s: unknown modifier '%c' (hwtrace "
					 "knows u and k)", event, *m);
	ret = hwt_profile_set_from(p, "session:backend", pmu, "-e");
	for (char *save = NULL, *t = strtok_r(terms, ",", &save); !ret && t;
	     t = strtok_r(NULL, ",", &save)) {
		char key[160], *eq;

		while (*t == ' ')
			t++;
		if (!*t)
			continue;
		if (*t == '@') {
			if (!t[1])
				return hwt_error(HWT_ERR_CONFIG,
						 "-e %s: '@' needs a sink name, "
						 "e.g. @tmc_etr0", event);
			snprintf(key, sizeof(key), "%s:sink", pmu);
			ret = hwt_profile_set_from(p, key, t + 1, "-e");
			continue;
		}
		eq = strchr(t, '=');
		if (eq)
			*eq = '\0';
		if (!*t)
			return hwt_error(HWT_ERR_CONFIG,
					 "-e %s: a term needs a name before '='",
					 event);
		snprintf(key, sizeof(key), "%s:%s", pmu, t);
		ret = hwt_profile_set_from(p, key, eq ? eq + 1 : "1", "-e");
	}
	if (!ret && *mods) {
		bool u = strchr(mods, 'u'), k = strchr(mods, 'k');

		ret = hwt_profile_set_from(p, "session:user", u ? "yes" : "no", "-e");
		if (!ret)
			ret = hwt_profile_set_from(p, "session:kernel",
						   k ? "yes" : "no", "-e");
	}
	return ret;
}

const char *hwt_mode_name(enum hwt_mode mode)
{
	switch (mode) {
	case HWT_MODE_FULL: return "full";
	case HWT_MODE_SNAPSHOT: return "snapshot";
	case HWT_MODE_SAMPLE: return "sample";
	}
	return "?";
}
