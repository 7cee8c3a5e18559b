/*
 * idgen.c — module initialisation, the clock, and timestamp conversions
 * shared by all id types.
 */
#include "idgen.h"
#include "random.h"
#include "stats.h"

#include <time.h>

#include "miscadmin.h"
#include "mb/pg_wchar.h"
#include "utils/guc.h"

PG_MODULE_MAGIC;

/* milliseconds from 1970-01-01 to PostgreSQL's epoch 2000-01-01 */
#define UNIX_TO_PG_EPOCH_MS \
	((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * 1000)

void		_PG_init(void);

bool		idgen_sub_ms_clock = true;

void
_PG_init(void)
{
	DefineCustomBoolVariable("idgen.sub_millisecond_clock",
							 "Puts the sub-millisecond clock into ids of iuid_generate(), flaxid_generate() and distid128_generate().",
							 "Off leaves their whole random field to chance, as the formats describe it; keys written by concurrent sessions are then less dense.",
							 &idgen_sub_ms_clock,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	base36id_init();
	publicid_init();
	idgen_stats_init();
	MarkGUCPrefixReserved("idgen");
}

void
idgen_clock_failed(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_SYSTEM_ERROR),
			 errmsg("could not read the real-time clock: %m")));
}

bool
idgen_clock_try_ms(uint64 *ms)
{
	struct timespec ts;

	if (unlikely(clock_gettime(CLOCK_REALTIME, &ts) != 0))
		return false;
	*ms = (uint64) ts.tv_sec * 1000 + (uint64) ts.tv_nsec / 1000000;
	return true;
}

uint64
idgen_clock_now(uint32 *sub_ns)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		idgen_clock_failed();
	if (sub_ns)
		*sub_ns = (uint32) (ts.tv_nsec % 1000000);
	return (uint64) ts.tv_sec * 1000 + (uint64) ts.tv_nsec / 1000000;
}

uint64
idgen_clock_res_ns(void)
{
	static uint64 res_ns = 0;
	struct timespec res;

	if (res_ns == 0)
	{
		/* unknown resolution: trust no sub-millisecond bit */
		if (clock_getres(CLOCK_REALTIME, &res) != 0)
			res_ns = IDG_NS_PER_MS;
		else
			res_ns = Max((uint64) res.tv_sec * 1000000000 + (uint64) res.tv_nsec, 1);
	}
	return res_ns;
}

unsigned
idgen_clock_frac_bits(void)
{
	/* once per backend: the clock's resolution does not change */
	static int	bits = -1;

	if (bits < 0)
		bits = (int) idg_clock_frac_bits(idgen_clock_res_ns(), IDGEN_FRAC_BITS);
	return (unsigned) bits;
}

uint64
idgen_clock_ms(void)
{
	return idgen_clock_now(NULL);
}

static int
errdetail_span(const idgen_time_span *span)
{
	return errdetail("Type %s represents times from %s to %s.",
					 span->typname, span->first, span->last);
}

static void
time_out_of_range(const idgen_time_span *span)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("timestamp out of range for type %s", span->typname),
			 errdetail_span(span)));
}

uint64
idgen_timestamp_to_units(TimestampTz ts, const idgen_time_span *span)
{
	int64		unix_ms;
	int64		since;
	int64		units;

	if (TIMESTAMP_NOT_FINITE(ts))
		time_out_of_range(span);

	/* floor division: times before 2000 are negative */
	unix_ms = ts / 1000 - (ts % 1000 < 0 ? 1 : 0) + UNIX_TO_PG_EPOCH_MS;
	since = unix_ms - span->epoch_unix_ms;
	if (since < 0)
		time_out_of_range(span);
	units = since / span->unit_ms;
	if ((uint64) units > span->max_units)
		time_out_of_range(span);
	return (uint64) units;
}

TimestampTz
idgen_units_to_timestamp(uint64 units, const idgen_time_span *span)
{
	int64		unix_ms = (int64) units * span->unit_ms + span->epoch_unix_ms;

	return (TimestampTz) (unix_ms - UNIX_TO_PG_EPOCH_MS) * 1000;
}

int
idgen_errdetail_bad_char(const char *input, size_t offset)
{
	/* the input is valid in the database encoding: name whole characters */
	int			pos = pg_mbstrlen_with_len(input, (int) offset) + 1;
	int			len = pg_mblen(input + offset);

	return errdetail("Unexpected character \"%.*s\" at position %d.",
					 len, input + offset, pos);
}

void
idgen_clock_out_of_span(const idgen_time_span *span)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("the system clock is outside the time span of type %s", span->typname),
			 errdetail_span(span)));
	pg_unreachable();
}

static inline void
mono_next(idg_mono *st, const idg_mono_cfg *cfg, const idgen_time_span *span,
		  int64 now, uint32 sub_ns)
{
#ifdef USE_ASSERT_CHECKING
	idg_mono	prev = *st;
#endif

	if (now < 0 ||
		idg_mono_next(st, cfg, (uint64) now, sub_ns, idgen_random_u64, NULL) != IDG_MONO_OK)
		idgen_clock_out_of_span(span);

	/* an id in the span, never before the clock, its field in its bits */
	Assert(st->valid && st->ms <= cfg->max_ms && (int64) st->ms >= now);
	Assert(cfg->rand_bits < 64 && st->rand < (UINT64CONST(1) << cfg->rand_bits));
	/* after the last one, unless the clock went back further than the leeway */
	Assert(!prev.valid ||
		   (int64) prev.ms - now > (int64) cfg->back_leeway_ms ||
		   st->ms > prev.ms || (st->ms == prev.ms && st->rand > prev.rand));
}

/* the clock is behind the last id: a step back, or a borrowed lead */
static pg_noinline void
mono_next_behind(idg_mono *st, const idg_mono_cfg *cfg, const idgen_time_span *span,
				 int64 now, uint32 sub_ns)
{
	int64		prev = (int64) st->ms;

	mono_next(st, cfg, span, now, sub_ns);
	idgen_stats_clock_event(span->clock_gen, now, prev, (int64) st->ms);
}

/*
 * Next id from the clock.  clock_bits false: no clock bits, the whole random
 * field fresh (idgen.sub_millisecond_clock = off).  The clock events
 * (stats.h) are checked apart from the ordinary case at the cost of two
 * comparisons: with the clock at or past the last id, an id off the clock is
 * a borrowed millisecond.
 */
void
idgen_mono_next_now(idg_mono *st, const idg_mono_cfg *cfg, const idgen_time_span *span,
					bool clock_bits)
{
	uint32		sub_ns;
	int64		now = (int64) idgen_clock_now(&sub_ns) - span->epoch_unix_ms;
	idg_mono_cfg clock_cfg = *cfg;

	/* no more clock bits than the clock resolves (idg_mono_cfg_for_clock) */
	clock_cfg.frac_bits = Min(cfg->frac_bits, idgen_clock_frac_bits());
	if (!clock_bits)
	{
		clock_cfg.frac_bits = 0;
		clock_cfg.whole_field = true;
	}

	if (unlikely(now < (int64) st->ms))
	{
		mono_next_behind(st, &clock_cfg, span, now, sub_ns);
		return;
	}
	mono_next(st, &clock_cfg, span, now, sub_ns);
	if (unlikely((int64) st->ms != now))
		idgen_stats_clock_event(span->clock_gen, now, now, (int64) st->ms);
}

void
idgen_mono_next_at(idg_mono *st, const idg_mono_cfg *cfg, const idgen_time_span *span,
				   TimestampTz at)
{
	uint64		ms = idgen_timestamp_to_units(at, span);

	if (idg_mono_next_at(st, cfg, ms, idgen_random_u64, NULL) != IDG_MONO_OK)
		time_out_of_range(span);
}
