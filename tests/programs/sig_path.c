/* Raises a signal whose handler runs while the program is traced: the
 * transfer into the handler is asynchronous (no branch instruction makes
 * it), and the return from it goes through rt_sigreturn. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static volatile int hits;

void sig_handler(int sig);
void sig_handler(int sig)
{
	(void)sig;
	hits++;
}

int main(void)
{
	signal(SIGUSR1, sig_handler);
	raise(SIGUSR1);
	printf("%d signal handled\n", hits);
	exit(0);
}
