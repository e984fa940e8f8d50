/* Address filters: perf's --filter syntax resolved with libelf into the
 * kernel's "ACTION 0xADDR[/0xSIZE][@/abs/path]" string, and the closest
 * function name of a file for a symbol it lacks. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwtrace/addrfilter.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/infile.h"

#define SEPARATORS ",\n"
#define MAX_DEFS 8

struct sym_defs {
	uint64_t off[MAX_DEFS], size[MAX_DEFS];
	size_t n;
};

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static bool parse_number(const char *s, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && !*end;
}

size_t hwt_addr_filter_count(const char *filters)
{
	size_t n = 0;

	for (const char *p = filters; p && *p;) {
		size_t len = strcspn(p, SEPARATORS);
		for (size_t i = 0; i < len; i++)
			if (!isspace((unsigned char)p[i])) {
				n++;
				break;
			}
		p += len;
		if (*p)
			p++;
	}
	return n;
}

/* A bare program name is found the way execvp finds it. */
static int find_file(const char *quoted, const char *file, char *abs)
{
	if (!strchr(file, '/')) {
		const char *path = getenv("PATH");
		char cand[PATH_MAX];

		for (const char *p = path ? path : ""; *p;) {
			size_t len = strcspn(p, ":");
			if (len && (size_t)snprintf(cand, sizeof(cand), "%.*s/%s",
						    (int)len, p, file) < sizeof(cand) &&
			    access(cand, X_OK) == 0 && realpath(cand, abs))
				return 0;
			p += len;
			if (*p)
				p++;
		}
	}
	if (!realpath(file, abs))
		return hwt_error(errno == ENOENT ? HWT_ERR_NOENT : HWT_ERR_IO,
				 "filter \"%s\": %s: %s", quoted, file,
				 strerror(errno));
	return 0;
}

static void add_def(struct sym_defs *d, uint64_t off, uint64_t size)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->off[i] == off) {
			if (size > d->size[i])
				d->size[i] = size;
			return;
		}
	if (d->n < MAX_DEFS) {
		size_t i = d->n++;
		/* Sorted by offset, so an ambiguity is told the same way
		 * whatever the order of the symbol tables. */
		for (; i > 0 && d->off[i - 1] > off; i--) {
			d->off[i] = d->off[i - 1];
			d->size[i] = d->size[i - 1];
		}
		d->off[i] = off;
		d->size[i] = size;
	}
}

/* Calls @cb with each symbol of @elf's .symtab and .dynsym that is
 * defined in a section of the file (not undefined, absolute or common),
 * with its name. */
static void each_symbol(Elf *elf,
			void (*cb)(void *arg, Elf *elf, const char *name,
				   const GElf_Sym *sym),
			void *arg)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;

			if (!gelf_getsym(data, (int)i, &sym) ||
			    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
				continue;
			n = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (n && *n)
				cb(arg, elf, n, &sym);
		}
	}
}

struct name_defs {
	const char *name;
	struct sym_defs *d;
};

static void def_of_name(void *arg, Elf *elf, const char *name,
			const GElf_Sym *sym)
{
	struct name_defs *nd = arg;
	int type = GELF_ST_TYPE(sym->st_info);
	GElf_Shdr home;

	if ((type != STT_FUNC && type != STT_OBJECT && type != STT_GNU_IFUNC &&
	     type != STT_NOTYPE) || strcmp(name, nd->name) ||
	    !gelf_getshdr(elf_getscn(elf, sym->st_shndx), &home))
		return;
	add_def(nd->d, sym->st_value - home.sh_addr + home.sh_offset,
		sym->st_size);
}

/* Every definition of @name in the symbol tables of @elf, as file offsets:
 * the kernel places a filter by the offset in the file it maps. */
static void scan_symbols(Elf *elf, const char *name, struct sym_defs *d)
{
	struct name_defs nd = {name, d};
	each_symbol(elf, def_of_name, &nd);
}

/* The functions' names of a file, borrowed from its string tables (valid
 * until elf_end); on running out of memory, none (no suggestion). */
struct name_list {
	const char **v;
	size_t n, cap;
	bool oom;
};

static void add_function_name(void *arg, Elf *elf, const char *name,
			      const GElf_Sym *sym)
{
	struct name_list *l = arg;
	int type = GELF_ST_TYPE(sym->st_info);

	(void)elf;
	if ((type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE) ||
	    !sym->st_value || l->oom)
		return;
	if (l->n == l->cap) {
		size_t ncap = l->cap ? 2 * l->cap : 256;
		const char **grown = realloc(l->v, ncap * sizeof(*l->v));
		if (!grown) {
			l->oom = true;
			return;
		}
		l->v = grown;
		l->cap = ncap;
	}
	l->v[l->n++] = name;
}

/* The function of @elf whose name is closest to @name, other than @name
 * itself, into @out: true when there is one. */
static bool nearest_in_elf(Elf *elf, const char *name, char *out, size_t size)
{
	struct name_list l = {0};
	bool found = false;

	each_symbol(elf, add_function_name, &l);
	const char *near = l.oom ? NULL : hwt_config_nearest(name, l.v, l.n);
	if (near && strcmp(near, name) && size) {
		snprintf(out, size, "%s", near);
		found = true;
	}
	free(l.v);
	return found;
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
	if (elf && elf_kind(elf) == ELF_K_ELF)
		found = nearest_in_elf(elf, name, out, size);
	if (elf)
		elf_end(elf);
	close(fd);
	return found;
}

static int lookup_symbol(const char *quoted, const char *name,
			 const char *file, uint64_t *off, uint64_t *size)
{
	struct sym_defs d = {0};
	Elf *elf;
	int fd, ret = 0;

	elf_version(EV_CURRENT);
	fd = hwt_infile_open(file, NULL, 0);
	if (fd < 0) {
		char why[1024];
		snprintf(why, sizeof(why), "%s", hwt_errmsg());
		return hwt_error(fd, "filter \"%s\": %s", quoted, why);
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		ret = hwt_error(HWT_ERR_FORMAT, "filter \"%s\": %s is not an ELF "
				"file, so symbol %s cannot be looked up in it; "
				"give an address instead", quoted, file, name);
		goto out;
	}
	scan_symbols(elf, name, &d);
	if (d.n == 0) {
		char near[256];
		if (nearest_in_elf(elf, name, near, sizeof(near)))
			ret = hwt_error(HWT_ERR_CONFIG, "filter \"%s\": no symbol "
					"%s in %s; did you mean %s? (list its "
					"symbols with: nm %s)", quoted, name,
					file, near, file);
		else
			ret = hwt_error(HWT_ERR_CONFIG, "filter \"%s\": no symbol "
					"%s in %s (list its symbols with: nm %s)",
					quoted, name, file, file);
	} else if (d.n > 1) {
		char list[256];
		size_t at = 0;

		for (size_t i = 0; i < d.n && at < sizeof(list); i++)
			at += (size_t)snprintf(list + at, sizeof(list) - at,
					       "%s0x%" PRIx64 "/0x%" PRIx64,
					       i ? ", " : "", d.off[i], d.size[i]);
		ret = hwt_error(HWT_ERR_CONFIG, "filter \"%s\": symbol %s is "
				"ambiguous: %zu symbols of that name in %s (%s); "
				"give one of the addresses instead", quoted, name,
				d.n, file, list);
	} else {
		*off = d.off[0];
		*size = d.size[0];
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

static int resolve_one(char *text, const char *default_file, char *out,
		       size_t size, size_t *used)
{
	char quoted[256], abs[PATH_MAX], *at, *slash, *src, *file = NULL;
	const char *action;
	size_t alen;
	uint64_t addr = 0, len = 0;
	bool has_size = false, range;
	int n;

	snprintf(quoted, sizeof(quoted), "%s", text);
	alen = strcspn(text, " \t");
	if (alen == 6 && !strncmp(text, "filter", 6))
		action = "filter", range = true;
	else if (alen == 5 && !strncmp(text, "start", 5))
		action = "start", range = false;
	else if (alen == 4 && !strncmp(text, "stop", 4))
		action = "stop", range = false;
	else if (alen == 9 && !strncmp(text, "tracestop", 9))
		action = "stop", range = true;
	else
		return hwt_error(HWT_ERR_CONFIG, "filter \"%s\": %.*s is not an "
				 "action: each filter is \"filter|start|stop|"
				 "tracestop SYMBOL|ADDR[/SIZE] [@ FILE]\", e.g. "
				 "filter main @ /bin/ls", quoted, (int)alen, text);
	src = text + alen;
	if ((at = strchr(src, '@'))) {
		*at = '\0';
		file = trim(at + 1);
		if (!*file)
			return hwt_error(HWT_ERR_CONFIG, "filter \"%s\": no file "
					 "after @", quoted);
	}
	if ((slash = strchr(src, '/'))) {
		*slash = '\0';
		if (!parse_number(trim(slash + 1), &len) || !len)
			return hwt_error(HWT_ERR_CONFIG, "filter \"%s\": size "
					 "\"%s\" is not a number above 0", quoted,
					 trim(slash + 1));
		has_size = true;
	}
	src = trim(src);
	if (!*src || strpbrk(src, " \t"))
		return hwt_error(HWT_ERR_CONFIG, "filter \"%s\": want one symbol "
				 "or address after %.*s", quoted, (int)alen, text);
	/* As perf: a number without @ FILE is a kernel address; only a
	 * symbol falls back to the command's executable. */
	if (!file && !isdigit((unsigned char)*src))
		file = (char *)default_file;
	if (file) {
		int ret = find_file(quoted, file, abs);
		if (ret)
			return ret;
	}
	if (!parse_number(src, &addr)) {
		uint64_t sym_size = 0;
		int ret;

		if (!file)
			return hwt_error(HWT_ERR_CONFIG, "filter \"%s\": no file to "
					 "look up symbol %s in; add @ FILE (kernel "
					 "symbols are not looked up)", quoted, src);
		ret = lookup_symbol(quoted, src, abs, &addr, &sym_size);
		if (ret)
			return ret;
		if (range && !has_size) {
			if (!sym_size)
				return hwt_error(HWT_ERR_CONFIG, "filter \"%s\": "
						 "symbol %s in %s has size 0; give "
						 "the size: %s/SIZE", quoted, src,
						 abs, src);
			len = sym_size;
			has_size = true;
		}
	}
	if (range && !has_size)
		return hwt_error(HWT_ERR_CONFIG, "filter \"%s\": a range needs "
				 "a size: %s/SIZE", quoted, src);
	range = range || has_size;
	n = snprintf(out, size, "%s%s 0x%" PRIx64, *used ? "," : "", action,
		     addr);
	if (n >= 0 && (size_t)n < size && range)
		n += snprintf(out + n, size - (size_t)n, "/0x%" PRIx64, len);
	if (n >= 0 && (size_t)n < size && file)
		n += snprintf(out + n, size - (size_t)n, "@%s", abs);
	if (n < 0 || (size_t)n >= size)
		return hwt_error(HWT_ERR_NOSPC, "filter \"%s\": the resolved "
				 "filters are longer than %zu characters", quoted,
				 size - 1 + *used);
	*used += (size_t)n;
	return 0;
}

int hwt_addr_filter_resolve(const char *filters, const char *default_file,
			    char *out, size_t size, size_t *count)
{
	char *copy;
	size_t used = 0, n = 0;
	int ret = 0;

	if (count)
		*count = 0;
	if (!out || !size)
		return hwt_error(HWT_ERR_INVAL, "address filters: no output buffer");
	out[0] = '\0';
	if (!filters || !*filters)
		return 0;
	copy = strdup(filters);
	if (!copy)
		return hwt_error(HWT_ERR_NOMEM, "no memory for address filters");
	for (char *save = NULL, *f = strtok_r(copy, SEPARATORS, &save); f;
	     f = strtok_r(NULL, SEPARATORS, &save)) {
		f = trim(f);
		if (!*f)
			continue;
		ret = resolve_one(f, default_file, out + used, size - used, &used);
		if (ret)
			break;
		n++;
	}
	free(copy);
	if (ret)
		out[0] = '\0';
	else if (count)
		*count = n;
	return ret;
}
