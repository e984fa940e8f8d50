/* OpenCSD snapshot directories: reading their INI files with iniparser,
 * and the device list of snapshot.ini. */
#ifdef HWT_HAVE_OPENCSD
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <iniparser.h>

#include "backends/arm-cs/cs_snapshot_ini.h"
#include "hwtrace/error.h"
#include "hwtrace/infile.h"

/* iniparser reports syntax errors through a global callback that prints by
 * default; the library never prints, and a broken file shows up as a
 * missing key with a message naming it. */
static int ini_quiet(const char *fmt, ...)
{
	(void)fmt;
	return 0;
}

char *hwt_cs_ss_path_join(const char *dir, const char *file)
{
	size_t n = strlen(dir) + strlen(file) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, file);
	return p;
}

dictionary *hwt_cs_ss_load_ini(const char *dir, const char *file, int *err)
{
	char *path = hwt_cs_ss_path_join(dir, file);
	if (!path) {
		*err = hwt_error(HWT_ERR_NOMEM, "out of memory");
		return NULL;
	}
	/* Opened as every input is (a FIFO named by a snapshot would block
	 * iniparser's open forever), and read by iniparser through the same
	 * descriptor. A snapshot naming a FIFO or a directory is a broken
	 * snapshot (HWT_ERR_FORMAT), not a wrong option. */
	int fd = hwt_infile_open(path, NULL, 0);
	if (fd < 0) {
		*err = fd == HWT_ERR_NOENT
			       ? hwt_error(HWT_ERR_NOENT, "%s does not exist: is "
					   "%s an OpenCSD snapshot directory?",
					   path, dir)
			       : fd == HWT_ERR_CONFIG ? HWT_ERR_FORMAT : fd;
		free(path);
		return NULL;
	}
	char fd_path[64];
	snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%d", fd);
	iniparser_set_error_callback(ini_quiet);
	dictionary *d = iniparser_load(fd_path);
	close(fd);
	if (!d)
		*err = hwt_error(HWT_ERR_FORMAT, "%s: not a readable INI file",
				 path);
	free(path);
	return d;
}

const char *hwt_cs_ss_ini_get(dictionary *d, const char *sec, const char *key)
{
	char full[256];
	snprintf(full, sizeof(full), "%s:%s", sec, key);
	return iniparser_getstring(d, full, NULL);
}

const char **hwt_cs_ss_sec_keys(dictionary *d, const char *sec, int *n)
{
	*n = iniparser_getsecnkeys(d, sec);
	if (*n <= 0)
		return NULL;
	const char **keys = calloc((size_t)*n, sizeof(*keys));
	if (!keys || !iniparser_getseckeys(d, sec, keys)) {
		free(keys);
		*n = 0;
		return NULL;
	}
	size_t skip = strlen(sec) + 1;
	for (int i = 0; i < *n; i++)
		if (strlen(keys[i]) >= skip)
			keys[i] += skip;
	return keys;
}

bool hwt_cs_ss_parse_u64(const char *s, uint64_t *v)
{
	if (!s || !*s)
		return false;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 0);
	while (*end && isspace((unsigned char)*end))
		end++;
	if (errno || *end)
		return false;
	*v = x;
	return true;
}

struct ss_device *hwt_cs_ss_find_device(struct ss_reader *r, const char *name)
{
	for (size_t i = 0; i < r->ndevs; i++)
		if (r->devs[i].name && strcasecmp(r->devs[i].name, name) == 0)
			return &r->devs[i];
	return NULL;
}

int hwt_cs_ss_load_devices(struct ss_reader *r)
{
	int n, err = 0;
	const char **keys = hwt_cs_ss_sec_keys(r->snap, "device_list", &n);
	if (!keys)
		return hwt_error(HWT_ERR_FORMAT,
				 "%s/snapshot.ini: [device_list] is missing or "
				 "empty", r->dir);
	r->devs = calloc((size_t)n, sizeof(*r->devs));
	if (!r->devs) {
		free(keys);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	for (int i = 0; i < n; i++) {
		const char *file = hwt_cs_ss_ini_get(r->snap, "device_list", keys[i]);
		struct ss_device *dev = &r->devs[r->ndevs];
		if (!file || !*file)
			continue;
		dev->file = strdup(file);
		if (!dev->file) {
			err = hwt_error(HWT_ERR_NOMEM, "out of memory");
			break;
		}
		r->ndevs++;
		dev->ini = hwt_cs_ss_load_ini(r->dir, file, &err);
		if (!dev->ini)
			break;
		dev->name = hwt_cs_ss_ini_get(dev->ini, "device", "name");
		dev->cls = hwt_cs_ss_ini_get(dev->ini, "device", "class");
		dev->type = hwt_cs_ss_ini_get(dev->ini, "device", "type");
		if (!dev->name || !dev->type) {
			err = hwt_error(HWT_ERR_FORMAT,
					"%s/%s: [device] needs name= and type=",
					r->dir, file);
			break;
		}
	}
	free(keys);
	return err;
}
#endif
