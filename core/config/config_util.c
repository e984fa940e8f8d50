/* Helpers for profile messages and perf-style attr printing. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/config/config_internal.h"

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[65];

	if (la > 64 || lb > 64)
		return 64;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t best = diag + cost;

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *hwt_config_nearest(const char *word,
			       const char *const *candidates, size_t count)
{
	const char *best = NULL;
	size_t best_d = 0, len = strlen(word);
	size_t limit = len / 3 > 2 ? len / 3 : 2;

	for (size_t i = 0; i < count; i++) {
		size_t d = edit_distance(word, candidates[i]);

		/* A prefix ("psb" for "psb_period") is a plausible slip too. */
		if (d > limit && len >= 3 && !strncmp(candidates[i], word, len))
			d = limit;
		if (d <= limit && (!best || d < best_d)) {
			best = candidates[i];
			best_d = d;
		}
	}
	return best;
}

void hwt_config_valid_str(uint64_t valid, char *buf, size_t size)
{
	size_t pos = 0;
	int first = 1;

	buf[0] = '\0';
	for (unsigned int v = 0; v < 64; v++) {
		unsigned int end = v;
		int n;

		if (!(valid >> v & 1))
			continue;
		while (end + 1 < 64 && (valid >> (end + 1) & 1))
			end++;
		if (end == v)
			n = snprintf(buf + pos, size - pos, "%s%u", first ? "" : ",", v);
		else if (end == v + 1)
			n = snprintf(buf + pos, size - pos, "%s%u,%u",
				     first ? "" : ",", v, end);
		else
			n = snprintf(buf + pos, size - pos, "%s%u-%u",
				     first ? "" : ",", v, end);
		if (n < 0 || (size_t)n >= size - pos)
			return;
		pos += (size_t)n;
		first = 0;
		v = end;
	}
}

const char *hwt_config_where(const struct hwt_profile *p, const char *key)
{
	const char *o = hwt_profile_origin(p, key);

	return o ? o : "default";
}

bool hwt_config_term_set(const struct hwt_profile *p, const char *section,
			 const char *term)
{
	char key[96];

	snprintf(key, sizeof(key), "%s:%s", section, term);
	return hwt_profile_get(p, key) != NULL;
}

const char *hwt_config_term_where(const struct hwt_profile *p,
				  const char *section, const char *term)
{
	char key[96];

	snprintf(key, sizeof(key), "%s:%s", section, term);
	return hwt_config_where(p, key);
}

struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->len < o->size ? o->buf + o->len : NULL,
		      o->len < o->size ? o->size - o->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

static void field(struct out *o, const char *name, const char *value)
{
	put(o, "  %-32s %s\n", name, value);
}

static void field_u64(struct out *o, const char *name, uint64_t v, int hex)
{
	char buf[32];

	if (!v)
		return;
	snprintf(buf, sizeof(buf), hex ? "%#" PRIx64 : "%" PRIu64, v);
	field(o, name, buf);
}

static void flags(struct out *o, const char *name, uint64_t v,
		  const char *const *names, size_t count)
{
	char buf[512];
	size_t pos = 0;

	if (!v)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < count && i < 64; i++) {
		if (!(v >> i & 1) || !names[i])
			continue;
		pos += (size_t)snprintf(buf + pos, sizeof(buf) - pos, "%s%s",
					pos ? "|" : "", names[i]);
		v &= ~(1ull << i);
		if (pos >= sizeof(buf))
			break;
	}
	if (v && pos < sizeof(buf))
		snprintf(buf + pos, sizeof(buf) - pos, "%s%#" PRIx64,
			 pos ? "|" : "", v);
	field(o, name, buf);
}

int hwt_attr_format(const struct perf_event_attr *a, const char *pmu_name,
		    char *buf, size_t size)
{
	static const char *const sample_names[] = {
		"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU",
		"PERIOD", "STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER",
		"STACK_USER", "WEIGHT", "DATA_SRC", "IDENTIFIER", "TRANSACTION",
		"REGS_INTR", "PHYS_ADDR", "AUX", "CGROUP", "DATA_PAGE_SIZE",
		"CODE_PAGE_SIZE", "WEIGHT_STRUCT",
	};
	static const char *const read_names[] = {
		"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST",
	};
	struct out o = {buf, size, 0};
	char tmp[96];

	if (size)
		buf[0] = '\0';
	put(&o, "perf_event_attr:\n");
	if (pmu_name)
		snprintf(tmp, sizeof(tmp), "%u (%s)", a->type, pmu_name);
	else
		snprintf(tmp, sizeof(tmp), "%u", a->type);
	field(&o, "type", tmp);
	field_u64(&o, "size", a->size, 0);
	field_u64(&o, "config", a->config, 1);
	field_u64(&o, a->freq ? "{ sample_period, sample_freq }" :
		  "{ sample_period, sample_freq }", a->sample_period, 0);
	flags(&o, "sample_type", a->sample_type, sample_names,
	      sizeof(sample_names) / sizeof(sample_names[0]));
	flags(&o, "read_format", a->read_format, read_names,
	      sizeof(read_names) / sizeof(read_names[0]));
#define BIT_FIELD(f) field_u64(&o, #f, a->f, 0)
	BIT_FIELD(disabled);
	BIT_FIELD(inherit);
	BIT_FIELD(pinned);
	BIT_FIELD(exclusive);
	BIT_FIELD(exclude_user);
	BIT_FIELD(exclude_kernel);
	BIT_FIELD(exclude_hv);
	BIT_FIELD(exclude_idle);
	BIT_FIELD(mmap);
	BIT_FIELD(comm);
	BIT_FIELD(freq);
	BIT_FIELD(inherit_stat);
	BIT_FIELD(enable_on_exec);
	BIT_FIELD(task);
	BIT_FIELD(watermark);
	BIT_FIELD(precise_ip);
	BIT_FIELD(mmap_data);
	BIT_FIELD(sample_id_all);
	BIT_FIELD(exclude_host);
	BIT_FIELD(exclude_guest);
	BIT_FIELD(exclude_callchain_kernel);
	BIT_FIELD(exclude_callchain_user);
	BIT_FIELD(mmap2);
	BIT_FIELD(comm_exec);
	BIT_FIELD(use_clockid);
	BIT_FIELD(context_switch);
	BIT_FIELD(write_backward);
	BIT_FIELD(namespaces);
	BIT_FIELD(ksymbol);
	BIT_FIELD(bpf_event);
	BIT_FIELD(aux_output);
	BIT_FIELD(cgroup);
	BIT_FIELD(text_poke);
	BIT_FIELD(build_id);
#undef BIT_FIELD
	field_u64(&o, "{ wakeup_events, wakeup_watermark }", a->wakeup_events, 0);
	field_u64(&o, "{ bp_addr, config1 }", a->config1, 1);
	field_u64(&o, "{ bp_len, config2 }", a->config2, 1);
	field_u64(&o, "aux_watermark", a->aux_watermark, 0);
	field_u64(&o, "aux_sample_size", a->aux_sample_size, 0);
	return (int)o.len;
}
