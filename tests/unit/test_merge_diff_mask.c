/* The merge writer's mask of the words in which an element differs from
 * the previous one of its type (merge_diff_mask, two words at a time with
 * SSE2): against its definition word by word, for no difference (the
 * positive control of a mask that could be always 0), one bit flipped in
 * every bit of every word (a difference only in a word's upper half must
 * set its bit: the vector compare is of 32-bit halves), and random words
 * with random equal words between them. */
#include <stdbool.h>

#include "core/merge/merge_codec.h"
#include "harness.h"

/* The definition: bit i where word i differs. */
static uint64_t mask_by_words(const uint64_t *w, const uint64_t *p)
{
	uint64_t mask = 0;
	for (size_t i = 0; i < MERGE_ELEM_WORDS; i++)
		if (w[i] != p[i])
			mask |= (uint64_t)1 << i;
	return mask;
}

static uint64_t diff_mask(const uint64_t *w, const uint64_t *p)
{
	struct hwt_elem prev;
	memcpy(&prev, p, sizeof(prev));
	return merge_diff_mask(w, &prev);
}

static uint64_t rng = 0x243f6a8885a308d3ull;

static uint64_t next_random(void)
{
	rng ^= rng << 13; /* xorshift64 */
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void test_equal_words(void)
{
	uint64_t w[MERGE_ELEM_WORDS], p[MERGE_ELEM_WORDS];
	for (size_t i = 0; i < MERGE_ELEM_WORDS; i++)
		w[i] = p[i] = next_random();
	CHECK_U64(diff_mask(w, p), 0);
	/* Every word differing: all 11 bits. */
	for (size_t i = 0; i < MERGE_ELEM_WORDS; i++)
		p[i] = ~w[i];
	CHECK_U64(diff_mask(w, p), 0x7ff);
}

static void test_one_bit_each(void)
{
	uint64_t w[MERGE_ELEM_WORDS], p[MERGE_ELEM_WORDS];
	for (size_t i = 0; i < MERGE_ELEM_WORDS; i++)
		w[i] = next_random();
	size_t wrong = 0;
	for (size_t i = 0; i < MERGE_ELEM_WORDS; i++)
		for (unsigned b = 0; b < 64; b++) {
			memcpy(p, w, sizeof(p));
			p[i] ^= (uint64_t)1 << b;
			if (diff_mask(w, p) != (uint64_t)1 << i)
				wrong++;
		}
	printf("one bit flipped in each of %zu bits: %zu wrong masks\n",
	       MERGE_ELEM_WORDS * 64, wrong);
	CHECK_INT(wrong, 0);
}

static void test_random(void)
{
	uint64_t w[MERGE_ELEM_WORDS], p[MERGE_ELEM_WORDS];
	size_t wrong = 0, set = 0;
	for (int k = 0; k < 100000; k++) {
		for (size_t i = 0; i < MERGE_ELEM_WORDS; i++) {
			w[i] = next_random();
			/* A word equal, or differing in its low half, its
			 * high half or both. */
			uint64_t d = next_random();
			switch (next_random() % 4) {
			case 0: d = 0; break;
			case 1: d = (d & 0xffffffffull) | 1; break;
			case 2: d = (d & ~0xffffffffull) | (uint64_t)1 << 40; break;
			default: d |= 1 | (uint64_t)1 << 40; break;
			}
			p[i] = w[i] ^ d;
		}
		uint64_t want = mask_by_words(w, p);
		set += (size_t)__builtin_popcountll(want);
		if (diff_mask(w, p) != want)
			wrong++;
	}
	printf("100000 random pairs, %zu differing words: %zu wrong masks\n",
	       set, wrong);
	CHECK_INT(wrong, 0);
	CHECK(set > 100000 && set < 1000000);
}

int main(void)
{
	test_equal_words();
	test_one_bit_each();
	test_random();
	printf("%d checks, %d failed\n", hwt_test_checks, hwt_test_failures);
	return hwt_test_failures != 0;
}
