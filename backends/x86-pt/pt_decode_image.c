/* The hwtrace image as libipt sees it. File-backed sections are added to
 * one pt_image_section_cache, so that every chunk and CPU the adapter's
 * decoder decodes shares the mapped files and libipt's block caches;
 * copied buffers and missing files are served through the image's read
 * callback. A libipt image holds the sections of one process over a span
 * of time in which none of them changes; decoding moves to another when
 * its time leaves the span. */
#include <stdlib.h>
#include <string.h>

#include "backends/x86-pt/pt_decode.h"
#include "hwtrace/error.h"

struct pid_image {
	struct pt_image_adapter *ad;
	int32_t pid;
	/* [from, until): the span whose sections it holds; from is
	 * HWT_TIME_UNKNOWN for the image of the latest sections. */
	uint64_t from, until;
	struct pt_image *img;
};

struct pt_image_adapter {
	struct hwt_image *image;
	struct pt_image_section_cache *iscache;
	int *isids; /* per hwtrace section: 0 not yet added */
	size_t nisids;
	struct pid_image **imgs;
	size_t nimgs;
	size_t sections; /* the image's section count the imgs were built on */
	/* No file may be opened (a sandboxed worker): libipt's section cache
	 * maps a section's file by its path, so every read goes through the
	 * callback, on the bytes the image holds. */
	bool callback_only;
};

int pt_image_adapter_new(struct hwt_image *image, bool sandboxed,
			 struct pt_image_adapter **out)
{
	struct pt_image_adapter *ad = calloc(1, sizeof(*ad));
	if (!ad)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the PT image");
	ad->image = image;
	ad->callback_only = sandboxed;
	ad->sections = image ? hwt_image_count(image) : 0;
	ad->iscache = pt_iscache_alloc("hwtrace");
	if (!ad->iscache) {
		free(ad);
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the PT image");
	}
	*out = ad;
	return 0;
}

static void free_images(struct pt_image_adapter *ad)
{
	for (size_t i = 0; i < ad->nimgs; i++) {
		pt_image_free(ad->imgs[i]->img);
		free(ad->imgs[i]);
	}
	free(ad->imgs);
	ad->imgs = NULL;
	ad->nimgs = 0;
}

bool pt_image_adapter_refresh(struct pt_image_adapter *ad)
{
	size_t n = ad->image ? hwt_image_count(ad->image) : 0;
	if (n == ad->sections)
		return false;
	free_images(ad);
	ad->sections = n;
	return true;
}

void pt_image_adapter_free(struct pt_image_adapter *ad)
{
	if (!ad)
		return;
	free_images(ad);
	free(ad->isids);
	pt_iscache_free(ad->iscache);
	free(ad);
}

static int read_memory(uint8_t *buffer, size_t size, const struct pt_asid *asid,
		       uint64_t ip, void *context)
{
	struct pid_image *pi = context;
	(void)asid;
	if (!pi->ad->image)
		return -pte_nomap;
	int n = hwt_image_read_at(pi->ad->image, pi->pid, ip, pi->from, buffer,
				  size);
	return n > 0 ? n : -pte_nomap;
}

static int section_isid(struct pt_image_adapter *ad, size_t index,
			const struct hwt_image_section *s)
{
	if (index >= ad->nisids) {
		size_t n = hwt_image_count(ad->image);
		int *ids = realloc(ad->isids, n * sizeof(*ids));
		if (!ids)
			return -pte_nomem;
		memset(ids + ad->nisids, 0, (n - ad->nisids) * sizeof(*ids));
		ad->isids = ids;
		ad->nisids = n;
	}
	if (!ad->isids[index])
		ad->isids[index] = pt_iscache_add_file(ad->iscache, s->found_at,
						       s->file_offset, s->size,
						       s->vaddr);
	return ad->isids[index];
}

static int build(struct pt_image_adapter *ad, struct pid_image *pi)
{
	pi->img = pt_image_alloc(NULL);
	if (!pi->img)
		return -pte_nomem;
	int err = pt_image_set_callback(pi->img, read_memory, pi);
	if (err < 0)
		return err;
	size_t n = ad->image && !ad->callback_only ? hwt_image_count(ad->image)
						   : 0;
	for (size_t i = 0; i < n; i++) {
		struct hwt_image_section *s = hwt_image_section(ad->image, i);
		if (!s->data || !s->found_at || !s->size)
			continue; /* buffers and missing files: the callback */
		if (pi->pid != HWT_PID_ANY && s->pid != HWT_PID_ANY &&
		    s->pid != pi->pid)
			continue;
		if (pi->from != HWT_TIME_UNKNOWN &&
		    (s->valid_from > pi->from || s->valid_until <= pi->from))
			continue;
		int isid = section_isid(ad, i, s);
		if (isid <= 0)
			continue; /* unreadable: the callback reads it */
		err = pt_image_add_cached(pi->img, ad->iscache, isid, NULL);
		if (err < 0)
			return err;
	}
	return 0;
}

/* The span around @time in which no section of @pid starts or ends. */
static void span_of(struct hwt_image *image, int32_t pid, uint64_t time,
		    uint64_t *from, uint64_t *until)
{
	*from = 0;
	*until = HWT_TIME_END;
	size_t n = image && hwt_image_changes(image) ? hwt_image_count(image) : 0;
	for (size_t i = 0; i < n; i++) {
		const struct hwt_image_section *s = hwt_image_section(image, i);
		if (pid != HWT_PID_ANY && s->pid != HWT_PID_ANY && s->pid != pid)
			continue;
		uint64_t edge[2] = {s->valid_from, s->valid_until};
		for (int k = 0; k < 2; k++) {
			if (edge[k] <= time && edge[k] > *from)
				*from = edge[k];
			else if (edge[k] > time && edge[k] < *until)
				*until = edge[k];
		}
	}
}

struct pt_image *pt_image_adapter_get(struct pt_image_adapter *ad, int32_t pid,
				      uint64_t time, uint64_t *until)
{
	uint64_t from = HWT_TIME_UNKNOWN, end = HWT_TIME_END;
	if (time != HWT_TIME_UNKNOWN)
		span_of(ad->image, pid, time, &from, &end);
	for (size_t i = 0; i < ad->nimgs; i++) {
		if (ad->imgs[i]->pid == pid && ad->imgs[i]->from == from) {
			*until = ad->imgs[i]->until;
			return ad->imgs[i]->img;
		}
	}

	struct pid_image *pi = calloc(1, sizeof(*pi));
	void *n = realloc(ad->imgs, (ad->nimgs + 1) * sizeof(*ad->imgs));
	if (!pi || !n) {
		free(pi);
		if (n)
			ad->imgs = n;
		return NULL;
	}
	ad->imgs = n;
	pi->ad = ad;
	pi->pid = pid;
	pi->from = from;
	pi->until = end;
	if (build(ad, pi) < 0) {
		pt_image_free(pi->img);
		free(pi);
		return NULL;
	}
	ad->imgs[ad->nimgs++] = pi;
	*until = end;
	return pi->img;
}
