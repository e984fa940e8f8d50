/* What the output files (os_outfile.c) share with the registry of the
 * files read (os_outfile_inputs.c) and the owner of the temporaries
 * (os_outfile_temps.c). */
#ifndef HWT_CORE_OS_OUTFILE_INTERNAL_H
#define HWT_CORE_OS_OUTFILE_INTERNAL_H

#include <stddef.h>
#include <sys/stat.h>

/* Whether the file @st identifies was read by this process
 * (hwt_outfile_note_input); when it was, its name as given then goes to
 * @name. */
int os_outfile_input_named(const struct stat *st, char *name, size_t size);

/* Takes @temp (a path that stays valid until os_outfile_temp_forget) as
 * a temporary of this process, to be removed at exit and on a fatal
 * signal. Returns its slot, or -1 when every slot is taken (the file is
 * then removed on the ordinary paths only). */
int os_outfile_temp_own(const char *temp);
/* The temporary of @slot was renamed into place or removed; -1 is a
 * no-op. */
void os_outfile_temp_forget(int slot);

#endif
