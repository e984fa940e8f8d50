/* What the profile's files share: its layout and small parsers. */
#ifndef HWT_CORE_CONFIG_INTERNAL_H
#define HWT_CORE_CONFIG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/config.h"

struct hwt_profile_entry {
	char *key;    /* "section:key", lower case */
	char *value;
	char *origin; /* the INI path, "-e" or "--set" */
};

struct hwt_profile {
	size_t count, cap;
	struct hwt_profile_entry *entries;
	char path[512];
	/* Resolved by hwt_profile_build_attrs for the backends. */
	enum hwt_mode mode;
	bool per_thread;
	int *cpus;
	size_t ncpus;
};


/* hwt_config_nearest (the "did you mean" of unknown names) is public:
 * hwtrace/config.h. */

/* The origin of a key for messages: the INI path, "-e", "--set". */
/* Refuses a profile path that is not a regular file and a key set twice
 * in one section (config_ini_check.c): 0 or HWT_ERR_CONFIG naming the
 * path, the line and the key. */
int hwt_ini_check_file(const char *path);

const char *hwt_config_where(const struct hwt_profile *p, const char *key);

#endif
