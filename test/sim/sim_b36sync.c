/*
 * sim_b36sync.c — a deterministic, seeded simulation of base36id's
 * reservation protocol with synchronous standbys: the real state machine of
 * src/core/b36sync.c (and the counters of src/core/base36.c), driven as
 * src/base36id_gen.c drives them, against a simulated primary, 0 to 3
 * standbys and their walsenders, sessions at mixed levels (one of them, in
 * half of the schedules, a background worker that ignores SIGHUP), configuration
 * reloads that reach each process at its own moment, crashes, restarts and
 * failovers.
 *
 * A schedule is a list of events drawn from a seed; every event is one
 * atomic step (one iteration of the generator's loop under its lock, one
 * step of a reservation, one message of a standby, ...), so any
 * interleaving, i.e. preemption at any step, is a schedule.  An event that
 * does not apply in the state it meets does nothing, so that a schedule
 * can be shrunk by leaving events out.
 *
 * The checker, at every step (doc/base36id.md#synchronous-standbys):
 *  - safety: an id leaves at level L above local only while the standbys
 *    synchronous now (the walsenders' priorities, the configuration's
 *    method and number) have its second's record at L, or none are
 *    defined; while a configuration is still on its way to a walsender,
 *    the checkpointer or the session itself,
 *    the standbys synchronous under the new one have it, or a commit of the
 *    record would have returned (the walsenders, each with the configuration
 *    it has, released it: the exposure core's commits have too); and never
 *    before its record is flushed locally;
 *  - uniqueness: no id is handed out twice on a timeline clients go on
 *    using (crash restarts and failovers included), except ids the
 *    promoted standby was not one of the synchronous ones for when they
 *    left (the documented exposure), and only those;
 *  - per-session order: a session's ids increase;
 *  - no needless wait: a call whose configuration is current does not wait
 *    while the standbys it needs have the record and a commit of it would
 *    have returned (nor wait for another
 *    call's reservation of a second already reserved);
 *  - a second is reserved once (no re-reservation ping-pong).
 *
 * Usage: sim_b36sync [-s SECONDS] [-n SCHEDULES] [-e EVENTS] [-S SEED] [-r SEED]
 *   runs schedules of seeds SEED, SEED+1, ... until SECONDS or SCHEDULES;
 *   -r replays one seed verbosely.  A failing schedule prints its seed,
 *   the violation and a shrunk reproduction, and exits 1.
 */
#include "b36sync.h"
#include "base36.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXSB 3					/* standbys */
#define NSLOTS 4				/* walsender slots */
#define NSESS 3					/* sessions */
#define MAXREC 4096				/* WAL records of a schedule */
#define MAXCFG 64				/* configuration versions */
#define MAXIDS 8192
#define MAXEV 400

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
	EV_STEP, EV_RECV, EV_FLUSH, EV_APPLY, EV_REPORT, EV_PAUSE, EV_DISCONNECT,
	EV_RECONNECT, EV_CONFIG, EV_DELIVER, EV_OTHER_WAL, EV_CLOCK, EV_CANCEL,
	EV_CRASH, EV_NKINDS
};
static const char *const ev_names[] = {
	"step", "recv", "flush", "apply", "report", "pause", "disconnect",
	"reconnect", "config", "deliver", "other_wal", "clock", "cancel", "crash"
};
static const int ev_weight[] = {40, 12, 8, 6, 12, 2, 2, 3, 3, 8, 3, 4, 1, 1};

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
	int			names[MAXSB];	/* standby ids in priority order */
	int			method;
	int			num_sync;
	int			floor;			/* idgen.base36id_synchronous_commit */
} config;

typedef struct record
{
	uint64_t	lsn;
	int64_t		second;			/* -1: other WAL */
} record;

typedef struct standby
{
	bool		connected;
	bool		paused;			/* replay paused */
	uint64_t	pos[3];			/* written, flushed, applied */
} standby;

typedef struct slot
{
	int32_t		pid;
	int			sb;				/* standby id */
	int			cfg;			/* configuration version it has taken in */
	uint64_t	pos[3];			/* as last reported */
} slot;

typedef struct session
{
	int			own;			/* its synchronous_commit */
	bool		bgw;			/* a background worker: ignores SIGHUP */
	int			cfg;			/* configuration it has taken in */
	int			signalled;		/* newest version it was told of */
	int			calls_left;
	bool		in_call;
	int			phase;			/* 1 generate; 2..5 reserving */
	int64_t		reserving;
	b36s_call	call;
	bool		first;
	uint64_t	ras;			/* reservations at the call's start */
	int64_t		last_id;
} session;

typedef struct idrec
{
	int64_t		id;
	unsigned	protected_on;	/* standbys a failover to must not repeat it */
} idrec;

typedef struct world
{
	int			nsb;
	bool		bgw;			/* the last session is a background worker */
	int64_t		clk;
	/* the primary */
	record		wal[MAXREC];
	int			nrec;
	uint64_t	insert;
	uint64_t	flushed;
	int64_t		file_second;	/* durable */
	/* its shared memory (base36id_gen.c's) */
	int64_t		floor;
	int64_t		shm_file_second;
	bool		archive_recovery;
	b36_state	st;
	b36s_reservation res;
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
	/* checker */
	idrec		ids[MAXIDS];
	int			nids;
	char		violation[256];
	bool		verbose;
} world;

static world W;

#define FAIL(...) do { if (!W.violation[0]) snprintf(W.violation, sizeof(W.violation), __VA_ARGS__); } while (0)

static int
newest(void)
{
	return W.ncfg - 1;
}

static int
priority_in(const config *c, int sb)
{
	int			i;

	for (i = 0; i < c->nnames; i++)
		if (c->names[i] == sb)
			return c->method == B36S_FIRST ? i + 1 : 1;
	return 0;
}

static bool
slot_candidate(const slot *sl)
{
	return sl->pid != 0 && priority_in(&W.cfg[sl->cfg], sl->sb) > 0 && sl->pos[1] != 0;
}

/* the facts base36id_sync_view() would read */
static void
build_view(const session *se, b36s_view *v, b36s_standby *sbs)
{
	const config *own = &W.cfg[se->cfg];
	int			i;

	memset(v, 0, sizeof(*v));
	v->flushed = W.flushed;
	v->defined = W.cfg[W.ckpt_cfg].nnames > 0;
	v->config_current = se->signalled <= se->cfg;
	v->takes_reloads = !se->bgw;
	v->config_empty = own->nnames == 0;
	v->method = own->method;
	v->num_sync = own->nnames ? own->num_sync : 1;
	memcpy(v->released, W.released, sizeof(W.released));
	for (i = 0; i < NSLOTS; i++)
	{
		const slot *sl = &W.slots[i];

		sbs[i].pid = sl->pid;
		sbs[i].streaming = sl->pid != 0;
		sbs[i].priority = sl->pid ? priority_in(&W.cfg[sl->cfg], sl->sb) : 0;
		memcpy(sbs[i].pos, sl->pos, sizeof(sl->pos));
	}
	v->n = NSLOTS;
	v->standbys = sbs;
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

/*
 * The truth, with the newest configuration and every walsender having taken
 * it in: which standbys are synchronous, whether they have lsn at level
 * (actual = their real positions, else as reported), and for FIRST which
 * ones must have it.  Returns whether confirmed; *mask: the standbys that
 * have it among those that count.
 */
static bool
truth(uint64_t lsn, int level, bool actual, unsigned *mask)
{
	const config *c = &W.cfg[newest()];
	int			mode = level - B36S_WRITE;
	int			cand[NSLOTS];
	int			k = 0;
	int			need;
	int			holders = 0;
	bool		all = true;
	int			i, j;

	*mask = 0;
	for (i = 0; i < NSLOTS; i++)
		if (W.slots[i].pid != 0 && priority_in(c, W.slots[i].sb) > 0 &&
			W.slots[i].pos[1] != 0)
			cand[k++] = i;
	if (k == 0)
		return false;
	need = c->num_sync < k ? c->num_sync : k;
	/* FIRST: by priority, then slot */
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
		bool		h = p >= lsn;

		if (c->method == B36S_FIRST && i >= need)
			break;
		/* FIRST: the synchronous ones; ANY: those that have it */
		if (h || c->method == B36S_FIRST)
			*mask |= 1u << sl->sb;
		if (h)
			holders++;
		else if (c->method == B36S_FIRST)
			all = false;
	}
	if (holders < need)
	{
		/* not confirmed: every candidate counts */
		all = false;
		for (i = 0; i < k; i++)
			*mask |= 1u << W.slots[cand[i]].sb;
	}
	if (!actual && k < c->num_sync)
		return false;
	return all;
}

static void
hand_out(session *se, int64_t second, int counter)
{
	int64_t		id = second * B36_COUNTERS + counter;
	uint64_t	cov = covering(second);
	int			level = se->call.level;
	unsigned	mask = 0;
	int			i;

	if (id <= se->last_id)
		FAIL("session %d: id %lld after %lld", (int) (se - W.s), (long long) id,
			 (long long) se->last_id);
	se->last_id = id;
	if (cov == UINT64_MAX || cov > W.flushed)
		FAIL("id %lld of second %lld left before its record was flushed",
			 (long long) id, (long long) second);
	if (level > B36S_LOCAL && W.cfg[newest()].nnames > 0 && !in_transit(se))
	{
		if (!truth(cov, level, true, &mask))
			FAIL("id %lld of second %lld left at level %d while the synchronous standbys lacked its record",
				 (long long) id, (long long) second, level);
	}
	else if (level > B36S_LOCAL && W.cfg[W.ckpt_cfg].nnames > 0 &&
			 W.released[level - B36S_WRITE] < cov &&
			 !(W.cfg[newest()].nnames > 0 && truth(cov, level, true, &mask)))
		FAIL("id %lld of second %lld left at level %d while a reload was on its way, confirmed neither by the new configuration nor as a commit",
			 (long long) id, (long long) second, level);
	for (i = 0; i < W.nids; i++)
		if (W.ids[i].id == id)
			FAIL("id %lld handed out twice", (long long) id);
	if (W.nids < MAXIDS)
	{
		W.ids[W.nids].id = id;
		W.ids[W.nids].protected_on = mask;
		W.nids++;
	}
	if (W.verbose)
		printf("    session %d: id %lld (second %lld, counter %d, level %d)\n",
			   (int) (se - W.s), (long long) id, (long long) second, counter, level);
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

	if (W.cfg[W.ckpt_cfg].nnames == 0 || c->nnames == 0 ||
		priority_in(c, me->sb) == 0)
		return;
	for (i = 0; i < NSLOTS; i++)
		if (slot_candidate(&W.slots[i]))
			cand[k++] = i;
	/* priorities as each walsender published them */
	for (i = 0; i < k; i++)
		for (j = i + 1; j < k; j++)
		{
			int			pi = priority_in(&W.cfg[W.slots[cand[i]].cfg], W.slots[cand[i]].sb);
			int			pj = priority_in(&W.cfg[W.slots[cand[j]].cfg], W.slots[cand[j]].sb);

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

/* a fresh start of the primary's shared memory (shmem_init) and redo */
static void
start_primary(bool archive_recovery)
{
	int			i;
	int64_t		hw = W.file_second > W.clk ? W.file_second : W.clk;

	W.floor = hw;
	b36s_init(&W.res, W.file_second);
	W.shm_file_second = W.file_second;
	W.archive_recovery = archive_recovery;
	b36_state_init(&W.st, hw);
	/* redo of the WAL the server has */
	for (i = 0; i < W.nrec; i++)
		if (W.wal[i].second > W.floor)
			W.floor = W.wal[i].second;
	memset(W.released, 0, sizeof(W.released));
	W.npublished = 0;
	for (i = 0; i < NSLOTS; i++)
		W.slots[i].pid = 0;
	for (i = 0; i < MAXSB; i++)
		W.sb[i].connected = false;
	W.ckpt_cfg = newest();
	for (i = 0; i < NSESS; i++)
	{
		memset(&W.s[i], 0, sizeof(W.s[i]));
		W.s[i].cfg = W.s[i].signalled = newest();
		W.s[i].last_id = -1;
		W.s[i].own = i % 5;
		W.s[i].bgw = W.bgw && i == NSESS - 1;
	}
}

static void
end_call(session *se)
{
	se->in_call = false;
	se->phase = 0;
}

static void
check_needless(session *se, int64_t second, bool reservation_wait)
{
	unsigned	mask;

	/* a background worker asks every candidate, always */
	if (in_transit(se) || se->signalled > se->cfg || se->bgw)
		return;
	if (reservation_wait && second > W.res.reserved)
		return;
	if (W.flushed < W.res.lsn || W.res.lsn == 0)
		return;
	/* a commit of the record would wait too */
	if (se->call.level > B36S_LOCAL &&
		W.released[se->call.level - B36S_WRITE] < W.res.lsn)
		return;
	if (se->call.level <= B36S_LOCAL || W.cfg[newest()].nnames == 0 ||
		truth(W.res.lsn, se->call.level, false, &mask))
		FAIL("session %d waits (%s) while the standbys it needs have second %lld's record",
			 (int) (se - W.s), reservation_wait ? "for a reservation" : "for standbys",
			 (long long) second);
}

/* one step of a session: base36id_gen_next()'s loop, one iteration */
static void
session_step(session *se, uint32_t a)
{
	b36_state	next;
	b36_next_status status;
	int64_t		now, second;
	int			counter;
	bool		new_second;

	if (!se->in_call)
	{
		if (se->calls_left == 0)
		{
			/*
			 * A new statement: a pending reload is taken in; a background
			 * worker's runs are processes of their own, each started with
			 * the configuration the server has then.
			 */
			if (se->bgw)
				se->cfg = newest();
			else if (se->signalled > se->cfg)
				se->cfg = se->signalled;
			se->own = (int) (a % 5);
			/* a background worker's job: a long loop */
			se->calls_left = 1 + (int) (a / 5 % (se->bgw ? 60 : 6));
		}
		se->in_call = true;
		se->phase = 1;
		se->first = true;
		{
			int			fl = W.cfg[se->cfg].floor;

			b36s_call_init(&se->call, se->own > fl ? se->own : fl);
		}
		return;
	}
	if (se->phase == 2)
	{
		/* the state file, fsync'd; sometimes it fails (an ERROR) */
		if (a % 16 == 0)
		{
			b36s_reserve_failed(&W.res, &se->call);
			end_call(se);
			se->calls_left = 0;
			return;
		}
		if (se->reserving > W.shm_file_second)
			W.file_second = se->reserving;
		se->phase = 3;
		return;
	}
	if (se->phase == 3)
	{
		if (W.nrec >= MAXREC)
			return;
		W.insert++;
		W.wal[W.nrec].lsn = W.insert;
		W.wal[W.nrec].second = se->reserving;
		W.nrec++;
		b36s_reserve_logged(&W.res, &se->call, W.insert);
		se->phase = 4;
		return;
	}
	if (se->phase == 4)
	{
		W.flushed = W.insert;
		se->phase = 5;
		return;
	}
	if (se->phase == 5)
	{
		int			i;

		if (se->reserving > W.shm_file_second)
			W.shm_file_second = se->reserving;
		for (i = 0; i < W.npublished; i++)
			if (W.published[i] == se->reserving)
				FAIL("second %lld reserved twice", (long long) se->reserving);
		if (W.npublished < 64)
			W.published[W.npublished++] = se->reserving;
		b36s_reserved(&W.res, &se->call);
		se->phase = 1;
		return;
	}

	/* phase 1: one iteration of the generator's loop, under its lock */
	now = W.clk;
	if (W.archive_recovery)
	{
		W.floor = W.floor > now ? W.floor : now;
		W.archive_recovery = false;
	}
	if (se->first)
	{
		se->ras = W.res.reservations;
		se->first = false;
	}
	if (W.res.reservations > se->ras && W.res.reserved < now)
		now = W.res.reserved;
	if (W.st.second < W.floor)
		b36_state_init(&W.st, W.floor);
	next = W.st;
	status = b36_state_next(&next, now, &second, &counter, &new_second);
	if (status == B36_NEXT_OK)
	{
		b36s_view	v;
		b36s_standby sbs[NSLOTS];
		b36s_step	step;

		build_view(se, &v, sbs);
		step = b36s_next(&W.res, &se->call, next.second, &v);
		switch (step)
		{
			case B36S_HAND_OUT:
				W.st = next;
				hand_out(se, second, counter);
				end_call(se);
				se->calls_left--;
				break;
			case B36S_RESERVE:
				se->reserving = W.res.reserving;
				se->phase = 2;
				break;
			case B36S_WAIT_RESERVATION:
				check_needless(se, next.second, true);
				break;
			case B36S_WAIT_STANDBYS:
				check_needless(se, next.second, false);
				break;
		}
		return;
	}
	/* used up, or out of range: wait for the clock */
	se->ras = W.res.reservations;
}

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
		memcpy(c->names, perm, sizeof(int) * c->nnames);
		c->method = (a >> 12) % 2 ? B36S_ANY : B36S_FIRST;
		c->num_sync = 1 + (int) ((a >> 14) % (uint32_t) c->nnames);
	}
	W.ncfg++;
}

static void
report(int sb)
{
	int			i;

	for (i = 0; i < NSLOTS; i++)
		if (W.slots[i].pid && W.slots[i].sb == sb)
		{
			memcpy(W.slots[i].pos, W.sb[sb].pos, sizeof(W.slots[i].pos));
			release(i);
		}
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
		start_primary(false);
		return;
	}
	/* failover to x: its timeline is the WAL it has */
	{
		uint64_t	end = W.sb[x].pos[0];
		int			n = 0, kept = 0;
		int64_t		top = -1;

		while (n < W.nrec && W.wal[n].lsn <= end)
		{
			if (W.wal[n].second > top)
				top = W.wal[n].second;
			n++;
		}
		W.nrec = n;
		W.insert = W.flushed = end;
		W.file_second = top;
		/* ids x was not synchronous for may repeat (the exposure) */
		for (i = 0; i < W.nids; i++)
			if (W.ids[i].protected_on & (1u << x))
				W.ids[kept++] = W.ids[i];
		W.nids = kept;
		for (i = 0; i < MAXSB; i++)
		{
			int			m;

			for (m = 0; m < 3; m++)
				if (W.sb[i].pos[m] > end || i == x)
					W.sb[i].pos[m] = end;
			W.sb[i].paused = false;
		}
		/* the promoted standby's clock may be behind the old primary's */
		W.clk -= (int64_t) (a >> 3) % 4;
		if (W.verbose)
			printf("    failover to standby %d at %llu, clock %lld\n", x,
				   (unsigned long long) end, (long long) W.clk);
		start_primary(true);
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
			session_step(&W.s[e->a % NSESS], e->b);
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
			if (sb >= 0 && !W.sb[sb].paused)
				W.sb[sb].pos[2] = W.sb[sb].pos[1];
			break;
		case EV_REPORT:
			if (sb >= 0)
				report(sb);
			break;
		case EV_PAUSE:
			if (sb >= 0)
				W.sb[sb].paused = !W.sb[sb].paused;
			break;
		case EV_DISCONNECT:
			if (sb >= 0 && W.sb[sb].connected)
			{
				W.sb[sb].connected = false;
				for (i = 0; i < NSLOTS; i++)
					if (W.slots[i].pid && W.slots[i].sb == sb)
						W.slots[i].pid = 0;
			}
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
				W.slots[si].cfg = newest();
				memset(W.slots[si].pos, 0, sizeof(W.slots[si].pos));
				W.sb[sb].connected = true;
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
			W.clk += e->b % 8 == 0 ? -(int64_t) (1 + e->a % 3) : 1;
			break;
		case EV_CANCEL:
			{
				session    *se = &W.s[e->a % NSESS];

				/* any step but the publication, which holds the lock */
				if (se->in_call && se->phase != 5)
				{
					if (se->call.reserving)
						b36s_reserve_failed(&W.res, &se->call);
					end_call(se);
					se->calls_left = 0;
				}
			}
			break;
		case EV_CRASH:
			crash(e->a);
			break;
	}
}

static event sched[MAXEV];
static int	nsched;

static void
generate(uint64_t seed, int nevents)
{
	uint64_t	s = seed;
	int			total = 0, i, k;

	for (k = 0; k < EV_NKINDS; k++)
		total += ev_weight[k];
	nsched = nevents;
	for (i = 0; i < nevents; i++)
	{
		int			r = (int) (mix(&s) % (uint64_t) total);

		for (k = 0; r >= ev_weight[k]; k++)
			r -= ev_weight[k];
		sched[i].kind = k;
		sched[i].a = (uint32_t) mix(&s);
		sched[i].b = (uint32_t) mix(&s);
	}
}

/* runs the schedule in sched (keep[i] false: left out); true if it fails */
static bool
run(uint64_t seed, const bool *keep)
{
	int			i;

	memset(&W.violation, 0, sizeof(W.violation));
	W.nsb = (int) (seed % (MAXSB + 1));
	{
		uint64_t	h = seed;

		W.bgw = mix(&h) % 2;
	}
	W.clk = 1000;
	W.nrec = 0;
	W.insert = W.flushed = 1;
	W.file_second = -1;
	memset(W.sb, 0, sizeof(W.sb));
	memset(W.slots, 0, sizeof(W.slots));
	W.ncfg = 0;
	new_config((uint32_t) (seed >> 8), (uint32_t) (seed >> 24));
	W.nids = 0;
	start_primary(false);
	for (i = 0; i < nsched && !W.violation[0]; i++)
	{
		if (keep && !keep[i])
			continue;
		if (W.verbose)
			printf("  %3d %s a=%u b=%u\n", i, ev_names[sched[i].kind], sched[i].a, sched[i].b);
		apply_event(&sched[i]);
	}
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
		printf("%ss%d", i ? ", " : "", c->names[i]);
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
	printf("shrunk to %d of %d events (replay: sim_b36sync -r %llu shows all of them):\n",
		   kept, nsched, (unsigned long long) seed);
	W.verbose = true;
	run(seed, keep);
	W.verbose = false;
	for (i = 0; i < W.ncfg; i++)
		print_config(i);
	if (W.bgw)
		printf("    session %d is a background worker (ignores SIGHUP)\n", NSESS - 1);
	printf("  violation: %s\n", W.violation);
}

int
main(int argc, char **argv)
{
	double		seconds = 10;
	uint64_t	max_schedules = 0;
	uint64_t	seed0 = 1;
	int			nevents = 200;
	int			opt;
	uint64_t	n;
	time_t		start = time(NULL);

	while ((opt = getopt(argc, argv, "s:n:e:S:r:")) != -1)
	{
		switch (opt)
		{
			case 's':
				seconds = atof(optarg);
				break;
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
				fprintf(stderr, "usage: %s [-s SECONDS] [-n SCHEDULES] [-e EVENTS] [-S SEED] [-r SEED]\n", argv[0]);
				return 2;
		}
	}
	for (n = 0;; n++)
	{
		uint64_t	seed = seed0 + n;

		if (max_schedules ? n >= max_schedules :
			(n % 1024 == 0 && difftime(time(NULL), start) >= seconds))
			break;
		generate(seed, nevents);
		if (run(seed, NULL))
		{
			printf("after %llu schedules\n", (unsigned long long) n + 1);
			shrink_and_print(seed);
			return 1;
		}
	}
	printf("sim_b36sync: %llu schedules of %d events from seed %llu, no violation\n",
		   (unsigned long long) n, nevents, (unsigned long long) seed0);
	return 0;
}
