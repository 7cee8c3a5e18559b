/*
 * monotonic.c — RFC 9562 §6.2 "monotonic random" state machine (monotonic.h).
 */
#include "monotonic.h"
#include "bytes.h"

unsigned
idg_clock_frac_bits(uint64_t res_ns, unsigned max_bits)
{
	unsigned	b = 0;

	if (res_ns == 0)
		res_ns = 1;
	while (b < max_bits && res_ns <= (uint64_t) IDG_NS_PER_MS >> (b + 1))
		b++;
	return b;
}

idg_mono_cfg
idg_mono_cfg_for_clock(const idg_mono_cfg *cfg, uint64_t res_ns)
{
	idg_mono_cfg c = *cfg;

	c.frac_bits = idg_clock_frac_bits(res_ns, cfg->frac_bits);
	return c;
}

/* a fresh random field: the clock fraction on top, random bits below */
static uint64_t
fresh_field(const idg_mono_cfg *cfg, uint32_t sub_ns, idg_rand64_fn rnd, void *ctx)
{
	unsigned	low = cfg->rand_bits - cfg->frac_bits;

	/* without a fraction, a clear top bit leaves half the field for increments */
	if (cfg->frac_bits == 0)
		return rnd(ctx) & idg_mask(cfg->whole_field ? low : low - 1);
	return (idg_mono_frac(sub_ns, cfg->frac_bits) << low) | (rnd(ctx) & idg_mask(low));
}

static void
fresh(idg_mono *st, const idg_mono_cfg *cfg, uint64_t ms, uint32_t sub_ns,
	  idg_rand64_fn rnd, void *ctx)
{
	st->ms = ms;
	st->rand = fresh_field(cfg, sub_ns, rnd, ctx);
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
idg_mono_next(idg_mono *st, const idg_mono_cfg *cfg, uint64_t now_ms, uint32_t sub_ns,
			  idg_rand64_fn rnd, void *ctx)
{
	idg_mono	next = *st;
	unsigned	low = cfg->rand_bits - cfg->frac_bits;

	if (!next.valid || now_ms > next.ms || next.ms - now_ms > cfg->back_leeway_ms)
		fresh(&next, cfg, now_ms, sub_ns, rnd, ctx);
	else if (cfg->frac_bits > 0 && now_ms == next.ms &&
			 idg_mono_frac(sub_ns, cfg->frac_bits) > next.rand >> low)
		fresh(&next, cfg, now_ms, sub_ns, rnd, ctx);	/* the fraction moved on */
	else if (!increment(&next, cfg, rnd, ctx))
		fresh(&next, cfg, next.ms + 1, 0, rnd, ctx);	/* borrow a millisecond */

	if (next.ms > cfg->max_ms)
		return IDG_MONO_TIME_RANGE;
	*st = next;
	return IDG_MONO_OK;
}

/* a backfill field: no clock to take a fraction from, top bit clear */
static void
fresh_at(idg_mono *st, const idg_mono_cfg *cfg, uint64_t ms, idg_rand64_fn rnd, void *ctx)
{
	st->ms = ms;
	st->rand = rnd(ctx) & idg_mask(cfg->rand_bits - 1);
	st->valid = true;
}

idg_mono_status
idg_mono_next_at(idg_mono *st, const idg_mono_cfg *cfg, uint64_t at_ms,
				 idg_rand64_fn rnd, void *ctx)
{
	idg_mono	next = *st;

	if (at_ms > cfg->max_ms)
		return IDG_MONO_TIME_RANGE;

	/*
	 * A millisecond the current walk covers (the one it began in up to the
	 * last borrowed one) continues the walk: a fresh walk there could cross
	 * the ids already issued.
	 */
	if (!next.valid || at_ms < next.at_ms || at_ms > next.ms)
	{
		fresh_at(&next, cfg, at_ms, rnd, ctx);
		next.at_ms = at_ms;
	}
	else if (!increment(&next, cfg, rnd, ctx))
		fresh_at(&next, cfg, next.ms + 1, rnd, ctx);	/* borrow a millisecond */

	if (next.ms > cfg->max_ms)
		return IDG_MONO_TIME_RANGE;
	*st = next;
	return IDG_MONO_OK;
}
