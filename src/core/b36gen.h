/*
 * b36gen.h — base36id's whole generation path as one PostgreSQL-independent
 * state machine: the floor, the per-worker counters and their per-second
 * budget, the line of callers waiting for it, the reservation of a new
 * second, the judgement of synchronous standbys (b36sync.h) and what every
 * call waits for.
 *
 * The caller keeps b36g_shared in shared memory, calls every function here
 * under one lock of its own, exclusive, and performs what a step asks for
 * (a b36g_req) without that lock: a state-file write, a WAL insert or flush,
 * a sleep.  Then it steps again.  src/base36id_gen.c does so in the server,
 * test/sim/sim_b36gen.c against a simulated one: the decisions are here
 * once, for both.
 *
 * A call (doc/base36id.md):
 *  - takes a counter of the worker's current second unless others wait in
 *    the worker's line, whom it joins at the end; the first in line takes
 *    one when the budget allows, leaves the line and hands the turn on;
 *  - before the first counter of a new second, reserves it (one call at a
 *    time; the others wait for that reservation): state file, WAL record,
 *    flush, then published;
 *  - judges whether the standbys synchronous now have the latest
 *    reservation's record at its level; if not, it takes its counter all
 *    the same, leaves the line and waits for them on its own, holding that
 *    id: nobody waits behind a standby wait, and a wait that is cancelled
 *    leaves a gap in the counters, never an id used twice.
 */
#ifndef IDGEN_CORE_B36GEN_H
#define IDGEN_CORE_B36GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "b36sync.h"
#include "base36.h"
#include "waitline.h"

/*
 * Replay writes the state file only for seconds at most this far behind the
 * clock: older ones (catching up on WAL, point-in-time recovery) are below
 * the clock already, which the floor never goes under after a restart.
 */
#define B36G_REDO_WINDOW_S 60

/* how long a wait for the budget sleeps at most before it looks again */
#define B36G_LINE_SLEEP_MS 1000

/* the state shared by every call, under the caller's lock */
typedef struct b36g_shared
{
	int64_t		floor;			/* counters start used up at this second */
	int64_t		file_second;	/* highest second in the state file, -1: none */
	bool		archive_recovery;	/* started as a standby or for PITR, and
									 * no id generated since */
	int			damaged;		/* the state file is damaged (the caller's
								 * code of what is wrong), 0: it is not */
	int			budget;			/* ids a second per worker: B36_COUNTERS */
	b36s_reservation res;		/* the latest reservation, who reserves */
	b36_state	workers[B36_WORKERS];
	wl_line		lines[B36_WORKERS];
} b36g_shared;

/* the machine: the shared state and the line's members (one per process) */
typedef struct b36g
{
	b36g_shared *sh;
	wl_node    *members;
	int			nmembers;
} b36g;

/* what a step asks the caller to do next, without the lock */
typedef enum b36g_req
{
	B36G_ID,					/* done: the id is c->id */
	B36G_RANGE,					/* done, no id: the clock is outside the span */
	B36G_DAMAGED,				/* done, no id: the state file is damaged */
	B36G_WRITE_FILE,			/* write c->second to the state file, fsync it */
	B36G_LOG,					/* insert a record reserving c->second, then
								 * b36g_logged() with its end */
	B36G_FLUSH,					/* flush WAL up to c->lsn */
	B36G_RESERVED,				/* the reservation is published: wake the
								 * calls waiting for one */
	B36G_WAIT_RESERVATION,		/* sleep until a reservation ends */
	B36G_WAIT_LINE,				/* sleep until woken, or c->sleep_ms */
	B36G_WAIT_CLOCK,			/* sleep until the next second, c->sleep_ms,
								 * or woken */
	B36G_WAIT_FLUSH,			/* the id held waits for the local flush of
								 * c->lsn (a call at local or off) */
	B36G_WAIT_STANDBYS			/* the id held waits for c->lsn at
								 * c->sync.level, as c->sync.verdict says
								 * (b36s_queue_action) */
} b36g_req;

/* one call of the generator, in the calling process's memory */
typedef struct b36g_call
{
	int			worker;			/* 0 .. B36_WORKERS - 1 */
	int			member;			/* the process's place in the lines */
	int			phase;			/* where the call is (b36gen.c) */
	bool		started;		/* it has looked at the reservations */
	uint64_t	reservations_at_start;
	b36s_call	sync;			/* its level and what it waits for */
	int64_t		second;			/* reserved, or of the id it holds */
	bool		wrote_file;		/* its reservation wrote the state file */
	uint64_t	lsn;			/* what B36G_FLUSH or a standby wait is for */
	int64_t		id;				/* the id, once taken */
	long		sleep_ms;		/* B36G_WAIT_LINE, B36G_WAIT_CLOCK: at most */
	int			ahead;			/* in line: callers before it when it joined */
	/* after every step and b36g_abandon(): without the lock, wake this one */
	int			wake;
} b36g_call;

/* the facts of a standby judgement, read when a step needs them */
typedef void (*b36g_view_fn) (void *arg, b36s_view *v);

/*
 * At start, before any call: file_second is the state file's (or -1),
 * clock_second the clock's (seconds since base36id's epoch), budget the ids
 * a second (B36_COUNTERS; the simulation uses fewer).
 */
extern void b36g_start(b36g *g, int64_t file_second, int64_t clock_second,
					   bool archive_recovery, int damaged, int budget);

/*
 * Replay of a record reserving second, at clock_second: the second the
 * state file must get now (the floor), or -1.
 */
extern int64_t b36g_redo(b36g *g, int64_t second, int64_t clock_second);

/* the end of replay: the second the state file must get (the floor), or -1 */
extern int64_t b36g_redo_end(b36g *g);

/* the state file holds second (written by replay, or at its end) */
extern void b36g_file_written(b36g *g, int64_t second);

/* a new call of worker by member, at level (a synchronous_commit value) */
static inline void
b36g_call_init(b36g_call *c, int worker, int member, int level)
{
	c->worker = worker;
	c->member = member;
	c->phase = 0;
	c->started = false;
	c->reservations_at_start = 0;
	b36s_call_init(&c->sync, level);
	c->second = -1;
	c->wrote_file = false;
	c->lsn = 0;
	c->id = -1;
	c->sleep_ms = 0;
	c->ahead = 0;
	c->wake = -1;
}

/*
 * One step of call c at clock now_ms (milliseconds since 1970): what to do
 * next.  read_view gives the standbys' facts when the step needs them.
 */
extern b36g_req b36g_step(b36g *g, b36g_call *c, uint64_t now_ms,
						  b36g_view_fn read_view, void *view_arg);

/* after B36G_LOG: the record ends at lsn; returns B36G_FLUSH */
extern b36g_req b36g_logged(b36g *g, b36g_call *c, uint64_t lsn);

/*
 * The call ends on an error, a cancel or its process's exit, wherever it
 * is: it leaves its line, gives up a reservation it makes.  Returns whether
 * the calls waiting for a reservation must be woken.
 */
extern bool b36g_abandon(b36g *g, b36g_call *c);

/* whether c waits in a line (every way out of a call leaves it) */
extern bool b36g_in_line(const b36g *g, const b36g_call *c);

/* monitoring: worker's second in use and the counters of it used */
extern void b36g_worker_state(const b36g *g, int worker, int64_t *second, int *used);

#endif							/* IDGEN_CORE_B36GEN_H */
