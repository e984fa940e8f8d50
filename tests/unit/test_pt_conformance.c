/* libipt's conformance suite (ptt): every test's raw PT stream and code,
 * decoded through hwt_decode_raw (the pevent tests: written with their .sb
 * perf sideband into a perf.data file and decoded through
 * hwt_decode_file, so that the memory image follows the sideband's
 * mappings and exec's in time), against the expectations pttc wrote:
 * -ptxed*.exp (instruction addresses, overflows and errors, in order) and
 * -ptdump*.exp (the packet listing). Expectations this decoder cannot be
 * held to are left out by the table below, each with its reason, and are
 * listed in the output; nothing else is skipped. */
#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdbool.h>

#include <sys/stat.h>
#include <unistd.h>

#include "backends/x86-pt/pt_decode.h"
#include "file_bytes.h"
#include "harness.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

#define PTT HWT_TESTDATA "/ptt"

/* Left out, by test name (and expectation kind), with the reason. */
struct left_out {
	const char *name;   /* exact ptt name, or a prefix ending in '*' */
	const char *kind;   /* "ptxed", "ptdump" or NULL for both */
	const char *reason;
	/* Not run at all; otherwise the expectation is run, counts as passed
	 * when it matches, and is left out for this reason when it does not. */
	bool not_run;
};

static const struct left_out left_out[] = {
	{"pevent*", "ptdump",
	 "ptdump --pevent prints the .sb sideband records among the packets; "
	 "hwtrace's packet listing (decode --packets) lists the trace's packets "
	 "only", true},
	{"truncated", "ptxed",
	 "needs a second image section at a file offset (ptxed --raw "
	 "truncated.bin:0x2:0x1002); --map FILE@ADDR maps whole files", true},
	{"ptet*", "ptxed",
	 "event tracing (CFE and EVD packets, mode.exec IF) needs libipt 2.1: "
	 "2.0.5 steps over the packets but cannot follow the flow they describe", false},
	{"mode-trig-trig", "ptxed",
	 "TRIG packets are libipt 2.2's: 2.0.5's query decoder steps over them "
	 "(unknown-packet callback) but reports 'unexpected packet context' for "
	 "the one after a mode.exec", false},
	{"ptxed-resync-*", "ptxed",
	 "expects ptxed --resync-on-error (resume right after the error, libipt "
	 "2.1); hwtrace resynchronises at the next PSB, as the issue asks", false},
	{"skl014-jmp-jmp", "ptxed",
	 "SKL014 over two jumps: libipt 2.0.5's block decoder, run with "
	 "end-on-jump so that every block is one address range, cannot place "
	 "the IP-less TIP.PGD on the second jump", false},
	{"tip-jmpabs", "ptxed",
	 "JMPABS (APX) is unknown to libipt 2.0.5 and Capstone 4", false},
	{"tip_pgd-jmpabs", "ptxed",
	 "JMPABS (APX) is unknown to libipt 2.0.5 and Capstone 4", false},
	{"skd007", "ptdump",
	 "libipt 2.0.5's packet decoder lists the SKD007-affected bytes as "
	 "'cyc 3e'; the expectation (newer libipt) lists the 'ovf' they are", false},
	{"ptdump-no-offset-raw", "ptdump",
	 "ptdump --raw prints each packet's raw bytes, a column hwtrace's "
	 "listing does not have", false},
};

/* Expectations for a cpu whose errata libipt 2.0.5 does not know are run;
 * those that do not match are left out with this reason, since the
 * workaround they expect is not applied. */
static bool cpu_unknown_to_libipt(const char *cpu)
{
	struct pt_cpu c;
	struct pt_errata e;
	return cpu[0] && !pt_cpu_parse(cpu, &c) && pt_cpu_errata(&e, &c) < 0;
}

static int nleft, npass[2], nfail[2], nleft_kind[2];

/* A growing list of lines. */
struct lines {
	char *buf;
	size_t len, cap;
	size_t count;
};

static void add_line(struct lines *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_line(struct lines *l, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(tmp))
		n = sizeof(tmp) - 1;
	if (l->len + (size_t)n + 2 > l->cap) {
		l->cap = (l->cap + (size_t)n + 2) * 2;
		l->buf = realloc(l->buf, l->cap);
		if (!l->buf)
			abort();
	}
	memcpy(l->buf + l->len, tmp, (size_t)n);
	l->len += (size_t)n;
	l->buf[l->len++] = '\n';
	l->buf[l->len] = 0;
	l->count++;
}

static char *read_text(const char *path)
{
	size_t len;

	return (char *)hwt_test_slurp(path, &len);
}

/* The `org` address and the `opt:TOOL` options of a .ptt source. */
static int read_ptt(const char *name, uint64_t *org, char *ptxed_opts,
		    char *ptdump_opts, size_t n)
{
	char path[512];
	snprintf(path, sizeof(path), PTT "/src/%s.ptt", name);
	char *text = read_text(path);
	if (!text) { /* grouped: src/pevent/pevent-fork.ptt */
		snprintf(path, sizeof(path), PTT "/src/%.*s/%s.ptt",
			 (int)strcspn(name, "-"), name, name);
		text = read_text(path);
	}
	if (!text)
		return -1;
	*org = 0;
	ptxed_opts[0] = ptdump_opts[0] = 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (!strncmp(line, "org ", 4))
			*org = strtoull(line + 4, NULL, 0);
		char *o = strstr(line, "opt:ptxed ");
		if (o)
			snprintf(ptxed_opts + strlen(ptxed_opts),
				 n - strlen(ptxed_opts), " %s", o + 10);
		o = strstr(line, "opt:ptdump ");
		if (o)
			snprintf(ptdump_opts + strlen(ptdump_opts),
				 n - strlen(ptdump_opts), " %s", o + 11);
	}
	free(text);
	return 0;
}

static const char *left_out_reason(const char *name, const char *kind,
				   bool not_run)
{
	for (size_t i = 0; i < sizeof(left_out) / sizeof(left_out[0]); i++) {
		const struct left_out *l = &left_out[i];
		size_t len = strlen(l->name);
		bool match = l->name[len - 1] == '*'
				     ? !strncmp(name, l->name, len - 1)
				     : !strcmp(name, l->name);
		if (match && (!l->kind || !strcmp(l->kind, kind)) &&
		    l->not_run == not_run)
			return l->reason;
	}
	return NULL;
}

/* ptxed's lines as the tokens compared: addresses, overflows, errors. */
static void ptxed_expected(const char *text, struct lines *out)
{
	const char *p = text;
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[512];
		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p += len + (eol ? 1 : 0);

		char *s = line;
		if (!strncmp(s, "? ", 2))
			s += 2; /* speculative: same address */
		if (strlen(s) == 16 && strspn(s, "0123456789abcdef") == 16) {
			add_line(out, "%llx", strtoull(s, NULL, 16));
		} else if (!strcmp(s, "[overflow]") ||
			   (s[0] == '[' && strstr(s, "  overflow]"))) {
			/* "[TIME  overflow]" with ptxed --event:time */
			add_line(out, "[overflow]");
		} else if (!strncmp(s, "insn:", 5)) {
			/* ptxed --stat --stat:insn: the instruction count */
			add_line(out, "[insns: %llu]", strtoull(s + 5, NULL, 10));
		} else if (s[0] == '[') {
			char *e = strstr(s, ": error: ");
			if (!e)
				continue;
			e += 9;
			e[strcspn(e, "]")] = 0;
			if (!strcmp(e, "no memory mapped at this address"))
				add_line(out, "[nomap]");
			else
				add_line(out, "[error: %s]", e);
		}
	}
}

struct collector {
	struct lines lines;
	struct lines warnings; /* hwt_decode_opts.warn's */
	bool quiet;          /* ptxed --quiet: no instruction lines */
	unsigned long long insns;
};

static int collect(void *arg, const struct hwt_elem *e)
{
	struct collector *c = arg;
	struct lines *out = &c->lines;
	switch (e->type) {
	case HWT_ELEM_RANGE: {
		c->insns += e->u.range.insns;
		if (c->quiet)
			break;
		if (e->u.range.insns != 1)
			add_line(out, "[range of %llu insns at %llx]",
				 (unsigned long long)e->u.range.insns,
				 (unsigned long long)e->u.range.start);
		else
			add_line(out, "%llx", (unsigned long long)e->u.range.start);
		break;
	}
	case HWT_ELEM_GAP:
		if (e->u.gap.reason == HWT_GAP_OVERFLOW)
			add_line(out, "[overflow]");
		else if (e->u.gap.reason == HWT_GAP_NO_IMAGE)
			add_line(out, "[nomap]");
		break;
	case HWT_ELEM_ERROR:
		add_line(out, "[error: %s]", e->u.error.message);
		break;
	default:
		break;
	}
	return 0;
}

static void collect_warning(void *arg, const char *message)
{
	add_line(&((struct collector *)arg)->warnings, "%s", message);
}

/* Whitespace-normalised packet lines. @time_cols: drop ptdump's time and
 * calibration columns (the --time/--tcal options) and their diagnostics;
 * @no_offset: drop the offset column. */
struct listing_opts {
	bool time_cols;  /* --time, --tcal: time columns */
	bool em_col;     /* --exec-mode: "em MODE" column */
	bool ip_col;     /* --lastip: "ip ADDR" column */
	bool no_offset;  /* --no-offset */
	bool no_cyc;     /* --no-cyc, --no-timing: cyc lines hidden */
	bool no_timing;  /* --no-timing: tsc, mtc, tma, cbr lines hidden */
	bool no_pad;     /* --no-pad */
};

static bool hidden(const char *name, const struct listing_opts *o)
{
	if (o->no_pad && !strcmp(name, "pad"))
		return true;
	if ((o->no_cyc || o->no_timing) && !strcmp(name, "cyc"))
		return true;
	return o->no_timing && (!strcmp(name, "tsc") || !strcmp(name, "mtc") ||
				!strcmp(name, "tma") || !strcmp(name, "cbr"));
}

/* Whitespace-normalised packet lines in the form the options gave the
 * expectation: @exp is the expectation itself (its columns are dropped),
 * otherwise our listing (its hidden lines and offsets are dropped). */
static void normalise(const char *text, const struct listing_opts *o, bool exp,
		      struct lines *out)
{
	const char *p = text;
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[512], norm[512] = "";
		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p += len + (eol ? 1 : 0);

		if (line[0] == '[' && !strstr(line, "error decoding packet"))
			continue; /* ptdump's time-tracking diagnostics */
		int tok = 0;
		bool drop_offset = !exp && o->no_offset && line[0] != '[';
		int name_tok = (exp && o->no_offset) ? 0 : 1;
		bool skip = false;
		for (char *t = strtok(line, " \t"); t; t = strtok(NULL, " \t"), tok++) {
			if (tok == name_tok && !exp && hidden(t, o)) {
				skip = true;
				break;
			}
			if (drop_offset && tok == 0)
				continue;
			if (exp && tok > name_tok &&
			    (((o->time_cols) && (!strcmp(t, "tsc") || !strcmp(t, "fcr"))) ||
			     (o->em_col && !strcmp(t, "em")) ||
			     (o->ip_col && tok > name_tok + 2 && !strcmp(t, "ip"))))
				break;
			snprintf(norm + strlen(norm), sizeof(norm) - strlen(norm),
				 "%s%s", norm[0] ? " " : "", t);
		}
		if (norm[0] && !skip)
			add_line(out, "%s", norm);
	}
}

/* What libipt 2.0.5's own instruction-flow decoder (pt_insn, as ptxed
 * runs it) makes of the test, with the configuration hwtrace uses. When
 * hwtrace agrees with it but not with the expectation, the expectation
 * needs a newer libipt. */
static int libipt_reference(const char *pt, const char *bin, uint64_t org,
			    const char *cpu, const char *raw_opts,
			    struct lines *out)
{
	struct pt_config config;
	struct pt_time_conv tc;
	struct hwt_decode_params params = {
		.size = sizeof(params),
		.cpu_model = cpu[0] ? cpu : NULL,
		.raw_options = raw_opts[0] ? raw_opts : NULL,
	};
	if (pt_config_setup(&config, &tc, &params) < 0)
		return -1;
	FILE *f = fopen(pt, "rb");
	if (!f)
		return -1;
	static uint8_t buf[1 << 16];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	config.begin = buf;
	config.end = buf + n;
	struct pt_insn_decoder *d = pt_insn_alloc_decoder(&config);
	struct stat st;
	if (!d || stat(bin, &st))
		return -1;
	pt_image_add_file(pt_insn_get_image(d), bin, 0, (uint64_t)st.st_size,
			  NULL, org);
	for (;;) {
		int status = pt_insn_sync_forward(d);
		if (status < 0)
			break;
		for (;;) {
			while (status >= 0 && (status & pts_event_pending)) {
				struct pt_event ev;
				status = pt_insn_event(d, &ev, sizeof(ev));
				if (status >= 0 && ev.type == ptev_overflow)
					add_line(out, "[overflow]");
			}
			if (status < 0 || (status & pts_eos))
				break;
			struct pt_insn insn;
			status = pt_insn_next(d, &insn, sizeof(insn));
			if (status < 0)
				break;
			add_line(out, "%llx", (unsigned long long)insn.ip);
		}
		if (status >= 0 || status == -pte_eos)
			continue;
		if (pt_errcode(status) == pte_nomap)
			add_line(out, "[nomap]");
		else
			add_line(out, "[error: %s]", pt_errstr(pt_errcode(status)));
	}
	pt_insn_free_decoder(d);
	return 0;
}

static void report_diff(const char *what, const struct lines *want,
			const struct lines *got)
{
	const char *a = want->buf ? want->buf : "", *b = got->buf ? got->buf : "";
	size_t line = 1;
	while (*a && *a == *b) {
		if (*a == '\n')
			line++;
		a++;
		b++;
	}
	while (a > (want->buf ? want->buf : a) && a[-1] != '\n' && b[-1] != '\n') {
		a--;
		b--;
	}
	fprintf(stderr, "  FAIL %s: line %zu: want '%.*s', got '%.*s' (%zu vs %zu lines)\n",
		what, line, (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b,
		want->count, got->count);
}

/* ptxed's decoder options as intel_pt raw options ("key=value,..."). */
static void raw_options_of(const char *xo, char *out, size_t n)
{
	static const struct {
		const char *opt, *key;
	} map[] = {
		{"--filter:addr0_cfg", "addr0_cfg"}, {"--filter:addr0_a", "addr0_a"},
		{"--filter:addr0_b", "addr0_b"}, {"--filter:addr1_cfg", "addr1_cfg"},
		{"--filter:addr1_a", "addr1_a"}, {"--filter:addr1_b", "addr1_b"},
		{"--filter:addr2_cfg", "addr2_cfg"}, {"--filter:addr2_a", "addr2_a"},
		{"--filter:addr2_b", "addr2_b"}, {"--filter:addr3_cfg", "addr3_cfg"},
		{"--filter:addr3_a", "addr3_a"}, {"--filter:addr3_b", "addr3_b"},
		{"--mtc-freq", "mtc_freq"}, {"--nom-freq", "nom_freq"},
		{"--cpuid-0x15.eax", "cpuid_0x15_eax"},
		{"--cpuid-0x15.ebx", "cpuid_0x15_ebx"},
	};
	out[0] = 0;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		char pat[64], val[64];
		snprintf(pat, sizeof(pat), "%s ", map[i].opt);
		const char *at = strstr(xo, pat);
		if (!at || sscanf(at + strlen(pat), "%63s", val) != 1)
			continue;
		snprintf(out + strlen(out), n - strlen(out), "%s%s=%s",
			 out[0] ? "," : "", map[i].key, val);
	}
}

static void cpu_of(const char *suffix, char *cpu, size_t n)
{
	unsigned f, m;
	cpu[0] = 0;
	if (sscanf(suffix, "-cpu_%u_%u", &f, &m) == 2)
		snprintf(cpu, n, "%u/%u", f, m);
}

/* The pevent tests: ptxed reads perf sideband records (libipt's pevent
 * format: kernel records with the sample_id fields of the sample type the
 * file's name gives, the primary file of the traced CPU, secondary ones of
 * others) next to the trace. They become a perf.data file: the records of
 * each .sb file with their sample ids rewritten to TID, TIME and CPU
 * (primary CPU 0, secondary CPU 1; the thread from the .sb's TID, else from
 * the record's own pid/tid), the trace as CPU 0's AUXTRACE buffer, and an
 * intel_pt AUXTRACE_INFO whose time conversion is the .sb's (perf time =
 * TSC: time-zero 0, time-shift 0, time-mult 1). ptxed also maps the test's
 * .bin at its org for every process (`--raw BIN:ORG`, as libipt's
 * script/test.bash runs it): here an MMAP of pid -1 at time 0, as perf
 * records code shared by all processes. */
#define SB_SID_BITS (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		     PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

/* The pid and tid a record's body names (MMAP, COMM, ITRACE_START, MMAP2:
 * pid, tid; FORK, EXIT: pid, ppid, tid, ptid); false for others. */
static bool body_task(const uint8_t *rec, uint32_t *pid, uint32_t *tid)
{
	const struct perf_event_header *h = (const void *)rec;
	uint32_t f[4];
	if (h->size < sizeof(*h) + 16)
		return false;
	memcpy(f, rec + sizeof(*h), 16);
	switch (h->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_COMM:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_ITRACE_START:
		*pid = f[0];
		*tid = f[1];
		return true;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		*pid = f[0];
		*tid = f[2];
		return true;
	default:
		return false;
	}
}

/* Copies the records of one .sb file into @w with CPU @cpu. */
static int sb_copy(struct hwt_pd_writer *w, const char *path,
		   uint64_t sample_type, uint32_t cpu)
{
	size_t len;
	uint8_t *data = hwt_test_slurp(path, &len);
	size_t trailer = 8u * (size_t)__builtin_popcountll(sample_type & SB_SID_BITS);
	int err = data ? 0 : -1;
	for (size_t pos = 0; !err && pos + sizeof(struct perf_event_header) <= len;) {
		const struct perf_event_header *h = (const void *)(data + pos);
		if (h->size < sizeof(*h) + trailer || pos + h->size > len) {
			err = -1;
			break;
		}
		struct hwt_pd_sample_id sid;
		memset(&sid, 0, sizeof(sid));
		if (hwt_pd_parse_sample_id(h, sample_type, true, &sid) < 0) {
			err = -1;
			break;
		}
		uint8_t out[4096];
		size_t body = h->size - trailer;
		uint32_t pid = UINT32_MAX, tid = UINT32_MAX;
		if (sid.present & PERF_SAMPLE_TID) {
			pid = sid.pid;
			tid = sid.tid;
		} else {
			body_task(data + pos, &pid, &tid);
		}
		uint32_t t[2] = {pid, tid}, c[2] = {cpu, 0};
		if (body + 24 > sizeof(out)) {
			err = -1;
			break;
		}
		memcpy(out, h, body);
		memcpy(out + body, t, 8);
		memcpy(out + body + 8, &sid.time, 8);
		memcpy(out + body + 16, c, 8);
		((struct perf_event_header *)out)->size = (uint16_t)(body + 24);
		err = hwt_pd_writer_record(w, out);
		pos += h->size;
	}
	free(data);
	return err;
}

/* The .sb files of test @name, primary first: their paths and sample
 * types. Returns how many. */
static int sb_files(const char *name, char paths[][512], uint64_t *types, int max)
{
	DIR *dir = opendir(PTT "/expected");
	int n = 0;
	struct dirent *de;
	char prefix[300];
	snprintf(prefix, sizeof(prefix), "%s-pevent-", name);
	while (dir && (de = readdir(dir))) {
		size_t len = strlen(de->d_name);
		if (strncmp(de->d_name, prefix, strlen(prefix)) || len < 4 ||
		    strcmp(de->d_name + len - 3, ".sb") || n == max)
			continue;
		const char *st = strstr(de->d_name, "sample-type=");
		bool primary = !strncmp(de->d_name + strlen(prefix), "primary", 7);
		int at = primary ? 0 : n;
		if (primary && n) { /* keep the primary first */
			memcpy(paths[n], paths[0], sizeof(paths[0]));
			types[n] = types[0];
		}
		snprintf(paths[at], sizeof(paths[0]), PTT "/expected/%s", de->d_name);
		types[at] = st ? strtoull(st + 12, NULL, 16) : 0;
		n++;
	}
	if (dir)
		closedir(dir);
	return n;
}

/* The MMAP record of @bin at @org for every process, at time 0. */
static int raw_mmap(struct hwt_pd_writer *w, const char *name, uint64_t org)
{
	char bin[512], file[300];
	struct stat st;
	snprintf(bin, sizeof(bin), PTT "/expected/%s.bin", name);
	snprintf(file, sizeof(file), "%s.bin", name);
	if (stat(bin, &st))
		return -1;
	uint8_t rec[512];
	memset(rec, 0, sizeof(rec));
	size_t name_len = (strlen(file) + 8) & ~(size_t)7;
	struct perf_event_header *h = (void *)rec;
	h->type = PERF_RECORD_MMAP;
	h->size = (uint16_t)(sizeof(*h) + 32 + name_len + 24);
	uint32_t ids[2] = {UINT32_MAX, UINT32_MAX};
	uint64_t m[3] = {org, (uint64_t)st.st_size, 0};
	memcpy(rec + 8, ids, 8);
	memcpy(rec + 16, m, 24);
	memcpy(rec + 40, file, strlen(file));
	memcpy(rec + 40 + name_len, ids, 8); /* sample id: tid, time 0, cpu 0 */
	return hwt_pd_writer_record(w, rec);
}

/* Writes test @name's trace and sideband into perf.data @out. */
static int pevent_capture(const char *name, uint64_t org, const char *out)
{
	char paths[4][512];
	uint64_t types[4];
	int nsb = sb_files(name, paths, types, 4);
	if (nsb < 1)
		return -1;
	struct hwt_pd_writer *w;
	if (hwt_pd_writer_open(out, &w) < 0)
		return -1;
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = 8; /* a dynamic PMU's type, as intel_pt's */
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
	attr.sample_id_all = 1;
	uint64_t id = 1, info[PT_INFO_WORDS_MIN];
	memset(info, 0, sizeof(info));
	info[PT_INFO_PMU_TYPE] = 8;
	info[PT_INFO_TIME_MULT] = 1;
	info[PT_INFO_CAP_USER_TIME_ZERO] = 1;
	int err = hwt_pd_writer_add_attr(w, &attr, &id, 1, "intel_pt//");
	if (!err)
		err = hwt_pd_writer_auxtrace_info(w, HWT_AUXTRACE_INTEL_PT, info,
						  PT_INFO_WORDS_MIN);
	if (!err)
		err = raw_mmap(w, name, org);
	for (int i = 0; i < nsb && !err; i++)
		err = sb_copy(w, paths[i], types[i], i ? 1 : 0);
	char pt[512];
	snprintf(pt, sizeof(pt), PTT "/expected/%s.pt", name);
	size_t len = 0;
	uint8_t *trace = hwt_test_slurp(pt, &len);
	if (!err && trace) {
		struct hwt_pd_auxtrace aux = {.size = len, .cpu = 0, .tid = UINT32_MAX};
		err = hwt_pd_writer_auxtrace(w, &aux, trace);
	}
	free(trace);
	int cerr = hwt_pd_writer_close(w);
	return err || !trace ? -1 : cerr;
}

static void run_ptxed(const char *name, const char *suffix, const char *exp_path)
{
	char what[512], pt[512], bin[512], cpu[32], xo[512], dopts[512];
	uint64_t org;

	snprintf(what, sizeof(what), "%s-ptxed%s", name, suffix);
	const char *why = left_out_reason(name, "ptxed", true);
	if (why) {
		fprintf(stderr, "  left out %s: %s\n", what, why);
		nleft++;
		nleft_kind[0]++;
		return;
	}
	if (read_ptt(name, &org, xo, dopts, sizeof(xo))) {
		fprintf(stderr, "  FAIL %s: no source %s.ptt\n", what, name);
		nfail[0]++;
		return;
	}
	snprintf(pt, sizeof(pt), PTT "/expected/%s.pt", name);
	snprintf(bin, sizeof(bin), PTT "/expected/%s.bin", name);
	cpu_of(suffix, cpu, sizeof(cpu));
	/* bad_cpu's expectation names its cpu in the options. */
	char *c = strstr(xo, "--cpu ");
	if (c)
		sscanf(c + 6, "%31s", cpu);

	char *text = read_text(exp_path);
	struct lines want = {0};
	struct collector col = {.quiet = strstr(xo, "--quiet") != NULL};
	ptxed_expected(text ? text : "", &want);

	struct hwt_map_spec map = {bin, org};
	struct hwt_decode_opts opts = {
		.size = sizeof(opts),
		.maps = &map,
		.nmaps = 1,
		.cpu_model = cpu[0] ? cpu : NULL,
		.disasm = true,
	};
	struct hwt_elem_sink sink = {collect, &col};
	char raw_opts[512];
	raw_options_of(xo, raw_opts, sizeof(raw_opts));
	int err;
	if (!strncmp(name, "pevent-", 7)) {
		/* The image from the sideband; files are found under symfs. */
		char dir[] = "/tmp/hwt-ptt-XXXXXX", data[64];
		err = mkdtemp(dir) ? 0 : HWT_ERR_IO;
		snprintf(data, sizeof(data), "%s/perf.data", dir);
		if (!err && pevent_capture(name, org, data) < 0)
			err = hwt_error(HWT_ERR_IO, "cannot write %s", data);
		opts.maps = NULL;
		opts.nmaps = 0;
		opts.lookup.size = sizeof(opts.lookup);
		opts.lookup.symfs = PTT "/expected";
		opts.warn = collect_warning;
		opts.warn_arg = &col;
		if (!err)
			err = hwt_decode_file(data, &opts, &sink);
		unlink(data);
		rmdir(dir);
	} else {
		err = hwt_decode_raw("intel_pt", raw_opts[0] ? raw_opts : NULL, pt,
				     &opts, &sink);
	}
	if (want.buf && strstr(want.buf, "[insns: "))
		add_line(&col.lines, "[insns: %llu]", col.insns);
	struct lines got = col.lines;
	if (err < 0) {
		/* ptxed reports a configuration it refuses as an error line. */
		const char *cfg = text ? strstr(text, "config error: ") : NULL;
		if (cfg && err == HWT_ERR_CONFIG &&
		    strstr(hwt_errmsg(), "unknown cpu")) {
			npass[0]++;
		} else {
			fprintf(stderr, "  FAIL %s: decode failed: %s\n", what,
				hwt_errmsg());
			nfail[0]++;
		}
	} else if (col.warnings.buf && strstr(col.warnings.buf, "without the time")) {
		/* The sideband's times must have placed every read. */
		fprintf(stderr, "  FAIL %s: %s", what, col.warnings.buf);
		nfail[0]++;
	} else if (want.count == 0 && got.count == 0) {
		/* The expectation is that nothing executes. */
		npass[0]++;
	} else if (!want.buf || !got.buf || strcmp(want.buf, got.buf)) {
		struct lines ref = {0};
		why = left_out_reason(name, "ptxed", false);
		if (why) {
			fprintf(stderr, "  left out %s: %s\n", what, why);
			nleft++;
			nleft_kind[0]++;
		} else if (cpu_unknown_to_libipt(cpu)) {
			fprintf(stderr, "  left out %s: libipt 2.0.5 has no errata "
				"for cpu %s, so the workaround the expectation relies on "
				"is not applied\n", what, cpu);
			nleft++;
			nleft_kind[0]++;
		} else if (!col.quiet &&
		    !libipt_reference(pt, bin, org, cpu, raw_opts, &ref) &&
		    !strcmp(ref.buf ? ref.buf : "", got.buf ? got.buf : "")) {
			fprintf(stderr, "  left out %s: needs a libipt newer than "
				"2.0.5 (2.0.5's own instruction decoder gives what "
				"hwtrace gives, not the expectation)\n", what);
			nleft++;
			nleft_kind[0]++;
		} else {
			report_diff(what, &want, &got);
			if (getenv("HWT_PTT_VERBOSE"))
				fprintf(stderr, "want:\n%sgot:\n%slibipt 2.0.5:\n%s"
					"warnings:\n%s",
					want.buf ? want.buf : "", got.buf ? got.buf : "",
					ref.buf ? ref.buf : "",
					col.warnings.buf ? col.warnings.buf : "");
			nfail[0]++;
		}
		free(ref.buf);
	} else {
		npass[0]++;
	}
	free(text);
	free(want.buf);
	free(got.buf);
	free(col.warnings.buf);
}

static void run_ptdump(const char *name, const char *suffix, const char *exp_path)
{
	char what[512], pt[512], cpu[32], xo[512], dopts[512];
	uint64_t org;

	snprintf(what, sizeof(what), "%s-ptdump%s", name, suffix);
	const char *why = left_out_reason(name, "ptdump", true);
	if (why) {
		fprintf(stderr, "  left out %s: %s\n", what, why);
		nleft++;
		nleft_kind[1]++;
		return;
	}
	if (read_ptt(name, &org, xo, dopts, sizeof(xo))) {
		fprintf(stderr, "  FAIL %s: no source %s.ptt\n", what, name);
		nfail[1]++;
		return;
	}
	snprintf(pt, sizeof(pt), PTT "/expected/%s.pt", name);
	cpu_of(suffix, cpu, sizeof(cpu));
	struct listing_opts lo = {
		.time_cols = strstr(dopts, "--time") || strstr(dopts, "--tcal"),
		.em_col = strstr(dopts, "--exec-mode") != NULL,
		.ip_col = strstr(dopts, "--lastip") != NULL,
		.no_offset = strstr(dopts, "--no-offset") != NULL,
		.no_cyc = strstr(dopts, "--no-cyc") != NULL,
		.no_timing = strstr(dopts, "--no-timing") != NULL,
		.no_pad = strstr(dopts, "--no-pad") != NULL,
	};
	char *text = read_text(exp_path);
	/* pttc writes only the packets the source labels: unlabelled pads
	 * are not in the expectation. */
	if (text && !strstr(text, " pad"))
		lo.no_pad = true;

	char *listing = NULL;
	size_t listing_size = 0;
	FILE *mem = open_memstream(&listing, &listing_size);
	struct hwt_decode_opts opts = {
		.size = sizeof(opts),
		.cpu_model = cpu[0] ? cpu : NULL,
		.packets = mem,
	};
	int err = hwt_decode_raw("intel_pt", NULL, pt, &opts, NULL);
	fclose(mem);

	struct lines want = {0}, got = {0};
	normalise(text ? text : "", &lo, true, &want);
	normalise(listing ? listing : "", &lo, false, &got);
	if (err < 0) {
		fprintf(stderr, "  FAIL %s: listing failed: %s\n", what, hwt_errmsg());
		nfail[1]++;
	} else if (!want.count || !got.buf || strcmp(want.buf, got.buf)) {
		why = left_out_reason(name, "ptdump", false);
		if (why) {
			fprintf(stderr, "  left out %s: %s\n", what, why);
			nleft++;
			nleft_kind[1]++;
		} else if (cpu_unknown_to_libipt(cpu)) {
			fprintf(stderr, "  left out %s: libipt 2.0.5 has no errata "
				"for cpu %s, so the workaround the expectation relies on "
				"is not applied\n", what, cpu);
			nleft++;
			nleft_kind[1]++;
		} else {
			report_diff(what, &want, &got);
			nfail[1]++;
		}
	} else {
		npass[1]++;
	}
	free(listing);
	free(text);
	free(want.buf);
	free(got.buf);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_ptt_suite(void)
{
	DIR *dir = opendir(PTT "/expected");
	CHECK(dir != NULL);
	if (!dir)
		return;
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(dir))) {
		size_t len = strlen(de->d_name);
		if (len < 5 || strcmp(de->d_name + len - 4, ".exp"))
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		names[n++] = strdup(de->d_name);
	}
	closedir(dir);
	qsort(names, n, sizeof(*names), cmp_names);

	for (size_t i = 0; i < n; i++) {
		char base[256], path[512];
		const char *kinds[] = {"-ptxed", "-ptdump"};
		snprintf(path, sizeof(path), PTT "/expected/%s", names[i]);
		for (int k = 0; k < 2; k++) {
			char *at = strstr(names[i], kinds[k]);
			if (!at)
				continue;
			snprintf(base, sizeof(base), "%.*s", (int)(at - names[i]),
				 names[i]);
			char suffix[64];
			snprintf(suffix, sizeof(suffix), "%s",
				 at + strlen(kinds[k]));
			suffix[strlen(suffix) - 4] = 0; /* ".exp" */
			if (k == 0)
				run_ptxed(base, suffix, path);
			else
				run_ptdump(base, suffix, path);
			break;
		}
		free(names[i]);
	}
	free(names);

	fprintf(stderr,
		"ptt ptxed: %d passed, %d failed, %d left out (reasons listed)\n"
		"ptt ptdump: %d passed, %d failed, %d left out (reasons listed)\n",
		npass[0], nfail[0], nleft_kind[0], npass[1], nfail[1],
		nleft_kind[1]);
	fprintf(stderr, "ptt total: %d passed, %d failed, %d left out (reasons listed)\n",
		npass[0] + npass[1], nfail[0] + nfail[1], nleft);
	CHECK_INT(nfail[0], 0);
	CHECK_INT(nfail[1], 0);
	/* The suite has 440 ptxed and 491 ptdump expectations. */
	CHECK_INT(npass[0] + nfail[0] + nleft_kind[0], 440);
	CHECK_INT(npass[1] + nfail[1] + nleft_kind[1], 491);
}

int main(void)
{
	RUN(test_ptt_suite);
	return hwt_test_summary();
}
