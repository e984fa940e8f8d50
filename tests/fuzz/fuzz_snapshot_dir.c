/* libFuzzer target for OpenCSD snapshot directories (decode --snapshot):
 * the input is a directory in one file, each member a line "@@ NAME"
 * followed by its bytes up to the next such line. The members are written
 * into an empty directory (names of letters, digits, '.', '_' and '-'
 * only) and decoded: snapshot.ini, trace.ini and the device INIs name the
 * trace buffers and memory dumps, as in the real snapshots that seed it.
 * Packets are listed, then elements decoded. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "fuzz_elem_check.h"
#include "fuzz_opencsd_guard.h"
#include "tests/unit/decode_in_process.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_MEMBERS 24
static char dir[64];

static void empty_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (!d)
		abort();
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' || (strcmp(e->d_name, ".") &&
					    strcmp(e->d_name, "..")))
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
}

static void cleanup(void)
{
	empty_dir();
	rmdir(dir);
}

/* Writes member @name (up to its end of line) with @len bytes. */
static void write_member(const uint8_t *name, size_t nlen, const uint8_t *body,
			 size_t len)
{
	char file[64 + 80];
	size_t n = 0;
	for (size_t i = 0; i < nlen && n < 63; i++) {
		char c = (char)name[i];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-')
			file[n++] = c;
	}
	file[n] = 0;
	if (!n || !strcmp(file, ".") || !strcmp(file, ".."))
		return;
	char path[sizeof(dir) + sizeof(file) + 1];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	if (write(fd, body, len) != (ssize_t)len)
		abort();
	close(fd);
}

static const uint8_t *find_marker(const uint8_t *p, const uint8_t *end)
{
	for (; p + 3 <= end; p++)
		if (p[0] == '@' && p[1] == '@' && p[2] == ' ')
			return p;
	return NULL;
}

/* The packet listing, which must explain any failure too. */
static void list_packets(void *arg, FILE *f)
{
	struct hwt_decode_opts *opts = arg;
	opts->packets = f;
	if (hwt_decode_snapshot_dir(dir, opts, NULL) < 0 && !hwt_errmsg()[0])
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/fuzz-snapshot-%d", (int)getpid());
		if (mkdir(dir, 0700) && errno != EEXIST)
			abort();
		atexit(cleanup);
	}
	empty_dir();
	const uint8_t *end = data + size, *p = data;
	/* Members start at "@@ " at the start of the input or of a line. */
	p = size >= 3 && !memcmp(data, "@@ ", 3) ? data : NULL;
	for (int members = 0; p && members < MAX_MEMBERS; members++) {
		const uint8_t *name = p + 3, *eol = name;
		while (eol < end && *eol != '\n')
			eol++;
		const uint8_t *body = eol < end ? eol + 1 : end, *next = body;
		while ((next = find_marker(next, end)) && next[-1] != '\n')
			next++;
		const uint8_t *stop = next ? next - 1 : end; /* drop the '\n' */
		write_member(name, (size_t)(eol - name), body,
			     stop > body ? (size_t)(stop - body) : 0);
		p = next;
	}
	/* In this process, as the guard expects (decode_in_process.h):
	 * the target fuzzes the decoder, whose coverage and crashes
	 * libFuzzer sees in its own process only. */
	struct hwt_decode_opts opts = {.size = sizeof(opts), DECODE_IN_PROCESS};
	if (fuzz_opencsd_unsafe(list_packets, &opts))
		return 0;
	size_t n = 0;
	struct hwt_elem_sink sink = {fuzz_check_elem, &n};
	opts.packets = NULL;
	if (hwt_decode_snapshot_dir(dir, &opts, &sink) < 0 && !hwt_errmsg()[0])
		abort(); /* every failure says why */
	return 0;
}
