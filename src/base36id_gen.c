/*
 * base36id_gen.c — the server-wide base36id generator.
 *
 * Counters live in shared memory, one per worker, 1296 per second.  Before
 * the first id of a new second S is handed out, S is reserved:
 *
 *  1. S is written and fsync'd to STATE_FILE, which survives checkpoints
 *     (crash recovery does not replay WAL from before the last checkpoint's
 *     redo pointer; a sequence has its data page for that, we have the file);
 *  2. S is WAL-logged by our resource manager and flushed (XLogFlush), whether
 *     or not the calling transaction ever commits.  Every WAL record written
 *     after the id was handed out follows it, so a standby or a restored base
 *     backup that replays any of them has replayed S too.
 *
 * The file is written before the record is inserted: a base backup whose
 * starting checkpoint comes after the record then copies a file holding S.
 *
 * One backend reserves at a time, with the LWLock released; backends that need
 * the same or a later second wait on a condition variable (cancellably), then
 * retry, and on an error the next one tries again.
 *
 * With synchronous standbys, an id leaves only once the standbys that are
 * synchronous at that moment have the latest reservation's record at the
 * level the call asks for (the floor, idgen.base36id_synchronous_commit, or
 * the session's synchronous_commit if higher), as a commit would wait: a
 * failover to them then never repeats it.  The protocol (who reserves, who
 * waits, what is judged from which facts) is src/core/b36sync.c; the facts
 * come from the walsenders' shared state (base36id_sync.c).  A reservation
 * waits for no standby, and every call waits for its own level, alone.
 *
 * A reservation can take longer than a second (slow storage, a slow standby):
 * the backend that reserved S, and those that waited for it, then hand out
 * ids of S although the clock has moved on, so ids keep coming.  An id's
 * second is then earlier than the moment it is returned by up to the time a
 * reservation takes.
 *
 * When a worker's 1296 ids of the second are used up, callers wait in line
 * for the next second's, first come, first served (base36id_line.h): the
 * first in line sleeps until the clock reaches it, the others until the one
 * before them has its id.  While someone waits, a new caller joins the end
 * of the line rather than take an id, so a caller's wait is bounded by the
 * ids asked before its own.  Nobody waiting, the per-id path only looks at
 * the line (empty) under the lock it takes anyway.
 *
 * Every counter starts used up at "floor": at start, the later of the file's
 * second and the clock; redo raises it to each second replayed, and the first
 * generation after a standby's promotion or the end of a point-in-time
 * recovery (generation is refused during recovery) to the clock's second.
 * So the first id after a restart or promotion comes from a second no id can
 * have been issued in, as far as the file and the replayed WAL tell, whatever
 * was replayed.
 */
#include "base36id_gen.h"
#include "base36id_line.h"
#include "base36id_sync.h"
#include "idgen.h"
#include "shmem.h"
#include "stats.h"

#include <fcntl.h>
#include <unistd.h>

#include "access/xact.h"
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xloginsert.h"
#include "access/xlogreader.h"
#include "access/xlogrecovery.h"
#include "core/base36.h"
#include "miscadmin.h"
#include "port/pg_crc32c.h"
#include "storage/condition_variable.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "utils/wait_event.h"
#ifdef USE_INJECTION_POINTS
#include "utils/injection_point.h"
#endif

/*
 * Injection points at the steps of a call (test/t/045): where the server is
 * configured with --enable-injection-points (17 and later), core's
 * injection_points module can make a backend wait or fail there.  17's
 * INJECTION_POINT takes the name, 18's an argument too; elsewhere (15, 16,
 * a release build) nothing is compiled.  Each runs with no lock held.
 *
 *  idgen-b36-reserved   the call reserved a new second: its record is
 *                       flushed locally and published; not judged yet
 *  idgen-b36-wait       judged unconfirmed for the call: before it waits
 *  idgen-b36-waited     after that wait, before it judges again
 *  idgen-b36-confirmed  judged confirmed: the counter is taken, the id is
 *                       not yet returned to the caller
 */
#ifdef USE_INJECTION_POINTS
#if PG_VERSION_NUM >= 180000
#define IDGEN_INJECTION_POINT(name) INJECTION_POINT(name, NULL)
#else
#define IDGEN_INJECTION_POINT(name) INJECTION_POINT(name)
#endif
#else
#define IDGEN_INJECTION_POINT(name) ((void) 0)
#endif

/*
 * Custom resource managers need an id unique among the extensions a server
 * loads.  190 is not on https://wiki.postgresql.org/wiki/CustomWALResourceManagers
 * (which holds 128 to 140 and 241); the maintainers still have to add it there
 * to reserve it.  Changing it makes WAL written before the change unreadable:
 * only with a clean shutdown (nothing left to replay) and no standby lagging
 * behind.  1.1 is the first release with this resource manager.
 */
#define IDGEN_RMGR_ID 190
#define IDGEN_RMGR_NAME "idgen_base36id"

/* ids of seconds up to and including second may be handed out */
#define XLOG_BASE36ID_RESERVE 0x00

typedef struct xl_base36id_reserve
{
	int64		second;
} xl_base36id_reserve;

/*
 * Replay fsyncs the state file only for seconds at most this far behind the
 * clock: older ones (catching up on WAL, point-in-time recovery) are below the
 * clock already, which the floor never goes under after a restart.  Catch-up
 * then costs no fsync per replayed second.
 */
#define REDO_SYNC_WINDOW_S 60

#define STATE_FILE "idgen_base36id.state"
#define STATE_MAGIC 0x49443337	/* "ID37" */
#define STATE_MAGIC_1_0 0x49443336	/* "ID36": version 1.0, no checksum */

typedef struct state_record
{
	uint32		magic;
	pg_crc32c	crc;			/* of magic and second; 0 in 1.0's files */
	int64		second;			/* highest second ids may have been issued in */
} state_record;

/* what is wrong with the state file read at start */
typedef enum state_problem
{
	STATE_OK = 0,
	STATE_UNREADABLE,
	STATE_SIZE,
	STATE_MAGIC_BAD,
	STATE_CHECKSUM,
	STATE_RANGE
} state_problem;

typedef struct base36id_shared
{
	LWLock	   *lock;
	ConditionVariable reserved_cv;	/* broadcast when a reservation ends */
	int64		floor;			/* counters start used up at this second */
	/* highest second reserved (file and WAL), its record, who reserves */
	b36s_reservation res;
	int64		file_second;	/* highest second written to STATE_FILE */
	bool		archive_recovery;	/* started as a standby or for PITR, and
									 * no id generated since */
	state_problem damaged;		/* the file was damaged at start: refuse */
	b36_state	workers[B36_WORKERS];
} base36id_shared;

static base36id_shared *shared = NULL;

/* seconds since the base36id epoch, floor */
static int64
clock_second(void)
{
	return (int64) (idgen_clock_ms() / 1000) - B36_EPOCH_UNIX_S;
}

static pg_crc32c
state_crc(const state_record *rec)
{
	pg_crc32c	crc;

	INIT_CRC32C(crc);
	COMP_CRC32C(crc, &rec->magic, sizeof(rec->magic));
	COMP_CRC32C(crc, &rec->second, sizeof(rec->second));
	FIN_CRC32C(crc);
	return crc;
}

/*
 * The persisted second into *second (-1 if there is no file: first start);
 * what is wrong with the file otherwise.  Never trusts a value it cannot
 * check: a damaged second could make generation wait for decades.
 */
static state_problem
state_file_read(int64 *second)
{
	state_record rec;
	int			fd = OpenTransientFile(STATE_FILE, O_RDONLY | PG_BINARY);
	char		extra;
	ssize_t		n;

	*second = -1;
	if (fd < 0)
	{
		if (errno == ENOENT)
			return STATE_OK;
		ereport(LOG,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\": %m", STATE_FILE)));
		return STATE_UNREADABLE;
	}
	n = read(fd, &rec, sizeof(rec));
	if (n == sizeof(rec) && read(fd, &extra, 1) != 0)
		n = -2;					/* longer than a record */
	else if (n < 0)
		ereport(LOG,
				(errcode_for_file_access(),
				 errmsg("could not read file \"%s\": %m", STATE_FILE)));
	CloseTransientFile(fd);

	if (n == -1)
		return STATE_UNREADABLE;
	if (n != sizeof(rec))
		return STATE_SIZE;
	if (rec.magic == STATE_MAGIC)
	{
		if (rec.crc != state_crc(&rec))
			return STATE_CHECKSUM;
	}
	else if (rec.magic != STATE_MAGIC_1_0 || rec.crc != 0)
		return STATE_MAGIC_BAD;
	if (rec.second < 0 || rec.second > B36_MAX_SECONDS)
		return STATE_RANGE;
	*second = rec.second;
	return STATE_OK;
}

/*
 * Writes second to STATE_FILE and fsyncs it; reports a failure at elevel and
 * returns false.  A failed fsync is not a PANIC (as data_sync_retry = off
 * would make it): the record is small and rewritten whole before every fsync,
 * so the next successful fsync makes it durable; until then no id of the new
 * second is handed out.
 */
static bool
state_file_write(int64 second, int elevel)
{
	state_record rec = {.magic = STATE_MAGIC,.crc = 0,.second = second};
	int			fd;
	bool		created = false;
	bool		written;
	bool		synced;
	bool		closed;
	int			save_errno;
	instr_time	t0;

	rec.crc = state_crc(&rec);
	fd = OpenTransientFile(STATE_FILE, O_RDWR | PG_BINARY);
	if (fd < 0 && errno == ENOENT)
	{
		fd = OpenTransientFile(STATE_FILE, O_RDWR | O_CREAT | O_EXCL | PG_BINARY);
		created = true;
	}
	if (fd < 0)
	{
		idgen_stats_state_file_failed();
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\": %m", STATE_FILE)));
		return false;
	}
	/* one 16-byte write at offset 0 cannot be torn (as pg_control's) */
	errno = 0;
	idgen_stats_io_start(IDGEN_WAIT_STATE_FILE_SYNC, &t0);
	written = pg_pwrite(fd, &rec, sizeof(rec), 0) == sizeof(rec);
	if (!written && errno == 0)
		errno = ENOSPC;
	synced = written && pg_fsync(fd) == 0;
	save_errno = errno;
	idgen_stats_io_end(IDGEN_WAIT_STATE_FILE_SYNC, &t0);
	closed = CloseTransientFile(fd) == 0;
	if (!synced || !closed)
		idgen_stats_state_file_failed();
	if (!synced)
		errno = save_errno;

	if (!written)
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", STATE_FILE)));
	else if (!synced)
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not fsync file \"%s\": %m", STATE_FILE)));
	else if (!closed)
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not close file \"%s\": %m", STATE_FILE)));
	if (!closed || !synced)
		return false;
	/* a new file's directory entry must survive an OS crash too */
	if (created && fsync_fname_ext(".", true, false, elevel) != 0)
	{
		idgen_stats_state_file_failed();
		return false;
	}
	return true;
}

static int
errdetail_state_problem(state_problem problem)
{
	switch (problem)
	{
		case STATE_UNREADABLE:
			return errdetail("The file could not be read when the server started.");
		case STATE_SIZE:
			return errdetail("The file does not have the expected size of %d bytes.",
							 (int) sizeof(state_record));
		case STATE_MAGIC_BAD:
			return errdetail("The file does not start with idgen's marker.");
		case STATE_CHECKSUM:
			return errdetail("The file's checksum does not match its contents.");
		case STATE_RANGE:
			return errdetail("The second it holds is outside the time span of base36id.");
		case STATE_OK:
			break;
	}
	return 0;
}

static void
report_state_problem(int elevel, state_problem problem)
{
	ereport(elevel,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("base36id state file \"%s\" is damaged", STATE_FILE),
			 errdetail_state_problem(problem),
			 errhint("base36id_generate() refuses to run until the file is valid. Once the clock is past the last second base36ids were issued in, remove the file and restart the server.")));
}

static void
shmem_init(void *ptr, bool found, LWLockPadded *locks)
{
	int64		second;
	state_problem problem;
	int64		hw;
	int			i;

	shared = ptr;
	if (found)
		return;

	problem = state_file_read(&second);
	if (problem != STATE_OK)
		report_state_problem(LOG, problem);

	/* no id may come from a second that may already have been used */
	hw = Max(second, clock_second());
	shared->lock = &locks[0].lock;
	ConditionVariableInit(&shared->reserved_cv);
	shared->floor = hw;
	b36s_init(&shared->res, second);
	shared->file_second = second;
	/* the startup process removes these files when recovery ends */
	shared->archive_recovery = access(STANDBY_SIGNAL_FILE, F_OK) == 0 ||
		access(RECOVERY_SIGNAL_FILE, F_OK) == 0;
	shared->damaged = problem;
	for (i = 0; i < B36_WORKERS; i++)
		b36_state_init(&shared->workers[i], hw);
}

/* the reservation failed: another backend may try */
static void
reservation_failed(int code, Datum arg)
{
	LWLockAcquire(shared->lock, LW_EXCLUSIVE);
	/* only the backend that reserves ends a reservation */
	Assert(shared->res.reserving >= 0);
	b36s_reserve_failed(&shared->res, (b36s_call *) DatumGetPointer(arg));
	LWLockRelease(shared->lock);
	ConditionVariableBroadcast(&shared->reserved_cv);
}

/*
 * Makes second durable, locally and in WAL; called without the LWLock, by
 * the call b36s_next() chose to reserve it.  Published only once the record
 * is flushed; the standbys are waited for by each call, at its own level,
 * before its id leaves.
 */
static void
reserve(int64 second, b36s_call *call)
{
	xl_base36id_reserve xlrec = {.second = second};
	bool		write_file;
	XLogRecPtr	lsn = InvalidXLogRecPtr;
	instr_time	t0;

	/* file and WAL are waited for without the LWLock */
	Assert(!LWLockHeldByMe(shared->lock));
	Assert(second >= 0 && second <= B36_MAX_SECONDS);
	LWLockAcquire(shared->lock, LW_SHARED);
	write_file = second > shared->file_second;
	LWLockRelease(shared->lock);
	INSTR_TIME_SET_CURRENT(t0);
	PG_ENSURE_ERROR_CLEANUP(reservation_failed, PointerGetDatum(call));
	{
		if (write_file)
			(void) state_file_write(second, ERROR);
		XLogBeginInsert();
		XLogRegisterData((char *) &xlrec, sizeof(xlrec));
		lsn = XLogInsert(IDGEN_RMGR_ID, XLOG_BASE36ID_RESERVE);
		LWLockAcquire(shared->lock, LW_EXCLUSIVE);
		b36s_reserve_logged(&shared->res, call, lsn);
		LWLockRelease(shared->lock);
		/* now, not at commit: the id may leave the server without one */
		XLogFlush(lsn);
		idgen_stats_reserved(second, lsn, &t0);
	}
	PG_END_ENSURE_ERROR_CLEANUP(reservation_failed, PointerGetDatum(call));

	LWLockAcquire(shared->lock, LW_EXCLUSIVE);
	/* this backend is the one reserving, and reserves this second */
	Assert(shared->res.reserving == second);
	Assert(second >= shared->floor && second > shared->res.reserved);
	if (write_file)
		shared->file_second = Max(shared->file_second, second);
	b36s_reserved(&shared->res, call);
	LWLockRelease(shared->lock);
	ConditionVariableBroadcast(&shared->reserved_cv);
}

bool
base36id_gen_loaded(void)
{
	return shared != NULL;
}

/* what one pass of gen_loop() ended with */
typedef enum gen_result
{
	GEN_ID,						/* *value is the id */
	GEN_RANGE,					/* the clock is outside base36id's span */
	GEN_LINE					/* the budget is used up or others wait for it */
} gen_result;

/* what a call of base36id_gen_next() keeps across its passes and waits */
typedef struct gen_call
{
	uint64		reservations_at_start;
	bool		first;
	/* its level and what it waits for (src/core/b36sync.h) */
	b36s_call	sync;
} gen_call;

/* what a wait for the budget is for, named in an error that ends it */
typedef struct budget_wait_arg
{
	idgen_wait	what;			/* IDGEN_WAIT_NEXT_SECOND or IDGEN_WAIT_LINE */
	int			worker;
	int			ahead;			/* callers in line before it when it joined */
} budget_wait_arg;

static void
budget_wait_context(void *arg)
{
	budget_wait_arg *w = arg;

	if (w->what == IDGEN_WAIT_LINE)
		errcontext("waiting in line for a base36id of worker %d, %d earlier callers ahead when it joined; no id was handed out",
				   w->worker, w->ahead);
	else
		errcontext("waiting for the next second, the 1296 base36ids of worker %d in this one being used; no id was handed out",
				   w->worker);
}

/*
 * Sleeps until the latch is set or timeout_ms pass, then answers a cancel
 * or shutdown with the wait named in the error's context.
 */
static void
budget_wait(budget_wait_arg *w, long timeout_ms)
{
	ErrorContextCallback errcallback;
	instr_time	t0;

	errcallback.callback = budget_wait_context;
	errcallback.arg = w;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;
	idgen_stats_wait_start(&t0);
	(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
					 timeout_ms, idgen_wait_event(w->what));
	ResetLatch(MyLatch);
	idgen_stats_wait_end(w->what, &t0);
	CHECK_FOR_INTERRUPTS();
	error_context_stack = errcallback.previous;
}

/*
 * Leaves the line, if in it, and wakes whoever became first: when an id was
 * taken, at the clock's end, and on an error or exit while in line.
 */
static void
line_leave(int code, Datum arg)
{
	int			woken;

	LWLockAcquire(shared->lock, LW_EXCLUSIVE);
	woken = base36id_line_leave();
	LWLockRelease(shared->lock);
	base36id_line_wake(woken);
}

/* joins worker's line unless already in it, under the lock */
static void
line_join(budget_wait_arg *wait, int worker)
{
	if (base36id_line_waiting())
		return;
	wait->worker = worker;
	wait->ahead = base36id_line_join(worker);
}

/*
 * Hands out the next id of worker.  in_line false: the per-id path, which
 * returns GEN_LINE rather than wait for the budget (used up, or others wait
 * for it); true: the same, waiting in the worker's line, first come, first
 * served, under the caller's cleanup (line_leave).
 */
static pg_attribute_always_inline gen_result
gen_loop(int worker, int64 *value, gen_call *call, bool in_line)
{
	budget_wait_arg wait;

	for (;;)
	{
		b36_state  *st;
		b36_state	next;
		b36_next_status status;
		int64		second;
		int			counter;
		bool		new_second;
		int64		now;
		int64		wait_for;
		uint64		now_ms;
		long		sleep_ms;

		CHECK_FOR_INTERRUPTS();
		LWLockAcquire(shared->lock, LW_EXCLUSIVE);
		if (shared->damaged != STATE_OK)
		{
			state_problem problem = shared->damaged;

			LWLockRelease(shared->lock);
			report_state_problem(ERROR, problem);
		}
		now_ms = idgen_clock_ms();
		now = (int64) (now_ms / 1000) - B36_EPOCH_UNIX_S;
		/*
		 * The first generation since a standby was promoted (or a backup
		 * restored): its clock's second may also be the last one of an old
		 * primary whose WAL did not arrive.  Skip it, whether or not any WAL
		 * was replayed (rm_cleanup runs only if some was).
		 */
		if (shared->archive_recovery)
		{
			shared->floor = Max(shared->floor, now);
			shared->archive_recovery = false;
		}
		if (call->first)
		{
			call->reservations_at_start = shared->res.reservations;
			call->first = false;
		}
		/*
		 * Others wait for this worker's budget: after them.  Only the first
		 * in line may take an id; the others sleep until the one before
		 * them leaves and wakes them (the timeout is a safety net).
		 */
		if (!base36id_line_empty(worker) &&
			!(in_line && base36id_line_first()))
		{
			if (!in_line)
			{
				LWLockRelease(shared->lock);
				return GEN_LINE;
			}
			line_join(&wait, worker);
			LWLockRelease(shared->lock);
			wait.what = IDGEN_WAIT_LINE;
			budget_wait(&wait, 1000);
			continue;
		}

		/*
		 * A reservation ended during this call: its second may be handed out
		 * even if the clock has moved on (a slow reservation would otherwise
		 * be followed by another, forever).
		 */
		if (shared->res.reservations > call->reservations_at_start)
			now = Min(now, shared->res.reserved);
		st = &shared->workers[worker];
		if (st->second < shared->floor)
			b36_state_init(st, shared->floor);
		next = *st;
		status = b36_state_next(&next, now, &second, &counter, &new_second);
		Assert(LWLockHeldByMeInMode(shared->lock, LW_EXCLUSIVE));
		Assert(st->second >= shared->floor);
		Assert(st->next >= 0 && st->next <= B36_COUNTERS);
		if (status == B36_NEXT_OK)
		{
			b36s_view	view;
			b36s_step	step;

			base36id_sync_view(&view);
			step = b36s_next(&shared->res, &call->sync, next.second, &view);
			if (step == B36S_HAND_OUT)
			{
				/* a counter of a reserved second, used once */
				int			woken = -1;

				Assert(counter >= 0 && counter < B36_COUNTERS);
				Assert(second == next.second && second >= st->second);
				Assert(next.next >= 1 && next.next <= B36_COUNTERS);
				Assert(second > st->second || counter >= st->next);
				/* every second handed out was reserved since the start */
				Assert(XLogRecPtrIsValid(shared->res.lsn));
				*st = next;
				/* served: the next in line is first now */
				if (in_line)
					woken = base36id_line_leave();
				LWLockRelease(shared->lock);
				base36id_line_wake(woken);
				*value = b36_compose(second, worker, counter);
				IDGEN_INJECTION_POINT("idgen-b36-confirmed");
				return GEN_ID;
			}
			if (step == B36S_RESERVE)
			{
				/* a new second: reserve it, then try again */
				LWLockRelease(shared->lock);
				reserve(next.second, &call->sync);
				IDGEN_INJECTION_POINT("idgen-b36-reserved");
				continue;
			}
			if (step == B36S_WAIT_STANDBYS)
			{
				/* not confirmed for this call yet: it waits, alone */
				XLogRecPtr	lsn = call->sync.wait_lsn;

				LWLockRelease(shared->lock);
				IDGEN_INJECTION_POINT("idgen-b36-wait");
				if (call->sync.level > SYNCHRONOUS_COMMIT_LOCAL_FLUSH)
					base36id_sync_wait(lsn, call->sync.level, next.second,
									   call->sync.verdict == B36S_WAIT_POLL);
				else
					XLogFlush(lsn);
				IDGEN_INJECTION_POINT("idgen-b36-waited");
				continue;
			}
		}
		if (status == B36_NEXT_OK)
		{
			/* another backend is reserving: wait for it to finish */
			instr_time	t0;

			ConditionVariablePrepareToSleep(&shared->reserved_cv);
			LWLockRelease(shared->lock);
			idgen_stats_wait_start(&t0);
			ConditionVariableSleep(&shared->reserved_cv,
								   idgen_wait_event(IDGEN_WAIT_RESERVATION));
			ConditionVariableCancelSleep();
			idgen_stats_wait_end(IDGEN_WAIT_RESERVATION, &t0);
			continue;
		}
		if (status == B36_NEXT_RANGE)
		{
			/* whoever follows in line finds the same and leaves too */
			int			woken = in_line ? base36id_line_leave() : -1;

			LWLockRelease(shared->lock);
			base36id_line_wake(woken);
			return GEN_RANGE;
		}
		/* used up: wait for the next second, first in line */
		if (!in_line)
		{
			LWLockRelease(shared->lock);
			return GEN_LINE;
		}
		line_join(&wait, worker);
		/* from now on only a new second will do */
		call->reservations_at_start = shared->res.reservations;
		wait_for = st->second + 1;
		LWLockRelease(shared->lock);

		/* sleep until the clock reaches the next second, or a cancel */
		sleep_ms = (long) ((wait_for + B36_EPOCH_UNIX_S) * 1000 - (int64) now_ms);
		sleep_ms = Max(1, Min(sleep_ms, 1000));
		wait.what = IDGEN_WAIT_NEXT_SECOND;
		budget_wait(&wait, sleep_ms);
	}
}

/*
 * The rest of a call that has to wait for the budget, in line.  Apart from
 * base36id_gen_next(): its setjmp() would cost the per-id path.
 */
static pg_noinline bool
gen_next_in_line(int worker, int64 *value, gen_call *call)
{
	gen_result	result;

	/*
	 * First come, first served.  A backend that leaves on an error, a cancel
	 * or at exit leaves the line, and wakes the next one if it was first.
	 */
	base36id_line_ready();
	PG_ENSURE_ERROR_CLEANUP(line_leave, (Datum) 0);
	{
		result = gen_loop(worker, value, call, true);
	}
	PG_END_ENSURE_ERROR_CLEANUP(line_leave, (Datum) 0);
	/* every way out of the loop left the line */
	Assert(!base36id_line_waiting());
	return result == GEN_ID;
}

bool
base36id_gen_next(int worker, int64 *value)
{
	gen_call	call = {.reservations_at_start = 0,.first = true};
	gen_result	result;

	Assert(shared != NULL && worker >= 0 && worker < B36_WORKERS);

	/* as nextval(): a standby's ids would repeat its primary's */
	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("cannot execute %s during recovery", "base36id_generate()"),
				 errhint("Generate base36id values on the primary server.")));

	b36s_call_init(&call.sync, base36id_sync_level());
	result = gen_loop(worker, value, &call, false);
	/* the budget is used up, or others wait for it */
	if (unlikely(result == GEN_LINE))
		return gen_next_in_line(worker, value, &call);
	return result == GEN_ID;
}

/* makes the state file hold the floor, in redo; the caller holds no lock */
static void
redo_write_floor(void)
{
	int64		floor;

	LWLockAcquire(shared->lock, LW_EXCLUSIVE);
	floor = shared->floor;
	LWLockRelease(shared->lock);

	/*
	 * ERROR, a FATAL in the startup process: recovery stops, as when core
	 * cannot write its own files, before a restartpoint can pass the record,
	 * and the next start replays it again.
	 */
	(void) state_file_write(floor, ERROR);

	LWLockAcquire(shared->lock, LW_EXCLUSIVE);
	shared->file_second = Max(shared->file_second, floor);
	LWLockRelease(shared->lock);
}

/*
 * Redo, on a standby, in crash recovery and when a base backup is restored:
 * no id may come from a second the primary reserved.  The file keeps recent
 * seconds across this server's restarts, as on the primary (see
 * REDO_SYNC_WINDOW_S).  A damaged file is left alone for the administrator
 * to look at.
 */
static void
base36id_redo(XLogReaderState *record)
{
	uint8		info = XLogRecGetInfo(record) & ~XLR_INFO_MASK;
	xl_base36id_reserve xlrec;
	bool		recent;
	bool		write_file;

	/* another extension's record on our id, or a damaged one */
	if (info != XLOG_BASE36ID_RESERVE || XLogRecGetDataLen(record) != sizeof(xlrec))
		ereport(FATAL,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid WAL record of resource manager %s (id %d) at %X/%X",
						IDGEN_RMGR_NAME, IDGEN_RMGR_ID,
						LSN_FORMAT_ARGS(record->ReadRecPtr)),
				 errdetail("Info 0x%02X, %u bytes of data; idgen writes info 0x%02X with %d bytes.",
						   info, XLogRecGetDataLen(record),
						   XLOG_BASE36ID_RESERVE, (int) sizeof(xlrec)),
				 errhint("Another preloaded extension may use WAL resource manager id %d.",
						 IDGEN_RMGR_ID)));
	memcpy(&xlrec, XLogRecGetData(record), sizeof(xlrec));
	if (xlrec.second < 0 || xlrec.second > B36_MAX_SECONDS)
		ereport(FATAL,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid WAL record of resource manager %s (id %d) at %X/%X",
						IDGEN_RMGR_NAME, IDGEN_RMGR_ID,
						LSN_FORMAT_ARGS(record->ReadRecPtr)),
				 errdetail("Second " INT64_FORMAT " is outside the time span of base36id (0 to " INT64_FORMAT ").",
						   xlrec.second, (int64) B36_MAX_SECONDS)));

	LWLockAcquire(shared->lock, LW_EXCLUSIVE);
	shared->floor = Max(shared->floor, xlrec.second);
	recent = xlrec.second >= clock_second() - REDO_SYNC_WINDOW_S;
	write_file = xlrec.second > shared->file_second && shared->damaged == STATE_OK && recent;
	LWLockRelease(shared->lock);

	if (write_file)
		redo_write_floor();

	/*
	 * A primary's session may wait for the replay of any reservation
	 * (remote_apply), however old its second is by this clock (lag,
	 * recovery_min_apply_delay, a clock ahead): tell it now, as the replay of
	 * a commit that asks for it does, not at the next status message
	 * (wal_receiver_status_interval).  At most one reply per replayed second.
	 */
	XLogRequestWalReceiverReply();
}

/*
 * End of redo, when something was replayed: the seconds replayed without a
 * write (older than REDO_SYNC_WINDOW_S) go to the file once.
 */
static void
base36id_redo_end(void)
{
	bool		write_file;

	LWLockAcquire(shared->lock, LW_EXCLUSIVE);
	write_file = shared->floor > shared->file_second && shared->damaged == STATE_OK;
	LWLockRelease(shared->lock);
	if (write_file)
		redo_write_floor();
}

static void
base36id_desc(StringInfo buf, XLogReaderState *record)
{
	uint8		info = XLogRecGetInfo(record) & ~XLR_INFO_MASK;
	xl_base36id_reserve xlrec;

	if (info != XLOG_BASE36ID_RESERVE)
		return;
	memcpy(&xlrec, XLogRecGetData(record), sizeof(xlrec));
	appendStringInfo(buf, "second " INT64_FORMAT, xlrec.second);
}

static const char *
base36id_identify(uint8 info)
{
	if ((info & ~XLR_INFO_MASK) == XLOG_BASE36ID_RESERVE)
		return "RESERVE";
	return NULL;
}

static RmgrData base36id_rmgr = {
	.rm_name = IDGEN_RMGR_NAME,
	.rm_redo = base36id_redo,
	.rm_desc = base36id_desc,
	.rm_identify = base36id_identify,
	.rm_startup = NULL,
	.rm_cleanup = base36id_redo_end,
	.rm_mask = NULL,
	.rm_decode = NULL,			/* nothing for logical decoding */
};

void
base36id_gen_init(void)
{
	base36id_sync_init();
	base36id_line_init();
	idgen_shmem_request("idgen_base36id", sizeof(base36id_shared), 1, shmem_init);
	if (process_shared_preload_libraries_in_progress)
		RegisterCustomRmgr(IDGEN_RMGR_ID, &base36id_rmgr);
}

/*
 * Monitoring (the view, in base36id.c): a copy of the state, consistent under the lock.
 */
static const char *
state_problem_name(state_problem problem)
{
	switch (problem)
	{
		case STATE_OK:
			break;
		case STATE_UNREADABLE:
			return "unreadable";
		case STATE_SIZE:
			return "wrong size";
		case STATE_MAGIC_BAD:
			return "bad marker";
		case STATE_CHECKSUM:
			return "checksum mismatch";
		case STATE_RANGE:
			return "second out of range";
	}
	return "ok";
}

bool
base36id_gen_snapshot(int worker, base36id_gen_snap *snap)
{
	if (shared == NULL)
		return false;
	LWLockAcquire(shared->lock, LW_SHARED);
	snap->floor = shared->floor;
	snap->reserved = shared->res.reserved;
	snap->file_second = shared->file_second;
	snap->state_file = shared->damaged != STATE_OK ? state_problem_name(shared->damaged) :
		shared->file_second < 0 ? "missing" : "ok";
	snap->worker_second = -1;
	snap->worker_used = -1;
	if (worker >= 0 && worker < B36_WORKERS)
	{
		b36_state  *st = &shared->workers[worker];

		/* as base36id_gen_next() sees it: below the floor it starts used up */
		snap->worker_second = Max(st->second, shared->floor);
		snap->worker_used = st->second < shared->floor ? B36_COUNTERS : st->next;
	}
	snap->clock_second = clock_second();
	LWLockRelease(shared->lock);
	return true;
}
