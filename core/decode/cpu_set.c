/* A set of CPU numbers and its text as ranges (cpu_set.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/decode/cpu_set.h"
#include "hwtrace/error.h"

/* The index of the first element >= @cpu. */
static size_t lower_bound(const struct hwt_cpu_set *s, uint32_t cpu)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->cpu[mid] < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int hwt_cpu_set_add(struct hwt_cpu_set *s, uint32_t cpu)
{
	size_t at = lower_bound(s, cpu);
	if (at < s->n && s->cpu[at] == cpu)
		return 0;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		uint32_t *p = realloc(s->cpu, cap * sizeof(*p));
		if (!p)
			return hwt_error(HWT_ERR_NOMEM, "out of memory for a CPU set");
		s->cpu = p;
		s->cap = cap;
	}
	memmove(s->cpu + at + 1, s->cpu + at, (s->n - at) * sizeof(*s->cpu));
	s->cpu[at] = cpu;
	s->n++;
	return 0;
}

bool hwt_cpu_set_contains(const struct hwt_cpu_set *s, uint32_t cpu)
{
	size_t at = lower_bound(s, cpu);
	return at < s->n && s->cpu[at] == cpu;
}

/* The text of the run that starts at index *@i, with its separator, into
 * @out; *@i moves past the run. */
static size_t run_text(const struct hwt_cpu_set *s, size_t *i, char out[32])
{
	size_t first = *i, last = first;
	while (last + 1 < s->n && s->cpu[last + 1] == s->cpu[last] + 1)
		last++;
	*i = last + 1;
	const char *sep = first ? ", " : "";
	int len = last == first
			  ? snprintf(out, 32, "%s%" PRIu32, sep, s->cpu[first])
			  : snprintf(out, 32, "%s%" PRIu32 "-%" PRIu32, sep,
				     s->cpu[first], s->cpu[last]);
	return (size_t)len;
}

bool hwt_cpu_set_format(const struct hwt_cpu_set *s, char *buf, size_t size)
{
	static const char more[] = ", ...";
	char run[32];
	size_t total = 0;

	for (size_t i = 0; i < s->n;)
		total += run_text(s, &i, run);
	bool whole = total < size;
	/* Else whole ranges while there is room for them and the ", ..."
	 * after them: a range cut in the middle would name CPUs that are
	 * not there ("0-1" of "0-15"). */
	size_t room = whole ? size : size > strlen(more) ? size - strlen(more) : 0;
	size_t len = 0;
	for (size_t i = 0; i < s->n;) {
		size_t n = run_text(s, &i, run);
		if (len + n >= room)
			break;
		memcpy(buf + len, run, n);
		len += n;
	}
	if (whole) {
		buf[len] = 0;
		return true;
	}
	const char *tail = len ? more : more + 2;
	if (len + strlen(tail) < size) {
		memcpy(buf + len, tail, strlen(tail));
		len += strlen(tail);
	}
	if (size)
		buf[len] = 0;
	return false;
}

void hwt_cpu_set_free(struct hwt_cpu_set *s)
{
	free(s->cpu);
	*s = (struct hwt_cpu_set){0};
}
