/* A merged decode's output lanes (decode_lanes.h). A lane's output holds
 * its slice's lines (hwt_output_hold) until the slice's end, in the
 * lane's turn, and then writes them to the real output. What it cannot
 * hold (a very long line, and whatever an annotator writes to the
 * output's FILE itself) it writes before, to a FILE of the lane's own
 * whose bytes collect in memory (fopencookie), written out first. */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/decode_run/decode_lanes.h"
#include "hwtrace/error.h"

struct lane {
	const struct decode_lanes_config *config;
	struct hwt_decode_counter counter;
	struct hwt_output *output;
	FILE *file;
	char *text;            /* what went to file since the last flush */
	size_t len, cap;
	/* The annotator's annotate, one lane at a time. */
	pthread_mutex_t *annotate_lock;
};

static ssize_t collect(void *arg, const char *buf, size_t size)
{
	struct lane *l = arg;
	if (l->len + size > l->cap) {
		size_t cap = l->cap ? l->cap : 1u << 20;
		while (cap < l->len + size)
			cap *= 2;
		char *t = realloc(l->text, cap);
		if (!t) {
			errno = ENOMEM;
			return 0;
		}
		l->text = t;
		l->cap = cap;
	}
	memcpy(l->text + l->len, buf, size);
	l->len += size;
	return (ssize_t)size;
}

static int annotate_locked(void *arg, const struct hwt_elem *elem,
			   enum hwt_output_format format, FILE *out, char *buf,
			   size_t size)
{
	struct lane *l = arg;
	const struct hwt_output_annotator *a = l->config->annotator;
	pthread_mutex_lock(l->annotate_lock);
	int rc = a->annotate(a->arg, elem, format, out, buf, size);
	pthread_mutex_unlock(l->annotate_lock);
	return rc;
}

static uint64_t cache_tag(void *arg, const struct hwt_elem *elem)
{
	struct lane *l = arg;
	const struct hwt_output_annotator *a = l->config->annotator;
	return a->cache_tag(a->arg, elem);
}

/* The slice's lines, in its turn: what went to the lane's file first,
 * then what the output holds. */
static int flush(void *arg)
{
	struct lane *l = arg;
	const struct decode_lanes_config *c = l->config;
	if (l->len && fwrite(l->text, 1, l->len, c->out) != l->len)
		return hwt_error(HWT_ERR_IO, "writing the output failed (%s)",
				 strerror(errno));
	l->len = 0;
	int err = hwt_output_flush_to(l->output, c->out);
	if (err < 0)
		return err;
	c->add_counts(c->add_counts_arg, &l->counter.counts);
	l->counter.counts = (struct hwt_decode_counts){0};
	return 0;
}

static int lane_open(struct lane *l, const struct decode_lanes_config *c,
		     pthread_mutex_t *annotate_lock)
{
	memset(l, 0, sizeof(*l));
	l->config = c;
	l->annotate_lock = annotate_lock;
	cookie_io_functions_t io = {.write = collect};
	l->file = fopencookie(l, "w", io);
	if (!l->file)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	/* The output writes large blocks: no second buffer. */
	setvbuf(l->file, NULL, _IONBF, 0);
	l->output = hwt_output_new(l->file, c->format);
	if (!l->output)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	hwt_output_hold(l->output, true);
	if (c->annotator) {
		struct hwt_output_annotator a = {
			annotate_locked, l,
			c->annotator->cache_tag ? cache_tag : NULL};
		hwt_output_set_annotator(l->output, &a);
	}
	l->counter.next = hwt_output_sink(l->output);
	return 0;
}

static void lane_close(struct lane *l)
{
	/* Whatever is left after a failure is not written. */
	if (l->output)
		hwt_output_free(l->output);
	if (l->file)
		fclose(l->file);
	free(l->text);
}

int decode_lanes_finish(struct hwt_merge *merge,
			const struct decode_lanes_config *config)
{
	pthread_mutex_t annotate_lock = PTHREAD_MUTEX_INITIALIZER;
	struct lane *lanes = calloc(config->lanes, sizeof(*lanes));
	struct hwt_merge_lane *ml = calloc(config->lanes, sizeof(*ml));
	int err = lanes && ml ? 0 : hwt_error(HWT_ERR_NOMEM, "out of memory");
	size_t opened = 0;
	for (; !err && opened < config->lanes; opened++) {
		err = lane_open(&lanes[opened], config, &annotate_lock);
		ml[opened] = (struct hwt_merge_lane){
			hwt_decode_counter_sink(&lanes[opened].counter), flush,
			&lanes[opened]};
	}
	if (!err)
		err = hwt_merge_finish_lanes(merge, ml, config->lanes);
	for (size_t i = 0; lanes && i < opened; i++)
		lane_close(&lanes[i]);
	free(lanes);
	free(ml);
	pthread_mutex_destroy(&annotate_lock);
	return err;
}
