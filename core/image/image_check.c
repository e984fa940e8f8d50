/* A file found for a capture's mapping is used only when it is the file
 * that was traced: its build id is the capture's (MMAP2 or the build-id
 * feature) and its ELF machine is the trace's ISA. Anything else would be
 * decoded as the wrong code, as perf refuses to do. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/image/image_internal.h"
#include "hwtrace/elfid.h"
#include "hwtrace/error.h"

int hwt_image_check_expect(struct hwt_image_check *c, size_t section,
			   const uint8_t *id, size_t size)
{
	if (!id || !size)
		return 0;
	if (c->n == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 16;
		void *n = realloc(c->v, ncap * sizeof(*c->v));
		if (!n)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		c->v = n;
		c->cap = ncap;
	}
	struct hwt_image_expect *e = &c->v[c->n++];
	memset(e, 0, sizeof(*e));
	e->section = section;
	e->size = (uint8_t)(size > sizeof(e->id) ? sizeof(e->id) : size);
	memcpy(e->id, id, e->size);
	return 0;
}

void hwt_image_check_free(struct hwt_image_check *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}

/* The ISA of a trace type: the ELF machines its code may be for (0 ends),
 * and a name for messages; NULL when the trace type does not say. */
static const char *trace_isa(enum hwt_auxtrace_type type, uint16_t m[3])
{
	m[0] = m[1] = m[2] = 0;
	switch (type) {
	case HWT_AUXTRACE_INTEL_PT:
	case HWT_AUXTRACE_INTEL_BTS:
		m[0] = EM_X86_64;
		m[1] = EM_386;
		return "x86";
	case HWT_AUXTRACE_CS_ETM:
		m[0] = EM_AARCH64;
		m[1] = EM_ARM;
		return "Arm (AArch64 or AArch32)";
	default:
		return NULL;
	}
}

static const char *machine_name(uint16_t machine, char *buf, size_t size)
{
	switch (machine) {
	case EM_X86_64: return "x86-64";
	case EM_386: return "i386";
	case EM_AARCH64: return "AArch64";
	case EM_ARM: return "Arm (AArch32)";
	case EM_RISCV: return "RISC-V";
	case EM_PPC64: return "PowerPC 64";
	case EM_S390: return "s390";
	default:
		snprintf(buf, size, "ELF machine %u", machine);
		return buf;
	}
}

/* Why @found (read for the mapping of @recorded) is not the traced file,
 * or "" when it is. */
static void mismatch(const struct hwt_image_check *c,
		     struct hwt_image *image, const char *found,
		     const char *recorded, const struct hwt_elf_id *id,
		     const char *isa, const uint16_t *machines, char *why,
		     size_t size)
{
	char name[32], want[41], got[41];

	why[0] = 0;
	if (isa && machines[0] != id->machine && machines[1] != id->machine) {
		const char *what = machine_name(id->machine, name, sizeof(name));
		if (!strcmp(recorded, found))
			snprintf(why, size, "%s holds %s code, the trace is of %s",
				 found, what, isa);
		else
			snprintf(why, size, "%s: %s holds %s code, the trace is "
				 "of %s", recorded, found, what, isa);
		return;
	}
	if (!id->build_id_size)
		return; /* nothing to compare, as perf */
	for (size_t i = 0; i < c->n; i++) {
		const struct hwt_image_section *s =
			hwt_image_section(image, c->v[i].section);
		if (!s || !s->found_at || strcmp(s->found_at, found))
			continue;
		if (hwt_build_id_equal(c->v[i].id, c->v[i].size, id->build_id,
				       id->build_id_size))
			continue;
		hwt_build_id_hex(c->v[i].id, c->v[i].size, want);
		hwt_build_id_hex(id->build_id, id->build_id_size, got);
		if (!strcmp(s->path, found))
			snprintf(why, size, "%s has build id %s, the capture's "
				 "is %s", found, got, want);
		else
			snprintf(why, size, "%s: %s has build id %s, the "
				 "capture's is %s", s->path, found, got, want);
		return;
	}
}

static bool seen_before(struct hwt_image *image, size_t index, const char *found)
{
	for (size_t i = 0; i < index; i++) {
		const struct hwt_image_section *s = hwt_image_section(image, i);
		if (s->found_at && !strcmp(s->found_at, found))
			return true;
	}
	return false;
}

int hwt_image_check_run(const struct hwt_image_check *c,
			struct hwt_image *image, enum hwt_auxtrace_type type,
			const struct hwt_decode_opts *opts)
{
	uint16_t machines[3];
	const char *isa = trace_isa(type, machines);
	char why[1024], msg[1200];

	for (size_t i = 0; i < hwt_image_count(image); i++) {
		const struct hwt_image_section *s = hwt_image_section(image, i);
		/* Refused sections lose found_at: each file is looked at once. */
		if (!s->found_at || seen_before(image, i, s->found_at))
			continue;
		struct hwt_elf_id id;
		if (hwt_elf_id_from_file(s->found_at, &id) != 1)
			continue; /* not ELF (a memory dump): nothing to check */
		mismatch(c, image, s->found_at, s->path, &id, isa, machines,
			 why, sizeof(why));
		if (!why[0])
			continue;
		if (opts->ignore_build_ids) {
			snprintf(msg, sizeof(msg), "%s: used anyway "
				 "(--ignore-build-ids)", why);
		} else {
			snprintf(msg, sizeof(msg), "%s: not used, its code is "
				 "treated as missing (--ignore-build-ids uses it "
				 "anyway)", why);
			char found[4096];
			snprintf(found, sizeof(found), "%s", s->found_at);
			int n = hwt_image_refuse(image, found, why);
			if (n < 0)
				return n;
		}
		if (opts->warn)
			opts->warn(opts->warn_arg, msg);
	}
	return 0;
}
