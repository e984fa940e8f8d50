/* An event group for branch counters: perf's brace syntax
 * (tools/perf/util/parse-events: '{A,B}' is a group led by A) parsed into
 * members, and the rules the kernel's intel_pmu_hw_config applies to a
 * group whose events ask for PERF_SAMPLE_BRANCH_COUNTERS, checked before
 * anything is opened so that a command line hears them as usage errors. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/brstack.h"
#include "hwtrace/error.h"

/* The hardware events a member may name, perf's spellings. */
static const struct {
	const char *name;
	uint64_t config;
} hw_events[] = {
	{"branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
	{"branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
	{"branch-misses", PERF_COUNT_HW_BRANCH_MISSES},
	{"cycles", PERF_COUNT_HW_CPU_CYCLES},
	{"cpu-cycles", PERF_COUNT_HW_CPU_CYCLES},
	{"instructions", PERF_COUNT_HW_INSTRUCTIONS},
};

#define PRIV_BITS                                                           \
	(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |              \
	 PERF_SAMPLE_BRANCH_HV)

static bool hw_event(const char *s, size_t n, uint64_t *config)
{
	for (size_t i = 0; i < sizeof(hw_events) / sizeof(*hw_events); i++)
		if (strlen(hw_events[i].name) == n &&
		    !strncmp(s, hw_events[i].name, n)) {
			*config = hw_events[i].config;
			return true;
		}
	return false;
}

/* A term's number (event=0xc4, umask=254) of at most @max. */
static bool term_number(const char *s, size_t n, uint64_t max, uint64_t *v)
{
	char buf[32], *end;
	if (!n || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = 0;
	if (buf[0] < '0' || buf[0] > '9')
		return false;
	unsigned long long x = strtoull(buf, &end, 0);
	if (*end || x > max)
		return false;
	*v = x;
	return true;
}

struct ctx {
	const char *what, *spec;
};

/* Term @t (@n bytes) of member @m. */
static int one_term(const struct ctx *c, struct hwt_branch_member *m,
		    const char *t, size_t n, bool *named, bool *raw)
{
	uint64_t v;
	if (n > 12 && !strncmp(t, "branch_type=", 12)) {
		char filter[64];
		if (n - 12 >= sizeof(filter))
			return hwt_error(HWT_ERR_CONFIG, "%s %s: event %s: "
					 "branch_type value too long", c->what,
					 c->spec, m->name);
		memcpy(filter, t + 12, n - 12);
		filter[n - 12] = 0;
		char what[4400];
		snprintf(what, sizeof(what), "%s %s: event %s: branch_type",
			 c->what, c->spec, m->name);
		uint64_t bits;
		int err = hwt_branch_filter_parse(filter, what, &bits);
		if (err < 0)
			return err;
		m->branch_type |= bits;
		return 0;
	}
	if (n > 6 && !strncmp(t, "event=", 6) && term_number(t + 6, n - 6, 0xff, &v)) {
		m->config = (m->config & ~0xffull) | v;
		*raw = true;
		return 0;
	}
	if (n > 6 && !strncmp(t, "umask=", 6) && term_number(t + 6, n - 6, 0xff, &v)) {
		m->config = (m->config & ~0xff00ull) | v << 8;
		*raw = true;
		return 0;
	}
	if (!*named && hw_event(t, n, &v)) {
		m->config = v;
		*named = true;
		return 0;
	}
	return hwt_error(HWT_ERR_CONFIG, "%s %s: event %s: unknown term %.*s "
			 "(a hardware event's name, event=N, umask=N or "
			 "branch_type=FILTER)", c->what, c->spec, m->name,
			 (int)n, t);
}

/* One event @s (@n bytes) of the group into @m. */
static int one_event(const struct ctx *c, const char *s, size_t n,
		     struct hwt_branch_member *m)
{
	memset(m, 0, sizeof(*m));
	if (!n)
		return hwt_error(HWT_ERR_CONFIG, "%s %s: an empty event in the "
				 "group", c->what, c->spec);
	if (n >= sizeof(m->name))
		return hwt_error(HWT_ERR_CONFIG, "%s %s: event %.*s...: longer "
				 "than %zu bytes", c->what, c->spec, 20, s,
				 sizeof(m->name) - 1);
	memcpy(m->name, s, n);
	m->type = PERF_TYPE_HARDWARE;
	const char *slash = memchr(s, '/', n);
	if (!slash) {
		if (!hw_event(s, n, &m->config))
			return hwt_error(HWT_ERR_CONFIG, "%s %s: unknown event %s "
					 "(branches, branch-instructions, "
					 "branch-misses, cycles, cpu-cycles, "
					 "instructions, or PMU/TERMS/)", c->what,
					 c->spec, m->name);
		return 0;
	}
	size_t pn = (size_t)(slash - s);
	if (!pn || pn >= sizeof(m->pmu) || s[n - 1] != '/' || slash == s + n - 1)
		return hwt_error(HWT_ERR_CONFIG, "%s %s: event %s is not "
				 "PMU/TERMS/", c->what, c->spec, m->name);
	memcpy(m->pmu, s, pn);
	const char *t = slash + 1, *end = s + n - 1;
	bool named = false, raw = false;
	while (t < end) {
		const char *comma = memchr(t, ',', (size_t)(end - t));
		size_t tn = comma ? (size_t)(comma - t) : (size_t)(end - t);
		int err = one_term(c, m, t, tn, &named, &raw);
		if (err < 0)
			return err;
		t += tn + 1;
	}
	if (named == raw)
		return hwt_error(HWT_ERR_CONFIG, "%s %s: event %s: give a "
				 "hardware event's name or event=N (with "
				 "umask=N), one of the two", c->what, c->spec,
				 m->name);
	if (raw)
		m->type = PERF_TYPE_RAW;
	return 0;
}

int hwt_branch_group_parse(const char *spec, const char *what,
			   struct hwt_branch_group *out)
{
	struct ctx c = {what, spec ? spec : ""};
	memset(out, 0, sizeof(*out));
	size_t len = strlen(c.spec);
	if (len < 2 || c.spec[0] != '{' || c.spec[len - 1] != '}')
		return hwt_error(HWT_ERR_CONFIG, "%s %s: not an event group: "
				 "branch counters count the events of a group, "
				 "give -e '{LEADER,MEMBER,...}' (perf's braces)",
				 c.what, c.spec);
	const char *s = c.spec + 1, *end = c.spec + len - 1;
	for (;;) {
		/* A comma inside PMU/.../ separates terms, not events. */
		const char *e = s;
		bool in_terms = false;
		while (e < end && (in_terms || *e != ',')) {
			if (*e == '/')
				in_terms = !in_terms;
			e++;
		}
		if (out->n == HWT_BRANCH_GROUP_MAX)
			return hwt_error(HWT_ERR_CONFIG, "%s %s: more than %u "
					 "events in the group", c.what, c.spec,
					 HWT_BRANCH_GROUP_MAX);
		int err = one_event(&c, s, (size_t)(e - s), &out->m[out->n]);
		if (err < 0)
			return err;
		out->n++;
		if (e == end)
			break;
		s = e + 1;
	}
	return 0;
}

uint64_t hwt_branch_group_member_mode(const struct hwt_branch_group *g,
				      unsigned i, uint64_t mode)
{
	uint64_t own = g->m[i].branch_type;
	if (i == 0)
		return mode | own;
	return ((mode | own) & HWT_SAMPLE_BRANCH_COUNTERS) | (mode & PRIV_BITS);
}

int hwt_branch_group_check(const struct hwt_branch_group *g,
			   const struct hwt_branch_hw *hw, uint64_t mode,
			   const char *what)
{
	const char *pmu = hw && hw->depth ? hw->pmu : "cpu";
	unsigned asking = 0;
	for (unsigned i = 0; i < g->n; i++) {
		const struct hwt_branch_member *m = &g->m[i];
		if (*m->pmu && strcmp(m->pmu, pmu))
			return hwt_error(HWT_ERR_CONFIG, "%s: a group with branch "
					 "counters is of one PMU, the branch "
					 "records' (%s): %s is on %s (the kernel "
					 "counts only its own events into the "
					 "records)", what, pmu, m->name, m->pmu);
		if (hwt_branch_group_member_mode(g, i, mode) &
		    HWT_SAMPLE_BRANCH_COUNTERS)
			asking++;
		if ((mode | m->branch_type) & PERF_SAMPLE_BRANCH_CALL_STACK)
			return hwt_error(HWT_ERR_CONFIG, "%s: %s: branch counters "
					 "are not recorded in call-stack mode "
					 "(-j stack; the kernel refuses it)", what,
					 m->name);
	}
	if (!asking)
		return hwt_error(HWT_ERR_CONFIG, "%s: no event of the group asks "
				 "for branch counters: give -j ...,counter or a "
				 "member's branch_type=counter (a group records "
				 "its members' counts only there)", what);
	/* Only the sampling event's samples carry the words (the kernel
	 * writes them where the sampled event asks for them). */
	if (!(hwt_branch_group_member_mode(g, 0, mode) & HWT_SAMPLE_BRANCH_COUNTERS))
		return hwt_error(HWT_ERR_CONFIG, "%s: the leader %s samples the "
				 "records and writes their counters: it asks "
				 "for counters too (-j ...,counter or its "
				 "branch_type=counter)", what, g->m[0].name);
	if (!hw || !hw->counters)
		return hwt_error(HWT_ERR_CONFIG, "%s: branch counters are not "
				 "supported here: %s has no caps/branch_counter_nr "
				 "(Intel LBR from Linux 6.8 only)", what, pmu);
	if (asking > hw->counters)
		return hwt_error(HWT_ERR_CONFIG, "%s: %u events of the group ask "
				 "for branch counters and %s has %u (caps/"
				 "branch_counter_nr)", what, asking, pmu,
				 hw->counters);
	return 0;
}
