/*
 * bytes.h — big-endian load/store helpers for the PostgreSQL-independent core.
 *
 * Every binary id form is big-endian so that byte order equals sort order.
 */
#ifndef IDGEN_CORE_BYTES_H
#define IDGEN_CORE_BYTES_H

#include <stdint.h>

static inline uint64_t
idg_load_be64(const uint8_t *p)
{
	return ((uint64_t) p[0] << 56) | ((uint64_t) p[1] << 48) |
		((uint64_t) p[2] << 40) | ((uint64_t) p[3] << 32) |
		((uint64_t) p[4] << 24) | ((uint64_t) p[5] << 16) |
		((uint64_t) p[6] << 8) | (uint64_t) p[7];
}

static inline void
idg_store_be64(uint8_t *p, uint64_t v)
{
	int			i;

	for (i = 7; i >= 0; i--)
	{
		p[i] = (uint8_t) v;
		v >>= 8;
	}
}

/* all-ones mask of the low n bits, 0 <= n <= 64 */
static inline uint64_t
idg_mask(unsigned n)
{
	return n >= 64 ? UINT64_MAX : (((uint64_t) 1 << n) - 1);
}

#endif							/* IDGEN_CORE_BYTES_H */
