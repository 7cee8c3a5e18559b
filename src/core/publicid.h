/*
 * publicid.h — "public identities" of Architect.Identities
 * (AesPublicIdentityConverter, doc/formats.md): an id encrypted as one AES block,
 * shown as a uuid in .NET Guid byte order.  This part holds the plaintext
 * layouts and the byte order; the cipher is the caller's.
 *
 *   bigint: 00 x 8 || LE64(id)                  (id >= 0)
 *   distid: 00 x 4 || LE32(id >> 64) || LE64(id & (2^64-1))
 *   uuid:   its 16 bytes
 */
#ifndef IDGEN_CORE_PUBLICID_H
#define IDGEN_CORE_PUBLICID_H

#include <stdbool.h>
#include <stdint.h>

#include "u128.h"

#define PUBID_BLOCK 16

extern void pubid_plain_bigint(int64_t id, uint8_t out[PUBID_BLOCK]);
extern void pubid_plain_distid(idg_u128 id, uint8_t out[PUBID_BLOCK]);

/* false unless the block is a plaintext of that kind (a forgery, another kind) */
extern bool pubid_unplain_bigint(const uint8_t in[PUBID_BLOCK], int64_t *id);
extern bool pubid_unplain_distid(const uint8_t in[PUBID_BLOCK], idg_u128 *id);

/*
 * Ciphertext bytes <-> uuid bytes: .NET's Guid(byte[]) reads the first three
 * fields little-endian.  The permutation is its own inverse.
 */
extern void pubid_guid_order(const uint8_t in[PUBID_BLOCK], uint8_t out[PUBID_BLOCK]);

#endif							/* IDGEN_CORE_PUBLICID_H */
