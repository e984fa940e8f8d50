/* ELF identity (machine, class, GNU build id) through libelf. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hwtrace/elfid.h"
#include "hwtrace/error.h"
#include "hwtrace/infile.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

/* The build id from the notes of one section or segment's bytes. */
static bool find_note(Elf *elf, Elf_Data *data, struct hwt_elf_id *out)
{
	GElf_Nhdr nh;
	size_t off = 0, name_off, desc_off;

	while (data && off < data->d_size &&
	       (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *name = (const char *)data->d_buf + name_off;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(name, "GNU", 4) && nh.n_descsz > 0) {
			size_t n = nh.n_descsz > HWT_BUILD_ID_MAX ? HWT_BUILD_ID_MAX
								  : nh.n_descsz;
			memcpy(out->build_id, (const uint8_t *)data->d_buf + desc_off, n);
			out->build_id_size = (uint8_t)n;
			return true;
		}
	}
	(void)elf;
	return false;
}

/* Sections first (.note.gnu.build-id), then PT_NOTE segments for files
 * whose section headers were stripped (kcore, some dumps). */
static void read_build_id(Elf *elf, struct hwt_elf_id *out)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		if (find_note(elf, elf_getdata(scn, NULL), out))
			return;
	}
	size_t nph = 0;
	if (elf_getphdrnum(elf, &nph))
		return;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		Elf_Data *d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset,
						   ph.p_filesz, ELF_T_NHDR);
		if (find_note(elf, d, out))
			return;
	}
}

static int identify(Elf *elf, struct hwt_elf_id *out)
{
	GElf_Ehdr eh;

	memset(out, 0, sizeof(*out));
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return 0;
	out->machine = eh.e_machine;
	out->elf_class = eh.e_ident[EI_CLASS];
	read_build_id(elf, out);
	return 1;
}

int hwt_elf_id_from_memory(const void *data, size_t size, struct hwt_elf_id *out)
{
	if (size < EI_NIDENT || memcmp(data, ELFMAG, SELFMAG)) {
		memset(out, 0, sizeof(*out));
		return 0;
	}
	elf_version(EV_CURRENT);
	/* libelf only reads an image opened with elf_memory. */
	Elf *elf = elf_memory((char *)data, size);
	int ret = identify(elf, out);
	elf_end(elf);
	return ret;
}

int hwt_elf_id_from_file(const char *path, struct hwt_elf_id *out)
{
	unsigned char ident[SELFMAG];

	memset(out, 0, sizeof(*out));
	int fd = hwt_infile_open(path, NULL, 0);
	if (fd < 0)
		return fd;
	if (pread(fd, ident, sizeof(ident), 0) != (ssize_t)sizeof(ident) ||
	    memcmp(ident, ELFMAG, SELFMAG)) {
		close(fd);
		return 0;
	}
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	int ret = identify(elf, out);
	elf_end(elf);
	close(fd);
	return ret;
}

int hwt_build_id_equal(const uint8_t *a, size_t asize, const uint8_t *b,
		       size_t bsize)
{
	if (asize > HWT_BUILD_ID_MAX)
		asize = HWT_BUILD_ID_MAX;
	if (bsize > HWT_BUILD_ID_MAX)
		bsize = HWT_BUILD_ID_MAX;
	if (!asize || !bsize)
		return asize == bsize;
	if (asize < bsize) {
		const uint8_t *t = a;
		a = b;
		b = t;
		size_t ts = asize;
		asize = bsize;
		bsize = ts;
	}
	if (memcmp(a, b, bsize))
		return 0;
	for (size_t i = bsize; i < asize; i++)
		if (a[i])
			return 0;
	return 1;
}

void hwt_build_id_hex(const uint8_t *id, size_t size, char *buf)
{
	if (size > HWT_BUILD_ID_MAX)
		size = HWT_BUILD_ID_MAX;
	for (size_t i = 0; i < size; i++)
		snprintf(buf + 2 * i, 3, "%02x", id[i]);
	buf[2 * size] = 0;
}
