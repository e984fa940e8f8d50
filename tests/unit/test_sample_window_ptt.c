/* A sample's branch stack is the tail of the whole stream's decode: for
 * every ptt stream of libipt's suite with its code, every sample position
 * and many window sizes, the window [pos - size, pos) decoded alone equals
 * the newest branches of decoding the stream from its start up to pos;
 * a window without a whole PSB is reported as having no sync point and
 * gives no branches. PSB positions come from scanning for the 16-byte PSB
 * pattern of the Intel SDM, not from the decoder. */
#include <dirent.h>

#include "file_bytes.h"
#include "harness.h"
#include "pt_psb_find.h"
#include "hwtrace/backend.h"
#include "hwtrace/sample.h"

#define PTT HWT_TESTDATA "/ptt"

static uint64_t windows_cut, windows_synced;
static uint64_t windows, windows_nosync, windows_with_branches, branches_checked;
static int streams;

/* The org address and whether the test asks ptxed for options that change
 * decoding (a cpu for errata, event tracing): those are left out. */
static int read_org(const char *name, uint64_t *org)
{
	char path[512], line[512];
	snprintf(path, sizeof(path), PTT "/src/%s.ptt", name);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok = -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "org ", 4)) {
			*org = strtoull(line + 4, NULL, 0);
			ok = 0;
		}
		if (strstr(line, "opt:ptxed") || strstr(line, "cpu "))
			ok = -2;
	}
	fclose(f);
	return ok;
}


static int count_gap(void *arg, const struct hwt_elem *e)
{
	if (e->type == HWT_ELEM_GAP && e->u.gap.reason == HWT_GAP_NO_SYNC)
		(*(int *)arg)++;
	return 0;
}

static void check_stream(const char *name)
{
	char pt[512], bin[512];
	uint64_t org = 0;
	if (read_org(name, &org) < 0)
		return;
	snprintf(pt, sizeof(pt), PTT "/expected/%s.pt", name);
	snprintf(bin, sizeof(bin), PTT "/expected/%s.bin", name);
	size_t len = 0, blen = 0;
	uint8_t *data = hwt_test_slurp(pt, &len);
	uint8_t *code = hwt_test_slurp(bin, &blen);
	if (!data || !code || !len || !blen) {
		free(data);
		free(code);
		return;
	}
	struct hwt_image *image = hwt_image_new();
	CHECK(image && hwt_image_add_file(image, HWT_PID_ANY, org, blen, bin, 0) == 0);
	const struct hwt_backend *b = hwt_backend_find("intel_pt");
	CHECK(b != NULL);
	struct hwt_window_decoder *full = NULL, *win = NULL;
	int nosync_gaps = 0;
	struct hwt_elem_sink gaps = {count_gap, &nosync_gaps};
	CHECK_INT(hwt_window_decoder_new(b, NULL, image, NULL, &full), 0);
	CHECK_INT(hwt_window_decoder_new(b, NULL, image, &gaps, &win), 0);
	if (!full || !win)
		goto out;
	streams++;
	struct hwt_branch_entry *ref = malloc(sizeof(*ref) * 4096);
	static const size_t sizes[] = {8, 16, 17, 24, 32, 40, 48, 64, 96, 128, 4096};
	for (size_t pos = 1; pos <= len; pos++) {
		struct hwt_window_result fr, wr;
		if (hwt_window_decode(full, data, pos, 0, -1, -1, &fr) < 0) {
			HWT_FAIL("%s: full decode to %zu failed", name, pos);
			break;
		}
		size_t nref = fr.nbranches < 4096 ? fr.nbranches : 4096;
		if (nref)
			memcpy(ref, fr.branches, nref * sizeof(*ref));
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			size_t size = sizes[k] < pos ? sizes[k] : pos;
			size_t lo = pos - size;
			size_t at = pt_psb_find(data, lo, pos);
			nosync_gaps = 0;
			if (hwt_window_decode(win, data + lo, size, lo, -1, -1, &wr) < 0) {
				HWT_FAIL("%s: window [%zu,%zu) failed", name, lo, pos);
				continue;
			}
			windows++;
			if (at == pos) {
				windows_nosync++;
				if (wr.synced || wr.nbranches || nosync_gaps != 1)
					HWT_FAIL("%s: window [%zu,%zu) has no PSB but "
						 "synced=%d branches=%zu no_sync gaps=%d",
						 name, lo, pos, wr.synced,
						 wr.nbranches, nosync_gaps);
				continue;
			}
			/* A PSB whose PSB+ the window cuts off, or that
			 * nothing decodable follows, is no sync point for
			 * libipt either: reported, with no branches. */
			if (!wr.synced) {
				windows_cut++;
				if (wr.nbranches || nosync_gaps != 1 ||
				    wr.sync_offset != size)
					HWT_FAIL("%s: window [%zu,%zu) unsynced with "
						 "%zu branches, %d no_sync gaps",
						 name, lo, pos, wr.nbranches,
						 nosync_gaps);
				continue;
			}
			windows_synced++;
			if (wr.sync_offset != at - lo) {
				HWT_FAIL("%s: window [%zu,%zu): synced at %" PRIu64
					 ", first PSB at %zu", name, lo, pos,
					 wr.sync_offset, at - lo);
				continue;
			}
			if (wr.nbranches > nref) {
				HWT_FAIL("%s: window [%zu,%zu) has %zu branches, the "
					 "whole decode %zu", name, lo, pos,
					 wr.nbranches, nref);
				continue;
			}
			if (wr.nbranches)
				windows_with_branches++;
			for (size_t i = 0; i < wr.nbranches; i++) {
				branches_checked++;
				if (wr.branches[i].from != ref[i].from ||
				    wr.branches[i].to != ref[i].to ||
				    wr.branches[i].kind != ref[i].kind) {
					HWT_FAIL("%s: window [%zu,%zu) branch %zu: "
						 "0x%" PRIx64 "->0x%" PRIx64
						 ", whole decode 0x%" PRIx64
						 "->0x%" PRIx64, name, lo, pos, i,
						 wr.branches[i].from,
						 wr.branches[i].to, ref[i].from,
						 ref[i].to);
					break;
				}
			}
		}
	}
	free(ref);
out:
	hwt_window_decoder_free(full);
	hwt_window_decoder_free(win);
	hwt_image_free(image);
	free(data);
	free(code);
}

static void window_stacks_are_tails_of_the_whole_decode(void)
{
	DIR *dir = opendir(PTT "/expected");
	CHECK(dir != NULL);
	if (!dir)
		return;
	struct dirent *de;
	while ((de = readdir(dir))) {
		size_t n = strlen(de->d_name);
		if (n < 4 || strcmp(de->d_name + n - 3, ".pt"))
			continue;
		char name[256];
		snprintf(name, sizeof(name), "%.*s", (int)(n - 3), de->d_name);
		check_stream(name);
	}
	closedir(dir);
	fprintf(stderr, "%d streams, %" PRIu64 " windows (%" PRIu64
		" without a PSB, %" PRIu64 " with branches), %" PRIu64
		" branches compared; %" PRIu64 " synced at their first PSB, "
		"%" PRIu64 " with a PSB but no sync point\n", streams, windows,
		windows_nosync, windows_with_branches, branches_checked,
		windows_synced, windows_cut);
	CHECK(streams >= 100);
	CHECK(windows_with_branches >= 1000);
	CHECK(windows_nosync >= 1000);
}

int main(void)
{
	RUN(window_stacks_are_tails_of_the_whole_decode);
	return hwt_test_summary();
}
