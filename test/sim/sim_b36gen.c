/*
 * sim_b36gen.c — a deterministic, seeded simulation of base36id's whole
 * generation path: the real state machine of src/core/b36gen.c (with
 * b36sync.c's judgement, waitline.c's line and base36.c's counters), linked
 * as the server links it and driven as src/base36id_gen.c drives it, against
 * a simulated primary, 0 to 3 standbys with their walsenders and clocks,
 * sessions at mixed levels waiting in line for a small budget (one of them,
 * in half of the schedules, a background worker that ignores SIGHUP),
 * configuration reloads that reach each process at its own moment, cancels
 * at every wait, checkpoints, crashes and restarts of the primary and of
 * standbys, and failovers.  No decision of the generator is copied here:
 * this file performs the machine's requests (a state-file write, a WAL
 * insert or flush, a sleep and what ends it) and models the world.
 *
 * A schedule is a list of events drawn from a seed; every event is one
 * atomic action (a step of a call under the generator's lock, the request
 * it made performed, one message of a standby, ...), so any interleaving,
 * i.e. preemption at any step, is a schedule.  An event that does not apply
 * in the state it meets does nothing, so that a schedule can be shrunk by
 * leaving events out.
 *
 * The checker (doc/base36id.md):
 *  - safety, at each id: an id leaves at level L above local only while
 *    the standbys synchronous now (the walsenders' priorities, ties by
 *    slot; the configuration's method and number, num_sync of them at
 *    least) have its second's record at L, or none are defined; while a
 *    configuration is still on its way to a walsender, the checkpointer or
 *    the session itself, the standbys synchronous under the new one have
 *    it, or a commit of the record would have returned (the walsenders,
 *    each with the configuration it has, released it); never before its
 *    record is flushed locally;
 *  - uniqueness: no id is handed out twice on a timeline clients go on
 *    using (crash restarts, standby restarts and failovers included),
 *    except ids the promoted standby lacked the record of because it was
 *    not one of the synchronous ones when they left (the documented
 *    exposure), and only those;
 *  - per-session order: a session's ids increase;
 *  - no needless wait: a call whose configuration is current does not wait
 *    for standbys while the standbys it needs have the record and a commit
 *    of it would have returned, nor for another call's reservation of a
 *    second already reserved;
 *  - a second is reserved once;
 *  - nobody waits behind a standby wait: a call in a line is never waiting
 *    for standbys (checked after every event);
 *  - liveness, at the end of every schedule: with every standby stalled and
 *    the floor at off, each session at local or off gets its ids, however
 *    many others wait for standbys.
 *
 * Usage: sim_b36gen [-n SCHEDULES] [-e EVENTS] [-S SEED] [-r SEED]
 *   runs SCHEDULES schedules (default 20000) of seeds SEED, SEED+1, ...;
 *   -r replays one seed verbosely.  A failing schedule prints its seed, the
 *   violation and a shrunk reproduction, and exits 1.  The same arguments
 *   give the same run on any machine.
 */
#include "b36gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXSB 3					/* standbys */
#define NSLOTS 4				/* walsender slots */
#define NSESS 4					/* sessions */
#define BUDGET 2				/* ids a second: lines form often */
#define WORKER 0
#define MAXREC 4096				/* WAL records of a schedule */
#define MAXCFG 64				/* configuration versions */
#define MAXIDS 8192
#define MAXEV 400
#define STAR (-1)				/* '*' in synchronous_standby_names */
#define DRAIN_IDS 5				/* ids each live session gets in the drain */
#define DRAIN_ROUNDS 400

/* ---- random numbers: splitmix64 ---- */
static uint64_t
mix(uint64_t *s)
{
	uint64_t	z = (*s += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* ---- the schedule ---- */
enum ev_kind
{
	EV_STEP, EV_RECV, EV_FLUSH, EV_APPLY, EV_REPORT, EV_PAUSE, EV_STALL,
	EV_DISCONNECT, EV_RECONNECT, EV_SB_RESTART, EV_CONFIG, EV_DELIVER,
	EV_OTHER_WAL, EV_CLOCK, EV_CANCEL, EV_CHECKPOINT, EV_CRASH, EV_NKINDS
};
static const char *const ev_names[] = {
	"step", "recv", "flush", "apply", "report", "pause", "stall",
	"disconnect", "reconnect", "sb_restart", "config", "deliver",
	"other_wal", "clock", "cancel", "checkpoint", "crash"
};
static const int ev_weight[] = {60, 12, 8, 6, 12, 2, 2, 2, 3, 1, 3, 8, 3, 6, 2, 2, 1};

typedef struct event
{
	int			kind;
	uint32_t	a;
	uint32_t	b;
} event;

/* ---- the simulated world ---- */
typedef struct config
{
	int			nnames;
	int			names[MAXSB];	/* application names in order, or STAR */
	int			method;
	int			num_sync;
	int			floor;			/* idgen.base36id_synchronous_commit */
} config;

typedef struct record
{
	uint64_t	lsn;
	int64_t		second;			/* -1: other WAL */
} record;

/* a server's generator: its shared memory and its durable state file */
typedef struct node
{
	b36g_shared gen;
	wl_node		members[NSESS];
	b36g		m;
	int64_t		file_second;	/* the state file, durable */
	uint64_t	redo_from;		/* its last checkpoint (restartpoint) */
	int			skew;			/* its clock, against the true one */
} node;

typedef struct standby
{
	node		n;
	int			name;			/* application_name (two may share one) */
	bool		connected;
	bool		paused;			/* replay paused */
	bool		stalled;		/* its walsender reports nothing */
	uint64_t	pos[3];			/* written, flushed, applied (replayed) */
} standby;

typedef struct slot
{
	int32_t		pid;
	int			sb;				/* standby id */
	int			cfg;			/* configuration version it has taken in */
	uint64_t	pos[3];			/* as last reported */
} slot;

/* what a session does next in its call */
enum
{
	S_STEP,						/* step under the lock */
	S_PERFORM,					/* perform the request of the last step */
	S_LOGGED					/* the record is inserted: b36g_logged() */
};

typedef struct session
{
	int			own;			/* its synchronous_commit */
	bool		bgw;			/* a background worker: ignores SIGHUP */
	int			cfg;			/* configuration it has taken in */
	int			signalled;		/* newest version it was told of */
	int			calls_left;
	bool		in_call;
	b36g_call	call;
	b36g_req	req;			/* what the last step asked for */
	int			state;
	bool		latch;			/* its process latch is set */
	bool		cv_prepared;	/* on the reservation's condition variable */
	bool		cv_woken;
	int			queue;			/* standby wait: 0 to decide, 1 in core's
								 * queue, 2 polling */
	int64_t		wait_clock;		/* the clock when its wait began */
	uint64_t	logged;			/* the record it inserted */
	uint64_t	insert_at_take;	/* the WAL written when its counter was taken */
	int64_t		last_id;
	int			ids;
} session;

typedef struct idrec
{
	int64_t		id;
	uint64_t	cov;			/* the first record covering its second */
	unsigned	protected_on;	/* standbys a failover to must not repeat it */
} idrec;

typedef struct world
{
	int			nsb;
	bool		bgw;			/* the last session is a background worker */
	int64_t		clk;			/* the true clock, seconds */
	/* the primary */
	node		p;
	record		wal[MAXREC];
	int			nrec;
	uint64_t	insert;
	uint64_t	flushed;
	uint64_t	released[3];
	int64_t		published[64];	/* seconds published since start */
	int			npublished;
	slot		slots[NSLOTS];
	int			ckpt_cfg;
	/* standbys, sessions, configuration */
	standby		sb[MAXSB];
	session		s[NSESS];
	config		cfg[MAXCFG];
	int			ncfg;
	bool		draining;
	/* checker */
	idrec		ids[MAXIDS];
	int			nids;
	char		violation[256];
	bool		verbose;
} world;

static world W;

#define FAIL(...) do { if (!W.violation[0]) snprintf(W.violation, sizeof(W.violation), __VA_ARGS__); } while (0)
#define SESS(se) ((int) ((se) - W.s))

static int
newest(void)
{
	return W.ncfg - 1;
}

/* a node's clock: seconds, and as the milliseconds a step is given */
static int64_t
node_clock(const node *n)
{
	return W.clk + n->skew;
}

static uint64_t
node_ms(const node *n, uint32_t b)
{
	return (uint64_t) (node_clock(n) + B36_EPOCH_UNIX_S) * 1000 + b % 1000;
}

/* core's SyncRepGetStandbyPriority(): FIRST, position of the first match */
static int
priority_in(const config *c, int sb)
{
	int			i;

	for (i = 0; i < c->nnames; i++)
		if (c->names[i] == STAR || c->names[i] == W.sb[sb].name)
			return c->method == B36S_FIRST ? i + 1 : 1;
	return 0;
}

static int
slot_priority(const slot *sl)
{
	return sl->pid ? priority_in(&W.cfg[sl->cfg], sl->sb) : 0;
}

/* core's candidates: streaming, a priority of its own, a known flush */
static bool
slot_candidate(const slot *sl)
{
	return sl->pid != 0 && slot_priority(sl) > 0 && sl->pos[1] != 0;
}

static bool
defined(void)
{
	return W.cfg[W.ckpt_cfg].nnames > 0;
}

/* the facts base36id_sync_view() would read, for session arg */
static b36s_standby view_slots[NSLOTS];

static void
read_view(void *arg, b36s_view *v)
{
	const session *se = arg;
	const config *own = &W.cfg[se->cfg];
	int			i;

	memset(v, 0, sizeof(*v));
	v->flushed = W.flushed;
	v->defined = defined();
	v->config_current = se->signalled <= se->cfg;
	v->takes_reloads = !se->bgw;
	v->config_empty = own->nnames == 0;
	v->method = own->method;
	v->num_sync = own->nnames ? own->num_sync : 1;
	memcpy(v->released, W.released, sizeof(W.released));
	for (i = 0; i < NSLOTS; i++)
	{
		const slot *sl = &W.slots[i];

		view_slots[i].pid = sl->pid;
		view_slots[i].streaming = sl->pid != 0;
		view_slots[i].priority = slot_priority(sl);
		memcpy(view_slots[i].pos, sl->pos, sizeof(sl->pos));
	}
	v->n = NSLOTS;
	v->standbys = view_slots;
}

/*
 * The configuration is on its way to a process whose view the judgement of
 * se's call depends on: a walsender, the checkpointer, or se itself (which
 * has not taken it in yet).  A background worker is never told: its copy
 * stays, it is not on its way.
 */
static bool
in_transit(const session *se)
{
	int			i;

	if (W.ckpt_cfg != newest())
		return true;
	for (i = 0; i < NSLOTS; i++)
		if (W.slots[i].pid && W.slots[i].cfg != newest())
			return true;
	return !se->bgw && se->cfg != newest();
}

/* the first record covering second (its second or a later one) */
static uint64_t
covering(int64_t second)
{
	int			i;

	for (i = 0; i < W.nrec; i++)
		if (W.wal[i].second >= second)
			return W.wal[i].lsn;
	return UINT64_MAX;
}

/* the standbys whose own WAL has lsn at level */
static unsigned
holders_of(uint64_t lsn, int level)
{
	unsigned	mask = 0;
	int			i;

	for (i = 0; i < W.nsb; i++)
		if (W.sb[i].pos[level - B36S_WRITE] >= lsn)
			mask |= 1u << i;
	return mask;
}

/*
 * The truth, with the newest configuration and every walsender having taken
 * it in: whether the synchronous standbys have lsn at level (actual: their
 * real positions, else as reported).  FIRST n: the n candidates of highest
 * priority (ties by the lower slot, as core) all have it; ANY n: n
 * candidates have it; fewer candidates than n confirm nothing.  *sync: the
 * standbys that are the synchronous ones (FIRST) or that have it (ANY).
 */
static bool
truth(uint64_t lsn, int level, bool actual, unsigned *sync)
{
	const config *c = &W.cfg[newest()];
	int			mode = level - B36S_WRITE;
	int			cand[NSLOTS];
	int			k = 0;
	int			holders = 0;
	int			i, j;

	*sync = 0;
	for (i = 0; i < NSLOTS; i++)
		if (W.slots[i].pid != 0 && priority_in(c, W.slots[i].sb) > 0 &&
			W.slots[i].pos[1] != 0)
			cand[k++] = i;
	if (k < c->num_sync || k == 0)
		return false;
	/* by priority, then slot */
	for (i = 0; i < k; i++)
		for (j = i + 1; j < k; j++)
		{
			int			pi = priority_in(c, W.slots[cand[i]].sb);
			int			pj = priority_in(c, W.slots[cand[j]].sb);

			if (pj < pi || (pj == pi && cand[j] < cand[i]))
			{
				int			t = cand[i];

				cand[i] = cand[j];
				cand[j] = t;
			}
		}
	for (i = 0; i < k; i++)
	{
		const slot *sl = &W.slots[cand[i]];
		uint64_t	p = actual ? W.sb[sl->sb].pos[mode] : sl->pos[mode];

		if (c->method == B36S_FIRST)
		{
			if (i >= c->num_sync)
				break;
			*sync |= 1u << sl->sb;
			if (p < lsn)
				return false;
			holders++;
		}
		else if (p >= lsn)
		{
			*sync |= 1u << sl->sb;
			holders++;
		}
	}
	return holders >= c->num_sync;
}

/* every candidate (as the walsenders publish their priorities) has lsn at level */
static bool
every_candidate_has(uint64_t lsn, int level)
{
	int			i;

	for (i = 0; i < NSLOTS; i++)
		if (slot_candidate(&W.slots[i]) && W.sb[W.slots[i].sb].pos[level - B36S_WRITE] < lsn)
			return false;
	return true;
}

static void
hand_out(session *se, int64_t id)
{
	int64_t		second = b36_seconds(id);
	uint64_t	cov = covering(second);
	int			level = se->call.sync.level;
	unsigned	mask = 0;
	int			i;

	if (b36_worker(id) != WORKER || b36_counter(id) >= BUDGET)
		FAIL("session %d: id %lld is not of worker %d within the budget",
			 SESS(se), (long long) id, WORKER);
	if (id <= se->last_id)
		FAIL("session %d: id %lld after %lld", SESS(se), (long long) id,
			 (long long) se->last_id);
	se->last_id = id;
	se->ids++;
	if (cov == UINT64_MAX || cov > W.flushed)
		FAIL("id %lld of second %lld left before its record was flushed",
			 (long long) id, (long long) second);
	if (level > B36S_LOCAL && se->bgw)
	{
		/*
		 * A process that never takes a reload in cannot know the names: its
		 * id leaves as a commit of a record written after the id was taken
		 * would return (released by the walsenders with the names each
		 * has), and only once every candidate has its record.
		 */
		int			mode = level - B36S_WRITE;

		if (defined() && (W.released[mode] < cov || W.released[mode] <= se->insert_at_take ||
						  !every_candidate_has(cov, level)))
			FAIL("id %lld of second %lld left a background worker at level %d before a commit of a record written after it was taken would have returned (released %llu, taken at %llu), or before every candidate had its record",
				 (long long) id, (long long) second, level,
				 (unsigned long long) W.released[mode], (unsigned long long) se->insert_at_take);
		mask = holders_of(cov, level);
	}
	else if (level > B36S_LOCAL && W.cfg[newest()].nnames > 0 && !in_transit(se))
	{
		if (!truth(cov, level, true, &mask))
			FAIL("id %lld of second %lld left at level %d while the synchronous standbys lacked its record",
				 (long long) id, (long long) second, level);
	}
	else if (level > B36S_LOCAL && defined())
	{
		/* a commit of the record would have returned, or the new set has it */
		if (W.released[level - B36S_WRITE] >= cov)
			mask = holders_of(cov, level);
		else if (!(W.cfg[newest()].nnames > 0 && truth(cov, level, true, &mask)))
			FAIL("id %lld of second %lld left at level %d while a reload was on its way, confirmed neither by the new configuration nor as a commit",
				 (long long) id, (long long) second, level);
	}
	for (i = 0; i < W.nids; i++)
		if (W.ids[i].id == id)
			FAIL("id %lld handed out twice", (long long) id);
	if (W.nids < MAXIDS)
	{
		W.ids[W.nids].id = id;
		W.ids[W.nids].cov = cov;
		W.ids[W.nids].protected_on = mask;
		W.nids++;
	}
	if (W.verbose)
		printf("    session %d: id %lld (second %lld, counter %d, level %d)\n",
			   SESS(se), (long long) id, (long long) second, b36_counter(id), level);
}

/* a walsender processes a reply: core's SyncRepReleaseWaiters() */
static void
release(int si)
{
	const slot *me = &W.slots[si];
	const config *c = &W.cfg[me->cfg];
	int			cand[NSLOTS];
	int			k = 0;
	int			i, j, mode;
	bool		am_sync = false;

	if (!slot_candidate(me) || c->nnames == 0)
		return;
	for (i = 0; i < NSLOTS; i++)
		if (slot_candidate(&W.slots[i]))
			cand[k++] = i;
	/* priorities as each walsender published them, ties by slot */
	for (i = 0; i < k; i++)
		for (j = i + 1; j < k; j++)
		{
			int			pi = slot_priority(&W.slots[cand[i]]);
			int			pj = slot_priority(&W.slots[cand[j]]);

			if (pj < pi || (pj == pi && cand[j] < cand[i]))
			{
				int			t = cand[i];

				cand[i] = cand[j];
				cand[j] = t;
			}
		}
	if (c->method == B36S_FIRST && k > c->num_sync)
		k = c->num_sync;
	for (i = 0; i < k; i++)
		if (cand[i] == si)
			am_sync = true;
	if (!am_sync || k < c->num_sync)
		return;
	for (mode = 0; mode < 3; mode++)
	{
		uint64_t	v[NSLOTS];
		uint64_t	rec;

		for (i = 0; i < k; i++)
			v[i] = W.slots[cand[i]].pos[mode];
		/* descending */
		for (i = 0; i < k; i++)
			for (j = i + 1; j < k; j++)
				if (v[j] > v[i])
				{
					uint64_t	t = v[i];

					v[i] = v[j];
					v[j] = t;
				}
		rec = c->method == B36S_FIRST ? v[k - 1] : v[c->num_sync - 1];
		if (rec > W.released[mode])
			W.released[mode] = rec;
	}
}

/* ---- a server's generator: start, redo ---- */
static void
node_start(node *n, bool archive_recovery)
{
	n->m.sh = &n->gen;
	n->m.members = n->members;
	n->m.nmembers = NSESS;
	b36g_start(&n->m, n->file_second, node_clock(n), archive_recovery, 0, BUDGET);
}

/* redo of the records in (from, to] of the WAL the node has */
static void
node_redo(node *n, uint64_t from, uint64_t to)
{
	int			i;

	for (i = 0; i < W.nrec; i++)
	{
		int64_t		write;

		if (W.wal[i].lsn <= from || W.wal[i].lsn > to || W.wal[i].second < 0)
			continue;
		write = b36g_redo(&n->m, W.wal[i].second, node_clock(n));
		if (write >= 0)
		{
			n->file_second = write;
			b36g_file_written(&n->m, write);
		}
	}
}

static void
node_redo_end(node *n)
{
	int64_t		write = b36g_redo_end(&n->m);

	if (write >= 0)
	{
		n->file_second = write;
		b36g_file_written(&n->m, write);
	}
}

/* a standby (re)starts: its shared memory anew, redo from its restartpoint */
static void
standby_start(int x)
{
	standby    *sb = &W.sb[x];

	node_start(&sb->n, true);
	if (sb->n.redo_from > sb->pos[1])
		sb->n.redo_from = sb->pos[1];
	sb->pos[2] = sb->n.redo_from;
	sb->paused = false;
}

static void
reset_sessions(void)
{
	int			i;

	for (i = 0; i < NSESS; i++)
	{
		memset(&W.s[i], 0, sizeof(W.s[i]));
		W.s[i].cfg = W.s[i].signalled = newest();
		W.s[i].last_id = -1;
		W.s[i].own = i % 5;
		W.s[i].bgw = W.bgw && i == NSESS - 1;
	}
}

/* the primary (re)starts: shmem_init, crash recovery from its checkpoint */
static void
primary_start(void)
{
	int			i;

	node_start(&W.p, false);
	node_redo(&W.p, W.p.redo_from, W.flushed);
	node_redo_end(&W.p);
	memset(W.released, 0, sizeof(W.released));
	W.npublished = 0;
	for (i = 0; i < NSLOTS; i++)
		W.slots[i].pid = 0;
	for (i = 0; i < MAXSB; i++)
		W.sb[i].connected = false;
	W.ckpt_cfg = newest();
	reset_sessions();
}

/* ---- the sessions: the glue of src/base36id_gen.c, performed here ---- */
static void
wake(int member)
{
	if (member >= 0)
		W.s[member].latch = true;
}

static void
broadcast(void)
{
	int			i;

	for (i = 0; i < NSESS; i++)
		if (W.s[i].cv_prepared)
			W.s[i].cv_woken = true;
}

static void
end_call(session *se)
{
	se->in_call = false;
	se->cv_prepared = false;
}

static void
check_needless(session *se, b36g_req req)
{
	unsigned	mask;
	uint64_t	lsn = req == B36G_WAIT_RESERVATION ? W.p.gen.res.lsn : se->call.lsn;
	int			level = se->call.sync.level;

	/* a background worker asks every candidate, always */
	if (in_transit(se) || se->signalled > se->cfg || se->bgw)
		return;
	if (req == B36G_WAIT_RESERVATION && se->call.second > W.p.gen.res.reserved)
		return;
	if (W.flushed < lsn || lsn == 0)
		return;
	/* a commit of the record would wait too */
	if (level > B36S_LOCAL && W.released[level - B36S_WRITE] < lsn)
		return;
	if (level <= B36S_LOCAL || W.cfg[newest()].nnames == 0 ||
		truth(lsn, level, false, &mask))
		FAIL("session %d waits (%s) while the standbys it needs have second %lld's record",
			 SESS(se), req == B36G_WAIT_RESERVATION ? "for a reservation" : "for standbys",
			 (long long) W.p.gen.res.reserved);
}

/* what a step asked for; the call ends or waits */
static void
after_step(session *se, b36g_req req)
{
	wake(se->call.wake);
	se->req = req;
	se->state = S_PERFORM;
	se->wait_clock = W.clk;
	se->queue = 0;
	switch (req)
	{
		case B36G_ID:
			hand_out(se, se->call.id);
			end_call(se);
			se->calls_left--;
			return;
		case B36G_RANGE:
		case B36G_DAMAGED:
			FAIL("session %d: the generator refused (%d)", SESS(se), (int) req);
			end_call(se);
			return;
		case B36G_WAIT_RESERVATION:
			/* prepared under the lock, as the glue does */
			se->cv_prepared = true;
			se->cv_woken = false;
			check_needless(se, req);
			return;
		case B36G_WAIT_STANDBYS:
		case B36G_WAIT_FLUSH:
			check_needless(se, req);
			return;
		case B36G_RESERVED:
			{
				int64_t		s = se->call.second;
				int			i;

				for (i = 0; i < W.npublished; i++)
					if (W.published[i] == s)
						FAIL("second %lld reserved twice", (long long) s);
				if (W.npublished < 64)
					W.published[W.npublished++] = s;
				return;
			}
		default:
			return;
	}
}

static void
start_call(session *se, uint32_t a)
{
	if (se->calls_left == 0)
	{
		/*
		 * A new statement: a pending reload is taken in; a background
		 * worker's runs are processes of their own, each started with the
		 * configuration the server has then.
		 */
		if (se->bgw)
			se->cfg = newest();
		else if (se->signalled > se->cfg)
			se->cfg = se->signalled;
		se->own = W.draining ? B36S_OFF : (int) (a % 5);
		/* a background worker's job: a long loop */
		se->calls_left = 1 + (int) (a / 5 % (se->bgw ? 60 : 6));
	}
	b36g_call_init(&se->call, WORKER, SESS(se), b36s_level(W.cfg[se->cfg].floor, se->own));
	se->in_call = true;
	se->state = S_STEP;
}

/* whether se waits in core's queue of mode for lsn */
static bool
queue_waiter(const session *se, int mode, uint64_t lsn)
{
	return se->in_call && se->state == S_PERFORM && se->req == B36G_WAIT_STANDBYS &&
		se->queue == 1 && se->call.sync.level - B36S_WRITE == mode && se->call.lsn == lsn;
}

/*
 * Performs the request of se's last step if what ends it has come (b: the
 * event's draw: a failed write, a spurious wake); returns whether anything
 * happened.
 */
static bool
perform(session *se, uint32_t b)
{
	b36g_call  *c = &se->call;
	bool		spurious = !W.draining && b % 8 == 0;

	switch (se->req)
	{
		case B36G_ID:
		case B36G_RANGE:
		case B36G_DAMAGED:
			return false;
		case B36G_WRITE_FILE:
			if (!W.draining && b % 16 == 1)
			{
				/* the write or fsync fails: an ERROR ends the call */
				if (b36g_abandon(&W.p.m, c))
					broadcast();
				wake(c->wake);
				end_call(se);
				se->calls_left = 0;
				return true;
			}
			W.p.file_second = c->second;
			break;
		case B36G_LOG:
			if (W.nrec >= MAXREC)
				return false;
			W.insert++;
			W.wal[W.nrec].lsn = W.insert;
			W.wal[W.nrec].second = c->second;
			W.nrec++;
			se->logged = W.insert;
			se->state = S_LOGGED;
			return true;
		case B36G_FLUSH:
		case B36G_WAIT_FLUSH:
			if (W.flushed < c->lsn)
				W.flushed = c->lsn;
			break;
		case B36G_RESERVED:
			broadcast();
			break;
		case B36G_WAIT_RESERVATION:
			if (!se->cv_woken && !spurious)
				return false;
			se->cv_prepared = false;
			break;
		case B36G_WAIT_LINE:
		case B36G_WAIT_CLOCK:
			/* the latch, or the timeout: the clock moved on */
			if (!se->latch && W.clk == se->wait_clock && !spurious)
				return false;
			se->latch = false;
			break;
		case B36G_WAIT_STANDBYS:
			{
				int			mode = c->sync.level - B36S_WRITE;

				if (se->queue == 0)
				{
					/* under SyncRepLock: who waits in core's queue of mode */
					bool		queued = false;
					int			i;

					for (i = 0; i < NSESS; i++)
						if (&W.s[i] != se && queue_waiter(&W.s[i], mode, c->lsn))
							queued = true;
					switch (b36s_queue_action(defined(), c->lsn, W.released[mode],
											  c->sync.verdict == B36S_WAIT_POLL, queued))
					{
						case B36S_QUEUE_JOIN:
							/* core's queue holds one process a position */
							if (queued)
								FAIL("session %d joins core's queue for %llu where another waits for it",
									 SESS(se), (unsigned long long) c->lsn);
							se->queue = 1;
							return true;
						case B36S_QUEUE_POLL:
							se->queue = 2;
							return true;
						case B36S_QUEUE_AGAIN:
							break;
					}
				}
				else if (se->queue == 1)
				{
					/* a walsender's release, or the checkpointer's clearing */
					if (W.released[mode] < c->lsn && defined())
						return false;
				}
				break;
			}
	}
	se->state = S_STEP;
	return true;
}

/* a step of se's call under the lock; the WAL written when it took a counter */
static void
step(session *se, uint32_t b)
{
	b36_state	before = W.p.gen.workers[WORKER];
	b36g_req	req = b36g_step(&W.p.m, &se->call, node_ms(&W.p, b), read_view, se);
	const b36_state *after = &W.p.gen.workers[WORKER];

	if (after->second != before.second || after->next != before.next)
		se->insert_at_take = W.insert;
	after_step(se, req);
}

/* one action of session se; returns whether anything happened */
static bool
session_act(session *se, uint32_t a, uint32_t b)
{
	if (!se->in_call)
	{
		start_call(se, a);
		step(se, b);
		return true;
	}
	switch (se->state)
	{
		case S_PERFORM:
			return perform(se, b);
		case S_LOGGED:
			after_step(se, b36g_logged(&W.p.m, &se->call, se->logged));
			return true;
		default:
			step(se, b);
			return true;
	}
}

/*
 * A cancel or a terminate, where the glue checks for interrupts: in a wait,
 * or after a request was performed, before the next step; then
 * call_abandon().  Between a step and the start of what it asked for (the
 * broadcast after a publication, an insert and b36g_logged()) nothing checks.
 */
static void
cancel(session *se)
{
	if (!se->in_call || se->state == S_LOGGED)
		return;
	if (se->state == S_PERFORM && se->req != B36G_WAIT_RESERVATION &&
		se->req != B36G_WAIT_LINE && se->req != B36G_WAIT_CLOCK &&
		se->req != B36G_WAIT_STANDBYS)
		return;
	if (b36g_abandon(&W.p.m, &se->call))
		broadcast();
	wake(se->call.wake);
	end_call(se);
	se->calls_left = 0;
	if (W.verbose)
		printf("    session %d cancelled\n", SESS(se));
}

/* nobody waits behind a standby wait: a call in line never waits for one */
static void
check_line(void)
{
	int			i;

	for (i = 0; i < NSESS; i++)
	{
		const session *se = &W.s[i];

		if (se->in_call && se->state == S_PERFORM &&
			(se->req == B36G_WAIT_STANDBYS || se->req == B36G_WAIT_FLUSH) &&
			b36g_in_line(&W.p.m, &se->call))
			FAIL("session %d waits for standbys in the line of worker %d: callers behind it wait for its standbys",
				 i, WORKER);
	}
}

/* ---- configuration, standbys ---- */
static void
new_config(uint32_t a, uint32_t b)
{
	config	   *c;
	int			i;

	if (W.ncfg >= MAXCFG)
		return;
	c = &W.cfg[W.ncfg];
	memset(c, 0, sizeof(*c));
	c->floor = 1 + (int) (b % 4);
	if (b / 4 % 8 == 0)
		c->floor = B36S_OFF;
	if (W.nsb > 0 && a % 6 != 0)
	{
		int			perm[MAXSB];

		for (i = 0; i < W.nsb; i++)
			perm[i] = i;
		for (i = W.nsb - 1; i > 0; i--)
		{
			int			j = (int) ((a >> (4 + 2 * i)) % (uint32_t) (i + 1));
			int			t = perm[i];

			perm[i] = perm[j];
			perm[j] = t;
		}
		c->nnames = 1 + (int) (a / 6 % (uint32_t) W.nsb);
		for (i = 0; i < c->nnames; i++)
			c->names[i] = W.sb[perm[i]].name;
		/* '*' in some configurations: every standby matches */
		if ((a >> 20) % 4 == 0)
			c->names[(a >> 23) % (uint32_t) c->nnames] = STAR;
		c->method = (a >> 12) % 2 ? B36S_ANY : B36S_FIRST;
		c->num_sync = 1 + (int) ((a >> 14) % (uint32_t) c->nnames);
	}
	W.ncfg++;
}

static void
report(int sb)
{
	int			i;

	if (W.sb[sb].stalled)
		return;
	for (i = 0; i < NSLOTS; i++)
		if (W.slots[i].pid && W.slots[i].sb == sb)
		{
			memcpy(W.slots[i].pos, W.sb[sb].pos, sizeof(W.slots[i].pos));
			release(i);
		}
}

static void
disconnect(int sb)
{
	int			i;

	W.sb[sb].connected = false;
	for (i = 0; i < NSLOTS; i++)
		if (W.slots[i].pid && W.slots[i].sb == sb)
			W.slots[i].pid = 0;
}

/* replay on standby x up to its flushed WAL */
static void
apply(int x)
{
	standby    *sb = &W.sb[x];

	if (sb->paused || sb->pos[2] >= sb->pos[1])
		return;
	node_redo(&sb->n, sb->pos[2], sb->pos[1]);
	sb->pos[2] = sb->pos[1];
}

static void
crash(uint32_t a)
{
	int			i;
	int			x = W.nsb ? (int) (a / 2 % (uint32_t) W.nsb) : -1;

	if (a % 2 == 0 || x < 0)
	{
		/* crash and restart: WAL past the flush is lost */
		int			n = 0;

		while (n < W.nrec && W.wal[n].lsn <= W.flushed)
			n++;
		W.nrec = n;
		W.insert = W.flushed;
		if (W.verbose)
			printf("    crash restart at %llu\n", (unsigned long long) W.flushed);
		primary_start();
		return;
	}
	/* failover to x: its timeline is the WAL it has */
	{
		standby    *sb = &W.sb[x];
		uint64_t	end = sb->pos[0];
		int			n = 0, kept = 0;

		while (n < W.nrec && W.wal[n].lsn <= end)
			n++;
		W.nrec = n;
		W.insert = W.flushed = end;
		/* the promotion: what it has is replayed, redo ends */
		sb->paused = false;
		sb->pos[1] = end;
		if (sb->pos[2] < end)
		{
			node_redo(&sb->n, sb->pos[2], end);
			sb->pos[2] = end;
		}
		node_redo_end(&sb->n);
		/*
		 * its shared memory carries on as the primary's; the old primary,
		 * rewound, takes its place as a standby
		 */
		{
			node		old = W.p;

			W.p = sb->n;
			sb->n = old;
		}
		W.p.m.sh = &W.p.gen;
		W.p.m.members = W.p.members;
		W.p.redo_from = 0;
		memset(W.released, 0, sizeof(W.released));
		W.npublished = 0;
		for (i = 0; i < NSLOTS; i++)
			W.slots[i].pid = 0;
		W.ckpt_cfg = newest();
		reset_sessions();
		/* the others follow it: WAL past its end is gone, they restart */
		for (i = 0; i < W.nsb; i++)
		{
			int			m;

			for (m = 0; m < 3; m++)
				if (W.sb[i].pos[m] > end || i == x)
					W.sb[i].pos[m] = end;
			W.sb[i].connected = false;
			standby_start(i);
		}
		/*
		 * ids x had the record of when they left may not repeat (those it
		 * lacked are the exposure); each stays protected on the standbys
		 * whose WAL still has its record
		 */
		for (i = 0; i < W.nids; i++)
			if (W.ids[i].protected_on & (1u << x))
			{
				W.ids[kept] = W.ids[i];
				W.ids[kept].protected_on = holders_of(W.ids[i].cov, B36S_WRITE);
				kept++;
			}
		W.nids = kept;
		if (W.verbose)
			printf("    failover to standby %d at %llu, its clock %lld\n", x,
				   (unsigned long long) end, (long long) node_clock(&W.p));
	}
}

static void
apply_event(const event *e)
{
	int			sb = W.nsb ? (int) (e->a % (uint32_t) W.nsb) : -1;
	int			i;

	switch (e->kind)
	{
		case EV_STEP:
			(void) session_act(&W.s[e->a % NSESS], e->a / NSESS, e->b);
			break;
		case EV_RECV:
			if (sb >= 0 && W.sb[sb].connected)
			{
				uint64_t	p = W.sb[sb].pos[0] + 1 + e->b % 3;

				W.sb[sb].pos[0] = p < W.flushed ? p : W.flushed;
			}
			break;
		case EV_FLUSH:
			if (sb >= 0)
				W.sb[sb].pos[1] = W.sb[sb].pos[0];
			break;
		case EV_APPLY:
			if (sb >= 0)
				apply(sb);
			break;
		case EV_REPORT:
			if (sb >= 0)
				report(sb);
			break;
		case EV_PAUSE:
			if (sb >= 0)
				W.sb[sb].paused = !W.sb[sb].paused;
			break;
		case EV_STALL:
			if (sb >= 0)
				W.sb[sb].stalled = !W.sb[sb].stalled;
			break;
		case EV_DISCONNECT:
			if (sb >= 0 && W.sb[sb].connected)
				disconnect(sb);
			break;
		case EV_RECONNECT:
			if (sb >= 0 && !W.sb[sb].connected)
			{
				int			si = (int) (e->b % NSLOTS);
				int32_t		pid = 100 + (int32_t) (e->b / NSLOTS % 4);

				for (i = 0; i < NSLOTS; i++)
					if (W.slots[i].pid == pid)
						return;
				if (W.slots[si].pid)
					return;
				W.slots[si].pid = pid;
				W.slots[si].sb = sb;
				W.sb[sb].stalled = false;
				W.slots[si].cfg = newest();
				memset(W.slots[si].pos, 0, sizeof(W.slots[si].pos));
				W.sb[sb].connected = true;
			}
			break;
		case EV_SB_RESTART:
			/* the standby's server crashes and starts again */
			if (sb >= 0)
			{
				disconnect(sb);
				standby_start(sb);
			}
			break;
		case EV_CONFIG:
			new_config(e->a, e->b);
			break;
		case EV_DELIVER:
			{
				/* the reload reaches one process */
				int			t = (int) (e->b % (NSLOTS + 1 + NSESS));

				if (t < NSLOTS)
				{
					if (W.slots[t].pid)
						W.slots[t].cfg = newest();
				}
				else if (t == NSLOTS)
					W.ckpt_cfg = newest();
				else if (!W.s[t - NSLOTS - 1].bgw)
					W.s[t - NSLOTS - 1].signalled = newest();
			}
			break;
		case EV_OTHER_WAL:
			if (W.nrec < MAXREC)
			{
				W.insert++;
				W.wal[W.nrec].lsn = W.insert;
				W.wal[W.nrec].second = -1;
				W.nrec++;
				if (e->b % 2)
					W.flushed = W.insert;
			}
			break;
		case EV_CLOCK:
			if (e->b % 8 != 0)
				W.clk++;
			else if (e->b % 16 == 0)
				W.p.skew -= 1 + (int) (e->a % 3);	/* the primary's clock steps back */
			else if (sb >= 0)
				W.sb[sb].n.skew += (int) (e->a % 5) - 2;	/* a standby's clock drifts */
			break;
		case EV_CANCEL:
			cancel(&W.s[e->a % NSESS]);
			break;
		case EV_CHECKPOINT:
			if (e->b % 2 == 0 || sb < 0)
				W.p.redo_from = W.flushed;
			else
				W.sb[sb].n.redo_from = W.sb[sb].pos[2];
			break;
		case EV_CRASH:
			crash(e->a);
			break;
	}
}

/*
 * Liveness: every standby stalls, the floor goes to off everywhere, and the
 * sessions act in turns, the clock moving on whenever none can; each
 * session that was at local or off (or between calls) must get
 * DRAIN_IDS ids, however many others wait for standbys meanwhile.
 */
static void
drain(void)
{
	int			want[NSESS];
	bool		live[NSESS];
	int			i, r;

	W.draining = true;
	if (W.ncfg < MAXCFG)
	{
		W.cfg[W.ncfg] = W.cfg[newest()];
		W.cfg[W.ncfg].floor = B36S_OFF;
		W.ncfg++;
	}
	W.ckpt_cfg = newest();
	for (i = 0; i < NSLOTS; i++)
		if (W.slots[i].pid)
			W.slots[i].cfg = newest();
	for (i = 0; i < MAXSB; i++)
		W.sb[i].stalled = true;
	for (i = 0; i < NSESS; i++)
	{
		session    *se = &W.s[i];

		if (!se->bgw)
			se->signalled = newest();
		/* statements end with the current call: the next ones are at off */
		se->calls_left = se->in_call ? 1 : 0;
		live[i] = !se->in_call || se->call.sync.level <= B36S_LOCAL;
		want[i] = se->ids + DRAIN_IDS;
	}
	for (r = 0; r < DRAIN_ROUNDS && !W.violation[0]; r++)
	{
		bool		moved = false;
		bool		done = true;

		for (i = 0; i < NSESS; i++)
		{
			/* time passes whenever no live session can act (pollers always can) */
			if (session_act(&W.s[i], (uint32_t) (r * NSESS + i) * 5, 1) && live[i])
				moved = true;
			check_line();
			if (live[i] && W.s[i].ids < want[i])
				done = false;
		}
		if (done)
			return;
		if (!moved)
			W.clk++;
	}
	if (W.violation[0])
		return;
	if (W.verbose)
	{
		printf("    after the drain: reserved %lld, reserving %lld, floor %lld, clock %lld\n",
			   (long long) W.p.gen.res.reserved, (long long) W.p.gen.res.reserving,
			   (long long) W.p.gen.floor, (long long) node_clock(&W.p));
		for (i = 0; i < NSESS; i++)
			printf("    after the drain: session %d: %s, level %d, request %d, %s line, latch %d, cv %d/%d, reserving %d, ids %d of %d\n",
				   i, W.s[i].in_call ? "in a call" : "idle", W.s[i].call.sync.level,
				   (int) W.s[i].req, b36g_in_line(&W.p.m, &W.s[i].call) ? "in" : "not in",
				   W.s[i].latch, W.s[i].cv_prepared, W.s[i].cv_woken,
				   W.s[i].call.sync.reserving, W.s[i].ids, want[i]);
	}
	for (i = 0; i < NSESS; i++)
		if (live[i] && W.s[i].ids < want[i])
		{
			int			j;
			char		waiting[64] = "";

			for (j = 0; j < NSESS; j++)
				if (W.s[j].in_call && W.s[j].state == S_PERFORM &&
					W.s[j].req == B36G_WAIT_STANDBYS)
					snprintf(waiting + strlen(waiting), sizeof(waiting) - strlen(waiting),
							 " %d", j);
			FAIL("liveness: session %d got %d of %d ids in %d rounds with the standbys stalled; waiting for standbys:%s",
				 i, W.s[i].ids - (want[i] - DRAIN_IDS), DRAIN_IDS, DRAIN_ROUNDS,
				 waiting[0] ? waiting : " none");
			return;
		}
}

static event sched[MAXEV];
static int	nsched;

/*
 * Swarm testing: each schedule weighs the kinds of events its own way (some
 * left out, some four times as often), so that rare orders, such as a
 * standby leaving between a release and a judgement, come up in some of
 * the schedules instead of almost never in all of them.
 */
static void
generate(uint64_t seed, int nevents)
{
	uint64_t	s = seed;
	int			weight[EV_NKINDS];
	int			total = 0, i, k;

	for (k = 0; k < EV_NKINDS; k++)
	{
		static const int factor[] = {0, 1, 1, 2, 4};

		weight[k] = ev_weight[k] * factor[mix(&s) % 5];
		/* sessions always act, the clock always moves */
		if (weight[k] == 0 && (k == EV_STEP || k == EV_CLOCK))
			weight[k] = ev_weight[k];
		total += weight[k];
	}
	nsched = nevents;
	for (i = 0; i < nevents; i++)
	{
		int			r = (int) (mix(&s) % (uint64_t) total);

		for (k = 0; r >= weight[k]; k++)
			r -= weight[k];
		sched[i].kind = k;
		sched[i].a = (uint32_t) mix(&s);
		sched[i].b = (uint32_t) mix(&s);
	}
}

/* runs the schedule in sched (keep[i] false: left out); true if it fails */
static bool
run(uint64_t seed, const bool *keep)
{
	uint64_t	h = seed;
	int			i;

	memset(&W, 0, offsetof(world, verbose));
	/* mostly two or three standbys: most of what can go wrong needs two */
	W.nsb = (int) ((uint32_t[]) {0, 1, 1, 2, 2, 2, 3, 3, 3, 3}[mix(&h) % 10]);
	W.bgw = mix(&h) % 2;
	W.clk = 1000;
	W.insert = W.flushed = 1;
	for (i = 0; i < MAXSB; i++)
	{
		/* application names: sometimes two standbys share one */
		W.sb[i].name = mix(&h) % 3 == 0 && i > 0 ? W.sb[i - 1].name : 10 + i;
		W.sb[i].n.skew = (int) (mix(&h) % 5) - 2;
		W.sb[i].n.file_second = -1;
		standby_start(i);
	}
	W.p.file_second = -1;
	new_config((uint32_t) mix(&h), (uint32_t) mix(&h));
	primary_start();
	/* the cluster starts with every standby streaming, in slot order */
	for (i = 0; i < W.nsb; i++)
	{
		W.slots[i].pid = 100 + i;
		W.slots[i].sb = i;
		W.slots[i].cfg = newest();
		W.sb[i].connected = true;
	}
	for (i = 0; i < nsched && !W.violation[0]; i++)
	{
		if (keep && !keep[i])
			continue;
		if (W.verbose)
			printf("  %3d %s a=%u b=%u\n", i, ev_names[sched[i].kind], sched[i].a, sched[i].b);
		apply_event(&sched[i]);
		check_line();
	}
	if (!W.violation[0])
		drain();
	return W.violation[0] != 0;
}

static void
print_config(int v)
{
	const config *c = &W.cfg[v];
	int			i;

	printf("    config %d: floor %d, ", v, c->floor);
	if (c->nnames == 0)
	{
		printf("synchronous_standby_names = ''\n");
		return;
	}
	printf("%s %d (", c->method == B36S_FIRST ? "FIRST" : "ANY", c->num_sync);
	for (i = 0; i < c->nnames; i++)
	{
		if (c->names[i] == STAR)
			printf("%s*", i ? ", " : "");
		else
			printf("%sn%d", i ? ", " : "", c->names[i]);
	}
	printf(")\n");
}

/* leaves out events as long as the schedule still fails, then prints it */
static void
shrink_and_print(uint64_t seed)
{
	static bool keep[MAXEV];
	char		first[256];
	int			i, chunk, kept;

	for (i = 0; i < nsched; i++)
		keep[i] = true;
	run(seed, keep);
	memcpy(first, W.violation, sizeof(first));
	for (chunk = nsched / 2; chunk >= 1; chunk /= 2)
		for (i = 0; i < nsched; i += chunk)
		{
			int			j, any = 0;

			for (j = i; j < i + chunk && j < nsched; j++)
				if (keep[j])
				{
					keep[j] = false;
					any = 1;
				}
			if (!any)
				continue;
			if (!run(seed, keep))
				for (j = i; j < i + chunk && j < nsched; j++)
					keep[j] = true;
		}
	for (kept = 0, i = 0; i < nsched; i++)
		kept += keep[i];
	printf("FAILED: seed %llu: %s\n", (unsigned long long) seed, first);
	printf("shrunk to %d of %d events (replay: sim_b36gen -r %llu shows all of them):\n",
		   kept, nsched, (unsigned long long) seed);
	W.verbose = true;
	run(seed, keep);
	W.verbose = false;
	for (i = 0; i < W.nsb; i++)
		printf("    standby %d: application_name n%d, clock %+d\n", i, W.sb[i].name,
			   W.sb[i].n.skew);
	for (i = 0; i < W.ncfg; i++)
		print_config(i);
	if (W.bgw)
		printf("    session %d is a background worker (ignores SIGHUP)\n", NSESS - 1);
	printf("  violation: %s\n", W.violation);
}

int
main(int argc, char **argv)
{
	uint64_t	max_schedules = 20000;
	uint64_t	seed0 = 1;
	int			nevents = 200;
	int			opt;
	uint64_t	n;

	while ((opt = getopt(argc, argv, "n:e:S:r:")) != -1)
	{
		switch (opt)
		{
			case 'n':
				max_schedules = strtoull(optarg, NULL, 10);
				break;
			case 'e':
				nevents = atoi(optarg);
				if (nevents < 1 || nevents > MAXEV)
					nevents = MAXEV;
				break;
			case 'S':
				seed0 = strtoull(optarg, NULL, 10);
				break;
			case 'r':
				seed0 = strtoull(optarg, NULL, 10);
				generate(seed0, nevents);
				W.verbose = true;
				if (run(seed0, NULL))
				{
					printf("violation: %s\n", W.violation);
					return 1;
				}
				printf("seed %llu: no violation\n", (unsigned long long) seed0);
				return 0;
			default:
				fprintf(stderr, "usage: %s [-n SCHEDULES] [-e EVENTS] [-S SEED] [-r SEED]\n", argv[0]);
				return 2;
		}
	}
	for (n = 0; n < max_schedules; n++)
	{
		uint64_t	seed = seed0 + n;

		generate(seed, nevents);
		if (run(seed, NULL))
		{
			printf("after %llu schedules\n", (unsigned long long) n + 1);
			shrink_and_print(seed);
			return 1;
		}
	}
	printf("sim_b36gen: %llu schedules of %d events from seed %llu, no violation\n",
		   (unsigned long long) n, nevents, (unsigned long long) seed0);
	return 0;
}
