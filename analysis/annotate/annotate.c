/* Exact per-instruction and per-line counts (include/hwtrace/annotate.h).
 * Counting keeps one entry per executed instruction ("PID:ADDR" -> its
 * count, taken count and ISA); writing finds each one's function,
 * disassembles every function that ran from the memory image (so the
 * instructions that never ran show too, with 0), and adds the counts up
 * by source line. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/util/array_grow.h"
#include "analysis/util/elem_pid.h"
#include "analysis/util/strmap.h"
#include "hwtrace/annotate.h"
#include "hwtrace/error.h"
#include "hwtrace/insn.h"
#include "hwtrace/text.h"

/* strmap values of an instruction. */
enum { I_COUNT, I_TAKEN, I_ISA };

#define ISAS (HWT_ISA_RV64 + 1)

struct func {
	char *name, *dso;
	int32_t pid;
	uint64_t start, size, total;
	enum hwt_isa isa;
};

struct line {
	char *file;
	uint32_t line;
	uint64_t count;
};

struct hwt_annotate {
	struct hwt_annotate_opts o;
	struct hwt_image *image;
	struct hwt_strmap insns;
	struct hwt_insn_decoder *dec[ISAS];
};

int hwt_annotate_new(const struct hwt_annotate_opts *opts,
		     struct hwt_annotate **out)
{
	if (!opts || opts->size < sizeof(*opts) || !opts->sym)
		return hwt_error(HWT_ERR_INVAL, "hwt_annotate_opts: size or sym "
				 "not set");
	struct hwt_annotate *a = calloc(1, sizeof(*a));
	if (!a)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	a->o = *opts;
	*out = a;
	return 0;
}

void hwt_annotate_free(struct hwt_annotate *a)
{
	if (!a)
		return;
	hwt_image_free(a->image);
	hwt_strmap_free(&a->insns);
	for (size_t i = 0; i < ISAS; i++)
		hwt_insn_decoder_free(a->dec[i]);
	free(a);
}

void hwt_annotate_set_image(struct hwt_annotate *a, struct hwt_image *image)
{
	hwt_image_free(a->image);
	a->image = image ? hwt_image_ref(image) : NULL;
}

static struct hwt_strmap_entry *insn_at(struct hwt_annotate *a, int32_t pid,
					uint64_t addr)
{
	char key[48];
	int len = snprintf(key, sizeof(key), "%" PRId32 ":%" PRIx64, pid, addr);
	return hwt_strmap_get(&a->insns, key, (size_t)len);
}

static int emit(void *arg, const struct hwt_elem *e)
{
	struct hwt_annotate *a = arg;
	struct hwt_strmap_entry *i;
	if (e->type == HWT_ELEM_RANGE && e->u.range.insns) {
		/* One instruction a range (disasm). A range the decoder could
		 * not split has no code in the image: nothing to disassemble
		 * or count by instruction, so it only marks its ISA. */
		if (!(i = insn_at(a, hwt_elem_pid(e), e->u.range.start)))
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		i->v[I_COUNT] += e->u.range.insns == 1 ? 1 : 0;
		i->v[I_ISA] = e->u.range.isa;
	} else if (e->type == HWT_ELEM_BRANCH &&
		   e->u.branch.kind == HWT_BRANCH_COND) {
		if (!(i = insn_at(a, hwt_elem_pid(e), e->u.branch.from)))
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		i->v[I_TAKEN]++;
	}
	return 0;
}

struct hwt_elem_sink hwt_annotate_sink(struct hwt_annotate *a)
{
	struct hwt_elem_sink sink = {emit, a};
	return sink;
}

/* The functions the executed instructions belong to, with their totals;
 * NULL when out of memory. */
static struct func *functions(struct hwt_annotate *a, size_t *count)
{
	struct func *f = NULL;
	size_t n = 0, cap = 0;
	struct hwt_strmap index = {0};
	for (size_t k = 0; k < a->insns.n; k++) {
		const struct hwt_strmap_entry *e = &a->insns.e[k];
		int32_t pid = (int32_t)strtol(e->key, NULL, 10);
		uint64_t addr = strtoull(strchr(e->key, ':') + 1, NULL, 16);
		struct hwt_symbol s;
		if (!e->v[I_COUNT] ||
		    hwt_symbolizer_lookup(a->o.sym, pid, addr, &s) != 1 ||
		    !s.name || (a->o.func && strcmp(a->o.func, s.name)))
			continue;
		char key[48];
		int len = snprintf(key, sizeof(key), "%" PRId32 ":%" PRIx64, pid,
				   s.start);
		struct hwt_strmap_entry *x = hwt_strmap_get(&index, key, (size_t)len);
		void *grown = f;
		if (!x || (!x->v[0] && !array_grow(&grown, &cap, sizeof(*f), n + 1, 16)))
			goto oom;
		f = grown;
		if (!x->v[0]) {
			f[n] = (struct func){strdup(s.name), s.dso ? strdup(s.dso) : NULL,
					     pid, s.start, s.size, 0,
					     (enum hwt_isa)e->v[I_ISA]};
			if (!f[n].name)
				goto oom;
			x->v[0] = ++n;
		}
		f[x->v[0] - 1].total += e->v[I_COUNT];
	}
	hwt_strmap_free(&index);
	*count = n;
	return f ? f : calloc(1, sizeof(*f));
oom:
	hwt_strmap_free(&index);
	for (size_t i = 0; i < n; i++) {
		free(f[i].name);
		free(f[i].dso);
	}
	free(f);
	return NULL;
}

static int by_total(const void *x, const void *y)
{
	const struct func *a = x, *b = y;
	if (a->total != b->total)
		return a->total < b->total ? 1 : -1;
	return strcmp(a->name, b->name);
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* A JSON string, quotes included. */
static void json_str(FILE *out, const char *s)
{
	hwt_json_fwrite(out, s, strlen(s));
}

static void term_str(FILE *out, const char *s)
{
	hwt_term_fwrite(out, s, strlen(s));
}

static int add_line(struct line **lines, size_t *n, size_t *cap,
		    const char *file, uint32_t line, uint64_t count)
{
	for (size_t i = 0; i < *n; i++)
		if ((*lines)[i].line == line && !strcmp((*lines)[i].file, file)) {
			(*lines)[i].count += count;
			return 0;
		}
	void *grown = *lines;
	if (!array_grow(&grown, cap, sizeof(**lines), *n + 1, 16))
		return -1;
	*lines = grown;
	char *copy = strdup(file);
	if (!copy)
		return -1;
	(*lines)[(*n)++] = (struct line){copy, line, count};
	return 0;
}

/* One function: its instructions, then its source lines. */
static int write_func(struct hwt_annotate *a, const struct func *f, FILE *out,
		      enum hwt_output_format format)
{
	bool jsonl = format == HWT_OUTPUT_JSONL;
	struct line *lines = NULL;
	size_t nlines = 0, lines_cap = 0;
	int err = 0;
	if (jsonl) {
		fputs("{\"type\":\"function\",\"sym\":", out);
		json_str(out, f->name);
		if (f->dso) {
			fputs(",\"dso\":", out);
			json_str(out, f->dso);
		}
		fprintf(out, ",\"addr\":\"0x%" PRIx64 "\",\"insns\":%" PRIu64 "}\n",
			f->start, f->total);
	} else {
		fputs("\n# ", out);
		term_str(out, f->name);
		if (f->dso) {
			fputs(" (", out);
			term_str(out, f->dso);
			fputc(')', out);
		}
		fprintf(out, ": %" PRIu64 " instructions executed\n"
			"# %10s %7s  %-24s %-16s %s\n", f->total, "count", "share",
			"source", "address", "instruction");
	}
	if (f->isa >= ISAS || (!a->dec[f->isa] &&
			       hwt_insn_decoder_new(f->isa, &a->dec[f->isa]) < 0))
		return hwt_error(HWT_ERR_NOSUP, "%s: no disassembler for its "
				 "instructions (%s)", f->name, hwt_isa_name(f->isa));
	/* Every instruction from the function's start to its end (a
	 * symbol without a size: to the last one that ran). */
	uint64_t end = f->start + f->size;
	for (uint64_t addr = f->start; addr < end || (!f->size && addr == f->start);) {
		uint8_t code[HWT_INSN_MAX_SIZE];
		struct hwt_insn insn;
		char text[160];
		int n = a->image ? hwt_image_read_at(a->image, f->pid, addr,
						     HWT_TIME_UNKNOWN, code,
						     sizeof(code))
				 : -1;
		/* As --disasm reads: the thread's code, else any process's
		 * (a replayed capture's mmaps may name the first pid). */
		if (n <= 0 && a->image && f->pid != HWT_PID_ANY)
			n = hwt_image_read_at(a->image, HWT_PID_ANY, addr,
					      HWT_TIME_UNKNOWN, code, sizeof(code));
		if (n <= 0 || hwt_insn_format(a->dec[f->isa], code, (size_t)n, addr,
					      &insn, text, sizeof(text)) < 0)
			break;
		struct hwt_strmap_entry *e = insn_at(a, f->pid, addr);
		if (!e) {
			err = hwt_error(HWT_ERR_NOMEM, "out of memory");
			break;
		}
		uint64_t count = e->v[I_COUNT], taken = e->v[I_TAKEN];
		bool cond = insn.iclass == HWT_INSN_COND;
		struct hwt_symbol s;
		char src[600] = "";
		if (hwt_symbolizer_lookup(a->o.sym, f->pid, addr, &s) == 1 && s.file) {
			const char *base = strrchr(s.file, '/');
			snprintf(src, sizeof(src), "%s:%" PRIu32,
				 jsonl ? s.file : base ? base + 1 : s.file, s.line);
			if (add_line(&lines, &nlines, &lines_cap, s.file, s.line,
				     count)) {
				err = hwt_error(HWT_ERR_NOMEM, "out of memory");
				break;
			}
		}
		if (jsonl) {
			fputs("{\"type\":\"insn\",\"sym\":", out);
			json_str(out, f->name);
			fprintf(out, ",\"addr\":\"0x%" PRIx64 "\",\"count\":%" PRIu64
				",\"share\":%.2f,\"text\":", addr, count,
				share(count, f->total));
			json_str(out, text);
			if (*src) {
				fputs(",\"srcline\":", out);
				json_str(out, src);
			}
			if (cond)
				fprintf(out, ",\"taken\":%" PRIu64 ",\"not_taken\":%" PRIu64,
					taken, count - taken);
			fputs("}\n", out);
		} else {
			fprintf(out, "  %10" PRIu64 " %6.2f%%  %-24s %16" PRIx64 ":  ",
				count, share(count, f->total), src, addr);
			term_str(out, text);
			if (cond)
				fprintf(out, "   [taken %" PRIu64 ", not taken %" PRIu64 "]",
					taken, count - taken);
			fputc('\n', out);
		}
		addr += insn.size;
		if (!f->size)
			break;
	}
	if (!err && !jsonl && nlines)
		fprintf(out, "# %10s %7s  source line\n", "count", "share");
	for (size_t i = 0; i < nlines; i++) {
		if (!err && jsonl) {
			fputs("{\"type\":\"line\",\"sym\":", out);
			json_str(out, f->name);
			char src[4200];
			snprintf(src, sizeof(src), "%s:%" PRIu32, lines[i].file,
				 lines[i].line);
			fputs(",\"srcline\":", out);
			json_str(out, src);
			fprintf(out, ",\"count\":%" PRIu64 ",\"share\":%.2f}\n",
				lines[i].count, share(lines[i].count, f->total));
		} else if (!err) {
			fprintf(out, "  %10" PRIu64 " %6.2f%%  ", lines[i].count,
				share(lines[i].count, f->total));
			term_str(out, lines[i].file);
			fprintf(out, ":%" PRIu32 "\n", lines[i].line);
		}
		free(lines[i].file);
	}
	free(lines);
	return err;
}

int hwt_annotate_write(struct hwt_annotate *a, FILE *out,
		       enum hwt_output_format format)
{
	size_t n;
	struct func *f = functions(a, &n);
	if (!f)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	int err = 0;
	if (!n && a->o.func)
		err = hwt_error(HWT_ERR_NOENT, "no instruction of a function named "
				"%s ran in this trace (`hwtrace report FILE --top 0` "
				"lists the functions that ran)", a->o.func);
	qsort(f, n, sizeof(*f), by_total);
	if (!err && format != HWT_OUTPUT_JSONL)
		fputs("# exact execution counts: every instruction that ran is in "
		      "the trace\n", out);
	for (size_t i = 0; i < n; i++) {
		if (!err)
			err = write_func(a, &f[i], out, format);
		free(f[i].name);
		free(f[i].dso);
	}
	free(f);
	if (!err && ferror(out))
		err = hwt_error(HWT_ERR_IO, "writing the annotation failed: %s",
				strerror(errno));
	return err;
}
