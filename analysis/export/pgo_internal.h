/* The AutoFDO and BOLT exports (analysis/export/pgo*.c): the element
 * stream counted as address ranges and taken branches, then sorted into
 * one profile per binary in the binary's own addresses, which a writer
 * per format turns into text. */
#ifndef HWT_ANALYSIS_EXPORT_PGO_INTERNAL_H
#define HWT_ANALYSIS_EXPORT_PGO_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/export/export_internal.h"

/* One side of a branch as a binary sees it. */
struct pgo_end {
	uint64_t addr;      /* ELF virtual address; 0 outside the binary */
	const char *sym;    /* interned; NULL: no symbol names it */
	uint64_t off;       /* addr - the symbol's address */
	bool inside;        /* the address is in this binary */
};

struct pgo_range {
	uint64_t start, last; /* ELF virtual addresses of the first and the
			       * last instruction */
	uint64_t n;
};

struct pgo_branch {
	struct pgo_end from, to;
	uint64_t n;
};

/* One binary's profile, sorted by address, each line once. */
struct pgo_binary {
	const char *path;     /* as recorded (interned) */
	const char *build_id; /* hex, "" when unknown */
	uint64_t base;        /* the p_vaddr of its first loadable segment */
	struct pgo_range *ranges;
	size_t nranges, ranges_cap;
	struct pgo_branch *branches;
	size_t nbranches, branches_cap;
};

/* A file written: its path (malloc'ed) and the binary it profiles. */
struct pgo_file {
	char *path;
	const char *binary;
};

/* Whether the files named from @prefix can be written (pgo_files.c),
 * found by making a file in their directory: 0, or HWT_ERR_NOENT (no
 * such directory), HWT_ERR_CONFIG (not a directory), HWT_ERR_PERM or
 * HWT_ERR_IO, the message naming @prefix and the directory. */
int hwt_pgo_check_prefix(const char *prefix);

/* Writes the profiles of @b[0..@nb) in format @f, one file each named
 * from @prefix (include/hwtrace/export.h says how), all renamed into
 * place when all are written; *files (free each path, then the array)
 * and *nfiles name them, also on failure. Errors: HWT_ERR_IO,
 * HWT_ERR_NOSPC, HWT_ERR_NOMEM, hwt_outfile_open's. */
int hwt_pgo_write_files(enum hwt_export_format f, const char *prefix,
			const struct pgo_binary *b, size_t nb,
			struct pgo_file **files, size_t *nfiles);

/* The profiles of a finished export, sorted by path (NULL, *@n 0, for
 * an export of another format); owned by @ex. For the partial results
 * of analysis/partial/. */
const struct pgo_binary *hwt_pgo_profiles(const struct hwt_export *ex,
					  size_t *n);

/* The writers: the text of @b's file in the format, to @out. The caller
 * checks the stream. */
void hwt_pgo_write_autofdo(const struct pgo_binary *b, FILE *out);
void hwt_pgo_write_fdata(const struct pgo_binary *b, FILE *out);
void hwt_pgo_write_preagg(const struct pgo_binary *b, FILE *out);

#endif
