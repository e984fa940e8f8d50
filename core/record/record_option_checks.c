/* hwt_record_check_combination: which of record's options may go
 * together, checked in one fixed order so that a command line with
 * several mistakes is always told of the same one first. Each message
 * names the options and says what to give instead. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "hwtrace/error.h"
#include "hwtrace/recorder.h"

/* The call trigger's and resume:/pause: triggers' options, then -z's. */
static int check_triggers(const struct hwt_record_combination *c)
{
	if (c->call_trigger && !c->snapshot)
		return hwt_error(HWT_ERR_CONFIG, "--trigger %s takes snapshots: "
				 "give -S (--snapshot)", c->call_trigger);
	if (c->first_trigger && c->call_trigger)
		return hwt_error(HWT_ERR_CONFIG, "--trigger %s and %s: a call "
				 "trigger or resume:/pause:, not both",
				 c->call_trigger, c->first_trigger);
	if (c->trigger_count && !c->call_trigger)
		return hwt_error(HWT_ERR_CONFIG, "--trigger-count counts the "
				 "snapshots of a symbol: or latency: trigger");
	if (c->compress_aux && !c->compress_level)
		return hwt_error(HWT_ERR_CONFIG, "--compress-aux compresses "
				 "with -z: give -z[LEVEL] too");
	return 0;
}

/* --sysfs DIR must be a directory that exists. */
static int check_sysfs_dir(const char *path)
{
	struct stat st;
	if (stat(path, &st)) {
		if (errno == ENOENT || errno == ENOTDIR)
			return hwt_error(HWT_ERR_CONFIG, "--sysfs %s: the "
					 "directory does not exist", path);
		return hwt_error(HWT_ERR_CONFIG, "--sysfs %s: %s", path,
				 strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return hwt_error(HWT_ERR_CONFIG, "--sysfs %s: not a directory",
				 path);
	return 0;
}

/* What is traced where: the emulated machine, a replay, a command, a
 * process or CPUs, and which trace. */
static int check_target(const struct hwt_record_combination *c)
{
	int ret;
	if ((c->emulate_trace || c->emulate_tsc) && !c->sysfs)
		return hwt_error(HWT_ERR_CONFIG, "--emulate-trace and --emulate-tsc "
				 "need --sysfs DIR (the emulated machine)");
	if (c->sysfs && (c->emulate || c->command || c->pid > 0))
		return hwt_error(HWT_ERR_CONFIG, "--sysfs emulates a machine: it "
				 "takes no --emulate, command or -p");
	if (c->sysfs && (ret = check_sysfs_dir(c->sysfs)) < 0)
		return ret;
	if (c->filter && !*c->filter)
		return hwt_error(HWT_ERR_CONFIG, "--filter '': an empty filter "
				 "(give filter|start|stop|tracestop "
				 "SYM|ADDR[/SIZE] [@ FILE], or no --filter)");
	if (!c->emulate && !c->sysfs && !c->command && !c->all_cpus && !c->cpus &&
	    c->pid < 0)
		return hwt_error(HWT_ERR_CONFIG, "nothing to trace: give -- CMD, "
				 "-p PID, -a or -C CPUS");
	if (c->emulate && c->filter)
		return hwt_error(HWT_ERR_CONFIG, "--emulate replays a capture's "
				 "trace as it was: it takes no --filter");
	if (c->emulate && c->command)
		return hwt_error(HWT_ERR_CONFIG, "--emulate replays a capture and "
				 "runs no command");
	if (!c->emulate && !c->event && !c->profile)
		return hwt_error(HWT_ERR_CONFIG, "which trace? give -e BACKEND "
				 "(see `hwtrace list`) or -c PROFILE");
	return 0;
}

int hwt_record_check_combination(const struct hwt_record_combination *c)
{
	int ret;
	if (!c || c->size < sizeof(*c))
		return hwt_error(HWT_ERR_INVAL, "record options: a combination "
				 "with its size");
	if ((ret = check_triggers(c)) < 0)
		return ret;
	return check_target(c);
}
