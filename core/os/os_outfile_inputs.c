/* The files this process has read, by identity (device and inode), so
 * that no output ever replaces one of them: the output rule of
 * hwtrace/outfile.h asks here when an output is opened and again just
 * before it is renamed into place, after the command read its binaries,
 * maps and symbol tables. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/os/os_outfile_internal.h"
#include "hwtrace/outfile.h"

struct input {
	dev_t dev;
	ino_t ino;
	char *path;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct input *inputs;
static size_t ninputs, cap;
static bool tracking;

void hwt_outfile_track_inputs(bool on)
{
	pthread_mutex_lock(&lock);
	tracking = on;
	if (!on) {
		for (size_t i = 0; i < ninputs; i++)
			free(inputs[i].path);
		free(inputs);
		inputs = NULL;
		ninputs = cap = 0;
	}
	pthread_mutex_unlock(&lock);
}

static void note(const struct stat *st, const char *path)
{
	/* Only regular files can be outputs: nothing else needs guarding. */
	if (!S_ISREG(st->st_mode))
		return;
	pthread_mutex_lock(&lock);
	if (!tracking)
		goto out;
	for (size_t i = 0; i < ninputs; i++)
		if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino)
			goto out;
	if (ninputs == cap) {
		size_t ncap = cap ? cap * 2 : 32;
		struct input *p = realloc(inputs, ncap * sizeof(*p));
		if (!p)
			goto out; /* out of memory: the check at open still ran */
		inputs = p;
		cap = ncap;
	}
	inputs[ninputs].path = strdup(path ? path : "?");
	if (!inputs[ninputs].path)
		goto out;
	inputs[ninputs].dev = st->st_dev;
	inputs[ninputs].ino = st->st_ino;
	ninputs++;
out:
	pthread_mutex_unlock(&lock);
}

void hwt_outfile_note_input(const char *path)
{
	struct stat st;

	if (path && stat(path, &st) == 0)
		note(&st, path);
}

void hwt_outfile_note_input_fd(int fd, const char *path)
{
	struct stat st;

	if (fd >= 0 && fstat(fd, &st) == 0)
		note(&st, path);
}

int os_outfile_input_named(const struct stat *st, char *name, size_t size)
{
	int found = 0;

	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < ninputs && !found; i++)
		if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino) {
			snprintf(name, size, "%s", inputs[i].path);
			found = 1;
		}
	pthread_mutex_unlock(&lock);
	return found;
}
