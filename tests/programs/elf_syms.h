/* Test-side ELF reading (libelf): symbol values and the executable
 * segment of a test program, independent of the library's own code. */
#ifndef HWT_TESTS_ELF_SYMS_H
#define HWT_TESTS_ELF_SYMS_H

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The value of symbol @name in @path's .symtab; 0 when absent. */
static inline uint64_t test_elf_sym(const char *path, const char *name)
{
	uint64_t value = 0;
	elf_version(EV_CURRENT);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL;
	while (elf && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; data && i < n; i++) {
			GElf_Sym sym;
			if (!gelf_getsym(data, (int)i, &sym))
				continue;
			const char *s = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (s && !strcmp(s, name)) {
				value = sym.st_value;
				break;
			}
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return value;
}

/* The executable PT_LOAD segment: its link-time address, file offset and
 * file size. Returns 0 on success. */
static inline int test_elf_text(const char *path, uint64_t *vaddr,
				uint64_t *offset, uint64_t *size)
{
	int ret = -1;
	elf_version(EV_CURRENT);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	size_t n = 0;
	if (elf && !elf_getphdrnum(elf, &n)) {
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr ph;
			if (!gelf_getphdr(elf, (int)i, &ph))
				continue;
			if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
				*vaddr = ph.p_vaddr;
				*offset = ph.p_offset;
				*size = ph.p_filesz;
				ret = 0;
				break;
			}
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

/* $HWT_BUILD_DIR/tests/programs/@name, or exits with a reason. */
static inline const char *test_program(const char *name)
{
	static char path[4096];
	const char *dir = getenv("HWT_BUILD_DIR");
	if (!dir) {
		fprintf(stderr, "HWT_BUILD_DIR is not set: run this test "
			"through ctest, which sets it\n");
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/tests/programs/%s", dir, name);
	if (access(path, X_OK)) {
		fprintf(stderr, "%s is missing: build the tests/programs "
			"targets first\n", path);
		exit(1);
	}
	return path;
}

#endif
