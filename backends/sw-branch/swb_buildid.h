/* The binaries a sw_branch capture traced, for its build-id feature: perf
 * and hwtrace decode use the build ids to refuse a binary that is not the
 * one traced (a program rebuilt after recording). */
#ifndef HWT_SWB_BUILDID_H
#define HWT_SWB_BUILDID_H

#include <stddef.h>
#include <sys/types.h>

#include "backends/sw-branch/swb_maps.h"
#include "hwtrace/perfdata.h"

struct hwt_swb_binaries {
	char **paths;
	size_t n;
};

/* Notes the files of @maps's executable mappings. Errors: HWT_ERR_NOMEM. */
int hwt_swb_binaries_note(struct hwt_swb_binaries *b,
			  const struct hwt_swb_maps *maps);

/* Adds the build id of each noted ELF file that has one to @w's build-id
 * feature, for process @pid. Errors: those of the writer. */
int hwt_swb_binaries_write(const struct hwt_swb_binaries *b,
			   struct hwt_pd_writer *w, pid_t pid);

void hwt_swb_binaries_free(struct hwt_swb_binaries *b);

#endif
