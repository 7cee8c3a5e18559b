/*
 * fixedid.h — comparison, sorting and hashing of fixed-width, pass-by-reference
 * ids whose big-endian bytes are their sort order (iuid, distid, flaxid).
 *
 * IDGEN_FIXED_ID_FUNCTIONS(prefix, len) defines the SQL-callable
 * <prefix>_eq/_ne/_lt/_le/_gt/_ge/_cmp/_smaller/_larger/_hash/_hash_extended
 * and <prefix>_sortsupport, so every such type orders and hashes the same way.
 */
#ifndef IDGEN_FIXEDID_H
#define IDGEN_FIXEDID_H

#include "postgres.h"

#include "common/hashfn.h"
#include "fmgr.h"
#include "utils/sortsupport.h"

extern void idgen_fixed_sortsupport(SortSupport ssup, int len);

#define IDGEN_FIXED_ID_CMP_OP(prefix, name, len, test) \
	PG_FUNCTION_INFO_V1(prefix##_##name); \
	Datum prefix##_##name(PG_FUNCTION_ARGS); \
	Datum \
	prefix##_##name(PG_FUNCTION_ARGS) \
	{ \
		int			c = memcmp(PG_GETARG_POINTER(0), PG_GETARG_POINTER(1), (len)); \
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
		PG_RETURN_POINTER(memcmp(a, b, (len)) test 0 ? a : b); \
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
		int			c = memcmp(PG_GETARG_POINTER(0), PG_GETARG_POINTER(1), (len)); \
		PG_RETURN_INT32(c < 0 ? -1 : c > 0); \
	} \
	PG_FUNCTION_INFO_V1(prefix##_sortsupport); \
	Datum prefix##_sortsupport(PG_FUNCTION_ARGS); \
	Datum \
	prefix##_sortsupport(PG_FUNCTION_ARGS) \
	{ \
		idgen_fixed_sortsupport((SortSupport) PG_GETARG_POINTER(0), (len)); \
		PG_RETURN_VOID(); \
	} \
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
