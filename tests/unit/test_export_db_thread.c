/* perf's rows stored on a thread of their own (perfdb_thread.c), against
 * a database that records what it is given: every row arrives, in order,
 * with its numbers, NULLs and texts (one text longer than a whole chunk);
 * rows of numbers reach a database without row_ints as rows; a failure
 * on the writer thread comes back to the caller with its own message,
 * and nothing after it is stored or finished; an export given up stops
 * the thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/export/perfdb.h"
#include "harness.h"
#include "hwtrace/error.h"

/* A running digest of the rows, so both paths compare cheaply. */
struct fake_db {
	uint64_t rows, hash;
	uint64_t fail_at;   /* the row that fails (0: none) */
	bool finished, switches;
};

static void mix(struct fake_db *f, uint64_t v)
{
	f->hash = (f->hash ^ v) * 0x100000001b3ull;
}

static int fake_row(void *db, enum perfdb_table t, const struct perfdb_val *v)
{
	struct fake_db *f = db;
	if (++f->rows == f->fail_at)
		return hwt_error(HWT_ERR_NOSPC, "fake database: full at row %llu",
				 (unsigned long long)f->rows);
	mix(f, (uint64_t)t);
	for (size_t i = 0; hwt_perfdb_tables[t].types[i]; i++) {
		mix(f, (uint64_t)v[i].i);
		mix(f, v[i].null);
		for (const char *s = v[i].s; s && *s; s++)
			mix(f, (unsigned char)*s);
		mix(f, v[i].s ? 1 : 2);
	}
	return 0;
}

static int fake_row_ints(void *db, enum perfdb_table t, const int64_t *v)
{
	struct perfdb_val vals[32];
	for (size_t i = 0; hwt_perfdb_tables[t].types[i]; i++)
		vals[i] = (struct perfdb_val){.i = v[i]};
	return fake_row(db, t, vals);
}

static int fake_finish(void *db, bool switches)
{
	struct fake_db *f = db;
	f->finished = true;
	f->switches = switches;
	return 0;
}

static int frees;

static void fake_free(void *db)
{
	(void)db;
	frees++;
}

static const struct perfdb_backend with_ints = {
	.row = fake_row, .row_ints = fake_row_ints,
	.finish = fake_finish, .free = fake_free,
};
static const struct perfdb_backend rows_only = {
	.row = fake_row, .finish = fake_finish, .free = fake_free,
};

/* Sends the same 200,000 rows: samples as numbers, every 1000th a symbol
 * (text, or NULL name), one symbol with a 300 KB name. Stops at the first
 * failure and returns it. */
static int send_rows(const struct perfdb_backend *be, void *db,
		     uint64_t *sent)
{
	static char long_name[300 * 1024];
	memset(long_name, 'x', sizeof(long_name) - 1);
	*sent = 0;
	for (int64_t r = 1; r <= 200000; r++) {
		int err;
		if (r % 1000 == 0) {
			char name[32];
			snprintf(name, sizeof(name), "fn_%lld", (long long)r);
			const struct perfdb_val sym[6] = {
				{.i = r}, {.i = 1}, {.i = r * 16}, {.i = r * 16 + 8},
				{.i = 2},
				r == 50000 ? (struct perfdb_val){.s = long_name}
				: r % 3000 == 0 ? (struct perfdb_val){.null = true}
				: (struct perfdb_val){.s = name},
			};
			err = be->row(db, PT_SYMBOLS, sym);
		} else {
			int64_t v[21];
			for (int i = 0; i < 21; i++)
				v[i] = r * 21 + i;
			err = be->row_ints ? be->row_ints(db, PT_SAMPLES, v)
			      : hwt_error(HWT_ERR_INVAL, "no row_ints");
		}
		if (err)
			return err;
		++*sent;
	}
	return 0;
}

static void test_same_rows(const struct perfdb_backend *inner)
{
	struct fake_db direct = {0}, threaded = {0};
	uint64_t sent;
	CHECK_INT(send_rows(&with_ints, &direct, &sent), 0);
	CHECK_INT(fake_finish(&direct, true), 0);

	const struct perfdb_backend *be = inner;
	void *db = &threaded;
	CHECK_INT(hwt_perfdb_thread_new(&be, &db), 0);
	CHECK(be != inner);
	CHECK_INT(send_rows(be, db, &sent), 0);
	CHECK_U64(sent, 200000);
	CHECK_INT(be->finish(db, true), 0);
	CHECK(threaded.finished && threaded.switches);
	CHECK_U64(threaded.rows, 200000);
	CHECK_U64(threaded.hash, direct.hash);
	int before = frees;
	be->free(db);
	CHECK_INT(frees, before + 1);
}

static void test_failure_comes_back(void)
{
	struct fake_db f = {.fail_at = 123457};
	const struct perfdb_backend *be = &with_ints;
	void *db = &f;
	CHECK_INT(hwt_perfdb_thread_new(&be, &db), 0);
	uint64_t sent;
	int err = send_rows(be, db, &sent);
	if (!err)
		err = be->finish(db, false);
	CHECK_INT(err, HWT_ERR_NOSPC);
	CHECK_CONTAINS(hwt_errmsg(), "fake database: full at row 123457");
	/* The rows after it are dropped, the database is not finished. */
	CHECK_U64(f.rows, 123457);
	CHECK(!f.finished);
	/* A later call says the same. */
	CHECK_INT(be->finish(db, false), HWT_ERR_NOSPC);
	be->free(db);
}

static void test_given_up(void)
{
	struct fake_db f = {0};
	const struct perfdb_backend *be = &with_ints;
	void *db = &f;
	CHECK_INT(hwt_perfdb_thread_new(&be, &db), 0);
	int64_t v[21] = {1};
	for (int i = 0; i < 50000; i++)
		CHECK_INT(be->row_ints(db, PT_SAMPLES, v), 0);
	int before = frees;
	be->free(db);   /* no finish: the thread stops, nothing finished */
	CHECK_INT(frees, before + 1);
	CHECK(!f.finished);
}

int main(void)
{
	test_same_rows(&with_ints);
	test_same_rows(&rows_only);
	test_failure_comes_back();
	test_given_up();
	return hwt_test_summary();
}
