/* The backend options of `--raw riscv_ntrace,OPTS:FILE`. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backends/riscv-trace/rvt_options.h"
#include "hwtrace/error.h"

#define WHERE "--raw riscv_ntrace"

static int number(const char *key, const char *val, unsigned lo, unsigned hi,
		  unsigned *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(val, &end, 0);
	if (!*val || *end || errno || *val == '-' || v < lo || v > hi)
		return hwt_error(HWT_ERR_CONFIG, WHERE ": %s=%s: expected a number "
				 "from %u to %u", key, val, lo, hi);
	*out = (unsigned)v;
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
	const char *key = item, *val = eq + 1;
	unsigned v = 0;
	int err;

	if (!strcmp(key, "xlen")) {
		if (strcmp(val, "32") && strcmp(val, "64"))
			return hwt_error(HWT_ERR_CONFIG, WHERE ": xlen=%s: expected "
					 "32 or 64", val);
		o->xlen = (unsigned)atoi(val);
	} else if (!strcmp(key, "callstack")) {
		if ((err = number(key, val, 0, RVT_MAX_CALLSTACK, &v)) < 0)
			return err;
		o->callstack = v;
	} else if (!strcmp(key, "src")) {
		if ((err = number(key, val, 0, RVT_MAX_SRC_BITS, &v)) < 0)
			return err;
		o->src_bits = v;
	} else if (!strcmp(key, "extaddr")) {
		if ((err = number(key, val, 0, 1, &v)) < 0)
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
			return hwt_error(HWT_ERR_CONFIG, WHERE ": ts=%s: expected "
					 "delta, full or off", val);
	} else {
		return hwt_error(HWT_ERR_CONFIG, WHERE ": unknown option '%s' "
				 "(keys: xlen, callstack, src, ts, extaddr)", key);
	}
	return 0;
}

int rvt_opts_parse(const char *s, struct rvt_opts *o)
{
	*o = (struct rvt_opts){.xlen = 64, .callstack = RVT_MAX_CALLSTACK};
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
