/* Text and JSON-lines formatting of elements. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/brcntr.h"
#include "hwtrace/error.h"
#include "hwtrace/output.h"
#include "analysis/util/text_append.h"

/* A range's or branch's body and annotation, for the next element that
 * equals it in all but time, CPU and thread (loops repeat a few lines
 * millions of times). tag 0: empty. */
#define LINE_CACHE_BITS 9
struct line_key {
	uint64_t a, b, c;     /* start, end, insns; from, to, exception */
	uint64_t annot_tag;   /* the annotator's cache_tag, else 0 */
	int32_t proc;         /* the pid, else the tid, else INT32_MIN */
	uint32_t tag;         /* type, ISA or kind, exception flag */
};

struct line_entry {
	struct line_key k;
	uint8_t body_len, annot_len;
	char body[88];
	char annot[104];
};

/* Copies @size bytes, a constant from 16 to 128 at every call, in
 * 16-byte moves, the last one ending at @size (it may overlap the one
 * before). A memcpy of the whole size is no better: from about 64 bytes
 * GCC makes it a `rep movs` (at -O2 and, for more sizes, at -O3), whose
 * start-up cost made put_fixed a third of a Release build's decode. */
static inline __attribute__((always_inline)) void
copy_fixed(char *dst, const char *src, size_t size)
{
	/* Written out: -O2 keeps a loop of six, even with a pragma to
	 * unroll it, and took 1.2 times as long. Each test is decided
	 * when compiling. */
#define COPY_16_BELOW_SIZE(k) \
	if (size > (k) + 16) \
		memcpy(dst + (k), src + (k), 16)
	memcpy(dst, src, 16);
	COPY_16_BELOW_SIZE(16); COPY_16_BELOW_SIZE(32); COPY_16_BELOW_SIZE(48);
	COPY_16_BELOW_SIZE(64); COPY_16_BELOW_SIZE(80); COPY_16_BELOW_SIZE(96);
#undef COPY_16_BELOW_SIZE
	memcpy(dst + size - 16, src + size - 16, 16);
}

/* @n bytes of @src (an array of @size): copied whole where the line has
 * room, a fixed-size move being much cheaper than a variable one. Inlined
 * so that @size is a constant at every call: out of line, the copy became
 * a `rep movsq`, whose start-up cost made it 16% of a decode's samples. */
static inline __attribute__((always_inline)) void
put_fixed(struct hwt_text *l, const char *src, size_t n, size_t size)
{
	if (l->len + size <= l->size) {
		copy_fixed(l->buf + l->len, src, size);
		l->len += n;
	} else {
		hwt_text_put(l, src, n);
	}
}

struct hwt_output {
	FILE *out;
	enum hwt_output_format format;
	struct hwt_output_annotator annotator;
	char *buf;  /* lines not yet written */
	size_t len, cap; /* cap: OUT_BUF, or more while held */
	bool hold;  /* grow buf rather than write it (hwt_output_hold) */
	/* Bodies and annotations of ranges and branches seen before. */
	struct line_entry *cache;
	/* JSON's {"type":"T" of each type, made once (19 bytes at most). */
	char type_head[HWT_ELEM_SAMPLE + 1][32];
	uint8_t type_head_len[HWT_ELEM_SAMPLE + 1];
	/* The last line's task (text's "[CPU] TID ", JSON's cpu, pid and
	 * tid members; 72 bytes at most) and what it was made of. */
	char task[80];
	size_t task_len;
	bool task_valid;
	uint32_t task_fields;
	int32_t task_cpu, task_pid, task_tid;
	/* The last line's time (text's "TIME: ", JSON's ,"time":TIME; 30
	 * bytes at most) and its value. */
	char time_text[32];
	size_t time_len;
	bool time_valid;
	uint64_t time;
};

/* Lines are formatted straight into one large buffer that goes out in
 * big writes: per-field printf and per-line stdio calls were most of a
 * decode's time. A line longer than OUT_LINE_MAX is written on its own
 * (through a buffer of its size) and, as always, without annotation. */
#define OUT_BUF (256u * 1024)
#define OUT_LINE_MAX 4096
#define OUT_EXTRA_MAX 4096

static void put_json_key_str(struct hwt_text *l, const char *key, size_t klen,
			     const char *s)
{
	hwt_text_put(l, key, klen);
	hwt_text_json_str(l, s);
}

#define put_json_string(l, key, s) \
	put_json_key_str((l), ",\"" key "\":", sizeof(",\"" key "\":") - 1, (s))

/* ,"key":"0xHEX" */
#define put_json_hex(l, key, v) \
	do { \
		hwt_text_lit((l), ",\"" key "\":\"0x"); \
		hwt_text_hex((l), (v)); \
		hwt_text_char((l), '"'); \
	} while (0)

/* ,"key":DECIMAL */
#define put_json_u64(l, key, v) \
	do { \
		hwt_text_lit((l), ",\"" key "\":"); \
		hwt_text_u64((l), (v)); \
	} while (0)

static void format_sample_jsonl(struct hwt_text *l, const struct hwt_elem *e)
{
	put_json_hex(l, "ip", e->u.sample.ip);
	if (e->u.sample.period)
		put_json_u64(l, "period", e->u.sample.period);
	put_json_u64(l, "window", e->u.sample.window);
	if (e->u.sample.sync < e->u.sample.window)
		put_json_u64(l, "sync", e->u.sample.sync);
	hwt_text_lit(l, ",\"branches\":[");
	for (size_t i = 0; i < e->u.sample.nbranches; i++) {
		const struct hwt_branch_entry *b = &e->u.sample.branches[i];
		if (i)
			hwt_text_char(l, ',');
		hwt_text_lit(l, "{\"from\":\"0x");
		hwt_text_hex(l, b->from);
		hwt_text_lit(l, "\",\"to\":\"0x");
		hwt_text_hex(l, b->to);
		hwt_text_lit(l, "\",\"kind\":\"");
		hwt_text_str(l, hwt_branch_kind_name(b->kind));
		hwt_text_lit(l, "\"}");
	}
	hwt_text_char(l, ']');
}

static void format_sample_text(struct hwt_text *l, const struct hwt_elem *e)
{
	hwt_text_lit(l, "sample    ip 0x");
	hwt_text_hex(l, e->u.sample.ip);
	if (e->u.sample.period) {
		hwt_text_lit(l, " period ");
		hwt_text_u64(l, e->u.sample.period);
	}
	hwt_text_lit(l, " window ");
	hwt_text_u64(l, e->u.sample.window);
	if (e->u.sample.sync < e->u.sample.window) {
		hwt_text_lit(l, " bytes (sync at ");
		hwt_text_u64(l, e->u.sample.sync);
		hwt_text_char(l, ')');
	} else {
		hwt_text_lit(l, " bytes (no sync point)");
	}
	hwt_text_char(l, ' ');
	hwt_text_u64(l, e->u.sample.nbranches);
	hwt_text_lit(l, " branches");
	for (size_t i = 0; i < e->u.sample.nbranches; i++) {
		const struct hwt_branch_entry *b = &e->u.sample.branches[i];
		hwt_text_char(l, i ? ',' : ':');
		hwt_text_lit(l, " 0x");
		hwt_text_hex(l, b->from);
		hwt_text_lit(l, "->0x");
		hwt_text_hex(l, b->to);
		hwt_text_char(l, ' ');
		hwt_text_str(l, hwt_branch_kind_name(b->kind));
	}
}

/* {"type":"T" */
static void jsonl_type(struct hwt_text *l, const struct hwt_elem *e)
{
	hwt_text_lit(l, "{\"type\":\"");
	hwt_text_str(l, hwt_elem_type_name(e->type));
	hwt_text_char(l, '"');
}

static const char *const priv_names[] = {NULL, "user", "kernel", "hv"};

/* The counts of a branch record's counter word, one per event of the
 * sampled group with counters (hwtrace/brcntr.h); how many there are
 * when the capture says it, else none. */
static unsigned record_counts(const struct hwt_elem *e,
			      uint64_t counts[HWT_BRCNTR_MAX_EVENTS])
{
	unsigned nr = e->u.branch.counter_events;
	if (nr > HWT_BRCNTR_MAX_EVENTS)
		nr = HWT_BRCNTR_MAX_EVENTS;
	return hwt_brcntr_count(e->u.branch.counters,
				e->u.branch.counter_width, nr, counts);
}

/* ,"counts":[A,B,...] */
static void counts_jsonl(struct hwt_text *l, const struct hwt_elem *e)
{
	uint64_t c[HWT_BRCNTR_MAX_EVENTS];
	unsigned n = record_counts(e, c);
	if (!n)
		return;
	hwt_text_lit(l, ",\"counts\":[");
	for (unsigned i = 0; i < n; i++) {
		if (i)
			hwt_text_char(l, ',');
		hwt_text_u64(l, c[i]);
	}
	hwt_text_char(l, ']');
}

/* " counts A,B,..." */
static void counts_text(struct hwt_text *l, const struct hwt_elem *e)
{
	uint64_t c[HWT_BRCNTR_MAX_EVENTS];
	unsigned n = record_counts(e, c);
	if (!n)
		return;
	hwt_text_lit(l, " counts ");
	for (unsigned i = 0; i < n; i++) {
		if (i)
			hwt_text_char(l, ',');
		hwt_text_u64(l, c[i]);
	}
}

/* A branch record's members: ,"depth":D,"weight":W,"mispred":B,... */
static void record_jsonl(struct hwt_text *l, const struct hwt_elem *e)
{
	uint8_t f = e->u.branch.flags;
	put_json_u64(l, "depth", e->u.branch.depth);
	if (e->u.branch.weight)
		put_json_u64(l, "weight", e->u.branch.weight);
	if (f & (HWT_BRANCH_MISPRED | HWT_BRANCH_PREDICTED))
		hwt_text_str(l, f & HWT_BRANCH_MISPRED ? ",\"mispred\":true"
						       : ",\"mispred\":false");
	if (e->fields & HWT_FIELD_CYCLES)
		put_json_u64(l, "cycles", e->u.branch.cycles);
	if (e->fields & HWT_FIELD_BR_COUNTERS) {
		put_json_u64(l, "counters", e->u.branch.counters);
		counts_jsonl(l, e);
	}
	if (f & HWT_BRANCH_IN_TX)
		hwt_text_lit(l, ",\"in_tx\":true");
	if (f & HWT_BRANCH_ABORT)
		hwt_text_lit(l, ",\"abort\":true");
	if (e->u.branch.priv && e->u.branch.priv < 4) {
		hwt_text_lit(l, ",\"priv\":\"");
		hwt_text_str(l, priv_names[e->u.branch.priv]);
		hwt_text_char(l, '"');
	}
}

/* The same in text: " record D weight W mispred cycles C user". */
static void record_text(struct hwt_text *l, const struct hwt_elem *e)
{
	uint8_t f = e->u.branch.flags;
	hwt_text_lit(l, "  record ");
	hwt_text_u64(l, e->u.branch.depth);
	if (e->u.branch.weight) {
		hwt_text_lit(l, " weight ");
		hwt_text_u64(l, e->u.branch.weight);
	}
	if (f & HWT_BRANCH_MISPRED)
		hwt_text_lit(l, " mispred");
	else if (f & HWT_BRANCH_PREDICTED)
		hwt_text_lit(l, " pred");
	if (e->fields & HWT_FIELD_CYCLES) {
		hwt_text_lit(l, " cycles ");
		hwt_text_u64(l, e->u.branch.cycles);
	}
	if (e->fields & HWT_FIELD_BR_COUNTERS) {
		hwt_text_lit(l, " counters ");
		hwt_text_u64(l, e->u.branch.counters);
		counts_text(l, e);
	}
	if (f & HWT_BRANCH_IN_TX)
		hwt_text_lit(l, " in_tx");
	if (f & HWT_BRANCH_ABORT)
		hwt_text_lit(l, " abort");
	if (e->u.branch.priv && e->u.branch.priv < 4) {
		hwt_text_char(l, ' ');
		hwt_text_str(l, priv_names[e->u.branch.priv]);
	}
}

/* ,"cpu":C,"pid":P,"tid":T */
static void jsonl_task(struct hwt_text *l, const struct hwt_elem *e)
{
	if (e->fields & HWT_FIELD_CPU) {
		hwt_text_lit(l, ",\"cpu\":");
		hwt_text_i64(l, e->cpu);
	}
	if (e->fields & HWT_FIELD_PID) {
		hwt_text_lit(l, ",\"pid\":");
		hwt_text_i64(l, e->pid);
	}
	if (e->fields & HWT_FIELD_TID) {
		hwt_text_lit(l, ",\"tid\":");
		hwt_text_i64(l, e->tid);
	}
	if (e->fields & HWT_FIELD_TASK_AMBIGUOUS)
		hwt_text_lit(l, ",\"task\":\"ambiguous\"");
}

/* The members of the element's type. */
static void jsonl_body(struct hwt_text *l, const struct hwt_elem *e)
{
	switch (e->type) {
	case HWT_ELEM_RANGE:
		put_json_hex(l, "start", e->u.range.start);
		put_json_hex(l, "end", e->u.range.end);
		put_json_u64(l, "insns", e->u.range.insns);
		if (e->u.range.isa != HWT_ISA_UNKNOWN) {
			hwt_text_lit(l, ",\"isa\":\"");
			hwt_text_str(l, hwt_isa_name(e->u.range.isa));
			hwt_text_char(l, '"');
		}
		if (e->u.range.text)
			put_json_string(l, "insn", e->u.range.text);
		break;
	case HWT_ELEM_BRANCH:
		if (!(e->fields & HWT_FIELD_NO_FROM))
			put_json_hex(l, "from", e->u.branch.from);
		put_json_hex(l, "to", e->u.branch.to);
		if (!(e->fields & HWT_FIELD_NO_KIND)) {
			hwt_text_lit(l, ",\"kind\":\"");
			hwt_text_str(l, hwt_branch_kind_name(e->u.branch.kind));
			hwt_text_char(l, '"');
		}
		if (e->fields & HWT_FIELD_EXC_NUM)
			put_json_u64(l, "exception", e->u.branch.exception);
		if (e->fields & HWT_FIELD_SAMPLED)
			record_jsonl(l, e);
		break;
	case HWT_ELEM_TRACE_ON:
	case HWT_ELEM_TRACE_OFF:
		if (e->fields & HWT_FIELD_AT)
			put_json_hex(l, "at", e->u.trace.at);
		break;
	case HWT_ELEM_CONTEXT:
		if (e->fields & HWT_FIELD_EL)
			put_json_u64(l, "el", e->u.context.el);
		if (e->fields & HWT_FIELD_VMID)
			put_json_u64(l, "vmid", e->u.context.vmid);
		break;
	case HWT_ELEM_GAP:
		hwt_text_lit(l, ",\"reason\":\"");
		hwt_text_str(l, hwt_gap_reason_name(e->u.gap.reason));
		hwt_text_char(l, '"');
		if (e->fields & HWT_FIELD_GAP_BYTES)
			put_json_u64(l, "bytes", e->u.gap.bytes);
		if (e->fields & HWT_FIELD_OFFSET)
			put_json_u64(l, "offset", e->trace_offset);
		if (e->u.gap.detail)
			put_json_string(l, "detail", e->u.gap.detail);
		break;
	case HWT_ELEM_ERROR:
		if (e->fields & HWT_FIELD_OFFSET)
			put_json_u64(l, "offset", e->trace_offset);
		put_json_string(l, "message", e->u.error.message);
		break;
	case HWT_ELEM_TIMESTAMP:
		break;
	case HWT_ELEM_SAMPLE:
		format_sample_jsonl(l, e);
		break;
	}
}

static void jsonl_time(struct hwt_text *l, const struct hwt_elem *e)
{
	if (e->fields & HWT_FIELD_TIME)
		put_json_u64(l, "time", e->time);
}

/* "[CPU] TID " of a text line. */
static void text_task(struct hwt_text *l, const struct hwt_elem *e)
{
	if (e->fields & HWT_FIELD_CPU) {
		hwt_text_char(l, '[');
		hwt_text_i64_pad(l, e->cpu, 3, 1);
		hwt_text_lit(l, "] ");
	}
	if (e->fields & HWT_FIELD_TID) {
		hwt_text_i64_pad(l, e->tid, 6, 0);
		hwt_text_char(l, ' ');
	} else if (e->fields & HWT_FIELD_TASK_AMBIGUOUS) {
		hwt_text_lit(l, "     ? ");
	}
}

static void text_time(struct hwt_text *l, const struct hwt_elem *e)
{
	if (e->fields & HWT_FIELD_TIME) {
		hwt_text_u64(l, e->time);
		hwt_text_lit(l, ": ");
	}
}

/* A text line after its "[CPU] TID TIME: ". */
static void text_body(struct hwt_text *l, const struct hwt_elem *e)
{
	switch (e->type) {
	case HWT_ELEM_RANGE:
		hwt_text_lit(l, "range     0x");
		hwt_text_hex(l, e->u.range.start);
		hwt_text_lit(l, "..0x");
		hwt_text_hex(l, e->u.range.end);
		hwt_text_char(l, ' ');
		hwt_text_u64(l, e->u.range.insns);
		hwt_text_lit(l, " insns");
		if (e->u.range.isa != HWT_ISA_UNKNOWN) {
			hwt_text_char(l, ' ');
			hwt_text_str(l, hwt_isa_name(e->u.range.isa));
		}
		if (e->u.range.text) {
			hwt_text_lit(l, "  ");
			hwt_text_str(l, e->u.range.text);
		}
		break;
	case HWT_ELEM_BRANCH:
		if (e->fields & HWT_FIELD_NO_FROM) {
			hwt_text_lit(l, "branch    ?");
		} else {
			hwt_text_lit(l, "branch    0x");
			hwt_text_hex(l, e->u.branch.from);
		}
		hwt_text_lit(l, " -> 0x");
		hwt_text_hex(l, e->u.branch.to);
		hwt_text_char(l, ' ');
		hwt_text_str(l, e->fields & HWT_FIELD_NO_KIND
					? "?" : hwt_branch_kind_name(e->u.branch.kind));
		if (e->fields & HWT_FIELD_EXC_NUM) {
			hwt_text_lit(l, " #");
			hwt_text_u64(l, e->u.branch.exception);
		}
		if (e->fields & HWT_FIELD_SAMPLED)
			record_text(l, e);
		break;
	case HWT_ELEM_TRACE_ON:
	case HWT_ELEM_TRACE_OFF:
		if (e->type == HWT_ELEM_TRACE_ON)
			hwt_text_lit(l, "trace on ");
		else
			hwt_text_lit(l, "trace off");
		if (e->fields & HWT_FIELD_AT) {
			hwt_text_lit(l, " at 0x");
			hwt_text_hex(l, e->u.trace.at);
		}
		break;
	case HWT_ELEM_TIMESTAMP:
		hwt_text_lit(l, "timestamp");
		break;
	case HWT_ELEM_CONTEXT:
		hwt_text_lit(l, "context  ");
		if (e->fields & HWT_FIELD_PID) {
			hwt_text_lit(l, " pid ");
			hwt_text_i64(l, e->pid);
		}
		if (e->fields & HWT_FIELD_EL) {
			hwt_text_lit(l, " el");
			hwt_text_u64(l, e->u.context.el);
		}
		if (e->fields & HWT_FIELD_VMID) {
			hwt_text_lit(l, " vmid ");
			hwt_text_u64(l, e->u.context.vmid);
		}
		break;
	case HWT_ELEM_GAP:
		hwt_text_lit(l, "gap       ");
		hwt_text_str(l, hwt_gap_reason_name(e->u.gap.reason));
		if (e->fields & HWT_FIELD_GAP_BYTES) {
			hwt_text_char(l, ' ');
			hwt_text_u64(l, e->u.gap.bytes);
			hwt_text_lit(l, " bytes");
		}
		if (e->u.gap.detail) {
			hwt_text_lit(l, ": ");
			hwt_text_term_str(l, e->u.gap.detail);
		}
		break;
	case HWT_ELEM_ERROR:
		hwt_text_lit(l, "error    ");
		if (e->fields & HWT_FIELD_OFFSET) {
			hwt_text_lit(l, " at offset ");
			hwt_text_u64(l, e->trace_offset);
		}
		hwt_text_lit(l, ": ");
		/* Messages may quote the capture's names. */
		hwt_text_term_str(l, e->u.error.message);
		break;
	case HWT_ELEM_SAMPLE:
		format_sample_text(l, e);
		break;
	}
}

/* What paused or resumed the trace, at the end of its trace off or on
 * line (after the time and the symbols), so that the line's other words
 * and members stay where scripts read them. */
static void put_cause(struct hwt_text *l, const struct hwt_elem *e,
		      enum hwt_output_format format)
{
	if ((e->type != HWT_ELEM_TRACE_ON && e->type != HWT_ELEM_TRACE_OFF) ||
	    !e->u.trace.cause)
		return;
	if (format == HWT_OUTPUT_JSONL) {
		put_json_string(l, "cause", e->u.trace.cause);
		put_json_u64(l, "cause_time", e->u.trace.cause_time);
		put_json_hex(l, "cause_ip", e->u.trace.cause_ip);
		return;
	}
	if (e->type == HWT_ELEM_TRACE_ON)
		hwt_text_lit(l, " (resume: ");
	else
		hwt_text_lit(l, " (pause: ");
	/* The capture's own name, which may hold anything. */
	hwt_text_term_str(l, e->u.trace.cause);
	hwt_text_char(l, ')');
}

static void format_line(struct hwt_text *l, const struct hwt_elem *elem,
			enum hwt_output_format format)
{
	if (format == HWT_OUTPUT_JSONL) {
		jsonl_type(l, elem);
		jsonl_task(l, elem);
		jsonl_body(l, elem);
		jsonl_time(l, elem);
		put_cause(l, elem, format);
		hwt_text_char(l, '}');
	} else {
		text_task(l, elem);
		text_time(l, elem);
		text_body(l, elem);
		put_cause(l, elem, format);
	}
}

/* A stream's elements share their task: text's "[CPU] TID ", JSON's
 * cpu, pid and tid members, formatted once per change. */
static void put_task_cached(struct hwt_output *o, struct hwt_text *l,
			    const struct hwt_elem *e)
{
	bool json = o->format == HWT_OUTPUT_JSONL;
	uint32_t f = e->fields & (HWT_FIELD_CPU | HWT_FIELD_PID | HWT_FIELD_TID |
				  HWT_FIELD_TASK_AMBIGUOUS);
	if (!o->task_valid || f != o->task_fields ||
	    ((f & HWT_FIELD_CPU) && e->cpu != o->task_cpu) ||
	    ((f & HWT_FIELD_PID) && e->pid != o->task_pid) ||
	    ((f & HWT_FIELD_TID) && e->tid != o->task_tid)) {
		struct hwt_text t = {o->task, sizeof(o->task), 0};
		if (json)
			jsonl_task(&t, e);
		else
			text_task(&t, e);
		o->task_len = t.len;
		o->task_fields = f;
		o->task_cpu = e->cpu;
		o->task_pid = e->pid;
		o->task_tid = e->tid;
		o->task_valid = true;
	}
	/* A fixed-size copy: the variable one was a library call per line. */
	put_fixed(l, o->task, o->task_len, sizeof(o->task));
}

/* The text of @e's time, kept for the lines after it. */
static void format_time(struct hwt_output *o, const struct hwt_elem *e)
{
	struct hwt_text t = {o->time_text, sizeof(o->time_text), 0};
	if (o->format == HWT_OUTPUT_JSONL)
		jsonl_time(&t, e);
	else
		text_time(&t, e);
	o->time_len = t.len;
	o->time = e->time;
	o->time_valid = true;
}

/* Elements between two time stamps share their time: formatted once per
 * change, as the task is. */
static inline void put_time_cached(struct hwt_output *o, struct hwt_text *l,
				   const struct hwt_elem *e)
{
	if (!(e->fields & HWT_FIELD_TIME))
		return;
	if (!o->time_valid || e->time != o->time)
		format_time(o, e);
	put_fixed(l, o->time_text, o->time_len, sizeof(o->time_text));
}

int hwt_elem_format(const struct hwt_elem *elem, enum hwt_output_format format,
		    char *buf, size_t size)
{
	struct hwt_text l = {buf, size, 0};

	format_line(&l, elem, format);
	if (size)
		buf[l.len < size ? l.len : size - 1] = '\0';
	return (int)l.len;
}

int hwt_output_flush_to(struct hwt_output *o, FILE *to)
{
	if (!o || !o->len)
		return 0;
	size_t n = o->len;
	o->len = 0;
	if (fwrite(o->buf, 1, n, to) != n)
		return hwt_error(HWT_ERR_IO, "writing decoded output failed: %s",
				 strerror(errno));
	return 0;
}

int hwt_output_flush(struct hwt_output *o)
{
	return o ? hwt_output_flush_to(o, o->out) : 0;
}

void hwt_output_hold(struct hwt_output *o, bool hold)
{
	o->hold = hold;
}

/* Room for one more line: the buffer written out, or while held, grown. */
static int make_room(struct hwt_output *o)
{
	if (!o->hold)
		return hwt_output_flush(o);
	char *b = realloc(o->buf, o->cap * 2);
	if (!b)
		return hwt_error(HWT_ERR_NOMEM, "out of memory holding output");
	o->buf = b;
	o->cap *= 2;
	return 0;
}

void hwt_output_set_annotator(struct hwt_output *output,
			      const struct hwt_output_annotator *annotator)
{
	if (annotator)
		output->annotator = *annotator;
	else
		memset(&output->annotator, 0, sizeof(output->annotator));
	/* Cached annotations were the last annotator's. */
	if (output->cache)
		memset(output->cache, 0,
		       sizeof(*output->cache) << LINE_CACHE_BITS);
}

/* A line of OUT_LINE_MAX bytes or more: formatted in a buffer of its own. */
static int emit_long(struct hwt_output *o, const struct hwt_elem *elem,
		     size_t n)
{
	int err = hwt_output_flush(o);
	if (err < 0)
		return err;
	char *big = malloc(n + 1);
	if (!big)
		return hwt_error(HWT_ERR_NOMEM, "out of memory formatting output");
	hwt_elem_format(elem, o->format, big, n + 1);
	big[n] = '\n';
	size_t w = fwrite(big, 1, n + 1, o->out);
	free(big);
	if (w != n + 1)
		return hwt_error(HWT_ERR_IO, "writing decoded output failed: %s",
				 strerror(errno));
	return 0;
}

/* The cache slot of a range (without instruction text) or branch and its
 * key in @k; NULL for other elements, whose lines are not cached. */
static struct line_entry *cache_slot(struct hwt_output *o,
				     const struct hwt_elem *e,
				     struct line_key *k)
{
	if (!o->cache)
		return NULL;
	if (e->type == HWT_ELEM_RANGE && !e->u.range.text) {
		k->a = e->u.range.start;
		k->b = e->u.range.end;
		k->c = e->u.range.insns;
		k->tag = 1u | (uint32_t)e->u.range.isa << 8;
	} else if (e->type == HWT_ELEM_BRANCH &&
		   !(e->fields & (HWT_FIELD_SAMPLED | HWT_FIELD_NO_KIND |
				  HWT_FIELD_NO_FROM))) {
		bool exc = e->fields & HWT_FIELD_EXC_NUM;
		k->a = e->u.branch.from;
		k->b = e->u.branch.to;
		k->c = exc ? e->u.branch.exception : 0;
		k->tag = 2u | (uint32_t)e->u.branch.kind << 8 | (exc ? 4u : 0);
	} else {
		return NULL;
	}
	/* The process the annotator names symbols in. */
	k->proc = (e->fields & HWT_FIELD_PID) ? e->pid
		  : (e->fields & HWT_FIELD_TID) ? e->tid : INT32_MIN;
	k->annot_tag = o->annotator.cache_tag ?
		       o->annotator.cache_tag(o->annotator.arg, e) : 0;
	uint64_t h = (k->a ^ (k->b << 7) ^ (k->c << 29) ^ (uint64_t)(uint32_t)k->proc ^
		      k->tag ^ k->annot_tag) * 0x9e3779b97f4a7c15ull;
	return &o->cache[h >> (64 - LINE_CACHE_BITS)];
}

static bool cache_hit(const struct line_entry *ce, const struct line_key *k)
{
	return ce->k.tag == k->tag && ce->k.a == k->a && ce->k.b == k->b &&
	       ce->k.c == k->c && ce->k.proc == k->proc &&
	       ce->k.annot_tag == k->annot_tag;
}

static int output_emit(void *arg, const struct hwt_elem *elem)
{
	struct hwt_output *o = arg;
	int err;

	/* An annotator may write lines of its own to the FILE (objdump's
	 * header before an instruction): what came before goes first. */
	if (o->annotator.annotate && elem->type == HWT_ELEM_RANGE &&
	    elem->u.range.text && (err = hwt_output_flush(o)) < 0)
		return err;
	if (o->cap - o->len < OUT_LINE_MAX + OUT_EXTRA_MAX + 2 &&
	    (err = make_room(o)) < 0)
		return err;
	char *p = o->buf + o->len;
	struct hwt_text l = {p, OUT_LINE_MAX, 0};
	bool json = o->format == HWT_OUTPUT_JSONL;
	if (json && (unsigned)elem->type <= HWT_ELEM_SAMPLE)
		put_fixed(&l, o->type_head[elem->type],
			  o->type_head_len[elem->type], sizeof(o->type_head[0]));
	else if (json)
		jsonl_type(&l, elem);
	put_task_cached(o, &l, elem);
	if (!json)
		put_time_cached(o, &l, elem);
	/* Text: task, time, body, annotation. JSON: head, body, time,
	 * annotation, '}'. The body and annotation of a repeated range or
	 * branch come from the cache. */
	struct line_key key;
	struct line_entry *ce = cache_slot(o, elem, &key);
	if (ce && cache_hit(ce, &key)) {
		put_fixed(&l, ce->body, ce->body_len, sizeof(ce->body));
		if (json)
			put_time_cached(o, &l, elem);
		put_fixed(&l, ce->annot, ce->annot_len, sizeof(ce->annot));
		if (json)
			hwt_text_char(&l, '}');
		hwt_text_char(&l, '\n');
		o->len += l.len;
		return 0;
	}
	size_t body_at = l.len;
	if (json)
		jsonl_body(&l, elem);
	else
		text_body(&l, elem);
	size_t body_len = l.len - body_at;
	if (json)
		put_time_cached(o, &l, elem);
	/* The whole line as hwt_elem_format gives it (with JSON's '}'). */
	if (l.len + json >= OUT_LINE_MAX)
		return emit_long(o, elem, l.len + json);
	size_t n = l.len, annot_len = 0;
	if (o->annotator.annotate) {
		/* The annotation ends a text line, or goes before the
		 * closing brace of a JSON object. */
		int x = o->annotator.annotate(o->annotator.arg, elem, o->format,
					      o->out, p + n, OUT_EXTRA_MAX);
		if (x < 0)
			return x;
		annot_len = (size_t)x < OUT_EXTRA_MAX ? (size_t)x
						       : OUT_EXTRA_MAX - 1;
	}
	if (ce && body_len <= sizeof(ce->body) &&
	    annot_len <= sizeof(ce->annot)) {
		/* The key alone: the whole entry was copied before, a
		 * `rep movs` of 232 bytes. */
		ce->k = key;
		ce->body_len = (uint8_t)body_len;
		ce->annot_len = (uint8_t)annot_len;
		/* Whole arrays, as put_fixed copies them back: a copy of
		 * the length is a `rep movs` too. The line buffer has room
		 * past both (OUT_LINE_MAX + OUT_EXTRA_MAX from p). */
		copy_fixed(ce->body, p + body_at, sizeof(ce->body));
		copy_fixed(ce->annot, p + n, sizeof(ce->annot));
	}
	n += annot_len;
	if ((elem->type == HWT_ELEM_TRACE_ON ||
	     elem->type == HWT_ELEM_TRACE_OFF) && elem->u.trace.cause) {
		/* After the annotation; the line buffer has room for both
		 * maxima, and the appender stops at its end. */
		struct hwt_text c = {p + n, OUT_LINE_MAX + OUT_EXTRA_MAX - n, 0};
		put_cause(&c, elem, o->format);
		/* A cut JSON string would not parse: a name too long for
		 * the line is left out there (text keeps what fits). */
		if (c.len <= c.size || !json)
			n += c.len < c.size ? c.len : c.size;
	}
	if (json)
		p[n++] = '}';
	p[n++] = '\n';
	o->len += n;
	return 0;
}

struct hwt_output *hwt_output_new(FILE *out, enum hwt_output_format format)
{
	struct hwt_output *o = calloc(1, sizeof(*o));
	if (o && (!(o->buf = malloc(OUT_BUF)) ||
		  !(o->cache = calloc((size_t)1 << LINE_CACHE_BITS,
				      sizeof(*o->cache))))) {
		free(o->buf);
		free(o);
		o = NULL;
	}
	if (o) {
		o->out = out;
		o->cap = OUT_BUF;
		o->format = format;
		for (int t = 0; t <= HWT_ELEM_SAMPLE; t++) {
			struct hwt_text h = {o->type_head[t],
					     sizeof(o->type_head[t]), 0};
			struct hwt_elem e = {.type = (enum hwt_elem_type)t};
			jsonl_type(&h, &e);
			o->type_head_len[t] = (uint8_t)h.len;
		}
	}
	return o;
}

void hwt_output_free(struct hwt_output *output)
{
	if (!output)
		return;
	/* A failed write leaves the FILE's error flag set for its closer. */
	hwt_output_flush(output);
	free(output->cache);
	free(output->buf);
	free(output);
}

struct hwt_elem_sink hwt_output_sink(struct hwt_output *output)
{
	struct hwt_elem_sink sink = {output_emit, output};
	return sink;
}

int hwt_output_format_parse(const char *name, enum hwt_output_format *format)
{
	if (!strcmp(name, "text"))
		*format = HWT_OUTPUT_TEXT;
	else if (!strcmp(name, "jsonl"))
		*format = HWT_OUTPUT_JSONL;
	else
		return hwt_error(HWT_ERR_CONFIG,
				 "unknown output format \"%s\": use text or jsonl",
				 name);
	return 0;
}
