/* A binary's load segments, build id, function symbols (.symtab, else
 * .dynsym) and PLT entries, named `sym@plt` as perf names them. */
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/symbols/symbols_internal.h"
#include "hwtrace/error.h"
#include "hwtrace/infile.h"

bool elf_build_id(void *elf_, uint8_t *out, size_t *size)
{
	Elf *elf = elf_;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t off = 0, name_off, desc_off;
		GElf_Nhdr nh;
		while (data && (off = gelf_getnote(data, off, &nh, &name_off,
						   &desc_off)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)data->d_buf + name_off, "GNU", 4) &&
			    nh.n_descsz && nh.n_descsz <= 64) {
				memcpy(out, (char *)data->d_buf + desc_off,
				       nh.n_descsz);
				*size = nh.n_descsz;
				return true;
			}
		}
	}
	return false;
}

static int add_symbols_of(struct dso *d, Elf *elf,
			  Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	Elf_Scn *str_scn = elf_getscn(elf, sh->sh_link);
	Elf_Data *str = str_scn ? elf_getdata(str_scn, NULL) : NULL;
	if (!data || !sh->sh_entsize || !str || !str->d_buf || !str->d_size)
		return 0;
	void *grown = realloc(d->strtabs, (d->nstrtabs + 1) * sizeof(*d->strtabs));
	char *copy = malloc(str->d_size + 1);
	if (!grown || !copy) {
		free(copy);
		if (grown)
			d->strtabs = grown;
		return hwt_error(HWT_ERR_NOMEM, "out of memory for symbols");
	}
	d->strtabs = grown;
	d->strtabs[d->nstrtabs++] = copy;
	memcpy(copy, str->d_buf, str->d_size);
	copy[str->d_size] = 0; /* a damaged table still ends */
	size_t n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym s;
		if (!gelf_getsym(data, (int)i, &s))
			break;
		int type = GELF_ST_TYPE(s.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    s.st_shndx == SHN_UNDEF || !s.st_value)
			continue;
		if (s.st_name >= str->d_size || !copy[s.st_name])
			continue;
		/* Names are demangled when first shown (symbolizer.c): most
		 * are never looked at. */
		struct sym_entry *e = sym_table_add(&d->syms, s.st_value,
						    s.st_size, copy + s.st_name);
		if (!e)
			return hwt_error(HWT_ERR_NOMEM, "out of memory for symbols");
		e->local = GELF_ST_BIND(s.st_info) == STB_LOCAL;
	}
	return 0;
}

/* PLT stubs: entry i of .plt (after its header) or .plt.sec jumps through
 * the i-th .rela.plt slot, whose symbol names the stub. */
/* The name objdump gives the PLT slot of relocation @r: "sym@plt", or
 * for a relocation without a symbol (an IRELATIVE one: an ifunc the
 * library resolves for itself) "*ABS*+0xADDEND@plt". False when it has
 * neither. */
static bool plt_name(Elf *elf, Elf_Data *syms, size_t strtab,
		     uint16_t machine, const GElf_Rela *r, char *buf,
		     size_t size)
{
	GElf_Sym s;
	if (GELF_R_SYM(r->r_info)) {
		if (!gelf_getsym(syms, (int)GELF_R_SYM(r->r_info), &s))
			return false;
		const char *name = elf_strptr(elf, strtab, s.st_name);
		if (!name || !*name)
			return false;
		snprintf(buf, size, "%s@plt", name);
		return true;
	}
	uint32_t type = (uint32_t)GELF_R_TYPE(r->r_info);
	bool irelative = (machine == EM_X86_64 && type == R_X86_64_IRELATIVE) ||
			 (machine == EM_386 && type == R_386_IRELATIVE) ||
			 (machine == EM_AARCH64 && type == R_AARCH64_IRELATIVE);
	if (!irelative)
		return false;
	snprintf(buf, size, "*ABS*+0x%" PRIx64 "@plt", (uint64_t)r->r_addend);
	return true;
}

static int add_plt(struct hwt_sym_ctx *ctx, struct dso *d, Elf *elf)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	Elf_Scn *scn = NULL, *rela = NULL;
	GElf_Shdr sh, rela_sh = {0}, plt_sh = {0}, sec_sh = {0}, got_sh = {0};
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			continue;
		if (!strcmp(name, ".plt"))
			plt_sh = sh;
		else if (!strcmp(name, ".plt.sec"))
			sec_sh = sh;
		else if (!strcmp(name, ".got.plt"))
			got_sh = sh;
		else if (!strcmp(name, ".rela.plt") && sh.sh_type == SHT_RELA) {
			rela = scn;
			rela_sh = sh;
		}
	}
	if (!rela || (!plt_sh.sh_size && !sec_sh.sh_size) || !rela_sh.sh_entsize)
		return 0;
	uint64_t first, entsize = 16;
	if (sec_sh.sh_size)
		first = sec_sh.sh_addr;
	else if (d->machine == EM_AARCH64)
		first = plt_sh.sh_addr + 32;
	else if (d->machine == EM_X86_64 || d->machine == EM_386)
		first = plt_sh.sh_addr + 16;
	else
		return 0;
	Elf_Scn *dynsym = elf_getscn(elf, rela_sh.sh_link);
	GElf_Shdr dsh;
	Elf_Data *rdata = elf_getdata(rela, NULL);
	Elf_Data *sdata = dynsym ? elf_getdata(dynsym, NULL) : NULL;
	if (!rdata || !sdata || !gelf_getshdr(dynsym, &dsh))
		return 0;
	size_t n = rela_sh.sh_size / rela_sh.sh_entsize;
	/* Slot k jumps through .got.plt's word 3 + k (after the three the
	 * dynamic linker keeps): a relocation's slot is where its GOT word
	 * is, not its place in .rela.plt (libc lists its IRELATIVE ones
	 * last). Without .got.plt, the order of .rela.plt. */
	uint64_t word = gelf_getclass(elf) == ELFCLASS32 ? 4 : 8;
	uint64_t got0 = got_sh.sh_size ? got_sh.sh_addr + 3 * word : 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Rela r;
		if (!gelf_getrela(rdata, (int)i, &r))
			break;
		uint64_t slot = i;
		if (got0 && r.r_offset >= got0 &&
		    (r.r_offset - got0) % word == 0 &&
		    (r.r_offset - got0) / word < n)
			slot = (r.r_offset - got0) / word;
		char buf[1024];
		if (!plt_name(elf, sdata, dsh.sh_link, d->machine, &r, buf,
			      sizeof(buf)))
			continue;
		const char *in = str_pool_intern(ctx->pool, buf);
		if (!in || !sym_table_add(&d->syms, first + slot * entsize, entsize,
					  in))
			return hwt_error(HWT_ERR_NOMEM, "out of memory for symbols");
	}
	return 0;
}

int dso_add_elf_symbols(struct hwt_sym_ctx *ctx, struct dso *d, void *elf_,
			bool *had_symtab)
{
	Elf *elf = elf_;
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	GElf_Shdr sh, symtab_sh = {0}, dynsym_sh = {0};
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			symtab = scn;
			symtab_sh = sh;
		} else if (sh.sh_type == SHT_DYNSYM) {
			dynsym = scn;
			dynsym_sh = sh;
		}
	}
	size_t before = d->syms.n;
	int err = 0;
	*had_symtab = false;
	if (symtab) {
		err = add_symbols_of(d, elf, symtab, &symtab_sh);
		*had_symtab = d->syms.n > before;
	}
	if (err >= 0 && !*had_symtab && dynsym) {
		err = add_symbols_of(d, elf, dynsym, &dynsym_sh);
		if (d->syms.n > before && !d->symbols_from)
			d->symbols_from = ".dynsym";
	}
	if (*had_symtab && !d->symbols_from)
		d->symbols_from = ".symtab";
	if (err >= 0)
		err = add_plt(ctx, d, elf);
	return err;
}

int dso_read_elf(struct hwt_sym_ctx *ctx, struct dso *d, char *why,
		 size_t why_size)
{
	int fd = hwt_infile_open(d->found_at, NULL, HWT_INFILE_QUIET);
	if (fd < 0) {
		snprintf(why, why_size, "cannot open %s", d->found_at);
		return HWT_ERR_NOENT;
	}
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Ehdr eh;
	int err = 0;
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		/* A file libelf reads but that is no ELF file (raw code, an
		 * archive) leaves libelf no error to tell. */
		snprintf(why, why_size, "%s is not a readable ELF file (%s)",
			 d->found_at, elf && elf_kind(elf) != ELF_K_ELF
					      ? "its bytes are not ELF: raw code, or another format"
					      : elf_errmsg(-1));
		err = HWT_ERR_FORMAT;
		goto out;
	}
	d->machine = eh.e_machine;
	d->type = eh.e_type;
	size_t nph;
	if (elf_getphdrnum(elf, &nph)) {
		snprintf(why, why_size, "%s: damaged program headers (%s)",
			 d->found_at, elf_errmsg(-1));
		err = HWT_ERR_FORMAT;
		goto out;
	}
	d->segs = calloc(nph ? nph : 1, sizeof(*d->segs));
	if (!d->segs) {
		err = HWT_ERR_NOMEM;
		goto out;
	}
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			d->segs[d->nsegs++] = (struct seg){ph.p_offset, ph.p_vaddr,
							   ph.p_filesz};
	}
	d->build_id_size = 0;
	elf_build_id(elf, d->build_id, &d->build_id_size);
	bool had_symtab;
	err = dso_add_elf_symbols(ctx, d, elf, &had_symtab);
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}
