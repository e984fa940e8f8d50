/* Starts two threads that each call work() once, then joins them: a
 * tracer started at main sees threads created while it steps. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

int work(int n);
int __attribute__((noinline)) work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += i & 3;
	return s;
}

static volatile int result;

static void *thread_main(void *arg)
{
	result = work((int)(long)arg);
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	if (pthread_create(&a, NULL, thread_main, (void *)100L) ||
	    pthread_create(&b, NULL, thread_main, (void *)200L))
		return 1;
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("threads done\n");
	exit(0);
}
