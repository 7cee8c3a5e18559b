/*
 * fixedid.h — comparison, sorting and hashing of fixed-width, pass-by-reference
 * ids whose big-endian bytes are their sort order (iuid, distid, flaxid).
 *
 * IDGEN_FIXED_ID_FUNCTIONS(prefix, len) defines the SQL-callable
 * <prefix>_eq/_ne/_lt/_le/_gt/_ge/_cmp/_smaller/_larger/_hash/_hash_extended,
 * <prefix>_sortsupport and <prefix>_skipsupport, so every such type orders and
 * hashes the same way.
 */
#ifndef IDGEN_FIXEDID_H
#define IDGEN_FIXEDID_H

#include "idgen.h"

#include "common/hashfn.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "port/pg_bswap.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif
#include "utils/sortsupport.h"

extern void idgen_fixed_sortsupport(SortSupport ssup, int len);

/*
 * The order of memcmp() on big-endian bytes, as unsigned integers of 8 and
 * then 8 or 4 bytes: no call into the C library for a 12- or 16-byte id
 * (len is a constant wherever this is inlined).
 */
static inline int
idgen_fixed_cmp(const void *a, const void *b, int len)
{
	const char *pa = a;
	const char *pb = b;
	uint64		x,
				y;

	StaticAssertStmt(sizeof(x) == 8, "64-bit words");
	memcpy(&x, pa, 8);
	memcpy(&y, pb, 8);
	if (x != y)
		return pg_ntoh64(x) < pg_ntoh64(y) ? -1 : 1;
	if (len == 16)
	{
		memcpy(&x, pa + 8, 8);
		memcpy(&y, pb + 8, 8);
		if (x != y)
			return pg_ntoh64(x) < pg_ntoh64(y) ? -1 : 1;
		return 0;
	}
	if (len == 12)
	{
		uint32		x4,
					y4;

		memcpy(&x4, pa + 8, 4);
		memcpy(&y4, pb + 8, 4);
		if (x4 != y4)
			return pg_ntoh32(x4) < pg_ntoh32(y4) ? -1 : 1;
		return 0;
	}
	{
		int			c = memcmp(pa + 8, pb + 8, len - 8);

		return c < 0 ? -1 : c > 0;
	}
}

/*
 * B-tree skip support (PostgreSQL 18): the next id above or below, as a
 * big-endian number of len bytes, over the whole byte range as core's uuid
 * does.  Before 18 the SQL function exists (so the catalog is the same on
 * every server) but is in no operator family, and refuses to run.
 */
#if PG_VERSION_NUM >= 180000
#include "utils/skipsupport.h"

extern Datum idgen_fixed_step(Datum existing, int len, bool up, bool *overflow);
extern void idgen_fixed_skipsupport(SkipSupport sksup, int len,
									SkipSupportIncDec decrement,
									SkipSupportIncDec increment);

#define IDGEN_FIXED_ID_SKIPSUPPORT(prefix, len) \
	static Datum \
	prefix##_decrement(Relation rel, Datum existing, bool *underflow) \
	{ \
		return idgen_fixed_step(existing, (len), false, underflow); \
	} \
	static Datum \
	prefix##_increment(Relation rel, Datum existing, bool *overflow) \
	{ \
		return idgen_fixed_step(existing, (len), true, overflow); \
	} \
	PG_FUNCTION_INFO_V1(prefix##_skipsupport); \
	Datum prefix##_skipsupport(PG_FUNCTION_ARGS); \
	Datum \
	prefix##_skipsupport(PG_FUNCTION_ARGS) \
	{ \
		idgen_fixed_skipsupport((SkipSupport) PG_GETARG_POINTER(0), (len), \
								prefix##_decrement, prefix##_increment); \
		PG_RETURN_VOID(); \
	}
#else
extern void idgen_skipsupport_unavailable(void) pg_attribute_noreturn();

#define IDGEN_FIXED_ID_SKIPSUPPORT(prefix, len) \
	PG_FUNCTION_INFO_V1(prefix##_skipsupport); \
	Datum prefix##_skipsupport(PG_FUNCTION_ARGS); \
	Datum \
	prefix##_skipsupport(PG_FUNCTION_ARGS) \
	{ \
		idgen_skipsupport_unavailable(); \
	}
#endif

/*
 * pq_getmsgbytes() inline, for the binary input of an id (COPY FROM calls
 * it once a value): its check, its error (out of line, so the hot path keeps
 * its registers), its result.
 */
pg_noreturn extern void idgen_recv_underrun(void) pg_attribute_cold;

static inline const char *
idgen_recv_bytes(StringInfo buf, int len)
{
	const char *p;

	if (unlikely(len > buf->len - buf->cursor))
		idgen_recv_underrun();
	p = &buf->data[buf->cursor];
	buf->cursor += len;
	return p;
}

/*
 * The binary form of a fixed-width id: its bytes in a bytea of one
 * allocation of its own size (pq_begintypsend() would start a 1 kB buffer).
 */
static inline bytea *
idgen_fixed_send(const void *data, int len)
{
	bytea	   *result = palloc(VARHDRSZ + len);

	SET_VARSIZE(result, VARHDRSZ + len);
	memcpy(VARDATA(result), data, len);
	return result;
}

#define IDGEN_FIXED_ID_CMP_OP(prefix, name, len, test) \
	PG_FUNCTION_INFO_V1(prefix##_##name); \
	Datum prefix##_##name(PG_FUNCTION_ARGS); \
	Datum \
	prefix##_##name(PG_FUNCTION_ARGS) \
	{ \
		int			c = idgen_fixed_cmp(PG_GETARG_POINTER(0), PG_GETARG_POINTER(1), (len)); \
		PG_RETURN_BOOL(c test 0); \
	}

#define IDGEN_FIXED_ID_PICK(prefix, name, len, test) \
	PG_FUNCTION_INFO_V1(prefix##_##name); \
	Datum prefix##_##name(PG_FUNCTION_ARGS); \
	Datum \
	prefix##_##name(PG_FUNCTION_ARGS) \
	{ \
		Pointer		a = PG_GETARG_POINTER(0); \
		Pointer		b = PG_GETARG_POINTER(1); \
		PG_RETURN_POINTER(idgen_fixed_cmp(a, b, (len)) test 0 ? a : b); \
	}

#define IDGEN_FIXED_ID_FUNCTIONS(prefix, len) \
	IDGEN_FIXED_ID_CMP_OP(prefix, eq, len, ==) \
	IDGEN_FIXED_ID_CMP_OP(prefix, ne, len, !=) \
	IDGEN_FIXED_ID_CMP_OP(prefix, lt, len, <) \
	IDGEN_FIXED_ID_CMP_OP(prefix, le, len, <=) \
	IDGEN_FIXED_ID_CMP_OP(prefix, gt, len, >) \
	IDGEN_FIXED_ID_CMP_OP(prefix, ge, len, >=) \
	IDGEN_FIXED_ID_PICK(prefix, smaller, len, <=) \
	IDGEN_FIXED_ID_PICK(prefix, larger, len, >=) \
	PG_FUNCTION_INFO_V1(prefix##_cmp); \
	Datum prefix##_cmp(PG_FUNCTION_ARGS); \
	Datum \
	prefix##_cmp(PG_FUNCTION_ARGS) \
	{ \
		PG_RETURN_INT32(idgen_fixed_cmp(PG_GETARG_POINTER(0), PG_GETARG_POINTER(1), (len))); \
	} \
	PG_FUNCTION_INFO_V1(prefix##_sortsupport); \
	Datum prefix##_sortsupport(PG_FUNCTION_ARGS); \
	Datum \
	prefix##_sortsupport(PG_FUNCTION_ARGS) \
	{ \
		idgen_fixed_sortsupport((SortSupport) PG_GETARG_POINTER(0), (len)); \
		PG_RETURN_VOID(); \
	} \
	IDGEN_FIXED_ID_SKIPSUPPORT(prefix, len) \
	PG_FUNCTION_INFO_V1(prefix##_hash); \
	Datum prefix##_hash(PG_FUNCTION_ARGS); \
	Datum \
	prefix##_hash(PG_FUNCTION_ARGS) \
	{ \
		return hash_any((unsigned char *) PG_GETARG_POINTER(0), (len)); \
	} \
	PG_FUNCTION_INFO_V1(prefix##_hash_extended); \
	Datum prefix##_hash_extended(PG_FUNCTION_ARGS); \
	Datum \
	prefix##_hash_extended(PG_FUNCTION_ARGS) \
	{ \
		return hash_any_extended((unsigned char *) PG_GETARG_POINTER(0), (len), \
								 PG_GETARG_INT64(1)); \
	}

#endif							/* IDGEN_FIXEDID_H */
