/* Which file of a replayed capture a probe's binary is.
 *
 * A uprobe names a file on this machine; the kernel finds it in a
 * process's mappings by inode. A replayed capture names its mappings by
 * the paths of the machine it was recorded on, so a probe's binary is
 * the mapping of the same path, or, for a capture from another machine
 * (an Android device's /data/local/tmp/...), the file the capture's
 * build_id feature gives the same GNU build id: the same code, copied
 * here. */
#include <stdlib.h>
#include <string.h>

#include "core/emulator/emu_internal.h"
#include "core/emulator/emu_replay.h"
#include "hwtrace/elfid.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

int hwt_emu_replay_keep_build_ids(struct emu_replay_data *r,
				  const struct hwt_pd_reader *rd)
{
	struct hwt_pd_build_id b;

	/* A malformed table is only no table: the replay does not need it. */
	for (size_t i = 0; hwt_pd_reader_build_id(rd, i, &b) == 1; i++) {
		if (!b.filename || !b.filename[0] || !b.size)
			continue;
		struct emu_replay_build_id *n =
			realloc(r->build_ids, (r->nbuild_ids + 1) * sizeof(*n));
		if (!n)
			return HWT_ERR_NOMEM;
		r->build_ids = n;
		struct emu_replay_build_id *e = &n[r->nbuild_ids];
		if (!(e->filename = strdup(b.filename)))
			return HWT_ERR_NOMEM;
		e->size = b.size < sizeof(e->id) ? b.size : sizeof(e->id);
		memcpy(e->id, b.id, e->size);
		r->nbuild_ids++;
	}
	hwt_error_clear();
	return 0;
}

const char *hwt_emu_capture_name_of(const struct hwt_emu *emu, const char *path)
{
	const struct emu_replay_data *r = emu->replay;
	struct hwt_elf_id id;

	if (!r || !r->nbuild_ids || hwt_elf_id_from_file(path, &id) != 1 ||
	    !id.build_id_size) {
		hwt_error_clear();
		return NULL;
	}
	for (size_t i = 0; i < r->nbuild_ids; i++)
		if (hwt_build_id_equal(r->build_ids[i].id, r->build_ids[i].size,
				       id.build_id, id.build_id_size))
			return r->build_ids[i].filename;
	return NULL;
}
