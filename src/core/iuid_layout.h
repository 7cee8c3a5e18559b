/*
 * iuid_layout.h — bit layout of iuid (UUIDv8), see doc/formats.md.
 *
 *   bits 0-47 unix_ts_ms | 48-51 ver=8 | 52-55 format version | 56-63 country
 *   64-65 var=0b10 | 66-73 service entity | 74-127 random (54 bits)
 */
#ifndef IDGEN_CORE_IUID_LAYOUT_H
#define IDGEN_CORE_IUID_LAYOUT_H

#include <stdint.h>

#define IUID_LEN 16
#define IUID_TS_BITS 48
#define IUID_RAND_BITS 54
#define IUID_MAX_MS ((UINT64_C(1) << IUID_TS_BITS) - 1)
#define IUID_MAX_RAND ((UINT64_C(1) << IUID_RAND_BITS) - 1)
#define IUID_VERSION 8
#define IUID_FORMAT_VERSION 0

typedef struct iuid_fields
{
	uint64_t	ms;				/* unix_ts_ms, 48 bits */
	unsigned	format_version; /* 4 bits */
	unsigned	country;		/* 8 bits */
	unsigned	entity;			/* 8 bits */
	uint64_t	rand;			/* 54 bits */
} iuid_fields;

typedef enum iuid_check
{
	IUID_CHECK_OK = 0,
	IUID_CHECK_VERSION,			/* version nibble is not 8 */
	IUID_CHECK_VARIANT			/* variant bits are not 0b10 */
} iuid_check;

/* fields must be in range; the caller checks country/entity */
extern void iuid_pack(const iuid_fields *f, uint8_t out[IUID_LEN]);
extern void iuid_unpack(const uint8_t in[IUID_LEN], iuid_fields *f);
static inline unsigned
iuid_version_nibble(const uint8_t in[IUID_LEN])
{
	return in[6] >> 4;
}

static inline unsigned
iuid_variant_bits(const uint8_t in[IUID_LEN])
{
	return in[8] >> 6;
}

/* inline: binary input checks every value it reads */
static inline iuid_check
iuid_validate(const uint8_t in[IUID_LEN])
{
	if (iuid_version_nibble(in) != IUID_VERSION)
		return IUID_CHECK_VERSION;
	if (iuid_variant_bits(in) != 2)
		return IUID_CHECK_VARIANT;
	return IUID_CHECK_OK;
}

#endif							/* IDGEN_CORE_IUID_LAYOUT_H */
