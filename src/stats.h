/*
 * stats.h — server-wide monitoring of idgen: the generators' clock events,
 * base36id's waits and reservations, and the wait events they report.
 *
 * Counters are kept per backend, in that backend's own slot of a shared
 * array, and written only by their owner and only when something happens (a
 * clock event, a wait, a reservation): the per-id path stays free of shared
 * writes.  A reader sums the slots; a backend that exits folds its slot into
 * a total first.  Without shared_preload_libraries a backend counts into a
 * private slot that nobody reads.
 */
#ifndef IDGEN_STATS_H
#define IDGEN_STATS_H

#include "postgres.h"

#include "access/xlogdefs.h"
#include "datatype/timestamp.h"
#include "fmgr.h"
#include "portability/instr_time.h"

/* the generators whose clock events are counted */
typedef enum idgen_clock_gen
{
	IDGEN_GEN_IUID = 0,
	IDGEN_GEN_FLAXID,
	IDGEN_GEN_DISTID,
	IDGEN_GEN_DISTID128,
	IDGEN_GEN_DISTID_DENSE,		/* distid_generate_dense(): iuid's scheme */
	IDGEN_NGENS
} idgen_clock_gen;

/* what base36id waits for, as wait events */
typedef enum idgen_wait
{
	IDGEN_WAIT_STATE_FILE_SYNC = 0,	/* writing and fsyncing the state file */
	IDGEN_WAIT_RESERVATION,		/* another session reserving the second */
	IDGEN_WAIT_NEXT_SECOND,		/* all 1296 ids of the second are used */
	IDGEN_WAIT_LINE,			/* in line behind earlier callers for them */
	IDGEN_NWAITS
} idgen_wait;

/* from _PG_init */
extern void idgen_stats_init(void);

extern void idgen_stats_clock_event(idgen_clock_gen gen, int64 now, int64 prev, int64 id);

/*
 * After each id from the clock: now is the clock reading, prev the time of
 * the generator's previous id and id that of the new one, all in the same
 * unit.  The generators never stamp an id before the clock (id >= now): an
 * id at the clock, not before the last one, is the ordinary case, and costs
 * two comparisons.  Anything else (an id ahead of the clock, a clock behind
 * the last id) is written down.
 */
static inline void
idgen_stats_clock(idgen_clock_gen gen, int64 now, int64 prev, int64 id)
{
	if (unlikely(id != now || now < prev))
		idgen_stats_clock_event(gen, now, prev, id);
}

/* the wait event to report for w: a named one from PostgreSQL 17 on */
extern uint32 idgen_wait_event(idgen_wait w);

/* a timed wait of base36id: start, then end (counted and timed) */
static inline void
idgen_stats_wait_start(instr_time *t)
{
	INSTR_TIME_SET_CURRENT(*t);
}
extern void idgen_stats_wait_end(idgen_wait w, const instr_time *start);

/* the same around I/O, which also reports the wait event itself */
extern void idgen_stats_io_start(idgen_wait w, instr_time *t);
extern void idgen_stats_io_end(idgen_wait w, const instr_time *start);

/* base36id reserved second (its WAL record flushed up to lsn) since start */
extern void idgen_stats_reserved(int64 second, XLogRecPtr lsn, const instr_time *start);

/* writing the state file failed */
extern void idgen_stats_state_file_failed(void);

/*
 * The views.  A view's function starts with idgen_stats_view_start(): it
 * refuses a call outside FROM and a column definition list other than the
 * view's (the ncols column types), requires shared memory, and sets up
 * rsinfo->setResult and setDesc for the rows.
 */
extern void idgen_stats_view_start(FunctionCallInfo fcinfo, const char *fn,
								   const Oid *types, int ncols);

/* the counters summed over all backends since the server started */
typedef struct idgen_stats_totals
{
	int64		waits[IDGEN_NWAITS];
	double		wait_ms[IDGEN_NWAITS];
	int64		reservations;
	double		reservation_ms;
	int64		state_file_failures;
	int64		last_second;	/* the last reservation, -1: none */
	XLogRecPtr	last_lsn;
	TimestampTz last_at;		/* 0: none */
	double		last_ms;
	TimestampTz last_failure;	/* of a state file write, 0: none */
} idgen_stats_totals;

/* after idgen_stats_view_start() */
extern void idgen_stats_get_totals(idgen_stats_totals *t);

#endif							/* IDGEN_STATS_H */
