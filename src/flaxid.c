/*
 * flaxid.c — SQL glue for the flaxid type.
 */
#include "idgen.h"

#include "core/flaxid.h"
#include "fixedid.h"

static const idgen_time_span flaxid_span = {
	.typname = "flaxid",
	.epoch_unix_ms = FLAXID_EPOCH_UNIX_MS,
	.unit_ms = 1,
	.max_units = FLAXID_MAX_MS,
	.first = "2015-01-01 00:00:00 UTC",
	.last = "2049-11-03 19:53:47.775 UTC",
	.clock_gen = IDGEN_GEN_FLAXID,
};

/*
 * 12 bits of sub-millisecond clock (fewer on a coarser clock, none with
 * idgen.sub_millisecond_clock = off), then 44 random bits; 32-bit increments
 * within one 1/4096 ms step leave room for about four thousand ids on average
 * (from a fresh field in the last step) before the
 * next millisecond is borrowed.
 */
static const idg_mono_cfg flaxid_mono_cfg = {
	.rand_bits = FLAXID_RAND_BITS,
	.frac_bits = IDGEN_FRAC_BITS,
	.inc_bits = 32,
	.max_ms = FLAXID_MAX_MS,
	.back_leeway_ms = 1000,
};

static idg_mono flaxid_state;

IDGEN_FIXED_ID_FUNCTIONS(flaxid, FLAXID_LEN)

static Datum
flaxid_datum(idg_u128 v)
{
	uint8	   *result = palloc(FLAXID_LEN);

	idg_store_be96(result, v);
	return PointerGetDatum(result);
}

static idg_u128
flaxid_arg(FunctionCallInfo fcinfo)
{
	return idg_load_be96((const uint8 *) PG_GETARG_POINTER(0));
}

/* 22P02 for text that is not a flaxid, out of line: the common path stays lean */
static pg_noinline Datum
flaxid_in_invalid(const char *input, Node *escontext)
{
	uint8		unused[FLAXID_LEN];
	size_t		offset;

	if (flaxid_parse_bytes(input, unused, &offset) == FLAXID_PARSE_LENGTH)
		idgen_invalid_input(escontext, "flaxid", input,
							errdetail("Expected %d characters, found %zu.", FLAXID_TEXT_LEN, offset));
	idgen_invalid_input(escontext, "flaxid", input, idgen_errdetail_bad_char(input, offset));
}

PG_FUNCTION_INFO_V1(flaxid_in);
Datum
flaxid_in(PG_FUNCTION_ARGS)
{
	char	   *input = PG_GETARG_CSTRING(0);
	uint8	   *result = palloc(FLAXID_LEN);

	if (likely(flaxid_decode(input, result)))
		PG_RETURN_POINTER(result);
	return flaxid_in_invalid(input, fcinfo->context);
}

PG_FUNCTION_INFO_V1(flaxid_out);
Datum
flaxid_out(PG_FUNCTION_ARGS)
{
	char	   *out = palloc(FLAXID_TEXT_LEN + 1);

	flaxid_format_bytes((const uint8 *) PG_GETARG_POINTER(0), out);
	PG_RETURN_CSTRING(out);
}

/* every 96-bit value is a flaxid: nothing to validate */
PG_FUNCTION_INFO_V1(flaxid_recv);
Datum
flaxid_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	uint8	   *result = palloc(FLAXID_LEN);

	memcpy(result, idgen_recv_bytes(buf, FLAXID_LEN), FLAXID_LEN);
	PG_RETURN_POINTER(result);
}

PG_FUNCTION_INFO_V1(flaxid_send);
Datum
flaxid_send(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(idgen_fixed_send(PG_GETARG_POINTER(0), FLAXID_LEN));
}

PG_FUNCTION_INFO_V1(flaxid_generate);
Datum
flaxid_generate(PG_FUNCTION_ARGS)
{
	idgen_mono_next_now(&flaxid_state, &flaxid_mono_cfg, &flaxid_span, idgen_sub_ms_clock);
	return flaxid_datum(flaxid_compose(flaxid_state.ms, flaxid_state.rand));
}

PG_FUNCTION_INFO_V1(flaxid_timestamp);
Datum
flaxid_timestamp(PG_FUNCTION_ARGS)
{
	PG_RETURN_TIMESTAMPTZ(idgen_units_to_timestamp(flaxid_ms(flaxid_arg(fcinfo)), &flaxid_span));
}

PG_FUNCTION_INFO_V1(flaxid_from_timestamp);
Datum
flaxid_from_timestamp(PG_FUNCTION_ARGS)
{
	uint64		ms = idgen_timestamp_to_units(PG_GETARG_TIMESTAMPTZ(0), &flaxid_span);

	return flaxid_datum(flaxid_compose(ms, 0));
}

PG_FUNCTION_INFO_V1(flaxid_max_for_timestamp);
Datum
flaxid_max_for_timestamp(PG_FUNCTION_ARGS)
{
	uint64		ms = idgen_timestamp_to_units(PG_GETARG_TIMESTAMPTZ(0), &flaxid_span);

	return flaxid_datum(flaxid_compose(ms, (UINT64CONST(1) << FLAXID_RAND_BITS) - 1));
}
