/* What the emulator keeps of a loaded capture for the writer of the new
 * file: attributes, ids, AUXTRACE_INFO. */
#include <stdlib.h>

#include "core/emulator/emu_internal.h"
#include "core/emulator/emu_replay.h"
#include "hwtrace/error.h"

void hwt_emu_replay_free(struct emu_replay_data *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nattrs; i++) {
		free(r->ids[i]);
		free(r->names[i]);
	}
	free(r->attrs);
	free(r->ids);
	free(r->nids);
	free(r->names);
	free(r->cpus);
	free(r->info);
	free(r->time_conv);
	for (size_t i = 0; i < r->nbufs; i++)
		free(r->bufs[i]);
	free(r->bufs);
	free(r->abufs);
	free(r->auxs);
	free(r->structured);
	for (size_t i = 0; i < r->nbuild_ids; i++)
		free(r->build_ids[i].filename);
	free(r->build_ids);
	free(r);
}

int hwt_emu_replay_info(struct hwt_emu *emu, struct hwt_emu_replay *out)
{
	struct emu_replay_data *r = emu->replay;

	if (!r)
		return hwt_error(HWT_ERR_INVAL, "emulator: no capture was loaded");
	out->aux_attr = &r->attrs[r->aux_index];
	out->cpus = r->cpus;
	out->ncpus = r->ncpus;
	out->auxtrace_info = r->info;
	out->nattrs = r->nattrs;
	out->attrs = r->attrs;
	out->ids = (const uint64_t *const *)r->ids;
	out->nids = r->nids;
	out->names = (const char *const *)r->names;
	out->aux_bytes = r->aux_bytes;
	out->time_conv = r->time_conv;
	return 0;
}
