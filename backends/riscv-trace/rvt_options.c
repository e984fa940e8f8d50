/* The backend options of `--raw riscv_ntrace,OPTS:FILE`. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backends/riscv-trace/rvt_options.h"
#include "hwtrace/error.h"

#define WHERE "--raw riscv_ntrace"

static int number(const char *where, const char *key, const char *val,
		  unsigned lo, unsigned hi, unsigned *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(val, &end, 0);
	if (!*val || *end || errno || *val == '-' || v < lo || v > hi)
		return hwt_error(HWT_ERR_CONFIG, "%s: %s=%s: expected a number "
				 "from %u to %u", where, key, val, lo, hi);
	*out = (unsigned)v;
	return 0;
}

int rvt_opts_set(struct rvt_opts *o, const char *key, const char *val,
		 const char *where)
{
	unsigned v = 0;
	int err;

	if (!strcmp(key, "xlen")) {
		if (strcmp(val, "32") && strcmp(val, "64"))
			return hwt_error(HWT_ERR_CONFIG, "%s: xlen=%s: expected "
					 "32 or 64", where, val);
		o->xlen = (unsigned)atoi(val);
	} else if (!strcmp(key, "callstack")) {
		if ((err = number(where, key, val, 0, RVT_MAX_CALLSTACK, &v)) < 0)
			return err;
		o->callstack = v;
	} else if (!strcmp(key, "src")) {
		if ((err = number(where, key, val, 0, RVT_MAX_SRC_BITS, &v)) < 0)
			return err;
		o->src_bits = v;
	} else if (!strcmp(key, "extaddr")) {
		if ((err = number(where, key, val, 0, 1, &v)) < 0)
			return err;
		o->extaddr = v;
	} else if (!strcmp(key, "ts")) {
		if (!strcmp(val, "delta"))
			o->ts = RVT_TS_DELTA;
		else if (!strcmp(val, "full"))
			o->ts = RVT_TS_FULL;
		else if (!strcmp(val, "off"))
			o->ts = RVT_TS_OFF;
		else
			return hwt_error(HWT_ERR_CONFIG, "%s: ts=%s: expected "
					 "delta, full or off", where, val);
	} else {
		return hwt_error(HWT_ERR_CONFIG, "%s: unknown option '%s' "
				 "(keys: xlen, callstack, src, ts, extaddr)", where,
				 key);
	}
	return 0;
}

static int one(char *item, struct rvt_opts *o)
{
	char *eq = strchr(item, '=');
	if (!eq)
		return hwt_error(HWT_ERR_CONFIG, WHERE ": option '%s' has no "
				 "value (KEY=VALUE; keys: xlen, callstack, src, "
				 "ts, extaddr)", item);
	*eq = 0;
	return rvt_opts_set(o, item, eq + 1, WHERE);
}

void rvt_opts_default(struct rvt_opts *o)
{
	*o = (struct rvt_opts){.xlen = 64, .callstack = RVT_MAX_CALLSTACK};
}

int rvt_opts_parse(const char *s, struct rvt_opts *o)
{
	rvt_opts_default(o);
	if (!s || !*s)
		return 0;
	char *copy = strdup(s);
	if (!copy)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	int err = 0;
	char *save = NULL;
	for (char *item = strtok_r(copy, ",", &save); item && err >= 0;
	     item = strtok_r(NULL, ",", &save))
		err = one(item, o);
	free(copy);
	return err;
}
