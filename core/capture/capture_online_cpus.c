/* hwt_online_cpus: every online CPU of this machine, the CPUs a session
 * that names none traces (as perf record traces every CPU without -C). */
#include <stdlib.h>
#include <unistd.h>

#include "hwtrace/error.h"
#include "hwtrace/session.h"

int hwt_online_cpus(int **out)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	int *cpus;

	*out = NULL;
	if (n < 1)
		n = 1;
	if (!(cpus = calloc((size_t)n, sizeof(int))))
		return hwt_error(HWT_ERR_NOMEM, "no memory for the CPU list");
	for (long i = 0; i < n; i++)
		cpus[i] = (int)i;
	*out = cpus;
	return (int)n;
}
