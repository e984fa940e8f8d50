/* The one owner of the process's temporary output files: each output is
 * written as a temporary until it is complete (os_outfile.c), and every
 * way out of the process removes the temporaries still open. The
 * ordinary paths commit or discard them; this file covers exit() without
 * either and the signals that end a process (SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT), whose handler may only make async-signal-safe calls: the
 * names sit in a fixed table read with atomic loads. */
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/os/os_outfile_internal.h"
#include "hwtrace/outfile.h"

#define NSLOTS 1024

/* A slot is taken by storing its name, then its owner's pid; freed by
 * clearing the pid, then the name. A fork's child has its parent's
 * table: only the process that made a temporary removes it. */
static const char *slot_name[NSLOTS];
static pid_t slot_pid[NSLOTS];
static bool at_exit_set;

void hwt_outfile_remove_temporaries(void)
{
	pid_t self = getpid();

	for (int i = 0; i < NSLOTS; i++) {
		const char *name = __atomic_load_n(&slot_name[i], __ATOMIC_ACQUIRE);
		if (name && __atomic_load_n(&slot_pid[i], __ATOMIC_ACQUIRE) == self)
			unlink(name);
	}
}

static void remove_at_exit(void)
{
	hwt_outfile_remove_temporaries();
}

int os_outfile_temp_own(const char *temp)
{
	if (!__atomic_exchange_n(&at_exit_set, true, __ATOMIC_ACQ_REL))
		atexit(remove_at_exit);
	for (int i = 0; i < NSLOTS; i++) {
		const char *none = NULL;
		if (!__atomic_compare_exchange_n(&slot_name[i], &none, temp,
						 false, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			continue;
		/* Until this store the slot's pid is 0 (free slots have it
		 * so): the handler leaves it alone for that moment. */
		__atomic_store_n(&slot_pid[i], getpid(), __ATOMIC_RELEASE);
		return i;
	}
	return -1;
}

void os_outfile_temp_forget(int slot)
{
	if (slot < 0 || slot >= NSLOTS)
		return;
	__atomic_store_n(&slot_pid[slot], 0, __ATOMIC_RELEASE);
	__atomic_store_n(&slot_name[slot], NULL, __ATOMIC_RELEASE);
}

static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

static void on_fatal_signal(int sig)
{
	hwt_outfile_remove_temporaries();
	/* The signal is blocked while this runs; with the default action
	 * back, it ends the process as it would have, exit status and all,
	 * once the handler returns. */
	signal(sig, SIG_DFL);
	raise(sig);
}

int hwt_outfile_catch_signals(void)
{
	int n = 0;

	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]);
	     i++) {
		struct sigaction old, sa;

		if (sigaction(fatal_signals[i], NULL, &old) ||
		    old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO))
			continue; /* ignored, or someone else's handler */
		memset(&sa, 0, sizeof(sa));
		sigemptyset(&sa.sa_mask);
		for (size_t j = 0;
		     j < sizeof(fatal_signals) / sizeof(fatal_signals[0]); j++)
			sigaddset(&sa.sa_mask, fatal_signals[j]);
		sa.sa_handler = on_fatal_signal;
		if (sigaction(fatal_signals[i], &sa, NULL) == 0)
			n++;
	}
	return n;
}
