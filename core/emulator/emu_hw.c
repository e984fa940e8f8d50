/* Properties of the emulated hardware, set before tracing starts. */
#include "core/emulator/emu_internal.h"
#include "hwtrace/error.h"

/* Nothing may change once a producer writes. Lock held. */
static int check_idle(struct hwt_emu *emu)
{
	for (struct emu_event *ev = emu->events; ev; ev = ev->next)
		if (ev->thread_running)
			return hwt_error(HWT_ERR_BUSY,
					 "emulator: AUX buffers are already written");
	return 0;
}

int hwt_emu_set_aux_alignment(struct hwt_emu *emu, unsigned int alignment)
{
	pthread_mutex_lock(&emu->lock);
	int ret = check_idle(emu);
	if (!ret)
		emu->aux_alignment = alignment;
	pthread_mutex_unlock(&emu->lock);
	return ret;
}

int hwt_emu_set_time_conv(struct hwt_emu *emu, bool publish)
{
	pthread_mutex_lock(&emu->lock);
	emu->no_time_conv = !publish;
	pthread_mutex_unlock(&emu->lock);
	return 0;
}
