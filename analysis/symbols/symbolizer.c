/* Address -> binary, function, offset, source line: the per-binary tables
 * are built on first use and kept, and source lines go through a small
 * direct-mapped cache, because a trace visits the same few addresses
 * again and again. */
#include <elfutils/libdw.h>
#include <inttypes.h>
#include <stdarg.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/symbols/symbols_internal.h"
#include "hwtrace/error.h"
#include "hwtrace/infile.h"

#define LINE_CACHE 4096 /* entries, a power of two */
#define MAX_FRAMES 32

struct line_entry {
	const struct dso *dso;
	uint64_t vaddr;
	size_t nframes;
	struct hwt_sym_frame frames[4]; /* deeper chains are not cached */
};

struct perf_map {
	int32_t pid;
	struct sym_table syms;
	bool missing;
};

struct hwt_symbolizer {
	struct hwt_sym_opts opts;
	struct str_pool pool;
	struct hwt_sym_ctx ctx;
	struct hwt_image *image;
	struct dso **dsos;
	size_t ndsos;
	/* Last dso hit, for runs of addresses in one binary. */
	struct dso *last;
	struct line_entry *lines;
	struct hwt_sym_frame frames[MAX_FRAMES];
	/* The kernel: kallsyms, read on first kernel address. */
	struct sym_table ksyms;
	bool ksyms_loaded;
	struct dso *vmlinux;
	struct perf_map *maps;
	size_t nmaps;
	/* The executable of the image, for `(binary)` marks. */
	const char *main_path;
	const char *main_found_at;
	uint16_t main_machine; /* e_machine of the executable, once read */
	void *out_cache;
	size_t out_cache_size;
	const char *inlined[SYM_MAX_INLINED]; /* hwt_symbolizer_lines' answer */
};

const char **sym_inlined_names(struct hwt_symbolizer *s)
{
	return s->inlined;
}

static void warn(struct hwt_symbolizer *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct hwt_symbolizer *s, const char *fmt, ...)
{
	if (!s->opts.warn)
		return;
	char msg[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s->opts.warn(s->opts.warn_arg, msg);
}

int hwt_symbolizer_new(const struct hwt_sym_opts *opts,
		       struct hwt_symbolizer **out)
{
	*out = NULL;
	if (opts && opts->size < offsetof(struct hwt_sym_opts, kallsyms))
		return hwt_error(HWT_ERR_INVAL,
				 "struct hwt_sym_opts: size %zu is too small", opts->size);
	struct hwt_symbolizer *s = calloc(1, sizeof(*s));
	if (!s)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the symbolizer");
	if (opts)
		memcpy(&s->opts, opts, opts->size < sizeof(s->opts) ? opts->size
								  : sizeof(s->opts));
	s->opts.size = sizeof(s->opts);
	s->ctx.opts = &s->opts;
	s->ctx.pool = &s->pool;
	/* Copied, not borrowed: hwt_symbolizer_setup builds it from a
	 * --kcore directory. */
	if (s->opts.kallsyms &&
	    !(s->opts.kallsyms = str_pool_intern(&s->pool, s->opts.kallsyms))) {
		free(s);
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the symbolizer");
	}
	if (s->opts.srcline) {
		s->lines = calloc(LINE_CACHE, sizeof(*s->lines));
		if (!s->lines) {
			str_pool_free(&s->pool);
			free(s);
			return hwt_error(HWT_ERR_NOMEM, "out of memory for the symbolizer");
		}
	}
	elf_version(EV_CURRENT);
	*out = s;
	return 0;
}

static void dso_free(struct dso *d)
{
	if (!d)
		return;
	dso_free_debuginfo(d);
	sym_table_free(&d->syms);
	for (size_t i = 0; i < d->nstrtabs; i++)
		free(d->strtabs[i]);
	free(d->strtabs);
	free(d->segs);
	free(d->path);
	free(d->found_at);
	free(d);
}

void hwt_symbolizer_free(struct hwt_symbolizer *s)
{
	if (!s)
		return;
	hwt_image_free(s->image);
	for (size_t i = 0; i < s->ndsos; i++)
		dso_free(s->dsos[i]);
	free(s->dsos);
	dso_free(s->vmlinux);
	for (size_t i = 0; i < s->nmaps; i++)
		sym_table_free(&s->maps[i].syms);
	free(s->maps);
	sym_table_free(&s->ksyms);
	free(s->lines);
	free(s->out_cache);
	str_pool_free(&s->pool);
	free(s);
}

static bool is_file_path(const char *p)
{
	return p && p[0] == '/' && strncmp(p, "//anon", 6) &&
	       strncmp(p, "/memfd:", 7) && strncmp(p, "/dev/", 5);
}

void hwt_symbolizer_set_image(struct hwt_symbolizer *s, struct hwt_image *image)
{
	/* Held: elements merged by time are named after the decode that
	 * built the image has returned. */
	struct hwt_image *old = s->image;
	s->image = hwt_image_ref(image);
	hwt_image_free(old);
	s->main_path = NULL;
	s->main_found_at = NULL;
	s->main_machine = 0;
	/* The same address may hold other code now; a fresh block is
	 * zeroed by the kernel page by page as it is used. */
	free(s->out_cache);
	s->out_cache = NULL;
	s->out_cache_size = 0;
	/* The executable: the first file mapped that is not a shared
	 * library, as perf's first MMAP of a process is its exec. */
	for (size_t i = 0; image && i < hwt_image_count(image); i++) {
		const struct hwt_image_section *sec = hwt_image_section(image, i);
		if (is_file_path(sec->path) && !strstr(sec->path, ".so")) {
			s->main_path = str_pool_intern(&s->pool, sec->path);
			s->main_found_at = str_pool_intern(&s->pool, sec->found_at);
			break;
		}
	}
}

static struct dso *dso_get(struct hwt_symbolizer *s, const char *path,
			   const char *found_at);

/* Whether the decode refused the file it found for @path (another build
 * id or machine): it has said so already. */
static bool path_refused(const struct hwt_symbolizer *s, const char *path)
{
	for (size_t i = 0; s->image && i < hwt_image_count(s->image); i++) {
		const struct hwt_image_section *sec = hwt_image_section(s->image, i);
		if (sec->missing_detail && !strcmp(sec->path, path))
			return true;
	}
	return false;
}

/* Loads the tables of one binary; problems are reported once, here. */
static void dso_load(struct hwt_symbolizer *s, struct dso *d)
{
	char why[1024] = "";
	d->loaded = true;
	if (!d->found_at && path_refused(s, d->path))
		return; /* the decode said why, naming the file */
	if (!d->found_at) {
		warn(s, "%s: not found (or shorter than mapped)%s%s: no symbols", d->path,
		     s->opts.symfs ? " here nor under --symfs " : "",
		     s->opts.symfs ? s->opts.symfs : "");
		return;
	}
	int err = dso_read_elf(&s->ctx, d, why, sizeof(why));
	if (err < 0) {
		warn(s, "%s: no symbols: %s", d->path, why);
		return;
	}
	if (s->main_path && !strcmp(d->path, s->main_path)) {
		s->main_machine = d->machine;
	} else if (s->main_path && !s->main_machine && s->main_found_at) {
		struct dso *m = dso_get(s, s->main_path, s->main_found_at);
		if (m)
			s->main_machine = m->machine;
	}
	if (s->main_machine && d->machine != s->main_machine) {
		/* e.g. a --symfs tree of another board: its names would be
		 * those of unrelated code. */
		warn(s, "%s: %s is an ELF file for machine %u, the traced program "
		     "(%s) for machine %u: its symbols are not used", d->path,
		     d->found_at, d->machine, s->main_path, s->main_machine);
		d->syms.n = 0;
		return;
	}
	dso_find_debuginfo(&s->ctx, d);
	sym_table_finish(&d->syms);
	if (!d->symbols_from && !d->debug_file)
		warn(s, "%s: no symbols and no debug info (tried %s)", d->path,
		     d->tried);
	else if (s->opts.srcline && !d->debug_file)
		warn(s, "%s: no debug info, so no source lines (tried %s)",
		     d->path, d->tried);
}

static struct dso *dso_get(struct hwt_symbolizer *s, const char *path,
			   const char *found_at)
{
	if (s->last && !strcmp(s->last->path, path))
		return s->last;
	for (size_t i = 0; i < s->ndsos; i++)
		if (!strcmp(s->dsos[i]->path, path))
			return s->last = s->dsos[i];
	struct dso *d = calloc(1, sizeof(*d));
	void *n = realloc(s->dsos, (s->ndsos + 1) * sizeof(*s->dsos));
	if (!d || !n) {
		free(d);
		return NULL;
	}
	s->dsos = n;
	d->path = strdup(path);
	d->found_at = found_at ? strdup(found_at) : NULL;
	if (!d->path || (found_at && !d->found_at)) {
		dso_free(d);
		return NULL;
	}
	s->dsos[s->ndsos++] = d;
	dso_load(s, d);
	return s->last = d;
}

/* The ELF address of file offset @off, through the load segments. */
static bool file_to_vaddr(const struct dso *d, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < d->nsegs; i++) {
		const struct seg *g = &d->segs[i];
		if (off - g->offset < g->filesz) {
			*vaddr = off - g->offset + g->vaddr;
			return true;
		}
	}
	return false;
}

static size_t srcline_cached(struct hwt_symbolizer *s, struct dso *d,
			     uint64_t vaddr)
{
	struct line_entry *le = &s->lines[(vaddr ^ (vaddr >> 12) ^
					   (uintptr_t)d >> 4) & (LINE_CACHE - 1)];
	if (le->dso == d && le->vaddr == vaddr && le->nframes <= 4) {
		memcpy(s->frames, le->frames, le->nframes * sizeof(*s->frames));
		return le->nframes;
	}
	size_t n = dso_srcline(&s->ctx, d, vaddr, s->frames, MAX_FRAMES);
	le->dso = d;
	le->vaddr = vaddr;
	le->nframes = n <= 4 ? n : 5;
	if (n <= 4)
		memcpy(le->frames, s->frames, n * sizeof(*s->frames));
	return n;
}

static void fill_lines(struct hwt_symbolizer *s, struct dso *d, uint64_t vaddr,
		       struct hwt_symbol *out)
{
	if (!s->opts.srcline || !d->dwarf)
		return;
	size_t n = srcline_cached(s, d, vaddr);
	if (!n)
		return;
	out->file = s->frames[0].file;
	out->line = s->frames[0].line;
	if (n > 1) {
		out->inlines = s->frames;
		out->ninlines = n;
	}
}

static void read_kallsyms(struct hwt_symbolizer *s)
{
	s->ksyms_loaded = true;
	if (s->opts.vmlinux) {
		s->vmlinux = calloc(1, sizeof(*s->vmlinux));
		if (s->vmlinux) {
			s->vmlinux->path = strdup("[kernel.kallsyms]");
			s->vmlinux->found_at = strdup(s->opts.vmlinux);
			if (s->vmlinux->path && s->vmlinux->found_at)
				dso_load(s, s->vmlinux);
		}
		return;
	}
	if (!s->opts.kallsyms && s->opts.no_host_kallsyms)
		return;
	const char *path = s->opts.kallsyms ? s->opts.kallsyms : "/proc/kallsyms";
	size_t bad = 0;
	bool hidden = false;
	if (kallsyms_read(&s->pool, path, &s->ksyms, &bad, &hidden) < 0) {
		warn(s, "kernel symbols: %s (pass --kallsyms FILE or --vmlinux FILE)",
		     hwt_errmsg());
		return;
	}
	if (hidden)
		warn(s, "kernel symbols: %s shows every address as 0 "
		     "(kernel.kptr_restrict hides them): run as root, or "
		     "`sysctl kernel.kptr_restrict=0`, or pass --kallsyms FILE "
		     "saved on the traced machine", path);
	else if (bad)
		warn(s, "%s: %zu unreadable lines skipped", path, bad);
}

static int lookup_kernel(struct hwt_symbolizer *s, uint64_t addr,
			 struct hwt_symbol *out)
{
	if (!s->ksyms_loaded)
		read_kallsyms(s);
	if (s->vmlinux) {
		struct sym_entry *e = sym_table_find(&s->vmlinux->syms, addr);
		out->dso = "[kernel.kallsyms]";
		if (e) {
			out->name = sym_entry_name(&s->ctx, e);
			out->start = e->start;
			out->parent_start = e->parent ? e->parent : e->start;
			out->size = e->size;
			out->offset = addr - e->start;
		}
		fill_lines(s, s->vmlinux, addr, out);
		return 1;
	}
	struct sym_entry *e = sym_table_find(&s->ksyms, addr);
	/* The last symbol has no end: perf's kallsyms end is the next one,
	 * so the final entry only covers its own address. */
	if (!e)
		return 0;
	out->dso = e->module ? e->module : "[kernel.kallsyms]";
	out->name = sym_entry_name(&s->ctx, e);
	out->start = e->start;
	out->parent_start = e->parent ? e->parent : e->start;
	out->size = e->size;
	out->offset = addr - e->start;
	return 1;
}

static const struct sym_table *perf_map_of(struct hwt_symbolizer *s, int32_t pid)
{
	for (size_t i = 0; i < s->nmaps; i++)
		if (s->maps[i].pid == pid)
			return s->maps[i].missing ? NULL : &s->maps[i].syms;
	void *n = realloc(s->maps, (s->nmaps + 1) * sizeof(*s->maps));
	if (!n)
		return NULL;
	s->maps = n;
	struct perf_map *m = &s->maps[s->nmaps++];
	memset(m, 0, sizeof(*m));
	m->pid = pid;
	char path[4096];
	snprintf(path, sizeof(path), "%s/perf-%" PRId32 ".map",
		 s->opts.perf_map_dir ? s->opts.perf_map_dir : "/tmp", pid);
	size_t bad = 0;
	int err = perf_map_read(&s->pool, path, &m->syms, &bad);
	if (err < 0) {
		m->missing = true;
		if (err != HWT_ERR_NOENT)
			warn(s, "JIT symbols: %s", hwt_errmsg());
		return NULL;
	}
	if (bad)
		warn(s, "%s: %zu lines are not \"START SIZE NAME\" and were skipped",
		     path, bad);
	return &m->syms;
}

static int lookup_jit(struct hwt_symbolizer *s, int32_t pid, uint64_t addr,
		      struct hwt_symbol *out)
{
	if (pid == HWT_PID_ANY)
		return 0;
	const struct sym_table *t = perf_map_of(s, pid);
	struct sym_entry *e = t ? sym_table_find(t, addr) : NULL;
	if (!e)
		return 0;
	char name[4096];
	snprintf(name, sizeof(name), "%s/perf-%" PRId32 ".map",
		 s->opts.perf_map_dir ? s->opts.perf_map_dir : "/tmp", pid);
	out->dso = str_pool_intern(&s->pool, name);
	out->name = sym_entry_name(&s->ctx, e);
	out->start = e->start;
	out->parent_start = e->parent ? e->parent : e->start;
	out->size = e->size;
	out->offset = addr - e->start;
	return 1;
}

/* --kcore's code: an ELF image of memory, without symbols of its own. */
static bool is_kcore(const char *path)
{
	size_t len = strlen(path);
	return len >= 5 && !strcmp(path + len - 5, "kcore") &&
	       (len == 5 || path[len - 6] == '/');
}

bool symbolizer_image_changes(const struct hwt_symbolizer *s)
{
	return s->image && hwt_image_changes(s->image);
}

const void *symbolizer_section(struct hwt_symbolizer *s, int32_t pid,
			       uint64_t addr, uint64_t time)
{
	struct hwt_image_section *sec =
		s->image ? hwt_image_find_at(s->image, pid, addr, time) : NULL;
	if (!sec && s->image && pid != HWT_PID_ANY)
		sec = hwt_image_find_at(s->image, HWT_PID_ANY, addr, time);
	return sec;
}

int hwt_symbolizer_lookup(struct hwt_symbolizer *s, int32_t pid, uint64_t addr,
			  struct hwt_symbol *out)
{
	return hwt_symbolizer_lookup_at(s, pid, addr, HWT_TIME_UNKNOWN, out);
}

int hwt_symbolizer_lookup_at(struct hwt_symbolizer *s, int32_t pid,
			     uint64_t addr, uint64_t time, struct hwt_symbol *out)
{
	memset(out, 0, sizeof(*out));
	const struct hwt_image_section *sec = symbolizer_section(s, pid, addr, time);
	if ((sec && (!strncmp(sec->path, "[kernel.kallsyms]", 17) ||
		     is_kcore(sec->path))) ||
	    (!sec && addr >> 63))
		return lookup_kernel(s, addr, out);
	if (!sec || !is_file_path(sec->path))
		return lookup_jit(s, pid, addr, out);

	struct dso *d = dso_get(s, sec->path, sec->found_at);
	if (!d)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for symbols");
	out->dso = d->path;
	out->main_program = s->main_path && !strcmp(s->main_path, d->path);
	out->dso_offset = addr - sec->vaddr + sec->file_offset;
	uint64_t vaddr;
	if (!file_to_vaddr(d, out->dso_offset, &vaddr)) {
		out->map_base = sec->map_base;
		return 1;
	}
	out->in_elf = true;
	out->elf_vaddr = vaddr;
	out->elf_base = d->segs[0].vaddr;
	struct sym_entry *e = sym_table_find(&d->syms, vaddr);
	if (e) {
		out->name = sym_entry_name(&s->ctx, e);
		out->start = addr - (vaddr - e->start);
		out->parent_start = e->parent ? addr - (vaddr - e->parent)
					      : out->start;
		out->size = e->size;
		out->size_guessed = e->size_guessed;
		out->local_nth = e->local_nth;
		out->offset = vaddr - e->start;
	}
	fill_lines(s, d, vaddr, out);
	return 1;
}

int hwt_symbolizer_dso_info(struct hwt_symbolizer *s, const char *path,
			    struct hwt_sym_dso_info *info)
{
	memset(info, 0, sizeof(*info));
	info->path = path;
	char cand[8192];
	const char *found = NULL;
	/* The capture names the files: one that is a FIFO or a device is
	 * not taken (opening it could block, reading it never end). */
	if (s->opts.symfs) {
		snprintf(cand, sizeof(cand), "%s/%s", s->opts.symfs, path);
		if (!hwt_infile_check(cand, NULL, HWT_INFILE_QUIET))
			found = cand;
	}
	if (!found && !hwt_infile_check(path, NULL, HWT_INFILE_QUIET))
		found = path;
	struct dso *d = dso_get(s, path, found);
	if (!d)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for symbols");
	info->found_at = d->found_at;
	info->nsymbols = d->syms.n;
	info->symbols_from = d->symbols_from;
	info->debug_file = d->debug_file;
	info->debug_from = d->debug_from;
	info->tried = d->tried;
	info->build_id = d->build_id;
	info->build_id_size = d->build_id_size;
	return d->found_at ? 0 : HWT_ERR_NOENT;
}

bool hwt_symbolizer_srcline(const struct hwt_symbolizer *s)
{
	return s->opts.srcline;
}

void *symbolizer_out_cache(struct hwt_symbolizer *s, size_t size)
{
	if (!s->out_cache) {
		s->out_cache = calloc(1, size);
		s->out_cache_size = s->out_cache ? size : 0;
	}
	return s->out_cache;
}
