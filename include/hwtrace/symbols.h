/* Symbols for addresses: which binary, which function and how far into it,
 * and with debug info the source line and the chain of inlined functions.
 *
 * The symbolizer reads the binaries of a memory image (struct hwt_image,
 * see image.h): each section names the file that was mapped and where, so
 * no other view of the capture's MMAP records is needed. A decode hands its
 * image over through hwt_decode_opts.on_image once the sideband is read;
 * the symbolizer keeps its own per-binary tables (sorted symbols, line
 * tables) across images, keyed by the file that was read. */
#ifndef HWTRACE_SYMBOLS_H
#define HWTRACE_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/capture.h"
#include "hwtrace/common.h"
#include "hwtrace/image.h"
#include "hwtrace/output.h"
#include "hwtrace/report.h"
#include "hwtrace/stack.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_symbolizer;

/* Options. Zero-initialise, then set size. Strings are borrowed and must
 * outlive the symbolizer. */
struct hwt_sym_opts {
	size_t size;             /* sizeof(struct hwt_sym_opts) */
	bool srcline;            /* read DWARF: source lines and inlines */
	bool no_demangle;        /* keep C++ names as in the symbol table */
	const char *symfs;       /* look for binaries and debug files under DIR */
	const char *buildid_dir; /* a ~/.debug-style cache (perf's layout) */
	/* Debuginfod servers come from $DEBUGINFOD_URLS (and its timeout
	 * and cache from $DEBUGINFOD_TIMEOUT, $DEBUGINFOD_CACHE_PATH), as
	 * every elfutils tool takes them. */
	const char *debug_root;  /* NULL: /usr/lib/debug */
	const char *kallsyms;    /* NULL: /proc/kallsyms (copied) */
	const char *vmlinux;     /* the kernel image, for its symbols */
	const char *perf_map_dir; /* NULL: /tmp (perf-PID.map files) */
	/* Called once per binary or source that lacks symbols or debug info
	 * (saying what was tried), and for damaged input; NULL: silent. */
	void (*warn)(void *arg, const char *message);
	void *warn_arg;
	/* Kernel addresses get no symbols from /proc/kallsyms (the capture
	 * comes from another machine or kernel); --kallsyms and --vmlinux
	 * still apply. */
	bool no_host_kallsyms;
};

/* Whether this machine's /proc/kallsyms may name the kernel addresses of
 * the capture @path: a perf.data file that names this host and kernel (its
 * hostname and osrelease headers are uname's), or no perf.data file at all
 * (a raw stream or snapshot, whose user gives the code). False for a pipe,
 * a capture of another machine or kernel, and one that does not say where
 * it was recorded, with that machine in @why ("HOST (kernel REL)"): set
 * hwt_sym_opts.no_host_kallsyms then. */
HWT_API bool hwt_capture_host_kernel(const char *path, char *why, size_t size);

/* One frame of an inline chain. */
struct hwt_sym_frame {
	const char *name;    /* function name, NULL when unknown */
	const char *file;    /* source file, NULL when unknown */
	uint32_t line;
};

/* What is known about one address. Pointers are valid until the next
 * lookup or until the symbolizer is freed. Unknown strings are NULL. */
struct hwt_symbol {
	const char *dso;      /* the binary's path as recorded */
	bool main_program;    /* the dso is the process's executable */
	const char *name;     /* function (demangled unless no_demangle) */
	uint64_t start;       /* the function's address (as traced) */
	uint64_t size;        /* up to the next symbol when size_guessed */
	bool size_guessed;    /* the symbol table gave it no size */
	/* A file-local (static) function: 1 for the first of its name in
	 * the binary, 2 for the next, ... in address order; 0: global. */
	uint32_t local_nth;
	uint64_t offset;      /* address - start */
	uint64_t dso_offset;  /* the address's offset in the dso's file */
	const char *file;     /* with srcline: source file of the address */
	uint32_t line;
	/* With srcline and inlining: innermost first; the last frame is the
	 * function holding the code, with the line of the outermost call. */
	const struct hwt_sym_frame *inlines;
	size_t ninlines;
	/* When the binary was read (in_elf): the address as the binary's
	 * own program headers place it (p_vaddr terms, what objdump and
	 * BOLT show), and the p_vaddr of its first loadable segment (the
	 * base AutoFDO adds to the addresses of its text profiles). */
	bool in_elf;
	uint64_t elf_vaddr;
	uint64_t elf_base;
	/* The function the code belongs to: for a part the compiler split
	 * off a function (NAME.cold, NAME.part.N, NAME.constprop.N,
	 * NAME.isra.N) its parent's start when the binary has the parent,
	 * else start. */
	uint64_t parent_start;
	/* When the binary was not read (in_elf false, dso set): the lowest
	 * address any of its mappings in the process places file offset 0
	 * at (a mapping's address less its file offset). address -
	 * map_base is then its address relative to the first loadable
	 * segment, as AutoFDO's text profiles give it, for every binary
	 * whose first segment maps the file from offset 0. */
	uint64_t map_base;
};

/* Per-binary report for `hwtrace info`. Strings are valid as long as the
 * symbolizer. */
struct hwt_sym_dso_info {
	const char *path;        /* as recorded */
	const char *found_at;    /* the file read, NULL when not found */
	size_t nsymbols;         /* functions in the symbol tables */
	const char *symbols_from; /* ".symtab", ".dynsym", "debug file", ... */
	const char *debug_file;  /* the file with DWARF, NULL when none */
	const char *debug_from;  /* "binary", "debuglink", "build-id dir",
				    "buildid-dir", "symfs", "debuginfod" */
	const char *tried;       /* where debug info was looked for */
	const uint8_t *build_id; /* the binary's GNU build id (size 0: none) */
	size_t build_id_size;
};

/* Creates a symbolizer. Errors: HWT_ERR_NOMEM, HWT_ERR_INVAL (size). */
HWT_API int hwt_symbolizer_new(const struct hwt_sym_opts *opts,
			       struct hwt_symbolizer **out);

/* Frees the symbolizer and its tables; NULL is a no-op. */
HWT_API void hwt_symbolizer_free(struct hwt_symbolizer *sym);

/* The image later lookups search (NULL to forget it). The symbolizer
 * holds a reference (hwt_image_ref) until it is given another image or
 * freed, so it can name elements emitted after their decode returned. */
HWT_API void hwt_symbolizer_set_image(struct hwt_symbolizer *sym,
				      struct hwt_image *image);

/* Looks @addr up for process @pid (HWT_PID_ANY when unknown). Returns 1
 * with *out filled (at least dso, or name for kernel and JIT code), 0
 * when nothing is known about the address, HWT_ERR_NOMEM. */
HWT_API int hwt_symbolizer_lookup(struct hwt_symbolizer *sym, int32_t pid,
				  uint64_t addr, struct hwt_symbol *out);

/* hwt_symbolizer_lookup as of perf time @time: the binary mapped at @addr
 * then (another library may sit at the same address before a dlclose or
 * after an exec). HWT_TIME_UNKNOWN: the latest mapping, as
 * hwt_symbolizer_lookup. */
HWT_API int hwt_symbolizer_lookup_at(struct hwt_symbolizer *sym, int32_t pid,
				     uint64_t addr, uint64_t time,
				     struct hwt_symbol *out);

/* Loads the binary at @path (as recorded; found through symfs etc.) and
 * fills *info. Returns 0, HWT_ERR_NOENT (not found: info->found_at NULL),
 * HWT_ERR_NOMEM. */
HWT_API int hwt_symbolizer_dso_info(struct hwt_symbolizer *sym,
				    const char *path,
				    struct hwt_sym_dso_info *info);

/* For hwt_decode_opts.name_addr with @arg the symbolizer: writes
 * "sym+0xoff" (or hwt_symbol_dso_name's "FILE+0xOFF" in a known binary
 * without a symbol there) into @buf; returns the
 * length, 0 when nothing is known about @addr, or a negative error. */
HWT_API int hwt_symbolizer_name(void *arg, int32_t pid, uint64_t addr,
				char *buf, size_t size);

/* The name of code in a binary that no symbol covers: "FILE+0xOFF", the
 * binary's file name (no directory) and the address's offset in that file
 * (s->dso_offset), as `objdump -d` and `addr2line -e FILE` take it. Writes
 * it into @buf (truncated to @size) and returns its length; 0 when @s has
 * a name or no binary file (kernel, JIT and unknown code). */
HWT_API int hwt_symbol_dso_name(const struct hwt_symbol *s, char *buf,
				size_t size);

/* Whether the symbolizer reads source lines (opts.srcline). */
HWT_API bool hwt_symbolizer_srcline(const struct hwt_symbolizer *sym);

/* For hwt_decode_opts.on_image with @arg the symbolizer: searches that
 * image from now on. */
HWT_API void hwt_symbolizer_on_image(void *arg, struct hwt_image *image);

/* An output annotator (output.h) that names the symbols of ranges and
 * branches: in text `sym+0xoff` (and `(dso)` outside the main program),
 * with srcline `file:line` and the inline chain; with instructions
 * (`--disasm`) an objdump-style `ADDR <sym>:` line at each function entry;
 * in jsonl the fields of docs/decode.md (`sym`, `symoff`, `dso`,
 * `srcline`, `inlines`; `from_*`, `to_*`). Valid while @sym is. Its
 * cache_tag only reads the memory image: once nothing adds to the image
 * (the decode is over), several threads may call it at once; annotate
 * loads files and fills caches, one thread at a time. */
HWT_API struct hwt_output_annotator
hwt_symbolizer_annotator(struct hwt_symbolizer *sym);

/* A function namer (stack.h) over @sym: the function holding an address
 * (its name and start) and, for a part split off a function, its
 * parent's start; valid while @sym is. */
HWT_API struct hwt_func_namer hwt_symbolizer_namer(struct hwt_symbolizer *sym);

/* Source lines for hwt_report_by_line (`report --srcline`) over @sym,
 * made with srcline: an address's file and line, and the functions
 * inlined there, outermost first (at most 64; an unnamed one "??"); the
 * strings stay valid until the next lookup. Valid while @sym is; a NULL
 * @sym (symbols off) gives no address a line. */
HWT_API struct hwt_report_lines hwt_symbolizer_lines(struct hwt_symbolizer *sym);

/* The `decode --format jsonl` lines of the @n elements of @recs (a
 * cursor's records, capture.h), each ending in a newline, into @buf,
 * with the symbol members of @sym's annotator (NULL: none, as
 * `--no-symbols`): for bindings that read elements as records and want
 * them as the CLI names them. Writes as many whole lines as fit (and a
 * NUL after them), *@done the number of records written. Returns the
 * bytes written; HWT_ERR_NOSPC when not even the first line fits (give
 * more room), or a negative error of the symbolizer's. */
HWT_API int64_t hwt_elem_records_jsonl(const struct hwt_elem_record *recs,
				       size_t n, struct hwt_symbolizer *sym,
				       char *buf, size_t size, size_t *done);

/* Demangles a C++ (Itanium ABI) name into a malloc'ed string; NULL when
 * @name is not a mangled name or no demangler is available. */
HWT_API char *hwt_sym_demangle(const char *name);

#ifdef __cplusplus
}
#endif

#endif
