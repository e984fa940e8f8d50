/* What the parts of the snapshot reader share (cs_snapshot_ini.c,
 * cs_snapshot_source.c, cs_snapshot_read.c): the reader's state and the
 * INI access. */
#ifndef HWT_CS_SNAPSHOT_INI_H
#define HWT_CS_SNAPSHOT_INI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <iniparser.h>

#include "backends/arm-cs/cs_snapshot.h"

struct ss_device {
	char *file; /* as named in snapshot.ini */
	dictionary *ini;
	const char *name, *cls, *type;
};

struct ss_reader {
	const char *dir;
	struct ss_device *devs;
	size_t ndevs;
	dictionary *snap, *trace;
	const char *trace_file;
	struct hwt_cs_snapshot *ss;
	/* The first source that could not be configured, for the message
	 * when nothing at all can be decoded. */
	int skip_err;
	char skip_msg[512];
};

/* "dir/file", malloc'ed; NULL when out of memory. */
char *hwt_cs_ss_path_join(const char *dir, const char *file);
/* Loads dir/file; NULL with *err set (NOENT, FORMAT, NOMEM) on failure. */
dictionary *hwt_cs_ss_load_ini(const char *dir, const char *file, int *err);
/* The value of [sec] key, or NULL. */
const char *hwt_cs_ss_ini_get(dictionary *d, const char *sec,
			      const char *key);
/* Keys of @sec without the "sec:" prefix, lower-cased as iniparser keeps
 * them. Returns a malloc'ed array of borrowed strings, NULL when empty. */
const char **hwt_cs_ss_sec_keys(dictionary *d, const char *sec, int *n);
/* A whole number in C notation (0x.. too), trailing blanks allowed. */
bool hwt_cs_ss_parse_u64(const char *s, uint64_t *v);

/* Loads every device .ini that snapshot.ini's [device_list] names. */
int hwt_cs_ss_load_devices(struct ss_reader *r);
/* The device named @name (case-insensitive), or NULL. */
struct ss_device *hwt_cs_ss_find_device(struct ss_reader *r,
					const char *name);

/* Returns 1 when @src was filled from trace source @sdev tracing @core,
 * 0 when the source is not a core tracer hwtrace decodes (STM, ...), or a
 * negative error. */
int hwt_cs_ss_make_source(struct ss_reader *r, struct ss_device *sdev,
			  struct ss_device *core, struct hwt_cs_source *src);

#endif
