/*
 * u128.h — the 128-bit unsigned integer that holds 96-bit ids (distid,
 * flaxid), and their 12-byte big-endian form.
 */
#ifndef IDGEN_CORE_U128_H
#define IDGEN_CORE_U128_H

#include <stdint.h>

#include "bytes.h"

#ifndef __SIZEOF_INT128__
#error "idgen needs a compiler with a 128-bit integer type"
#endif
typedef unsigned __int128 idg_u128;

#define IDG_BE96_LEN 12

/* the low 96 bits of v */
static inline void
idg_store_be96(uint8_t out[IDG_BE96_LEN], idg_u128 v)
{
	idg_store_be64(out, (uint64_t) (v >> 32));
	idg_store_be32(out + 8, (uint32_t) v);
}

static inline idg_u128
idg_load_be96(const uint8_t in[IDG_BE96_LEN])
{
	return ((idg_u128) idg_load_be64(in) << 32) | idg_load_be32(in + 8);
}

#endif							/* IDGEN_CORE_U128_H */
