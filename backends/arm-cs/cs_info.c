/* cs_etm's AUXTRACE_INFO priv words, as perf 6.1's cs_etm_info_fill. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"
#include "backends/arm-cs/cs_info.h"
#include "backends/arm-cs/cs_meta.h"

#define CS_SYSFS "bus/event_source/devices/cs_etm"
#define CPU_ONLINE "devices/system/cpu/online"

enum unit_kind { UNIT_ETMV3, UNIT_ETMV4, UNIT_ETE };

uint64_t hwt_cs_trcconfigr_from_config(uint64_t config)
{
	static const struct {
		int opt;
		uint64_t bits;
	} map[] = {
		{HWT_CS_OPT_CYCACC, 1ull << HWT_CS_TRCCONFIGR_CYCACC},
		{HWT_CS_OPT_CTXTID, 1ull << HWT_CS_TRCCONFIGR_CTXTID},
		{HWT_CS_OPT_TS, 1ull << HWT_CS_TRCCONFIGR_TS},
		{HWT_CS_OPT_RETSTK, 1ull << HWT_CS_TRCCONFIGR_RETSTK},
		{HWT_CS_OPT_CTXTID2, (1ull << HWT_CS_TRCCONFIGR_VMID) |
					     (1ull << HWT_CS_TRCCONFIGR_VMID_OPT)},
		{HWT_CS_OPT_BRANCH_BROADCAST, 1ull << HWT_CS_TRCCONFIGR_BB},
	};
	uint64_t out = 0;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (config & (1ull << map[i].opt))
			out |= map[i].bits;
	return out;
}

/* Register files hold "0x28000ea1" (perf scans them with %x, so the
 * prefix is optional). */
static int parse_hex32(const char *text, const char *path, uint64_t *value)
{
	const char *p = text;
	char *end;

	while (isspace((unsigned char)*p))
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	errno = 0;
	*value = strtoull(p, &end, 16);
	if (end == p || errno || *end || *value > 0xffffffffull)
		return hwt_error(HWT_ERR_FORMAT,
				 "sysfs/%s: expected a 32-bit hexadecimal register value, "
				 "found \"%s\"",
				 path, text);
	return 0;
}

/* One register of @cpu's trace unit; HWT_ERR_NOENT (with a message naming
 * it) when the unit does not have it. @dir is "trcidr" or "mgmt". */
static int unit_reg(const struct hwt_os *os, const struct hwt_pmu *pmu,
		    int cpu, const char *dir, const char *name, uint64_t *value)
{
	char path[256], text[64];
	int n;

	snprintf(path, sizeof(path), CS_SYSFS "/cpu%d/%s/%s", cpu, dir, name);
	if (pmu) {
		for (size_t i = 0; i < pmu->nunits; i++) {
			const struct hwt_trace_unit *u = &pmu->units[i];

			if (u->cpu != cpu)
				continue;
			for (size_t r = 0; r < u->nregs; r++) {
				if (!strcmp(u->regs[r].name, name)) {
					*value = u->regs[r].value;
					return 0;
				}
			}
		}
		return hwt_error(HWT_ERR_NOENT,
				 "%s: the trace unit of CPU %d has no register %s "
				 "(sysfs/%s)",
				 pmu->name, cpu, name, path);
	}
	n = hwt_os_sysfs_read(os, path, text, sizeof(text));
	if (n < 0)
		return n;
	return parse_hex32(text, path, value);
}

static int unit_kind(const struct hwt_os *os, const struct hwt_pmu *pmu,
		     int cpu, enum unit_kind *kind)
{
	uint64_t v;
	int err;

	err = unit_reg(os, pmu, cpu, "mgmt", "trcdevarch", &v);
	if (err == 0 && HWT_CS_DEVARCH_IS_ETE(v)) {
		*kind = UNIT_ETE;
		return 0;
	}
	if (err < 0 && err != HWT_ERR_NOENT)
		return err;
	err = unit_reg(os, pmu, cpu, "trcidr", "trcidr0", &v);
	if (err == 0) {
		*kind = UNIT_ETMV4;
		return 0;
	}
	if (err != HWT_ERR_NOENT)
		return err;
	err = unit_reg(os, pmu, cpu, "mgmt", "etmidr", &v);
	if (err == 0) {
		*kind = UNIT_ETMV3;
		return 0;
	}
	if (err != HWT_ERR_NOENT)
		return err;
	return hwt_error(HWT_ERR_NOENT,
			 "cs_etm: CPU %d has no trace unit (neither sysfs/" CS_SYSFS
			 "/cpu%d/trcidr/trcidr0 nor .../mgmt/etmidr); leave it out "
			 "of the CPU list or load its ETM driver",
			 cpu, cpu);
}

/* Parses a CPU list such as "0-3,6" into @set. */
static int parse_cpu_list(const char *text, const char *path, bool *set)
{
	const char *p = text;
	char *end;

	while (*p) {
		unsigned long lo, hi;

		errno = 0;
		lo = strtoul(p, &end, 10);
		if (end == p || errno || lo >= HWT_CS_MAX_CPUS)
			goto bad;
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			hi = strtoul(p, &end, 10);
			if (end == p || errno || hi >= HWT_CS_MAX_CPUS || hi < lo)
				goto bad;
			p = end;
		}
		for (unsigned long c = lo; c <= hi; c++)
			set[c] = true;
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	return 0;
bad:
	return hwt_error(HWT_ERR_FORMAT,
			 "sysfs/%s: \"%s\" is not a CPU list like \"0-3,6\" "
			 "(CPUs up to %d)",
			 path, text, HWT_CS_MAX_CPUS - 1);
}

struct list_arg {
	bool *set;
};

static int add_cpu_dir(void *arg, const char *name, int is_dir)
{
	struct list_arg *la = arg;
	char *end;
	unsigned long c;

	if (strncmp(name, "cpu", 3) != 0 || !isdigit((unsigned char)name[3]))
		return 0;
	c = strtoul(name + 3, &end, 10);
	if (*end == '\0' && c < HWT_CS_MAX_CPUS)
		la->set[c] = true;
	return 0;
}

/* The online CPUs; @known is false when the system does not say. Without
 * devices/system/cpu/online, the CPUs with a trace unit stand in. */
static int online_cpus(const struct hwt_os *os, const struct hwt_pmu *pmu,
		       bool *set, bool *known)
{
	char text[1024];
	int n = HWT_ERR_NOENT;

	*known = false;
	if (os)
		n = hwt_os_sysfs_read(os, CPU_ONLINE, text, sizeof(text));
	if (n >= 0) {
		*known = true;
		return parse_cpu_list(text, CPU_ONLINE, set);
	}
	if (n != HWT_ERR_NOENT)
		return n;
	if (pmu) {
		for (size_t i = 0; i < pmu->nunits; i++)
			if (pmu->units[i].cpu >= 0 &&
			    pmu->units[i].cpu < HWT_CS_MAX_CPUS)
				set[pmu->units[i].cpu] = true;
		return 0;
	}
	struct list_arg la = {set};
	n = os->ops->sysfs_list(os->ctx, CS_SYSFS, add_cpu_dir, &la);
	if (n < 0)
		return hwt_error(HWT_ERR_NOENT,
				 "cs_etm: cannot list sysfs/" CS_SYSFS " (%s) nor read "
				 "sysfs/" CPU_ONLINE " to learn the CPUs",
				 strerror(-n));
	return 0;
}

/* The CPUs to describe, as a set. */
static int session_cpus(const struct hwt_os *os, const struct hwt_pmu *pmu,
			const int *cpus, int ncpus, bool *set)
{
	bool *online;
	bool known;
	int err;

	online = calloc(HWT_CS_MAX_CPUS, sizeof(*online));
	if (!online)
		return hwt_error(HWT_ERR_NOMEM, "cs_etm info: out of memory");
	err = online_cpus(os, pmu, online, &known);
	if (err < 0)
		goto out;
	if (!cpus || ncpus <= 0) {
		memcpy(set, online, HWT_CS_MAX_CPUS * sizeof(*set));
		goto out;
	}
	for (int i = 0; i < ncpus; i++) {
		if (cpus[i] < 0 || cpus[i] >= HWT_CS_MAX_CPUS) {
			err = hwt_error(HWT_ERR_CONFIG,
					"cs_etm: CPU %d is out of range (0-%d)",
					cpus[i], HWT_CS_MAX_CPUS - 1);
			goto out;
		}
		if (known && !online[cpus[i]]) {
			err = hwt_error(HWT_ERR_CONFIG,
					"cs_etm: CPU %d is not online (sysfs/" CPU_ONLINE
					"); leave it out of the CPU list",
					cpus[i]);
			goto out;
		}
		set[cpus[i]] = true;
	}
out:
	free(online);
	return err;
}

static int read_type(const struct hwt_os *os, const struct hwt_pmu *pmu,
		     const struct perf_event_attr *attr, uint64_t *type)
{
	int err;

	if (pmu) {
		*type = pmu->type;
	} else {
		err = hwt_os_sysfs_read_u64(os, CS_SYSFS "/type", type);
		if (err < 0)
			return err;
	}
	if (attr && attr->type != *type)
		return hwt_error(HWT_ERR_CONFIG,
				 "cs_etm: the event was set up with PMU type %u but "
				 "cs_etm has type %llu; configure it for cs_etm",
				 attr->type, (unsigned long long)*type);
	return 0;
}

static int fill_block(const struct hwt_os *os, const struct hwt_pmu *pmu,
		      int cpu, enum unit_kind kind, uint64_t config,
		      uint64_t *blk)
{
	static const struct {
		const char *dir, *name;
	} v4_regs[] = {
		{"trcidr", "trcidr0"}, {"trcidr", "trcidr1"},
		{"trcidr", "trcidr2"}, {"trcidr", "trcidr8"},
		{"mgmt", "trcauthstatus"}, {"mgmt", "trcdevarch"},
	};
	int err;

	blk[HWT_CS_BLK_CPU] = (uint64_t)cpu;
	if (kind == UNIT_ETMV3) {
		blk[HWT_CS_BLK_MAGIC] = HWT_CS_MAGIC_ETMV3;
		blk[HWT_CS_BLK_NR_PARAMS] = HWT_CS_ETMV3_NR_PARAMS;
		/* attr.config bits were made to match ETMCR. */
		blk[HWT_CS_ETMV3_ETMCR] = config;
		blk[HWT_CS_ETMV3_ETMTRACEIDR] = HWT_CS_LEGACY_TRACE_ID(cpu);
		err = unit_reg(os, pmu, cpu, "mgmt", "etmccer",
			       &blk[HWT_CS_ETMV3_ETMCCER]);
		if (err < 0)
			return err;
		return unit_reg(os, pmu, cpu, "mgmt", "etmidr",
				&blk[HWT_CS_ETMV3_ETMIDR]);
	}
	/* ETE is ETMv4 with TRCDEVARCH appended: same indexes up to it. */
	blk[HWT_CS_BLK_MAGIC] = kind == UNIT_ETE ? HWT_CS_MAGIC_ETE
						 : HWT_CS_MAGIC_ETMV4;
	blk[HWT_CS_BLK_NR_PARAMS] = kind == UNIT_ETE ? HWT_CS_ETE_NR_PARAMS
						     : HWT_CS_ETMV4_NR_PARAMS;
	blk[HWT_CS_ETMV4_TRCCONFIGR] = hwt_cs_trcconfigr_from_config(config);
	blk[HWT_CS_ETMV4_TRCTRACEIDR] = HWT_CS_LEGACY_TRACE_ID(cpu);
	for (size_t i = 0; i < sizeof(v4_regs) / sizeof(v4_regs[0]); i++) {
		if (kind != UNIT_ETE && !strcmp(v4_regs[i].name, "trcdevarch"))
			break;
		err = unit_reg(os, pmu, cpu, v4_regs[i].dir, v4_regs[i].name,
			       &blk[HWT_CS_ETMV4_TRCIDR0 + i]);
		/* No decoder reads TRCAUTHSTATUS; perf records 0 when the
		 * file is missing, and so do we. */
		if (err == HWT_ERR_NOENT &&
		    !strcmp(v4_regs[i].name, "trcauthstatus")) {
			blk[HWT_CS_ETMV4_TRCIDR0 + i] = 0;
			err = 0;
		}
		if (err < 0)
			return err;
	}
	return 0;
}

static size_t kind_words(enum unit_kind kind)
{
	switch (kind) {
	case UNIT_ETMV3: return HWT_CS_ETMV3_WORDS;
	case UNIT_ETMV4: return HWT_CS_ETMV4_WORDS;
	case UNIT_ETE: return HWT_CS_ETE_WORDS;
	}
	return 0;
}

int hwt_cs_info(const struct hwt_os *os, const struct hwt_pmu *pmu,
		    const struct perf_event_attr *attr, const int *cpus,
		    int ncpus, bool snapshot,
		    const struct hwt_record_info_ctx *ctx, uint64_t *priv,
		    size_t max)
{
	uint64_t config = attr ? attr->config : 0;
	size_t words = HWT_CS_HDR_WORDS, off;
	enum unit_kind *kinds = NULL;
	uint64_t type, nr = 0;
	bool *set = NULL;
	int err;

	if (!priv || (!os && !pmu))
		return hwt_error(HWT_ERR_INVAL, "cs_etm info: no %s given",
				 priv ? "PMU or OS" : "output buffer");
	err = read_type(os, pmu, attr, &type);
	if (err < 0)
		return err;
	set = calloc(HWT_CS_MAX_CPUS, sizeof(*set));
	kinds = calloc(HWT_CS_MAX_CPUS, sizeof(*kinds));
	if (!set || !kinds) {
		err = hwt_error(HWT_ERR_NOMEM, "cs_etm info: out of memory");
		goto out;
	}
	err = session_cpus(os, pmu, cpus, ncpus, set);
	if (err < 0)
		goto out;
	for (int c = 0; c < HWT_CS_MAX_CPUS; c++) {
		if (!set[c])
			continue;
		err = unit_kind(os, pmu, c, &kinds[c]);
		if (err < 0)
			goto out;
		words += kind_words(kinds[c]);
		nr++;
	}
	if (nr == 0) {
		err = hwt_error(HWT_ERR_NOENT,
				"cs_etm: no CPU to trace (sysfs/" CPU_ONLINE
				" and the CPU list are empty)");
		goto out;
	}
	if (words > max || words > (size_t)0x7fffffff) {
		err = hwt_error(HWT_ERR_NOSPC,
				"cs_etm AUXTRACE_INFO needs %zu words, room for %zu",
				words, max);
		goto out;
	}
	priv[HWT_CS_HDR_VERSION] = HWT_CS_HEADER_VERSION_WRITTEN;
	priv[HWT_CS_HDR_PMU_TYPE_CPUS] = (type << 32) | nr;
	priv[HWT_CS_HDR_SNAPSHOT] = snapshot;
	off = HWT_CS_HDR_WORDS;
	for (int c = 0; c < HWT_CS_MAX_CPUS; c++) {
		if (!set[c])
			continue;
		err = fill_block(os, pmu, c, kinds[c], config, &priv[off]);
		if (err < 0)
			goto out;
		off += kind_words(kinds[c]);
	}
	err = (int)words;
out:
	free(set);
	free(kinds);
	return err;
}

