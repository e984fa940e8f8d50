/* Where a binary's DWARF is, in the order gdb and perf look: the binary,
 * its .gnu_debuglink (next to it, in .debug/, under /usr/lib/debug), the
 * /usr/lib/debug/.build-id tree, perf's build-id cache, --symfs, and a
 * debuginfod server. A debug file is used only when its build id is the
 * binary's: a stale one would give wrong lines with no sign of it. */
#include <dwarf.h>
#include <elfutils/debuginfod.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <gelf.h>
#include <pthread.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/symbols/symbols_internal.h"
#include "hwtrace/outfile.h"
#include "hwtrace/infile.h"

static void note_tried(struct dso *d, const char *what)
{
	size_t len = strlen(d->tried);
	snprintf(d->tried + len, sizeof(d->tried) - len, "%s%s", len ? ", " : "",
		 what);
}

static bool has_dwarf(Elf *elf)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		if (gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS &&
		    (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
		    !strcmp(name, ".debug_info"))
			return true;
	}
	return false;
}

/* Opens @path as @d's debug file when it holds DWARF and its build id
 * matches. Returns true when taken. */
static bool try_file(struct hwt_sym_ctx *ctx, struct dso *d, const char *path,
		     const char *from, int fd)
{
	/* The opener notes what it opens as an input; a descriptor
	 * debuginfod handed over is noted here. */
	if (fd >= 0)
		hwt_outfile_note_input_fd(fd, path);
	else
		fd = hwt_infile_open(path, NULL, HWT_INFILE_QUIET);
	if (fd < 0)
		return false;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !has_dwarf(elf))
		goto refuse;
	uint8_t id[64];
	size_t id_size = 0;
	if (d->build_id_size &&
	    (!elf_build_id(elf, id, &id_size) || id_size != d->build_id_size ||
	     memcmp(id, d->build_id, id_size))) {
		if (ctx->opts->warn) {
			char msg[1024];
			snprintf(msg, sizeof(msg),
				 "%s: debug file %s is for another build (its "
				 "build id differs): not used", d->path, path);
			ctx->opts->warn(ctx->opts->warn_arg, msg);
		}
		goto refuse;
	}
	/* DWARF is opened only for source lines: libdw inflates compressed
	 * debug sections up front, which costs more than the whole decode. */
	if (ctx->opts->srcline) {
		Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
		if (!dw)
			goto refuse;
		d->dwarf = dw;
	}
	d->debug_file = strdup(path);
	d->debug_from = from;
	if (!d->symbols_from || strcmp(d->symbols_from, ".symtab")) {
		/* A stripped binary: the debug file has the full symbol
		 * table (aliases of what .dynsym gave fold into one). */
		bool had;
		dso_add_elf_symbols(ctx, d, elf, &had);
		if (had)
			d->symbols_from = "debug file";
	}
	if (d->dwarf) {
		d->dbg_elf = elf;
		d->dbg_fd = fd;
	} else {
		elf_end(elf);
		close(fd);
	}
	return true;
refuse:
	if (elf)
		elf_end(elf);
	close(fd);
	return false;
}

static void build_id_hex(const struct dso *d, char *hex)
{
	for (size_t i = 0; i < d->build_id_size; i++)
		snprintf(hex + 2 * i, 3, "%02x", d->build_id[i]);
}

static bool try_debuglink(struct hwt_sym_ctx *ctx, struct dso *d,
			  const char *root)
{
	int fd = hwt_infile_open(d->found_at, NULL, HWT_INFILE_QUIET);
	if (fd < 0)
		return false;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Word crc;
	const char *link = elf ? dwelf_elf_gnu_debuglink(elf, &crc) : NULL;
	char name[1024], dir[4096], path[8192];
	snprintf(name, sizeof(name), "%s", link ? link : "");
	if (elf)
		elf_end(elf);
	close(fd);
	if (!name[0] || strchr(name, '/'))
		return false;
	snprintf(dir, sizeof(dir), "%s", d->found_at);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		snprintf(dir, sizeof(dir), ".");
	const char *fmt[] = {"%s/%s", "%s/.debug/%s"};
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), fmt[i], dir, name);
		if (strcmp(path, d->found_at) && try_file(ctx, d, path, "debuglink", -1))
			return true;
	}
	/* Under the debug root the binary's own directory, as recorded. */
	snprintf(dir, sizeof(dir), "%s", d->path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	snprintf(path, sizeof(path), "%s%s/%s", root, dir, name);
	if (try_file(ctx, d, path, "debuglink", -1))
		return true;
	note_tried(d, ".gnu_debuglink");
	return false;
}

/* libdebuginfod is loaded only when a server is configured: linking it
 * would bring libcurl and its TLS stack into every hwtrace command. */
struct debuginfod_api {
	debuginfod_client *(*begin)(void);
	int (*find_debuginfo)(debuginfod_client *, const unsigned char *, int,
			      char **);
	void (*end)(debuginfod_client *);
};

static const struct debuginfod_api *debuginfod_api(void)
{
	static struct debuginfod_api api;
	static int state; /* 0: not tried, 1: loaded, -1: unavailable */
	if (state)
		return state > 0 ? &api : NULL;
	state = -1;
	void *lib = dlopen("libdebuginfod.so.1", RTLD_LAZY | RTLD_LOCAL);
	if (!lib)
		return NULL;
	*(void **)&api.begin = dlsym(lib, "debuginfod_begin");
	*(void **)&api.find_debuginfo = dlsym(lib, "debuginfod_find_debuginfo");
	*(void **)&api.end = dlsym(lib, "debuginfod_end");
	if (api.begin && api.find_debuginfo && api.end)
		state = 1;
	return state > 0 ? &api : NULL;
}

/* The default of DEBUGINFOD_TIMEOUT (seconds), when it is not set. */
#define HWT_DEBUGINFOD_TIMEOUT "10"

/* Build ids no server had (or that none answered for) in this process:
 * a server that does not answer costs its timeout once per run, not once
 * per binary, symbolizer or thread that asks again. */
static pthread_mutex_t failed_lock = PTHREAD_MUTEX_INITIALIZER;
static struct failed_id {
	uint8_t id[sizeof(((struct dso *)0)->build_id)];
	size_t size;
	int err;
} *failed_ids;
static size_t nfailed, failed_cap;

static struct failed_id *failed_find(const struct dso *d)
{
	for (size_t i = 0; i < nfailed; i++)
		if (failed_ids[i].size == d->build_id_size &&
		    !memcmp(failed_ids[i].id, d->build_id, d->build_id_size))
			return &failed_ids[i];
	return NULL;
}

static void failed_add(const struct dso *d, int err)
{
	if (nfailed == failed_cap) {
		size_t ncap = failed_cap ? failed_cap * 2 : 16;
		void *n = realloc(failed_ids, ncap * sizeof(*failed_ids));
		if (!n)
			return;
		failed_ids = n;
		failed_cap = ncap;
	}
	struct failed_id *f = &failed_ids[nfailed++];
	memcpy(f->id, d->build_id, d->build_id_size);
	f->size = d->build_id_size;
	f->err = err;
}

static void note_error(struct dso *d, int err)
{
	size_t len = strlen(d->tried);
	snprintf(d->tried + len, sizeof(d->tried) - len, ": %s", strerror(-err));
}

static bool try_debuginfod(struct hwt_sym_ctx *ctx, struct dso *d)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	if (!urls || !*urls || !d->build_id_size)
		return false;
	char what[512];
	snprintf(what, sizeof(what), "debuginfod (%s)", urls);
	note_tried(d, what);
	const struct debuginfod_api *api = debuginfod_api();
	if (!api) {
		note_tried(d, "(libdebuginfod.so.1 could not be loaded)");
		return false;
	}
	/* One lookup at a time: a second thread asking for the same build
	 * id waits for the first one's answer instead of asking again. */
	pthread_mutex_lock(&failed_lock);
	struct failed_id *f = failed_find(d);
	if (f) {
		int err = f->err;
		pthread_mutex_unlock(&failed_lock);
		note_error(d, err);
		return false;
	}
	/* libdebuginfod waits 90 s for a server to start sending, and asks
	 * 3 times, unless told otherwise: a server that does not answer
	 * would stall the decode 4.5 minutes per binary. */
	if (!getenv("DEBUGINFOD_TIMEOUT"))
		setenv("DEBUGINFOD_TIMEOUT", HWT_DEBUGINFOD_TIMEOUT, 0);
	if (!getenv("DEBUGINFOD_RETRY_LIMIT"))
		setenv("DEBUGINFOD_RETRY_LIMIT", "0", 0);
	debuginfod_client *c = api->begin();
	if (!c) {
		pthread_mutex_unlock(&failed_lock);
		return false;
	}
	if (ctx->opts->warn) {
		char hex[130] = "", msg[1024];
		build_id_hex(d, hex);
		snprintf(msg, sizeof(msg), "fetching debug info for %s (build id "
			 "%s) from %s (waiting at most %s s: DEBUGINFOD_TIMEOUT)",
			 d->path, hex, urls, getenv("DEBUGINFOD_TIMEOUT"));
		ctx->opts->warn(ctx->opts->warn_arg, msg);
	}
	char *path = NULL;
	int fd = api->find_debuginfo(c, d->build_id, (int)d->build_id_size, &path);
	api->end(c);
	if (fd < 0)
		failed_add(d, fd);
	pthread_mutex_unlock(&failed_lock);
	bool ok = false;
	if (fd >= 0)
		ok = try_file(ctx, d, path ? path : "(debuginfod)", "debuginfod", fd);
	else
		note_error(d, fd);
	free(path);
	return ok;
}

void dso_find_debuginfo(struct hwt_sym_ctx *ctx, struct dso *d)
{
	const struct hwt_sym_opts *o = ctx->opts;
	const char *root = o->debug_root ? o->debug_root : "/usr/lib/debug";
	char path[8192], hex[130] = "";
	build_id_hex(d, hex);

	if (try_file(ctx, d, d->found_at, "binary", -1))
		return;
	note_tried(d, "the binary");
	if (try_debuglink(ctx, d, root))
		return;
	if (hex[0]) {
		snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s.debug", root,
			 hex, hex + 2);
		if (try_file(ctx, d, path, "build-id dir", -1))
			return;
		note_tried(d, path);
	}
	if (o->buildid_dir && hex[0]) {
		const char *names[] = {"debug", "elf"};
		for (size_t i = 0; i < 2; i++) {
			snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s/%s",
				 o->buildid_dir, hex, hex + 2, names[i]);
			if (try_file(ctx, d, path, "buildid-dir", -1))
				return;
		}
		note_tried(d, o->buildid_dir);
	}
	if (o->symfs) {
		snprintf(path, sizeof(path), "%s/usr/lib/debug/.build-id/%.2s/%s.debug",
			 o->symfs, hex, hex + 2);
		if (hex[0] && try_file(ctx, d, path, "symfs", -1))
			return;
		snprintf(path, sizeof(path), "%s/usr/lib/debug%s.debug", o->symfs,
			 d->path);
		if (try_file(ctx, d, path, "symfs", -1))
			return;
		note_tried(d, "--symfs");
	}
	try_debuginfod(ctx, d);
}

void dso_free_debuginfo(struct dso *d)
{
	if (d->dwarf)
		dwarf_end(d->dwarf);
	if (d->dbg_elf)
		elf_end(d->dbg_elf);
	if (d->dwarf)
		close(d->dbg_fd);
	free(d->debug_file);
	d->dwarf = NULL;
	d->dbg_elf = NULL;
	d->debug_file = NULL;
}

static const char *die_name(struct hwt_sym_ctx *ctx, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = dwarf_formstring(
		dwarf_attr_integrate(die, DW_AT_linkage_name, &attr)
			?: dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
	if (!name)
		name = dwarf_diename(die);
	if (!name)
		return NULL;
	char *dm = ctx->opts->no_demangle ? NULL : sym_demangle_short(name);
	const char *in = str_pool_intern(ctx->pool, dm ? dm : name);
	free(dm);
	return in;
}

size_t dso_srcline(struct hwt_sym_ctx *ctx, struct dso *d, uint64_t vaddr,
		   struct hwt_sym_frame *frames, size_t max)
{
	Dwarf_Die cu;
	if (!d->dwarf || !max || !dwarf_addrdie(d->dwarf, vaddr, &cu))
		return 0;
	Dwarf_Line *line = dwarf_getsrc_die(&cu, vaddr);
	if (!line)
		return 0;
	int lineno = 0;
	dwarf_lineno(line, &lineno);
	frames[0].file = str_pool_intern(ctx->pool, dwarf_linesrc(line, NULL, NULL));
	frames[0].line = (uint32_t)lineno;
	frames[0].name = NULL;
	size_t n = 1;
	/* The innermost scope at the address, then its lexical parents:
	 * dwarf_getscopes alone would continue from an inlined function's
	 * abstract definition instead of the code that inlined it. */
	Dwarf_Die *scopes = NULL;
	int nscopes = dwarf_getscopes(&cu, vaddr, &scopes);
	if (nscopes > 0) {
		Dwarf_Die inner = scopes[0];
		free(scopes);
		scopes = NULL;
		nscopes = dwarf_getscopes_die(&inner, &scopes);
	}
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;
	dwarf_getsrcfiles(&cu, &files, &nfiles);
	for (int i = 0; i < nscopes; i++) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
			continue;
		frames[n - 1].name = die_name(ctx, &scopes[i]);
		if (tag == DW_TAG_subprogram || n == max)
			break;
		/* The call site is the line of the frame that inlined it. */
		Dwarf_Attribute attr;
		Dwarf_Word file_idx = 0, call_line = 0;
		dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &attr),
				&file_idx);
		dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &attr),
				&call_line);
		const char *file = files && file_idx < nfiles
					   ? dwarf_filesrc(files, file_idx, NULL, NULL)
					   : NULL;
		frames[n].file = str_pool_intern(ctx->pool, file);
		frames[n].line = (uint32_t)call_line;
		frames[n].name = NULL;
		n++;
	}
	free(scopes);
	return n;
}
