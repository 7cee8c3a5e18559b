/*
 * shmem.c — shared memory of the idgen extension: a small registry of the
 * pieces that asked for some (see shmem.h).  It knows nothing of any type.
 */
#include "shmem.h"

#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/shmem.h"

#define MAX_REQUESTS 4

typedef struct shmem_request
{
	const char *name;
	Size		size;
	Size		(*size_fn) (void);	/* or this, once MaxBackends is known */
	int			nlocks;
	idgen_shmem_init_fn init;
} shmem_request;

static shmem_request requests[MAX_REQUESTS];
static int	nrequests = 0;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

static Size
request_size(const shmem_request *req)
{
	return req->size_fn ? req->size_fn() : req->size;
}

static void
request_all(void)
{
	int			i;

	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	for (i = 0; i < nrequests; i++)
	{
		RequestAddinShmemSpace(MAXALIGN(request_size(&requests[i])));
		if (requests[i].nlocks > 0)
			RequestNamedLWLockTranche(requests[i].name, requests[i].nlocks);
	}
}

/* at server start and again after every crash restart */
static void
startup_all(void)
{
	int			i;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	for (i = 0; i < nrequests; i++)
	{
		bool		found;
		void	   *ptr;
		LWLockPadded *locks = NULL;

		/*
		 * The size again, not the one request_all() noted: with EXEC_BACKEND
		 * every child runs this hook to attach, but only the postmaster ran
		 * the request hook (as pg_stat_statements, which also sizes its
		 * memory here).  MaxBackends is known in every process by now.
		 */
		ptr = ShmemInitStruct(requests[i].name, request_size(&requests[i]), &found);
		/* the tranche's requests, too, are known to the postmaster only */
		if (!found && requests[i].nlocks > 0)
			locks = GetNamedLWLockTranche(requests[i].name);
		requests[i].init(ptr, found, locks);
	}
	LWLockRelease(AddinShmemInitLock);
}

static void
add_request(shmem_request req)
{
	if (nrequests == MAX_REQUESTS)
		elog(ERROR, "too many idgen shared memory requests");
	requests[nrequests++] = req;
	if (nrequests > 1)
		return;
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = request_all;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = startup_all;
}

void
idgen_shmem_request(const char *name, Size size, int nlocks, idgen_shmem_init_fn init)
{
	if (process_shared_preload_libraries_in_progress)
		add_request((shmem_request) {
			.name = name,.size = size,.nlocks = nlocks,.init = init
		});
}

void
idgen_shmem_request_sized(const char *name, Size (*size_fn) (void), int nlocks,
						  idgen_shmem_init_fn init)
{
	if (process_shared_preload_libraries_in_progress)
		add_request((shmem_request) {
			.name = name,.size_fn = size_fn,.nlocks = nlocks,.init = init
		});
}
