/*
 * flaxid.h — Flax ID (doc/formats.md): 96 bits, (ms since 2015-01-01Z << 56) |
 * random56, stored as 12 big-endian bytes; text is 16 characters of 6 bits,
 * most significant first, in an alphabet whose ASCII order is numeric order.
 */
#ifndef IDGEN_CORE_FLAXID_H
#define IDGEN_CORE_FLAXID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "u128.h"

#define FLAXID_LEN 12
#define FLAXID_TEXT_LEN 16
#define FLAXID_TS_BITS 40
#define FLAXID_RAND_BITS 56
#define FLAXID_MAX_MS ((UINT64_C(1) << FLAXID_TS_BITS) - 1)	/* 2049-11-03T19:53:47.775Z */
#define FLAXID_EPOCH_UNIX_MS INT64_C(1420070400000)	/* 2015-01-01T00:00:00Z */

static inline idg_u128
flaxid_compose(uint64_t ms, uint64_t rand56)
{
	return ((idg_u128) ms << FLAXID_RAND_BITS) | (rand56 & ((UINT64_C(1) << FLAXID_RAND_BITS) - 1));
}

static inline uint64_t
flaxid_ms(idg_u128 v)
{
	return (uint64_t) (v >> FLAXID_RAND_BITS);
}

typedef enum flaxid_parse_status
{
	FLAXID_PARSE_OK = 0,
	FLAXID_PARSE_BAD_CHAR,		/* outside the alphabet, at *offset */
	FLAXID_PARSE_LENGTH			/* valid characters, not 16 of them; *offset = length */
} flaxid_parse_status;

/*
 * 16 characters and a NUL into the 12 stored bytes; false for anything else
 * (flaxid_parse_bytes() says why).  Inline, since type input runs it once a
 * value: one lookup and one test per character, reading nothing after a NUL;
 * the codes are 1 + a character's value, so the sum of 64^i (i = 0..7) comes
 * off each half at the end.
 */
extern const uint8_t flaxid_code[256];

#define FLAXID_STEP(v, i) \
	do { \
		unsigned	c_ = flaxid_code[(unsigned char) s[i]]; \
		if (c_ == 0) \
			return false; \
		v = (v << 6) + c_; \
	} while (0)

static inline bool
flaxid_decode(const char *s, uint8_t out[FLAXID_LEN])
{
	uint64_t	hi = 0,
				lo = 0;

	FLAXID_STEP(hi, 0);
	FLAXID_STEP(hi, 1);
	FLAXID_STEP(hi, 2);
	FLAXID_STEP(hi, 3);
	FLAXID_STEP(hi, 4);
	FLAXID_STEP(hi, 5);
	FLAXID_STEP(hi, 6);
	FLAXID_STEP(hi, 7);
	FLAXID_STEP(lo, 8);
	FLAXID_STEP(lo, 9);
	FLAXID_STEP(lo, 10);
	FLAXID_STEP(lo, 11);
	FLAXID_STEP(lo, 12);
	FLAXID_STEP(lo, 13);
	FLAXID_STEP(lo, 14);
	FLAXID_STEP(lo, 15);
	if (s[16] != '\0')
		return false;
	hi -= UINT64_C(0x041041041041);
	lo -= UINT64_C(0x041041041041);
	idg_store_be64(out, (hi << 16) | (lo >> 32));
	idg_store_be32(out + 8, (uint32_t) lo);
	return true;
}

/* text to the 12 stored bytes and back, as type input and output want them */
extern flaxid_parse_status flaxid_parse_bytes(const char *s, uint8_t out[FLAXID_LEN],
											  size_t *offset);
extern void flaxid_format_bytes(const uint8_t in[FLAXID_LEN], char out[FLAXID_TEXT_LEN + 1]);

/* the same with the value as a number */
extern flaxid_parse_status flaxid_parse(const char *s, idg_u128 *out, size_t *offset);
extern void flaxid_format(idg_u128 v, char out[FLAXID_TEXT_LEN + 1]);

#endif							/* IDGEN_CORE_FLAXID_H */
