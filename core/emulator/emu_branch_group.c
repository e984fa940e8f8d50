/* The members of a branch sampler's group ({branches,MEMBER...} with
 * -j counter): counting events opened with the sampler as group_fd. The
 * emulator counts what its ground truth of taken branches tells, so a
 * member is an event it can count from there: branches
 * (PERF_COUNT_HW_BRANCH_INSTRUCTIONS, every taken branch) or Crestmont's
 * BR_INST_RETIRED.COND_TAKEN (raw event 0xc4, umask 0xfe: the fixture
 * intel-lbr-counters names a Crestmont PMU), the taken conditional
 * branches. A member asking for PERF_SAMPLE_BRANCH_COUNTERS adds a field
 * to its leader's counter word, in the order members are opened, which
 * is the kernel's (intel_pmu_lbr_counters_reorder: the leader's, then
 * each sibling's in group order); the kernel's limits hold: at most
 * caps/branch_counter_nr fields (intel_pmu_hw_config: EINVAL), only the
 * cpu PMU's events, no call-stack mode. */
#include <errno.h>
#include <string.h>

#include "core/emulator/emu_internal.h"
#include "hwtrace/brstack.h"
#include "hwtrace/error.h"

/* Crestmont's BR_INST_RETIRED.COND_TAKEN: umask 0xfe, event 0xc4. */
#define COND_TAKEN_RAW 0xfec4ull

bool hwt_emu_br_counts(enum emu_br_count what, const struct hwt_emu_branch *b)
{
	return what == EMU_BR_COUNT_TAKEN || b->kind == HWT_BRANCH_COND;
}

/* What @a counts, or -1 for an event the ground truth cannot count. */
static int counted(const struct perf_event_attr *a)
{
	if (a->type == PERF_TYPE_HARDWARE &&
	    a->config == PERF_COUNT_HW_BRANCH_INSTRUCTIONS)
		return EMU_BR_COUNT_TAKEN;
	if (a->type == PERF_TYPE_RAW && a->config == COND_TAKEN_RAW)
		return EMU_BR_COUNT_COND_TAKEN;
	return -1;
}

int hwt_emu_open_brmember(struct hwt_emu *emu,
			  const struct perf_event_attr *attr, int pid, int cpu,
			  int group_fd)
{
	int what = counted(attr);
	if (what < 0)
		return hwt_emu_refuse_unlocked(
			emu, "the emulator counts only branches and "
			"BR_INST_RETIRED.COND_TAKEN (cpu/event=0xc4,umask=0xfe/) "
			"in a branch sampler's group: its ground truth holds the "
			"taken branches alone");
	/* A member counts; only the leader samples (the kernel would
	 * sample a member too, which the emulator does not write). */
	if (attr->freq || attr->sample_period ||
	    (attr->sample_type & PERF_SAMPLE_BRANCH_STACK))
		return hwt_emu_refuse_unlocked(
			emu, "the emulator samples only a group's leader: a "
			"member counts");
	if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK)
		return -EINVAL;
	struct hwt_branch_hw hw;
	if (hwt_branch_hw_probe(&emu->os, &hw) < 0)
		memset(&hw, 0, sizeof(hw));
	hwt_error_clear();
	bool counters = attr->branch_sample_type & HWT_SAMPLE_BRANCH_COUNTERS;
	if (counters && (hw.kind != HWT_BRANCH_HW_LBR || !hw.counters))
		return -EINVAL;
	pthread_mutex_lock(&emu->lock);
	struct emu_event *leader = NULL;
	for (struct emu_event *e = emu->events; e; e = e->next)
		if (!e->closed && e->fd == group_fd)
			leader = e;
	int err = 0;
	if (!leader || leader->cpu != cpu || leader->pid != pid)
		err = -EINVAL;
	else if (!leader->br_depth) /* only a branch sampler leads here */
		err = hwt_emu_refuse(emu, "the group's leader is not a "
				     "branch sampler, the only leader the "
				     "emulator counts for");
	else if (leader->br_src && leader->thread_running)
		err = -EBUSY;      /* its writer is running already */
	else if (counters && (leader->br_nfields >= hw.counters ||
			      leader->br_nfields >= HWT_EMU_BRANCH_MAX_FIELDS))
		err = -EINVAL;
	pthread_mutex_unlock(&emu->lock);
	if (err)
		return err;
	struct emu_event *ev = hwt_emu_event_new(emu, attr, pid, cpu, &err);
	if (!ev)
		return err;
	pthread_mutex_lock(&emu->lock);
	ev->id = (1ull << 41) + emu->next_id++;
	if (counters)
		leader->br_fields[leader->br_nfields++] = (uint8_t)what;
	ev->next = emu->events;
	emu->events = ev;
	pthread_mutex_unlock(&emu->lock);
	return ev->fd;
}
