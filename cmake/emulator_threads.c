/* Run under the cross build's test emulator at configure time: one thread
 * created and joined. See check_emulator.cmake. */
#include <pthread.h>
#include <stdio.h>

static void *run(void *arg)
{
	return arg;
}

int main(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, run, NULL) || pthread_join(t, NULL))
		return 1;
	puts("thread joined");
	return 0;
}
