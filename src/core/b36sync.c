/*
 * b36sync.c — base36id's reservation protocol with synchronous standbys
 * (see b36sync.h).  The B36S_MUTANT_* blocks are mistakes planted on
 * purpose by test/sim/mutants.sh, compiled only there, to show that the
 * simulation finds them; the extension never defines them.
 */
#include "b36sync.h"

#include <stddef.h>

void
b36s_init(b36s_reservation *r, int64_t file_second)
{
	r->reserved = file_second;
	r->lsn = 0;
	r->reserving = -1;
	r->pending_lsn = 0;
	r->reservations = 0;
	r->sig = 0;
	r->confirmed_level = B36S_OFF;
}

/* as core's SyncRepGetCandidateStandbys(): streaming, named, flush known */
static bool
candidate(const b36s_standby *s)
{
	return s->pid != 0 && s->streaming && s->priority > 0 && s->pos[1] != 0;
}

static bool
has(const b36s_standby *s, uint64_t lsn, int mode)
{
#ifdef B36S_MUTANT_LSN_CMP
	return s->pos[mode] <= lsn;
#else
	return s->pos[mode] >= lsn;
#endif
}

/*
 * Whether the standbys synchronous now have lsn at mode.  With the caller's
 * configuration current, as the walsenders choose them: FIRST n, the n
 * candidates of highest priority (ties by slot, as core), all of which must
 * have it; ANY n, at least n candidates that have it; fewer candidates than
 * n confirm nothing (commits wait too).  Otherwise the method and number
 * are unknown, and every candidate must have it: more than needed, never
 * less, until the caller takes the configuration in (in a process that
 * takes no reloads in, always).
 */
static bool
synchronous_have(const b36s_view *v, uint64_t lsn, int mode)
{
	int			candidates = 0;
	int			holding = 0;
	int			i;
#ifdef B36S_MUTANT_BGW
	/* a process that may never be told of a reload trusted as others */
	bool		current = v->config_current;
#else
	bool		current = v->config_current && v->takes_reloads;
#endif

#ifdef B36S_MUTANT_A
	/* A: the caller's own copy trusted, even while a reload is pending */
	current = true;
	if (v->config_empty)
		return true;
#endif
	for (i = 0; i < v->n; i++)
	{
		if (!candidate(&v->standbys[i]))
			continue;
		candidates++;
		if (has(&v->standbys[i], lsn, mode))
			holding++;
	}
	if (candidates == 0)
		return false;
	if (!current)
		return holding == candidates;
#ifndef B36S_MUTANT_NUMSYNC
	/* as core's SyncRepGetSyncRecPtr(): fewer than num_sync, no release */
	if (candidates < v->num_sync)
		return false;
#endif
	if (v->method == B36S_ANY)
		return holding >= v->num_sync;

	/* FIRST n: each of the n of highest priority (lowest number) */
	for (i = 0; i < v->n; i++)
	{
		const b36s_standby *s = &v->standbys[i];
		int			ahead = 0;
		int			j;

		if (!candidate(s) || has(s, lsn, mode))
			continue;
		/* s lacks it: is s one of the n? count candidates before it */
		for (j = 0; j < v->n; j++)
		{
			const b36s_standby *t = &v->standbys[j];

#ifdef B36S_MUTANT_TIES
			/* equal priorities: the higher slot first */
			if (candidate(t) && (t->priority < s->priority ||
								 (t->priority == s->priority && j > i)))
#else
			if (candidate(t) && (t->priority < s->priority ||
								 (t->priority == s->priority && j < i)))
#endif
				ahead++;
		}
		if (ahead < v->num_sync)
			return false;
	}
	return true;
}

b36s_verdict
b36s_judge(const b36s_view *v, uint64_t lsn, int level)
{
	int			mode;

#ifndef B36S_MUTANT_FLUSH
	/* the record is flushed locally before any id of it leaves */
	if (v->flushed < lsn)
		return B36S_WAIT_POLL;
#endif
	if (level <= B36S_LOCAL || !v->defined)
		return B36S_CONFIRMED;
	mode = level - B36S_WRITE;
#ifndef B36S_MUTANT_MIXED
	/*
	 * Never before a commit of the record would return: core's walsenders
	 * release it, each judging with its own configuration, and wake the
	 * queue.  The caller's check below mixes its configuration with the
	 * priorities each walsender computed from its own, which disagree while
	 * a reload is on its way; this one does not depend on the caller's.
	 */
	if (lsn > v->released[mode])
		return B36S_WAIT_QUEUE;
#endif
	if (synchronous_have(v, lsn, mode))
		return B36S_CONFIRMED;
	/*
	 * Released, but the standbys synchronous now lack it (those that
	 * released it no longer are): no walsender will wake a waiter for it,
	 * look again later.
	 */
	return lsn > v->released[mode] ? B36S_WAIT_QUEUE : B36S_WAIT_POLL;
}

uint64_t
b36s_signature(const b36s_view *v)
{
	uint64_t	h = 1469598103934665603ULL;
	int			i;

	for (i = 0; i < v->n; i++)
	{
		const b36s_standby *s = &v->standbys[i];

		if (!candidate(s))
			continue;
		h = (h ^ (uint64_t) i) * 1099511628211ULL;
		h = (h ^ (uint64_t) (uint32_t) s->pid) * 1099511628211ULL;
		h = (h ^ (uint64_t) s->priority) * 1099511628211ULL;
	}
	return h;
}

b36s_step
b36s_next(b36s_reservation *r, b36s_call *c, int64_t second, const b36s_view *v)
{
	b36s_verdict verdict;

	if (second > r->reserved)
	{
		if (r->reserving >= 0)
			return B36S_WAIT_RESERVATION;
		r->reserving = second;
		r->pending_lsn = 0;
		r->sig = b36s_signature(v);
		c->reserving = true;
		return B36S_RESERVE;
	}
#ifdef B36S_MUTANT_C
	/* C: the reservation is over only once confirmed at its caller's level */
	if (r->reserving >= 0 && !c->reserving)
		return B36S_WAIT_RESERVATION;
#endif
#ifdef B36S_MUTANT_SKIP
	/* once confirmed at a level, never judged again at it */
	if (c->level <= r->confirmed_level)
		return B36S_HAND_OUT;
#endif
#ifndef B36S_MUTANT_BGW

	/*
	 * A process that is never told of a reload (a background worker that
	 * ignores SIGHUP) cannot know the names in force, nor how many standbys
	 * they ask for.  Its id waits, as its commit would, for a record written
	 * after the id was taken: core's walsenders release it with the names
	 * they have, num_sync of them at least.
	 */
	if (c->level > B36S_LOCAL && v->defined && !v->takes_reloads)
		return B36S_OWN_RECORD;
#endif
	verdict = b36s_judge(v, r->lsn, c->level);
	if (verdict == B36S_CONFIRMED)
	{
#ifdef B36S_MUTANT_C
		if (c->reserving)
		{
			c->reserving = false;
			r->reserving = -1;
		}
#endif
#ifdef B36S_MUTANT_SKIP
		if (c->level > r->confirmed_level)
			r->confirmed_level = c->level;
#endif
		return B36S_HAND_OUT;
	}
#ifdef B36S_MUTANT_E
	/* E: the standbys changed under the reservation: reserve it again */
	if (verdict == B36S_WAIT_POLL && r->sig != b36s_signature(v) && r->reserving < 0)
	{
		r->reserving = r->reserved;
		r->pending_lsn = 0;
		c->reserving = true;
		return B36S_RESERVE;
	}
#endif
	c->verdict = verdict;
	c->wait_lsn = r->lsn;
	c->wait_sig = b36s_signature(v);
	return B36S_WAIT_STANDBYS;
}

void
b36s_own_logged(b36s_call *c, uint64_t lsn)
{
	c->wait_lsn = lsn;
	c->wait_sig = 0;
	c->verdict = B36S_WAIT_QUEUE;
}

b36s_step
b36s_again(b36s_reservation *r, b36s_call *c, const b36s_view *v)
{
	b36s_verdict verdict;

#ifdef B36S_MUTANT_B
	/* B: released by core's queue, and the same standbys as before the wait */
	if (c->wait_sig == b36s_signature(v) && c->level > B36S_LOCAL &&
		v->released[c->level - B36S_WRITE] >= c->wait_lsn)
		return B36S_HAND_OUT;
#endif
	verdict = b36s_judge(v, c->wait_lsn, c->level);
	if (verdict == B36S_CONFIRMED)
	{
#ifdef B36S_MUTANT_C
		if (c->reserving)
		{
			c->reserving = false;
			r->reserving = -1;
		}
#else
		(void) r;
#endif
		return B36S_HAND_OUT;
	}
	c->verdict = verdict;
	c->wait_sig = b36s_signature(v);
	return B36S_WAIT_STANDBYS;
}

b36s_queue
b36s_queue_action(bool defined, uint64_t lsn, uint64_t released, bool saw_released,
				  bool queued)
{
	if (defined && lsn > released)
	{
#ifndef B36S_MUTANT_DUPQUEUE

		/*
		 * Core's queue holds one process a WAL position, in order
		 * (SyncRepQueueIsOrderedByLSN()); calls that wait for the same
		 * record, at one level, cannot all be in it: one is, the others
		 * look again shortly.
		 */
		if (queued)
			return B36S_QUEUE_POLL;
#else
		(void) queued;
#endif
		return B36S_QUEUE_JOIN;
	}
	/*
	 * Released past lsn already.  If the caller saw it so when it judged,
	 * by standbys that are no longer the synchronous ones, no walsender
	 * will wake it for lsn: look again shortly.  If it was released since,
	 * judge again at once.  None defined: nothing to wait for.
	 */
	if (defined && saw_released)
		return B36S_QUEUE_POLL;
	return B36S_QUEUE_AGAIN;
}

static void
publish(b36s_reservation *r, b36s_call *c)
{
	r->reserved = r->reserving;
	r->lsn = r->pending_lsn;
	r->reservations++;
	r->confirmed_level = B36S_OFF;
#ifdef B36S_MUTANT_C
	if (c->reserving)
		return;
#endif
	r->reserving = -1;
	c->reserving = false;
}

void
b36s_reserve_logged(b36s_reservation *r, b36s_call *c, uint64_t lsn)
{
	r->pending_lsn = lsn;
#ifdef B36S_MUTANT_FLUSH
	/* published before the flush */
	publish(r, c);
#else
	(void) c;
#endif
}

void
b36s_reserved(b36s_reservation *r, b36s_call *c)
{
#ifdef B36S_MUTANT_FLUSH
	if (r->reserving < 0)
		return;
#endif
	publish(r, c);
}

void
b36s_reserve_failed(b36s_reservation *r, b36s_call *c)
{
	r->reserving = -1;
	r->pending_lsn = 0;
	c->reserving = false;
}
