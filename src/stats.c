/*
 * stats.c — server-wide monitoring of idgen (stats.h): per-backend counter
 * slots in shared memory, the wait events, the view idgen_stat_clock and
 * what every view function starts with.  It knows no id type: each type's
 * view lives with the type (idgen_stat_base36id in base36id.c).
 *
 * A slot is written by its owner only, with plain atomic loads and stores
 * (no locked instruction: nobody else writes it), and read whole by readers;
 * pg_atomic_uint64 makes those reads untorn where 64-bit loads are not
 * atomic.  The owner folds its slot into the total when it exits, under the
 * lock that readers hold shared while they sum, so an exit never counts twice
 * or not at all.  Counters live as long as shared memory: a crash restart
 * starts them again at zero.
 */
#include "stats.h"
#include "shmem.h"

#include "funcapi.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/proc.h"
#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"
#include "utils/wait_event.h"

/* clock counters of one generator */
enum
{
	CLK_AHEAD,					/* ids stamped later than the clock */
	CLK_AHEAD_MAX,				/* by how much, at most (ms): a maximum */
	CLK_BORROWED,				/* milliseconds borrowed from the future */
	CLK_ABSORBED,				/* clock steps back kept off the ids */
	CLK_FOLLOWED,				/* clock steps back the ids followed */
	CLK_BACK_MAX,				/* largest step back (ms): a maximum */
	CLK_NFIELDS
};

#define IS_MAX_FIELD(f) ((f) == CLK_AHEAD_MAX || (f) == CLK_BACK_MAX)

typedef struct stats_counts
{
	pg_atomic_uint64 clock[IDGEN_NGENS][CLK_NFIELDS];
	pg_atomic_uint64 waits[IDGEN_NWAITS];
	pg_atomic_uint64 wait_us[IDGEN_NWAITS];
	pg_atomic_uint64 reservations;
	pg_atomic_uint64 reservation_us;
	pg_atomic_uint64 state_file_failures;
} stats_counts;

#define NCOUNTERS (sizeof(stats_counts) / sizeof(pg_atomic_uint64))

/* a slot per backend, on cache lines of its own: no false sharing */
typedef union stats_slot
{
	stats_counts c;
	char		pad[TYPEALIGN(PG_CACHE_LINE_SIZE, sizeof(stats_counts))];
} stats_slot;

typedef struct stats_shared
{
	LWLock	   *lock;
	int			nslots;
	/* the last reservation, and the last failure to write the state file */
	int64		last_second;
	XLogRecPtr	last_lsn;
	TimestampTz last_at;
	double		last_ms;
	TimestampTz last_failure;
	stats_slot	total;			/* of backends that exited */
	stats_slot	slots[FLEXIBLE_ARRAY_MEMBER];
} stats_shared;

static stats_shared *sh = NULL;

/* this backend's slot: in shared memory, or private without preloading */
static stats_counts *my = NULL;
static stats_slot local_slot;

/*
 * The clock reading and id of the last event, per generator.  Between events
 * every id is the clock reading (see idgen_stats_clock), so the last reading
 * is the last id, unless that id is the one of the last event.
 */
static int64 event_clock[IDGEN_NGENS];
static int64 event_id[IDGEN_NGENS];
static bool event_seen[IDGEN_NGENS];

static const char *const gen_names[IDGEN_NGENS] = {
	"iuid", "flaxid", "distid", "distid128", "distid_dense"
};

static pg_atomic_uint64 *
counter(stats_counts *c, int i)
{
	return &((pg_atomic_uint64 *) c)[i];
}

static void
counts_init(stats_counts *c)
{
	int			i;

	for (i = 0; i < (int) NCOUNTERS; i++)
		pg_atomic_init_u64(counter(c, i), 0);
}

/* only the owner writes a slot: a plain read and write, no locked add */
static inline void
bump(pg_atomic_uint64 *c, uint64 n)
{
	pg_atomic_write_u64(c, pg_atomic_read_u64(c) + n);
}

static inline void
raise_to(pg_atomic_uint64 *c, uint64 v)
{
	if (v > pg_atomic_read_u64(c))
		pg_atomic_write_u64(c, v);
}

static inline bool
is_max_counter(int i)
{
	return i < IDGEN_NGENS * CLK_NFIELDS && IS_MAX_FIELD(i % CLK_NFIELDS);
}

/* into is the total or a reader's sum; from a slot */
static void
counts_add(stats_counts *into, stats_counts *from)
{
	int			i;

	for (i = 0; i < (int) NCOUNTERS; i++)
	{
		uint64		v = pg_atomic_read_u64(counter(from, i));

		if (is_max_counter(i))
			raise_to(counter(into, i), v);
		else
			bump(counter(into, i), v);
	}
}

/* at exit: the slot's counts go to the total, and the slot is free again */
static void
fold_slot(int code, Datum arg)
{
	int			i;

	LWLockAcquire(sh->lock, LW_EXCLUSIVE);
	counts_add(&sh->total.c, my);
	for (i = 0; i < (int) NCOUNTERS; i++)
		pg_atomic_write_u64(counter(my, i), 0);
	LWLockRelease(sh->lock);
	my = NULL;
}

static stats_counts *
my_counts(void)
{
	int			idx = -1;

	if (my != NULL)
		return my;
	if (MyProc != NULL)
#if PG_VERSION_NUM >= 170000
		idx = MyProcNumber;
#else
		idx = MyProc->pgprocno;
#endif
	if (sh != NULL && idx >= 0 && idx < sh->nslots)
	{
		my = &sh->slots[idx].c;
		on_shmem_exit(fold_slot, (Datum) 0);
	}
	else
	{
		/* no shared memory, or not a backend that has a slot */
		counts_init(&local_slot.c);
		my = &local_slot.c;
	}
	return my;
}

void
idgen_stats_clock_event(idgen_clock_gen gen, int64 now, int64 prev, int64 id)
{
	pg_atomic_uint64 *c = my_counts()->clock[gen];
	int64		last = event_seen[gen] && event_id[gen] == prev ? event_clock[gen] : prev;

	event_clock[gen] = now;
	event_id[gen] = id;
	event_seen[gen] = true;
	if (now < last)
	{
		/* the clock went back since the last id */
		bump(&c[id < prev ? CLK_FOLLOWED : CLK_ABSORBED], 1);
		raise_to(&c[CLK_BACK_MAX], (uint64) (last - now));
	}
	if (id > now)
	{
		bump(&c[CLK_AHEAD], 1);
		raise_to(&c[CLK_AHEAD_MAX], (uint64) (id - now));
		/* past both the clock and the last id: a millisecond borrowed */
		if (id > prev)
			bump(&c[CLK_BORROWED], (uint64) (id - Max(prev, now)));
	}
}

static uint64
elapsed_us(const instr_time *start)
{
	instr_time	t;

	INSTR_TIME_SET_CURRENT(t);
	INSTR_TIME_SUBTRACT(t, *start);
	return INSTR_TIME_GET_MICROSEC(t);
}

void
idgen_stats_wait_end(idgen_wait w, const instr_time *start)
{
	stats_counts *c = my_counts();

	bump(&c->waits[w], 1);
	bump(&c->wait_us[w], elapsed_us(start));
}

void
idgen_stats_io_start(idgen_wait w, instr_time *t)
{
	uint32		event = idgen_wait_event(w);

	idgen_stats_wait_start(t);
	pgstat_report_wait_start(event);
}

void
idgen_stats_io_end(idgen_wait w, const instr_time *start)
{
	pgstat_report_wait_end();
	idgen_stats_wait_end(w, start);
}

void
idgen_stats_reserved(int64 second, XLogRecPtr lsn, const instr_time *start)
{
	stats_counts *c = my_counts();
	uint64		us = elapsed_us(start);

	bump(&c->reservations, 1);
	bump(&c->reservation_us, us);
	if (sh == NULL)
		return;
	LWLockAcquire(sh->lock, LW_EXCLUSIVE);
	sh->last_second = second;
	sh->last_lsn = lsn;
	sh->last_at = GetCurrentTimestamp();
	sh->last_ms = us / 1000.0;
	LWLockRelease(sh->lock);
}

void
idgen_stats_state_file_failed(void)
{
	bump(&my_counts()->state_file_failures, 1);
	if (sh == NULL)
		return;
	LWLockAcquire(sh->lock, LW_EXCLUSIVE);
	sh->last_failure = GetCurrentTimestamp();
	LWLockRelease(sh->lock);
}

/*
 * Wait events.  From PostgreSQL 17 on, named ones (type Extension).  Before,
 * the closest core events: the state file's fsync is a data file reaching
 * durable storage (IO / DataFileSync), the wait for the next second a timed
 * sleep (Timeout / PgSleep); waiting for another session's reservation, or
 * in line behind other callers, has no core counterpart and stays Extension.
 */
#if PG_VERSION_NUM >= 170000
static const char *const wait_names[IDGEN_NWAITS] = {
	"Base36idStateFileSync", "Base36idReservation", "Base36idNextSecond",
	"Base36idLine"
};
#endif

uint32
idgen_wait_event(idgen_wait w)
{
#if PG_VERSION_NUM >= 170000
	static uint32 ids[IDGEN_NWAITS];

	/* the same name gives the same id in every backend */
	if (ids[w] == 0)
		ids[w] = WaitEventExtensionNew(wait_names[w]);
	return ids[w];
#else
	switch (w)
	{
		case IDGEN_WAIT_STATE_FILE_SYNC:
			return WAIT_EVENT_DATA_FILE_SYNC;
		case IDGEN_WAIT_NEXT_SECOND:
			return WAIT_EVENT_PG_SLEEP;
		case IDGEN_WAIT_RESERVATION:
		case IDGEN_WAIT_LINE:
		case IDGEN_NWAITS:
			break;
	}
	return PG_WAIT_EXTENSION;
#endif
}

/*
 * Shared memory
 */
/* backends, then auxiliary processes (the startup process replays WAL) */
#define NSLOTS (MaxBackends + NUM_AUXILIARY_PROCS)

static Size
stats_size(void)
{
	return add_size(offsetof(stats_shared, slots),
					mul_size(NSLOTS, sizeof(stats_slot)));
}

static void
stats_shmem_init(void *ptr, bool found, LWLockPadded *locks)
{
	int			i;

	sh = ptr;
	if (found)
		return;
	sh->lock = &locks[0].lock;
	sh->nslots = NSLOTS;
	sh->last_second = -1;
	sh->last_lsn = InvalidXLogRecPtr;
	sh->last_at = 0;
	sh->last_ms = 0;
	sh->last_failure = 0;
	counts_init(&sh->total.c);
	for (i = 0; i < sh->nslots; i++)
		counts_init(&sh->slots[i].c);
}

void
idgen_stats_init(void)
{
	idgen_shmem_request_sized("idgen_stats", stats_size, 1, stats_shmem_init);
}

/*
 * The views
 */
void
idgen_stats_view_start(FunctionCallInfo fcinfo, const char *fn, const Oid *types, int ncols)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	TupleDesc	desc;
	bool		ok;
	int			i;

	/*
	 * In a select list there is no column definition list, and a record's
	 * columns are then unknown (InitMaterializedSRF would fail with an
	 * internal error): the view's place is FROM.
	 */
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s() can only be called in FROM, with a column definition list", fn),
				 errhint("Query the view %s.", fn)));
	InitMaterializedSRF(fcinfo, 0);
	/* the caller's column definition list must be the view's */
	desc = rsinfo->setDesc;
	ok = desc->natts == ncols;
	for (i = 0; ok && i < ncols; i++)
		ok = TupleDescAttr(desc, i)->atttypid == types[i];
	if (!ok)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column definition list does not match %s()", fn),
				 errhint("Query the view %s.", fn)));
	if (sh == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("%s requires idgen to be loaded via shared_preload_libraries", fn),
				 errhint("Add idgen to shared_preload_libraries in postgresql.conf and restart the server.")));
}

static const Oid clock_types[] = {
	TEXTOID, INT8OID, INT8OID, INT8OID, INT8OID, INT8OID, INT8OID
};

/* every slot and the total, read under the lock (no exit folds meanwhile) */
static void
sum_counts(stats_counts *sum)
{
	int			i;

	counts_init(sum);
	LWLockAcquire(sh->lock, LW_SHARED);
	counts_add(sum, &sh->total.c);
	for (i = 0; i < sh->nslots; i++)
		counts_add(sum, &sh->slots[i].c);
	LWLockRelease(sh->lock);
}

static int64
count_value(pg_atomic_uint64 *c)
{
	return (int64) Min(pg_atomic_read_u64(c), (uint64) PG_INT64_MAX);
}

static double
ms_value(pg_atomic_uint64 *us)
{
	return pg_atomic_read_u64(us) / 1000.0;
}

void
idgen_stats_get_totals(idgen_stats_totals *t)
{
	stats_counts sum;
	int			w;

	Assert(sh != NULL);
	sum_counts(&sum);
	for (w = 0; w < IDGEN_NWAITS; w++)
	{
		t->waits[w] = count_value(&sum.waits[w]);
		t->wait_ms[w] = ms_value(&sum.wait_us[w]);
	}
	t->reservations = count_value(&sum.reservations);
	t->reservation_ms = ms_value(&sum.reservation_us);
	t->state_file_failures = count_value(&sum.state_file_failures);
	LWLockAcquire(sh->lock, LW_SHARED);
	t->last_second = sh->last_second;
	t->last_lsn = sh->last_lsn;
	t->last_at = sh->last_at;
	t->last_ms = sh->last_ms;
	t->last_failure = sh->last_failure;
	LWLockRelease(sh->lock);
}

PG_FUNCTION_INFO_V1(idgen_stat_clock);
Datum
idgen_stat_clock(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	stats_counts sum;
	int			g;

	idgen_stats_view_start(fcinfo, "idgen_stat_clock", clock_types, lengthof(clock_types));
	sum_counts(&sum);
	for (g = 0; g < IDGEN_NGENS; g++)
	{
		Datum		values[1 + CLK_NFIELDS];
		bool		nulls[1 + CLK_NFIELDS] = {0};
		int			f;

		values[0] = CStringGetTextDatum(gen_names[g]);
		for (f = 0; f < CLK_NFIELDS; f++)
			values[1 + f] = Int64GetDatum(count_value(&sum.clock[g][f]));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
