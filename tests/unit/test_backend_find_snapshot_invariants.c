/* Whatever the buffer holds and whatever heads the driver reports, every
 * backend's find_snapshot answers a span inside the buffer (start below
 * its size, length at most its size) or a clean error: random buffers,
 * sizes (powers of two and not), heads and previous heads. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void check_backend(const char *name)
{
	const struct hwt_backend *be = hwt_backend_find(name);
	static uint8_t buf[65536];
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	int errors = 0, wraps = 0;

	CHECK(be && be->record && be->record->find_snapshot);
	if (!be || !be->record || !be->record->find_snapshot)
		return;
	for (int i = 0; i < 20000; i++) {
		uint64_t size = rnd(&seed) & 1 ? 1ull << (rnd(&seed) % 17)
					       : 1 + rnd(&seed) % 65536;
		uint64_t head = rnd(&seed) % (4 * size + 1);
		uint64_t prev = rnd(&seed) % 3 == 0 ? 0 : rnd(&seed) % (head + 1);
		uint64_t start = ~0ull, len = ~0ull;
		bool wrapped = false;
		int ret;

		if (rnd(&seed) % 4 == 0)
			prev = head + 1 + rnd(&seed) % size; /* behind: bogus */
		memset(buf, 0, size);
		if (rnd(&seed) % 2) {
			uint64_t from = rnd(&seed) % size, n = rnd(&seed) % (size - from + 1);
			memset(buf + from, 0x5a, n);
		}
		ret = be->record->find_snapshot(buf, size, head, prev, &start, &len,
						&wrapped);
		if (ret < 0) {
			CHECK_INT(ret, HWT_ERR_INVAL);
			errors++;
			continue;
		}
		CHECK_INT(ret, 0);
		CHECK(start < size);
		CHECK(len <= size);
		wraps += wrapped;
		if (start >= size || len > size) {
			fprintf(stderr, "%s: size %llu head %llu prev %llu -> start %llu len %llu\n",
				name, (unsigned long long)size, (unsigned long long)head,
				(unsigned long long)prev, (unsigned long long)start,
				(unsigned long long)len);
			return;
		}
	}
	/* Both answers occur; only CoreSight refuses a head behind the last. */
	CHECK(wraps > 0);
	if (!strcmp(name, "cs_etm"))
		CHECK(errors > 0);
	else
		CHECK_INT(errors, 0);
}

static void test_intel_pt(void)
{
	check_backend("intel_pt");
}

static void test_intel_bts(void)
{
	check_backend("intel_bts");
}

static void test_cs_etm(void)
{
	check_backend("cs_etm");
}

int main(void)
{
	RUN(test_intel_pt);
	RUN(test_intel_bts);
	RUN(test_cs_etm);
	return hwt_test_summary();
}
