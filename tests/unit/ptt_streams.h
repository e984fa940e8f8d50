/* Test helper: the streams of libipt's ptt suite (HWT_TESTDATA/ptt) that
 * have their code beside them, each with its raw trace, its code and the
 * address the code is loaded at (the .ptt source's "org"). */
#ifndef HWT_TESTS_UNIT_PTT_STREAMS_H
#define HWT_TESTS_UNIT_PTT_STREAMS_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PTT_DIR HWT_TESTDATA "/ptt"

struct ptt_stream {
	char name[256];
	char pt[512], bin[512]; /* the trace and the code's file */
	uint64_t org;
};

/* Calls @fn for every such stream, in directory order. Returns how many
 * there were, or -1 when the directory cannot be read. */
static inline int ptt_for_each(void (*fn)(const struct ptt_stream *, void *),
			       void *arg)
{
	DIR *dir = opendir(PTT_DIR "/expected");
	if (!dir)
		return -1;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(dir))) {
		size_t len = strlen(de->d_name);
		if (len < 4 || strcmp(de->d_name + len - 3, ".pt"))
			continue;
		struct ptt_stream s = {0};
		char src[512], line[256];
		snprintf(s.name, sizeof(s.name), "%.*s", (int)(len - 3), de->d_name);
		snprintf(s.pt, sizeof(s.pt), PTT_DIR "/expected/%s.pt", s.name);
		snprintf(s.bin, sizeof(s.bin), PTT_DIR "/expected/%s.bin", s.name);
		snprintf(src, sizeof(src), PTT_DIR "/src/%s.ptt", s.name);
		FILE *f = fopen(src, "r");
		if (!f || access(s.bin, R_OK)) {
			if (f)
				fclose(f);
			continue;
		}
		unsigned long long org = 0;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "org %llx", &org) == 1)
				break;
		fclose(f);
		s.org = org;
		n++;
		fn(&s, arg);
	}
	closedir(dir);
	return n;
}

#endif
