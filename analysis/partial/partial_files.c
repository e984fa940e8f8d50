/* Partial results read from files and merged into one, every message
 * naming the file it is about (a merge of hundreds of parts is no place
 * to guess which one was cut or of another kind). */
#include <stdio.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/infile.h"
#include "hwtrace/partial.h"

/* The error @err of merging the part @path, its message made to start
 * with the path (the reader's own messages do; the merge's do not). */
static int name_the_part(int err, const char *path)
{
	if (err >= 0 || err == HWT_ERR_NOMEM || !hwt_errmsg()[0] ||
	    !strncmp(hwt_errmsg(), path, strlen(path)))
		return err;
	char msg[512];
	snprintf(msg, sizeof(msg), "%s", hwt_errmsg());
	return hwt_error(err, "%s: %s", path, msg);
}

/* Reads @path and adds it to *@sum (the first part becomes it). */
static int merge_file(const char *path, enum hwt_partial_kind want,
		      struct hwt_partial **sum)
{
	FILE *in;
	int err = hwt_infile_fopen(path, "partial result", 0, &in);
	if (err < 0)
		return err;
	struct hwt_partial *p;
	err = hwt_partial_read(in, path, &p);
	fclose(in);
	if (err < 0)
		return err;
	if (hwt_partial_kind(p) != want)
		err = hwt_error(HWT_ERR_FORMAT, "%s: a partial result of kind %s "
				"where %s was asked for", path,
				hwt_partial_kind_name(hwt_partial_kind(p)),
				hwt_partial_kind_name(want));
	else if (*sum)
		err = name_the_part(hwt_partial_merge(*sum, p), path);
	if (!err && !*sum) {
		*sum = p;
		p = NULL;
	}
	hwt_partial_free(p);
	return err;
}

int hwt_partial_merge_files(const char *const *paths, size_t n,
			    enum hwt_partial_kind want,
			    struct hwt_partial **out)
{
	struct hwt_partial *sum = NULL;
	int err = n ? 0 : hwt_error(HWT_ERR_INVAL, "no partial result to merge");
	for (size_t i = 0; i < n && !err; i++)
		err = merge_file(paths[i], want, &sum);
	if (err) {
		hwt_partial_free(sum);
		sum = NULL;
	}
	*out = sum;
	return err;
}
