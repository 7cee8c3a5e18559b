/*
 * u128.h — the 128-bit unsigned integer that holds 96-bit ids (distid,
 * flaxid), and their 12-byte big-endian form.
 */
#ifndef IDGEN_CORE_U128_H
#define IDGEN_CORE_U128_H

#include <stdint.h>

#ifndef __SIZEOF_INT128__
#error "idgen needs a compiler with a 128-bit integer type"
#endif
typedef unsigned __int128 idg_u128;

#define IDG_BE96_LEN 12

static inline void
idg_store_be96(uint8_t out[IDG_BE96_LEN], idg_u128 v)
{
	int			i;

	for (i = IDG_BE96_LEN - 1; i >= 0; i--)
	{
		out[i] = (uint8_t) v;
		v >>= 8;
	}
}

static inline idg_u128
idg_load_be96(const uint8_t in[IDG_BE96_LEN])
{
	idg_u128	v = 0;
	int			i;

	for (i = 0; i < IDG_BE96_LEN; i++)
		v = (v << 8) | in[i];
	return v;
}

#endif							/* IDGEN_CORE_U128_H */
