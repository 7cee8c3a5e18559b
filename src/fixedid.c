/*
 * fixedid.c — sortsupport for fixed-width ids ordered by their bytes.
 *
 * The abbreviated key is the first bytes of the id: for time-ordered ids that
 * is the timestamp, so most comparisons in a sort are integer comparisons.
 * Abbreviation is abandoned, as for core's uuid, when a HyperLogLog estimate
 * shows the prefixes to be too few to tell the values apart.
 */
#include "fixedid.h"

#include "lib/hyperloglog.h"
#include "port/pg_bswap.h"

typedef struct fixed_sortsupport_state
{
	int			len;			/* width of the id in bytes */
	int64		input_count;	/* non-null values seen */
	bool		estimating;		/* still estimating cardinality? */
	hyperLogLogState abbr_card; /* cardinality estimator */
} fixed_sortsupport_state;

/* one comparator per width, the width a constant in each */
static int
fixed_cmp12(Datum x, Datum y, SortSupport ssup)
{
	return idgen_fixed_cmp(DatumGetPointer(x), DatumGetPointer(y), 12);
}

static int
fixed_cmp16(Datum x, Datum y, SortSupport ssup)
{
	return idgen_fixed_cmp(DatumGetPointer(x), DatumGetPointer(y), 16);
}

static int
fixed_cmp(Datum x, Datum y, SortSupport ssup)
{
	fixed_sortsupport_state *st = ssup->ssup_extra;

	return idgen_fixed_cmp(DatumGetPointer(x), DatumGetPointer(y), st->len);
}

static Datum
fixed_abbrev_convert(Datum original, SortSupport ssup)
{
	fixed_sortsupport_state *st = ssup->ssup_extra;
	Datum		res;

	memcpy(&res, DatumGetPointer(original), sizeof(Datum));
	st->input_count += 1;
	if (st->estimating)
	{
		uint32		tmp;

#if SIZEOF_DATUM == 8
		tmp = (uint32) res ^ (uint32) ((uint64) res >> 32);
#else
		tmp = (uint32) res;
#endif
		addHyperLogLog(&st->abbr_card, DatumGetUInt32(hash_uint32(tmp)));
	}
	/* big-endian bytes as an unsigned integer keep their order */
	return DatumBigEndianToNative(res);
}

static bool
fixed_abbrev_abort(int memtupcount, SortSupport ssup)
{
	fixed_sortsupport_state *st = ssup->ssup_extra;
	double		abbr_card;

	if (memtupcount < 10000 || st->input_count < 10000 || !st->estimating)
		return false;

	abbr_card = estimateHyperLogLog(&st->abbr_card);

	/* plenty of distinct prefixes: stop paying for the estimate */
	if (abbr_card > 100000.0)
	{
		st->estimating = false;
		return false;
	}
	/* the same threshold as core's uuid */
	return abbr_card < st->input_count / 2000.0 + 0.5;
}

#if PG_VERSION_NUM < 150000
static int
ssup_datum_unsigned_cmp(Datum x, Datum y, SortSupport ssup)
{
	return x < y ? -1 : x > y;
}
#endif

void
idgen_fixed_sortsupport(SortSupport ssup, int len)
{
	MemoryContext oldcontext = MemoryContextSwitchTo(ssup->ssup_cxt);
	fixed_sortsupport_state *st = palloc0(sizeof(fixed_sortsupport_state));

	Assert(len >= (int) sizeof(Datum));
	st->len = len;
	ssup->ssup_extra = st;
	ssup->comparator = len == 12 ? fixed_cmp12 : len == 16 ? fixed_cmp16 : fixed_cmp;

	if (ssup->abbreviate)
	{
		st->estimating = true;
		initHyperLogLog(&st->abbr_card, 10);
		ssup->abbrev_full_comparator = ssup->comparator;
		ssup->comparator = ssup_datum_unsigned_cmp;
		ssup->abbrev_converter = fixed_abbrev_convert;
		ssup->abbrev_abort = fixed_abbrev_abort;
	}
	MemoryContextSwitchTo(oldcontext);
}

void
idgen_recv_underrun(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_PROTOCOL_VIOLATION),
			 errmsg("insufficient data left in message")));
	pg_unreachable();
}

#if PG_VERSION_NUM >= 180000
Datum
idgen_fixed_step(Datum existing, int len, bool up, bool *overflow)
{
	uint8	   *v = palloc(len);

	memcpy(v, DatumGetPointer(existing), len);
	for (int i = len - 1; i >= 0; i--)
	{
		if (v[i] != (up ? 0xFF : 0x00))
		{
			v[i] += up ? 1 : -1;
			*overflow = false;
			return PointerGetDatum(v);
		}
		v[i] = up ? 0x00 : 0xFF;	/* carry or borrow */
	}
	pfree(v);
	*overflow = true;			/* the result is undefined */
	return (Datum) 0;
}

void
idgen_fixed_skipsupport(SkipSupport sksup, int len, SkipSupportIncDec decrement,
						SkipSupportIncDec increment)
{
	uint8	   *low = palloc(len);
	uint8	   *high = palloc(len);

	memset(low, 0x00, len);
	memset(high, 0xFF, len);
	sksup->decrement = decrement;
	sksup->increment = increment;
	sksup->low_elem = PointerGetDatum(low);
	sksup->high_elem = PointerGetDatum(high);
}
#else
void
idgen_skipsupport_unavailable(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("B-tree skip support requires PostgreSQL 18 or later")));
}
#endif
