/*
 * b36sync.h — base36id's reservation protocol with synchronous standbys, as
 * a PostgreSQL-independent state machine: the server's facts (its WAL, the
 * walsenders' positions and priorities, the configuration) are passed in,
 * so that test/sim can run it against simulated servers, standbys, crashes
 * and failovers.
 *
 * The protocol (doc/base36id.md#synchronous-standbys):
 *  - one call at a time reserves a second: its record is written, then
 *    flushed, and only then published (b36s_reserve_logged, b36s_reserved);
 *    the reservation waits for no standby;
 *  - before each id leaves, the call that takes it judges, from the state
 *    the walsenders publish now, whether a commit of the record of the
 *    latest reservation would have returned at the call's level (core's
 *    queue released it) and the standbys that are synchronous now have it
 *    (b36s_judge); if not it waits, alone, and judges again.  Nothing that
 *    was confirmed earlier is remembered: a change of the synchronous set
 *    that leaves the record unconfirmed holds every call until the new set
 *    has it;
 *  - nobody waits for another call's level, and a second is reserved once.
 *
 * Every function is called under the caller's lock of the reservation.
 */
#ifndef IDGEN_CORE_B36SYNC_H
#define IDGEN_CORE_B36SYNC_H

#include <stdbool.h>
#include <stdint.h>

/* levels: the values of PostgreSQL's synchronous_commit (SyncCommitLevel) */
#define B36S_OFF 0
#define B36S_LOCAL 1
#define B36S_WRITE 2
#define B36S_FLUSH 3
#define B36S_APPLY 4

/* how synchronous standbys are chosen: SyncRepConfigData's syncrep_method */
#define B36S_FIRST 0
#define B36S_ANY 1

/* one walsender's slot, as it publishes it */
typedef struct b36s_standby
{
	int32_t		pid;			/* 0: the slot is free */
	bool		streaming;		/* WALSNDSTATE_STREAMING */
	int			priority;		/* sync_standby_priority: 0 not named */
	uint64_t	pos[3];			/* written, flushed, applied; 0 unknown */
} b36s_standby;

/* the facts a judgement is made from */
typedef struct b36s_view
{
	bool		defined;		/* synchronous standbys defined (checkpointer's flag) */
	/*
	 * The caller's own copy of synchronous_standby_names: its method and
	 * number, and whether it is known to be the server's current one (false
	 * while a reload the caller has been told of is not taken in).  Trusted
	 * only in a process that takes reloads in (takes_reloads): a background
	 * worker may ignore SIGHUP, and is then never told.
	 */
	bool		config_current;
	bool		takes_reloads;
	bool		config_empty;
	int			method;
	int			num_sync;
	uint64_t	flushed;		/* WAL flushed locally */
	uint64_t	released[3];	/* core's queue released up to (write, flush, apply) */
	int			n;
	const b36s_standby *standbys;
} b36s_view;

typedef enum b36s_verdict
{
	B36S_CONFIRMED,				/* the id may leave */
	B36S_WAIT_QUEUE,			/* wait in core's queue for the record */
	B36S_WAIT_POLL				/* core's queue is past the record: look again later */
} b36s_verdict;

/* the latest reservation, shared by all calls */
typedef struct b36s_reservation
{
	int64_t		reserved;		/* highest second reserved (published) */
	uint64_t	lsn;			/* end of its record; 0 before the first */
	int64_t		reserving;		/* second a call is reserving, or -1 */
	uint64_t	pending_lsn;	/* its record, logged but not yet flushed */
	uint64_t	reservations;	/* published since start */
	/* used only by mutants (test/sim) */
	uint64_t	sig;
	int			confirmed_level;
} b36s_reservation;

/* one call of the generator */
typedef struct b36s_call
{
	int			level;			/* the level this call asks for */
	bool		reserving;		/* this call is the one reserving */
	b36s_verdict verdict;		/* after B36S_WAIT_STANDBYS: how to wait */
	uint64_t	wait_lsn;		/* after B36S_WAIT_STANDBYS: for which record */
	uint64_t	wait_sig;		/* used only by mutants */
} b36s_call;

typedef enum b36s_step
{
	B36S_HAND_OUT,				/* take the counter, the id leaves */
	B36S_RESERVE,				/* reserve the second (this call now reserves) */
	B36S_WAIT_RESERVATION,		/* another call reserves: wait, then again */
	B36S_WAIT_STANDBYS,			/* wait as call->verdict says, then again */
	B36S_OWN_RECORD				/* the caller cannot know the names in force:
								 * it writes a record of its own, flushes it
								 * (b36s_own_logged), and waits for that */
} b36s_step;

/*
 * The level a call asks for: the floor (idgen.base36id_synchronous_commit),
 * or the session's synchronous_commit if higher; nothing lowers the floor.
 */
static inline int
b36s_level(int floor, int session)
{
	return session > floor ? session : floor;
}

/* before the first reservation; file_second: the state file's (or -1) */
extern void b36s_init(b36s_reservation *r, int64_t file_second);
static inline void
b36s_call_init(b36s_call *c, int level)
{
	c->level = level;
	c->reserving = false;
	c->verdict = B36S_CONFIRMED;
	c->wait_lsn = 0;
	c->wait_sig = 0;
}

/* whether the synchronous standbys now have WAL up to lsn at level */
extern b36s_verdict b36s_judge(const b36s_view *v, uint64_t lsn, int level);

/* what a call that would take a counter of second does next */
extern b36s_step b36s_next(b36s_reservation *r, b36s_call *c, int64_t second,
						   const b36s_view *v);

/* after B36S_OWN_RECORD: the call's own record ends at lsn */
extern void b36s_own_logged(b36s_call *c, uint64_t lsn);

/*
 * After a wait for standbys (B36S_WAIT_STANDBYS): whether the id the call
 * holds may leave now, judged for the record it waited for (c->wait_lsn);
 * B36S_HAND_OUT or B36S_WAIT_STANDBYS again.
 */
extern b36s_step b36s_again(b36s_reservation *r, b36s_call *c, const b36s_view *v);

/* what a wait for standbys does, under core's SyncRepLock */
typedef enum b36s_queue
{
	B36S_QUEUE_JOIN,			/* join core's queue: a walsender wakes it */
	B36S_QUEUE_POLL,			/* nobody will wake it: look again shortly */
	B36S_QUEUE_AGAIN			/* judge again at once */
} b36s_queue;

/*
 * defined and released as core's shared state has them now, saw_released:
 * whether the judgement found core's queue past lsn already (B36S_WAIT_POLL),
 * queued: whether a process waits in the queue for lsn already.
 */
extern b36s_queue b36s_queue_action(bool defined, uint64_t lsn, uint64_t released,
									bool saw_released, bool queued);

/* the reserving call: its record is logged (ends at lsn), then flushed */
extern void b36s_reserve_logged(b36s_reservation *r, b36s_call *c, uint64_t lsn);
extern void b36s_reserved(b36s_reservation *r, b36s_call *c);
/* the reservation failed (an error): another call may try */
extern void b36s_reserve_failed(b36s_reservation *r, b36s_call *c);

/* a hash of the walsenders' slots, pids and priorities (mutants only) */
extern uint64_t b36s_signature(const b36s_view *v);

#endif							/* IDGEN_CORE_B36SYNC_H */
