/*
 * shmem.h — shared memory of the idgen extension.
 *
 * A piece of idgen that needs server-wide state asks for it from _PG_init
 * while shared_preload_libraries is being processed; its init callback runs
 * at server start and after every crash restart, in the postmaster, and again
 * in every backend that attaches (found = true there; locks is then NULL,
 * since with EXEC_BACKEND a child cannot look the tranche up: keep the
 * pointers the first call stored in the shared struct).  Without preloading
 * nothing is allocated and the callback never runs: the piece must work
 * without it, or say that it needs preloading.
 */
#ifndef IDGEN_SHMEM_H
#define IDGEN_SHMEM_H

#include "postgres.h"

#include "storage/lwlock.h"

typedef void (*idgen_shmem_init_fn) (void *ptr, bool found, LWLockPadded *locks);

/* size bytes and nlocks LWLocks named after name; only from _PG_init */
extern void idgen_shmem_request(const char *name, Size size, int nlocks,
								idgen_shmem_init_fn init);

/* the same, with the size asked for later, when MaxBackends is set */
extern void idgen_shmem_request_sized(const char *name, Size (*size_fn) (void),
									  int nlocks, idgen_shmem_init_fn init);

#endif							/* IDGEN_SHMEM_H */
