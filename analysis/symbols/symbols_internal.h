/* Shared by the files of the symbolizer (analysis/symbols/ only). */
#ifndef HWT_ANALYSIS_SYMBOLS_INTERNAL_H
#define HWT_ANALYSIS_SYMBOLS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/symbols.h"

/* One function of a sorted table. Addresses are the ELF file's own
 * (link-time) addresses for binaries, absolute for kallsyms and JIT maps. */
struct sym_entry {
	uint64_t start, size;
	const char *name; /* interned */
	const char *module; /* kallsyms: "[mod]" for module code, else NULL */
	bool shown;         /* name already demangled for showing */
	bool size_guessed;  /* no size in the table: up to the next symbol */
	bool local;         /* STB_LOCAL (a static function) */
	uint32_t local_nth; /* local: 1 for the first of its name, ... */
	/* A part split off a function (NAME.cold, NAME.part.N, ...): its
	 * parent's start, when the table has it; else 0. */
	uint64_t parent;
};

struct sym_table {
	struct sym_entry *e;
	size_t n, cap;
};

/* A string pool: every name the symbolizer hands out lives here until it
 * is freed, so results need no ownership rules. */
struct str_pool {
	char **slots; /* open addressing */
	size_t n, cap;
};

const char *str_pool_intern(struct str_pool *pool, const char *s);

/* The symbolizer's room for the inlined functions hwt_symbolizer_lines
 * hands out (SYM_MAX_INLINED names). */
#define SYM_MAX_INLINED 64
const char **sym_inlined_names(struct hwt_symbolizer *s);
void str_pool_free(struct str_pool *pool);

struct sym_entry *sym_table_add(struct sym_table *t, uint64_t start,
				uint64_t size, const char *name);
/* Sorts, drops duplicates (keeping the best name per address), gives
 * zero-size symbols the room up to the next one, as perf does, and finds
 * the parents of split-off parts (sym_parts.c). */
void sym_table_finish(struct sym_table *t);
/* sym_parts.c: sets e->parent for every part split off a function in
 * the sorted table @t. */
void sym_table_find_parents(struct sym_table *t);
struct sym_entry *sym_table_find(const struct sym_table *t, uint64_t addr);
void sym_table_free(struct sym_table *t);

/* A loaded load segment of a binary, to turn file offsets into the ELF
 * file's addresses. */
struct seg {
	uint64_t offset, vaddr, filesz;
};

struct dso {
	char *path;      /* as recorded */
	char *found_at;  /* the file read, or NULL */
	bool loaded, warned;
	uint16_t machine, type;
	uint8_t build_id[64];
	size_t build_id_size;
	struct seg *segs;
	size_t nsegs;
	struct sym_table syms;
	/* Copies of the string tables the names point into: one block each,
	 * cheaper than a string per symbol. */
	char **strtabs;
	size_t nstrtabs;
	const char *symbols_from;
	/* Debug info (libdw), NULL when none. */
	void *dwarf;     /* Dwarf * */
	void *dbg_elf;   /* Elf * of a separate debug file */
	int dbg_fd;
	char *debug_file;
	const char *debug_from;
	char tried[2048];
};

/* elf_symtab.c: opens @d->found_at, reads its segments, build id,
 * .symtab/.dynsym and PLT entries. Returns 0 or a negative error with
 * a message in @why. */
struct hwt_sym_ctx {
	const struct hwt_sym_opts *opts;
	struct str_pool *pool;
};
int dso_read_elf(struct hwt_sym_ctx *ctx, struct dso *d, char *why,
		 size_t why_size);
/* Adds the function symbols of an open ELF (Elf *) to @d's table. */
int dso_add_elf_symbols(struct hwt_sym_ctx *ctx, struct dso *d, void *elf,
			bool *had_symtab);
bool elf_build_id(void *elf, uint8_t *out, size_t *size);

/* debuginfo.c: finds DWARF for @d along the lookup chain; fills
 * dwarf/debug_file/debug_from/tried. Also picks up a debug file's symbol
 * table when the binary has none. */
void dso_find_debuginfo(struct hwt_sym_ctx *ctx, struct dso *d);
void dso_free_debuginfo(struct dso *d);

/* The source line of @vaddr (ELF address) and its inline chain.
 * Returns the number of frames written to @frames (at most @max); 0 when
 * the address has no line. frames[0] is the innermost. */
size_t dso_srcline(struct hwt_sym_ctx *ctx, struct dso *d, uint64_t vaddr,
		   struct hwt_sym_frame *frames, size_t max);

/* ksyms.c: "ADDR TYPE NAME [MODULE]" (kallsyms) and "START SIZE NAME"
 * (perf-PID.map) tables. Each returns 0 or a negative error; damaged
 * lines are counted in *bad. */
int kallsyms_read(struct str_pool *pool, const char *path,
		  struct sym_table *out, size_t *bad, bool *hidden);
int perf_map_read(struct str_pool *pool, const char *path,
		  struct sym_table *out, size_t *bad);

/* demangle.c: a C++ name demangled as perf shows it (no parameter
 * list), malloc'ed; NULL when not mangled. */
char *sym_demangle_short(const char *name);

/* The name of @e as shown: demangled (once, on first use) unless the
 * options say not to; a `@plt` suffix is kept. */
const char *sym_entry_name(struct hwt_sym_ctx *ctx, struct sym_entry *e);

/* symbolizer.c: a zeroed block of @size bytes owned by @sym (allocated
 * on first call), for the output's cache of formatted symbols. */
/* Whether the symbolizer's image ever mapped other code where code was
 * (so an address's name depends on the time). */
bool symbolizer_image_changes(const struct hwt_symbolizer *sym);

/* The image section that names @addr of @pid at @time, or NULL: what a
 * cached name of the address is only good for. */
const void *symbolizer_section(struct hwt_symbolizer *sym, int32_t pid,
			       uint64_t addr, uint64_t time);

void *symbolizer_out_cache(struct hwt_symbolizer *sym, size_t size);

#endif
