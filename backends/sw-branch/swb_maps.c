/* /proc/PID/maps and ELF symbol tables. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/sw-branch/swb_maps.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"

void hwt_swb_maps_clear(struct hwt_swb_maps *maps)
{
	for (size_t i = 0; i < maps->n; i++)
		free(maps->v[i].path);
	free(maps->v);
	maps->v = NULL;
	maps->n = 0;
}

/* The kernel writes a newline in a mapped file's path as "\012" (it is
 * the one character /proc/PID/maps escapes, since it ends the line): the
 * path of the file is the one with the newline. */
static void unescape_newlines(char *path)
{
	char *w = path;
	for (const char *r = path; *r;) {
		if (!strncmp(r, "\\012", 4)) {
			*w++ = '\n';
			r += 4;
		} else {
			*w++ = *r++;
		}
	}
	*w = 0;
}

int hwt_swb_maps_read(pid_t pid, struct hwt_swb_maps *maps)
{
	char name[64], line[4096 + 256];
	size_t cap = 0;

	maps->v = NULL;
	maps->n = 0;
	snprintf(name, sizeof(name), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(name, "re");
	if (!f)
		return hwt_error(HWT_ERR_IO, "%s: %s", name, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		struct hwt_swb_map m = {0};
		int pathpos = 0;
		unsigned long long start, end, off, ino;
		if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end,
			   m.prot, &off, &m.maj, &m.min, &ino, &pathpos) < 7)
			continue;
		m.start = start;
		m.end = end;
		m.offset = off;
		m.ino = ino;
		m.exec = m.prot[2] == 'x';
		char *p = line + pathpos;
		p[strcspn(p, "\n")] = 0;
		if (*p == '/') {
			m.path = strdup(p);
			if (!m.path)
				goto nomem;
			unescape_newlines(m.path);
		}
		if (maps->n == cap) {
			size_t ncap = cap ? 2 * cap : 32;
			void *n = realloc(maps->v, ncap * sizeof(*maps->v));
			if (!n) {
				free(m.path);
				goto nomem;
			}
			maps->v = n;
			cap = ncap;
		}
		maps->v[maps->n++] = m;
	}
	fclose(f);
	return 0;
nomem:
	fclose(f);
	hwt_swb_maps_clear(maps);
	return hwt_error(HWT_ERR_NOMEM, "out of memory reading %s", name);
}

/* Calls @cb with each defined function symbol of @elf, .symtab first (it
 * has the local functions too), then .dynsym, until @cb returns true. */
static void each_function(Elf *elf, bool (*cb)(void *arg, const char *name,
					       uint64_t value), void *arg)
{
	for (int pass = 0; pass < 2; pass++) {
		Elf_Scn *scn = NULL;
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			if (!gelf_getshdr(scn, &sh) ||
			    sh.sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB) ||
			    !sh.sh_entsize)
				continue;
			Elf_Data *data = elf_getdata(scn, NULL);
			size_t n = sh.sh_size / sh.sh_entsize;
			for (size_t i = 0; data && i < n; i++) {
				GElf_Sym sym;
				if (!gelf_getsym(data, (int)i, &sym) ||
				    sym.st_shndx == SHN_UNDEF || !sym.st_value)
					continue;
				int type = GELF_ST_TYPE(sym.st_info);
				if (type != STT_FUNC && type != STT_NOTYPE &&
				    type != STT_GNU_IFUNC)
					continue;
				const char *s = elf_strptr(elf, sh.sh_link, sym.st_name);
				if (s && *s && cb(arg, s, sym.st_value))
					return;
			}
		}
	}
}

struct name_match {
	const char *name;
	uint64_t value;
	bool found;
};

static bool match_name(void *arg, const char *name, uint64_t value)
{
	struct name_match *m = arg;

	if (strcmp(name, m->name))
		return false;
	m->value = value;
	m->found = true;
	return true;
}

/* @path opened for libelf: *fd -1 when it cannot be opened, else the
 * descriptor to close (the Elf NULL when it is not ELF). */
static Elf *elf_open(const char *path, int *fd)
{
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	return elf_begin(*fd, ELF_C_READ, NULL);
}

/* The value of a defined symbol @name in @path, and whether the file is
 * position independent (ET_DYN) and its first loadable address. */
static int elf_symbol(const char *path, const char *name, uint64_t *value,
		      bool *dyn, uint64_t *first_vaddr)
{
	int ret = HWT_ERR_NOENT, fd;
	Elf *elf = elf_open(path, &fd);
	if (fd < 0)
		return HWT_ERR_NOENT;
	GElf_Ehdr eh;
	if (!elf || !gelf_getehdr(elf, &eh))
		goto out;
	*dyn = eh.e_type == ET_DYN;
	*first_vaddr = 0;
	size_t nph = 0;
	if (!elf_getphdrnum(elf, &nph)) {
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;
			if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD) {
				*first_vaddr = ph.p_vaddr & ~(uint64_t)0xfff;
				break;
			}
		}
	}
	struct name_match m = {name, 0, false};
	if (*name)
		each_function(elf, match_name, &m);
	if (m.found) {
		*value = m.value;
		ret = 0;
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

/* Where file @path is loaded: its lowest mapping minus the offset. */
static bool load_base(const struct hwt_swb_maps *maps, const char *path,
		      uint64_t *base)
{
	bool found = false;
	for (size_t i = 0; i < maps->n; i++) {
		const struct hwt_swb_map *m = &maps->v[i];
		if (!m->path || strcmp(m->path, path))
			continue;
		uint64_t b = m->start - m->offset;
		if (!found || b < *base)
			*base = b;
		found = true;
	}
	return found;
}

static int lookup_in(const struct hwt_swb_maps *maps, const char *path,
		     const char *name, uint64_t *addr)
{
	uint64_t value, first, base = 0;
	bool dyn;

	if (!load_base(maps, path, &base))
		return HWT_ERR_NOENT;
	if (elf_symbol(path, name, &value, &dyn, &first))
		return HWT_ERR_NOENT;
	*addr = dyn ? base - first + value : value;
	return 0;
}

/* Whether mapped file @path is the one a user named @want: the same path,
 * or the same file name ("libc.so.6" names /usr/lib/.../libc.so.6). */
static bool names_file(const char *path, const char *want)
{
	char real[4096];
	const char *slash = strrchr(path, '/');

	if (!strcmp(path, want))
		return true;
	if (strchr(want, '/'))
		return realpath(want, real) && !strcmp(path, real);
	return slash && !strcmp(slash + 1, want);
}

static void trim(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = 0;
	size_t k = strspn(s, " \t");
	memmove(s, s + k, strlen(s + k) + 1);
}

int hwt_swb_resolve(const struct hwt_swb_maps *maps, const char *exe,
		    const char *spec, uint64_t *addr)
{
	char name[512], file[4096] = "";
	uint64_t off = 0;
	char *end;

	/* SYMBOL[+OFFSET][@FILE] or 0xADDR[@FILE] (an offset in FILE) */
	const char *at = strchr(spec, '@');
	size_t len = at ? (size_t)(at - spec) : strlen(spec);
	if (!len || len >= sizeof(name) || (at && strlen(at + 1) >= sizeof(file)))
		return hwt_error(HWT_ERR_CONFIG, "'%s' is not a symbol or address "
				 "(want SYMBOL[+OFFSET][@FILE] or 0xHEX[@FILE])",
				 spec);
	memcpy(name, spec, len);
	name[len] = 0;
	trim(name);
	if (at) {
		strcpy(file, at + 1);
		trim(file);
		if (!file[0])
			return hwt_error(HWT_ERR_CONFIG, "'%s': no file after '@'",
					 spec);
	}
	if (!strncmp(name, "0x", 2)) {
		errno = 0;
		*addr = strtoull(name, &end, 16);
		if (errno || *end)
			return hwt_error(HWT_ERR_CONFIG, "'%s' is not an address "
					 "(want 0xHEX or SYMBOL[+OFFSET])", spec);
		if (!file[0])
			return 0;
		/* An address in a file: where that file is loaded. */
		for (size_t i = 0; i < maps->n; i++) {
			const struct hwt_swb_map *m = &maps->v[i];
			uint64_t base = 0;
			if (m->path && names_file(m->path, file) &&
			    load_base(maps, m->path, &base)) {
				uint64_t value = 0, first = 0;
				bool dyn = false;
				elf_symbol(m->path, "", &value, &dyn, &first);
				if (dyn)
					*addr += base - first;
				return 0;
			}
		}
		return HWT_ERR_NOENT;
	}
	char *plus = strchr(name, '+');
	if (plus) {
		errno = 0;
		off = strtoull(plus + 1, &end, 0);
		if (errno || *end || end == plus + 1)
			return hwt_error(HWT_ERR_CONFIG, "'%s': bad offset after "
					 "'+'", spec);
		*plus = 0;
		trim(name);
	}
	if (!file[0] && exe && !lookup_in(maps, exe, name, addr)) {
		*addr += off;
		return 0;
	}
	for (size_t i = 0; i < maps->n; i++) {
		const struct hwt_swb_map *m = &maps->v[i];
		if (!m->exec || !m->path)
			continue;
		if (file[0] ? !names_file(m->path, file)
			    : exe && !strcmp(m->path, exe))
			continue;
		if (!lookup_in(maps, m->path, name, addr)) {
			*addr += off;
			return 0;
		}
	}
	return HWT_ERR_NOENT;
}

int hwt_swb_entry(const struct hwt_swb_maps *maps, const char *exe,
		  uint64_t *addr)
{
	uint64_t value = 0, first = 0, base = 0;
	bool dyn = false;
	int ret = HWT_ERR_NOENT;

	if (!load_base(maps, exe, &base))
		return hwt_error(HWT_ERR_NOENT, "%s is not mapped", exe);
	/* elf_symbol() with no name to find reads the header facts only. */
	elf_symbol(exe, "", &value, &dyn, &first);
	int fd = open(exe, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		elf_version(EV_CURRENT);
		Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
		GElf_Ehdr eh;
		if (elf && gelf_getehdr(elf, &eh) && eh.e_entry) {
			*addr = dyn ? base - first + eh.e_entry : eh.e_entry;
			ret = 0;
		}
		if (elf)
			elf_end(elf);
		close(fd);
	}
	if (ret)
		return hwt_error(HWT_ERR_NOENT, "%s: no ELF entry point", exe);
	return 0;
}
