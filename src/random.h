/*
 * random.h — cryptographically strong random bytes, buffered per process.
 */
#ifndef IDGEN_RANDOM_H
#define IDGEN_RANDOM_H

#include "postgres.h"

extern void idgen_random_bytes(void *dst, size_t len);
extern uint64 idgen_random_u64(void *ctx);	/* an idg_rand64_fn */

#endif							/* IDGEN_RANDOM_H */
