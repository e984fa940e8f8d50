/* `--elf FILE`: a program's load segments as the memory image, as a
 * loader maps them (RISC-V traces come with the ELF, not with mmap
 * records). */
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

#include "hwtrace/error.h"
#include "hwtrace/image.h"
#include "hwtrace/infile.h"

int hwt_image_add_elf(struct hwt_image *image, int32_t pid, const char *path,
		      uint64_t bias)
{
	int fd = hwt_infile_open(path, "--elf", 0);
	if (fd < 0)
		return fd;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		close(fd);
		return hwt_error(HWT_ERR_IO, "--elf %s: libelf: %s", path,
				 elf_errmsg(-1));
	}
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	size_t nph = 0;
	int err = 0, loaded = 0;

	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &nph)) {
		err = hwt_error(HWT_ERR_FORMAT, "--elf %s: not an ELF file with "
				"program headers", path);
		goto out;
	}
	for (size_t i = 0; i < nph && err >= 0; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph)) {
			err = hwt_error(HWT_ERR_FORMAT, "--elf %s: program header "
					"%zu is unreadable: %s", path, i,
					elf_errmsg(-1));
			break;
		}
		/* Bytes of the file only: .bss holds no code. */
		if (ph.p_type != PT_LOAD || !ph.p_filesz)
			continue;
		err = hwt_image_add_file(image, pid, ph.p_vaddr + bias,
					 ph.p_filesz, path, ph.p_offset);
		if (err == HWT_ERR_NOENT)
			err = hwt_error(HWT_ERR_FORMAT, "--elf %s: segment %zu "
					"(offset 0x%llx, 0x%llx bytes) is past "
					"the end of the file", path, i,
					(unsigned long long)ph.p_offset,
					(unsigned long long)ph.p_filesz);
		loaded++;
	}
	if (err >= 0 && !loaded)
		err = hwt_error(HWT_ERR_FORMAT, "--elf %s: no loadable segment "
				"with file contents", path);
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return err < 0 ? err : 0;
}
