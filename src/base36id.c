/*
 * base36id.c — SQL glue for the base36id type and its server-wide generator.
 *
 * The value is the base-36 number itself, an int8 passed by value, so the
 * comparison, hash and sortsupport functions are core's int8 ones (see the
 * install script).  Generation hands out (second, worker, counter) from
 * per-worker counters in shared memory, 1296 per second.
 *
 * base36id_gen.c keeps them and makes sure restarts, promoted standbys and
 * restored backups never reissue an id.  The view idgen_stat_base36id shows
 * its state, with the counters stats.c keeps.
 */
#include "idgen.h"
#include "base36id_gen.h"
#include "stats.h"

#include "catalog/pg_type.h"
#include "core/base36.h"
#include "fixedid.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/pg_lsn.h"
#include "utils/tuplestore.h"

/* idgen.worker_id, -1 while unset */
static int	worker_id = -1;

static const idgen_time_span base36id_span = {
	.typname = "base36id",
	.epoch_unix_ms = B36_EPOCH_UNIX_S * 1000,
	.unit_ms = 1000,
	.max_units = B36_MAX_SECONDS,
	.first = "2024-01-01 00:00:00 UTC",
	.last = "2092-12-23 05:45:35 UTC",
};

void
base36id_init(void)
{
	/* the administrator's choice, the same for every session: SIGHUP */
	DefineCustomIntVariable("idgen.worker_id",
							"Worker number (0 to 35) that base36id_generate() writes into ids.",
							"-1 means unset; base36id_generate() refuses to run until it is set.",
							&worker_id,
							-1, -1, 35,
							PGC_SIGHUP,
							0,
							NULL, NULL, NULL);
	base36id_gen_init();
}

PG_FUNCTION_INFO_V1(base36id_generate);
Datum
base36id_generate(PG_FUNCTION_ARGS)
{
	int			worker = worker_id;
	int64		value;

	if (!base36id_gen_loaded())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("base36id_generate() requires idgen to be loaded via shared_preload_libraries"),
				 errhint("Add idgen to shared_preload_libraries in postgresql.conf and restart the server.")));
	if (worker < 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("idgen.worker_id is not set"),
				 errhint("Set idgen.worker_id to this server's worker number, 0 to 35, in postgresql.conf or with ALTER SYSTEM, then reload the configuration.")));
	if (!base36id_gen_next(worker, &value))
		idgen_clock_out_of_span(&base36id_span);
	PG_RETURN_INT64(value);
}

static int
base36id_errdetail_parse(b36_parse_status status, size_t offset, const char *input)
{
	if (status == B36_PARSE_LENGTH)
		return errdetail("Expected %d characters, found %zu.", B36_LEN, offset);
	if (status == B36_PARSE_LOWER)
		return errdetail("Lower-case letter \"%c\" at position %d; base36id is upper case only.",
						 input[offset], (int) offset + 1);
	return idgen_errdetail_bad_char(input, offset);
}

PG_FUNCTION_INFO_V1(base36id_in);
Datum
base36id_in(PG_FUNCTION_ARGS)
{
	char	   *input = PG_GETARG_CSTRING(0);
	int64		v;
	size_t		offset;
	b36_parse_status status = b36_parse(input, &v, &offset);

	if (status != B36_PARSE_OK)
		idgen_invalid_input(fcinfo->context, "base36id", input,
							base36id_errdetail_parse(status, offset, input));
	PG_RETURN_INT64(v);
}

PG_FUNCTION_INFO_V1(base36id_out);
Datum
base36id_out(PG_FUNCTION_ARGS)
{
	char	   *out = palloc(B36_LEN + 1);

	b36_format(PG_GETARG_INT64(0), out);
	PG_RETURN_CSTRING(out);
}

/*
 * Both errors of binary input (too short, out of range), out of line: the
 * path of a good value, once a value in COPY FROM, is then pq_getmsgint64()
 * inline and the range check, with no registers to save.
 */
static Datum
base36id_recv_error(StringInfo buf, int64 v)
{
	(void) idgen_recv_bytes(buf, sizeof(int64));	/* too short: its error */
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
			 errmsg("invalid external binary representation for type %s", "base36id"),
			 errdetail("Value " INT64_FORMAT " is outside 0 to " INT64_FORMAT ".",
					   v, B36_MAX_VALUE)));
	pg_unreachable();
}

PG_FUNCTION_INFO_V1(base36id_recv);
Datum
base36id_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	uint64		n;
	int64		v;

	if (unlikely(buf->len - buf->cursor < (int) sizeof(n)))
		return base36id_recv_error(buf, 0);
	memcpy(&n, &buf->data[buf->cursor], sizeof(n));
	v = (int64) pg_ntoh64(n);
	if (unlikely(v < 0 || v > B36_MAX_VALUE))
		return base36id_recv_error(buf, v);
	buf->cursor += sizeof(n);
	PG_RETURN_INT64(v);
}

/* bigint -> base36id */
PG_FUNCTION_INFO_V1(base36id_from_bigint);
Datum
base36id_from_bigint(PG_FUNCTION_ARGS)
{
	int64		v = PG_GETARG_INT64(0);

	if (v < 0 || v > B36_MAX_VALUE)
		idgen_ereturn(fcinfo->context,
					  (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					   errmsg("value " INT64_FORMAT " is out of range for type base36id", v),
					   errdetail("Valid values are from 0 (000000000) to " INT64_FORMAT " (ZZZZZZZZZ).",
								 B36_MAX_VALUE)));
	PG_RETURN_INT64(v);
}

/*
 * B-tree skip support (PostgreSQL 18) over the type's domain 0 .. 36^9 - 1.
 * Before 18 the SQL function exists but is in no operator family.
 */
#if PG_VERSION_NUM >= 180000
static Datum
base36id_decrement(Relation rel, Datum existing, bool *underflow)
{
	int64		v = DatumGetInt64(existing);

	*underflow = v <= 0;
	return *underflow ? (Datum) 0 : Int64GetDatum(v - 1);
}

static Datum
base36id_increment(Relation rel, Datum existing, bool *overflow)
{
	int64		v = DatumGetInt64(existing);

	*overflow = v >= B36_MAX_VALUE;
	return *overflow ? (Datum) 0 : Int64GetDatum(v + 1);
}
#endif

PG_FUNCTION_INFO_V1(base36id_skipsupport);
Datum
base36id_skipsupport(PG_FUNCTION_ARGS)
{
#if PG_VERSION_NUM >= 180000
	SkipSupport sksup = (SkipSupport) PG_GETARG_POINTER(0);

	sksup->decrement = base36id_decrement;
	sksup->increment = base36id_increment;
	sksup->low_elem = Int64GetDatum(0);
	sksup->high_elem = Int64GetDatum(B36_MAX_VALUE);
	PG_RETURN_VOID();
#else
	idgen_skipsupport_unavailable();
#endif
}

PG_FUNCTION_INFO_V1(base36id_timestamp);
Datum
base36id_timestamp(PG_FUNCTION_ARGS)
{
	PG_RETURN_TIMESTAMPTZ(idgen_units_to_timestamp(b36_seconds(PG_GETARG_INT64(0)),
												   &base36id_span));
}

PG_FUNCTION_INFO_V1(base36id_worker);
Datum
base36id_worker(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(b36_worker(PG_GETARG_INT64(0)));
}

PG_FUNCTION_INFO_V1(base36id_counter);
Datum
base36id_counter(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(b36_counter(PG_GETARG_INT64(0)));
}

PG_FUNCTION_INFO_V1(base36id_from_timestamp);
Datum
base36id_from_timestamp(PG_FUNCTION_ARGS)
{
	uint64		second = idgen_timestamp_to_units(PG_GETARG_TIMESTAMPTZ(0), &base36id_span);

	PG_RETURN_INT64(b36_compose((int64) second, 0, 0));
}

PG_FUNCTION_INFO_V1(base36id_max_for_timestamp);
Datum
base36id_max_for_timestamp(PG_FUNCTION_ARGS)
{
	uint64		second = idgen_timestamp_to_units(PG_GETARG_TIMESTAMPTZ(0), &base36id_span);

	PG_RETURN_INT64(b36_compose((int64) second, B36_WORKERS - 1, B36_COUNTERS - 1));
}

/*
 * The view idgen_stat_base36id: the generator's state (base36id_gen.c) and
 * the counters of its waits and reservations (stats.c).
 */
static const Oid stat_types[] = {
	INT4OID, TIMESTAMPTZOID, INT4OID, INT4OID, INT4OID,
	TIMESTAMPTZOID, TIMESTAMPTZOID, TIMESTAMPTZOID,
	TIMESTAMPTZOID, PG_LSNOID, TIMESTAMPTZOID, FLOAT8OID, INT8OID, FLOAT8OID,
	INT8OID, FLOAT8OID, INT8OID, FLOAT8OID, INT8OID, FLOAT8OID,
	TEXTOID, INT8OID, TIMESTAMPTZOID
};

#define STAT_COLS lengthof(stat_types)

/* a base36id second as a timestamp; NULL for none (-1) */
static Datum
second_datum(int64 second, bool *isnull)
{
	*isnull = second < 0;
	return TimestampTzGetDatum(*isnull ? 0 : idgen_units_to_timestamp((uint64) second, &base36id_span));
}

PG_FUNCTION_INFO_V1(idgen_stat_base36id);
Datum
idgen_stat_base36id(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Datum		values[STAT_COLS];
	bool		nulls[STAT_COLS] = {0};
	int			worker = worker_id;
	base36id_gen_snap snap;
	idgen_stats_totals t;
	int			i = 0;

	idgen_stats_view_start(fcinfo, "idgen_stat_base36id", stat_types, STAT_COLS);
	if (!base36id_gen_snapshot(worker, &snap))
		elog(ERROR, "base36id generator not set up");
	idgen_stats_get_totals(&t);

	/* the worker's counter */
	nulls[i] = worker < 0;
	values[i++] = Int32GetDatum(worker);
	values[i] = second_datum(snap.worker_second, &nulls[i]);
	i++;
	nulls[i] = worker < 0;
	values[i++] = Int32GetDatum(snap.worker_used);
	/* ids of the clock's second: a counter behind the clock used none */
	nulls[i] = worker < 0;
	values[i++] = Int32GetDatum(snap.worker_second >= snap.clock_second ? snap.worker_used : 0);
	values[i++] = Int32GetDatum(B36_COUNTERS);
	/* durability */
	values[i] = second_datum(snap.reserved, &nulls[i]);
	i++;
	values[i] = second_datum(snap.file_second, &nulls[i]);
	i++;
	values[i] = second_datum(snap.floor, &nulls[i]);
	i++;
	values[i] = second_datum(t.last_second, &nulls[i]);
	i++;
	nulls[i] = XLogRecPtrIsInvalid(t.last_lsn);
	values[i++] = LSNGetDatum(t.last_lsn);
	nulls[i] = t.last_at == 0;
	values[i++] = TimestampTzGetDatum(t.last_at);
	nulls[i] = t.last_at == 0;
	values[i++] = Float8GetDatum(t.last_ms);
	values[i++] = Int64GetDatum(t.reservations);
	values[i++] = Float8GetDatum(t.reservation_ms);
	/* waits */
	values[i++] = Int64GetDatum(t.waits[IDGEN_WAIT_STATE_FILE_SYNC]);
	values[i++] = Float8GetDatum(t.wait_ms[IDGEN_WAIT_STATE_FILE_SYNC]);
	values[i++] = Int64GetDatum(t.waits[IDGEN_WAIT_RESERVATION]);
	values[i++] = Float8GetDatum(t.wait_ms[IDGEN_WAIT_RESERVATION]);
	/* both wait for the second's budget: the first in line, and those behind it */
	values[i++] = Int64GetDatum(t.waits[IDGEN_WAIT_NEXT_SECOND] + t.waits[IDGEN_WAIT_LINE]);
	values[i++] = Float8GetDatum(t.wait_ms[IDGEN_WAIT_NEXT_SECOND] + t.wait_ms[IDGEN_WAIT_LINE]);
	/* the state file */
	values[i++] = CStringGetTextDatum(snap.state_file);
	values[i++] = Int64GetDatum(t.state_file_failures);
	Assert(i == STAT_COLS - 1);
	nulls[i] = t.last_failure == 0;
	values[i++] = TimestampTzGetDatum(t.last_failure);

	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	return (Datum) 0;
}
