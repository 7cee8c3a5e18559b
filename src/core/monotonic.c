/*
 * monotonic.c — RFC 9562 §6.2 "monotonic random" state machine.
 */
#include "monotonic.h"
#include "bytes.h"

static void
fresh(idg_mono *st, const idg_mono_cfg *cfg, uint64_t ms, idg_rand64_fn rnd, void *ctx)
{
	/* top bit clear leaves at least half the field for increments */
	st->ms = ms;
	st->rand = rnd(ctx) & idg_mask(cfg->rand_bits - 1);
	st->valid = true;
}

/* adds a random increment; false if it would overflow the field */
static bool
increment(idg_mono *st, const idg_mono_cfg *cfg, idg_rand64_fn rnd, void *ctx)
{
	uint64_t	inc = (rnd(ctx) & idg_mask(cfg->inc_bits)) + 1;

	if (st->rand > idg_mask(cfg->rand_bits) - inc)
		return false;
	st->rand += inc;
	return true;
}

idg_mono_status
idg_mono_next(idg_mono *st, const idg_mono_cfg *cfg, uint64_t now_ms,
			  idg_rand64_fn rnd, void *ctx)
{
	idg_mono	next = *st;

	if (!next.valid || now_ms > next.ms || next.ms - now_ms > cfg->back_leeway_ms)
		fresh(&next, cfg, now_ms, rnd, ctx);
	else if (!increment(&next, cfg, rnd, ctx))
		fresh(&next, cfg, next.ms + 1, rnd, ctx);	/* borrow a millisecond */

	if (next.ms > cfg->max_ms)
		return IDG_MONO_TIME_RANGE;
	*st = next;
	return IDG_MONO_OK;
}

idg_mono_status
idg_mono_next_at(idg_mono *st, const idg_mono_cfg *cfg, uint64_t at_ms,
				 idg_rand64_fn rnd, void *ctx)
{
	idg_mono	next = *st;

	if (at_ms > cfg->max_ms)
		return IDG_MONO_TIME_RANGE;
	if (!next.valid || next.ms != at_ms || !increment(&next, cfg, rnd, ctx))
		fresh(&next, cfg, at_ms, rnd, ctx);
	*st = next;
	return IDG_MONO_OK;
}
