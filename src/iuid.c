/*
 * iuid.c — SQL glue for the iuid type.
 */
#include "idgen.h"
#include "iuid.h"

#include "fixedid.h"
#include "core/uuidtext.h"
#include "utils/uuid.h"

static const idgen_time_span iuid_span = {
	.typname = "iuid",
	.epoch_unix_ms = 0,
	.unit_ms = 1,
	.max_units = IUID_MAX_MS,
	.first = "1970-01-01 00:00:00 UTC",
	.last = "10889-08-02 05:31:50.655 UTC",
	.clock_gen = IDGEN_GEN_IUID,
};

/*
 * 12 bits of sub-millisecond clock (fewer on a coarser clock, none with
 * idgen.sub_millisecond_clock = off), then 42 random bits; 32-bit increments
 * within one 1/4096 ms step leave room for about a thousand ids on average
 * (from a fresh field in the last step) before the
 * next millisecond is borrowed.
 */
static const idg_mono_cfg iuid_mono_cfg = {
	.rand_bits = IUID_RAND_BITS,
	.frac_bits = IDGEN_FRAC_BITS,
	.inc_bits = 32,
	.max_ms = IUID_MAX_MS,
	.back_leeway_ms = 1000,
};

/* one stream per backend: strictly increasing across all (country, entity) */
static idg_mono iuid_state;
static idg_mono iuid_backfill_state;

IDGEN_FIXED_ID_FUNCTIONS(iuid, IUID_LEN)

/*
 * Version and variant checks shared by text input, binary input and the
 * cast from uuid; the caller supplies the error message.
 */
static int
iuid_errdetail_check(iuid_check check, const uint8 *data)
{
	if (check == IUID_CHECK_VERSION)
		return errdetail("Version nibble is %X, expected 8.", iuid_version_nibble(data));
	return errdetail("Variant bits are %u%u, expected 10.",
					 iuid_variant_bits(data) >> 1, iuid_variant_bits(data) & 1);
}

/* 22P02 unless the bytes carry iuid's version and variant; false if soft */
static bool
iuid_validate_input(const uint8 *data, const char *shown, Node *escontext)
{
	iuid_check	check = iuid_validate(data);

	if (check == IUID_CHECK_OK)
		return true;
	idgen_invalid_input_save(escontext, "iuid", shown, iuid_errdetail_check(check, data));
	return false;
}

static int
iuid_errdetail_parse(idg_uuid_parse_status status, const idg_uuid_parse_error *err,
					 const char *input)
{
	switch (status)
	{
		case IDG_UUID_EMPTY:
			return errdetail("Input is empty.");
		case IDG_UUID_TOO_SHORT:
		case IDG_UUID_TOO_LONG:
			return errdetail("Expected 32 hexadecimal digits, found %d.", err->hex_digits);
		case IDG_UUID_NO_CLOSING_BRACE:
			return errdetail("Missing closing brace.");
		case IDG_UUID_BAD_CHAR:
		case IDG_UUID_OK:
			break;
	}
	return idgen_errdetail_bad_char(input, err->offset);
}

PG_FUNCTION_INFO_V1(iuid_in);
Datum
iuid_in(PG_FUNCTION_ARGS)
{
	char	   *input = PG_GETARG_CSTRING(0);
	iuid	   *result = palloc(sizeof(iuid));
	idg_uuid_parse_error err;
	idg_uuid_parse_status status;

	status = idg_uuid_parse(input, result->data, &err);
	if (status != IDG_UUID_OK)
		idgen_invalid_input(fcinfo->context, "iuid", input,
							iuid_errdetail_parse(status, &err, input));
	if (!iuid_validate_input(result->data, input, fcinfo->context))
		return (Datum) 0;
	PG_RETURN_IUID_P(result);
}

PG_FUNCTION_INFO_V1(iuid_out);
Datum
iuid_out(PG_FUNCTION_ARGS)
{
	iuid	   *id = PG_GETARG_IUID_P(0);
	char	   *out = palloc(IDG_UUID_TEXT_LEN + 1);

	idg_uuid_format(id->data, out);
	PG_RETURN_CSTRING(out);
}

pg_noreturn static void
iuid_recv_invalid(const uint8 *data)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
			 errmsg("invalid external binary representation for type %s", "iuid"),
			 iuid_errdetail_check(iuid_validate(data), data)));
	pg_unreachable();
}

PG_FUNCTION_INFO_V1(iuid_recv);
Datum
iuid_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	iuid	   *result = palloc(sizeof(iuid));

	memcpy(result->data, idgen_recv_bytes(buf, IUID_LEN), IUID_LEN);
	if (unlikely(iuid_validate(result->data) != IUID_CHECK_OK))
		iuid_recv_invalid(result->data);
	PG_RETURN_IUID_P(result);
}

PG_FUNCTION_INFO_V1(iuid_send);
Datum
iuid_send(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(idgen_fixed_send(PG_GETARG_IUID_P(0)->data, IUID_LEN));
}

/* uuid -> iuid: the same bytes, if they carry iuid's version and variant */
PG_FUNCTION_INFO_V1(iuid_from_uuid);
Datum
iuid_from_uuid(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);
	iuid	   *result = palloc(sizeof(iuid));
	char		text[IDG_UUID_TEXT_LEN + 1];

	memcpy(result->data, u->data, IUID_LEN);
	if (iuid_validate(result->data) != IUID_CHECK_OK)
	{
		idg_uuid_format(u->data, text);
		if (!iuid_validate_input(result->data, text, fcinfo->context))
			return (Datum) 0;
	}
	PG_RETURN_IUID_P(result);
}

static unsigned
iuid_arg_byte(int32 value, const char *field)
{
	if (value < 0 || value > 255)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("iuid %s %d is out of range", field, value),
				 errdetail("Valid values are from 0 to 255.")));
	return (unsigned) value;
}

static Datum
iuid_make(const idg_mono *st, unsigned country, unsigned entity)
{
	iuid	   *result = palloc(sizeof(iuid));
	iuid_fields f = {
		.ms = st->ms,
		.format_version = IUID_FORMAT_VERSION,
		.country = country,
		.entity = entity,
		.rand = st->rand,
	};

	iuid_pack(&f, result->data);
	PG_RETURN_IUID_P(result);
}

PG_FUNCTION_INFO_V1(iuid_generate);
Datum
iuid_generate(PG_FUNCTION_ARGS)
{
	unsigned	country = iuid_arg_byte(PG_GETARG_INT32(0), "country");
	unsigned	entity = iuid_arg_byte(PG_GETARG_INT32(1), "entity");

	idgen_mono_next_now(&iuid_state, &iuid_mono_cfg, &iuid_span, idgen_sub_ms_clock);
	return iuid_make(&iuid_state, country, entity);
}

PG_FUNCTION_INFO_V1(iuid_generate_at);
Datum
iuid_generate_at(PG_FUNCTION_ARGS)
{
	unsigned	country = iuid_arg_byte(PG_GETARG_INT32(0), "country");
	unsigned	entity = iuid_arg_byte(PG_GETARG_INT32(1), "entity");

	idgen_mono_next_at(&iuid_backfill_state, &iuid_mono_cfg, &iuid_span,
					   PG_GETARG_TIMESTAMPTZ(2));
	return iuid_make(&iuid_backfill_state, country, entity);
}

PG_FUNCTION_INFO_V1(iuid_from_timestamp);
Datum
iuid_from_timestamp(PG_FUNCTION_ARGS)
{
	idg_mono	least = {
		.valid = true,
		.ms = idgen_timestamp_to_units(PG_GETARG_TIMESTAMPTZ(0), &iuid_span),
		.rand = 0,
	};

	return iuid_make(&least, 0, 0);
}

/*
 * The greatest iuid of the millisecond: every field after the time at its
 * maximum, format version included (input accepts any), so that it bounds
 * ids of later format versions too.
 */
PG_FUNCTION_INFO_V1(iuid_max_for_timestamp);
Datum
iuid_max_for_timestamp(PG_FUNCTION_ARGS)
{
	iuid	   *result = palloc(sizeof(iuid));
	iuid_fields f = {
		.ms = idgen_timestamp_to_units(PG_GETARG_TIMESTAMPTZ(0), &iuid_span),
		.format_version = 0xF,
		.country = 0xFF,
		.entity = 0xFF,
		.rand = IUID_MAX_RAND,
	};

	iuid_pack(&f, result->data);
	PG_RETURN_IUID_P(result);
}

/* the fields of argument 0, for the extractors */
static iuid_fields
iuid_arg_fields(FunctionCallInfo fcinfo)
{
	iuid_fields f;

	iuid_unpack(PG_GETARG_IUID_P(0)->data, &f);
	return f;
}

PG_FUNCTION_INFO_V1(iuid_timestamp);
Datum
iuid_timestamp(PG_FUNCTION_ARGS)
{
	PG_RETURN_TIMESTAMPTZ(idgen_units_to_timestamp(iuid_arg_fields(fcinfo).ms, &iuid_span));
}

PG_FUNCTION_INFO_V1(iuid_country);
Datum
iuid_country(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) iuid_arg_fields(fcinfo).country);
}

PG_FUNCTION_INFO_V1(iuid_entity);
Datum
iuid_entity(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) iuid_arg_fields(fcinfo).entity);
}

PG_FUNCTION_INFO_V1(iuid_format_version);
Datum
iuid_format_version(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) iuid_arg_fields(fcinfo).format_version);
}
