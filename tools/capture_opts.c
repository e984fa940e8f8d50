#include <errno.h>
#include <stdlib.h>

#include "capture_opts.h"
#include "cli.h"

void capture_opts_init(struct capture_opts *o)
{
	o->decode.size = sizeof(o->decode);
	o->decode.lookup.size = sizeof(o->decode.lookup);
	o->per_cpu = false;
}

int capture_opts_number(const char *cmd, const char *name, const char *arg,
			unsigned long long min, unsigned long long max,
			unsigned long long *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	if (end == arg || *end || errno || *arg == '-' || v < min || v > max)
		return cli_usage_error(cmd, "%s %s: a whole number from %llu to "
				       "%llu", name, arg, min, max);
	*out = v;
	return 0;
}

int capture_opts_option(struct capture_opts *o, const char *cmd, int opt,
			const char *arg)
{
	struct hwt_decode_opts *d = &o->decode;
	unsigned long long v;
	int rc;
	switch (opt) {
	case OPT_CAP_PER_CPU:
		o->per_cpu = true;
		return 1;
	case OPT_CAP_TID:
		if ((rc = capture_opts_number(cmd, "--tid", arg, 0, INT32_MAX, &v)))
			return rc;
		d->filter_tid = true;
		d->tid = (int32_t)v;
		return 1;
	case OPT_CAP_CPU:
		if ((rc = capture_opts_number(cmd, "--cpu", arg, 0, 65535, &v)))
			return rc;
		d->filter_cpu = true;
		d->cpu = (int32_t)v;
		return 1;
	case OPT_CAP_TIME:
		if (cli_parse_time_range(arg, d))
			return cli_usage_error(cmd, "--time %s: expected START,END "
					       "(ns, or seconds with a '.')", arg);
		return 1;
	case OPT_CAP_SYMFS:
		d->lookup.symfs = arg;
		return 1;
	case OPT_CAP_BUILDID_DIR:
		d->lookup.buildid_dir = arg;
		return 1;
	case OPT_CAP_VMLINUX:
		d->lookup.vmlinux = arg;
		return 1;
	case OPT_CAP_KCORE:
		d->kcore = arg;
		return 1;
	}
	return 0;
}
