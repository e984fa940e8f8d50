/* The "did you mean" of an unknown symbol in a filter or trigger: the
 * function of an ELF file whose name is closest to the one given. */
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwtrace/addrfilter.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/infile.h"

/* The defined functions' names of @elf's symbol tables, borrowed from
 * its string tables (valid until elf_end); NULL with *@n 0 when there are
 * none or memory ran out (then there is only no suggestion). */
static const char **function_names(Elf *elf, size_t *n)
{
	const char **v = NULL;
	size_t cap = 0;
	Elf_Scn *scn = NULL;

	*n = 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *s;
			int type;

			if (!gelf_getsym(data, (int)i, &sym) ||
			    sym.st_shndx == SHN_UNDEF || !sym.st_value)
				continue;
			type = GELF_ST_TYPE(sym.st_info);
			if (type != STT_FUNC && type != STT_GNU_IFUNC &&
			    type != STT_NOTYPE)
				continue;
			s = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!s || !*s)
				continue;
			if (*n == cap) {
				size_t ncap = cap ? 2 * cap : 256;
				const char **grown = realloc(v, ncap * sizeof(*v));
				if (!grown) {
					free(v);
					*n = 0;
					return NULL;
				}
				v = grown;
				cap = ncap;
			}
			v[(*n)++] = s;
		}
	}
	return v;
}

bool hwt_addr_filter_nearest_symbol(const char *file, const char *name,
				    char *out, size_t size)
{
	bool found = false;
	Elf *elf;
	int fd;

	elf_version(EV_CURRENT);
	fd = hwt_infile_open(file, NULL, 0);
	if (fd < 0) {
		hwt_error_clear();
		return false;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		size_t n;
		const char **names = function_names(elf, &n);
		const char *near = hwt_config_nearest(name, names, n);

		if (near && strcmp(near, name) && size) {
			snprintf(out, size, "%s", near);
			found = true;
		}
		free(names);
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return found;
}
