/* What the RSS benchmarks share (bench_raw_rss.c, bench_report_rss.c):
 * the peak RSS of one command, as the kernel counts it (wait4's
 * ru_maxrss: the benchmark starts the command, so nothing of its own is
 * in the figure), and the order that puts repeated figures in a row for
 * the median. */
#ifndef HWT_BENCH_PEAK_RSS_H
#define HWT_BENCH_PEAK_RSS_H

#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* The peak RSS (KiB) of @argv (argv[0] a path) run with its standard
 * error to /dev/null, or -1 when it did not exit 0. */
static inline long peak_rss_kib(const char *const *argv)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stderr))
			_exit(127);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return ru.ru_maxrss;
}

/* qsort's order of longs, least first. */
static inline int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

#endif
