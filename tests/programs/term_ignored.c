/* Runs until it is killed: it ignores SIGTERM and SIGINT, so only a
 * second stop request of the recorder (SIGKILL) ends it. It spins in a
 * loop that is stepped for as long as the recorder traces it. */
#include <signal.h>

static volatile unsigned long spins;

int main(void)
{
	signal(SIGTERM, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	for (;;)
		spins++;
}
