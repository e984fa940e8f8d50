/* Build ids of the binaries a sw_branch capture traced. */
#include <stdlib.h>
#include <string.h>

#include "backends/sw-branch/swb_buildid.h"
#include "hwtrace/elfid.h"
#include "hwtrace/error.h"

#define MISC_USER 2 /* PERF_RECORD_MISC_USER */

int hwt_swb_binaries_note(struct hwt_swb_binaries *b,
			  const struct hwt_swb_maps *maps)
{
	for (size_t i = 0; maps && i < maps->n; i++) {
		const struct hwt_swb_map *m = &maps->v[i];
		/* Files only: [vdso] and friends have no file to read. */
		if (!m->exec || !m->path || m->path[0] != '/')
			continue;
		bool known = false;
		for (size_t j = 0; j < b->n && !known; j++)
			known = !strcmp(b->paths[j], m->path);
		if (known)
			continue;
		char **n = realloc(b->paths, (b->n + 1) * sizeof(*b->paths));
		if (!n)
			return hwt_error(HWT_ERR_NOMEM, "out of memory for sw_branch");
		b->paths = n;
		if (!(b->paths[b->n] = strdup(m->path)))
			return hwt_error(HWT_ERR_NOMEM, "out of memory for sw_branch");
		b->n++;
	}
	return 0;
}

int hwt_swb_binaries_write(const struct hwt_swb_binaries *b,
			   struct hwt_pd_writer *w, pid_t pid)
{
	for (size_t i = 0; i < b->n; i++) {
		struct hwt_elf_id id;
		/* A file replaced while traced, or not ELF: no build id to
		 * give, as perf gives none. */
		if (hwt_elf_id_from_file(b->paths[i], &id) != 1 ||
		    !id.build_id_size) {
			hwt_error_clear();
			continue;
		}
		int err = hwt_pd_writer_add_build_id(w, (int32_t)pid, MISC_USER,
						     id.build_id,
						     id.build_id_size,
						     b->paths[i]);
		if (err < 0)
			return err;
	}
	return 0;
}

void hwt_swb_binaries_free(struct hwt_swb_binaries *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->paths[i]);
	free(b->paths);
	memset(b, 0, sizeof(*b));
}
