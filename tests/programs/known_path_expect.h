/* The path known_path's kp_run(n) must take, from its symbol table and its
 * assembly: the expected BTS records and the range of straight-line code
 * that leads to each (instruction counts counted by hand from the
 * assembly in known_path.c). Addresses are link-time values plus @base. */
#ifndef HWT_TESTS_KNOWN_PATH_EXPECT_H
#define HWT_TESTS_KNOWN_PATH_EXPECT_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/bts_format.h"
#include "hwtrace/element.h"
#include "elf_syms.h"

static struct {
	uint64_t run, loop, call_site, after_call, jcc, after_jcc, done_call,
		after_done_call, leaf, leaf_jcc, leaf_fall, leaf_ret, done;
} k;

/* One record and the range of straight-line code that leads to it. */
struct exp_rec {
	uint64_t from, to;
	enum hwt_branch_kind kind;
	uint64_t rstart, rend, rinsns;
};

static struct exp_rec exp_recs[256];
static size_t nexp;

static inline void add(uint64_t from, uint64_t to, enum hwt_branch_kind kind,
		uint64_t rstart, uint64_t rend, uint64_t rinsns)
{
	exp_recs[nexp++] = (struct exp_rec){from, to, kind, rstart, rend, rinsns};
}

/* The path kp_run(n) must take, as records after the trace-begin record. */
static inline void build_path(int n)
{
	nexp = 0;
	uint64_t at = k.run, insns_before_call = 4; /* mov, xor, xor, call */
	for (int i = 1; i <= n; i++) {
		add(k.call_site, k.leaf, HWT_BRANCH_CALL, at, k.after_call,
		    insns_before_call);
		if (i % 2) {
			add(k.leaf_jcc, k.leaf_ret, HWT_BRANCH_COND, k.leaf,
			    k.leaf_fall, 3); /* add, test, jnz */
			add(k.leaf_ret, k.after_call, HWT_BRANCH_RETURN,
			    k.leaf_ret, k.done, 1); /* ret */
		} else {
			add(k.leaf_ret, k.after_call, HWT_BRANCH_RETURN, k.leaf,
			    k.done, 5); /* add, test, jnz, add, ret */
		}
		if (i < n) {
			add(k.jcc, k.loop, HWT_BRANCH_COND, k.after_call,
			    k.after_jcc, 2); /* sub, jnz */
			at = k.loop;
			insns_before_call = 1; /* call */
		}
	}
	add(k.done_call, k.done, HWT_BRANCH_CALL, k.after_call,
	    k.after_done_call, 3); /* sub, jnz, call */
}

static inline size_t write_records(uint8_t *buf, bool begin_end)
{
	size_t len = 0;
	struct hwt_bts_record r;
	if (begin_end) {
		r = (struct hwt_bts_record){0, k.run, 0};
		hwt_bts_record_write(buf + len, &r);
		len += HWT_BTS_RECORD_SIZE;
	}
	for (size_t i = 0; i < nexp; i++) {
		r = (struct hwt_bts_record){exp_recs[i].from, exp_recs[i].to,
					    HWT_BTS_FLAG_PREDICTED};
		hwt_bts_record_write(buf + len, &r);
		len += HWT_BTS_RECORD_SIZE;
	}
	if (begin_end) {
		r = (struct hwt_bts_record){k.done, 0, 0};
		hwt_bts_record_write(buf + len, &r);
		len += HWT_BTS_RECORD_SIZE;
	}
	return len;
}

/* Reads the symbols of @prog and adds @base to them; returns how many
 * were missing. */
static inline int load_syms(const char *prog, uint64_t base)
{
	int missing = 0;
#define KP_SYM(f) do { k.f = test_elf_sym(prog, "kp_" #f); \
		missing += !k.f; k.f += base; } while (0)
	KP_SYM(run); KP_SYM(loop); KP_SYM(call_site); KP_SYM(after_call);
	KP_SYM(jcc); KP_SYM(after_jcc); KP_SYM(done_call);
	KP_SYM(after_done_call); KP_SYM(leaf); KP_SYM(leaf_jcc);
	KP_SYM(leaf_fall); KP_SYM(leaf_ret); KP_SYM(done);
#undef KP_SYM
	return missing;
}

#endif
