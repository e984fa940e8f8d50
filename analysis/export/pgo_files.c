/* The AutoFDO and BOLT exports' files: one per binary, named from the
 * prefix the user gave (-o), each written to a temporary file and all
 * renamed into place once all are complete. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/export/pgo_internal.h"
#include "hwtrace/error.h"
#include "hwtrace/outfile.h"

static int nomem(void)
{
	return hwt_error(HWT_ERR_NOMEM, "out of memory");
}

static const char *extension(enum hwt_export_format f)
{
	return f == HWT_EXPORT_AUTOFDO ? "afdo.txt"
	       : f == HWT_EXPORT_BOLT  ? "fdata"
				       : "preagg";
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether files can be made in @dir, found by making one (root passes
 * access(2) where the file system still refuses, as in /proc); the
 * messages name @prefix and @dir, never the probe. */
static int check_dir(const char *prefix, const char *dir)
{
	struct stat st;

	if (stat(dir, &st))
		return hwt_error(errno == ENOENT ? HWT_ERR_NOENT : HWT_ERR_IO,
				 "-o %s: the directory %s %s", prefix, dir,
				 errno == ENOENT ? "does not exist"
						 : strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return hwt_error(HWT_ERR_CONFIG, "-o %s: %s is not a directory",
				 prefix, dir);
	size_t len = strlen(dir) + 32;
	char *probe = malloc(len);
	if (!probe)
		return nomem();
	snprintf(probe, len, "%s/.hwtrace-probe-XXXXXX", dir);
	int fd = mkstemp(probe);
	int e = errno;
	if (fd >= 0) {
		close(fd);
		unlink(probe);
	}
	free(probe);
	if (fd < 0)
		return hwt_error(e == EACCES || e == EPERM || e == EROFS ?
					 HWT_ERR_PERM : HWT_ERR_IO,
				 "-o %s: cannot create files in the directory "
				 "%s: %s", prefix, dir, strerror(e));
	return 0;
}

int hwt_pgo_check_prefix(const char *prefix)
{
	if (!prefix || !*prefix)
		return hwt_error(HWT_ERR_INVAL, "export: no out_prefix for "
				 "the per-binary files");
	if (is_dir(prefix))
		return check_dir(prefix, prefix);
	/* PREFIX.NAME.EXT files go beside PREFIX. */
	const char *slash = strrchr(prefix, '/');
	char *dir = slash ? strndup(prefix, slash == prefix ? 1
							     : (size_t)(slash - prefix))
			  : strdup(".");
	if (!dir)
		return nomem();
	int err = check_dir(prefix, dir);
	free(dir);
	return err;
}

/* The file name of binary @path: PREFIX.NAME.EXT or DIR/NAME.EXT, NAME
 * the binary's file name, with .2, .3, ... when an earlier binary had
 * it (@seen counts them). NULL when out of memory. */
static char *file_name(enum hwt_export_format f, const char *prefix,
		       struct hwt_strmap *seen, const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash && slash[1] ? slash + 1 : path;
	struct hwt_strmap_entry *e = hwt_strmap_get(seen, name, strlen(name));
	if (!e)
		return NULL;
	char nth[24] = "";
	if (e->v[0]++)
		snprintf(nth, sizeof(nth), ".%" PRIu64, e->v[0]);
	const char *sep = !is_dir(prefix) ? "."
			  : prefix[strlen(prefix) - 1] == '/' ? "" : "/";
	size_t len = strlen(prefix) + strlen(name) + strlen(nth) + 16;
	char *out = malloc(len);
	if (out)
		snprintf(out, len, "%s%s%s%s.%s", prefix, sep, name, nth,
			 extension(f));
	return out;
}

static void write_binary(enum hwt_export_format f, const struct pgo_binary *b,
			 FILE *out)
{
	switch (f) {
	case HWT_EXPORT_AUTOFDO:
		hwt_pgo_write_autofdo(b, out);
		break;
	case HWT_EXPORT_BOLT:
		hwt_pgo_write_fdata(b, out);
		break;
	default:
		hwt_pgo_write_preagg(b, out);
	}
}

/* Writes @b's text to the temporary file of @of. */
static int write_one(enum hwt_export_format f, const struct pgo_binary *b,
		     struct hwt_outfile *of, const char *path)
{
	FILE *out = fdopen(hwt_outfile_fd(of), "w");
	if (!out)
		return hwt_error(HWT_ERR_IO, "%s: %s", path, strerror(errno));
	hwt_outfile_release_fd(of);
	write_binary(f, b, out);
	int bad = ferror(out) || fflush(out);
	int e = errno;
	if (fclose(out) && !bad) {
		bad = 1;
		e = errno;
	}
	if (!bad)
		return 0;
	return hwt_error(e == ENOSPC || e == EFBIG ? HWT_ERR_NOSPC : HWT_ERR_IO,
			 "writing %s failed: %s", path, strerror(e ? e : EIO));
}

int hwt_pgo_write_files(enum hwt_export_format f, const char *prefix,
			const struct pgo_binary *b, size_t nb,
			struct pgo_file **files, size_t *nfiles)
{
	struct hwt_outfile **of = calloc(nb ? nb : 1, sizeof(*of));
	*files = calloc(nb ? nb : 1, sizeof(**files));
	*nfiles = 0;
	if (!of || !*files) {
		free(of);
		return nomem();
	}
	struct hwt_strmap seen = {0};
	int err = 0;
	for (size_t i = 0; i < nb && !err; i++) {
		char *path = file_name(f, prefix, &seen, b[i].path);
		if (!path) {
			err = nomem();
			break;
		}
		(*files)[i] = (struct pgo_file){path, b[i].path};
		*nfiles = i + 1;
		err = hwt_outfile_open(path, NULL, 0, 0666, &of[i]);
		if (!err)
			err = write_one(f, &b[i], of[i], path);
	}
	for (size_t i = 0; i < *nfiles; i++) {
		if (!of[i])
			continue;
		if (err)
			hwt_outfile_discard(of[i]);
		else
			err = hwt_outfile_commit(of[i]);
	}
	hwt_strmap_free(&seen);
	free(of);
	return err;
}
