/* Format fields: parsing "config:0-3,8" and packing values into them. */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/pmu.h"

static int bad(const char *text, const char *what, const char *why)
{
	return hwt_error(HWT_ERR_FORMAT, "%s: cannot parse format \"%s\": %s",
			 what, text, why);
}

static int parse_bit(const char **p, unsigned int *bit)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)**p))
		return -1;
	v = strtoul(*p, &end, 10);
	if (v > 63)
		return -1;
	*bit = (unsigned int)v;
	*p = end;
	return 0;
}

int hwt_pmu_format_parse(const char *text, const char *what,
			 struct hwt_pmu_format *fmt)
{
	const char *p = text;
	unsigned int total = 0;

	while (*p == ' ')
		p++;
	if (!strncmp(p, "config3:", 8)) {
		fmt->word = 3;
		p += 8;
	} else if (!strncmp(p, "config2:", 8)) {
		fmt->word = 2;
		p += 8;
	} else if (!strncmp(p, "config1:", 8)) {
		fmt->word = 1;
		p += 8;
	} else if (!strncmp(p, "config:", 7)) {
		fmt->word = 0;
		p += 7;
	} else {
		return bad(text, what, "expected config, config1, config2 or config3");
	}
	fmt->nranges = 0;
	for (;;) {
		unsigned int lo, hi;

		if (parse_bit(&p, &lo))
			return bad(text, what, "expected a bit number 0-63");
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_bit(&p, &hi) || hi < lo)
				return bad(text, what, "bad bit range");
		}
		if (fmt->nranges == HWT_PMU_MAX_RANGES)
			return bad(text, what, "too many bit ranges");
		total += hi - lo + 1;
		if (total > 64)
			return bad(text, what, "more than 64 bits");
		fmt->ranges[fmt->nranges].lo = (uint8_t)lo;
		fmt->ranges[fmt->nranges].hi = (uint8_t)hi;
		fmt->nranges++;
		if (*p != ',')
			break;
		p++;
	}
	while (*p == ' ' || *p == '\n')
		p++;
	if (*p)
		return bad(text, what, "unexpected text after the bit ranges");
	return 0;
}

unsigned int hwt_pmu_format_width(const struct hwt_pmu_format *fmt)
{
	unsigned int w = 0;

	for (unsigned int i = 0; i < fmt->nranges; i++)
		w += fmt->ranges[i].hi - fmt->ranges[i].lo + 1u;
	return w;
}

static uint64_t range_mask(const struct hwt_bit_range *r)
{
	unsigned int n = r->hi - r->lo + 1u;
	uint64_t m = n == 64 ? ~0ull : ((1ull << n) - 1);

	return m << r->lo;
}

uint64_t hwt_pmu_format_mask(const struct hwt_pmu_format *fmt)
{
	uint64_t m = 0;

	for (unsigned int i = 0; i < fmt->nranges; i++)
		m |= range_mask(&fmt->ranges[i]);
	return m;
}

static uint64_t *config_word(int word, struct perf_event_attr *attr)
{
	switch (word) {
	case 0: return (uint64_t *)&attr->config;
	case 1: return (uint64_t *)&attr->config1;
	case 2: return (uint64_t *)&attr->config2;
	}
	return NULL;
}

static const char *word_name(int word)
{
	static const char *const names[] = {"config", "config1", "config2",
					    "config3"};
	return word >= 0 && word < 4 ? names[word] : "config?";
}

int hwt_pmu_format_set(const struct hwt_pmu_format *fmt, uint64_t value,
		       struct perf_event_attr *attr)
{
	unsigned int width = hwt_pmu_format_width(fmt);
	uint64_t *w = config_word(fmt->word, attr);
	unsigned int shift = 0;

	if (!w)
		return hwt_error(HWT_ERR_NOSUP,
				 "term %s lives in %s, which this build's "
				 "perf_event_attr does not have (kernel headers "
				 "before 6.3); leave %s out of the profile",
				 fmt->name, word_name(fmt->word), fmt->name);
	if (width < 64 && value >> width)
		return hwt_error(HWT_ERR_CONFIG,
				 "value %" PRIu64 " does not fit %s (%u bit%s of "
				 "%s); the largest value is %" PRIu64,
				 value, fmt->name, width, width == 1 ? "" : "s",
				 word_name(fmt->word), (uint64_t)((1ull << width) - 1));
	*w &= ~hwt_pmu_format_mask(fmt);
	for (unsigned int i = 0; i < fmt->nranges; i++) {
		const struct hwt_bit_range *r = &fmt->ranges[i];
		unsigned int n = r->hi - r->lo + 1u;
		uint64_t part = n == 64 ? value : (value >> shift) & ((1ull << n) - 1);

		*w |= part << r->lo;
		shift += n;
	}
	return 0;
}

uint64_t hwt_pmu_format_get(const struct hwt_pmu_format *fmt,
			    const struct perf_event_attr *attr)
{
	const uint64_t *w = config_word(fmt->word, (struct perf_event_attr *)attr);
	uint64_t v = 0;
	unsigned int shift = 0;

	if (!w)
		return 0;
	for (unsigned int i = 0; i < fmt->nranges; i++) {
		const struct hwt_bit_range *r = &fmt->ranges[i];
		unsigned int n = r->hi - r->lo + 1u;

		v |= ((*w & range_mask(r)) >> r->lo) << shift;
		shift += n;
	}
	return v;
}

int hwt_pmu_term_set(const struct hwt_pmu *pmu, const char *term,
		     uint64_t value, struct perf_event_attr *attr)
{
	const struct hwt_pmu_format *fmt = hwt_pmu_format(pmu, term);

	if (!fmt)
		return hwt_error(HWT_ERR_NOENT, "%s has no format term %s "
				 "(sysfs/bus/event_source/devices/%s/format/%s)",
				 pmu->name, term, pmu->name, term);
	return hwt_pmu_format_set(fmt, value, attr);
}
