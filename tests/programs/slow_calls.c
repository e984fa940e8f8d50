/* The latency trigger's program: slow() is called 1000 times and exactly
 * 7 of those calls (SLOW_CALLS) sleep 30 ms; the others return at once.
 * It prints the call numbers (1-based) of the slow ones, the oracle the
 * test compares the windows with. The slow calls sleep rather than spin
 * so that the program stays short under single-stepping. */
#include <stdio.h>
#include <time.h>

static const int slow_calls[] = {3, 150, 151, 402, 640, 877, 1000};
#define NSLOW (sizeof(slow_calls) / sizeof(slow_calls[0]))

volatile int work;

__attribute__((noinline)) void slow(int sleepy)
{
	if (sleepy) {
		struct timespec ts = {0, 30 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	work++;
}

int main(void)
{
	size_t next = 0;

	for (int call = 1; call <= 1000; call++) {
		int sleepy = next < NSLOW && slow_calls[next] == call;
		next += sleepy;
		slow(sleepy);
	}
	for (size_t i = 0; i < NSLOW; i++)
		printf("slow call %d\n", slow_calls[i]);
	return 0;
}
