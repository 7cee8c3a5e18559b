/*
 * iuid.h — the iuid type: a UUIDv8 with a millisecond timestamp, a country
 * and a service entity (doc/formats.md).
 */
#ifndef IDGEN_IUID_H
#define IDGEN_IUID_H

#include "postgres.h"

#include "core/iuid_layout.h"

typedef struct iuid
{
	uint8		data[IUID_LEN];
} iuid;

#define DatumGetIuidP(X)	((iuid *) DatumGetPointer(X))
#define IuidPGetDatum(X)	PointerGetDatum(X)
#define PG_GETARG_IUID_P(n) DatumGetIuidP(PG_GETARG_DATUM(n))
#define PG_RETURN_IUID_P(x) return IuidPGetDatum(x)

#endif							/* IDGEN_IUID_H */
