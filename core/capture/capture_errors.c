/* Saying why the kernel refused, and what to do about it. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/capture/capture_internal.h"
#include "hwtrace/auxaction.h"
#include "hwtrace/error.h"

static long read_proc_long(const struct hwt_os *os, const char *path,
			   long fallback)
{
	char buf[64];

	if (os->ops->procfs_read(os->ctx, path, buf, sizeof(buf)) <= 0)
		return fallback;
	return strtol(buf, NULL, 10);
}

/* What the OS says of its last refusal of perf_event_open, beyond the
 * errno (hwt_os_ops.open_refusal): true when it said something. */
static bool open_refusal(const struct hwt_os *os, char *buf, size_t size)
{
	const struct hwt_os_ops *ops = os->ops;

	if (ops->size < offsetof(struct hwt_os_ops, open_refusal) +
				sizeof(ops->open_refusal) ||
	    !ops->open_refusal)
		return false;
	return ops->open_refusal(os->ctx, buf, size) > 0;
}

int hwt_capture_explain(const struct hwt_os *os, int err, const char *what,
			const char *pmu, const struct perf_event_attr *attr,
			int cpu, unsigned long long bytes)
{
	long paranoid = read_proc_long(os, "sys/kernel/perf_event_paranoid", 2);
	long mlock_kb = read_proc_long(os, "sys/kernel/perf_event_mlock_kb", 516);
	struct rlimit rl = {0, 0};
	char cpus[32], why[320];

	getrlimit(RLIMIT_MEMLOCK, &rl);
	if (cpu >= 0)
		snprintf(cpus, sizeof(cpus), "cpu %d", cpu);
	else
		snprintf(cpus, sizeof(cpus), "per-thread");
	/* perf_mmap() answers EPERM when the pages would pass the locked
	 * memory limits of an unprivileged user: that is not paranoia. */
	if (!strncmp(what, "mmap", 4) && err == -EPERM)
		err = -ENOMEM;
	switch (-err) {
	case EACCES:
	case EPERM:
		return hwt_error(HWT_ERR_PERM,
				 "%s of %s (%s) refused: %s. "
				 "/proc/sys/kernel/perf_event_paranoid is %ld; "
				 "system-wide and kernel tracing need it at -1 (or 0 for "
				 "CPU-wide without kernel) or CAP_PERFMON: run as root, "
				 "`sysctl kernel.perf_event_paranoid=-1`, or trace your "
				 "own process (-p/-- CMD) with exclude_kernel (:u)",
				 what, pmu, cpus, strerror(-err), paranoid);
	case ENOMEM:
		return hwt_error(HWT_ERR_NOMEM,
				 "%s of %s (%s, %llu bytes) refused: cannot lock "
				 "that much memory. The limit is perf_event_mlock_kb "
				 "(%ld KiB per user, /proc/sys/kernel/perf_event_mlock_kb) "
				 "plus RLIMIT_MEMLOCK (%llu KiB, `ulimit -l`). Use fewer "
				 "pages (-m DATA,AUX), raise them with `sysctl "
				 "kernel.perf_event_mlock_kb=N` or `ulimit -l N`, or run "
				 "with CAP_IPC_LOCK",
				 what, pmu, cpus, bytes, mlock_kb,
				 rl.rlim_cur == RLIM_INFINITY ?
					 0ULL : (unsigned long long)rl.rlim_cur / 1024);
	case ENOENT:
		return hwt_error(HWT_ERR_NOENT,
				 "%s of %s (%s): the kernel does not know PMU type %u "
				 "config 0x%llx: check `hwtrace list` and that the "
				 "driver is loaded",
				 what, pmu, cpus, attr ? attr->type : 0,
				 attr ? (unsigned long long)attr->config : 0ULL);
	case EOPNOTSUPP:
		/* The OS knows why (the emulator): say that. */
		if (open_refusal(os, why, sizeof(why)))
			return hwt_error(HWT_ERR_NOSUP, "%s of %s (%s) refused: "
					 "%s: %s%s", what, pmu, cpus,
					 strerror(-err), why,
					 attr && hwt_attr_aux_action(attr) ?
						 " (docs/record.md \"Triggers in "
						 "the kernel\")" : "");
		/* A pause/resume probe: no term is wrong, the trace PMU
		 * cannot be paused by another event. */
		if (attr && hwt_attr_aux_action(attr))
			return hwt_error(HWT_ERR_NOSUP,
					 "%s of %s (%s) refused: %s. The trace event "
					 "cannot be paused or resumed by another event "
					 "here (aux_action): a kernel before 6.13, a "
					 "driver without it, or the emulator replaying "
					 "a capture whose trace it cannot cut there "
					 "(cs_etm: other trace IDs, cycle counts, two "
					 "cuts in one frame...); `hwtrace config check` "
					 "says which, "
					 "docs/record.md \"Triggers in the kernel\"",
					 what, pmu, cpus, strerror(-err));
		/* fall through */
	case EINVAL:
		return hwt_error(HWT_ERR_CONFIG,
				 "%s of %s (%s) refused: %s. A term of the event is "
				 "not supported here (config 0x%llx config1 0x%llx "
				 "config2 0x%llx): check the PMU's format/ and caps/ "
				 "in sysfs and the profile's values",
				 what, pmu, cpus, strerror(-err),
				 attr ? (unsigned long long)attr->config : 0ULL,
				 attr ? (unsigned long long)attr->config1 : 0ULL,
				 attr ? (unsigned long long)attr->config2 : 0ULL);
	case EBUSY:
		return hwt_error(HWT_ERR_BUSY,
				 "%s of %s (%s): the trace unit is in use by another "
				 "session; stop it and retry", what, pmu, cpus);
	default:
		return hwt_error(HWT_ERR_IO, "%s of %s (%s): %s", what, pmu, cpus,
				 strerror(-err));
	}
}
