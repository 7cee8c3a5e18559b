/*
 * distid.c — SQL glue for distid (DistributedId), DistributedId128 and the
 * alphanumeric forms of Architect.Identities 2.x.
 */
#include "idgen.h"
#include "random.h"

#include "core/bytes.h"
#include "core/distid.h"
#include "fixedid.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/numeric.h"
#include "utils/uuid.h"
#include "utils/wait_event.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

#define MS_1900_TO_1970 INT64CONST(2208988800000)
#define MS_1700_TO_1970 INT64CONST(8520336000000)
#define DISTID_MAX_TEXT "9999999999999999999999999999"

typedef struct distid
{
	uint8		data[DISTID_LEN];
} distid;

#define PG_GETARG_DISTID_P(n) ((distid *) PG_GETARG_POINTER(n))

static const idgen_time_span distid_span = {
	.typname = "distid",
	.epoch_unix_ms = -MS_1900_TO_1970,
	.unit_ms = 1,
	.max_units = UINT64CONST(35527136788005),	/* (10^28-1) >> 48 */
	.first = "1900-01-01 00:00:00 UTC",
	.last = "3025-10-23 17:06:28.005 UTC",
};

/* the generator writes 45-bit timestamps, as the reference does */
static const idgen_time_span distid_generator_span = {
	.typname = "distid",
	.epoch_unix_ms = -MS_1900_TO_1970,
	.unit_ms = 1,
	.max_units = DISTID_MAX_TS,
	.first = "1900-01-01 00:00:00 UTC",
	.last = "3014-12-13 12:41:28.831 UTC (the generator's 45-bit timestamps)",
};

static const idgen_time_span distid128_span = {
	.typname = "DistributedId128",
	.epoch_unix_ms = -MS_1700_TO_1970,
	.unit_ms = 1,
	.max_units = (UINT64CONST(1) << 48) - 1,
	.first = "1700-01-01 00:00:00 UTC",
	.last = "10619-08-04 05:31:50.655 UTC",
};

/*
 * distid_generate_dense(): the monotonic scheme of iuid on the 48-bit field
 * (12 bits of sub-millisecond clock, as many as the clock resolves, then 36
 * random bits; increments of 1 .. 2^32; a full millisecond borrows the next),
 * stamped 1 s in the past as the reference stamps its ids.  The epoch below
 * is 1900-01-01 plus that second.
 */
static const idg_mono_cfg distid_dense_cfg = {
	.rand_bits = DISTID_RAND_BITS,
	.frac_bits = IDGEN_FRAC_BITS,
	.inc_bits = 32,
	.max_ms = DISTID_MAX_TS,
	.back_leeway_ms = 1000,
};

static const idgen_time_span distid_dense_span = {
	.typname = "distid",
	.epoch_unix_ms = -MS_1900_TO_1970 + DISTID_LEEWAY_MS,
	.unit_ms = 1,
	.max_units = DISTID_MAX_TS,
	.first = "1900-01-01 00:00:00 UTC",
	.last = "3014-12-13 12:41:28.831 UTC (the generator's 45-bit timestamps)",
	.clock_gen = IDGEN_GEN_DISTID_DENSE,
};

/* per backend, as the reference keeps one generator per process */
static distid_gen distid_state;
static idg_mono distid_dense_state;
static distid128_gen distid128_state;

IDGEN_FIXED_ID_FUNCTIONS(distid, DISTID_LEN)

static Datum
distid_datum(idg_u128 v)
{
	distid	   *result = palloc(sizeof(distid));

	idg_store_be96(result->data, v);
	return PointerGetDatum(result);
}

/*
 * 22P02 for a malformed encoded id; what names the encoding, range_detail
 * says what RANGE means for it.
 */
pg_noreturn static void
parse_error(const char *what, const char *input, distid_parse_status st, size_t offset,
			size_t want, const char *range_detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid %s: \"%s\"", what, input),
			 st == DISTID_PARSE_EMPTY ? errdetail("Input is empty.") :
			 st == DISTID_PARSE_LENGTH ?
			 errdetail("Expected %zu characters, found %zu.", want, offset) :
			 st == DISTID_PARSE_BLOCK_RANGE ?
			 errdetail("A base62 block exceeds 2^64-1.") :
			 st == DISTID_PARSE_RANGE ? errdetail("%s", range_detail) :
			 idgen_errdetail_bad_char(input, offset)));
	pg_unreachable();
}

/* runs a fixed-width decoder on text, reporting its failures */
#define DECODE_TEXT(what, input, want, range_detail, call) \
	do { \
		size_t		off_; \
		distid_parse_status st_ = (call); \
		if (st_ != DISTID_PARSE_OK) \
			parse_error(what, input, st_, off_, want, range_detail); \
	} while (0)

PG_FUNCTION_INFO_V1(distid_in);
Datum
distid_in(PG_FUNCTION_ARGS)
{
	char	   *input = PG_GETARG_CSTRING(0);
	idg_u128	v;
	size_t		offset;
	distid_parse_status st = distid_parse_decimal(input, &v, &offset);

	if (st == DISTID_PARSE_RANGE)
		idgen_ereturn(fcinfo->context,
					  (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					   errmsg("value \"%s\" is out of range for type distid", input),
					   errdetail("Valid values are from 0 to " DISTID_MAX_TEXT ".")));
	if (st == DISTID_PARSE_EMPTY)
		idgen_invalid_input(fcinfo->context, "distid", input, errdetail("Input is empty."));
	if (st != DISTID_PARSE_OK)
		idgen_invalid_input(fcinfo->context, "distid", input,
							idgen_errdetail_bad_char(input, offset));
	return distid_datum(v);
}

PG_FUNCTION_INFO_V1(distid_out);
Datum
distid_out(PG_FUNCTION_ARGS)
{
	char	   *out = palloc(40);

	distid_format_decimal(idg_load_be96(PG_GETARG_DISTID_P(0)->data), out);
	PG_RETURN_CSTRING(out);
}

PG_FUNCTION_INFO_V1(distid_recv);
Datum
distid_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	idg_u128	v = idg_load_be96((const uint8 *) idgen_recv_bytes(buf, DISTID_LEN));

	if (unlikely(v > distid_max()))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid external binary representation for type %s", "distid"),
				 errdetail("The value exceeds " DISTID_MAX_TEXT ".")));
	return distid_datum(v);
}

PG_FUNCTION_INFO_V1(distid_send);
Datum
distid_send(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(idgen_fixed_send(PG_GETARG_DISTID_P(0)->data, DISTID_LEN));
}

PG_FUNCTION_INFO_V1(distid_to_numeric);
Datum
distid_to_numeric(PG_FUNCTION_ARGS)
{
	char		text[40];

	distid_format_decimal(idg_load_be96(PG_GETARG_DISTID_P(0)->data), text);
	return DirectFunctionCall3(numeric_in, CStringGetDatum(text),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

/* 22003 for the cast; returns (Datum) 0 where the error was soft */
static Datum
numeric_out_of_range(Node *escontext, const char *shown, const char *why)
{
	idgen_ereturn(escontext,
				  (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				   errmsg("numeric value %s is out of range for type distid", shown),
				   errdetail("%s", why)));
}

/* numeric -> distid: whole numbers from 0 to 10^28-1 only */
PG_FUNCTION_INFO_V1(distid_from_numeric);
Datum
distid_from_numeric(PG_FUNCTION_ARGS)
{
	char	   *text = DatumGetCString(DirectFunctionCall1(numeric_out, PG_GETARG_DATUM(0)));
	char	   *dot = strchr(text, '.');
	idg_u128	v;
	size_t		offset;

	if (strcmp(text, "NaN") == 0 || strstr(text, "Infinity") != NULL)
		return numeric_out_of_range(fcinfo->context, text, "A distid is a whole number from 0 to " DISTID_MAX_TEXT ".");
	if (text[0] == '-')
		return numeric_out_of_range(fcinfo->context, text, "A distid cannot be negative.");
	if (dot != NULL)
	{
		const char *p;

		for (p = dot + 1; *p; p++)
			if (*p != '0')
				return numeric_out_of_range(fcinfo->context, text,
											"A distid has no fractional part.");
		*dot = '\0';
	}
	if (distid_parse_decimal(text, &v, &offset) != DISTID_PARSE_OK)
	{
		if (dot != NULL)
			*dot = '.';
		return numeric_out_of_range(fcinfo->context, text,
									"Valid values are from 0 to " DISTID_MAX_TEXT ".");
	}
	return distid_datum(v);
}

/* sleep one millisecond, as the reference does, but answer to cancels */
static void
sleep_1ms(void)
{
	(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 1,
					 PG_WAIT_EXTENSION);
	ResetLatch(MyLatch);
	CHECK_FOR_INTERRUPTS();
}

PG_FUNCTION_INFO_V1(distid_generate);
Datum
distid_generate(PG_FUNCTION_ARGS)
{
	idg_u128	id;

	for (;;)
	{
		uint64		now = idgen_clock_ms() + MS_1900_TO_1970;
		uint64		prev = distid_state.prev_ts;

		switch (distid_next(&distid_state, now, idgen_random_u64, NULL, &id))
		{
			case DISTID_GEN_OK:
				/*
				 * Its clock is the time it stamps, a second in the past, and
				 * a burst runs ahead of it by design: only a new millisecond
				 * off that clock (borrowed, or back) is an event.
				 */
				if (unlikely((distid_state.prev_ts != prev &&
							  distid_state.prev_ts != now - DISTID_LEEWAY_MS) ||
							 distid_state.prev_ts < prev))
					idgen_stats_clock_event(IDGEN_GEN_DISTID, (int64) (now - DISTID_LEEWAY_MS),
											(int64) prev, (int64) distid_state.prev_ts);
				return distid_datum(id);
			case DISTID_GEN_SLEEP:
				sleep_1ms();
				break;
			case DISTID_GEN_RANGE:
				idgen_clock_out_of_span(&distid_generator_span);
		}
	}
}

PG_FUNCTION_INFO_V1(distid_generate_dense);
Datum
distid_generate_dense(PG_FUNCTION_ARGS)
{
	idgen_mono_next_now(&distid_dense_state, &distid_dense_cfg, &distid_dense_span, true);
	return distid_datum(distid_compose(distid_dense_state.ms, distid_dense_state.rand));
}

PG_FUNCTION_INFO_V1(distid_timestamp);
Datum
distid_timestamp(PG_FUNCTION_ARGS)
{
	idg_u128	v = idg_load_be96(PG_GETARG_DISTID_P(0)->data);

	PG_RETURN_TIMESTAMPTZ(idgen_units_to_timestamp(distid_ts(v), &distid_span));
}

PG_FUNCTION_INFO_V1(distid_from_timestamp);
Datum
distid_from_timestamp(PG_FUNCTION_ARGS)
{
	uint64		ms = idgen_timestamp_to_units(PG_GETARG_TIMESTAMPTZ(0), &distid_span);

	return distid_datum(distid_compose(ms, 0));
}

/* the last millisecond's ids stop at 10^28-1, short of 48 random bits */
PG_FUNCTION_INFO_V1(distid_max_for_timestamp);
Datum
distid_max_for_timestamp(PG_FUNCTION_ARGS)
{
	uint64		ms = idgen_timestamp_to_units(PG_GETARG_TIMESTAMPTZ(0), &distid_span);
	idg_u128	v = distid_compose(ms, (UINT64CONST(1) << DISTID_RAND_BITS) - 1);

	return distid_datum(Min(v, distid_max()));
}

PG_FUNCTION_INFO_V1(distid_to_alphanumeric_sql);
Datum
distid_to_alphanumeric_sql(PG_FUNCTION_ARGS)
{
	char		out[DISTID_ALNUM_LEN + 1];

	distid_to_alphanumeric(idg_load_be96(PG_GETARG_DISTID_P(0)->data), out);
	PG_RETURN_TEXT_P(cstring_to_text(out));
}

PG_FUNCTION_INFO_V1(distid_from_alphanumeric_sql);
Datum
distid_from_alphanumeric_sql(PG_FUNCTION_ARGS)
{
	char	   *input = text_to_cstring(PG_GETARG_TEXT_PP(0));
	idg_u128	v;

	DECODE_TEXT("alphanumeric distid", input, DISTID_ALNUM_LEN,
				"The value exceeds " DISTID_MAX_TEXT ".",
				distid_from_alphanumeric(input, &v, &off_));
	return distid_datum(v);
}

PG_FUNCTION_INFO_V1(distid_to_hex_sql);
Datum
distid_to_hex_sql(PG_FUNCTION_ARGS)
{
	char		out[DISTID_HEX_LEN + 1];

	distid_to_hex(idg_load_be96(PG_GETARG_DISTID_P(0)->data), out);
	PG_RETURN_TEXT_P(cstring_to_text(out));
}

PG_FUNCTION_INFO_V1(distid_from_hex_sql);
Datum
distid_from_hex_sql(PG_FUNCTION_ARGS)
{
	char	   *input = text_to_cstring(PG_GETARG_TEXT_PP(0));
	idg_u128	v;

	DECODE_TEXT("hexadecimal distid", input, DISTID_HEX_LEN,
				"The value exceeds " DISTID_MAX_TEXT ".",
				distid_from_hex(input, &v, &off_));
	return distid_datum(v);
}

PG_FUNCTION_INFO_V1(distid128_generate);
Datum
distid128_generate(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	for (;;)
	{
		uint32		sub_ns;
		uint64		now = idgen_clock_now(&sub_ns) + MS_1700_TO_1970;
		uint64		prev = distid128_state.prev_ts;

		switch (distid128_next(&distid128_state, now, sub_ns,
							   idgen_sub_ms_clock ? idgen_clock_frac_bits() : 0,
							   idgen_random_u64, NULL, result->data))
		{
			case DISTID_GEN_OK:
				idgen_stats_clock(IDGEN_GEN_DISTID128, (int64) now, (int64) prev,
								  (int64) distid128_state.prev_ts);
				PG_RETURN_UUID_P(result);
			case DISTID_GEN_SLEEP:
				sleep_1ms();
				break;
			case DISTID_GEN_RANGE:
				idgen_clock_out_of_span(&distid128_span);
		}
	}
}

PG_FUNCTION_INFO_V1(distid128_timestamp);
Datum
distid128_timestamp(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);

	/* version nibble 7 and bit 64 clear, or it is not a DistributedId128 */
	if ((u->data[6] >> 4) != 7 || (u->data[8] & 0x80) != 0)
	{
		char	   *shown = DatumGetCString(DirectFunctionCall1(uuid_out, PointerGetDatum(u)));

		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("uuid %s is not a DistributedId128", shown),
				 errdetail("A DistributedId128 has version nibble 7 and bit 64 clear.")));
	}
	PG_RETURN_TIMESTAMPTZ(idgen_units_to_timestamp(idg_load_be64(u->data) >> 16,
												   &distid128_span));
}

static Datum
distid128_datum(TimestampTz ts, idg_u128 r75)
{
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	distid128_pack(idgen_timestamp_to_units(ts, &distid128_span), r75, result->data);
	PG_RETURN_UUID_P(result);
}

PG_FUNCTION_INFO_V1(distid128_from_timestamp);
Datum
distid128_from_timestamp(PG_FUNCTION_ARGS)
{
	return distid128_datum(PG_GETARG_TIMESTAMPTZ(0), 0);
}

PG_FUNCTION_INFO_V1(distid128_max_for_timestamp);
Datum
distid128_max_for_timestamp(PG_FUNCTION_ARGS)
{
	return distid128_datum(PG_GETARG_TIMESTAMPTZ(0),
						   ((idg_u128) 1 << DISTID128_RAND_BITS) - 1);
}

PG_FUNCTION_INFO_V1(uuid_to_alphanumeric_sql);
Datum
uuid_to_alphanumeric_sql(PG_FUNCTION_ARGS)
{
	char		out[UUID_ALNUM_LEN + 1];

	uuid_to_alphanumeric(PG_GETARG_UUID_P(0)->data, out);
	PG_RETURN_TEXT_P(cstring_to_text(out));
}

PG_FUNCTION_INFO_V1(uuid_from_alphanumeric_sql);
Datum
uuid_from_alphanumeric_sql(PG_FUNCTION_ARGS)
{
	char	   *input = text_to_cstring(PG_GETARG_TEXT_PP(0));
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	DECODE_TEXT("alphanumeric uuid", input, UUID_ALNUM_LEN,
				NULL,	/* every 128-bit value is a uuid */
				uuid_from_alphanumeric(input, result->data, &off_));
	PG_RETURN_UUID_P(result);
}

PG_FUNCTION_INFO_V1(bigint_to_alphanumeric_sql);
Datum
bigint_to_alphanumeric_sql(PG_FUNCTION_ARGS)
{
	int64		v = PG_GETARG_INT64(0);
	char		out[BIGINT_ALNUM_LEN + 1];

	if (v < 0)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("bigint " INT64_FORMAT " has no alphanumeric form", v),
				 errdetail("Only values from 0 to 9223372036854775807 are encoded.")));
	bigint_to_alphanumeric(v, out);
	PG_RETURN_TEXT_P(cstring_to_text(out));
}

PG_FUNCTION_INFO_V1(bigint_from_alphanumeric_sql);
Datum
bigint_from_alphanumeric_sql(PG_FUNCTION_ARGS)
{
	char	   *input = text_to_cstring(PG_GETARG_TEXT_PP(0));
	int64		v;

	DECODE_TEXT("alphanumeric bigint", input, BIGINT_ALNUM_LEN,
				"The value exceeds 9223372036854775807.",
				bigint_from_alphanumeric(input, &v, &off_));
	PG_RETURN_INT64(v);
}

/*
 * Comparisons with numeric, for the parameters drivers send (SPEC.md; the
 * integer types reach them through their implicit casts to numeric): they
 * compare values and never validate, so a fraction, a
 * negative number, one above 10^28-1, NaN or an infinity simply sorts before
 * or after every distid, where numeric sorts it.
 *
 * A numeric is reduced to where it falls among distids: below all, above all,
 * or at a whole number v (plus a fraction, so between v and v + 1).  A btree
 * scan compares many distids with one numeric, so the last reduction is kept
 * in fn_extra, with the numeric's bytes that it describes.
 */
typedef struct numeric_place
{
	int			outside;		/* -1 below every distid, 1 above, 0 at v */
	bool		fraction;		/* above v by a fraction */
	uint8		v[DISTID_LEN];	/* as a distid's bytes (a palloc'd idg_u128 could be misaligned) */
	Size		len;			/* of the numeric in bytes[] */
	Size		space;			/* allocated for bytes[] */
	char		bytes[FLEXIBLE_ARRAY_MEMBER];
} numeric_place;

static void
place_numeric(Numeric num, numeric_place *p)
{
	char	   *text = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(num)));
	char	   *dot = strchr(text, '.');
	size_t		offset;
	idg_u128	v;

	p->outside = 0;
	p->fraction = false;
	if (text[0] == '-')
		p->outside = -1;		/* negative, or -Infinity */
	else if (strcmp(text, "NaN") == 0 || strcmp(text, "Infinity") == 0)
		p->outside = 1;			/* numeric sorts NaN above every number */
	else
	{
		if (dot != NULL)
		{
			p->fraction = strspn(dot + 1, "0") != strlen(dot + 1);
			*dot = '\0';
		}
		if (distid_parse_decimal(text, &v, &offset) == DISTID_PARSE_OK)
			idg_store_be96(p->v, v);
		else
			p->outside = 1;		/* above 10^28-1 */
	}
	pfree(text);
}

static int
distid_numeric_compare(FunctionCallInfo fcinfo, int distarg)
{
	const uint8 *d = PG_GETARG_DISTID_P(distarg)->data;
	Numeric		num = PG_GETARG_NUMERIC(1 - distarg);
	Size		len = VARSIZE(num);
	FmgrInfo   *flinfo = fcinfo->flinfo;
	numeric_place *p = flinfo != NULL ? (numeric_place *) flinfo->fn_extra : NULL;
	numeric_place local;
	int			c;

	if (p == NULL || p->len != len || memcmp(p->bytes, num, len) != 0)
	{
		if (flinfo == NULL)
			p = &local;
		else
		{
			if (p == NULL || p->space < len)
			{
				if (p != NULL)
					pfree(p);
				p = MemoryContextAlloc(flinfo->fn_mcxt,
									   offsetof(numeric_place, bytes) + Max(len, 32));
				p->space = Max(len, 32);
				flinfo->fn_extra = p;
			}
			memcpy(p->bytes, num, len);
			p->len = len;
		}
		place_numeric(num, p);
	}
	if (p->outside != 0)
		c = -p->outside;
	else if ((c = memcmp(d, p->v, DISTID_LEN)) != 0)
		c = c < 0 ? -1 : 1;
	else
		c = p->fraction ? -1 : 0;
	PG_FREE_IF_COPY(num, 1 - distarg);
	return distarg == 0 ? c : -c;
}

#define DISTID_CROSS_OP(name, test, compare) \
	PG_FUNCTION_INFO_V1(name); \
	Datum name(PG_FUNCTION_ARGS); \
	Datum \
	name(PG_FUNCTION_ARGS) \
	{ \
		PG_RETURN_BOOL((compare) test 0); \
	}

#define DISTID_CROSS_OPS(prefix, compare) \
	DISTID_CROSS_OP(prefix##_eq, ==, compare) \
	DISTID_CROSS_OP(prefix##_ne, !=, compare) \
	DISTID_CROSS_OP(prefix##_lt, <, compare) \
	DISTID_CROSS_OP(prefix##_le, <=, compare) \
	DISTID_CROSS_OP(prefix##_gt, >, compare) \
	DISTID_CROSS_OP(prefix##_ge, >=, compare) \
	PG_FUNCTION_INFO_V1(prefix##_cmp); \
	Datum prefix##_cmp(PG_FUNCTION_ARGS); \
	Datum \
	prefix##_cmp(PG_FUNCTION_ARGS) \
	{ \
		PG_RETURN_INT32(compare); \
	}

DISTID_CROSS_OPS(distid_numeric, distid_numeric_compare(fcinfo, 0))
DISTID_CROSS_OPS(numeric_distid, distid_numeric_compare(fcinfo, 1))

/*
 * A numeric's hash in distid's hash family: a whole number that is a distid
 * hashes as that distid (its 12 bytes), anything else as numeric hashes it.
 * Numbers equal as numerics (42, 42.00) hash alike either way, so numeric's
 * own = shares the family, and a distid hashes as the numeric it equals:
 * hash joins and hash indexes serve = of distid with numeric.
 */
PG_FUNCTION_INFO_V1(distid_numeric_hash);
Datum
distid_numeric_hash(PG_FUNCTION_ARGS)
{
	numeric_place p;

	place_numeric(PG_GETARG_NUMERIC(0), &p);
	if (p.outside == 0 && !p.fraction)
		return hash_any(p.v, DISTID_LEN);
	return DirectFunctionCall1(hash_numeric, PG_GETARG_DATUM(0));
}

PG_FUNCTION_INFO_V1(distid_numeric_hash_extended);
Datum
distid_numeric_hash_extended(PG_FUNCTION_ARGS)
{
	numeric_place p;

	place_numeric(PG_GETARG_NUMERIC(0), &p);
	if (p.outside == 0 && !p.fraction)
		return hash_any_extended(p.v, DISTID_LEN, PG_GETARG_INT64(1));
	return DirectFunctionCall2(hash_numeric_extended, PG_GETARG_DATUM(0), PG_GETARG_DATUM(1));
}
