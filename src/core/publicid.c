/*
 * publicid.c — plaintext layouts and Guid byte order of public identities.
 */
#include "publicid.h"

#include "distid.h"				/* distid_max */

#include <string.h>

static void
store_le(uint8_t *p, uint64_t v, int n)
{
	int			i;

	for (i = 0; i < n; i++, v >>= 8)
		p[i] = (uint8_t) v;
}

static uint64_t
load_le(const uint8_t *p, int n)
{
	uint64_t	v = 0;
	int			i;

	for (i = n - 1; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static bool
all_zero(const uint8_t *p, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		if (p[i] != 0)
			return false;
	return true;
}

void
pubid_plain_bigint(int64_t id, uint8_t out[PUBID_BLOCK])
{
	memset(out, 0, 8);
	store_le(out + 8, (uint64_t) id, 8);
}

void
pubid_plain_distid(idg_u128 id, uint8_t out[PUBID_BLOCK])
{
	memset(out, 0, 4);
	store_le(out + 4, (uint64_t) (id >> 64), 4);
	store_le(out + 8, (uint64_t) id, 8);
}

bool
pubid_unplain_bigint(const uint8_t in[PUBID_BLOCK], int64_t *id)
{
	uint64_t	v = load_le(in + 8, 8);

	if (!all_zero(in, 8) || v > (uint64_t) INT64_MAX)
		return false;
	*id = (int64_t) v;
	return true;
}

bool
pubid_unplain_distid(const uint8_t in[PUBID_BLOCK], idg_u128 *id)
{
	idg_u128	v = ((idg_u128) load_le(in + 4, 4) << 64) | load_le(in + 8, 8);

	if (!all_zero(in, 4) || v > distid_max())
		return false;
	*id = v;
	return true;
}

void
pubid_guid_order(const uint8_t in[PUBID_BLOCK], uint8_t out[PUBID_BLOCK])
{
	static const int perm[PUBID_BLOCK] = {3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};
	uint8_t		tmp[PUBID_BLOCK];
	int			i;

	for (i = 0; i < PUBID_BLOCK; i++)
		tmp[i] = in[perm[i]];
	memcpy(out, tmp, PUBID_BLOCK);
}
