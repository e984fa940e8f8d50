/* The kernel's code for the memory image: a kcore copy (perf record
 * --kcore) or a vmlinux, from their ELF program headers. */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "core/decode/decode_internal.h"
#include "hwtrace/error.h"

/* Adds the loadable segments of the ELF file @path, moved by @reloc.
 * @first_exec gets the address of the first executable segment. */
static int add_elf_loads(struct hwt_image *image, const char *path,
			 const char *what, uint64_t reloc, bool dry_run,
			 uint64_t *first_exec)
{
	struct hwt_mapped m;
	int err = hwt_mapped_open(&m, path, what);
	if (err < 0)
		return err;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)m.data;
	if (m.size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_phoff > m.size ||
	    eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > m.size - eh->e_phoff) {
		hwt_mapped_close(&m);
		return hwt_error(HWT_ERR_FORMAT,
				 "%s %s: not a 64-bit ELF file with program headers",
				 what, path);
	}
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(m.data + eh->e_phoff);
	bool found = false;
	for (unsigned i = 0; i < eh->e_phnum && err >= 0; i++) {
		if (ph[i].p_type != PT_LOAD || !ph[i].p_filesz)
			continue;
		if (!found && (ph[i].p_flags & PF_X)) {
			*first_exec = ph[i].p_vaddr;
			found = true;
		}
		if (!dry_run)
			err = hwt_image_add_file(image, HWT_PID_ANY,
						 ph[i].p_vaddr + reloc,
						 ph[i].p_filesz, path,
						 ph[i].p_offset);
	}
	hwt_mapped_close(&m);
	if (err >= 0 && !found)
		err = hwt_error(HWT_ERR_FORMAT, "%s %s: no executable segment",
				what, path);
	return err;
}

int hwt_decode_add_kcore(struct hwt_image *image, const char *dir)
{
	char path[4096];
	uint64_t first;
	snprintf(path, sizeof(path), "%s/kcore", dir);
	return add_elf_loads(image, path, "--kcore", 0, false, &first);
}

int hwt_decode_add_vmlinux(struct hwt_image *image, const char *path,
			   uint64_t text_start)
{
	/* KASLR moves the kernel: its first executable segment (_text) is
	 * where the kernel's MMAP record says _text was at run time. */
	uint64_t first = 0;
	int err = add_elf_loads(image, path, "--vmlinux", 0, true, &first);
	if (err < 0)
		return err;
	return add_elf_loads(image, path, "--vmlinux", text_start - first,
			     false, &first);
}
