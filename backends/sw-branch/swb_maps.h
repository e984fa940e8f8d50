/* A traced process's memory map (/proc/PID/maps) and symbol lookup in the
 * ELF files mapped there. */
#ifndef HWT_SWB_MAPS_H
#define HWT_SWB_MAPS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct hwt_swb_map {
	uint64_t start, end, offset;
	uint32_t maj, min;
	uint64_t ino;
	bool exec;
	char prot[5];
	char *path; /* NULL for anonymous mappings */
};

struct hwt_swb_maps {
	struct hwt_swb_map *v;
	size_t n;
};

/* Reads /proc/@pid/maps. Errors: HWT_ERR_IO, HWT_ERR_NOMEM. */
int hwt_swb_maps_read(pid_t pid, struct hwt_swb_maps *maps);
void hwt_swb_maps_clear(struct hwt_swb_maps *maps);

/* Resolves @spec in the process: "sym", "sym+0x10" (in @exe first, then in
 * every mapped ELF file), "sym@libc.so.6" (in that file only: a path, or
 * the name of a mapped file), "0x401000" (a run-time address) or
 * "0x1149@./prog" (an address in that file, plus where it is loaded).
 * Returns 0 with *addr set, HWT_ERR_NOENT when it is found nowhere (no
 * message: the caller may retry later), HWT_ERR_CONFIG when malformed. */
int hwt_swb_resolve(const struct hwt_swb_maps *maps, const char *exe,
		    const char *spec, uint64_t *addr);

/* The run-time address of @exe's entry point (e_entry, plus the load base
 * of a position-independent program). Errors: HWT_ERR_NOENT. */
int hwt_swb_entry(const struct hwt_swb_maps *maps, const char *exe,
		  uint64_t *addr);

#endif
