/*
 * base36id.c — SQL glue for the base36id type and its server-wide generator.
 *
 * The value is the base-36 number itself, an int8 passed by value, so the
 * comparison, hash and sortsupport functions are core's int8 ones (see the
 * install script).  Generation hands out (second, worker, counter) from
 * per-worker counters in shared memory, 1296 per second.
 *
 * Restarts must not reissue ids: before the first id of a new second is
 * handed out, that second is written and fsync'd to STATE_FILE.  When shared
 * memory is (re)initialised, at start and after a crash, every counter starts
 * used up at the later of that second and the current one, so the first id
 * comes from a second no id can have been issued in.
 */
#include "idgen.h"
#include "shmem.h"

#include <fcntl.h>
#include <unistd.h>

#include "core/base36.h"
#include "fixedid.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "storage/latch.h"
#include "utils/guc.h"
#include "utils/wait_event.h"

#define STATE_FILE "idgen_base36id.state"
#define STATE_MAGIC 0x49443336	/* "ID36" */

typedef struct state_record
{
	uint32		magic;
	uint32		pad;
	int64		second;			/* highest second ids may have been issued in */
} state_record;

typedef struct base36id_shared
{
	LWLock	   *lock;
	int64		durable;		/* highest second written to STATE_FILE */
	b36_state	workers[B36_WORKERS];
} base36id_shared;

static base36id_shared *shared = NULL;

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

/* seconds since the base36id epoch, floor */
static int64
clock_second(void)
{
	return (int64) (idgen_clock_ms() / 1000) - B36_EPOCH_UNIX_S;
}

/* the persisted second, or -1 if there is none (first start) */
static int64
state_file_read(void)
{
	state_record rec;
	int			fd = OpenTransientFile(STATE_FILE, O_RDONLY | PG_BINARY);
	ssize_t		n;

	if (fd < 0)
	{
		if (errno != ENOENT)
			ereport(LOG,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\": %m", STATE_FILE)));
		return -1;
	}
	n = read(fd, &rec, sizeof(rec));
	CloseTransientFile(fd);
	if (n != sizeof(rec) || rec.magic != STATE_MAGIC)
	{
		ereport(LOG,
				(errmsg("ignoring invalid base36id state file \"%s\"", STATE_FILE)));
		return -1;
	}
	return rec.second;
}

static void
state_file_write(int64 second)
{
	state_record rec = {.magic = STATE_MAGIC,.pad = 0,.second = second};
	int			fd = OpenTransientFile(STATE_FILE, O_RDWR | PG_BINARY);
	bool		created = false;

	if (fd < 0 && errno == ENOENT)
	{
		fd = OpenTransientFile(STATE_FILE, O_RDWR | O_CREAT | O_EXCL | PG_BINARY);
		created = true;
	}
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\": %m", STATE_FILE)));
	errno = 0;
	if (pg_pwrite(fd, &rec, sizeof(rec), 0) != sizeof(rec))
	{
		if (errno == 0)
			errno = ENOSPC;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", STATE_FILE)));
	}
	if (pg_fsync(fd) != 0)
		ereport(data_sync_elevel(ERROR),
				(errcode_for_file_access(),
				 errmsg("could not fsync file \"%s\": %m", STATE_FILE)));
	if (CloseTransientFile(fd) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not close file \"%s\": %m", STATE_FILE)));
	/* a new file's directory entry must survive an OS crash too */
	if (created)
		fsync_fname(".", true);
}

static void
base36id_shmem_init(void *ptr, bool found, LWLockPadded *locks)
{
	int64		hw;
	int			i;

	shared = ptr;
	if (found)
		return;

	/* no id may come from a second that may already have been used */
	hw = Max(state_file_read(), clock_second());
	shared->lock = &locks[0].lock;
	shared->durable = hw;
	for (i = 0; i < B36_WORKERS; i++)
		b36_state_init(&shared->workers[i], hw);
}

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
	idgen_shmem_request("idgen_base36id", sizeof(base36id_shared), 1, base36id_shmem_init);
}

PG_FUNCTION_INFO_V1(base36id_generate);
Datum
base36id_generate(PG_FUNCTION_ARGS)
{
	int			worker = worker_id;

	if (shared == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("base36id_generate() requires idgen to be loaded via shared_preload_libraries"),
				 errhint("Add idgen to shared_preload_libraries in postgresql.conf and restart the server.")));
	if (worker < 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("idgen.worker_id is not set"),
				 errhint("Set idgen.worker_id to this server's worker number, 0 to 35, in postgresql.conf or with ALTER SYSTEM, then reload the configuration.")));

	for (;;)
	{
		b36_state	next;
		b36_next_status status;
		int64		second;
		int			counter;
		bool		new_second;
		int64		wait_for;
		uint64		now_ms;
		long		sleep_ms;

		LWLockAcquire(shared->lock, LW_EXCLUSIVE);
		now_ms = idgen_clock_ms();
		next = shared->workers[worker];
		status = b36_state_next(&next, (int64) (now_ms / 1000) - B36_EPOCH_UNIX_S,
								&second, &counter, &new_second);
		if (status == B36_NEXT_OK)
		{
			/* durable before any id of the second is handed out */
			if (new_second && next.second > shared->durable)
			{
				state_file_write(next.second);
				shared->durable = next.second;
			}
			shared->workers[worker] = next;
			LWLockRelease(shared->lock);
			PG_RETURN_INT64(b36_compose(second, worker, counter));
		}
		wait_for = shared->workers[worker].second + 1;
		LWLockRelease(shared->lock);

		if (status == B36_NEXT_RANGE)
			idgen_clock_out_of_span(&base36id_span);

		/* used up: sleep until the clock reaches the next second, or a cancel */
		sleep_ms = (long) ((wait_for + B36_EPOCH_UNIX_S) * 1000 - (int64) now_ms);
		sleep_ms = Max(1, Min(sleep_ms, 1000));
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 sleep_ms, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
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

PG_FUNCTION_INFO_V1(base36id_recv);
Datum
base36id_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int64		v = pq_getmsgint64(buf);

	if (v < 0 || v > B36_MAX_VALUE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid external binary representation for type %s", "base36id"),
				 errdetail("Value " INT64_FORMAT " is outside 0 to " INT64_FORMAT ".",
						   v, B36_MAX_VALUE)));
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
