/* Every OpenCSD snapshot in the shared test data decodes to the elements
 * that OpenCSD's trc_pkt_lister printed for it (expected-<version>/NAME.ppl.xz),
 * from the listing of the OpenCSD release whose decode the linked library
 * gives (see "Which listing" below).
 *
 * The listing's OCSD_GEN_TRC_ELEM_* lines are turned into hwtrace elements
 * by the rules of DESIGN.md §3: INSTR_RANGE -> range (start, end, count,
 * ISA); a range whose last instruction is an executed (E atom) branch ->
 * a branch from that instruction to the next address the trace reaches
 * (0 when the trace stops or loses sync first);
 * EXCEPTION -> a branch with the exception number from the preferred return
 * address; NO_SYNC, ADDR_NACC and overflow -> gaps; PE_CONTEXT -> context;
 * TIMESTAMP -> timestamp. Both lists are compared element by element.
 *
 * The ETE listings of 1.3.3 hold two runs, with and without -src_addr_n;
 * the second, without, is the default decode and the one compared.
 *
 * ete-ite-instr uses an ETE packet (instrumentation, FEAT_ITE) that
 * OpenCSD 1.3.3 does not know: its listing shows a "bad packet" resync,
 * and hwtrace must report it the same way (a decode_error gap) and finish
 * cleanly. From 1.4.0 OpenCSD decodes the packet (an INSTRUMENTATION
 * element, no control flow) and the trace goes on past it. */
#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/decode.h"
#include "hwtrace/element.h"
#include "hwtrace/error.h"

#include <opencsd/c_api/opencsd_c_api.h>

#define MAXCHAN 128

struct xelem {
	enum hwt_elem_type type;
	uint64_t a, b, n;
	int isa;   /* enum hwt_isa */
	int kind;  /* enum hwt_branch_kind */
	long exc;  /* -1: none */
	int reason;
	long el, vmid, tid; /* -1: not given */
};

struct xlist {
	struct xelem *v;
	size_t n, cap;
};

static void push(struct xlist *l, const struct xelem *e)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			abort();
	}
	l->v[l->n++] = *e;
}

static struct xelem blank(enum hwt_elem_type type)
{
	struct xelem e;
	memset(&e, 0, sizeof(e));
	e.type = type;
	e.exc = e.el = e.vmid = e.tid = -1;
	return e;
}

/* ---- the reference listing ---- */

struct pend {
	bool on;
	uint64_t from;
	int kind;
	long exc;
};

static int parse_isa(const char *s)
{
	const char *p = strstr(s, "(ISA=");
	if (!p)
		return -1;
	p += 5;
	if (!strncmp(p, "A64", 3))
		return HWT_ISA_A64;
	if (!strncmp(p, "A32", 3))
		return HWT_ISA_A32;
	if (!strncmp(p, "T32", 3))
		return HWT_ISA_T32;
	return HWT_ISA_UNKNOWN;
}

static uint64_t hex_after(const char *s, const char *key, bool *found)
{
	const char *p = strstr(s, key);
	if (!p) {
		if (found)
			*found = false;
		return 0;
	}
	if (found)
		*found = true;
	return strtoull(p + strlen(key), NULL, 16);
}

static void resolve(struct xlist *l, struct pend *p, uint64_t to)
{
	if (!p->on)
		return;
	struct xelem e = blank(HWT_ELEM_BRANCH);
	e.a = p->from;
	e.b = to;
	e.kind = p->kind;
	e.exc = p->exc;
	push(l, &e);
	p->on = false;
}

/* A taken branch whose target the trace never reaches has target 0. */
static void drop(struct xlist *l, struct pend *p)
{
	resolve(l, p, 0);
}

static void gap(struct xlist *l, enum hwt_gap_reason r, uint64_t addr)
{
	struct xelem e = blank(HWT_ELEM_GAP);
	e.reason = r;
	e.a = addr;
	push(l, &e);
}

static int exc_kind(uint32_t n, bool v4)
{
	if (n == 14 || n == 15)
		return HWT_BRANCH_INTERRUPT;
	if (v4)
		return n == 2 ? HWT_BRANCH_SYSCALL : HWT_BRANCH_EXCEPTION;
	return n == 10 ? HWT_BRANCH_SYSCALL : HWT_BRANCH_EXCEPTION;
}

/* Returns false (and says why) on a line it does not understand, so a new
 * element form cannot pass unnoticed. */
static bool parse_elem(struct xlist *l, struct pend *p, const char *body,
		       bool v4)
{
	struct xelem e;
	bool ok;

	if (!strncmp(body, "INSTR_RANGE(", 12) ||
	    !strncmp(body, "I_RANGE_NOPATH(", 15)) {
		bool nopath = body[0] == 'I' && body[1] == '_';
		e = blank(HWT_ELEM_RANGE);
		const char *r = nopath ? strstr(body, "first ") : strstr(body, "range=");
		if (!r)
			return false;
		r += nopath ? 6 : 6;
		e.a = strtoull(r, NULL, 16);
		e.b = hex_after(body, nopath ? "[next " : ":[", &ok);
		e.n = strtoull(strstr(body, "num_i(") + 6, NULL, 10);
		/* The listing gives no ISA for a no-path range. */
		e.isa = nopath ? -1 : parse_isa(body);
		resolve(l, p, e.a);
		push(l, &e);
		if (nopath)
			return true;
		unsigned sz = (unsigned)strtoul(strstr(body, "last_sz(") + 8, NULL, 10);
		const char *atom = strstr(body, ") E ");
		if (!atom || (!strstr(atom, " BR ") && !strstr(atom, " iBR ")))
			return true;
		bool ind = strstr(atom, " iBR ") != NULL;
		p->on = true;
		p->from = e.b - sz;
		p->exc = -1;
		if (strstr(atom, "b+link"))
			p->kind = HWT_BRANCH_CALL;
		else if (!ind)
			p->kind = strstr(atom, "<cond>") ? HWT_BRANCH_COND : HWT_BRANCH_JUMP;
		else if (strstr(atom, ":ret") || strstr(atom, "impl ret"))
			p->kind = HWT_BRANCH_RETURN;
		else if (strstr(atom, ":eret"))
			p->kind = HWT_BRANCH_ERET;
		else
			p->kind = HWT_BRANCH_INDIRECT;
		return true;
	}
	if (!strncmp(body, "EXCEPTION(", 10)) {
		bool has_ret;
		uint64_t ret = hex_after(body, "pref ret addr:", &has_ret);
		uint32_t num = (uint32_t)hex_after(body, "excep num (", &ok);
		if (!ok)
			return false;
		if (p->on && has_ret)
			resolve(l, p, ret);
		else
			drop(l, p);
		p->on = true;
		p->from = has_ret ? ret : 0;
		p->exc = num;
		p->kind = exc_kind(num, v4);
		return true;
	}
	if (!strncmp(body, "EXCEPTION_RET(", 14)) {
		if (p->on && p->exc < 0)
			p->kind = HWT_BRANCH_ERET;
		return true;
	}
	if (!strncmp(body, "ADDR_NACC(", 10)) {
		uint64_t a = strtoull(body + 10, NULL, 16);
		resolve(l, p, a);
		gap(l, HWT_GAP_NO_IMAGE, a);
		return true;
	}
	if (!strncmp(body, "NO_SYNC(", 8)) {
		drop(l, p);
		if (strstr(body, "[init-decoder]") || strstr(body, "[reset-decoder]") ||
		    strstr(body, "[end-of-trace]") || strstr(body, "[unknown]"))
			gap(l, HWT_GAP_NO_SYNC, 0);
		else if (strstr(body, "[overflow]"))
			gap(l, HWT_GAP_OVERFLOW, 0);
		else if (strstr(body, "[bad-packet]") || strstr(body, "[spec-discard]"))
			gap(l, HWT_GAP_DECODE_ERROR, 0);
		else
			return false;
		return true;
	}
	if (!strncmp(body, "TRACE_ON(", 9)) {
		drop(l, p);
		if (strstr(body, "[overflow]"))
			gap(l, HWT_GAP_OVERFLOW, 0);
		else if (!strstr(body, "[begin or filter]") &&
			 !strstr(body, "[debug restart]"))
			return false;
		e = blank(HWT_ELEM_TRACE_ON);
		push(l, &e);
		return true;
	}
	if (!strncmp(body, "EO_TRACE(", 9)) {
		drop(l, p);
		return true;
	}
	if (!strncmp(body, "PE_CONTEXT(", 11)) {
		e = blank(HWT_ELEM_CONTEXT);
		const char *el = strstr(body, ") EL");
		if (el && isdigit((unsigned char)el[4]))
			e.el = el[4] - '0';
		bool has;
		uint64_t v = hex_after(body, "VMID=0x", &has);
		if (has)
			e.vmid = (long)v;
		v = hex_after(body, "CTXTID=0x", &has);
		if (has)
			e.tid = (long)v;
		push(l, &e);
		return true;
	}
	if (!strncmp(body, "TIMESTAMP(", 10)) {
		e = blank(HWT_ELEM_TIMESTAMP);
		e.a = hex_after(body, "TS=0x", &ok);
		if (!ok)
			return false;
		push(l, &e);
		return true;
	}
	/* Elements without control flow, which hwtrace does not report. */
	if (!strncmp(body, "CYCLE_COUNT(", 12) || !strncmp(body, "SYNC_MARKER(", 12) ||
	    !strncmp(body, "MEMTRANS(", 9) || !strncmp(body, "EVENT(", 6) ||
	    !strncmp(body, "INSTRUMENTATION(", 16))
		return true;
	return false;
}

static bool load_expected(const char *name, const char *listing,
			  struct xlist *l, bool *v4)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "xz -dc '%s/opencsd/%s/%s.ppl.xz'",
		 HWT_TESTDATA, listing, name);
	FILE *f = popen(cmd, "r");
	if (!f) {
		fprintf(stderr, "%s: cannot run xz (needed to read the listing)\n", name);
		return false;
	}
	char line[4096];
	struct pend pend[MAXCHAN];
	bool ok = true;
	size_t lines = 0;

	memset(pend, 0, sizeof(pend));
	*v4 = true;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "** Library Version")) {
			/* A second run starts: keep only the last. */
			l->n = 0;
			memset(pend, 0, sizeof(pend));
			lines = 0;
		}
		if (strstr(line, "Protocol printer PTM") || strstr(line, "Protocol printer ETMV3"))
			*v4 = false;
		const char *g = strstr(line, "OCSD_GEN_TRC_ELEM_");
		const char *id = strstr(line, "ID:");
		if (!g || !id || strncmp(line, "Idx:", 4) != 0)
			continue;
		lines++;
		unsigned chan = (unsigned)strtoul(id + 3, NULL, 16) & (MAXCHAN - 1);
		if (!parse_elem(l, &pend[chan], g + 18, *v4)) {
			fprintf(stderr, "%s: listing line not understood: %s", name, line);
			ok = false;
		}
	}
	for (int c = 0; c < MAXCHAN; c++)
		drop(l, &pend[c]);
	int rc = pclose(f);
	if (rc != 0 || lines == 0) {
		fprintf(stderr, "%s: reading the listing failed (xz status %d, %zu element lines)\n",
			name, rc, lines);
		ok = false;
	}
	return ok;
}

/* ---- hwtrace's elements ---- */

/* Warnings are not elements of the listing: with no callback a
 * warning (such as the isolated decoders' "the kernel refused the seccomp
 * filter" under qemu-user) would be one. They are shown. */
static void warn_to_stderr(void *arg, const char *message)
{
	(void)arg;
	fprintf(stderr, "warning: %s\n", message);
}

static int collect(void *arg, const struct hwt_elem *h)
{
	struct xlist *l = arg;
	struct xelem e = blank(h->type);
	switch (h->type) {
	case HWT_ELEM_RANGE:
		e.a = h->u.range.start;
		e.b = h->u.range.end;
		e.n = h->u.range.insns;
		e.isa = h->u.range.isa;
		break;
	case HWT_ELEM_BRANCH:
		e.a = h->u.branch.from;
		e.b = h->u.branch.to;
		e.kind = h->u.branch.kind;
		if (h->fields & HWT_FIELD_EXC_NUM)
			e.exc = h->u.branch.exception;
		break;
	case HWT_ELEM_CONTEXT:
		if (h->fields & HWT_FIELD_EL)
			e.el = h->u.context.el;
		if (h->fields & HWT_FIELD_VMID)
			e.vmid = h->u.context.vmid;
		if (h->fields & HWT_FIELD_TID)
			e.tid = h->tid;
		break;
	case HWT_ELEM_TIMESTAMP:
		e.a = h->time;
		break;
	case HWT_ELEM_GAP:
		e.reason = h->u.gap.reason;
		if (h->u.gap.reason == HWT_GAP_NO_IMAGE && h->u.gap.detail)
			e.a = strtoull(h->u.gap.detail, NULL, 16);
		break;
	default:
		break;
	}
	push(l, &e);
	return 0;
}

static void describe(const struct xelem *e, char *buf, size_t n)
{
	snprintf(buf, n, "%s a=0x%" PRIx64 " b=0x%" PRIx64 " n=%" PRIu64
		 " isa=%d kind=%d exc=%ld reason=%d el=%ld vmid=%ld tid=%ld",
		 hwt_elem_type_name(e->type), e->a, e->b, e->n, e->isa, e->kind,
		 e->exc, e->reason, e->el, e->vmid, e->tid);
}

static bool same(const struct xelem *x, const struct xelem *y)
{
	return x->type == y->type && x->a == y->a && x->b == y->b &&
	       x->n == y->n && (x->isa < 0 || x->isa == y->isa) && x->kind == y->kind &&
	       x->exc == y->exc && x->reason == y->reason && x->el == y->el &&
	       x->vmid == y->vmid && x->tid == y->tid;
}

/* ---- which listing ---- */

/* OpenCSD's version as ocsd_get_version() gives it: major, minor, patch. */
#define OCSD_V(major, minor, patch) (((major) << 16) | ((minor) << 8) | (patch))

/* The shared test data has listings of OpenCSD 1.3.3 (Debian bookworm's)
 * and 1.8.0. A snapshot is compared against the one whose decode the
 * library this binary links gives, which is 1.3.3's unless the decode of
 * the snapshot changed in a later release:
 *
 *  - ete-ite-instr: 1.4.0 added ETE's instrumentation packet (FEAT_ITE,
 *    the OCSD_GEN_TRC_ELEM_INSTRUMENTATION element; OpenCSD's version
 *    history), so from 1.4.0 the decode goes on past it where 1.3.3
 *    resyncs.
 *  - q_elem: an exception right after a Q packet (Idx 700 and 725 of the
 *    listing). 1.3.3 walks on from the Q packet's address to memory the
 *    snapshot does not have (a range of 9,329 instructions ending at
 *    0x301c0, an ADDR_NACC) before the exception; 1.5.5 (Debian trixie's,
 *    the riscv64 build's) and 1.8.0 give the exception alone. The version
 *    history does not name the release that changed it, so under a 1.4.x
 *    library no listing is known to hold and the snapshot is left out.
 *
 * 1.8.0's init-short-addr listing was made with -pkt_mon (packets only,
 * no decode), so it could not serve; no snapshot but the two above needs
 * it. */
struct reference {
	const char *name;
	uint32_t old_until; /* 1.3.3's listing holds below this version */
	uint32_t new_from;  /* 1.8.0's listing holds from this version */
};

#define UNCHANGED UINT32_MAX, UINT32_MAX

static const struct reference references[] = {
	{"a57_single_step", UNCHANGED},
	{"trace_cov_a15", UNCHANGED},
	{"init-short-addr", UNCHANGED},
	{"Snowball", UNCHANGED},
	{"ete_mem", UNCHANGED},
	{"ete-ite-instr", OCSD_V(1, 4, 0), OCSD_V(1, 4, 0)},
	{"ts_marker", UNCHANGED},
	{"q_elem", OCSD_V(1, 4, 0), OCSD_V(1, 5, 0)},
	{"src_addr", UNCHANGED},
	{"ete_spec_1", UNCHANGED},
	{"tme_simple", UNCHANGED},
};

/* The listing for a snapshot under OpenCSD version v, or NULL when none
 * is known to hold. */
static const char *listing_for(const struct reference *r, uint32_t v)
{
	if (v < r->old_until)
		return "expected-1.3.3";
	if (v >= r->new_from)
		return "expected-1.8.0";
	return NULL;
}

/* The rule itself, on versions either side of each change. */
static void listing_follows_version(void)
{
	const struct reference *ite = &references[5], *q = &references[7];
	CHECK_STR(ite->name, "ete-ite-instr");
	CHECK_STR(q->name, "q_elem");
	CHECK_STR(listing_for(ite, OCSD_V(1, 3, 3)), "expected-1.3.3");
	CHECK_STR(listing_for(ite, OCSD_V(1, 4, 0)), "expected-1.8.0");
	CHECK_STR(listing_for(q, OCSD_V(1, 3, 3)), "expected-1.3.3");
	CHECK(listing_for(q, OCSD_V(1, 4, 2)) == NULL);
	CHECK_STR(listing_for(q, OCSD_V(1, 5, 5)), "expected-1.8.0");
	CHECK_STR(listing_for(&references[0], OCSD_V(1, 8, 0)), "expected-1.3.3");
}

/* ---- the comparison ---- */

static void check_snapshot(const char *name, const char *listing)
{
	struct xlist want = {0}, got = {0};
	bool v4;
	char dir[1024];

	if (!load_expected(name, listing, &want, &v4)) {
		HWT_FAIL("%s: the reference listing %s could not be read", name, listing);
		free(want.v);
		return;
	}
	snprintf(dir, sizeof(dir), "%s/opencsd/%s", HWT_TESTDATA, name);
	struct hwt_decode_opts opts = {.size = sizeof(opts),
				       .warn = warn_to_stderr};
	struct hwt_elem_sink sink = {collect, &got};
	int err = hwt_decode_snapshot_dir(dir, &opts, &sink);
	CHECK_INT(err, 0);
	if (err)
		fprintf(stderr, "%s: %s\n", name, hwt_errmsg());

	size_t counts[HWT_ELEM_ERROR + 1] = {0};
	size_t n = want.n < got.n ? want.n : got.n, equal = 0;
	for (size_t i = 0; i < n; i++) {
		if (!same(&want.v[i], &got.v[i])) {
			char a[256], b[256];
			describe(&want.v[i], a, sizeof(a));
			describe(&got.v[i], b, sizeof(b));
			HWT_FAIL("%s: element %zu differs\n  want %s\n  got  %s",
				 name, i, a, b);
			break;
		}
		counts[want.v[i].type]++;
		equal++;
	}
	CHECK_INT(got.n, want.n);
	CHECK_INT(equal, want.n);
	printf("%-16s %6zu/%zu elements of %s equal: %zu ranges, %zu branches, "
	       "%zu gaps, %zu contexts, %zu timestamps, %zu trace-on\n",
	       name, equal, want.n, listing, counts[HWT_ELEM_RANGE],
	       counts[HWT_ELEM_BRANCH], counts[HWT_ELEM_GAP],
	       counts[HWT_ELEM_CONTEXT], counts[HWT_ELEM_TIMESTAMP],
	       counts[HWT_ELEM_TRACE_ON]);
	CHECK(want.n > 0);
	free(want.v);
	free(got.v);
}

static void snapshots_match_reference(void)
{
	uint32_t v = ocsd_get_version();
	printf("OpenCSD %s (0x%06x)\n", ocsd_get_version_str(), (unsigned)v);
	for (size_t i = 0; i < sizeof(references) / sizeof(references[0]); i++) {
		const char *listing = listing_for(&references[i], v);
		if (listing)
			check_snapshot(references[i].name, listing);
		else
			HWT_SKIP_PART("%s: no listing is known to hold for OpenCSD %s",
				      references[i].name, ocsd_get_version_str());
	}
}

/* The instrumentation packet of ete-ite-instr at trace offset 42. Before
 * OpenCSD 1.4.0 the decode reports a decode_error gap at the next packet
 * (the trace-info at 43) and carries on; it does not fail. From 1.4.0 the
 * packet is decoded: no gap, and the trace goes on to the range at
 * 0x1002db4 that 1.8.0's listing shows after it (Idx 52). */
struct ite_seen {
	int gaps;
	bool range_after;
};

static int note_ite(void *arg, const struct hwt_elem *e)
{
	struct ite_seen *seen = arg;
	if (e->type == HWT_ELEM_GAP && e->u.gap.reason == HWT_GAP_DECODE_ERROR) {
		seen->gaps++;
		if (e->trace_offset != 43)
			HWT_FAIL("decode error at offset %" PRIu64 ", want 43 "
				 "(the trace-info packet after the unknown one)",
				 e->trace_offset);
	}
	if (e->type == HWT_ELEM_RANGE && e->u.range.start == 0x1002db4)
		seen->range_after = true;
	return 0;
}

static void ete_instrumentation_packet(void)
{
	char dir[1024];
	struct ite_seen seen = {0, false};
	bool known = ocsd_get_version() >= OCSD_V(1, 4, 0);
	snprintf(dir, sizeof(dir), "%s/opencsd/ete-ite-instr", HWT_TESTDATA);
	struct hwt_decode_opts opts = {.size = sizeof(opts),
				       .warn = warn_to_stderr};
	struct hwt_elem_sink sink = {note_ite, &seen};
	CHECK_INT(hwt_decode_snapshot_dir(dir, &opts, &sink), 0);
	CHECK_INT(seen.gaps, known ? 0 : 1);
	CHECK_INT(seen.range_after, known);
}

int main(void)
{
	RUN(listing_follows_version);
	RUN(snapshots_match_reference);
	RUN(ete_instrumentation_packet);
	return hwt_test_summary();
}
