/*
 * shmem.c — shared memory of the idgen extension.
 *
 * Only base36id needs it (per-worker counters shared by every backend).
 * It exists only when idgen is loaded through shared_preload_libraries;
 * otherwise base36id_generate() says so, and everything else works.
 */
#include "idgen.h"

#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/shmem.h"

#define IDGEN_TRANCHE "idgen"

#if PG_VERSION_NUM >= 150000
static shmem_request_hook_type prev_shmem_request_hook = NULL;
#endif
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

static void
idgen_shmem_request(void)
{
#if PG_VERSION_NUM >= 150000
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
#endif
	RequestAddinShmemSpace(MAXALIGN(base36id_shmem_size()));
	RequestNamedLWLockTranche(IDGEN_TRANCHE, 1);
}

/* at server start and again after every crash restart */
static void
idgen_shmem_startup(void)
{
	bool		found;
	void	   *ptr;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	ptr = ShmemInitStruct("idgen", base36id_shmem_size(), &found);
	base36id_shmem_init(ptr, found, &(GetNamedLWLockTranche(IDGEN_TRANCHE))->lock);
	LWLockRelease(AddinShmemInitLock);
}

void
idgen_shmem_register(void)
{
#if PG_VERSION_NUM >= 150000
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = idgen_shmem_request;
#else
	idgen_shmem_request();
#endif
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = idgen_shmem_startup;
}
