/* A program to attach to: it prints a line every 20 ms, numbered, up to
 * the count given (default 100), from main and a second thread taking
 * turns, and checks each line's number against its own count. Its output
 * is the same whether or not it was traced for a while. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int next_line = 1, last_line = 100;

__attribute__((noinline)) int tick(const char *who)
{
	struct timespec ts = {0, 20 * 1000 * 1000};
	int more;

	nanosleep(&ts, NULL);
	pthread_mutex_lock(&lock);
	more = next_line <= last_line;
	if (more)
		printf("%s %d\n", who, next_line++);
	fflush(stdout);
	pthread_mutex_unlock(&lock);
	return more;
}

static void *second(void *arg)
{
	(void)arg;
	while (tick("thread"))
		;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc > 1)
		last_line = atoi(argv[1]);
	if (pthread_create(&t, NULL, second, NULL))
		return 1;
	while (tick("main"))
		;
	pthread_join(t, NULL);
	return 0;
}
