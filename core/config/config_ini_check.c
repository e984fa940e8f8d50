/* What iniparser lets pass silently in a profile: a path that is not a
 * regular file (a directory loads as an empty, "valid" profile) and a key
 * set twice in one section (the last one wins without a word). */
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/config/config_internal.h"
#include "hwtrace/error.h"
#include "hwtrace/infile.h"

struct seen_key {
	char name[192]; /* "section:key", lowercased as iniparser does */
	unsigned line;
};

static void trim(char **s, char **end)
{
	while (**s && isspace((unsigned char)**s))
		(*s)++;
	while (*end > *s && isspace((unsigned char)(*end)[-1]))
		(*end)--;
}

int hwt_ini_check_file(const char *path)
{
	struct seen_key *keys = NULL;
	size_t n = 0, cap = 0;
	char line[1024], section[96] = "";
	unsigned lineno = 0;
	bool seen_section = false;
	int ret = 0;
	FILE *f;

	if ((ret = hwt_infile_fopen(path, "profile", 0, &f)) < 0)
		return ret;
	while (!ret && fgets(line, sizeof(line), f)) {
		char *s = line, *end = line + strlen(line), *eq;
		char name[sizeof(keys->name)];

		lineno++;
		trim(&s, &end);
		*end = 0;
		if (!*s || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			char *close = strchr(s, ']');
			seen_section = true;
			if (close)
				snprintf(section, sizeof(section), "%.*s",
					 (int)(close - s - 1), s + 1);
			continue;
		}
		if (!(eq = strchr(s, '=')))
			continue;
		end = eq;
		trim(&s, &end);
		/* iniparser drops a key that comes before every section. */
		if (!seen_section) {
			ret = hwt_error(HWT_ERR_CONFIG, "%s:%u: %.*s is before any "
					"[section], where it has no effect; put "
					"it in its section ([session], [trace], "
					"...)", path, lineno, (int)(end - s), s);
			break;
		}
		snprintf(name, sizeof(name), "%s:%.*s", section, (int)(end - s), s);
		for (char *c = name; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		for (size_t i = 0; i < n; i++)
			if (!strcmp(keys[i].name, name)) {
				ret = hwt_error(HWT_ERR_CONFIG, "%s:%u: [%s] %.*s is set "
						"twice (first at line %u); keep one",
						path, lineno, section, (int)(end - s),
						s, keys[i].line);
				break;
			}
		if (ret)
			break;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 32;
			struct seen_key *nk = realloc(keys, ncap * sizeof(*keys));
			if (!nk) {
				ret = hwt_error(HWT_ERR_NOMEM, "out of memory");
				break;
			}
			keys = nk;
			cap = ncap;
		}
		memcpy(keys[n].name, name, sizeof(name));
		keys[n++].line = lineno;
	}
	free(keys);
	fclose(f);
	return ret;
}
