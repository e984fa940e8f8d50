/* OpenCSD snapshot directories: a trace source device's registers and
 * its core's type, made into a decoder configuration. */
#ifdef HWT_HAVE_OPENCSD
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backends/arm-cs/cs_snapshot_ini.h"
#include "hwtrace/error.h"

/* A register from a device's [regs]: keys look like "TRCIDR0(id:0x78)" or
 * "ETMCR(0x000)"; the name before the bracket counts. */
static int get_reg(struct ss_reader *r, struct ss_device *dev,
		   const char *name, bool required, uint32_t def,
		   uint32_t *val)
{
	int n;
	const char **keys = hwt_cs_ss_sec_keys(dev->ini, "regs", &n);
	size_t len = strlen(name);
	for (int i = 0; i < n; i++) {
		if (strncasecmp(keys[i], name, len) != 0 ||
		    (keys[i][len] != '\0' && keys[i][len] != '('))
			continue;
		const char *s = hwt_cs_ss_ini_get(dev->ini, "regs", keys[i]);
		uint64_t v;
		free(keys);
		if (!hwt_cs_ss_parse_u64(s, &v))
			return hwt_error(HWT_ERR_FORMAT,
					 "%s/%s: [regs] %s=%s is not a number",
					 r->dir, dev->file, name, s ? s : "");
		*val = (uint32_t)v;
		return 0;
	}
	free(keys);
	if (required)
		return hwt_error(HWT_ERR_FORMAT,
				 "%s/%s: [regs] has no %s, which the %s "
				 "decoder needs", r->dir, dev->file, name,
				 dev->type);
	*val = def;
	return 0;
}

/* The registers ETMv4 and ETE configurations share, in the order the
 * messages about missing ones come. */
static int get_v4_regs(struct ss_reader *r, struct ss_device *sdev,
		       uint32_t *configr, uint32_t *traceidr, uint32_t *idr0,
		       uint32_t *idr1, uint32_t *idr2, uint32_t *idr8)
{
	int err;

	if ((err = get_reg(r, sdev, "TRCCONFIGR", true, 0, configr)) ||
	    (err = get_reg(r, sdev, "TRCTRACEIDR", true, 0, traceidr)) ||
	    (err = get_reg(r, sdev, "TRCIDR0", true, 0, idr0)) ||
	    (err = get_reg(r, sdev, "TRCIDR1", false, 0x4100f403, idr1)) ||
	    (err = get_reg(r, sdev, "TRCIDR2", true, 0, idr2)) ||
	    (err = get_reg(r, sdev, "TRCIDR8", false, 0, idr8)))
		return err;
	return 0;
}

/* A trace ID register holds the ID in bits 6:0, and 0x70-0x7f are
 * reserved (0 is what a single source's unformatted buffer may carry): a
 * value above 0x6f names no stream of the buffer, and the snapshot would
 * decode to nothing without a word. */
static int check_trace_id(struct ss_reader *r, struct ss_device *dev,
			  const char *name, uint32_t reg)
{
	if (reg <= 0x6f)
		return 0;
	return hwt_error(HWT_ERR_FORMAT, "%s/%s: [regs] %s=0x%x is not a trace "
			 "ID (valid: 0x0 to 0x6f)", r->dir, dev->file, name, reg);
}

/* Architecture and profile of a core from its type name, as OpenCSD's
 * snapshot tools interpret them. */
static const struct {
	const char *name;
	ocsd_arch_version_t arch;
	ocsd_core_profile_t prof;
} core_names[] = {
	{"Cortex-A78", ARCH_V8, profile_CortexA},
	{"Cortex-A77", ARCH_V8r3, profile_CortexA},
	{"Cortex-A76", ARCH_V8r3, profile_CortexA},
	{"Cortex-A75", ARCH_V8r3, profile_CortexA},
	{"Cortex-A73", ARCH_V8, profile_CortexA},
	{"Cortex-A72", ARCH_V8, profile_CortexA},
	{"Cortex-A65", ARCH_V8r3, profile_CortexA},
	{"Cortex-A57", ARCH_V8, profile_CortexA},
	{"Cortex-A55", ARCH_V8r3, profile_CortexA},
	{"Cortex-A53", ARCH_V8, profile_CortexA},
	{"Cortex-A35", ARCH_V8, profile_CortexA},
	{"Cortex-A32", ARCH_V8, profile_CortexA},
	{"Cortex-A17", ARCH_V7, profile_CortexA},
	{"Cortex-A15", ARCH_V7, profile_CortexA},
	{"Cortex-A12", ARCH_V7, profile_CortexA},
	{"Cortex-A9", ARCH_V7, profile_CortexA},
	{"Cortex-A8", ARCH_V7, profile_CortexA},
	{"Cortex-A7", ARCH_V7, profile_CortexA},
	{"Cortex-A5", ARCH_V7, profile_CortexA},
	{"Cortex-R52", ARCH_V8, profile_CortexR},
	{"Cortex-R8", ARCH_V7, profile_CortexR},
	{"Cortex-R7", ARCH_V7, profile_CortexR},
	{"Cortex-R5", ARCH_V7, profile_CortexR},
	{"Cortex-R4", ARCH_V7, profile_CortexR},
	{"Cortex-M33", ARCH_V8, profile_CortexM},
	{"Cortex-M23", ARCH_V8, profile_CortexM},
	{"Cortex-M0", ARCH_V7, profile_CortexM},
	{"Cortex-M0+", ARCH_V7, profile_CortexM},
	{"Cortex-M3", ARCH_V7, profile_CortexM},
	{"Cortex-M4", ARCH_V7, profile_CortexM},
};

static ocsd_core_profile_t profile_letter(char c)
{
	switch (c) {
	case 'A':
		return profile_CortexA;
	case 'R':
		return profile_CortexR;
	case 'M':
		return profile_CortexM;
	default:
		return profile_Unknown;
	}
}

static bool core_arch(const char *type, ocsd_arch_version_t *arch,
		      ocsd_core_profile_t *prof)
{
	for (size_t i = 0; i < sizeof(core_names) / sizeof(core_names[0]); i++) {
		if (strcmp(type, core_names[i].name) == 0) {
			*arch = core_names[i].arch;
			*prof = core_names[i].prof;
			return true;
		}
	}
	/* "ARMv<major>[.<minor>]-<profile>" */
	if (strncmp(type, "ARMv", 4) == 0 && isdigit((unsigned char)type[4])) {
		int major = type[4] - '0', minor = 0;
		const char *p = type + 5;
		if (*p == '.' && isdigit((unsigned char)p[1])) {
			minor = p[1] - '0';
			p += 2;
		}
		if (*p != '-' || (*prof = profile_letter(p[1])) == profile_Unknown)
			return false;
		if (major == 7)
			*arch = ARCH_V7;
		else if (major == 8 && minor < 3)
			*arch = ARCH_V8;
		else if (major == 8 && minor == 3)
			*arch = ARCH_V8r3;
		else if (major >= 8)
			*arch = ARCH_AA64;
		else
			return false;
		return true;
	}
	/* "ARM-AA64[-<profile>]" */
	if (strncmp(type, "ARM-", 4) == 0 &&
	    (strncmp(type + 4, "AA64", 4) == 0 ||
	     strncmp(type + 4, "aa64", 4) == 0)) {
		*arch = ARCH_AA64;
		*prof = profile_CortexA;
		if (type[8] == '-' && profile_letter(type[9]) != profile_Unknown)
			*prof = profile_letter(type[9]);
		return true;
	}
	return false;
}

static bool type_is(const char *type, const char *proto)
{
	size_t n = strlen(proto);
	return strncasecmp(type, proto, n) == 0 &&
	       (type[n] == '\0' || type[n] == '.');
}

int hwt_cs_ss_make_source(struct ss_reader *r, struct ss_device *sdev,
			  struct ss_device *core, struct hwt_cs_source *src)
{
	ocsd_arch_version_t arch;
	ocsd_core_profile_t prof;
	int err = 0;

	memset(src, 0, sizeof(*src));
	/* Snapshots name no CPU numbers: cores count in device_list order. */
	src->cpu = 0;
	for (size_t i = 0; i < r->ndevs && &r->devs[i] != core; i++)
		if (r->devs[i].cls && strcasecmp(r->devs[i].cls, "core") == 0)
			src->cpu++;
	if (type_is(sdev->type, "ETM4"))
		src->proto = HWT_CS_PROTO_ETMV4;
	else if (type_is(sdev->type, "ETE"))
		src->proto = HWT_CS_PROTO_ETE;
	else if (type_is(sdev->type, "ETM3"))
		src->proto = HWT_CS_PROTO_ETMV3;
	else if (type_is(sdev->type, "PTM1") || type_is(sdev->type, "PFT1"))
		src->proto = HWT_CS_PROTO_PTM;
	else
		return 0;
	if (!core_arch(core->type, &arch, &prof))
		return hwt_error(HWT_ERR_FORMAT,
				 "%s/%s: [device] type=%s is not a core type "
				 "OpenCSD knows (Cortex-A57, ARMv8.2-A, "
				 "ARM-AA64, ...)", r->dir, core->file,
				 core->type);

	switch (src->proto) {
	case HWT_CS_PROTO_ETMV4: {
		ocsd_etmv4_cfg *c = &src->cfg.etmv4;
		if ((err = get_v4_regs(r, sdev, &c->reg_configr,
				       &c->reg_traceidr, &c->reg_idr0,
				       &c->reg_idr1, &c->reg_idr2,
				       &c->reg_idr8)) ||
		    (err = get_reg(r, sdev, "TRCIDR9", false, 0, &c->reg_idr9)) ||
		    (err = get_reg(r, sdev, "TRCIDR10", false, 0, &c->reg_idr10)) ||
		    (err = get_reg(r, sdev, "TRCIDR11", false, 0, &c->reg_idr11)) ||
		    (err = get_reg(r, sdev, "TRCIDR12", false, 0, &c->reg_idr12)) ||
		    (err = get_reg(r, sdev, "TRCIDR13", false, 0, &c->reg_idr13)))
			return err;
		c->arch_ver = arch;
		c->core_prof = prof;
		if ((err = check_trace_id(r, sdev, "TRCTRACEIDR", c->reg_traceidr)))
			return err;
		src->trace_id = c->reg_traceidr & 0x7f;
		break;
	}
	case HWT_CS_PROTO_ETE: {
		ocsd_ete_cfg *c = &src->cfg.ete;
		if ((err = get_v4_regs(r, sdev, &c->reg_configr,
				       &c->reg_traceidr, &c->reg_idr0,
				       &c->reg_idr1, &c->reg_idr2,
				       &c->reg_idr8)) ||
		    (err = get_reg(r, sdev, "TRCDEVARCH", false, 0x47705a13, &c->reg_devarch)))
			return err;
		c->arch_ver = arch;
		c->core_prof = prof;
		if ((err = check_trace_id(r, sdev, "TRCTRACEIDR", c->reg_traceidr)))
			return err;
		src->trace_id = c->reg_traceidr & 0x7f;
		break;
	}
	case HWT_CS_PROTO_ETMV3:
	case HWT_CS_PROTO_PTM: {
		/* The two configurations have the same layout. */
		ocsd_etmv3_cfg *c = &src->cfg.etmv3;
		if ((err = get_reg(r, sdev, "ETMIDR", true, 0, &c->reg_idr)) ||
		    (err = get_reg(r, sdev, "ETMCR", true, 0, &c->reg_ctrl)) ||
		    (err = get_reg(r, sdev, "ETMCCER", true, 0, &c->reg_ccer)) ||
		    (err = get_reg(r, sdev, "ETMTRACEIDR", true, 0, &c->reg_trc_id)))
			return err;
		c->arch_ver = arch;
		c->core_prof = prof;
		if ((err = check_trace_id(r, sdev, "ETMTRACEIDR", c->reg_trc_id)))
			return err;
		src->trace_id = c->reg_trc_id & 0x7f;
		break;
	}
	}
	return 1;
}
#endif
