/* cs_etm AUXTRACE_INFO -> OpenCSD decoder configurations. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backends/arm-cs/cs_decode_meta.h"
#include "backends/arm-cs/cs_meta.h"
#include "hwtrace/error.h"

/* ETMIDR bits 9:8 both set: the ETMv3-style register file is a PTM's. */
#define ETMIDR_PTM_VERSION 0x300u
/* Bit 31 of TRCTRACEIDR in version 2 metadata: the ID comes later, from
 * PERF_RECORD_AUX_OUTPUT_HW_ID. */
#define CS_TRACE_ID_UNUSED_FLAG (1ull << 31)
#define CS_TRACE_ID_MASK 0x7fu

void hwt_cs_meta_release(struct hwt_cs_meta *meta)
{
	free(meta->cpus);
	free(meta->id_known);
	memset(meta, 0, sizeof(*meta));
}

static void set_id(struct hwt_cs_meta *m, size_t i, uint64_t reg)
{
	m->cpus[i].trace_id = (uint8_t)(reg & CS_TRACE_ID_MASK);
	m->id_known[i] = !(m->version >= HWT_CS_HEADER_VERSION_2 &&
			   (reg & CS_TRACE_ID_UNUSED_FLAG));
}

/* ETMv4 and ETE blocks begin with the same six registers, at the same
 * words: one reader serves both. @p points at the block's parameters. */
_Static_assert((int)HWT_CS_ETE_TRCCONFIGR == (int)HWT_CS_ETMV4_TRCCONFIGR &&
	       (int)HWT_CS_ETE_TRCTRACEIDR == (int)HWT_CS_ETMV4_TRCTRACEIDR &&
	       (int)HWT_CS_ETE_TRCIDR0 == (int)HWT_CS_ETMV4_TRCIDR0 &&
	       (int)HWT_CS_ETE_TRCIDR1 == (int)HWT_CS_ETMV4_TRCIDR1 &&
	       (int)HWT_CS_ETE_TRCIDR2 == (int)HWT_CS_ETMV4_TRCIDR2 &&
	       (int)HWT_CS_ETE_TRCIDR8 == (int)HWT_CS_ETMV4_TRCIDR8,
	       "ETE and ETMv4 blocks share their first registers");

static void read_v4_regs(const uint64_t *p, uint32_t *configr,
			 uint32_t *traceidr, uint32_t *idr0, uint32_t *idr1,
			 uint32_t *idr2, uint32_t *idr8)
{
	const size_t b = HWT_CS_BLK_COMMON_WORDS;

	*configr = (uint32_t)p[HWT_CS_ETMV4_TRCCONFIGR - b];
	*traceidr = (uint32_t)p[HWT_CS_ETMV4_TRCTRACEIDR - b];
	*idr0 = (uint32_t)p[HWT_CS_ETMV4_TRCIDR0 - b];
	*idr1 = (uint32_t)p[HWT_CS_ETMV4_TRCIDR1 - b];
	*idr2 = (uint32_t)p[HWT_CS_ETMV4_TRCIDR2 - b];
	*idr8 = (uint32_t)p[HWT_CS_ETMV4_TRCIDR8 - b];
}

int hwt_cs_meta_parse(const uint64_t *info, size_t words,
		      struct hwt_cs_meta *m)
{
	memset(m, 0, sizeof(*m));
	if (!info || words < HWT_CS_HDR_WORDS)
		return hwt_error(HWT_ERR_FORMAT,
				 "cs_etm AUXTRACE_INFO: %zu words, shorter than "
				 "its %d-word header", words, HWT_CS_HDR_WORDS);
	m->version = info[HWT_CS_HDR_VERSION];
	if (m->version > HWT_CS_HEADER_VERSION_2)
		return hwt_error(HWT_ERR_FORMAT,
				 "cs_etm AUXTRACE_INFO: header version %llu is "
				 "newer than hwtrace knows (0 to 2)",
				 (unsigned long long)m->version);
	m->snapshot = info[HWT_CS_HDR_SNAPSHOT] != 0;
	uint64_t ncpus = info[HWT_CS_HDR_PMU_TYPE_CPUS] & 0xffffffffu;
	/* Each block takes at least two words. */
	if (ncpus == 0 || ncpus > (words - HWT_CS_HDR_WORDS) / 2)
		return hwt_error(HWT_ERR_FORMAT,
				 "cs_etm AUXTRACE_INFO: %llu CPUs cannot fit "
				 "in %zu words", (unsigned long long)ncpus,
				 words);
	m->cpus = calloc(ncpus, sizeof(*m->cpus));
	m->id_known = calloc(ncpus, sizeof(*m->id_known));
	if (!m->cpus || !m->id_known) {
		hwt_cs_meta_release(m);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}

	size_t pos = HWT_CS_HDR_WORDS;
	for (size_t i = 0; i < ncpus; i++) {
		if (pos + 2 > words)
			goto short_block;
		uint64_t magic = info[pos + HWT_CS_BLK_MAGIC];
		uint64_t cpu = info[pos + HWT_CS_BLK_CPU];
		size_t need, nparams, first;
		if (magic == HWT_CS_MAGIC_ETMV3)
			need = HWT_CS_ETMV3_NR_PARAMS;
		else if (magic == HWT_CS_MAGIC_ETMV4)
			need = HWT_CS_ETMV4_NR_PARAMS;
		else if (magic == HWT_CS_MAGIC_ETE && m->version > 0)
			need = HWT_CS_ETE_NR_PARAMS;
		else {
			hwt_cs_meta_release(m);
			return hwt_error(HWT_ERR_FORMAT,
					 "cs_etm AUXTRACE_INFO word %zu: magic "
					 "0x%llx is not an ETMv3/PTM, ETMv4 or "
					 "ETE block", pos,
					 (unsigned long long)magic);
		}
		if (m->version == HWT_CS_HEADER_VERSION_0) {
			first = pos + 2;
			nparams = need;
		} else {
			if (pos + HWT_CS_BLK_COMMON_WORDS > words)
				goto short_block;
			first = pos + HWT_CS_BLK_COMMON_WORDS;
			nparams = info[pos + HWT_CS_BLK_NR_PARAMS];
			if (nparams < need || nparams > words) {
				hwt_cs_meta_release(m);
				return hwt_error(HWT_ERR_FORMAT,
						 "cs_etm AUXTRACE_INFO word %zu: "
						 "CPU %llu has %llu parameters, "
						 "want at least %zu",
						 pos + HWT_CS_BLK_NR_PARAMS,
						 (unsigned long long)cpu,
						 (unsigned long long)nparams, need);
			}
		}
		if (first + nparams > words)
			goto short_block;
		const uint64_t *p = info + first;
		struct hwt_cs_source *s = &m->cpus[i];
		s->cpu = (int32_t)cpu;
		/* Parameter order (cs_meta.h): registers after the common
		 * words, same order in version 0. */
		if (magic == HWT_CS_MAGIC_ETMV3) {
			uint32_t idr = (uint32_t)p[HWT_CS_ETMV3_ETMIDR - HWT_CS_BLK_COMMON_WORDS];
			ocsd_etmv3_cfg *c = &s->cfg.etmv3;
			s->proto = (idr & ETMIDR_PTM_VERSION) == ETMIDR_PTM_VERSION
					   ? HWT_CS_PROTO_PTM : HWT_CS_PROTO_ETMV3;
			c->reg_idr = idr;
			c->reg_ctrl = (uint32_t)p[HWT_CS_ETMV3_ETMCR - HWT_CS_BLK_COMMON_WORDS];
			c->reg_ccer = (uint32_t)p[HWT_CS_ETMV3_ETMCCER - HWT_CS_BLK_COMMON_WORDS];
			c->reg_trc_id = (uint32_t)p[HWT_CS_ETMV3_ETMTRACEIDR - HWT_CS_BLK_COMMON_WORDS];
			c->arch_ver = ARCH_V7;
			c->core_prof = profile_CortexA;
			set_id(m, i, p[HWT_CS_ETMV3_ETMTRACEIDR - HWT_CS_BLK_COMMON_WORDS]);
		} else if (magic == HWT_CS_MAGIC_ETMV4) {
			ocsd_etmv4_cfg *c = &s->cfg.etmv4;
			s->proto = HWT_CS_PROTO_ETMV4;
			read_v4_regs(p, &c->reg_configr, &c->reg_traceidr,
				     &c->reg_idr0, &c->reg_idr1, &c->reg_idr2,
				     &c->reg_idr8);
			c->arch_ver = ARCH_V8;
			c->core_prof = profile_CortexA;
			set_id(m, i, p[HWT_CS_ETMV4_TRCTRACEIDR - HWT_CS_BLK_COMMON_WORDS]);
		} else {
			ocsd_ete_cfg *c = &s->cfg.ete;
			s->proto = HWT_CS_PROTO_ETE;
			read_v4_regs(p, &c->reg_configr, &c->reg_traceidr,
				     &c->reg_idr0, &c->reg_idr1, &c->reg_idr2,
				     &c->reg_idr8);
			c->reg_devarch = (uint32_t)p[HWT_CS_ETE_TRCDEVARCH - HWT_CS_BLK_COMMON_WORDS];
			c->arch_ver = ARCH_AA64;
			c->core_prof = profile_CortexA;
			set_id(m, i, p[HWT_CS_ETE_TRCTRACEIDR - HWT_CS_BLK_COMMON_WORDS]);
		}
		pos = first + nparams;
		m->ncpus++;
	}
	return 0;

short_block:
	hwt_cs_meta_release(m);
	return hwt_error(HWT_ERR_FORMAT,
			 "cs_etm AUXTRACE_INFO: a per-CPU block runs past the "
			 "end of the record (%zu words): the file is truncated "
			 "or corrupt", words);
}

static void store_id(struct hwt_cs_source *s, uint8_t id)
{
	s->trace_id = id;
	switch (s->proto) {
	case HWT_CS_PROTO_ETMV3:
	case HWT_CS_PROTO_PTM:
		s->cfg.etmv3.reg_trc_id = id;
		break;
	case HWT_CS_PROTO_ETMV4:
		s->cfg.etmv4.reg_traceidr = id;
		break;
	case HWT_CS_PROTO_ETE:
		s->cfg.ete.reg_traceidr = id;
		break;
	}
}

int hwt_cs_meta_set_hw_id(struct hwt_cs_meta *m, int32_t cpu, uint64_t hw_id)
{
	if (hw_id >> 60)
		return hwt_error(HWT_ERR_FORMAT,
				 "AUX_OUTPUT_HW_ID 0x%llx for CPU %d: major "
				 "version %llu is newer than hwtrace knows (0)",
				 (unsigned long long)hw_id, cpu,
				 (unsigned long long)(hw_id >> 60));
	uint8_t id = (uint8_t)(hw_id & CS_TRACE_ID_MASK);
	for (size_t i = 0; i < m->ncpus; i++) {
		if (m->cpus[i].cpu != cpu)
			continue;
		int changed = !m->id_known[i] || m->cpus[i].trace_id != id;
		store_id(&m->cpus[i], id);
		m->id_known[i] = true;
		return changed;
	}
	return hwt_error(HWT_ERR_NOENT,
			 "AUX_OUTPUT_HW_ID for CPU %d, which the cs_etm "
			 "AUXTRACE_INFO does not describe", cpu);
}

struct reg_opt {
	const char *name;
	size_t off; /* in struct hwt_cs_source */
};

#define SRC_OFF(f) offsetof(struct hwt_cs_source, cfg.f)

static const struct reg_opt v4_regs[] = {
	{"configr", SRC_OFF(etmv4.reg_configr)},
	{"idr0", SRC_OFF(etmv4.reg_idr0)},
	{"idr1", SRC_OFF(etmv4.reg_idr1)},
	{"idr2", SRC_OFF(etmv4.reg_idr2)},
	{"idr8", SRC_OFF(etmv4.reg_idr8)},
};
static const struct reg_opt ete_regs[] = {
	{"configr", SRC_OFF(ete.reg_configr)},
	{"idr0", SRC_OFF(ete.reg_idr0)},
	{"idr1", SRC_OFF(ete.reg_idr1)},
	{"idr2", SRC_OFF(ete.reg_idr2)},
	{"idr8", SRC_OFF(ete.reg_idr8)},
	{"devarch", SRC_OFF(ete.reg_devarch)},
};
static const struct reg_opt v3_regs[] = {
	{"etmcr", SRC_OFF(etmv3.reg_ctrl)},
	{"etmidr", SRC_OFF(etmv3.reg_idr)},
	{"etmccer", SRC_OFF(etmv3.reg_ccer)},
};

int hwt_cs_meta_from_options(const char *options, struct hwt_cs_meta *m,
			     bool *formatted)
{
	memset(m, 0, sizeof(*m));
	m->cpus = calloc(1, sizeof(*m->cpus));
	m->id_known = calloc(1, sizeof(*m->id_known));
	char *copy = strdup(options ? options : "");
	if (!m->cpus || !m->id_known || !copy) {
		free(copy);
		hwt_cs_meta_release(m);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	struct hwt_cs_source *s = &m->cpus[0];
	m->ncpus = 1;
	m->id_known[0] = true;
	m->version = HWT_CS_HEADER_VERSION_1;
	*formatted = true;
	/* An ETMv4 of a Cortex-A class core with perf's default settings. */
	s->proto = HWT_CS_PROTO_ETMV4;
	s->cpu = -1;
	s->cfg.etmv4.reg_idr0 = 0x28000ea1;
	s->cfg.etmv4.reg_idr1 = 0x4100f423;
	s->cfg.etmv4.reg_idr2 = 0x20001088;
	s->cfg.etmv4.arch_ver = ARCH_V8;
	s->cfg.etmv4.core_prof = profile_CortexA;
	uint64_t trace_id = HWT_CS_LEGACY_TRACE_ID(0);
	int err = 0;
	char *save = NULL;
	const char *proto = NULL; /* the protocol option given, if any */

	for (char *tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		uint64_t v = 0;
		if (eq) {
			*eq++ = '\0';
			char *end;
			v = strtoull(eq, &end, 0);
			if (!*eq || *end) {
				err = hwt_error(HWT_ERR_CONFIG,
						"cs_etm option %s=%s: not a number",
						tok, eq);
				break;
			}
		}
		bool proto_tok = !eq && (!strcasecmp(tok, "etmv4") ||
					 !strcasecmp(tok, "ete") ||
					 !strcasecmp(tok, "etmv3") ||
					 !strcasecmp(tok, "ptm"));
		/* A second protocol would silently replace the first (and
		 * the registers given before it). */
		if (proto_tok && proto) {
			err = hwt_error(HWT_ERR_CONFIG,
					"cs_etm options %s and %s: give one "
					"trace protocol (etmv4, ete, etmv3 or "
					"ptm)", proto, tok);
			break;
		}
		if (proto_tok)
			proto = tok;
		if (!eq && !strcasecmp(tok, "etmv4"))
			continue;
		if (!eq && (!strcasecmp(tok, "ete") || !strcasecmp(tok, "etmv3") ||
			    !strcasecmp(tok, "ptm"))) {
			memset(&s->cfg, 0, sizeof(s->cfg));
			if (!strcasecmp(tok, "ete")) {
				s->proto = HWT_CS_PROTO_ETE;
				s->cfg.ete.reg_idr0 = 0x28000ea1;
				s->cfg.ete.reg_idr1 = 0x4100fff0;
				s->cfg.ete.reg_idr2 = 0xd0001088;
				s->cfg.ete.reg_devarch = 0x47705a13;
				s->cfg.ete.arch_ver = ARCH_AA64;
				s->cfg.ete.core_prof = profile_CortexA;
				/* ETE comes with TRBE: a raw stream. */
				*formatted = false;
			} else {
				s->proto = strcasecmp(tok, "ptm") ? HWT_CS_PROTO_ETMV3
								  : HWT_CS_PROTO_PTM;
				s->cfg.etmv3.reg_idr = s->proto == HWT_CS_PROTO_PTM
							       ? 0x411cf300 : 0x410cf250;
				s->cfg.etmv3.arch_ver = ARCH_V7;
				s->cfg.etmv3.core_prof = profile_CortexA;
			}
			continue;
		}
		if (!eq && !strcasecmp(tok, "raw")) {
			*formatted = false;
			continue;
		}
		if (!eq && !strcasecmp(tok, "formatted")) {
			*formatted = true;
			continue;
		}
		if (eq && !strcasecmp(tok, "traceid")) {
			/* CoreSight trace IDs are 7 bits, 0x70-0x7f reserved;
			 * strtoull takes "-1" as the largest number. */
			if (*eq == '-' || v > 0x6f) {
				err = hwt_error(HWT_ERR_CONFIG,
						"cs_etm option traceid=%s: out of "
						"range (valid: 0x0 to 0x6f)", eq);
				break;
			}
			trace_id = v;
			continue;
		}
		const struct reg_opt *regs = v4_regs;
		size_t n = sizeof(v4_regs) / sizeof(v4_regs[0]);
		if (s->proto == HWT_CS_PROTO_ETE) {
			regs = ete_regs;
			n = sizeof(ete_regs) / sizeof(ete_regs[0]);
		} else if (s->proto != HWT_CS_PROTO_ETMV4) {
			regs = v3_regs;
			n = sizeof(v3_regs) / sizeof(v3_regs[0]);
		}
		size_t i;
		for (i = 0; eq && i < n; i++)
			if (!strcasecmp(tok, regs[i].name))
				break;
		if (!eq || i == n) {
			err = hwt_error(HWT_ERR_CONFIG,
					"cs_etm option \"%s\" is unknown: use "
					"etmv4|ete|etmv3|ptm, raw|formatted, "
					"traceid=N and the trace unit's "
					"registers (configr=, idr0=, idr1=, "
					"idr2=, idr8=, devarch=; etmcr=, "
					"etmidr=, etmccer=)", tok);
			break;
		}
		memcpy((char *)s + regs[i].off, &(uint32_t){(uint32_t)v},
		       sizeof(uint32_t));
	}
	free(copy);
	if (err) {
		hwt_cs_meta_release(m);
		return err;
	}
	store_id(s, (uint8_t)(trace_id & CS_TRACE_ID_MASK));
	return 0;
}
