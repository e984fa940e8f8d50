/* perf script's -F lines from the element stream (hwtrace/script.h).
 * perf script --itrace=b makes a sample of every branch, and of every
 * start and end of trace ("tr strt" from 0, "tr end" to 0); this writes
 * the same events with the same columns: "%16s" comm, "%5d/%-5d"
 * pid/tid, "[%03d]" cpu, "%5u.%09u:" time, the branch kind as perf's
 * flags, " %16x" ip with its "sym+0xoff (dso)", " => %16x" addr with
 * its own, " insn: xx xx" and srcline on a line of its own. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/util/array_grow.h"
#include "analysis/util/elem_pid.h"
#include "analysis/util/text_append.h"
#include "hwtrace/error.h"
#include "hwtrace/insn.h"
#include "hwtrace/script.h"
#include "hwtrace/text.h"

static const struct {
	const char *name;
	uint32_t bit;
} fields[] = {
	{"comm", HWT_SCRIPT_COMM},     {"tid", HWT_SCRIPT_TID},
	{"pid", HWT_SCRIPT_PID},       {"cpu", HWT_SCRIPT_CPU},
	{"time", HWT_SCRIPT_TIME},     {"flags", HWT_SCRIPT_FLAGS},
	{"ip", HWT_SCRIPT_IP},         {"sym", HWT_SCRIPT_SYM},
	{"symoff", HWT_SCRIPT_SYMOFF}, {"dso", HWT_SCRIPT_DSO},
	{"addr", HWT_SCRIPT_ADDR},     {"insn", HWT_SCRIPT_INSN},
	{"srcline", HWT_SCRIPT_SRCLINE},
};

int hwt_script_fields_parse(const char *list, uint32_t *out)
{
	*out = 0;
	for (const char *p = list; ; ) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		size_t i = 0;
		while (i < sizeof(fields) / sizeof(fields[0]) &&
		       (strlen(fields[i].name) != len ||
			strncmp(fields[i].name, p, len)))
			i++;
		if (i == sizeof(fields) / sizeof(fields[0]))
			return hwt_error(HWT_ERR_CONFIG, "-F: '%.*s' is not a field; "
					 "fields are comm, tid, pid, cpu, time, "
					 "flags, ip, sym, symoff, dso, addr, insn, "
					 "srcline", (int)len, p);
		*out |= fields[i].bit;
		if (!end)
			return 0;
		p = end + 1;
	}
}

/* Every enum hwt_isa value. */
#define ISAS (HWT_ISA_RV64 + 1)

/* The ISA of each thread's last range: the one its branches' bytes are
 * decoded in. */
struct last_range {
	int32_t tid;
	enum hwt_isa isa;
};

struct hwt_script {
	struct hwt_script_opts o;
	struct hwt_image *image;
	struct last_range *ranges;
	size_t nranges, ranges_cap;
	struct hwt_insn_decoder *dec[ISAS];
	bool no_dec[ISAS]; /* no decoder for the ISA: not asked again */
};

int hwt_script_new(const struct hwt_script_opts *opts, struct hwt_script **out)
{
	if (!opts || opts->size < sizeof(*opts) || !opts->out)
		return hwt_error(HWT_ERR_INVAL, "hwt_script_opts: size or out not set");
	struct hwt_script *s = calloc(1, sizeof(*s));
	if (!s)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	s->o = *opts;
	*out = s;
	return 0;
}

void hwt_script_free(struct hwt_script *s)
{
	if (!s)
		return;
	hwt_image_free(s->image);
	free(s->ranges);
	for (size_t i = 0; i < ISAS; i++)
		hwt_insn_decoder_free(s->dec[i]);
	free(s);
}

void hwt_script_set_image(struct hwt_script *s, struct hwt_image *image)
{
	hwt_image_free(s->image);
	s->image = image ? hwt_image_ref(image) : NULL;
}

static struct last_range *range_of(struct hwt_script *s, int32_t tid)
{
	for (size_t i = 0; i < s->nranges; i++)
		if (s->ranges[i].tid == tid)
			return &s->ranges[i];
	void *grown = s->ranges;
	if (!array_grow(&grown, &s->ranges_cap, sizeof(*s->ranges),
			s->nranges + 1, 8))
		return NULL;
	s->ranges = grown;
	s->ranges[s->nranges] = (struct last_range){tid, HWT_ISA_UNKNOWN};
	return &s->ranges[s->nranges++];
}

/* perf's names of branch kinds; the kinds perf's BTS and PT decoders
 * leave without a name (an asynchronous entry) have none. */
static const char *flags_name(const struct hwt_elem *e)
{
	if (e->type == HWT_ELEM_TRACE_ON)
		return "tr strt";
	if (e->type == HWT_ELEM_TRACE_OFF)
		return "tr end";
	switch (e->u.branch.kind) {
	case HWT_BRANCH_CALL: return "call";
	case HWT_BRANCH_RETURN: return "return";
	case HWT_BRANCH_COND: return "jcc";
	case HWT_BRANCH_JUMP:
	case HWT_BRANCH_INDIRECT: return "jmp";
	case HWT_BRANCH_SYSCALL: return "syscall";
	case HWT_BRANCH_SYSRET: return "sysret";
	case HWT_BRANCH_ERET: return "eret";
	case HWT_BRANCH_EXCEPTION:
	case HWT_BRANCH_INTERRUPT: return "";
	}
	return "";
}

/* " sym+0xoff (dso)" of @addr, as the fields ask; address 0 (where a
 * trace start comes from) has nothing. */
static void put_symbol(struct hwt_script *s, const struct hwt_elem *e,
		       uint64_t addr)
{
	uint32_t f = s->o.fields;
	if (!(f & (HWT_SCRIPT_SYM | HWT_SCRIPT_DSO)))
		return;
	struct hwt_symbol sym;
	uint64_t time = e->fields & HWT_FIELD_TIME ? e->time : HWT_TIME_UNKNOWN;
	int rc = s->o.sym && addr
			 ? hwt_symbolizer_lookup_at(s->o.sym, hwt_elem_pid(e), addr,
						    time, &sym)
			 : 0;
	if (rc != 1)
		memset(&sym, 0, sizeof(sym));
	FILE *out = s->o.out;
	if (f & HWT_SCRIPT_SYM) {
		char unnamed[512];
		fputc(' ', out);
		if (sym.name) {
			hwt_term_fwrite(out, sym.name, strlen(sym.name));
			if (f & HWT_SCRIPT_SYMOFF)
				fprintf(out, "+0x%" PRIx64, sym.offset);
		} else if (hwt_symbol_dso_name(&sym, unnamed, sizeof(unnamed))) {
			hwt_term_fwrite(out, unnamed, strlen(unnamed));
		} else {
			fputs("[unknown]", out);
		}
	}
	if (f & HWT_SCRIPT_DSO) {
		fputs(" (", out);
		if (sym.dso)
			hwt_term_fwrite(out, sym.dso, strlen(sym.dso));
		else
			fputs("[unknown]", out);
		fputc(')', out);
	}
}

/* The bytes of the instruction at @ip (the branch's, or for an
 * interrupt the one it interrupted), its length decoded in the ISA of
 * the thread's last range, as perf prints them. */
static void put_insn(struct hwt_script *s, const struct hwt_elem *e,
		     uint64_t ip)
{
	struct last_range *r = range_of(s, e->tid);
	uint8_t bytes[HWT_INSN_MAX_SIZE];
	uint64_t time = e->fields & HWT_FIELD_TIME ? e->time : HWT_TIME_UNKNOWN;
	if (!r || !ip || !s->image || r->isa == HWT_ISA_UNKNOWN)
		return;
	if (s->no_dec[r->isa])
		return;
	if (!s->dec[r->isa] && hwt_insn_decoder_new(r->isa, &s->dec[r->isa])) {
		s->no_dec[r->isa] = true;
		return;
	}
	int n = hwt_image_read_at(s->image, hwt_elem_pid(e), ip, time, bytes,
				  sizeof(bytes));
	struct hwt_insn insn;
	if (n <= 0 || hwt_insn_decode(s->dec[r->isa], bytes, (size_t)n, ip, &insn))
		return;
	fputs(" insn:", s->o.out);
	for (size_t i = 0; i < insn.size; i++)
		fprintf(s->o.out, " %02x", bytes[i]);
}

static void put_srcline(struct hwt_script *s, const struct hwt_elem *e,
			uint64_t ip)
{
	struct hwt_symbol sym;
	uint64_t time = e->fields & HWT_FIELD_TIME ? e->time : HWT_TIME_UNKNOWN;
	if (!s->o.sym || !ip ||
	    hwt_symbolizer_lookup_at(s->o.sym, hwt_elem_pid(e), ip, time, &sym) != 1)
		return;
	FILE *out = s->o.out;
	if (sym.file) {
		/* perf names the file without its directory. */
		const char *base = strrchr(sym.file, '/');
		base = base ? base + 1 : sym.file;
		fputs("\n  ", out);
		hwt_term_fwrite(out, base, strlen(base));
		fprintf(out, ":%" PRIu32, sym.line);
		return;
	}
	/* Code without a line: "BINARY[ADDR]" with the address as the
	 * binary's own headers place it (objdump's), as perf prints it. */
	const char *base = sym.dso && sym.dso[0] == '/' ? strrchr(sym.dso, '/') + 1
							: NULL;
	if (!base || !*base)
		return;
	fputs("\n  ", out);
	hwt_term_fwrite(out, base, strlen(base));
	fprintf(out, "[%" PRIx64 "]", sym.in_elf ? sym.elf_vaddr : sym.dso_offset);
}

static void put_task(struct hwt_script *s, const struct hwt_elem *e)
{
	uint32_t f = s->o.fields;
	FILE *out = s->o.out;
	int32_t tid = e->fields & HWT_FIELD_TID ? e->tid : -1;
	int32_t pid = e->fields & HWT_FIELD_PID ? e->pid : -1;
	if (f & HWT_SCRIPT_COMM) {
		const char *comm = s->o.comm ? s->o.comm(s->o.comm_arg, pid, tid)
					     : NULL;
		char anon[16];
		if (!comm) {
			snprintf(anon, sizeof(anon), ":%" PRId32, tid);
			comm = anon;
		}
		char name[64];
		struct hwt_text t = {name, sizeof(name) - 1, 0};
		hwt_text_term_str(&t, comm);
		name[t.len < sizeof(name) ? t.len : sizeof(name) - 1] = 0;
		fprintf(out, "%16s ", name);
	}
	if ((f & HWT_SCRIPT_PID) && (f & HWT_SCRIPT_TID))
		fprintf(out, "%5" PRId32 "/%-5" PRId32 " ", pid, tid);
	else if (f & HWT_SCRIPT_PID)
		fprintf(out, "%5" PRId32 " ", pid);
	else if (f & HWT_SCRIPT_TID)
		fprintf(out, "%5" PRId32 " ", tid);
	if (f & HWT_SCRIPT_CPU)
		fprintf(out, "[%03" PRId32 "] ",
			e->fields & HWT_FIELD_CPU ? e->cpu : -1);
	if ((f & HWT_SCRIPT_TIME) && (e->fields & HWT_FIELD_TIME))
		fprintf(out, "%5" PRIu64 ".%09" PRIu64 ": ", e->time / 1000000000u,
			e->time % 1000000000u);
}

static int emit(void *arg, const struct hwt_elem *e)
{
	struct hwt_script *s = arg;
	if (e->type == HWT_ELEM_RANGE) {
		struct last_range *r = range_of(s, e->tid);
		if (!r)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		if (e->u.range.isa < ISAS)
			r->isa = e->u.range.isa;
		return 0;
	}
	uint64_t ip, addr;
	if (e->type == HWT_ELEM_BRANCH) {
		ip = e->u.branch.from;
		addr = e->u.branch.to;
	} else if (e->type == HWT_ELEM_TRACE_ON && (e->fields & HWT_FIELD_AT)) {
		ip = 0;
		addr = e->u.trace.at;
	} else if (e->type == HWT_ELEM_TRACE_OFF && (e->fields & HWT_FIELD_AT)) {
		ip = e->u.trace.at;
		addr = 0;
	} else {
		return 0;
	}
	uint32_t f = s->o.fields;
	FILE *out = s->o.out;
	put_task(s, e);
	if (f & HWT_SCRIPT_FLAGS)
		fprintf(out, "  %-22s", flags_name(e));
	if (f & HWT_SCRIPT_IP) {
		fprintf(out, " %16" PRIx64, ip);
		put_symbol(s, e, ip);
	}
	if (f & HWT_SCRIPT_ADDR) {
		fprintf(out, " => %16" PRIx64, addr);
		put_symbol(s, e, addr);
	}
	if (f & HWT_SCRIPT_INSN)
		put_insn(s, e, ip);
	if (f & HWT_SCRIPT_SRCLINE)
		put_srcline(s, e, ip);
	fputc('\n', out);
	return ferror(out) ? hwt_error(HWT_ERR_IO, "writing -F lines failed: %s",
				       strerror(errno))
			   : 0;
}

struct hwt_elem_sink hwt_script_sink(struct hwt_script *s)
{
	struct hwt_elem_sink sink = {emit, s};
	return sink;
}
