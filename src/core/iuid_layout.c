/*
 * iuid_layout.c — packing and unpacking of iuid fields.
 */
#include "iuid_layout.h"
#include "bytes.h"

void
iuid_pack(const iuid_fields *f, uint8_t out[IUID_LEN])
{
	uint64_t	hi = ((f->ms & IUID_MAX_MS) << 16) |
		((uint64_t) IUID_VERSION << 12) |
		((uint64_t) (f->format_version & 0xF) << 8) |
		(uint64_t) (f->country & 0xFF);
	uint64_t	lo = (UINT64_C(2) << 62) |
		((uint64_t) (f->entity & 0xFF) << IUID_RAND_BITS) |
		(f->rand & IUID_MAX_RAND);

	idg_store_be64(out, hi);
	idg_store_be64(out + 8, lo);
}

void
iuid_unpack(const uint8_t in[IUID_LEN], iuid_fields *f)
{
	uint64_t	hi = idg_load_be64(in);
	uint64_t	lo = idg_load_be64(in + 8);

	f->ms = hi >> 16;
	f->format_version = (unsigned) (hi >> 8) & 0xF;
	f->country = (unsigned) hi & 0xFF;
	f->entity = (unsigned) (lo >> IUID_RAND_BITS) & 0xFF;
	f->rand = lo & IUID_MAX_RAND;
}
