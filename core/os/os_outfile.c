/* Output files: checked, written beside their path under a temporary name
 * and renamed into place once complete, so no failure ever truncates,
 * removes or writes through what the user named. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/os/os_file_kind.h"
#include "core/os/os_outfile_internal.h"
#include "hwtrace/error.h"
#include "hwtrace/outfile.h"

struct hwt_outfile {
	char *path;
	char *temp;
	int fd;
	int slot;         /* in the owner of temporaries (os_outfile_temps.c) */
	bool replaces;    /* @path was a file when it was opened */
	bool no_replace;  /* commit fails when @path exists */
};

/* The suffix of a temporary's name: ".tmp." and six letters. */
#define TEMP_SUFFIX_LEN 11

/* The directory part of @path ("." when it has none), in @buf. */
static void dir_of(const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(buf, size, ".");
	else if (slash == path)
		snprintf(buf, size, "/");
	else
		snprintf(buf, size, "%.*s", (int)(slash - path), path);
}

/* An output that is a file this process has read is refused, whatever
 * name either was given by. */
static int refuse_read_file(const char *path, const struct stat *st)
{
	char name[4096];

	if (!os_outfile_input_named(st, name, sizeof(name)))
		return 0;
	return hwt_error(HWT_ERR_CONFIG, "output %s is the input file %s, which "
			 "this command reads; write to another file", path, name);
}

int hwt_outfile_check(const char *path, const char *const *inputs,
		      size_t ninputs)
{
	struct stat st, in;
	char dir[4096];
	int err;

	/* The inputs named stay guarded until the output is renamed. */
	for (size_t i = 0; i < ninputs; i++)
		hwt_outfile_note_input(inputs[i]);
	if (!path || !*path)
		return hwt_error(HWT_ERR_CONFIG, "the output file name is empty");
	if (path[strlen(path) - 1] == '/')
		return hwt_error(HWT_ERR_CONFIG, "output %s names a directory; "
				 "give a file name", path);
	if (lstat(path, &st) == 0) {
		if (S_ISLNK(st.st_mode))
			return hwt_error(HWT_ERR_CONFIG, "output %s is a symbolic "
					 "link; it is not written through: give "
					 "its target, or remove the link", path);
		if (!S_ISREG(st.st_mode))
			return hwt_error(HWT_ERR_CONFIG, "output %s is %s; only a "
					 "regular file or a new name can be "
					 "written", path, hwt_os_file_kind(st.st_mode));
		for (size_t i = 0; i < ninputs; i++) {
			if (inputs[i] && stat(inputs[i], &in) == 0 &&
			    in.st_dev == st.st_dev && in.st_ino == st.st_ino)
				return hwt_error(HWT_ERR_CONFIG, "output %s is the "
						 "input file %s; write to another "
						 "file", path, inputs[i]);
		}
		if ((err = refuse_read_file(path, &st)))
			return err;
	} else if (errno != ENOENT) {
		return hwt_error(errno == EACCES ? HWT_ERR_PERM : HWT_ERR_IO,
				 "output %s: %s", path, strerror(errno));
	}
	dir_of(path, dir, sizeof(dir));
	if (stat(dir, &st) != 0)
		return hwt_error(HWT_ERR_NOENT, "cannot create %s: directory %s: "
				 "%s", path, dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return hwt_error(HWT_ERR_CONFIG, "cannot create %s: %s is not a "
				 "directory", path, dir);
	if (access(dir, W_OK | X_OK) != 0)
		return hwt_error(HWT_ERR_PERM, "cannot create %s: directory %s: "
				 "%s", path, dir, strerror(errno));
	return 0;
}

/* PATH's temporary, DIR/NAME.tmp.XXXXXX: NAME is PATH's file name, cut
 * so the whole stays within NAME_MAX. The six X are filled in later. */
static char *temp_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dir_len = slash ? (size_t)(slash + 1 - path) : 0;
	size_t name_len = strlen(path + dir_len);
	if (name_len > NAME_MAX - TEMP_SUFFIX_LEN)
		name_len = NAME_MAX - TEMP_SUFFIX_LEN;
	char *t = malloc(dir_len + name_len + TEMP_SUFFIX_LEN + 1);
	if (t)
		snprintf(t, dir_len + name_len + TEMP_SUFFIX_LEN + 1,
			 "%.*s%.*s.tmp.XXXXXX", (int)dir_len, path,
			 (int)name_len, path + dir_len);
	return t;
}

int hwt_outfile_open(const char *path, const char *const *inputs,
		     size_t ninputs, unsigned int mode, struct hwt_outfile **out)
{
	struct hwt_outfile *f;
	struct stat st;
	int err;

	*out = NULL;
	if ((err = hwt_outfile_check(path, inputs, ninputs)))
		return err;
	f = calloc(1, sizeof(*f));
	if (f) {
		f->path = strdup(path);
		f->temp = temp_name(path);
	}
	if (!f || !f->path || !f->temp) {
		if (f) {
			free(f->path);
			free(f->temp);
		}
		free(f);
		return hwt_error(HWT_ERR_NOMEM, "out of memory creating %s", path);
	}
	f->replaces = lstat(path, &st) == 0;
	/* O_EXCL with a name of our own: never opens what someone else made. */
	static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	uint64_t r = (uint64_t)getpid() * 2654435761u ^ (uint64_t)time(NULL) ^
		     (uint64_t)(uintptr_t)f;
	char *suffix = f->temp + strlen(f->temp) - 6;
	f->fd = -1;
	for (int attempt = 0; attempt < 100 && f->fd < 0; attempt++) {
		for (int i = 0; i < 6; i++) {
			r = r * 6364136223846793005u + 1442695040888963407u;
			suffix[i] = letters[(r >> 33) % (sizeof(letters) - 1)];
		}
		f->fd = open(f->temp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
			     (mode_t)mode);
		if (f->fd < 0 && errno != EEXIST)
			break;
	}
	if (f->fd < 0) {
		int e = errno;
		err = hwt_error(e == EACCES || e == EPERM || e == EROFS ?
					HWT_ERR_PERM :
				e == ENOSPC || e == EDQUOT ? HWT_ERR_NOSPC :
							     HWT_ERR_IO,
				"cannot create %s (as %s until it is complete): "
				"%s", path, f->temp, strerror(e));
		free(f->path);
		free(f->temp);
		free(f);
		return err;
	}
	f->slot = os_outfile_temp_own(f->temp);
	*out = f;
	return 0;
}

int hwt_outfile_fd(const struct hwt_outfile *f)
{
	return f->fd;
}

const char *hwt_outfile_temp_path(const struct hwt_outfile *f)
{
	return f->temp;
}

void hwt_outfile_release_fd(struct hwt_outfile *f)
{
	f->fd = -1;
}

bool hwt_outfile_replaces(const struct hwt_outfile *f)
{
	return f->replaces;
}

void hwt_outfile_set_no_replace(struct hwt_outfile *f)
{
	f->no_replace = true;
}

static void outfile_free(struct hwt_outfile *f)
{
	os_outfile_temp_forget(f->slot);
	free(f->path);
	free(f->temp);
	free(f);
}

/* Renames the temporary to @f->path unless a file is there already:
 * atomically where the file system can (RENAME_NOREPLACE), else by a
 * hard link, which fails as well when the name exists. */
static int rename_no_replace(const struct hwt_outfile *f)
{
	if (renameat2(AT_FDCWD, f->temp, AT_FDCWD, f->path, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno == EINVAL || errno == ENOSYS) {
		if (link(f->temp, f->path) == 0) {
			unlink(f->temp);
			return 0;
		}
	}
	if (errno == EEXIST)
		return hwt_error(HWT_ERR_CONFIG, "%s was created by someone "
				 "else while this command ran; it is left as "
				 "it is, and this command's output was "
				 "discarded", f->path);
	return hwt_error(HWT_ERR_IO, "cannot rename %s to %s: %s", f->temp,
			 f->path, strerror(errno));
}

int hwt_outfile_commit(struct hwt_outfile *f)
{
	struct stat st;
	int err = 0;

	if (f->fd >= 0 && close(f->fd))
		err = hwt_error(errno == ENOSPC || errno == EDQUOT ?
					HWT_ERR_NOSPC : HWT_ERR_IO,
				"%s: close failed: %s", f->path, strerror(errno));
	f->fd = -1;
	/* The command may have read @path since it was opened (a binary
	 * the capture named, a debug file). */
	if (!err && stat(f->path, &st) == 0)
		err = refuse_read_file(f->path, &st);
	if (!err && f->no_replace)
		err = rename_no_replace(f);
	else if (!err && rename(f->temp, f->path))
		err = hwt_error(HWT_ERR_IO, "cannot rename %s to %s: %s", f->temp,
				f->path, strerror(errno));
	if (err)
		unlink(f->temp);
	outfile_free(f);
	return err;
}

void hwt_outfile_discard(struct hwt_outfile *f)
{
	if (!f)
		return;
	if (f->fd >= 0)
		close(f->fd);
	unlink(f->temp);
	outfile_free(f);
}
