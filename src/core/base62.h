/*
 * base62.h — fixed-width base62 blocks (alphabet 0-9A-Za-z, big-endian,
 * left-padded with '0'), the building block of Architect.Identities'
 * alphanumeric forms.
 */
#ifndef IDGEN_CORE_BASE62_H
#define IDGEN_CORE_BASE62_H

#include <stddef.h>
#include <stdint.h>

typedef enum idg_b62_status
{
	IDG_B62_OK = 0,
	IDG_B62_BAD_CHAR,			/* character outside the alphabet, at *offset */
	IDG_B62_RANGE				/* the block is above 2^64-1 */
} idg_b62_status;

/* writes width characters, no NUL */
extern void idg_base62_encode(uint64_t v, int width, char *out);
/* reads width characters */
extern idg_b62_status idg_base62_decode(const char *s, int width, uint64_t *out,
										size_t *offset);

#endif							/* IDGEN_CORE_BASE62_H */
