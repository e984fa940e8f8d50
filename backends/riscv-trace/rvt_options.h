/* How the trace encoder was configured, as the decoder must know it:
 * the options of `--raw riscv_ntrace,OPTS:FILE` (docs/riscv.md). */
#ifndef HWT_RVT_OPTIONS_H
#define HWT_RVT_OPTIONS_H

#include <stdbool.h>

/* What TSTAMP fields hold. */
enum rvt_ts_mode {
	RVT_TS_DELTA, /* the specification's: absolute in synchronizing
		       * messages, added to the last time in the others */
	RVT_TS_FULL,  /* absolute in every message */
	RVT_TS_OFF,   /* not put on elements (still listed by --packets) */
};

struct rvt_opts {
	unsigned xlen;      /* 32 or 64 (default 64) */
	unsigned callstack; /* implicit-return stack depth, 0..32 (default 32) */
	unsigned src_bits;  /* width of the SRC field, 0..12 (default 0) */
	enum rvt_ts_mode ts;
	bool extaddr;       /* trTeInstExtendAddrMSB: addresses MSB-extended */
};

/* The maximum call-stack depth the specification allows an encoder. */
#define RVT_MAX_CALLSTACK 32
#define RVT_MAX_SRC_BITS 12

/* Parses @s (NULL or "key=value,..." ) into @o, defaults first. Errors
 * (HWT_ERR_CONFIG) name the option and what it takes. */
int rvt_opts_parse(const char *s, struct rvt_opts *o);

/* The defaults: xlen 64, the deepest call stack, no SRC, delta times. */
void rvt_opts_default(struct rvt_opts *o);

/* Sets one option @key to @val; errors begin with @where (the option
 * string or the profile key they came from). */
int rvt_opts_set(struct rvt_opts *o, const char *key, const char *val,
		 const char *where);

#endif
