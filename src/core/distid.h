/*
 * distid.h — DistributedId and DistributedId128 of Architect.Identities 2.x
 * (doc/formats.md): value layouts, text encodings and the reference generators'
 * state machines, with clock and randomness passed in.
 *
 * DistributedId: (ms since 1900-01-01Z << 48) | random48, a decimal of up to
 * 28 digits (0 .. 10^28-1), stored as 12 big-endian bytes.
 * DistributedId128: a 16-byte uuid, (ms since 1700-01-01Z << 80) | version 7
 * | 75 random bits around a zero bit 64.
 */
#ifndef IDGEN_CORE_DISTID_H
#define IDGEN_CORE_DISTID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "monotonic.h"			/* idg_rand64_fn */
#include "u128.h"

#define DISTID_LEN IDG_BE96_LEN
#define DISTID_DEC_MAX_LEN 28
#define DISTID_ALNUM_LEN 16
#define DISTID_HEX_LEN 26
#define UUID_ALNUM_LEN 22
#define BIGINT_ALNUM_LEN 11
#define DISTID_RAND_BITS 48
#define DISTID_INC_BITS 41
#define DISTID_LEEWAY_MS 1000
#define DISTID_MAX_TS ((UINT64_C(1) << 45) - 1)	/* 3014-12-13 12:41:28.831 UTC */
#define DISTID128_INC_BITS 58
#define DISTID128_FRAC_BITS 12	/* sub-millisecond clock fraction on top of R */

/* 10^28 - 1 */
static inline idg_u128
distid_max(void)
{
	return (idg_u128) UINT64_C(10000000000000000000) * UINT64_C(1000000000) - 1;
}

static inline idg_u128
distid_compose(uint64_t ts, uint64_t rand48)
{
	return ((idg_u128) ts << DISTID_RAND_BITS) | rand48;
}

static inline uint64_t
distid_ts(idg_u128 v)
{
	return (uint64_t) (v >> DISTID_RAND_BITS);
}

/* text forms; each parser is strict and reports where it failed */
typedef enum distid_parse_status
{
	DISTID_PARSE_OK = 0,
	DISTID_PARSE_EMPTY,
	DISTID_PARSE_LENGTH,		/* wrong number of characters */
	DISTID_PARSE_BAD_CHAR,		/* character outside the alphabet, at *offset */
	DISTID_PARSE_BLOCK_RANGE,	/* a base62 block above 2^64-1 */
	DISTID_PARSE_RANGE			/* well-formed but above the type's maximum */
} distid_parse_status;

/* decimal: 1 to 28 digits */
extern distid_parse_status distid_parse_decimal(const char *s, idg_u128 *out, size_t *offset);
/* writes the digits (up to 39; a distid has up to 29) and a NUL; out must
 * hold 40 bytes, all of which may be written */
extern void distid_format_decimal(idg_u128 v, char *out);

extern void distid_to_alphanumeric(idg_u128 v, char out[DISTID_ALNUM_LEN + 1]);
extern distid_parse_status distid_from_alphanumeric(const char *s, idg_u128 *out, size_t *offset);
extern void distid_to_hex(idg_u128 v, char out[DISTID_HEX_LEN + 1]);
extern distid_parse_status distid_from_hex(const char *s, idg_u128 *out, size_t *offset);

/* 16-byte uuid <-> 22 chars; bigint (>= 0) <-> 11 chars */
extern void uuid_to_alphanumeric(const uint8_t in[16], char out[UUID_ALNUM_LEN + 1]);
extern distid_parse_status uuid_from_alphanumeric(const char *s, uint8_t out[16], size_t *offset);
extern void bigint_to_alphanumeric(int64_t v, char out[BIGINT_ALNUM_LEN + 1]);	/* v >= 0 */
extern distid_parse_status bigint_from_alphanumeric(const char *s, int64_t *out, size_t *offset);

/*
 * The reference generators.  Both return DISTID_SLEEP when the caller must
 * sleep 1 ms and call again.
 */
typedef enum distid_gen_status
{
	DISTID_GEN_OK = 0,
	DISTID_GEN_SLEEP,
	DISTID_GEN_RANGE			/* timestamp beyond the format */
} distid_gen_status;

typedef struct distid_gen
{
	uint64_t	prev_ts;		/* ms since 1900 of the last id, 0 initially */
	uint64_t	prev_rand;		/* its 48 random bits */
} distid_gen;

/* now_ms: milliseconds since 1900-01-01Z */
extern distid_gen_status distid_next(distid_gen *g, uint64_t now_ms, idg_rand64_fn rnd,
									 void *ctx, idg_u128 *id);

typedef struct distid128_gen
{
	uint64_t	prev_ts;		/* ms since 1700 of the last id, 0 initially */
	uint64_t	prev_hi;		/* high 11 of its 75 random bits */
	uint64_t	prev_lo;		/* low 64 */
} distid128_gen;

/*
 * DistributedId128 of millisecond ms (since 1700-01-01Z) and 75 random bits
 * r75, as 16 big-endian bytes: the top 12 bits of r75 sit below the version
 * nibble, the low 63 below the always-zero bit 64.
 */
#define DISTID128_RAND_BITS 75
extern void distid128_pack(uint64_t ms, idg_u128 r75, uint8_t id[16]);

/*
 * now_ms: milliseconds since 1700-01-01Z, sub_ns: nanoseconds into it, of
 * which frac_bits (0 .. DISTID128_FRAC_BITS) are used; id is 16 big-endian
 * bytes
 */
extern distid_gen_status distid128_next(distid128_gen *g, uint64_t now_ms, uint32_t sub_ns,
										unsigned frac_bits, idg_rand64_fn rnd, void *ctx,
										uint8_t id[16]);

#endif							/* IDGEN_CORE_DISTID_H */
