/*
 * LD_PRELOAD shim for 053_base36id_clock_fault.pl: clock_gettime() of
 * CLOCK_REALTIME fails with EINVAL in the process whose pid the file
 * $IDGEN_CLOCK_CTL holds, while it holds it.  Every other call is the real
 * one (PostgreSQL's own timing reads CLOCK_MONOTONIC and gettimeofday();
 * idgen's generators read CLOCK_REALTIME).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int
clock_gettime(clockid_t id, struct timespec *ts)
{
	static int	(*real) (clockid_t, struct timespec *);
	const char *ctl = getenv("IDGEN_CLOCK_CTL");

	if (real == NULL)
		real = (int (*) (clockid_t, struct timespec *)) dlsym(RTLD_NEXT, "clock_gettime");
	if (id == CLOCK_REALTIME && ctl != NULL)
	{
		FILE	   *f = fopen(ctl, "r");
		long		pid = 0;

		if (f != NULL)
		{
			if (fscanf(f, "%ld", &pid) != 1)
				pid = 0;
			fclose(f);
			if (pid == (long) getpid())
			{
				errno = EINVAL;
				return -1;
			}
		}
	}
	return real(id, ts);
}
