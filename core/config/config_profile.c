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

#include "core/config/config_internal.h"
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
	int ret = 0;

	/* The check opens the file as every input is opened (a FIFO or a
	 * directory is refused there) before iniparser opens it again. */
	if ((ret = hwt_ini_check_file(path)) < 0)
		return ret;
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

const char *hwt_mode_name(enum hwt_mode mode)
{
	switch (mode) {
	case HWT_MODE_FULL: return "full";
	case HWT_MODE_SNAPSHOT: return "snapshot";
	case HWT_MODE_SAMPLE: return "sample";
	}
	return "?";
}
