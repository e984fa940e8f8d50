/* What an ELF file says about itself: its GNU build id and the machine its
 * code is for. Decoding checks them against the capture (a rebuilt program
 * or a binary of another architecture is refused as perf does); recording
 * writes the build ids of the binaries it traced into the capture. */
#ifndef HWTRACE_ELFID_H
#define HWTRACE_ELFID_H

#include <stddef.h>
#include <stdint.h>

#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* perf keeps at most 20 bytes of a build id (a SHA-1). */
#define HWT_BUILD_ID_MAX 20

struct hwt_elf_id {
	uint16_t machine;       /* e_machine: EM_X86_64, EM_AARCH64, ... */
	uint8_t elf_class;      /* ELFCLASS32 or ELFCLASS64 */
	uint8_t build_id_size;  /* 0: no .note.gnu.build-id */
	uint8_t build_id[HWT_BUILD_ID_MAX];
};

/* Reads the identity of the ELF image in @data. Returns 1 with *out filled,
 * 0 when @data is not an ELF file (a raw memory dump, say). */
HWT_API int hwt_elf_id_from_memory(const void *data, size_t size,
				   struct hwt_elf_id *out);

/* The same for the file @path. Errors: HWT_ERR_NOENT, HWT_ERR_IO. */
HWT_API int hwt_elf_id_from_file(const char *path, struct hwt_elf_id *out);

/* Whether two build ids are the same; the shorter may be padded with zero
 * bytes to 20, as perf and simpleperf write 16-byte ids in their headers. */
HWT_API int hwt_build_id_equal(const uint8_t *a, size_t asize,
			       const uint8_t *b, size_t bsize);

/* @id as lowercase hex into @buf (at least 2 * HWT_BUILD_ID_MAX + 1 bytes). */
HWT_API void hwt_build_id_hex(const uint8_t *id, size_t size, char *buf);

#ifdef __cplusplus
}
#endif

#endif
