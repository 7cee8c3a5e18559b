/*
 * random.c — cryptographically strong random bytes, drawn in bulk.
 *
 * pg_strong_random() costs a library call (and at times a system call); ids
 * need a few bytes each, so bytes are drawn a buffer at a time.  The buffer
 * belongs to one process: the postmaster forks every backend, and a child
 * that inherited buffered bytes would hand out the same ones as its siblings.
 * So the buffer records the pid that filled it and is discarded in any other
 * process.  MyProcPid is set anew in every child, and reading it costs no
 * system call.
 */
#include "random.h"

#include "miscadmin.h"

#define RANDOM_BUFFER_SIZE 4096

static uint8 buffer[RANDOM_BUFFER_SIZE];
static size_t buffer_pos = RANDOM_BUFFER_SIZE;	/* empty */
static int	buffer_owner = 0;

static void
refill(void)
{
	if (!pg_strong_random(buffer, RANDOM_BUFFER_SIZE))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate random values")));
	buffer_owner = MyProcPid;
	buffer_pos = 0;
}

void
idgen_random_bytes(void *dst, size_t len)
{
	uint8	   *out = dst;

	if (buffer_owner != MyProcPid)
		buffer_pos = RANDOM_BUFFER_SIZE;	/* inherited across fork(): discard */

	while (len > 0)
	{
		size_t		n;

		if (buffer_pos == RANDOM_BUFFER_SIZE)
			refill();
		n = Min(len, RANDOM_BUFFER_SIZE - buffer_pos);
		memcpy(out, buffer + buffer_pos, n);
		/* a byte handed out is never handed out again, not even in a core dump */
		memset(buffer + buffer_pos, 0, n);
		buffer_pos += n;
		out += n;
		len -= n;
	}
}

uint64
idgen_random_u64(void *ctx)
{
	uint64		v;

	idgen_random_bytes(&v, sizeof(v));
	return v;
}
