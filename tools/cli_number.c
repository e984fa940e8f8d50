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
#include "hwtrace/error.h"
#include "hwtrace/record_options.h"
#include "hwtrace/value.h"

static int range_error(const struct cli_number *n, const char *text,
		       const char *what)
{
	return cli_usage_error(n->cmd, "%s %s: %s (valid: %s)", n->option, text,
			       what, n->valid);
}

int cli_number_u64(const struct cli_number *n, const char *text, uint64_t *out)
{
	uint64_t v;
	int r = hwt_value_parse_u64(text, &v);

	if (r == HWT_VALUE_TOO_LARGE)
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
	uint64_t v = 0;
	int r = hwt_value_parse_size(text, &v);

	if (r == HWT_VALUE_BAD)
		return range_error(n, text, "not a size (e.g. 4096, 64K, 4M)");
	if (r == HWT_VALUE_TOO_LARGE)
		return range_error(n, text, "too large");
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

int cli_parse_pages(const char *cmd, const char *option, const char *arg,
		    uint32_t *data, uint32_t *aux)
{
	if (hwt_record_ring_pages_parse(option, arg, data, aux))
		return cli_usage_error(cmd, "%s", hwt_errmsg());
	return 0;
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

int cli_unit(const char *cmd, const char *arg, size_t *unit)
{
	uint64_t v = 0;
	int r = cli_number_u64(&(struct cli_number){cmd, "--unit", 1,
			1000000000, "a unit number from 1 (hwtrace units "
			"lists them)"}, arg, &v);
	if (!r)
		*unit = (size_t)v;
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
	return hwt_value_parse_u64(s, out) == HWT_VALUE_OK ? 0 : -1;
}
