/*
 * base36id_sync.c — base36id's wait for synchronous standbys.
 *
 * A reservation (base36id_gen.c) is a WAL record that is not a commit: ids
 * of its second leave the server without one.  Before they do, the
 * synchronous standbys must have the record, as they have a commit before
 * it returns.  Three things are needed for that, here:
 *
 *  - the levels: idgen.base36id_synchronous_commit, which only the server's
 *    configuration sets, is the level every reservation is confirmed at (one
 *    reservation serves every session); a session whose synchronous_commit
 *    is higher asks for more, and waits for it on its own;
 *  - the facts from which src/core/b36sync.c judges, before every id,
 *    whether core's queue released the reservation's record (a commit of it
 *    would have returned) and the standbys that are synchronous now have it
 *    (base36id_sync_view): what the walsenders publish in shared memory;
 *  - the wait itself, in core's queue: the walsender that releases commits
 *    up to an LSN releases us too, and the checkpointer releases everybody
 *    when synchronous_standby_names is cleared.  If the queue was released
 *    past the record already (by standbys no longer synchronous), nothing
 *    would wake us: the wait then looks again after POLL_MS.  Core's queue
 *    holds one process a WAL position (walsenders assert it): a call whose
 *    record another call already waits for there looks again after POLL_MS
 *    too.
 *
 * Not SyncRepWaitForLSN(): it wants interrupts held (a commit in WAL must
 * not fail), turns a cancel into a WARNING about a commit, and caps a
 * record that is not a commit at remote flush.  So the queue is joined as
 * SyncRepWaitForLSN() joins it (SyncRepQueueInsert() is static), and left
 * as SyncRepCancelWait() leaves it, on any error or exit too: a walsender
 * or the checkpointer then never finds us in it, and the next commit of
 * this backend finds MyProc's fields as core leaves them.  The protocol is
 * the same from 15 to 19 (checked against their syncrep.c); 15 keeps the
 * queue in a SHM_QUEUE, 16 and later in a dlist.
 */
#include "base36id_sync.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "postmaster/interrupt.h"
#include "miscadmin.h"
#include "replication/syncrep.h"
#include "replication/walsender.h"
#include "replication/walsender_private.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/wait_event.h"

/*
 * idgen.base36id_synchronous_commit: the least level every id is confirmed
 * at, whatever the session asks for.  PGC_SIGHUP, so only the server's configuration sets it:
 * synchronous_commit itself can be lowered by any role for itself (SET,
 * ALTER ROLE/DATABASE ... SET, connection options).
 */
static int	sync_commit_floor = SYNCHRONOUS_COMMIT_REMOTE_FLUSH;

/* the walsenders' slots as base36id_sync_view() reads them, this process's */
static b36s_standby *slots = NULL;

static const struct config_enum_entry sync_commit_options[] = {
	{"off", SYNCHRONOUS_COMMIT_OFF, false},
	{"local", SYNCHRONOUS_COMMIT_LOCAL_FLUSH, false},
	{"remote_write", SYNCHRONOUS_COMMIT_REMOTE_WRITE, false},
	{"on", SYNCHRONOUS_COMMIT_REMOTE_FLUSH, false},
	{"remote_apply", SYNCHRONOUS_COMMIT_REMOTE_APPLY, false},
	{NULL, 0, false}
};

/* the core's levels and methods are PostgreSQL's values, passed as they are */
StaticAssertDecl(B36S_OFF == SYNCHRONOUS_COMMIT_OFF &&
				 B36S_LOCAL == SYNCHRONOUS_COMMIT_LOCAL_FLUSH &&
				 B36S_WRITE == SYNCHRONOUS_COMMIT_REMOTE_WRITE &&
				 B36S_FLUSH == SYNCHRONOUS_COMMIT_REMOTE_FLUSH &&
				 B36S_APPLY == SYNCHRONOUS_COMMIT_REMOTE_APPLY,
				 "b36sync.h's levels");
StaticAssertDecl(B36S_FIRST == SYNC_REP_PRIORITY && B36S_ANY == SYNC_REP_QUORUM &&
				 SYNC_REP_WAIT_WRITE == 0 && SYNC_REP_WAIT_FLUSH == 1 &&
				 SYNC_REP_WAIT_APPLY == 2 && NUM_SYNC_REP_WAIT_MODE == 3,
				 "b36sync.h's methods and positions");

void
base36id_sync_init(void)
{
	DefineCustomEnumVariable("idgen.base36id_synchronous_commit",
							 "Least level at which synchronous standbys confirm a second before base36id_generate() returns an id of it, in every session.",
							 "A session whose synchronous_commit is higher waits for that level; nothing a session sets lowers it.",
							 &sync_commit_floor,
							 SYNCHRONOUS_COMMIT_REMOTE_FLUSH,
							 sync_commit_options,
							 PGC_SIGHUP,
							 0,
							 NULL, NULL, NULL);

	/*
	 * base36id_sync_view()'s copy of the walsenders' slots: max_wal_senders
	 * is a server start setting, known once the configuration is loaded.
	 */
	if (max_wal_senders > 0)
		slots = MemoryContextAllocZero(TopMemoryContext,
									   max_wal_senders * sizeof(b36s_standby));
}

int
base36id_sync_level(void)
{
	return b36s_level(sync_commit_floor, synchronous_commit);
}

/*
 * Whether synchronous standbys are defined, as the checkpointer last told
 * waiting backends (a backend's own synchronous_standby_names is only
 * reloaded between statements).  The flag is one byte of WalSndCtl: a bool
 * sync_standbys_defined until 13.20, 14.17, 15.12, 16.8 and 17.4, since then
 * bits sync_standbys_status, whose INIT bit is clear until the checkpointer
 * first set it (then the setting tells, as in core).  A module built against
 * either kind of headers may run on either kind of server, so the byte is
 * read as a byte, never as the headers' type: built against the older
 * headers, a bool holding 3 would be undefined behaviour, and GCC at -O2
 * then drops the test of the DEFINED bit.  What the byte means is the
 * running server's business: its version tells.  Read without SyncRepLock
 * it is a hint, as in core's fast path; joining the queue takes the lock.
 */
#ifdef SYNC_STANDBY_DEFINED
#define SYNC_STANDBYS_MEMBER sync_standbys_status
StaticAssertDecl(SYNC_STANDBY_INIT == 0x01 && SYNC_STANDBY_DEFINED == 0x02,
				 "the bits of sync_standbys_status");
#else
#define SYNC_STANDBYS_MEMBER sync_standbys_defined
#endif
#define STATUS_INIT 0x01
#define STATUS_DEFINED 0x02

static uint8
sync_standbys_byte(void)
{
	StaticAssertStmt(sizeof(((WalSndCtlData *) NULL)->SYNC_STANDBYS_MEMBER) == 1,
					 "the flag is one byte");
	return *((const volatile uint8 *) WalSndCtl +
			 offsetof(WalSndCtlData, SYNC_STANDBYS_MEMBER));
}

/* whether the running server's byte is sync_standbys_status (see above) */
static bool
sync_standbys_flag_is_bits(void)
{
	/* the first minor release with the bits, per major */
	static const int first_with_bits[][2] = {
		{13, 21}, {14, 18}, {15, 13}, {16, 9}, {17, 5}
	};
	static int	is_bits = -1;

	if (is_bits < 0)
	{
		int			num = atoi(GetConfigOption("server_version_num", false, false));
		int			i;

		is_bits = num >= 180000;
		for (i = 0; i < lengthof(first_with_bits); i++)
			if (num / 10000 == first_with_bits[i][0])
				is_bits = num % 100 >= first_with_bits[i][1];
	}
	return is_bits;
}

static bool
sync_standbys_defined(void)
{
	uint8		flag = sync_standbys_byte();

	if (!sync_standbys_flag_is_bits())
		return flag != 0;
	if (flag & STATUS_INIT)
		return (flag & STATUS_DEFINED) != 0;
	return SyncRepStandbyNames != NULL && SyncRepStandbyNames[0] != '\0';
}

/*
 * The facts b36s_judge() needs, read now from shared memory: the
 * checkpointer's flag, each walsender's slot as it publishes it (its pid,
 * state, positions and the priority its own configuration gives it, under
 * its spinlock, as SyncRepGetCandidateStandbys() reads them), how far
 * core's queue was released, the local WAL flush; and this backend's copy
 * of synchronous_standby_names, which is current only while no reload is
 * pending (a backend takes it in between statements; until then the core
 * asks every candidate, and always in another kind of process).  The slots
 * are this process's, allocated at load (this is called under the
 * generator's lock, where nothing may fail).
 */

void
base36id_sync_view(void *arg, b36s_view *v)
{
	int			i;

	Assert(slots != NULL || max_wal_senders == 0);
	memset(v, 0, sizeof(*v));
	v->flushed = GetFlushRecPtr(NULL);
	v->standbys = slots;
	v->defined = max_wal_senders > 0 && sync_standbys_defined();
	if (!v->defined)
		return;
	/*
	 * Only a client backend is sure to be told of a reload (and takes it in
	 * between statements); a background worker, such as pg_cron's, may
	 * ignore SIGHUP and keep the names it started with.
	 */
	v->takes_reloads = MyBackendType == B_BACKEND;
	v->config_empty = SyncRepConfig == NULL;
	v->method = SyncRepConfig ? SyncRepConfig->syncrep_method : B36S_FIRST;
	v->num_sync = SyncRepConfig ? SyncRepConfig->num_sync : 1;
	for (i = 0; i < NUM_SYNC_REP_WAIT_MODE; i++)
		v->released[i] = ((volatile WalSndCtlData *) WalSndCtl)->lsn[i];
	for (i = 0; i < max_wal_senders; i++)
	{
		volatile WalSnd *walsnd = &WalSndCtl->walsnds[i];
		b36s_standby *s = &slots[i];
		WalSndState state;

		SpinLockAcquire(&walsnd->mutex);
		s->pid = walsnd->pid;
		state = walsnd->state;
		s->pos[0] = walsnd->write;
		s->pos[1] = walsnd->flush;
		s->pos[2] = walsnd->apply;
		s->priority = walsnd->sync_standby_priority;
		SpinLockRelease(&walsnd->mutex);
		s->streaming = state == WALSNDSTATE_STREAMING || state == WALSNDSTATE_STOPPING;
	}
	v->n = max_wal_senders;
	/*
	 * Read after the walsenders' slots: a reload that reached them before
	 * they were read has been signalled to this backend too, unless the
	 * postmaster has not come to it yet.
	 */
	pg_read_barrier();
	v->config_current = !ConfigReloadPending;
}

/* core's queue: as SyncRepQueueInsert(), ordered by LSN; holding SyncRepLock */
static void
queue_insert(int mode)
{
#if PG_VERSION_NUM >= 160000
	dlist_head *queue = &WalSndCtl->SyncRepQueue[mode];
	dlist_iter	iter;

	dlist_reverse_foreach(iter, queue)
	{
		PGPROC	   *proc = dlist_container(PGPROC, syncRepLinks, iter.cur);

		if (proc->waitLSN < MyProc->waitLSN)
		{
			dlist_insert_after(&proc->syncRepLinks, &MyProc->syncRepLinks);
			return;
		}
	}
	dlist_push_head(queue, &MyProc->syncRepLinks);
#else
	SHM_QUEUE  *queue = &WalSndCtl->SyncRepQueue[mode];
	PGPROC	   *proc = (PGPROC *) SHMQueuePrev(queue, queue,
											   offsetof(PGPROC, syncRepLinks));

	while (proc && proc->waitLSN >= MyProc->waitLSN)
		proc = (PGPROC *) SHMQueuePrev(queue, &proc->syncRepLinks,
									   offsetof(PGPROC, syncRepLinks));
	SHMQueueInsertAfter(proc ? &proc->syncRepLinks : queue, &MyProc->syncRepLinks);
#endif
}

/*
 * Whether a process waits in the queue of mode for lsn already: the queue
 * holds one a position (SyncRepQueueIsOrderedByLSN(), asserted by every
 * walsender that wakes it).  Holding SyncRepLock.
 */
static bool
queue_has(int mode, XLogRecPtr lsn)
{
#if PG_VERSION_NUM >= 160000
	dlist_iter	iter;

	dlist_foreach(iter, &WalSndCtl->SyncRepQueue[mode])
	{
		PGPROC	   *proc = dlist_container(PGPROC, syncRepLinks, iter.cur);

		if (proc->waitLSN >= lsn)
			return proc->waitLSN == lsn;
	}
#else
	SHM_QUEUE  *queue = &WalSndCtl->SyncRepQueue[mode];
	PGPROC	   *proc = (PGPROC *) SHMQueueNext(queue, queue,
											   offsetof(PGPROC, syncRepLinks));

	for (; proc; proc = (PGPROC *) SHMQueueNext(queue, &proc->syncRepLinks,
												 offsetof(PGPROC, syncRepLinks)))
		if (proc->waitLSN >= lsn)
			return proc->waitLSN == lsn;
#endif
	return false;
}

static bool
queue_detached(void)
{
#if PG_VERSION_NUM >= 160000
	return dlist_node_is_detached(&MyProc->syncRepLinks);
#else
	return SHMQueueIsDetached(&MyProc->syncRepLinks);
#endif
}

/*
 * The wait is over, whatever ended it (error, exit or a walsender): out of
 * the queue unless a walsender took us out, and MyProc as core expects it,
 * as SyncRepCancelWait() leaves it.
 */
static void
queue_leave(int code, Datum arg)
{
	LWLockAcquire(SyncRepLock, LW_EXCLUSIVE);
	if (!queue_detached())
	{
#if PG_VERSION_NUM >= 160000
		dlist_delete_thoroughly(&MyProc->syncRepLinks);
#else
		SHMQueueDelete(&MyProc->syncRepLinks);
#endif
	}
	MyProc->syncRepState = SYNC_REP_NOT_WAITING;
	MyProc->waitLSN = InvalidXLogRecPtr;
	LWLockRelease(SyncRepLock);
}

/* names the second in an error that ends the wait */
static void
sync_wait_context(void *arg)
{
	errcontext("waiting for synchronous standbys to confirm base36id second " INT64_FORMAT "; this call returned no id",
			   *(int64 *) arg);
}

/* how often a wait that core's queue cannot end looks again */
#define POLL_MS 10

void
base36id_sync_wait(XLogRecPtr lsn, int level, int64 second, bool released)
{
	int			mode;
	bool		joined = false;
	b36s_queue	action;
	ErrorContextCallback errcallback;

	Assert(level > SYNCHRONOUS_COMMIT_LOCAL_FLUSH);
	/* an ERROR here must not become a PANIC, and a cancel must be seen */
	Assert(CritSectionCount == 0);
	if (max_wal_senders == 0)
		return;
	if (level == SYNCHRONOUS_COMMIT_REMOTE_WRITE)
		mode = SYNC_REP_WAIT_WRITE;
	else if (level == SYNCHRONOUS_COMMIT_REMOTE_APPLY)
		mode = SYNC_REP_WAIT_APPLY;
	else
		mode = SYNC_REP_WAIT_FLUSH;

	/* the server's version is read once, not under the lock below */
	(void) sync_standbys_flag_is_bits();

	errcallback.callback = sync_wait_context;
	errcallback.arg = &second;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;
	PG_ENSURE_ERROR_CLEANUP(queue_leave, (Datum) 0);
	{
		/*
		 * Under SyncRepLock, as SyncRepWaitForLSN(): a walsender advances
		 * lsn[mode] and the checkpointer clears the flag under it too, then
		 * wake whom they find in the queue, so no wakeup is lost.  What to
		 * do is src/core/b36sync.c's decision.
		 */
		LWLockAcquire(SyncRepLock, LW_EXCLUSIVE);
		Assert(queue_detached() && MyProc->syncRepState == SYNC_REP_NOT_WAITING);
		action = b36s_queue_action(sync_standbys_defined(), lsn,
								   WalSndCtl->lsn[mode], released,
								   queue_has(mode, lsn));
		if (action == B36S_QUEUE_JOIN)
		{
			MyProc->waitLSN = lsn;
			MyProc->syncRepState = SYNC_REP_WAITING;
			queue_insert(mode);
			joined = true;
		}
		LWLockRelease(SyncRepLock);

		if (action == B36S_QUEUE_POLL)
		{
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 POLL_MS, WAIT_EVENT_SYNC_REP);
			ResetLatch(MyLatch);
			CHECK_FOR_INTERRUPTS();
		}
		while (joined)
		{
			/* reset before testing: the waker sets the state, then the latch */
			ResetLatch(MyLatch);
			if (MyProc->syncRepState == SYNC_REP_WAIT_COMPLETE)
				break;
			CHECK_FOR_INTERRUPTS();
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_EXIT_ON_PM_DEATH, -1,
							 WAIT_EVENT_SYNC_REP);
		}
	}
	PG_END_ENSURE_ERROR_CLEANUP(queue_leave, (Datum) 0);
	error_context_stack = errcallback.previous;

	if (joined)
	{
		/*
		 * The waker took us out of the queue before it set the state; as in
		 * SyncRepWaitForLSN(), our own fields need no lock once out.
		 */
		pg_read_barrier();
		Assert(queue_detached());
		MyProc->syncRepState = SYNC_REP_NOT_WAITING;
		MyProc->waitLSN = InvalidXLogRecPtr;
	}
}
