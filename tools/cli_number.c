/* The numbers the subcommands' options take, parsed and range-checked in
 * one place so every option rejects the same mistakes (signs, trailing
 * letters, overflow, zero where zero means nothing) with one message
 * shape: "hwtrace CMD: OPTION VALUE: what is wrong (valid: RANGE)". */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "hwtrace/decode.h"

static int range_error(const struct cli_number *n, const char *text,
		       const char *what)
{
	return cli_usage_error(n->cmd, "%s %s: %s (valid: %s)", n->option, text,
			       what, n->valid);
}

/* An unsigned number, decimal or 0x hex, with nothing before or after. */
static int parse_plain(const char *text, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!text[0] || !(text[0] >= '0' && text[0] <= '9'))
		return -1;
	errno = 0;
	v = strtoull(text, &end, 0);
	if (errno == ERANGE)
		return -2;
	if (end == text || *end)
		return -1;
	*out = v;
	return 0;
}

int cli_number_u64(const struct cli_number *n, const char *text, uint64_t *out)
{
	uint64_t v;
	int r = parse_plain(text, &v);

	if (r == -2)
		return range_error(n, text, "too large");
	if (r < 0)
		return range_error(n, text, "not a number");
	if (v < n->min || v > n->max)
		return range_error(n, text, "out of range");
	*out = v;
	return 0;
}

int cli_number_size(const struct cli_number *n, const char *text,
		    uint64_t *out)
{
	char digits[32];
	size_t len = strlen(text);
	unsigned shift = 0;
	uint64_t v;
	int r;

	if (len && len < sizeof(digits)) {
		switch (text[len - 1]) {
		case 'k': case 'K': shift = 10; break;
		case 'm': case 'M': shift = 20; break;
		case 'g': case 'G': shift = 30; break;
		}
	}
	if (!len || len >= sizeof(digits) || (shift && len == 1))
		return range_error(n, text, "not a size (e.g. 4096, 64K, 4M)");
	memcpy(digits, text, len - (shift ? 1 : 0));
	digits[len - (shift ? 1 : 0)] = 0;
	r = parse_plain(digits, &v);
	if (r == -1)
		return range_error(n, text, "not a size (e.g. 4096, 64K, 4M)");
	if (r == -2 || (shift && v > (UINT64_MAX >> shift)))
		return range_error(n, text, "too large");
	v <<= shift;
	if (v < n->min || v > n->max)
		return range_error(n, text, "out of range");
	*out = v;
	return 0;
}

int cli_number_double(const struct cli_number *n, const char *text,
		      double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (end == text || *end || !(text[0] >= '0' && text[0] <= '9'))
		return range_error(n, text, "not a number");
	if (errno == ERANGE || !isfinite(v) || v <= lo || v > hi)
		return range_error(n, text, "out of range");
	*out = v;
	return 0;
}

/* Ring sizes: a power of two pages, as the kernel maps them. */
static int ring_pages(const char *cmd, const char *option, const char *all,
		      const char *part, size_t len, const char *which,
		      uint32_t *out)
{
	char text[32];
	uint64_t v;
	int r;

	if (!len) {
		*out = 0; /* the default */
		return 0;
	}
	if (len >= sizeof(text))
		return cli_usage_error(cmd, "%s %s: %s pages: not a number (valid: "
				       "a power of two, 1 to %u)", option, all,
				       which, CLI_MAX_RING_PAGES);
	memcpy(text, part, len);
	text[len] = 0;
	r = parse_plain(text, &v);
	if (r < 0 || v == 0 || v > CLI_MAX_RING_PAGES || (v & (v - 1)))
		return cli_usage_error(cmd, "%s %s: %s pages %s: %s (valid: a "
				       "power of two, 1 to %u)", option, all,
				       which, text,
				       r == -1 ? "not a number" :
				       r == -2 || v > CLI_MAX_RING_PAGES ?
				       "too large" : v == 0 ? "zero pages" :
				       "not a power of two", CLI_MAX_RING_PAGES);
	*out = (uint32_t)v;
	return 0;
}

int cli_parse_pages(const char *cmd, const char *option, const char *arg,
		    uint32_t *data, uint32_t *aux)
{
	const char *comma = strchr(arg, ',');
	size_t dlen = comma ? (size_t)(comma - arg) : strlen(arg);
	int r;

	if (!arg[0] || (comma && !comma[1]) || (comma && strchr(comma + 1, ',')))
		return cli_usage_error(cmd, "%s %s: expected DATA_PAGES[,AUX_PAGES]",
				       option, arg);
	if ((r = ring_pages(cmd, option, arg, arg, dlen, "data", data)))
		return r;
	return comma ? ring_pages(cmd, option, arg, comma + 1,
				  strlen(comma + 1), "AUX", aux) :
		       (*aux = 0, 0);
}

int cli_jobs(const char *cmd, const char *arg, unsigned int *jobs)
{
	uint64_t n = 0;
	int r = cli_number_u64(&(struct cli_number){cmd, "--jobs", 1,
			CLI_MAX_JOBS, "1 to 256"}, arg, &n);
	if (!r)
		*jobs = (unsigned int)n;
	return r;
}

int cli_virtual_lbr(const char *cmd, const char *arg, unsigned int *n)
{
	uint64_t v = 0;
	int r = cli_number_u64(&(struct cli_number){cmd, "--virtual-lbr", 1,
			HWT_VIRTUAL_LBR_MAX, "1 to 1024 records a sample; "
			"an LBR holds 8 to 32, BRBE up to 64"}, arg, &v);
	if (!r)
		*n = (unsigned int)v;
	return r;
}

unsigned int cli_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > CLI_MAX_JOBS ? CLI_MAX_JOBS : (unsigned int)n;
}

int cli_parse_u64(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (end == s || *end || errno || *s == '-')
		return -1;
	*out = v;
	return 0;
}

/* A perf time: ns, or seconds with a fraction ("641256.038"). */
static int parse_time(const char *s, size_t len, uint64_t *out)
{
	char buf[64];
	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	char *dot = strchr(buf, '.');
	if (!dot)
		return cli_parse_u64(buf, out);
	*dot = 0;
	uint64_t sec = 0, frac = 0;
	size_t digits = strlen(dot + 1);
	if ((buf[0] && cli_parse_u64(buf, &sec)) || digits > 9 ||
	    (digits && cli_parse_u64(dot + 1, &frac)))
		return -1;
	for (size_t i = digits; i < 9; i++)
		frac *= 10;
	*out = sec * 1000000000ull + frac;
	return 0;
}

int cli_parse_time_range(const char *s, struct hwt_decode_opts *o)
{
	const char *comma = strchr(s, ',');
	if (!comma)
		return -1;
	o->time_start = 0;
	o->time_end = UINT64_MAX;
	if (comma > s && parse_time(s, (size_t)(comma - s), &o->time_start))
		return -1;
	if (comma[1] && parse_time(comma + 1, strlen(comma + 1), &o->time_end))
		return -1;
	o->filter_time = true;
	return o->time_start <= o->time_end ? 0 : -1;
}
