/* perf's rows stored on a thread of their own. Storing a row (SQLite's
 * B-tree and record work, PostgreSQL's COPY encoding) costs about twice
 * what making it does, so with a second core the export runs at the
 * storing thread's speed. The calling thread copies each row into a
 * chunk; full chunks go to the writer thread through a short queue, and
 * the writer hands them to the database backend in the same order. When
 * the queue is full the caller waits, so memory stays at a few chunks.
 *
 * A chunk holds records of 8-byte words: a head (table, kind, words),
 * then the columns. A row of numbers is its columns; any other row is
 * its columns' kinds (number, NULL, text) and numbers, then its texts
 * one after another, each with its NUL. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/export/perfdb.h"
#include "hwtrace/error.h"

#define CHUNK_BYTES (256u << 10)
#define QUEUE_CHUNKS 4

enum rec_kind { REC_INTS, REC_VALS };
enum col_kind { COL_INT, COL_NULL, COL_TEXT };

struct rec_head {
	uint8_t table, kind;
	uint8_t pad[2];
	uint32_t words;          /* after the head */
};

struct chunk {
	size_t cap, used;        /* bytes */
	struct chunk *next;      /* in the queue or the spare list */
	_Alignas(8) unsigned char data[];
};

struct perfdb_thread {
	const struct perfdb_backend *be;
	void *db;
	pthread_t thread;
	bool started;
	pthread_mutex_t lock;
	pthread_cond_t more, room;   /* to the writer; to the caller */
	struct chunk *head, *tail;   /* full chunks, oldest first */
	int queued;
	struct chunk *spare;         /* chunks the writer is done with */
	struct chunk *filling;       /* the caller's */
	bool done;                   /* no more chunks will come */
	/* The writer's first failure, with its message (messages are the
	 * failing thread's): later chunks are dropped. */
	int err;
	char msg[512];
};

static struct chunk *chunk_new(size_t cap)
{
	struct chunk *c = malloc(sizeof(*c) + cap);
	if (c) {
		c->cap = cap;
		c->used = 0;
		c->next = NULL;
	}
	return c;
}

static void chunk_list_free(struct chunk *c)
{
	while (c) {
		struct chunk *next = c->next;
		free(c);
		c = next;
	}
}

/* Hands each record of @c to the database. */
static int replay(struct perfdb_thread *t, const struct chunk *c)
{
	size_t at = 0;
	while (at < c->used) {
		const struct rec_head *h = (const void *)(c->data + at);
		const int64_t *w = (const int64_t *)(h + 1);
		at += sizeof(*h) + h->words * sizeof(int64_t);
		enum perfdb_table tab = (enum perfdb_table)h->table;
		if (h->kind == REC_INTS) {
			int err = hwt_perfdb_row_of_ints(t->be, t->db, tab, w);
			if (err)
				return err;
			continue;
		}
		size_t cols = strlen(hwt_perfdb_tables[tab].types);
		const uint8_t *kinds = (const uint8_t *)w;
		const int64_t *nums = w + (cols + 7) / 8;
		const char *text = (const char *)(nums + cols);
		struct perfdb_val v[PERFDB_MAX_COLUMNS];
		for (size_t i = 0; i < cols; i++) {
			v[i] = (struct perfdb_val){.i = nums[i],
						   .null = kinds[i] == COL_NULL};
			if (kinds[i] == COL_TEXT) {
				v[i].s = text;
				text += strlen(text) + 1;
			}
		}
		int err = t->be->row(t->db, tab, v);
		if (err)
			return err;
	}
	return 0;
}

static void *writer(void *arg)
{
	struct perfdb_thread *t = arg;
	pthread_mutex_lock(&t->lock);
	for (;;) {
		while (!t->head && !t->done)
			pthread_cond_wait(&t->more, &t->lock);
		struct chunk *c = t->head;
		if (!c)
			break;
		t->head = c->next;
		if (!t->head)
			t->tail = NULL;
		t->queued--;
		bool failed = t->err != 0;
		pthread_mutex_unlock(&t->lock);
		int err = failed ? 0 : replay(t, c);
		pthread_mutex_lock(&t->lock);
		if (err && !t->err) {
			t->err = err;
			snprintf(t->msg, sizeof(t->msg), "%s", hwt_errmsg());
		}
		/* Only standard chunks are kept for reuse. */
		if (c->cap == CHUNK_BYTES) {
			c->used = 0;
			c->next = t->spare;
			t->spare = c;
		} else {
			free(c);
		}
		pthread_cond_signal(&t->room);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

/* The writer's failure as the caller's (lock held, or writer stopped). */
static int writer_error(struct perfdb_thread *t)
{
	return t->err ? hwt_error(t->err, "%s", t->msg) : 0;
}

/* Queues the filling chunk (when it has rows) and, when @need is not 0,
 * gives the caller an empty one of at least @need bytes. */
static int send_chunk(struct perfdb_thread *t, size_t need)
{
	pthread_mutex_lock(&t->lock);
	struct chunk *c = t->filling;
	t->filling = NULL;
	if (c && c->used) {
		while (t->queued == QUEUE_CHUNKS && !t->err)
			pthread_cond_wait(&t->room, &t->lock);
		if (t->tail)
			t->tail->next = c;
		else
			t->head = c;
		t->tail = c;
		t->queued++;
		pthread_cond_signal(&t->more);
		c = NULL;
	}
	int err = writer_error(t);
	if (!err && need && !c && need <= CHUNK_BYTES && t->spare) {
		c = t->spare;
		t->spare = c->next;
		c->next = NULL;
	}
	pthread_mutex_unlock(&t->lock);
	if (err || !need) {
		free(c);
		return err;
	}
	if (c && c->cap < need) {
		free(c);
		c = NULL;
	}
	if (!c)
		c = chunk_new(need > CHUNK_BYTES ? need : CHUNK_BYTES);
	if (!c)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	t->filling = c;
	return 0;
}

/* Room (*w) for a record of @words words after its head. */
static int rec_start(struct perfdb_thread *t, enum perfdb_table tab,
		     enum rec_kind kind, size_t words, int64_t **w)
{
	size_t need = sizeof(struct rec_head) + words * sizeof(int64_t);
	if (!t->filling || t->filling->cap - t->filling->used < need) {
		int err = send_chunk(t, need);
		if (err)
			return err;
	}
	struct chunk *c = t->filling;
	struct rec_head *h = (void *)(c->data + c->used);
	*h = (struct rec_head){.table = (uint8_t)tab, .kind = (uint8_t)kind,
			       .words = (uint32_t)words};
	c->used += need;
	*w = (int64_t *)(h + 1);
	return 0;
}

static int thread_row_ints(void *db, enum perfdb_table tab, const int64_t *v)
{
	size_t cols = strlen(hwt_perfdb_tables[tab].types);
	int64_t *w;
	int err = rec_start(db, tab, REC_INTS, cols, &w);
	if (!err)
		memcpy(w, v, cols * sizeof(*v));
	return err;
}

static int thread_row(void *db, enum perfdb_table tab,
		      const struct perfdb_val *v)
{
	struct perfdb_thread *t = db;
	size_t cols = strlen(hwt_perfdb_tables[tab].types), text = 0;
	for (size_t i = 0; i < cols; i++)
		text += v[i].s ? strlen(v[i].s) + 1 : 0;
	size_t kind_words = (cols + 7) / 8;
	size_t words = kind_words + cols + (text + 7) / 8;
	int64_t *w;
	int err = rec_start(t, tab, REC_VALS, words, &w);
	if (err)
		return err;
	uint8_t *kinds = (uint8_t *)w;
	int64_t *nums = w + kind_words;
	char *out = (char *)(nums + cols);
	memset(kinds, 0, kind_words * sizeof(int64_t));
	for (size_t i = 0; i < cols; i++) {
		nums[i] = v[i].i;
		kinds[i] = v[i].s ? COL_TEXT : v[i].null ? COL_NULL : COL_INT;
		if (v[i].s) {
			size_t n = strlen(v[i].s) + 1;
			memcpy(out, v[i].s, n);
			out += n;
		}
	}
	return 0;
}

/* Stops the writer after the queued chunks (@give_up: drops them). */
static void stop_writer(struct perfdb_thread *t, bool give_up)
{
	if (!t->started)
		return;
	pthread_mutex_lock(&t->lock);
	t->done = true;
	if (give_up && !t->err) {
		t->err = HWT_ERR_IO;
		snprintf(t->msg, sizeof(t->msg), "export given up");
	}
	pthread_cond_signal(&t->more);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->thread, NULL);
	t->started = false;
}

/* Sends the last rows and waits for the writer to store them. */
static int thread_finish_rows(struct perfdb_thread *t)
{
	int err = send_chunk(t, 0);
	stop_writer(t, false);
	return err ? err : writer_error(t);
}

static int thread_finish(void *db, bool switches)
{
	struct perfdb_thread *t = db;
	int err = thread_finish_rows(t);
	return err ? err : t->be->finish(t->db, switches);
}

/* The rows so far stored, the capture's database ended on this thread,
 * and the writer started again for the next capture's. */
static int thread_next_capture(void *db, bool switches)
{
	struct perfdb_thread *t = db;
	int err = thread_finish_rows(t);
	if (!err)
		err = t->be->next_capture(t->db, switches);
	if (err)
		return err;
	t->done = false;
	int rc = pthread_create(&t->thread, NULL, writer, t);
	if (rc)
		return hwt_error(HWT_ERR_NOMEM, "cannot start the database "
				 "writer thread: %s", strerror(rc));
	t->started = true;
	return 0;
}

static const struct sqlite_shards *thread_shards(void *db)
{
	struct perfdb_thread *t = db;
	return t->be->shards ? t->be->shards(t->db) : NULL;
}

static void thread_free(void *db)
{
	struct perfdb_thread *t = db;
	if (!t)
		return;
	/* An export given up: its queued rows are not stored. */
	stop_writer(t, true);
	t->be->free(t->db);
	free(t->filling);
	chunk_list_free(t->head);
	chunk_list_free(t->spare);
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->more);
	pthread_cond_destroy(&t->room);
	free(t);
}

static const struct perfdb_backend thread_backend = {
	.row = thread_row,
	.row_ints = thread_row_ints,
	.finish = thread_finish,
	.free = thread_free,
	.next_capture = NULL, /* set when the database has one */
	.shards = thread_shards,
};

static const struct perfdb_backend thread_backend_captures = {
	.row = thread_row,
	.row_ints = thread_row_ints,
	.finish = thread_finish,
	.free = thread_free,
	.next_capture = thread_next_capture,
	.shards = thread_shards,
};

int hwt_perfdb_thread_new(const struct perfdb_backend **be, void **db)
{
	struct perfdb_thread *t = calloc(1, sizeof(*t));
	if (!t) {
		(*be)->free(*db);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	t->be = *be;
	t->db = *db;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->more, NULL);
	pthread_cond_init(&t->room, NULL);
	int rc = pthread_create(&t->thread, NULL, writer, t);
	if (rc) {
		thread_free(t);
		return hwt_error(HWT_ERR_NOMEM, "cannot start the database "
				 "writer thread: %s", strerror(rc));
	}
	t->started = true;
	*be = t->be->next_capture ? &thread_backend_captures : &thread_backend;
	*db = t;
	return 0;
}
