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

/* written out byte by byte: compilers make each one load or store and a byte swap */
static inline void
idg_store_be64(uint8_t *p, uint64_t v)
{
	p[0] = (uint8_t) (v >> 56);
	p[1] = (uint8_t) (v >> 48);
	p[2] = (uint8_t) (v >> 40);
	p[3] = (uint8_t) (v >> 32);
	p[4] = (uint8_t) (v >> 24);
	p[5] = (uint8_t) (v >> 16);
	p[6] = (uint8_t) (v >> 8);
	p[7] = (uint8_t) v;
}

static inline uint32_t
idg_load_be32(const uint8_t *p)
{
	return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) |
		((uint32_t) p[2] << 8) | (uint32_t) p[3];
}

static inline void
idg_store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t) (v >> 24);
	p[1] = (uint8_t) (v >> 16);
	p[2] = (uint8_t) (v >> 8);
	p[3] = (uint8_t) v;
}

/* all-ones mask of the low n bits, 0 <= n <= 64 */
static inline uint64_t
idg_mask(unsigned n)
{
	return n >= 64 ? UINT64_MAX : (((uint64_t) 1 << n) - 1);
}

#endif							/* IDGEN_CORE_BYTES_H */
