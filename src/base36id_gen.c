/*
 * base36id_gen.c — the server-wide base36id generator: what the state
 * machine of src/core/b36gen.c asks for, performed in the server.
 *
 * The machine decides (the line, the counters and their budget, the floor,
 * the reservation of a new second, the judgement of synchronous standbys,
 * what each call waits for; doc/base36id.md says what they do); this file
 * keeps its state in shared memory under one LWLock and performs its
 * requests without the lock:
 *
 *  - the state file STATE_FILE, written and fsync'd before the reservation
 *    record of a new second S is inserted: it survives checkpoints (crash
 *    recovery does not replay WAL from before the last checkpoint's redo
 *    pointer; a sequence has its data page for that, we have the file), and
 *    a base backup whose starting checkpoint comes after the record copies
 *    a file holding S;
 *  - the record, WAL-logged by our resource manager and flushed, whether or
 *    not the calling transaction ever commits: every WAL record written
 *    after an id was handed out follows it, so a standby or a restored base
 *    backup that replays any of them has replayed S too;
 *  - the waits: for a reservation (a condition variable), for the budget
 *    (the process latch, set by the call before it in line), for
 *    synchronous standbys (core's queue, base36id_sync.c); each answers a
 *    cancel and a shutdown, and a call that ends in an error leaves its
 *    line and gives up its reservation (call_abandon);
 *  - redo, which raises the floor to each second replayed and keeps recent
 *    ones in the standby's own state file.
 */
#include "base36id_gen.h"
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
#include "core/b36gen.h"
#include "miscadmin.h"
#include "port/pg_crc32c.h"
#include "storage/condition_variable.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
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
 *  idgen-b36-wait       judged unconfirmed for the call: it holds its
 *                       counter, has left the line, and is about to wait
 *  idgen-b36-waited     after that wait, before it judges again
 *  idgen-b36-confirmed  judged confirmed: the id is not yet returned to
 *                       the caller
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
	b36g_shared gen;			/* the generator's state (src/core/b36gen.h) */
	int			nmembers;
	wl_node		members[FLEXIBLE_ARRAY_MEMBER];	/* the lines' nodes, by proc number */
} base36id_shared;

static base36id_shared *shared = NULL;

/* the machine, over this process's mapping of shared */
static b36g machine;

/* every process that can run SQL has a proc number below this */
#define NMEMBERS (MaxBackends + NUM_AUXILIARY_PROCS)

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

static Size
shmem_size(void)
{
	return add_size(offsetof(base36id_shared, members),
					mul_size(NMEMBERS, sizeof(wl_node)));
}

static void
shmem_init(void *ptr, bool found, LWLockPadded *locks)
{
	int64		second;
	state_problem problem;
	bool		archive_recovery;

	shared = ptr;
	machine.sh = &shared->gen;
	machine.members = shared->members;
	if (found)
	{
		machine.nmembers = shared->nmembers;
		return;
	}

	problem = state_file_read(&second);
	if (problem != STATE_OK)
		report_state_problem(LOG, problem);
	shared->lock = &locks[0].lock;
	ConditionVariableInit(&shared->reserved_cv);
	shared->nmembers = machine.nmembers = NMEMBERS;
	/* the startup process removes these files when recovery ends */
	archive_recovery = access(STANDBY_SIGNAL_FILE, F_OK) == 0 ||
		access(RECOVERY_SIGNAL_FILE, F_OK) == 0;
	b36g_start(&machine, second, clock_second(), archive_recovery, (int) problem,
			   B36_COUNTERS);
}

bool
base36id_gen_loaded(void)
{
	return shared != NULL;
}

/* this backend's place in the lines, checked once, outside the lock */
static int
my_member(void)
{
	static int	member = -1;

	if (unlikely(member < 0))
	{
#if PG_VERSION_NUM >= 170000
		int			m = MyProcNumber;
#else
		int			m = MyProc->pgprocno;
#endif

		if (m < 0 || m >= shared->nmembers)
			elog(ERROR, "process number %d has no place in base36id's line", m);
		member = m;
	}
	return member;
}

/* wakes member (a proc number) that became first in its line, if any */
static inline void
wake(int member)
{
	if (unlikely(member >= 0))
		SetLatch(&GetPGProcByNumber(member)->procLatch);
}

/*
 * One step of the call under the lock (src/core/b36gen.c decides), and the
 * wake-up it asks for after.  A wait for a reservation is prepared under
 * the lock, so that the reservation's end cannot come between.
 */
static pg_attribute_always_inline b36g_req
step(b36g_call *c)
{
	b36g_req	req;

	LWLockAcquire(shared->lock, LW_EXCLUSIVE);
	req = b36g_step(&machine, c, idgen_clock_ms(), base36id_sync_view, NULL);
	if (req == B36G_WAIT_RESERVATION)
		ConditionVariablePrepareToSleep(&shared->reserved_cv);
	LWLockRelease(shared->lock);
	wake(c->wake);
	return req;
}

/* the call ends on an error or at exit: out of its line and its reservation */
static void
call_abandon(int code, Datum arg)
{
	b36g_call  *c = (b36g_call *) DatumGetPointer(arg);
	bool		reservation_ended;

	LWLockAcquire(shared->lock, LW_EXCLUSIVE);
	reservation_ended = b36g_abandon(&machine, c);
	LWLockRelease(shared->lock);
	wake(c->wake);
	if (reservation_ended)
		ConditionVariableBroadcast(&shared->reserved_cv);
}

/* the reservation's WAL record: ids of second up to it may be handed out */
static XLogRecPtr
log_reservation(int64 second)
{
	xl_base36id_reserve xlrec = {.second = second};

	Assert(second >= 0 && second <= B36_MAX_SECONDS);
	XLogBeginInsert();
	XLogRegisterData((char *) &xlrec, sizeof(xlrec));
	return XLogInsert(IDGEN_RMGR_ID, XLOG_BASE36ID_RESERVE);
}

/* what a wait for the budget is for, named in an error that ends it */
typedef struct budget_wait_arg
{
	const b36g_call *call;
	idgen_wait	what;			/* IDGEN_WAIT_NEXT_SECOND or IDGEN_WAIT_LINE */
} budget_wait_arg;

static void
budget_wait_context(void *arg)
{
	budget_wait_arg *w = arg;

	if (w->what == IDGEN_WAIT_LINE)
		errcontext("waiting in line for a base36id of worker %d, %d earlier callers ahead when it joined; no id was handed out",
				   w->call->worker, w->call->ahead);
	else
		errcontext("waiting for the next second, the 1296 base36ids of worker %d in this one being used; no id was handed out",
				   w->call->worker);
}

/*
 * Sleeps until the latch is set or c->sleep_ms pass, then answers a cancel
 * or shutdown with the wait named in the error's context.
 */
static void
budget_wait(const b36g_call *c, idgen_wait what)
{
	budget_wait_arg w = {.call = c,.what = what};
	ErrorContextCallback errcallback;
	instr_time	t0;

	errcallback.callback = budget_wait_context;
	errcallback.arg = &w;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;
	idgen_stats_wait_start(&t0);
	(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
					 c->sleep_ms, idgen_wait_event(what));
	ResetLatch(MyLatch);
	idgen_stats_wait_end(what, &t0);
	CHECK_FOR_INTERRUPTS();
	error_context_stack = errcallback.previous;
}

/*
 * The rest of a call that did not get its id at the first step: it performs
 * what each step asks for until the machine says it is done.  Apart from
 * base36id_gen_next(): its setjmp() would cost the per-id path.
 */
static pg_noinline bool
gen_next_slow(b36g_call *c, b36g_req req, int64 *value)
{
	bool		done = false;
	instr_time	t0;

	INSTR_TIME_SET_ZERO(t0);
	PG_ENSURE_ERROR_CLEANUP(call_abandon, PointerGetDatum(c));
	{
		while (req != B36G_ID && req != B36G_RANGE)
		{
			switch (req)
			{
				case B36G_ID:
				case B36G_RANGE:
					break;
				case B36G_DAMAGED:
					report_state_problem(ERROR, (state_problem) shared->gen.damaged);
					break;
				case B36G_WRITE_FILE:
					INSTR_TIME_SET_CURRENT(t0);
					(void) state_file_write(c->second, ERROR);
					break;
				case B36G_LOG:
					{
						XLogRecPtr	lsn;

						if (!c->wrote_file)
							INSTR_TIME_SET_CURRENT(t0);
						lsn = log_reservation(c->second);
						LWLockAcquire(shared->lock, LW_EXCLUSIVE);
						req = b36g_logged(&machine, c, lsn);
						LWLockRelease(shared->lock);
						continue;
					}
				case B36G_FLUSH:
					/* now, not at commit: the id may leave the server without one */
					XLogFlush(c->lsn);
					break;
				case B36G_RESERVED:
					ConditionVariableBroadcast(&shared->reserved_cv);
					idgen_stats_reserved(c->second, c->lsn, &t0);
					IDGEN_INJECTION_POINT("idgen-b36-reserved");
					break;
				case B36G_WAIT_RESERVATION:
					{
						instr_time	w0;

						idgen_stats_wait_start(&w0);
						ConditionVariableSleep(&shared->reserved_cv,
											   idgen_wait_event(IDGEN_WAIT_RESERVATION));
						ConditionVariableCancelSleep();
						idgen_stats_wait_end(IDGEN_WAIT_RESERVATION, &w0);
						break;
					}
				case B36G_WAIT_LINE:
					budget_wait(c, IDGEN_WAIT_LINE);
					break;
				case B36G_WAIT_CLOCK:
					budget_wait(c, IDGEN_WAIT_NEXT_SECOND);
					break;
				case B36G_WAIT_FLUSH:
					IDGEN_INJECTION_POINT("idgen-b36-wait");
					XLogFlush(c->lsn);
					IDGEN_INJECTION_POINT("idgen-b36-waited");
					break;
				case B36G_WAIT_STANDBYS:
					IDGEN_INJECTION_POINT("idgen-b36-wait");
					base36id_sync_wait(c->lsn, c->sync.level, c->second,
									   c->sync.verdict == B36S_WAIT_POLL);
					IDGEN_INJECTION_POINT("idgen-b36-waited");
					break;
			}
			CHECK_FOR_INTERRUPTS();
			req = step(c);
		}
		done = req == B36G_ID;
	}
	PG_END_ENSURE_ERROR_CLEANUP(call_abandon, PointerGetDatum(c));
	/* every way out of a call left the line */
	Assert(!b36g_in_line(&machine, c));
	if (done)
	{
		*value = c->id;
		IDGEN_INJECTION_POINT("idgen-b36-confirmed");
	}
	return done;
}

bool
base36id_gen_next(int worker, int64 *value)
{
	b36g_call	call;
	b36g_req	req;

	Assert(shared != NULL && worker >= 0 && worker < B36_WORKERS);

	/* as nextval(): a standby's ids would repeat its primary's */
	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("cannot execute %s during recovery", "base36id_generate()"),
				 errhint("Generate base36id values on the primary server.")));

	b36g_call_init(&call, worker, my_member(), base36id_sync_level());
	req = step(&call);
	if (likely(req == B36G_ID))
	{
		*value = call.id;
		IDGEN_INJECTION_POINT("idgen-b36-confirmed");
		return true;
	}
	return gen_next_slow(&call, req, value);
}

/* makes the state file hold second (the floor), in redo; the caller holds no lock */
static void
redo_write_floor(int64 second)
{
	/*
	 * ERROR, a FATAL in the startup process: recovery stops, as when core
	 * cannot write its own files, before a restartpoint can pass the record,
	 * and the next start replays it again.
	 */
	(void) state_file_write(second, ERROR);

	LWLockAcquire(shared->lock, LW_EXCLUSIVE);
	b36g_file_written(&machine, second);
	LWLockRelease(shared->lock);
}

/*
 * Redo, on a standby, in crash recovery and when a base backup is restored:
 * no id may come from a second the primary reserved.  The file keeps recent
 * seconds across this server's restarts, as on the primary (see
 * B36G_REDO_WINDOW_S).  A damaged file is left alone for the administrator
 * to look at.
 */
static void
base36id_redo(XLogReaderState *record)
{
	uint8		info = XLogRecGetInfo(record) & ~XLR_INFO_MASK;
	xl_base36id_reserve xlrec;
	int64		write_file;

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
	write_file = b36g_redo(&machine, xlrec.second, clock_second());
	LWLockRelease(shared->lock);

	if (write_file >= 0)
		redo_write_floor(write_file);

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
 * write (older than B36G_REDO_WINDOW_S) go to the file once.
 */
static void
base36id_redo_end(void)
{
	int64		write_file;

	LWLockAcquire(shared->lock, LW_EXCLUSIVE);
	write_file = b36g_redo_end(&machine);
	LWLockRelease(shared->lock);
	if (write_file >= 0)
		redo_write_floor(write_file);
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
	idgen_shmem_request_sized("idgen_base36id", shmem_size, 1, shmem_init);
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
	snap->floor = shared->gen.floor;
	snap->reserved = shared->gen.res.reserved;
	snap->file_second = shared->gen.file_second;
	snap->state_file = shared->gen.damaged != STATE_OK ?
		state_problem_name((state_problem) shared->gen.damaged) :
		shared->gen.file_second < 0 ? "missing" : "ok";
	snap->worker_second = -1;
	snap->worker_used = -1;
	if (worker >= 0 && worker < B36_WORKERS)
		b36g_worker_state(&machine, worker, &snap->worker_second, &snap->worker_used);
	snap->clock_second = clock_second();
	LWLockRelease(shared->lock);
	return true;
}
