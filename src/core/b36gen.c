/*
 * b36gen.c — base36id's generation path as one state machine (b36gen.h).
 * The B36G_MUTANT_* block is a mistake planted on purpose by
 * test/sim/mutants.sh, compiled only there, to show that the simulation
 * finds it; the extension never defines it.
 */
#include "b36gen.h"

/* where a call is, between two steps (b36g_call_init() starts at 0) */
enum
{
	P_TAKE = 0,					/* about to take a counter, or wait for one */
	P_RES_FILE,					/* reserving c->second: the state file is
								 * being written */
	P_RES_LOG,					/* its record is being inserted */
	P_RES_FLUSH,				/* its record is being flushed */
	P_OWN_LOG,					/* it holds c->id: its own record is being
								 * inserted */
	P_OWN_FLUSH,				/* ... and flushed */
	P_HELD						/* it holds c->id and waits for standbys */
};

void
b36g_start(b36g *g, int64_t file_second, int64_t clock_second, bool archive_recovery,
		   int damaged, int budget)
{
	b36g_shared *sh = g->sh;
	/* no id may come from a second that may already have been used */
	int64_t		hw = file_second > clock_second ? file_second : clock_second;
	int			i;

	sh->floor = hw;
	sh->file_second = file_second;
	sh->archive_recovery = archive_recovery;
	sh->damaged = damaged;
	sh->budget = budget;
	b36s_init(&sh->res, file_second);
	for (i = 0; i < B36_WORKERS; i++)
		b36_state_init(&sh->workers[i], hw);
	wl_init(sh->lines, B36_WORKERS, g->members, g->nmembers);
}

int64_t
b36g_redo(b36g *g, int64_t second, int64_t clock_second)
{
	b36g_shared *sh = g->sh;

	if (second > sh->floor)
		sh->floor = second;
	/* a damaged file is left for the administrator to look at */
	if (second > sh->file_second && sh->damaged == 0 &&
		second >= clock_second - B36G_REDO_WINDOW_S)
		return sh->floor;
	return -1;
}

int64_t
b36g_redo_end(b36g *g)
{
	/* the seconds replayed without a write, once */
	if (g->sh->floor > g->sh->file_second && g->sh->damaged == 0)
		return g->sh->floor;
	return -1;
}

void
b36g_file_written(b36g *g, int64_t second)
{
	if (second > g->sh->file_second)
		g->sh->file_second = second;
}

bool
b36g_in_line(const b36g *g, const b36g_call *c)
{
	return wl_line_of(g->members, c->member) >= 0;
}

/* leaves the line, if in it: whoever became first is to be woken */
static inline void
leave_line(b36g *g, b36g_call *c)
{
	/* the per-id path: nobody waits, the call is in no line */
	if (wl_line_of(g->members, c->member) >= 0)
		c->wake = wl_leave(g->sh->lines, g->members, c->member);
}

static void
join_line(b36g *g, b36g_call *c)
{
	if (!b36g_in_line(g, c))
		c->ahead = wl_join(g->sh->lines, g->members, c->worker, c->member);
}

/* how the call waits for c->lsn: locally, or for the standbys */
static b36g_req
standby_wait(const b36g_call *c)
{
	return c->sync.level <= B36S_LOCAL ? B36G_WAIT_FLUSH : B36G_WAIT_STANDBYS;
}

/* P_TAKE: take a counter, or say what to wait for */
static b36g_req
take(b36g *g, b36g_call *c, uint64_t now_ms, b36g_view_fn read_view, void *view_arg)
{
	b36g_shared *sh = g->sh;
	b36_state  *st = &sh->workers[c->worker];
	b36_state	next;
	b36s_view	v;
	int64_t		now = (int64_t) (now_ms / 1000) - B36_EPOCH_UNIX_S;
	int64_t		second = 0;
	int			counter = 0;
	bool		new_second;

	if (sh->damaged != 0)
	{
		leave_line(g, c);
		return B36G_DAMAGED;
	}

	/*
	 * The first generation since a standby was promoted (or a backup
	 * restored): its clock's second may also be the last one of an old
	 * primary whose WAL did not arrive.  Skip it, whether or not any WAL
	 * was replayed.
	 */
	if (sh->archive_recovery)
	{
		if (now > sh->floor)
			sh->floor = now;
		sh->archive_recovery = false;
	}
	if (!c->started)
	{
		c->reservations_at_start = sh->res.reservations;
		c->started = true;
	}

	/*
	 * Others wait for this worker's budget: after them.  Only the first in
	 * line takes a counter; the others sleep until the one before them
	 * leaves and wakes them (the timeout is a safety net).
	 */
	if (!wl_empty(&sh->lines[c->worker]) &&
		!wl_is_first(sh->lines, g->members, c->member))
	{
		join_line(g, c);
		c->sleep_ms = B36G_LINE_SLEEP_MS;
		return B36G_WAIT_LINE;
	}

	/*
	 * A reservation ended during this call: its second may be handed out
	 * even if the clock has moved on (a slow reservation would otherwise be
	 * followed by another, forever).
	 */
	if (sh->res.reservations > c->reservations_at_start && sh->res.reserved < now)
		now = sh->res.reserved;
	if (st->second < sh->floor)
		b36_state_init(st, sh->floor);
	next = *st;
	switch (b36_state_next_of(&next, now, sh->budget, &second, &counter, &new_second))
	{
		case B36_NEXT_OK:
			break;
		case B36_NEXT_RANGE:
			/* whoever follows in line finds the same and leaves too */
			leave_line(g, c);
			return B36G_RANGE;
		case B36_NEXT_WAIT:
			{
				/* used up: wait for the next second, in line */
				int64_t		until_ms = (st->second + 1 + B36_EPOCH_UNIX_S) * 1000;
				int64_t		ms = until_ms - (int64_t) now_ms;

				join_line(g, c);
				/* from now on only a new second will do */
				c->reservations_at_start = sh->res.reservations;
				c->sleep_ms = ms < 1 ? 1 : ms > B36G_LINE_SLEEP_MS ? B36G_LINE_SLEEP_MS : (long) ms;
				return B36G_WAIT_CLOCK;
			}
	}

	read_view(view_arg, &v);
	switch (b36s_next(&sh->res, &c->sync, next.second, &v))
	{
		case B36S_RESERVE:
			/* a new second: reserve it, then take again */
			c->second = next.second;
			c->wrote_file = false;
			if (c->second > sh->file_second)
			{
				c->phase = P_RES_FILE;
				return B36G_WRITE_FILE;
			}
			c->phase = P_RES_LOG;
			return B36G_LOG;
		case B36S_WAIT_RESERVATION:
			c->second = next.second;
			return B36G_WAIT_RESERVATION;
		case B36S_HAND_OUT:
			/* a counter of a reserved second, used once; the next in line is first now */
			*st = next;
			c->second = second;
			c->id = b36_compose(second, c->worker, counter);
			leave_line(g, c);
			return B36G_ID;
		case B36S_OWN_RECORD:
			/* the id is taken; it waits for a record of its own, out of the line */
			*st = next;
			c->second = second;
			c->id = b36_compose(second, c->worker, counter);
			c->phase = P_OWN_LOG;
			leave_line(g, c);
			return B36G_LOG;
		case B36S_WAIT_STANDBYS:
			break;
	}
	c->lsn = c->sync.wait_lsn;
#ifdef B36G_MUTANT_HEAD
	/* HEAD: the waiter keeps its place (first in line) and judges anew */
	c->second = next.second;
	return standby_wait(c);
#else

	/*
	 * Not confirmed for this call yet: it takes its counter all the same,
	 * leaves the line and waits on its own.  Should the wait end in an
	 * error, the counter is a gap, never an id used twice.
	 */
	*st = next;
	c->second = second;
	c->id = b36_compose(second, c->worker, counter);
	c->phase = P_HELD;
	leave_line(g, c);
	return standby_wait(c);
#endif
}

b36g_req
b36g_step(b36g *g, b36g_call *c, uint64_t now_ms, b36g_view_fn read_view, void *view_arg)
{
	b36g_shared *sh = g->sh;
	b36s_view	v;

	c->wake = -1;
	switch (c->phase)
	{
		case P_RES_FILE:
			/* the state file holds the second */
			c->wrote_file = true;
			c->phase = P_RES_LOG;
			return B36G_LOG;
		case P_RES_FLUSH:
			/* flushed: published, and the waiting calls are woken */
			if (c->wrote_file)
				b36g_file_written(g, c->second);
			b36s_reserved(&sh->res, &c->sync);
			c->phase = P_TAKE;
			return B36G_RESERVED;
		case P_OWN_FLUSH:
		case P_HELD:
			/* the id held leaves once the standbys have its record */
			c->phase = P_HELD;
			read_view(view_arg, &v);
			if (b36s_again(&sh->res, &c->sync, &v) == B36S_HAND_OUT)
				return B36G_ID;
			return standby_wait(c);
		default:
			return take(g, c, now_ms, read_view, view_arg);
	}
}

b36g_req
b36g_logged(b36g *g, b36g_call *c, uint64_t lsn)
{
	c->wake = -1;
	c->lsn = lsn;
	if (c->phase == P_OWN_LOG)
	{
		b36s_own_logged(&c->sync, lsn);
		c->phase = P_OWN_FLUSH;
	}
	else
	{
		b36s_reserve_logged(&g->sh->res, &c->sync, lsn);
		c->phase = P_RES_FLUSH;
	}
	return B36G_FLUSH;
}

bool
b36g_abandon(b36g *g, b36g_call *c)
{
	bool		reserving = c->sync.reserving;

	c->wake = -1;
	leave_line(g, c);
	if (reserving)
		b36s_reserve_failed(&g->sh->res, &c->sync);
	c->phase = P_TAKE;
	return reserving;
}

void
b36g_worker_state(const b36g *g, int worker, int64_t *second, int *used)
{
	const b36g_shared *sh = g->sh;
	const b36_state *st = &sh->workers[worker];

	/* as a call sees it: below the floor it starts used up */
	*second = st->second > sh->floor ? st->second : sh->floor;
	*used = st->second < sh->floor ? sh->budget : (st->next < sh->budget ? st->next : sh->budget);
}
