/*
 * monotonic.h — the "monotonic random" generator of RFC 9562 §6.2 (methods 2
 * and 3) as a pure state machine: the caller passes the clock reading and the
 * random source, so the behaviour on frozen, stepping and bursting clocks can
 * be replayed in unit tests.
 *
 * Rules (doc/formats.md, common to the time-ordered types):
 *  - a fresh field is frac_bits of the sub-millisecond clock fraction on top
 *    of fresh random bits (with frac_bits = 0: random bits, top bit clear
 *    unless whole_field);
 *  - a new millisecond takes a fresh field;
 *  - in the same millisecond a fresh field is taken if it is greater than the
 *    last one (the sub-millisecond clock moved on), otherwise the last field
 *    plus a fresh random increment >= 1;
 *  - a clock that went back by at most back_leeway_ms keeps the last
 *    millisecond and adds an increment;
 *  - if the increment would overflow the field, the next millisecond is
 *    borrowed (fresh field there, fraction 0);
 *  - a clock that went back further than back_leeway_ms is followed.
 *
 * The fraction is what orders ids of different backends made in the same
 * millisecond by real time (method 3), so that concurrent writers append at
 * the right edge of a btree instead of each filling its own random spot.
 */
#ifndef IDGEN_CORE_MONOTONIC_H
#define IDGEN_CORE_MONOTONIC_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t (*idg_rand64_fn) (void *ctx);

typedef struct idg_mono_cfg
{
	unsigned	rand_bits;		/* width of the random field, 2..63 */
	unsigned	frac_bits;		/* its top bits carrying the sub-ms fraction */
	unsigned	inc_bits;		/* increments are 1 .. 2^inc_bits */
	uint64_t	max_ms;			/* largest representable millisecond */
	uint64_t	back_leeway_ms; /* how far back the clock may go and be ignored */
	bool		whole_field;	/* frac_bits = 0: the top bit random too */
} idg_mono_cfg;

typedef struct idg_mono
{
	bool		valid;			/* false until the first id */
	uint64_t	ms;				/* millisecond of the last id */
	uint64_t	rand;			/* random field of the last id */
	uint64_t	at_ms;			/* backfill: the millisecond the walk began in */
} idg_mono;

typedef enum idg_mono_status
{
	IDG_MONO_OK = 0,
	IDG_MONO_TIME_RANGE			/* the millisecond does not fit max_ms */
} idg_mono_status;

#define IDG_NS_PER_MS 1000000

/*
 * Next id at clock reading now_ms and sub_ns (0 .. IDG_NS_PER_MS-1
 * nanoseconds into that millisecond); on success the id is
 * (st->ms, st->rand).  On failure the state is unchanged.
 */
extern idg_mono_status idg_mono_next(idg_mono *st, const idg_mono_cfg *cfg,
									 uint64_t now_ms, uint32_t sub_ns,
									 idg_rand64_fn rnd, void *ctx);

/* the fraction sub_ns / IDG_NS_PER_MS in bits binary digits, floor */
static inline uint64_t
idg_mono_frac(uint32_t sub_ns, unsigned bits)
{
	return ((uint64_t) sub_ns << bits) / IDG_NS_PER_MS;
}

/*
 * How many bits of the sub-millisecond fraction a clock of resolution res_ns
 * tells apart, at most max_bits: the largest b with 2^b steps of at least
 * res_ns each in a millisecond (0 for a millisecond clock).  Bits beyond
 * that would repeat across backends instead of carrying randomness.
 */
extern unsigned idg_clock_frac_bits(uint64_t res_ns, unsigned max_bits);

/* cfg with no more clock bits than a clock of resolution res_ns resolves */
extern idg_mono_cfg idg_mono_cfg_for_clock(const idg_mono_cfg *cfg, uint64_t res_ns);

/*
 * Next id for a given millisecond (backfill).  Consecutive calls for the same
 * millisecond continue one walk and strictly increase; on overflow the next
 * millisecond is borrowed, as in live generation, so an id may carry a
 * millisecond or two after at_ms.  A millisecond outside the current walk
 * (before the one it began in, or after the last borrowed one) takes a fresh
 * random field there.
 */
extern idg_mono_status idg_mono_next_at(idg_mono *st, const idg_mono_cfg *cfg,
										uint64_t at_ms, idg_rand64_fn rnd, void *ctx);

#endif							/* IDGEN_CORE_MONOTONIC_H */
