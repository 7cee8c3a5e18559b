/*
 * LD_PRELOAD shim for base36id's state file tests: fsync() of the state file
 * fails with EIO while the file $IDGEN_FSYNC_CTL.fail exists, blocks while
 * $IDGEN_FSYNC_CTL.stall exists (a stuck disk), and takes as many
 * milliseconds as $IDGEN_FSYNC_CTL.slow says while that file exists (a slow
 * disk); while $IDGEN_FSYNC_CTL.count exists, each one appends a line "1" to
 * it.  Every other fsync() is the real one.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int			fsync(int fd);

static int
flag(const char *ctl, const char *suffix)
{
	char		path[4096];

	snprintf(path, sizeof(path), "%s.%s", ctl, suffix);
	return access(path, F_OK) == 0;
}

/* appends a line to <ctl>.count, if it exists */
static void
count(const char *ctl)
{
	char		path[4096];
	FILE	   *f;

	snprintf(path, sizeof(path), "%s.count", ctl);
	if (access(path, F_OK) != 0 || (f = fopen(path, "a")) == NULL)
		return;
	fputs("1\n", f);
	fclose(f);
}

/* sleeps for the milliseconds the file <ctl>.slow holds, if it exists */
static void
slow(const char *ctl)
{
	char		path[4096];
	FILE	   *f;
	long		ms = 0;

	snprintf(path, sizeof(path), "%s.slow", ctl);
	f = fopen(path, "r");
	if (f == NULL)
		return;
	if (fscanf(f, "%ld", &ms) != 1)
		ms = 0;
	fclose(f);
	if (ms > 0)
		usleep((useconds_t) (ms * 1000));
}

int
fsync(int fd)
{
	static int	(*real_fsync) (int);
	const char *ctl = getenv("IDGEN_FSYNC_CTL");
	char		link[64];
	char		target[4096];
	ssize_t		n;

	if (real_fsync == NULL)
		real_fsync = (int (*) (int)) dlsym(RTLD_NEXT, "fsync");
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (ctl != NULL && n > 0)
	{
		target[n] = '\0';
		if (strstr(target, "idgen_base36id.state") != NULL)
		{
			if (flag(ctl, "fail"))
			{
				errno = EIO;
				return -1;
			}
			count(ctl);
			while (flag(ctl, "stall"))
				usleep(10000);
			slow(ctl);
		}
	}
	return real_fsync(fd);
}
