/*
 * Unit tests of the PostgreSQL-independent core: the UUID text codec, the
 * iuid layout and the monotonic generator on a fake clock.
 *
 * Vectors come from doc/formats.md; generator expectations from its rules.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base36.h"
#include "b36gen.h"
#include "b36sync.h"
#include "base62.h"
#include "bytes.h"
#include "distid.h"
#include "publicid.h"
#include "flaxid.h"
#include "iuid_layout.h"
#include "keyfile.h"
#include "monotonic.h"
#include "uuidtext.h"
#include "waitline.h"

/* ---------- random sources ---------- */

/* splitmix64: deterministic, well-spread */
static uint64_t
rng_splitmix(void *ctx)
{
	uint64_t   *s = ctx;
	uint64_t	z = (*s += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

static uint64_t
rng_zero(void *ctx)
{
	(void) ctx;
	return 0;
}

static uint64_t
rng_ones(void *ctx)
{
	(void) ctx;
	return UINT64_MAX;
}

static const idg_mono_cfg iuid_cfg = {
	.rand_bits = IUID_RAND_BITS,
	.inc_bits = 32,
	.max_ms = IUID_MAX_MS,
	.back_leeway_ms = 1000,
};

/* iuid's generator as the extension configures it: 12 bits of fraction */
static const idg_mono_cfg iuid_frac_cfg = {
	.rand_bits = IUID_RAND_BITS,
	.frac_bits = 12,
	.inc_bits = 32,
	.max_ms = IUID_MAX_MS,
	.back_leeway_ms = 1000,
};

/* (ms, rand) strictly after (pms, prand)? the order of the packed ids */
static int
after(const idg_mono *a, uint64_t pms, uint64_t prand)
{
	return a->ms > pms || (a->ms == pms && a->rand > prand);
}

/* ---------- UUID text ---------- */

static const uint8_t vec1[16] = {0x01, 0x7f, 0x22, 0xe2, 0x79, 0xb0, 0x80, 0x2a,
0x81, 0x41, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd};

static void
test_uuid_parse_forms(void **state)
{
	/* every spelling core uuid_in accepts */
	const char *forms[] = {
		"017f22e2-79b0-802a-8141-23456789abcd",
		"017F22E2-79B0-802A-8141-23456789ABCD",
		"{017f22e2-79b0-802a-8141-23456789abcd}",
		"017f22e279b0802a814123456789abcd",
		"017f-22e2-79b0-802a-8141-2345-6789-abcd",
		"{017f22e279b0802a814123456789abcd}",
	};
	size_t		i;

	(void) state;
	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
	{
		uint8_t		out[16];
		idg_uuid_parse_error err;

		assert_int_equal(idg_uuid_parse(forms[i], out, &err), IDG_UUID_OK);
		assert_memory_equal(out, vec1, 16);
	}
}

static void
test_uuid_format(void **state)
{
	char		text[IDG_UUID_TEXT_LEN + 1];
	uint8_t		all[16];

	(void) state;
	idg_uuid_format(vec1, text);
	assert_string_equal(text, "017f22e2-79b0-802a-8141-23456789abcd");
	memset(all, 0xff, 16);
	idg_uuid_format(all, text);
	assert_string_equal(text, "ffffffff-ffff-ffff-ffff-ffffffffffff");
	/* every byte value at every position, against printf's %02x */
	for (int pos = 0; pos < 16; pos++)
		for (int v = 0; v < 256; v++)
		{
			char		want[IDG_UUID_TEXT_LEN + 1];
			char	   *w = want;

			memset(all, 0, 16);
			all[pos] = (uint8_t) v;
			for (int i = 0; i < 16; i++)
				w += sprintf(w, "%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", all[i]);
			idg_uuid_format(all, text);
			assert_string_equal(text, want);
		}
}

static void
test_uuid_parse_errors(void **state)
{
	static const struct
	{
		const char *in;
		idg_uuid_parse_status want;
		size_t		offset;
		int			digits;
	}			cases[] = {
		{"", IDG_UUID_EMPTY, 0, 0},
		{"{", IDG_UUID_EMPTY, 1, 0},
		/* 31 digits: input ends inside the last pair */
		{"017f22e2-79b0-802a-8141-23456789abc", IDG_UUID_TOO_SHORT, 35, 31},
		/* 30 digits: input ends on a pair boundary */
		{"017f22e2-79b0-802a-8141-23456789ab", IDG_UUID_TOO_SHORT, 34, 30},
		{"017f22e2-79b0-802a-8141-23456789abcd0", IDG_UUID_TOO_LONG, 36, 33},
		{"017f22e2-79b0-802a-8141-23456789abcd-0", IDG_UUID_TOO_LONG, 36, 33},
		/* 'g' is at offset 3, the second digit of the second pair */
		{"017g22e2-79b0-802a-8141-23456789abcd", IDG_UUID_BAD_CHAR, 3, 31},
		/* a hyphen inside a pair */
		{"017f2-2e2-79b0-802a-8141-23456789abc", IDG_UUID_BAD_CHAR, 5, 31},
		/* two hyphens in a row */
		{"017f22e2--79b0-802a-8141-23456789abcd", IDG_UUID_BAD_CHAR, 9, 32},
		/* a trailing hyphen only */
		{"017f22e2-79b0-802a-8141-23456789abcd-", IDG_UUID_BAD_CHAR, 36, 32},
		{"{017f22e2-79b0-802a-8141-23456789abcd", IDG_UUID_NO_CLOSING_BRACE, 37, 32},
		{"017f22e2-79b0-802a-8141-23456789abcd}", IDG_UUID_BAD_CHAR, 36, 32},
		{" 017f22e2-79b0-802a-8141-23456789abcd", IDG_UUID_BAD_CHAR, 0, 32},
		/* short inputs: ending on a pair boundary, inside a pair (on the digit 0), a bad last character */
		{"0000", IDG_UUID_TOO_SHORT, 4, 4},
		{"000", IDG_UUID_TOO_SHORT, 3, 3},
		{"00x", IDG_UUID_BAD_CHAR, 2, 2},
		{"x", IDG_UUID_BAD_CHAR, 0, 0},
		/* after the 32nd digit only digits, hyphens and, braced, a closing brace at the very end */
		{"{0123456789abcdef0123456789abcdef0}", IDG_UUID_TOO_LONG, 33, 33},
		{"{0123456789abcdef0123456789abcdef-0}", IDG_UUID_TOO_LONG, 33, 33},
		{"{0123456789abcdef0123456789abcdef}}", IDG_UUID_BAD_CHAR, 34, 32},
		{"{0123456789abcdef0123456789abcdef0}0", IDG_UUID_BAD_CHAR, 33, 34},
		{"0123456789abcdef0123456789abcdef0}", IDG_UUID_BAD_CHAR, 32, 33},
	};
	size_t		i;

	(void) state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		uint8_t		out[16];
		idg_uuid_parse_error err;

		assert_int_equal(idg_uuid_parse(cases[i].in, out, &err), cases[i].want);
		assert_int_equal(err.offset, cases[i].offset);
		assert_int_equal(err.hex_digits, cases[i].digits);
	}
}

/* ---------- iuid layout ---------- */

static void
test_iuid_vectors(void **state)
{
	iuid_fields f;
	uint8_t		packed[16];
	uint8_t		v2[16];
	idg_uuid_parse_error err;

	(void) state;
	/* SPEC: ts 0x017F22E279B0, country 42, entity 5, random 0x0123456789ABCD */
	iuid_unpack(vec1, &f);
	assert_true(f.ms == UINT64_C(0x017F22E279B0));
	assert_int_equal(f.format_version, 0);
	assert_int_equal(f.country, 42);
	assert_int_equal(f.entity, 5);
	assert_true(f.rand == UINT64_C(0x0123456789ABCD));
	assert_int_equal(iuid_validate(vec1), IUID_CHECK_OK);
	iuid_pack(&f, packed);
	assert_memory_equal(packed, vec1, 16);

	/* SPEC: country 255, entity 255, random 2^54-1 */
	assert_int_equal(idg_uuid_parse("017f22e2-79b0-80ff-bfff-ffffffffffff", v2, &err), IDG_UUID_OK);
	iuid_unpack(v2, &f);
	assert_true(f.ms == UINT64_C(0x017F22E279B0));
	assert_int_equal(f.country, 255);
	assert_int_equal(f.entity, 255);
	assert_true(f.rand == (UINT64_C(1) << 54) - 1);
	iuid_pack(&f, packed);
	assert_memory_equal(packed, v2, 16);
}

static void
test_iuid_validate(void **state)
{
	uint8_t		b[16];

	(void) state;
	memcpy(b, vec1, 16);
	b[6] = 0x40;				/* version 4 */
	assert_int_equal(iuid_validate(b), IUID_CHECK_VERSION);
	assert_int_equal(iuid_version_nibble(b), 4);
	memcpy(b, vec1, 16);
	b[8] = 0xC1;				/* variant 0b11 */
	assert_int_equal(iuid_validate(b), IUID_CHECK_VARIANT);
	b[8] = 0x41;				/* variant 0b01 */
	assert_int_equal(iuid_validate(b), IUID_CHECK_VARIANT);
	assert_int_equal(iuid_variant_bits(b), 1);
}

/* packing is a bijection on the field ranges: random fields round-trip */
static void
test_iuid_roundtrip_random(void **state)
{
	uint64_t	seed = 42;
	int			i;

	(void) state;
	for (i = 0; i < 100000; i++)
	{
		iuid_fields f = {
			.ms = rng_splitmix(&seed) & IUID_MAX_MS,
			.format_version = (unsigned) rng_splitmix(&seed) & 0xF,
			.country = (unsigned) rng_splitmix(&seed) & 0xFF,
			.entity = (unsigned) rng_splitmix(&seed) & 0xFF,
			.rand = rng_splitmix(&seed) & IUID_MAX_RAND,
		};
		iuid_fields g;
		uint8_t		b[16];
		char		text[IDG_UUID_TEXT_LEN + 1];
		uint8_t		back[16];
		idg_uuid_parse_error err;

		iuid_pack(&f, b);
		assert_int_equal(iuid_validate(b), IUID_CHECK_OK);
		iuid_unpack(b, &g);
		assert_true(g.ms == f.ms && g.rand == f.rand);
		assert_int_equal(g.format_version, f.format_version);
		assert_int_equal(g.country, f.country);
		assert_int_equal(g.entity, f.entity);
		idg_uuid_format(b, text);
		assert_int_equal(idg_uuid_parse(text, back, &err), IDG_UUID_OK);
		assert_memory_equal(back, b, 16);
	}
}

/* time dominates order: later ms compare greater whatever the other fields */
static void
test_iuid_order_by_time(void **state)
{
	iuid_fields a = {.ms = 1000, .country = 255, .entity = 255, .rand = IUID_MAX_RAND};
	iuid_fields b = {.ms = 1001, .country = 0, .entity = 0, .rand = 0};
	uint8_t		pa[16],
				pb[16];

	(void) state;
	iuid_pack(&a, pa);
	iuid_pack(&b, pb);
	assert_true(memcmp(pa, pb, 16) < 0);
}

/* ---------- monotonic generator ---------- */

static void
test_mono_first_id(void **state)
{
	idg_mono	st = {0};

	(void) state;
	/* a fresh field has its top bit clear, even from all-ones randomness */
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 5000, 0, rng_ones, NULL), IDG_MONO_OK);
	assert_true(st.valid);
	assert_true(st.ms == 5000);
	assert_true(st.rand == (UINT64_C(1) << 53) - 1);
}

static void
test_mono_frozen_clock(void **state)
{
	uint64_t	seed = 7;
	idg_mono	st = {0};
	uint64_t	prand;
	int			i;

	(void) state;
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 1000, 0, rng_splitmix, &seed), IDG_MONO_OK);
	for (i = 0; i < 100000; i++)
	{
		prand = st.rand;
		assert_int_equal(idg_mono_next(&st, &iuid_cfg, 1000, 0, rng_splitmix, &seed), IDG_MONO_OK);
		/* same millisecond, increment between 1 and 2^32 */
		assert_true(st.ms == 1000);
		assert_true(st.rand > prand);
		assert_true(st.rand - prand <= (UINT64_C(1) << 32));
	}
}

static void
test_mono_increment_at_least_one(void **state)
{
	idg_mono	st = {0};

	(void) state;
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 1000, 0, rng_zero, NULL), IDG_MONO_OK);
	assert_true(st.rand == 0);
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 1000, 0, rng_zero, NULL), IDG_MONO_OK);
	assert_true(st.rand == 1);
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 1000, 0, rng_zero, NULL), IDG_MONO_OK);
	assert_true(st.rand == 2);
}

static void
test_mono_new_millisecond_fresh(void **state)
{
	idg_mono	st = {0};

	(void) state;
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 1000, 0, rng_zero, NULL), IDG_MONO_OK);
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 1000, 0, rng_zero, NULL), IDG_MONO_OK);
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 1000, 0, rng_zero, NULL), IDG_MONO_OK);
	assert_true(st.rand == 2);
	/* the next millisecond starts over from fresh randomness */
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 1001, 0, rng_zero, NULL), IDG_MONO_OK);
	assert_true(st.ms == 1001);
	assert_true(st.rand == 0);
}

static void
test_mono_clock_back_500ms(void **state)
{
	uint64_t	seed = 11;
	idg_mono	st = {0};
	uint64_t	pms,
				prand;
	uint64_t	now;

	(void) state;
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 100000, 0, rng_splitmix, &seed), IDG_MONO_OK);
	/* the clock steps back 500 ms and creeps forward again */
	for (now = 99500; now <= 100000; now++)
	{
		pms = st.ms;
		prand = st.rand;
		assert_int_equal(idg_mono_next(&st, &iuid_cfg, now, 0, rng_splitmix, &seed), IDG_MONO_OK);
		assert_true(st.ms == 100000);	/* keeps the last millisecond */
		assert_true(after(&st, pms, prand));
	}
	/* past the last millisecond the clock is followed again */
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 100001, 0, rng_splitmix, &seed), IDG_MONO_OK);
	assert_true(st.ms == 100001);
}

static void
test_mono_clock_back_1s_edge(void **state)
{
	uint64_t	seed = 12;
	idg_mono	st = {0};
	uint64_t	prand;

	(void) state;
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 100000, 0, rng_splitmix, &seed), IDG_MONO_OK);
	prand = st.rand;
	/* exactly 1000 ms back is still within the leeway */
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 99000, 0, rng_splitmix, &seed), IDG_MONO_OK);
	assert_true(st.ms == 100000 && st.rand > prand);
	/* 1001 ms back is not */
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 98999, 0, rng_splitmix, &seed), IDG_MONO_OK);
	assert_true(st.ms == 98999);
}

static void
test_mono_clock_back_5s(void **state)
{
	uint64_t	seed = 13;
	idg_mono	st = {0};
	uint64_t	pms,
				prand;

	(void) state;
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 100000, 0, rng_splitmix, &seed), IDG_MONO_OK);
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 95000, 0, rng_splitmix, &seed), IDG_MONO_OK);
	/* beyond the leeway the clock is followed; uniqueness rests on the random bits */
	assert_true(st.ms == 95000);
	assert_true(st.rand < (UINT64_C(1) << 53));
	/* and from there on ids increase again */
	pms = st.ms;
	prand = st.rand;
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 95000, 0, rng_splitmix, &seed), IDG_MONO_OK);
	assert_true(after(&st, pms, prand));
}

static void
test_mono_overflow_borrows(void **state)
{
	uint64_t	seed = 14;
	idg_mono	st = {.valid = true, .ms = 1000, .rand = IUID_MAX_RAND - 5};
	uint64_t	pms,
				prand;

	(void) state;
	/* an increment of 2^32 (all-ones randomness) cannot fit: borrow 1001 */
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 1000, 0, rng_ones, NULL), IDG_MONO_OK);
	assert_true(st.ms == 1001);
	assert_true(st.rand == (UINT64_C(1) << 53) - 1);

	/* the clock still reads 1000: the borrowed millisecond is kept, ids increase */
	pms = st.ms;
	prand = st.rand;
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 1000, 0, rng_splitmix, &seed), IDG_MONO_OK);
	assert_true(st.ms == 1001 && after(&st, pms, prand));
	pms = st.ms;
	prand = st.rand;
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 1001, 0, rng_splitmix, &seed), IDG_MONO_OK);
	assert_true(st.ms == 1001 && after(&st, pms, prand));
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 1002, 0, rng_splitmix, &seed), IDG_MONO_OK);
	assert_true(st.ms == 1002);
}

/* the smallest increment that overflows, exactly at the boundary */
static void
test_mono_overflow_boundary(void **state)
{
	idg_mono	st = {.valid = true, .ms = 1000, .rand = IUID_MAX_RAND - 1};

	(void) state;
	/* +1 fits exactly */
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 1000, 0, rng_zero, NULL), IDG_MONO_OK);
	assert_true(st.ms == 1000 && st.rand == IUID_MAX_RAND);
	/* +1 more does not */
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 1000, 0, rng_zero, NULL), IDG_MONO_OK);
	assert_true(st.ms == 1001 && st.rand == 0);
}

/* a long burst on a frozen clock borrows milliseconds and keeps order */
static void
test_mono_burst_borrows_many(void **state)
{
	idg_mono	st = {0};
	uint64_t	pms,
				prand;
	long		i;

	(void) state;
	/*
	 * All-ones randomness: each millisecond starts at 2^53-1 and takes 2^21
	 * increments of 2^32 to reach 2^54-1 exactly, so it holds 2^21+1 ids and
	 * 3 * 2^21 more calls end in the third borrowed millisecond, 1002.
	 */
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 1000, 0, rng_ones, NULL), IDG_MONO_OK);
	for (i = 0; i < 3L * (1L << 21); i++)
	{
		pms = st.ms;
		prand = st.rand;
		assert_int_equal(idg_mono_next(&st, &iuid_cfg, 1000, 0, rng_ones, NULL), IDG_MONO_OK);
		if (!after(&st, pms, prand))
			fail_msg("id %ld not increasing", i);
	}
	assert_true(st.ms == 1002);
}

static void
test_mono_time_range(void **state)
{
	uint64_t	seed = 15;
	idg_mono	st = {.valid = true, .ms = IUID_MAX_MS, .rand = IUID_MAX_RAND};
	idg_mono	before = st;

	(void) state;
	/* borrowing past the last millisecond fails and leaves the state alone */
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, IUID_MAX_MS, 0, rng_splitmix, &seed),
					 IDG_MONO_TIME_RANGE);
	assert_memory_equal(&st, &before, sizeof(st));
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, IUID_MAX_MS + 1, 0, rng_splitmix, &seed),
					 IDG_MONO_TIME_RANGE);
	assert_memory_equal(&st, &before, sizeof(st));
	/* the last millisecond itself is one, live and in a backfill */
	memset(&st, 0, sizeof(st));
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, IUID_MAX_MS, 0, rng_splitmix, &seed), IDG_MONO_OK);
	assert_true(st.ms == IUID_MAX_MS);
	memset(&st, 0, sizeof(st));
	assert_int_equal(idg_mono_next_at(&st, &iuid_cfg, IUID_MAX_MS, rng_splitmix, &seed), IDG_MONO_OK);
	assert_true(st.ms == IUID_MAX_MS);
	/* a backfill walk that borrows the last millisecond, then past it */
	st.valid = true;
	st.at_ms = st.ms = IUID_MAX_MS - 1;
	st.rand = IUID_MAX_RAND;
	assert_int_equal(idg_mono_next_at(&st, &iuid_cfg, IUID_MAX_MS - 1, rng_splitmix, &seed), IDG_MONO_OK);
	assert_true(st.ms == IUID_MAX_MS);
	st.rand = IUID_MAX_RAND;
	before = st;
	assert_int_equal(idg_mono_next_at(&st, &iuid_cfg, IUID_MAX_MS, rng_splitmix, &seed), IDG_MONO_TIME_RANGE);
	assert_memory_equal(&st, &before, sizeof(st));
}

/*
 * A state that is not valid starts afresh at the clock, whatever it holds;
 * with one bit of fraction (a 0.5 ms clock), a later half of the same
 * millisecond takes a fresh field rather than an increment.
 */
static void
test_mono_fresh_rules(void **state)
{
	static const idg_mono_cfg one_bit = {
		.rand_bits = IUID_RAND_BITS,
		.frac_bits = 1,
		.inc_bits = 32,
		.max_ms = IUID_MAX_MS,
		.back_leeway_ms = 1000,
	};
	idg_mono	st = {.valid = false, .ms = 5000, .rand = 123};

	(void) state;
	assert_int_equal(idg_mono_next(&st, &iuid_cfg, 4000, 0, rng_zero, NULL), IDG_MONO_OK);
	assert_true(st.valid && st.ms == 4000 && st.rand == 0);
	memset(&st, 0, sizeof(st));
	assert_int_equal(idg_mono_next(&st, &one_bit, 7000, 100000, rng_zero, NULL), IDG_MONO_OK);
	assert_true(st.ms == 7000 && st.rand == 0);
	/* the second half: the fraction bit on top of a fresh (zero) random part */
	assert_int_equal(idg_mono_next(&st, &one_bit, 7000, 600000, rng_zero, NULL), IDG_MONO_OK);
	assert_true(st.ms == 7000 && st.rand == UINT64_C(1) << (IUID_RAND_BITS - 1));
	/* the same half again: an increment (1, with no randomness), not a fresh field */
	assert_int_equal(idg_mono_next(&st, &one_bit, 7000, 600000, rng_zero, NULL), IDG_MONO_OK);
	assert_true(st.ms == 7000 && st.rand == (UINT64_C(1) << (IUID_RAND_BITS - 1)) + 1);
}

/*
 * A random walk of the clock: forward jumps, small and large steps back.
 * Property: while the clock is at most 1 s behind the last id, ids increase;
 * otherwise the id takes the clock's millisecond.
 */
static void
test_mono_random_walk(void **state)
{
	uint64_t	seed = 99,
				walk = 1234;
	idg_mono	st = {0};
	uint64_t	now = UINT64_C(1000000000);
	int			i,
				back_small = 0,
				back_big = 0;

	(void) state;
	for (i = 0; i < 200000; i++)
	{
		uint64_t	r = rng_splitmix(&walk);
		uint64_t	pms = st.ms,
					prand = st.rand;
		int			had = st.valid;

		/* mostly frozen or creeping forward, now and then a step back */
		switch (r % 8)
		{
			case 0:
			case 1:
				now += r % 5;
				break;
			case 2:
				if ((r >> 3) % 32 == 0)
					now -= (r >> 8) % 1001;	/* back by up to 1 s */
				break;
			case 3:
				if ((r >> 3) % 256 == 0)
					now -= 1001 + (r >> 8) % 10000;	/* back by more than 1 s */
				break;
			default:
				break;
		}
		assert_int_equal(idg_mono_next(&st, &iuid_cfg, now, 0, rng_splitmix, &seed), IDG_MONO_OK);
		if (!had || now > pms)
			assert_true(st.ms == now);
		else if (pms - now <= 1000)
		{
			assert_true(after(&st, pms, prand));
			back_small += pms > now;
		}
		else
		{
			assert_true(st.ms == now);
			back_big++;
		}
	}
	/* the walk did exercise both kinds of step back */
	assert_true(back_small > 100);
	assert_true(back_big > 10);
}

/* the fraction of the millisecond, on top of 42 random bits */
static void
test_mono_frac_layout(void **state)
{
	idg_mono	st = {0};

	(void) state;
	/* 0.5 ms is 2048/4096; all-ones randomness fills the 42 bits below */
	assert_int_equal(idg_mono_next(&st, &iuid_frac_cfg, 1000, 500000, rng_ones, NULL),
					 IDG_MONO_OK);
	assert_true(st.ms == 1000);
	assert_true(st.rand == ((UINT64_C(2048) << 42) | ((UINT64_C(1) << 42) - 1)));
	/* 999999 ns is the last of the 4096 steps (floor) */
	assert_true(idg_mono_frac(999999, 12) == 4095);
	assert_true(idg_mono_frac(244, 12) == 0);
	assert_true(idg_mono_frac(245, 12) == 1);
	/* a later fraction of the same millisecond takes a fresh field */
	assert_int_equal(idg_mono_next(&st, &iuid_frac_cfg, 1000, 750000, rng_zero, NULL),
					 IDG_MONO_OK);
	assert_true(st.ms == 1000 && st.rand == UINT64_C(3072) << 42);
	/* the same or an earlier fraction increments (by at least 1) */
	assert_int_equal(idg_mono_next(&st, &iuid_frac_cfg, 1000, 750000, rng_zero, NULL),
					 IDG_MONO_OK);
	assert_true(st.ms == 1000 && st.rand == (UINT64_C(3072) << 42) + 1);
	assert_int_equal(idg_mono_next(&st, &iuid_frac_cfg, 1000, 100, rng_zero, NULL),
					 IDG_MONO_OK);
	assert_true(st.ms == 1000 && st.rand == (UINT64_C(3072) << 42) + 2);
	/* a new millisecond starts from its own fraction */
	assert_int_equal(idg_mono_next(&st, &iuid_frac_cfg, 1001, 0, rng_ones, NULL),
					 IDG_MONO_OK);
	assert_true(st.ms == 1001 && st.rand == (UINT64_C(1) << 42) - 1);
}

/*
 * Several backends, each with its own state and random source, take turns
 * on one clock that moves at least one fraction step (245 ns) per call, as
 * concurrent writers do: the ids, in the order they were made, must increase
 * across backends too, which is what keeps a btree's inserts at its right
 * edge.  Without the fraction each backend starts every millisecond at its
 * own random point and about half of the turns go down.
 */
static void
test_mono_frac_orders_backends(void **state)
{
	idg_mono	st[4] = {{0}};
	uint64_t	seeds[4] = {1, 2, 3, 4};
	uint64_t	walk = 77;
	uint64_t	ms = 5000;
	uint32_t	ns = 0;
	uint64_t	pms = 0,
				prand = 0;
	int			i;

	(void) state;
	for (i = 0; i < 100000; i++)
	{
		uint64_t	r = rng_splitmix(&walk);
		int			b = (int) (r % 4);

		ns += 245 + (uint32_t) ((r >> 8) % 5000);
		if (ns >= 1000000)
		{
			ms++;
			ns -= 1000000;
		}
		assert_int_equal(idg_mono_next(&st[b], &iuid_frac_cfg, ms, ns, rng_splitmix, &seeds[b]),
						 IDG_MONO_OK);
		if (i > 0 && !after(&st[b], pms, prand))
			fail_msg("id %d of backend %d is not after the previous id of any backend", i, b);
		pms = st[b].ms;
		prand = st[b].rand;
	}
}

/* a frozen clock still increases, by increments, and borrows on overflow */
static void
test_mono_frac_frozen_and_borrow(void **state)
{
	uint64_t	seed = 5;
	idg_mono	st = {0};
	uint64_t	pms,
				prand;
	long		i;

	(void) state;
	assert_int_equal(idg_mono_next(&st, &iuid_frac_cfg, 1000, 999999, rng_splitmix, &seed),
					 IDG_MONO_OK);
	for (i = 0; i < 3000000; i++)
	{
		pms = st.ms;
		prand = st.rand;
		assert_int_equal(idg_mono_next(&st, &iuid_frac_cfg, 1000, 999999, rng_splitmix, &seed),
						 IDG_MONO_OK);
		if (!after(&st, pms, prand))
			fail_msg("id %ld not increasing", i);
		if (st.ms == pms && st.rand - prand > (UINT64_C(1) << 32))
			fail_msg("increment of id %ld above 2^32", i);
	}
	/* the last fraction leaves 2^42 for increments: the clock was borrowed */
	assert_true(st.ms > 1000);
	/* the real clock catching up with the borrowed millisecond increments */
	pms = st.ms;
	prand = st.rand;
	assert_int_equal(idg_mono_next(&st, &iuid_frac_cfg, pms, 0, rng_splitmix, &seed),
					 IDG_MONO_OK);
	assert_true(after(&st, pms, prand));
}

/* two DistributedId128 generators on one moving clock: made in order */
static void
test_distid128_frac_orders_backends(void **state)
{
	distid128_gen g[2] = {{0}};
	uint64_t	seeds[2] = {11, 12};
	uint64_t	walk = 3;
	uint8_t		id[16],
				prev[16] = {0};
	uint64_t	ms = UINT64_C(10000000000000);
	uint32_t	ns = 0;
	int			i;

	(void) state;
	for (i = 0; i < 50000; i++)
	{
		uint64_t	r = rng_splitmix(&walk);
		int			b = (int) (r & 1);

		ns += 245 + (uint32_t) ((r >> 8) % 3000);
		if (ns >= 1000000)
		{
			ms++;
			ns -= 1000000;
		}
		assert_int_equal(distid128_next(&g[b], ms, ns, 12, rng_splitmix, &seeds[b], id),
						 DISTID_GEN_OK);
		/* every call is a later fraction: fresh, the fraction in the 12 bits after the version */
		assert_true((idg_load_be64(id) >> 16) == ms);
		assert_true((idg_load_be64(id) & 0xFFF) == idg_mono_frac(ns, 12));
		assert_int_equal(id[6] >> 4, 7);
		assert_int_equal(id[8] >> 7, 0);
		if (i > 0 && memcmp(id, prev, 16) <= 0)
			fail_msg("DistributedId128 %d of generator %d not after the previous one", i, b);
		memcpy(prev, id, 16);
	}
}

/* ---------- coarse clocks ---------- */

static uint64_t
rng_a(void *ctx)
{
	(void) ctx;
	return UINT64_C(0xAAAAAAAAAAAAAAAA);
}

static uint64_t
rng_5(void *ctx)
{
	(void) ctx;
	return UINT64_C(0x5555555555555555);
}

static int
popcount128(idg_u128 v)
{
	return __builtin_popcountll((uint64_t) v) + __builtin_popcountll((uint64_t) (v >> 64));
}

/* a fake clock of resolution res_ns: nanoseconds into the millisecond it reads at t_ns */
static uint32_t
coarse_sub_ns(uint64_t t_ns, uint64_t res_ns)
{
	return (uint32_t) ((t_ns - t_ns % res_ns) % IDG_NS_PER_MS);
}

/*
 * A clock of resolution res tells 2^b steps of a millisecond apart when
 * 10^6 / 2^b >= res (computed by hand: 10^6/4096 = 244.1, /512 = 1953.1,
 * /1024 = 976.6, /2 = 500000).
 */
static void
test_clock_frac_bits(void **state)
{
	(void) state;
	assert_int_equal(idg_clock_frac_bits(1, 12), 12);
	assert_int_equal(idg_clock_frac_bits(0, 12), 12);
	assert_int_equal(idg_clock_frac_bits(244, 12), 12);
	assert_int_equal(idg_clock_frac_bits(245, 12), 11);
	assert_int_equal(idg_clock_frac_bits(976, 12), 10);
	assert_int_equal(idg_clock_frac_bits(977, 12), 9);
	assert_int_equal(idg_clock_frac_bits(1000, 12), 9);
	assert_int_equal(idg_clock_frac_bits(1953, 12), 9);
	assert_int_equal(idg_clock_frac_bits(1954, 12), 8);
	assert_int_equal(idg_clock_frac_bits(500000, 12), 1);
	assert_int_equal(idg_clock_frac_bits(500001, 12), 0);
	assert_int_equal(idg_clock_frac_bits(1000000, 12), 0);
	assert_int_equal(idg_clock_frac_bits(15625000, 12), 0);
	assert_int_equal(idg_clock_frac_bits(1, 4), 4);
	/* a clock no better than a second, or the largest resolution there is: none */
	assert_int_equal(idg_clock_frac_bits(UINT64_C(1000000000), 12), 0);
	assert_int_equal(idg_clock_frac_bits(UINT64_MAX, 12), 0);
	/*
	 * A 1 ns clock tells 19 bits of a millisecond apart (10^6 / 2^19 is
	 * 1.9 ns, 10^6 / 2^20 less than one); a resolution of 0 is read as 1 ns
	 */
	assert_int_equal(idg_clock_frac_bits(1, 20), 19);
	assert_int_equal(idg_clock_frac_bits(0, 20), 19);
}

/*
 * On fake ns, us and ms clocks: every fraction value the configuration
 * keeps is reachable by some clock reading (no bit repeats across backends
 * for want of resolution), and the bits below it are the random source's:
 * iuid keeps 42, 45 and 53 (a field without fraction keeps its top bit
 * clear), DistributedId128 63, 66 and 75.
 */
static void
test_mono_coarse_clock(void **state)
{
	static const struct
	{
		uint64_t	res_ns;
		unsigned	bits;
		int			iuid_random;
		int			distid128_random;
	}			clocks[] = {{1, 12, 42, 63}, {1000, 9, 45, 66}, {1000000, 0, 53, 75}};

	(void) state;
	for (int c = 0; c < 3; c++)
	{
		uint64_t	res = clocks[c].res_ns;
		idg_mono_cfg cfg = idg_mono_cfg_for_clock(&iuid_frac_cfg, res);
		unsigned	fb = idg_clock_frac_bits(res, DISTID128_FRAC_BITS);
		static bool seen[4096];
		idg_mono	a = {0},
					b = {0};
		distid128_gen ga = {0},
					gb = {0};
		uint8_t		ida[16],
					idb[16];
		idg_u128	ra,
					rb;
		unsigned	nseen = 0;

		assert_int_equal(cfg.frac_bits, clocks[c].bits);
		assert_int_equal(fb, clocks[c].bits);
		memset(seen, 0, sizeof(seen));
		for (uint64_t t = 0; t < IDG_NS_PER_MS; t += 7)
		{
			uint64_t	f = idg_mono_frac(coarse_sub_ns(t, res), cfg.frac_bits);

			nseen += !seen[f];
			seen[f] = true;
		}
		assert_int_equal(nseen, 1u << cfg.frac_bits);

		/* two fresh fields at one reading differ in exactly the random bits */
		assert_int_equal(idg_mono_next(&a, &cfg, 1000, coarse_sub_ns(1234567, res), rng_a, NULL),
						 IDG_MONO_OK);
		assert_int_equal(idg_mono_next(&b, &cfg, 1000, coarse_sub_ns(1234567, res), rng_5, NULL),
						 IDG_MONO_OK);
		assert_int_equal(popcount128(a.rand ^ b.rand), clocks[c].iuid_random);

		assert_int_equal(distid128_next(&ga, 1000, coarse_sub_ns(1234567, res), fb, rng_a, NULL,
										ida), DISTID_GEN_OK);
		assert_int_equal(distid128_next(&gb, 1000, coarse_sub_ns(1234567, res), fb, rng_5, NULL,
										idb), DISTID_GEN_OK);
		ra = ((idg_u128) (idg_load_be64(ida) & 0xFFF) << 63) | (idg_load_be64(ida + 8) & idg_mask(63));
		rb = ((idg_u128) (idg_load_be64(idb) & 0xFFF) << 63) | (idg_load_be64(idb + 8) & idg_mask(63));
		assert_int_equal(popcount128(ra ^ rb), clocks[c].distid128_random);
		assert_int_equal(ida[8] >> 7, 0);
		assert_int_equal(ida[6] >> 4, 7);
	}
}

/* no clock bits by choice (idgen.sub_millisecond_clock = off): all 54 bits random */
static void
test_mono_whole_field(void **state)
{
	idg_mono_cfg cfg = iuid_frac_cfg;
	idg_mono	a = {0},
				b = {0};

	(void) state;
	cfg.frac_bits = 0;
	cfg.whole_field = true;
	assert_int_equal(idg_mono_next(&a, &cfg, 1000, 999999, rng_a, NULL), IDG_MONO_OK);
	assert_int_equal(idg_mono_next(&b, &cfg, 1000, 999999, rng_5, NULL), IDG_MONO_OK);
	assert_int_equal(popcount128(a.rand ^ b.rand), IUID_RAND_BITS);
	/* a fresh field at the very top: the next id borrows a millisecond */
	a = (idg_mono) {0};
	assert_int_equal(idg_mono_next(&a, &cfg, 1000, 0, rng_ones, NULL), IDG_MONO_OK);
	assert_true(a.ms == 1000 && a.rand == IUID_MAX_RAND);
	assert_int_equal(idg_mono_next(&a, &cfg, 1000, 0, rng_zero, NULL), IDG_MONO_OK);
	assert_true(a.ms == 1001 && a.rand == 0);
}

/*
 * 4 backends on a microsecond clock, readings a 1/512 ms step (1953.1 ns)
 * or more apart (3 us of true time): still in real-time order
 */
static void
test_mono_coarse_clock_orders_backends(void **state)
{
	idg_mono_cfg cfg = idg_mono_cfg_for_clock(&iuid_frac_cfg, 1000);
	idg_mono	st[4] = {{0}};
	uint64_t	seeds[4] = {5, 6, 7, 8};
	uint64_t	walk = 78;
	uint64_t	t = UINT64_C(5000) * IDG_NS_PER_MS;
	uint64_t	pms = 0,
				prand = 0;

	(void) state;
	for (int i = 0; i < 100000; i++)
	{
		uint64_t	r = rng_splitmix(&walk);
		int			b = (int) (r % 4);

		t += 3000 + (r >> 8) % 5000;
		assert_int_equal(idg_mono_next(&st[b], &cfg, t / IDG_NS_PER_MS, coarse_sub_ns(t, 1000),
									   rng_splitmix, &seeds[b]), IDG_MONO_OK);
		if (i > 0 && !after(&st[b], pms, prand))
			fail_msg("id %d of backend %d is not after the previous id of any backend", i, b);
		pms = st[b].ms;
		prand = st[b].rand;
	}
}

static void
test_mono_backfill(void **state)
{
	uint64_t	seed = 16;
	idg_mono	st = {0};
	uint64_t	prand;

	(void) state;
	assert_int_equal(idg_mono_next_at(&st, &iuid_cfg, 5000, rng_splitmix, &seed), IDG_MONO_OK);
	assert_true(st.ms == 5000 && st.rand < (UINT64_C(1) << 53));
	prand = st.rand;
	/* the same millisecond again: increasing, same millisecond */
	assert_int_equal(idg_mono_next_at(&st, &iuid_cfg, 5000, rng_splitmix, &seed), IDG_MONO_OK);
	assert_true(st.ms == 5000 && st.rand > prand);
	/* an earlier millisecond is honoured, never moved */
	assert_int_equal(idg_mono_next_at(&st, &iuid_cfg, 10, rng_splitmix, &seed), IDG_MONO_OK);
	assert_true(st.ms == 10);
	/* overflow borrows the next millisecond, as live generation does */
	st.rand = IUID_MAX_RAND;
	assert_int_equal(idg_mono_next_at(&st, &iuid_cfg, 10, rng_ones, NULL), IDG_MONO_OK);
	assert_true(st.ms == 11 && st.rand == (UINT64_C(1) << 53) - 1);
	/* the walk's own milliseconds continue it, in the borrowed one */
	prand = st.rand;
	assert_int_equal(idg_mono_next_at(&st, &iuid_cfg, 10, rng_zero, NULL), IDG_MONO_OK);
	assert_true(st.ms == 11 && st.rand == prand + 1);
	assert_int_equal(idg_mono_next_at(&st, &iuid_cfg, 11, rng_zero, NULL), IDG_MONO_OK);
	assert_true(st.ms == 11 && st.rand == prand + 2);
	/* a millisecond outside the walk starts afresh there */
	assert_int_equal(idg_mono_next_at(&st, &iuid_cfg, 12, rng_zero, NULL), IDG_MONO_OK);
	assert_true(st.ms == 12 && st.rand == 0);
	assert_int_equal(idg_mono_next_at(&st, &iuid_cfg, 11, rng_zero, NULL), IDG_MONO_OK);
	assert_true(st.ms == 11 && st.rand == 0);
	assert_int_equal(idg_mono_next_at(&st, &iuid_cfg, IUID_MAX_MS + 1, rng_ones, NULL),
					 IDG_MONO_TIME_RANGE);
	assert_true(st.ms == 11);
	/* borrowing past the last millisecond is out of range, state unchanged */
	st = (idg_mono) {.valid = true, .ms = IUID_MAX_MS, .rand = IUID_MAX_RAND, .at_ms = IUID_MAX_MS};
	assert_int_equal(idg_mono_next_at(&st, &iuid_cfg, IUID_MAX_MS, rng_ones, NULL),
					 IDG_MONO_TIME_RANGE);
	assert_true(st.ms == IUID_MAX_MS && st.rand == IUID_MAX_RAND);
}

/*
 * A backfill of one millisecond (INSERT ... SELECT ... now()): 12M ids for
 * one `at`.  Increments average 2^31 and a fresh field starts below 2^53, so
 * a 54-bit walk overflows after 4.2M to 8.4M ids; 12M ids overflow at least
 * once.  Every id must be strictly after its predecessor (so none repeats),
 * in the requested millisecond or one borrowed just after it.
 */
#define BACKFILL_IDS 12000000

static void
test_mono_backfill_one_ms(void **state)
{
	uint64_t	seed = 19;
	idg_mono	st = {0};
	uint64_t	pms;
	uint64_t	prand;
	long		borrowed = 0;

	(void) state;
	assert_int_equal(idg_mono_next_at(&st, &iuid_frac_cfg, 5000, rng_splitmix, &seed),
					 IDG_MONO_OK);
	for (long i = 1; i < BACKFILL_IDS; i++)
	{
		pms = st.ms;
		prand = st.rand;
		assert_int_equal(idg_mono_next_at(&st, &iuid_frac_cfg, 5000, rng_splitmix, &seed),
						 IDG_MONO_OK);
		if (!after(&st, pms, prand))
			fail_msg("id %ld (%llu, %llx) is not after (%llu, %llx)", i,
					 (unsigned long long) st.ms, (unsigned long long) st.rand,
					 (unsigned long long) pms, (unsigned long long) prand);
		borrowed += st.ms != pms;
	}
	/* the walk did overflow, and borrowed only a few milliseconds */
	assert_true(borrowed >= 1 && st.ms - 5000 <= 3);
}

/* ---------- base36id ---------- */

/* doc/formats.md: 2025-01-01T00:00:00Z is 31622400 s after the epoch */
#define S2025 INT64_C(31622400)

static void
test_b36_vectors(void **state)
{
	char		text[B36_LEN + 1];
	int64_t		v;
	size_t		off;

	(void) state;
	/* worker 3, counter 35 -> 0ITS0030Z */
	v = b36_compose(S2025, 3, 35);
	b36_format(v, text);
	assert_string_equal(text, "0ITS0030Z");
	assert_int_equal(b36_parse("0ITS0030Z", &v, &off), B36_PARSE_OK);
	assert_true(v == b36_compose(S2025, 3, 35));
	assert_true(b36_seconds(v) == S2025);
	assert_int_equal(b36_worker(v), 3);
	assert_int_equal(b36_counter(v), 35);
	/* worker 35, counter 1295 -> 0ITS00ZZZ */
	b36_format(b36_compose(S2025, 35, 1295), text);
	assert_string_equal(text, "0ITS00ZZZ");
	/* the epoch, and the largest value */
	b36_format(0, text);
	assert_string_equal(text, "000000000");
	b36_format(B36_MAX_VALUE, text);
	assert_string_equal(text, "ZZZZZZZZZ");
	assert_int_equal(b36_parse("ZZZZZZZZZ", &v, &off), B36_PARSE_OK);
	assert_true(v == B36_MAX_VALUE);
	assert_true(b36_compose(B36_MAX_SECONDS, 35, 1295) == B36_MAX_VALUE);
}

/* integer order is text order, and text round-trips */
static void
test_b36_order_roundtrip(void **state)
{
	uint64_t	seed = 5;
	int64_t		prev = -1;
	char		prev_text[B36_LEN + 1] = "";
	int			i;

	(void) state;
	for (i = 0; i < 100000; i++)
	{
		int64_t		v = prev + 1 + (int64_t) (rng_splitmix(&seed) % UINT64_C(1000000000));
		char		text[B36_LEN + 1];
		int64_t		back;
		size_t		off;

		if (v > B36_MAX_VALUE)
			break;
		b36_format(v, text);
		assert_int_equal(b36_parse(text, &back, &off), B36_PARSE_OK);
		assert_true(back == v);
		assert_true(strcmp(prev_text, text) < 0);
		memcpy(prev_text, text, sizeof(text));
		prev = v;
	}
}

static void
test_b36_parse_errors(void **state)
{
	static const struct
	{
		const char *in;
		b36_parse_status want;
		size_t		offset;
	}			cases[] = {
		{"", B36_PARSE_LENGTH, 0},
		{"0ITS0030", B36_PARSE_LENGTH, 8},
		{"0ITS0030ZZ", B36_PARSE_LENGTH, 10},
		{"0its0030z", B36_PARSE_LOWER, 1},
		{"0ITS0030z", B36_PARSE_LOWER, 8},
		{"0ITS-030Z", B36_PARSE_BAD_CHAR, 4},
		{" 0ITS0030Z", B36_PARSE_BAD_CHAR, 0},
		{"0ITS0030Z ", B36_PARSE_BAD_CHAR, 9},
		/* a bad character is named even past the ninth */
		{"0ITS0030Z_", B36_PARSE_BAD_CHAR, 9},
		/* the ends of the lower-case letters, and the bytes just outside them */
		{"0ITS0030a", B36_PARSE_LOWER, 8},
		{"0ITS0030`", B36_PARSE_BAD_CHAR, 8},
		{"0ITS0030{", B36_PARSE_BAD_CHAR, 8},
		{"0ITS0030@", B36_PARSE_BAD_CHAR, 8},
		{"0ITS0030[", B36_PARSE_BAD_CHAR, 8},
		{"0ITS0030/", B36_PARSE_BAD_CHAR, 8},
		{"0ITS0030:", B36_PARSE_BAD_CHAR, 8},
	};
	size_t		i;

	(void) state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		int64_t		v;
		size_t		off;

		assert_int_equal(b36_parse(cases[i].in, &v, &off), cases[i].want);
		assert_int_equal(off, cases[i].offset);
	}
}

/* issue n ids at clock now; returns how many succeeded before a wait */
static int
b36_issue(b36_state *st, int64_t now, int n, int64_t *last_second, int *last_counter)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		bool		new_second;

		if (b36_state_next(st, now, last_second, last_counter, &new_second) != B36_NEXT_OK)
			break;
	}
	return i;
}

static void
test_b36_counter_exhaustion(void **state)
{
	b36_state	st;
	int64_t		sec = -1;
	int			ctr = -1;
	bool		new_second;

	(void) state;
	b36_state_init(&st, -1);
	/* the first id of a second announces the new second, counter 0 */
	assert_int_equal(b36_state_next(&st, 100, &sec, &ctr, &new_second), B36_NEXT_OK);
	assert_true(new_second && sec == 100 && ctr == 0);
	assert_int_equal(b36_state_next(&st, 100, &sec, &ctr, &new_second), B36_NEXT_OK);
	assert_true(!new_second && sec == 100 && ctr == 1);
	/* 1294 more fit in second 100, the 1297th does not */
	assert_int_equal(b36_issue(&st, 100, 2000, &sec, &ctr), 1294);
	assert_true(sec == 100 && ctr == 1295);
	assert_int_equal(b36_state_next(&st, 100, &sec, &ctr, &new_second), B36_NEXT_WAIT);
	/* the next second starts over */
	assert_int_equal(b36_state_next(&st, 101, &sec, &ctr, &new_second), B36_NEXT_OK);
	assert_true(new_second && sec == 101 && ctr == 0);
}

static void
test_b36_counter_clock_back(void **state)
{
	b36_state	st;
	int64_t		sec = -1;
	int			ctr = -1;
	bool		new_second;

	(void) state;
	b36_state_init(&st, -1);
	assert_int_equal(b36_issue(&st, 500, 10, &sec, &ctr), 10);
	/* the clock steps back 60 s: second 500 keeps being used */
	assert_int_equal(b36_state_next(&st, 440, &sec, &ctr, &new_second), B36_NEXT_OK);
	assert_true(!new_second && sec == 500 && ctr == 10);
	assert_int_equal(b36_issue(&st, 440, 5000, &sec, &ctr), 1285);
	assert_true(sec == 500 && ctr == 1295);
	/* used up: wait, however far behind the clock is, until it passes 500 */
	assert_int_equal(b36_state_next(&st, 440, &sec, &ctr, &new_second), B36_NEXT_WAIT);
	assert_int_equal(b36_state_next(&st, 500, &sec, &ctr, &new_second), B36_NEXT_WAIT);
	assert_int_equal(b36_state_next(&st, 501, &sec, &ctr, &new_second), B36_NEXT_OK);
	assert_true(new_second && sec == 501 && ctr == 0);
}

static void
test_b36_counter_restart(void **state)
{
	b36_state	st;
	int64_t		sec = -1;
	int			ctr = -1;
	bool		new_second;

	(void) state;
	/* after a restart at high-water second 700, second 700 is used up */
	b36_state_init(&st, 700);
	assert_int_equal(b36_state_next(&st, 700, &sec, &ctr, &new_second), B36_NEXT_WAIT);
	assert_int_equal(b36_state_next(&st, 650, &sec, &ctr, &new_second), B36_NEXT_WAIT);
	assert_int_equal(b36_state_next(&st, 701, &sec, &ctr, &new_second), B36_NEXT_OK);
	assert_true(new_second && sec == 701 && ctr == 0);
}

/*
 * The epoch's own second, 0 (doc/formats.md: 000000000 is the epoch), is a
 * second like any other; b36_state_init sets both fields whatever they held.
 */
static void
test_b36_counter_epoch(void **state)
{
	b36_state	st = {.second = 12345, .next = 12345};
	int64_t		sec = -1;
	int			ctr = -1;
	bool		new_second;

	(void) state;
	b36_state_init(&st, -1);
	assert_int_equal(b36_state_next(&st, -1, &sec, &ctr, &new_second), B36_NEXT_RANGE);
	assert_int_equal(b36_state_next(&st, 0, &sec, &ctr, &new_second), B36_NEXT_OK);
	assert_true(new_second && sec == 0 && ctr == 0);
	assert_int_equal(b36_state_next(&st, 0, &sec, &ctr, &new_second), B36_NEXT_OK);
	assert_true(!new_second && sec == 0 && ctr == 1);
	/* a restart whose high-water second is the epoch's: second 0 is used up */
	b36_state_init(&st, 0);
	assert_int_equal(b36_state_next(&st, 0, &sec, &ctr, &new_second), B36_NEXT_WAIT);
	assert_int_equal(b36_state_next(&st, 1, &sec, &ctr, &new_second), B36_NEXT_OK);
	assert_true(new_second && sec == 1 && ctr == 0);
	/* and one from a state whose counter was left at 0 */
	st.second = 0;
	st.next = 0;
	b36_state_init(&st, 700);
	assert_int_equal(b36_state_next(&st, 700, &sec, &ctr, &new_second), B36_NEXT_WAIT);
}

static void
test_b36_counter_range(void **state)
{
	b36_state	st;
	int64_t		sec = -1;
	int			ctr = -1;
	bool		new_second;

	(void) state;
	b36_state_init(&st, -1);
	/* a clock before 2024 or after 2092 */
	assert_int_equal(b36_state_next(&st, -5, &sec, &ctr, &new_second), B36_NEXT_RANGE);
	assert_int_equal(b36_state_next(&st, B36_MAX_SECONDS + 1, &sec, &ctr, &new_second),
					 B36_NEXT_RANGE);
	assert_int_equal(b36_state_next(&st, B36_MAX_SECONDS, &sec, &ctr, &new_second), B36_NEXT_OK);
	assert_true(sec == B36_MAX_SECONDS && ctr == 0);
}

/* ---------- distid ---------- */

/* vectors: doc/formats.md, and boundaries computed with Python's integers */
static const struct
{
	const char *dec;
	const char *alnum;
	const char *hex;
}			distid_vectors[] = {
	{"0", "0000000000000000", "00000000000000000000000000"},
	{"1", "0000000000000001", "00000000000000000000000001"},
	{"61", "000000000000000z", "0000000000000000000000003D"},
	{"62", "0000000000000010", "0000000000000000000000003E"},
	{"4294967296", "00000000004gfFC4", "00000000000000000100000000"},
	{"18446744073709551615", "00000LygHa16AHYF", "0000000000FFFFFFFFFFFFFFFF"},
	{"9999999999999999999999999999", "agbFu5KnEQGxp4QB", "00204FCE5E3E2502610FFFFFFF"},
	{"1088824355131185736905670087", "3zfAkCP7ZtzfeQYp", "000384A786907DB2AD82883DC7"},
	/* a head group of nine digits exactly 10^8 (10^8, 10^17, 10^26) and neighbours */
	{"99999999", "000000000006laZD", "00000000000000000005F5E0FF"},
	{"100000000", "000000000006laZE", "00000000000000000005F5E100"},
	{"100000001", "000000000006laZF", "00000000000000000005F5E101"},
	{"99999999999999999", "0000007O044qYiZb", "0000000000016345785D89FFFF"},
	{"100000000000000000", "0000007O044qYiZc", "0000000000016345785D8A0000"},
	{"100000000000000001", "0000007O044qYiZd", "0000000000016345785D8A0001"},
	{"99999999999999999999999999", "0MkFeIxDIMYatqxT", "000052B7D2DCC80CD2E3FFFFFF"},
	{"100000000000000000000000000", "0MkFeIxDIMYatqxU", "000052B7D2DCC80CD2E4000000"},
	{"100000000000000000000000001", "0MkFeIxDIMYatqxV", "000052B7D2DCC80CD2E4000001"},
	{"9999999999999999999999999998", "agbFu5KnEQGxp4QA", "00204FCE5E3E2502610FFFFFFE"},
};

/* decimal digits of v the slow way: one 128-bit division per digit */
static void
decimal_reference(idg_u128 v, char *out)
{
	char		buf[48];
	char	   *p = buf + sizeof(buf);

	*--p = '\0';
	do
	{
		*--p = (char) ('0' + (int) (v % 10));
		v /= 10;
	} while (v != 0);
	strcpy(out, p);
}

static void
test_distid_decimal_format(void **state)
{
	/* every chunk boundary of 10^9, the type's maximum, and far beyond it */
	static const char *const edges[] = {
		"0", "9", "10", "99", "100", "999999999", "1000000000", "1000000001",
		"999999999999999999", "1000000000000000000", "18446744073709551616",
		"999999999999999999999999999", "1000000000000000000000000000",
		"9999999999999999999999999999", "79228162514264337593543950335",
		/* a head group exactly 10^8, and its neighbours */
		"99999999", "100000000", "100000001", "99999999999999999", "100000000000000000",
		"100000000000000001", "99999999999999999999999999", "100000000000000000000000000",
		"100000000000000000000000001", "9999999999999999999999999998", "10000000000000000000000000000",
		"100000000000000000000000000000000000", "100000000000000000000000000000000000000",
		"340282366920938463463374607431768211455",
	};
	char		buf[40],
				want[48];
	uint64_t	seed = 35;
	size_t		i;

	(void) state;
	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
	{
		idg_u128	v = 0;
		const char *c;

		for (c = edges[i]; *c; c++)
			v = v * 10 + (unsigned) (*c - '0');
		distid_format_decimal(v, buf);
		assert_string_equal(buf, edges[i]);
	}
	/*
	 * Every count of digits, in every chunk of nine: 10^k - 1, 10^k and
	 * 10^k + 1 for k = 1 .. 38, written as their digits (nines; a one and
	 * zeros; a one, zeros and a one)
	 */
	for (i = 1; i <= 38; i++)
	{
		char		digits[3][48];
		int			which;

		memset(digits[0], '9', i);
		digits[0][i] = '\0';
		digits[1][0] = '1';
		memset(digits[1] + 1, '0', i);
		digits[1][i + 1] = '\0';
		strcpy(digits[2], digits[1]);
		digits[2][i] = '1';
		for (which = 0; which < 3; which++)
		{
			idg_u128	v = 0;
			const char *c;

			for (c = digits[which]; *c; c++)
				v = v * 10 + (unsigned) (*c - '0');
			distid_format_decimal(v, buf);
			assert_string_equal(buf, digits[which]);
		}
	}
	/*
	 * every power of two and its neighbours, and powers of two times 10^9
	 * and 10^18 (chunks of zeros below words of zeros), against the slow
	 * reference
	 */
	for (i = 0; i < 128; i++)
	{
		idg_u128	p = (idg_u128) 1 << i;
		idg_u128	vs[5] = {p - 1, p, p + 1,
			i <= 98 ? p * UINT64_C(1000000000) : 0,
			i <= 68 ? p * UINT64_C(1000000000) * UINT64_C(1000000000) : 0};
		int			which;

		for (which = 0; which < 5; which++)
		{
			decimal_reference(vs[which], want);
			distid_format_decimal(vs[which], buf);
			assert_string_equal(buf, want);
		}
	}
	/* one chunk of nine digits, across its range (all 10^9 checked once, offline) */
	for (i = 0; i < 1000000000; i += 9973)
	{
		decimal_reference((idg_u128) i, want);
		distid_format_decimal((idg_u128) i, buf);
		assert_string_equal(buf, want);
	}
	for (i = 0; i < 200000; i++)
	{
		idg_u128	v = ((idg_u128) rng_splitmix(&seed) << 64) | rng_splitmix(&seed);

		/* all widths: shift the value down by 0 to 127 bits */
		v >>= rng_splitmix(&seed) % 128;
		decimal_reference(v, want);
		distid_format_decimal(v, buf);
		assert_string_equal(buf, want);
	}
}

static void
test_distid_vectors(void **state)
{
	size_t		i;

	(void) state;
	for (i = 0; i < sizeof(distid_vectors) / sizeof(distid_vectors[0]); i++)
	{
		idg_u128	v,
					w;
		size_t		off;
		char		buf[40];
		uint8_t		bytes[DISTID_LEN];

		assert_int_equal(distid_parse_decimal(distid_vectors[i].dec, &v, &off), DISTID_PARSE_OK);
		distid_format_decimal(v, buf);
		assert_string_equal(buf, distid_vectors[i].dec);
		distid_to_alphanumeric(v, buf);
		assert_string_equal(buf, distid_vectors[i].alnum);
		distid_to_hex(v, buf);
		assert_string_equal(buf, distid_vectors[i].hex);
		assert_int_equal(distid_from_alphanumeric(distid_vectors[i].alnum, &w, &off), DISTID_PARSE_OK);
		assert_true(w == v);
		assert_int_equal(distid_from_hex(distid_vectors[i].hex, &w, &off), DISTID_PARSE_OK);
		assert_true(w == v);
		idg_store_be96(bytes, v);
		assert_true(idg_load_be96(bytes) == v);
	}
	/* SPEC: the vector's timestamp is 2022-07-31 18:33:00.285 UTC = 3868281180285 ms since 1900 */
	{
		idg_u128	v;
		size_t		off;

		assert_int_equal(distid_parse_decimal("1088824355131185736905670087", &v, &off), DISTID_PARSE_OK);
		assert_true(distid_ts(v) == UINT64_C(3868281180285));
	}
}

static void
test_distid_parse_errors(void **state)
{
	idg_u128	v;
	uint8_t		u[16];
	int64_t		b;
	size_t		off;

	(void) state;
	off = 99;
	assert_int_equal(distid_parse_decimal("", &v, &off), DISTID_PARSE_EMPTY);
	assert_int_equal(off, 0);
	assert_int_equal(distid_parse_decimal("12a4", &v, &off), DISTID_PARSE_BAD_CHAR);
	assert_int_equal(off, 2);
	assert_int_equal(distid_parse_decimal("-1", &v, &off), DISTID_PARSE_BAD_CHAR);
	assert_int_equal(distid_parse_decimal("10000000000000000000000000000", &v, &off), DISTID_PARSE_RANGE);
	/* far past 128 bits still reports range, not garbage */
	assert_int_equal(distid_parse_decimal("999999999999999999999999999999999999999999999", &v, &off),
					 DISTID_PARSE_RANGE);
	/* leading zeros are only zeros */
	assert_int_equal(distid_parse_decimal("00000000000000000000000000000000001", &v, &off), DISTID_PARSE_OK);
	assert_true(v == 1);

	assert_int_equal(distid_from_alphanumeric("3zfAkCP7ZtzfeQY", &v, &off), DISTID_PARSE_LENGTH);
	assert_int_equal(off, 15);
	assert_int_equal(distid_from_alphanumeric("3zfAkCP7Z-zfeQYp", &v, &off), DISTID_PARSE_BAD_CHAR);
	assert_int_equal(off, 9);
	/* blocks in range but the value above 10^28-1 */
	assert_int_equal(distid_from_alphanumeric("zzzzz00000000000", &v, &off), DISTID_PARSE_RANGE);
	/* the low block above 2^64-1 (the reference wraps it; we refuse), named by its first character */
	off = 99;
	assert_int_equal(distid_from_alphanumeric("00000zzzzzzzzzzz", &v, &off), DISTID_PARSE_BLOCK_RANGE);
	assert_int_equal(off, 5);
	/* the characters around each range of the alphabet 0-9A-Za-z are no digits */
	{
		static const char outside[] = "/:@[`{_\x7f";
		const char *c;

		for (c = outside; *c; c++)
		{
			char		in[] = "3zfAkCP7ZtzfeQYp";

			in[9] = *c;
			off = 99;
			assert_int_equal(distid_from_alphanumeric(in, &v, &off), DISTID_PARSE_BAD_CHAR);
			assert_int_equal(off, 9);
		}
	}
	assert_int_equal(distid_from_alphanumeric("", &v, &off), DISTID_PARSE_EMPTY);
	/* 16 characters, 17 bytes: the multibyte one is named, not the length */
	assert_int_equal(distid_from_alphanumeric("3zfAkCP7ZtzfeQY\xc3\xa9", &v, &off), DISTID_PARSE_BAD_CHAR);
	assert_int_equal(off, 15);

	assert_int_equal(distid_from_hex("000384a786907db2ad82883dc7", &v, &off), DISTID_PARSE_OK);
	assert_true(v == (((idg_u128) UINT64_C(0x000384A786) << 64) | UINT64_C(0x907DB2AD82883DC7)));
	assert_int_equal(distid_from_hex("000384A786907DB2AD82883DC", &v, &off), DISTID_PARSE_LENGTH);
	assert_int_equal(distid_from_hex("000384A786907DB2AD82883DCG", &v, &off), DISTID_PARSE_BAD_CHAR);
	assert_int_equal(off, 25);
	assert_int_equal(distid_from_hex("00204FCE5E3E25026110000000", &v, &off), DISTID_PARSE_RANGE);
	/* the first character counts like any other: out of range, or bad */
	assert_int_equal(distid_from_hex("10000000000000000000000000", &v, &off), DISTID_PARSE_RANGE);
	off = 99;
	assert_int_equal(distid_from_hex("G0000000000000000000000000", &v, &off), DISTID_PARSE_BAD_CHAR);
	assert_int_equal(off, 0);
	/* lower-case hex to its last letter, f: 10^28-1 */
	assert_int_equal(distid_from_hex("00204fce5e3e2502610fffffff", &v, &off), DISTID_PARSE_OK);
	assert_true(v == distid_max());
	/* the characters just outside 0-9, A-F and a-f */
	{
		static const char outside[] = "/:@G`g";
		const char *c;

		for (c = outside; *c; c++)
		{
			char		in[] = "00204FCE5E3E2502610FFFFFFF";

			in[20] = *c;
			off = 99;
			assert_int_equal(distid_from_hex(in, &v, &off), DISTID_PARSE_BAD_CHAR);
			assert_int_equal(off, 20);
		}
	}
	/*
	 * A byte outside ASCII is named before the length is judged (a multibyte
	 * character would make the byte count misleading), from 0x80 on; DEL,
	 * ASCII, is judged by the length first.
	 */
	off = 99;
	assert_int_equal(distid_from_hex("00204FCE5E3E2502610FFFFF\x80", &v, &off), DISTID_PARSE_BAD_CHAR);
	assert_int_equal(off, 24);
	off = 99;
	assert_int_equal(distid_from_hex("00204FCE5E3E2502610FFFFF\x7f", &v, &off), DISTID_PARSE_LENGTH);
	assert_int_equal(off, 25);
	/* an empty input's offset is its length, 0 */
	off = 99;
	assert_int_equal(distid_from_hex("", &v, &off), DISTID_PARSE_EMPTY);
	assert_int_equal(off, 0);

	assert_int_equal(uuid_from_alphanumeric("LygHa16AHYFLygHa16AHYF", u, &off), DISTID_PARSE_OK);
	assert_int_equal(u[0], 0xFF);
	assert_int_equal(u[15], 0xFF);
	off = 99;
	assert_int_equal(uuid_from_alphanumeric("LygHa16AHYGLygHa16AHYF", u, &off), DISTID_PARSE_BLOCK_RANGE);
	assert_int_equal(off, 0);
	off = 99;
	assert_int_equal(uuid_from_alphanumeric("LygHa16AHYFLygHa16AHYG", u, &off), DISTID_PARSE_BLOCK_RANGE);
	assert_int_equal(off, 11);
	assert_int_equal(bigint_from_alphanumeric("AzL8n0Y58m7", &b, &off), DISTID_PARSE_OK);
	assert_true(b == INT64_MAX);
	assert_int_equal(bigint_from_alphanumeric("AzL8n0Y58m8", &b, &off), DISTID_PARSE_RANGE);
}

static void
test_distid_alnum_other(void **state)
{
	/* DistributedId128 vector and bigint boundaries, from Python */
	static const uint8_t d128[16] = {0x09, 0x49, 0x54, 0xa8, 0x62, 0x2c, 0x76, 0xad,
	0x1b, 0x93, 0xcd, 0xef, 0xcb, 0xdf, 0x08, 0x88};
	char		buf[UUID_ALNUM_LEN + 1];
	uint8_t		back[16];
	size_t		off;
	char		b11[BIGINT_ALNUM_LEN + 1] = {0};

	(void) state;
	/* the text ends where it should, whatever the buffer held */
	memset(buf, 'x', sizeof(buf));
	uuid_to_alphanumeric(d128, buf);
	assert_string_equal(buf, "0nQkrErwxJd2MnCm41WZ5s");
	assert_int_equal(uuid_from_alphanumeric(buf, back, &off), DISTID_PARSE_OK);
	assert_memory_equal(back, d128, 16);
	idg_base62_encode(UINT64_C(4294967296), 11, b11);
	assert_string_equal(b11, "000004gfFC4");
	idg_base62_encode((uint64_t) INT64_MAX, 11, b11);
	assert_string_equal(b11, "AzL8n0Y58m7");
}

/* a fake clock: the generator's sleeps advance it by exactly 1 ms */
typedef struct sleepy
{
	uint64_t	now;
	long		sleeps;
	uint64_t	seed;
} sleepy;

static idg_u128
distid_gen_one(distid_gen *g, sleepy *c)
{
	idg_u128	id;
	distid_gen_status st;

	while ((st = distid_next(g, c->now, rng_splitmix, &c->seed, &id)) == DISTID_GEN_SLEEP)
	{
		c->sleeps++;
		c->now++;
	}
	assert_int_equal(st, DISTID_GEN_OK);
	return id;
}

static void
test_distid_gen_burst(void **state)
{
	/* SPEC: 100,000 ids on a frozen clock without a sleep */
	sleepy		c = {.now = UINT64_C(3868281180285), .sleeps = 0, .seed = 21};
	distid_gen	g = {0};
	idg_u128	prev = 0;
	int			i;

	(void) state;
	for (i = 0; i < 100000; i++)
	{
		idg_u128	id = distid_gen_one(&g, &c);

		assert_true(id > prev);
		/* never in the future: at most 1 ms before the (frozen) clock */
		assert_true(distid_ts(id) <= c.now - 1);
		assert_true(distid_ts(id) >= c.now - 1000);
		prev = id;
	}
	assert_int_equal(c.sleeps, 0);
}

static void
test_distid_gen_sustained_rate(void **state)
{
	/* after the ~128K burst, each slept millisecond yields ~128 ids */
	sleepy		c = {.now = UINT64_C(3868281180285), .sleeps = 0, .seed = 22};
	distid_gen	g = {0};
	idg_u128	prev = 0;
	long		before;
	double		per_sleep;
	int			i;

	(void) state;
	for (i = 0; i < 200000; i++)
		prev = distid_gen_one(&g, &c);
	assert_true(c.sleeps > 0);	/* the burst window was used up */
	before = c.sleeps;
	for (i = 0; i < 500000; i++)
	{
		idg_u128	id = distid_gen_one(&g, &c);

		assert_true(id > prev);
		prev = id;
	}
	per_sleep = 500000.0 / (double) (c.sleeps - before);
	print_message("distid: %.1f ids per slept millisecond\n", per_sleep);
	assert_true(per_sleep > 115 && per_sleep < 141);
}

static void
test_distid_gen_rewind(void **state)
{
	sleepy		c = {.now = UINT64_C(3868281180285), .sleeps = 0, .seed = 23};
	distid_gen	g = {0};
	idg_u128	a,
				b;
	int			i;

	(void) state;
	a = distid_gen_one(&g, &c);
	/* stamped 1 s in the past; a new millisecond takes all 48 fresh bits */
	assert_true(distid_ts(a) == c.now - 1000);
	/* back 500 ms: still increasing */
	c.now -= 500;
	for (i = 0; i < 1000; i++)
	{
		b = distid_gen_one(&g, &c);
		assert_true(b > a);
		a = b;
	}
	/*
	 * Back 5 s: like the reference, increments continue on the last
	 * millisecond while they fit; at the first overflow the clock is more
	 * than the leeway behind, so the id follows it (smaller), without sleeping.
	 */
	{
		long		sleeps = c.sleeps;
		uint64_t	last_ts = distid_ts(a);

		c.now -= 5000;
		for (;;)
		{
			b = distid_gen_one(&g, &c);
			if (distid_ts(b) != last_ts)
				break;
			assert_true(b > a);
			a = b;
		}
		assert_true(distid_ts(b) == c.now - 1000);
		assert_true(b < a);
		assert_int_equal(c.sleeps, sleeps);
	}
}

static void
test_distid_gen_zero_random(void **state)
{
	/* 0 becomes 1, both as a fresh value and as an increment */
	distid_gen	g = {0};
	idg_u128	id;

	(void) state;
	assert_int_equal(distid_next(&g, 5000, rng_zero, NULL, &id), DISTID_GEN_OK);
	assert_true((uint64_t) (id & 0xFFFFFFFFFFFF) == 1 && distid_ts(id) == 4000);
	assert_int_equal(distid_next(&g, 5000, rng_zero, NULL, &id), DISTID_GEN_OK);
	assert_true((uint64_t) (id & 0xFFFFFFFFFFFF) == 2 && distid_ts(id) == 4000);
	/* the largest increment is 2^41-1 */
	assert_int_equal(distid_next(&g, 5000, rng_ones, NULL, &id), DISTID_GEN_OK);
	assert_true((uint64_t) (id & 0xFFFFFFFFFFFF) == 2 + (UINT64_C(1) << 41) - 1);
}

/* the values of a script, one a call */
typedef struct
{
	const uint64_t *v;
	int			n;
	int			at;
} rng_script_state;

static uint64_t
rng_script(void *ctx)
{
	rng_script_state *s = ctx;

	assert_true(s->at < s->n);
	return s->v[s->at++];
}

/* one call of distid_next at now with the random value r; its id's parts */
static distid_gen_status
distid_next_with(distid_gen *g, uint64_t now, uint64_t r, uint64_t *ts, uint64_t *rand48)
{
	rng_script_state s = {&r, 1, 0};
	idg_u128	id = 0;
	distid_gen_status st = distid_next(g, now, rng_script, &s, &id);

	*ts = distid_ts(id);
	*rand48 = (uint64_t) id & idg_mask(DISTID_RAND_BITS);
	return st;
}

/*
 * The reference's boundaries (Architect.Identities 2.x:
 * RandomSequence48.TryAddRandomBits, DistributedIdGenerator.CreateValues):
 * an increment is the fresh value's low 41 bits, 1 when they are all 0, and
 * overflows only past 2^48-1; on overflow the previous millisecond moves on
 * while it stays below now - 1 ms (timestamp + leeway - 1), the generator
 * sleeps while the previous one is at most the leeway past that, and
 * follows the clock beyond; a timestamp needs at most 45 bits.
 */
static void
test_distid_gen_edges(void **state)
{
	const uint64_t max48 = idg_mask(DISTID_RAND_BITS);
	distid_gen	g = {0};
	uint64_t	ts,
				r;

	(void) state;
	/* the fresh value 100, then one whose 41 low bits are 0: an increment of 1 */
	assert_int_equal(distid_next_with(&g, 5000, 100, &ts, &r), DISTID_GEN_OK);
	assert_true(ts == 4000 && r == 100);
	assert_int_equal(distid_next_with(&g, 5000, UINT64_C(1) << 41, &ts, &r), DISTID_GEN_OK);
	assert_true(ts == 4000 && r == 101);
	/* an increment that reaches 2^48-1 exactly fits */
	g.prev_ts = 4000;
	g.prev_rand = max48 - 7;
	assert_int_equal(distid_next_with(&g, 5000, 7, &ts, &r), DISTID_GEN_OK);
	assert_true(ts == 4000 && r == max48);
	/* past it: the next millisecond, with the fresh value, while below now - 1 ms */
	assert_int_equal(distid_next_with(&g, 5000, 9, &ts, &r), DISTID_GEN_OK);
	assert_true(ts == 4001 && r == 9);
	g.prev_ts = 4998;
	g.prev_rand = max48;
	assert_int_equal(distid_next_with(&g, 5000, 9, &ts, &r), DISTID_GEN_OK);
	assert_true(ts == 4999 && r == 9);
	/* at now - 1 ms: sleep */
	g.prev_ts = 4999;
	g.prev_rand = max48;
	assert_int_equal(distid_next_with(&g, 5000, 9, &ts, &r), DISTID_GEN_SLEEP);
	/* the previous millisecond up to the leeway past now - 1 ms: sleep; one more: the clock */
	g.prev_ts = 4999 + 1000;
	g.prev_rand = max48;
	assert_int_equal(distid_next_with(&g, 5000, 9, &ts, &r), DISTID_GEN_SLEEP);
	g.prev_ts = 4999 + 1001;
	g.prev_rand = max48;
	assert_int_equal(distid_next_with(&g, 5000, 9, &ts, &r), DISTID_GEN_OK);
	assert_true(ts == 4000 && r == 9);
	/* the last timestamp of 45 bits, 2^45 - 1 (3014-12-13 12:41:28.831 UTC), and the one after */
	memset(&g, 0, sizeof(g));
	assert_int_equal(distid_next_with(&g, UINT64_C(35184372088831) + 1000, 9, &ts, &r), DISTID_GEN_OK);
	assert_true(ts == UINT64_C(35184372088831));
	memset(&g, 0, sizeof(g));
	assert_int_equal(distid_next_with(&g, UINT64_C(35184372088832) + 1000, 9, &ts, &r), DISTID_GEN_RANGE);
}

/*
 * distid128_pack: SPEC's layout, vectors from test/vectors/time_bounds.py's
 * formula (ts48 | 7 | top 12 of r75 | 0 | low 63 of r75).
 */
static void
test_distid128_pack(void **state)
{
	/* 2023-07-24 17:59:43.916 UTC, ms since 1700 */
	const uint64_t ms = UINT64_C(0x094954a8622c);
	static const uint8_t least[16] = {
		0x09, 0x49, 0x54, 0xa8, 0x62, 0x2c, 0x70, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
	static const uint8_t greatest[16] = {
		0x09, 0x49, 0x54, 0xa8, 0x62, 0x2c, 0x7f, 0xff,
		0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	/* r75 = 2^74 | 2^63 | 5: its top bit and the bit that crosses bit 64 */
	static const uint8_t mixed[16] = {
		0x09, 0x49, 0x54, 0xa8, 0x62, 0x2c, 0x78, 0x01,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05};
	uint8_t		id[16];

	(void) state;
	distid128_pack(ms, 0, id);
	assert_memory_equal(id, least, 16);
	distid128_pack(ms, ((idg_u128) 1 << DISTID128_RAND_BITS) - 1, id);
	assert_memory_equal(id, greatest, 16);
	distid128_pack(ms, ((idg_u128) 1 << 74) | ((idg_u128) 1 << 63) | 5, id);
	assert_memory_equal(id, mixed, 16);
}

static void
test_distid128_gen(void **state)
{
	sleepy		c = {.now = UINT64_C(10210557583916), .sleeps = 0, .seed = 24};
	distid128_gen g = {0};
	uint8_t		prev[16] = {0};
	int			i;

	(void) state;
	for (i = 0; i < 20000; i++)
	{
		uint8_t		id[16];
		distid_gen_status st;

		while ((st = distid128_next(&g, c.now, 0, 12, rng_splitmix, &c.seed, id)) == DISTID_GEN_SLEEP)
		{
			c.sleeps++;
			c.now++;
		}
		assert_int_equal(st, DISTID_GEN_OK);
		assert_true(memcmp(id, prev, 16) > 0);
		assert_int_equal(id[6] >> 4, 7);		/* version nibble */
		assert_int_equal(id[8] >> 7, 0);		/* bit 64 */
		assert_true((idg_load_be64(id) >> 16) == c.now);	/* no leeway */
		memcpy(prev, id, 16);
	}
	/* 58-bit increments in 75 bits: 2^17 ids per millisecond, no sleeping */
	assert_int_equal(c.sleeps, 0);
}

/*
 * How often DistributedId128 sleeps, on a simulated clock that advances a
 * fixed number of ns per id (and 1 ms per sleep): the rate limit in practice.
 * A fresh R at 1/4096 step f of a millisecond is f * 2^63 plus 63 random
 * bits, so a walk has about (4096 - f) * 64 increments of room on average;
 * in the last step only what is left of one 2^63 block, which a few ids can
 * use up: the sleeps fall at the end of a millisecond.  Without clock bits
 * (a millisecond clock) the room is the reference's, 2^74/2^57 = 131072 ids
 * per millisecond on average.
 */
static long
distid128_sleeps(uint64_t ns_per_id, uint64_t res_ns, long ids, uint64_t seed,
				 uint32_t *earliest_sleep_ns)
{
	distid128_gen g = {0};
	unsigned	fb = idg_clock_frac_bits(res_ns, DISTID128_FRAC_BITS);
	uint64_t	t = UINT64_C(10210557583916) * IDG_NS_PER_MS + 123456;
	long		sleeps = 0;
	uint8_t		id[16],
				prev[16] = {0};

	*earliest_sleep_ns = IDG_NS_PER_MS;
	for (long i = 0; i < ids; i++)
	{
		while (distid128_next(&g, t / IDG_NS_PER_MS, coarse_sub_ns(t, res_ns), fb,
							  rng_splitmix, &seed, id) == DISTID_GEN_SLEEP)
		{
			sleeps++;
			if (t % IDG_NS_PER_MS < *earliest_sleep_ns)
				*earliest_sleep_ns = t % IDG_NS_PER_MS;
			t += IDG_NS_PER_MS;
		}
		assert_true(memcmp(id, prev, 16) > 0);
		memcpy(prev, id, 16);
		t += ns_per_id;
	}
	return sleeps;
}

/* ids per simulated run; larger for a figure: -DDISTID128_RATE_IDS=200000000L */
#ifndef DISTID128_RATE_IDS
#define DISTID128_RATE_IDS 2000000
#endif

static void
test_distid128_rate(void **state)
{
	long		n = DISTID128_RATE_IDS;
	long		paced,
				paced_ref,
				fast,
				ms_clock;
	uint32_t	at,
				at_other;

	(void) state;
	/* at about the measured cost of an id (55 ns, README), clock bits or not */
	paced = distid128_sleeps(50, 1, n, 31, &at);
	paced_ref = distid128_sleeps(50, IDG_NS_PER_MS, n, 34, &at_other);
	/* at 1 ns per id */
	fast = distid128_sleeps(1, 1, n, 32, &at_other);
	ms_clock = distid128_sleeps(1, IDG_NS_PER_MS, n, 33, &at_other);
	print_message("distid128: at 50 ns per id %.1f sleeps per second of clock (none before "
				  "%u ns into a ms), %.1f without clock bits; at 1 ns per id %.0f ids per "
				  "sleep, %.0f without clock bits\n",
				  paced * 1e9 / (n * 50.0), at, paced_ref * 1e9 / (n * 50.0),
				  (double) n / fast, (double) n / ms_clock);
	/* paced: a few sleeps, all in the last 1 % of a millisecond */
	assert_true(paced > 0 && paced * 1e9 / (n * 50.0) < 200 && at >= 990000);
	/* at 1 ns per id the clock bits leave less room than the reference's */
	assert_true(fast > 0 && n / fast < 131072);
	assert_true(ms_clock > 0 && n / ms_clock > 65536 && n / ms_clock < 262144);
}

static void
test_distid128_gen_overflow(void **state)
{
	/* all-ones randomness, last fraction: start at 2^75-1 - nothing fits, so sleep */
	distid128_gen g = {0};
	uint8_t		id[16];

	(void) state;
	assert_int_equal(distid128_next(&g, 1000, 999999, 12, rng_ones, NULL, id), DISTID_GEN_OK);
	assert_true(g.prev_hi == 0x7FF && g.prev_lo == UINT64_MAX);
	assert_int_equal(distid128_next(&g, 1000, 999999, 12, rng_ones, NULL, id), DISTID_GEN_SLEEP);
	assert_int_equal(distid128_next(&g, 1000 - 999, 999999, 12, rng_ones, NULL, id), DISTID_GEN_SLEEP);
	/* the clock a second or more behind: follow it */
	assert_int_equal(distid128_next(&g, 1000 - 1000, 999999, 12, rng_ones, NULL, id), DISTID_GEN_OK);
	assert_true(g.prev_ts == 0);
	assert_int_equal(distid128_next(&g, 1001, 999999, 12, rng_ones, NULL, id), DISTID_GEN_OK);
	assert_true(g.prev_ts == 1001);
}

/* the 75 random bits of a DistributedId128: the 12 after the version nibble, then the low 63 */
static idg_u128
distid128_r75(const uint8_t id[16])
{
	return ((idg_u128) (idg_load_be64(id) & 0xFFF) << 63) | (idg_load_be64(id + 8) & idg_mask(63));
}

/*
 * The reference's boundaries with frac_bits 0 (Architect.Identities 2.x:
 * RandomSequence75, DistributedId128Generator.CreateValues): 75 fresh bits,
 * 0 becoming 1; an increment is the fresh value's low 58 bits, 1 when they
 * are all 0, overflowing only past 2^75-1; on overflow the generator sleeps
 * while the clock is less than a second behind, and follows it from a
 * second on; the id keeps the previous millisecond while it increments.
 * The timestamp has 48 bits.
 */
static void
test_distid128_gen_edges(void **state)
{
	const idg_u128 max75 = ((idg_u128) 1 << 75) - 1;
	distid128_gen g = {0};
	uint8_t		id[16];

	(void) state;
	/* 75 fresh bits of nothing: 1 */
	assert_int_equal(distid128_next(&g, 5000, 0, 0, rng_zero, NULL, id), DISTID_GEN_OK);
	assert_true(distid128_r75(id) == 1 && idg_load_be64(id) >> 16 == 5000);
	/* two draws a call (63 bits, then 12): an increment whose 58 bits are all 0 is 1 */
	{
		static const uint64_t v[] = {UINT64_C(1) << 58, 0};
		rng_script_state sc = {v, 2, 0};

		assert_int_equal(distid128_next(&g, 5000, 0, 0, rng_script, &sc, id), DISTID_GEN_OK);
		assert_true(distid128_r75(id) == 2 && sc.at == 2);
	}
	/* an increment that reaches 2^75-1 exactly fits; the next overflows: sleep */
	g.prev_ts = 5000;
	g.prev_hi = (uint64_t) ((max75 - 5) >> 64);
	g.prev_lo = (uint64_t) (max75 - 5);
	{
		static const uint64_t v[] = {5, 0, 1, 0};
		rng_script_state sc = {v, 4, 0};

		assert_int_equal(distid128_next(&g, 5000, 0, 0, rng_script, &sc, id), DISTID_GEN_OK);
		assert_true(distid128_r75(id) == max75);
		assert_int_equal(distid128_next(&g, 5000, 0, 0, rng_script, &sc, id), DISTID_GEN_SLEEP);
	}
	/* the clock 999 ms behind: sleep; 1000: follow it */
	assert_int_equal(distid128_next(&g, 5000 - 999, 0, 0, rng_ones, NULL, id), DISTID_GEN_SLEEP);
	assert_int_equal(distid128_next(&g, 5000 - 1000, 0, 0, rng_zero, NULL, id), DISTID_GEN_OK);
	assert_true(idg_load_be64(id) >> 16 == 4000 && distid128_r75(id) == 1);
	/* the clock 500 ms behind, an increment that fits: the id keeps 4000 */
	assert_int_equal(distid128_next(&g, 3500, 0, 0, rng_zero, NULL, id), DISTID_GEN_OK);
	assert_true(idg_load_be64(id) >> 16 == 4000 && distid128_r75(id) == 2);
	/* the last millisecond of 48 bits, and the one after */
	memset(&g, 0, sizeof(g));
	assert_int_equal(distid128_next(&g, (UINT64_C(1) << 48) - 1, 0, 0, rng_zero, NULL, id), DISTID_GEN_OK);
	assert_true(idg_load_be64(id) >> 16 == (UINT64_C(1) << 48) - 1);
	memset(&g, 0, sizeof(g));
	assert_int_equal(distid128_next(&g, UINT64_C(1) << 48, 0, 0, rng_zero, NULL, id), DISTID_GEN_RANGE);
	/*
	 * The random bits below the clock's fraction: 63 from one draw, more
	 * from a second only when the fraction leaves more than 63 (12 bits of
	 * fraction leave 63: one draw a call; 11 leave 64: the 64th drawn)
	 */
	memset(&g, 0, sizeof(g));
	{
		static const uint64_t v[] = {UINT64_MAX};
		rng_script_state sc = {v, 1, 0};

		assert_int_equal(distid128_next(&g, 5000, 0, 12, rng_script, &sc, id), DISTID_GEN_OK);
		assert_true(sc.at == 1 && distid128_r75(id) == idg_mask(63));
	}
	memset(&g, 0, sizeof(g));
	{
		static const uint64_t v[] = {UINT64_MAX, UINT64_MAX};
		rng_script_state sc = {v, 2, 0};

		assert_int_equal(distid128_next(&g, 5000, 0, 11, rng_script, &sc, id), DISTID_GEN_OK);
		assert_true(sc.at == 2 && distid128_r75(id) == (((idg_u128) 1 << 64) - 1));
	}
}

/* ---------- public identities ---------- */

static void
test_pubid_layouts(void **state)
{
	/* SPEC: distid 1088824355131185736905670087 = 0x0384A786:907DB2AD82883DC7 */
	static const uint8_t want_distid[16] = {0, 0, 0, 0, 0x86, 0xA7, 0x84, 0x03,
	0xC7, 0x3D, 0x88, 0x82, 0xAD, 0xB2, 0x7D, 0x90};
	/* bigint 123456789 = 0x075BCD15, little-endian after 8 zero bytes */
	static const uint8_t want_bigint[16] = {0, 0, 0, 0, 0, 0, 0, 0,
	0x15, 0xCD, 0x5B, 0x07, 0, 0, 0, 0};
	uint8_t		b[16];
	idg_u128	v,
				back;
	int64_t		i;
	size_t		off;

	(void) state;
	assert_int_equal(distid_parse_decimal("1088824355131185736905670087", &v, &off), DISTID_PARSE_OK);
	pubid_plain_distid(v, b);
	assert_memory_equal(b, want_distid, 16);
	assert_true(pubid_unplain_distid(b, &back) && back == v);
	/* a distid's plaintext is no bigint's */
	assert_false(pubid_unplain_bigint(b, &i));

	pubid_plain_bigint(123456789, b);
	assert_memory_equal(b, want_bigint, 16);
	assert_true(pubid_unplain_bigint(b, &i) && i == 123456789);
	pubid_plain_bigint(INT64_MAX, b);
	assert_true(pubid_unplain_bigint(b, &i) && i == INT64_MAX);
	/* 2^63 is no bigint; a set byte in the zero prefix is no plaintext */
	b[15] = 0x80;
	b[8] = 0;
	assert_false(pubid_unplain_bigint(b, &i));
	pubid_plain_bigint(5, b);
	b[0] = 1;
	assert_false(pubid_unplain_bigint(b, &i));
	assert_false(pubid_unplain_distid(b, &back));
	/* every byte of the zero prefix counts: the last one of each */
	pubid_plain_bigint(5, b);
	b[7] = 1;
	assert_false(pubid_unplain_bigint(b, &i));
	pubid_plain_distid(1, b);
	b[3] = 1;
	assert_false(pubid_unplain_distid(b, &back));
	/* above 10^28-1 is no distid */
	memset(b, 0xFF, 16);
	memset(b, 0, 4);
	assert_false(pubid_unplain_distid(b, &back));
}

static void
test_pubid_guid_order(void **state)
{
	/* SPEC vector: ciphertext (openssl) 7424323054a9a9ff941c6f038afe4ff1 is
	 * the uuid 30322474-a954-ffa9-941c-6f038afe4ff1 */
	static const uint8_t c[16] = {0x74, 0x24, 0x32, 0x30, 0x54, 0xa9, 0xa9, 0xff,
	0x94, 0x1c, 0x6f, 0x03, 0x8a, 0xfe, 0x4f, 0xf1};
	static const uint8_t u[16] = {0x30, 0x32, 0x24, 0x74, 0xa9, 0x54, 0xff, 0xa9,
	0x94, 0x1c, 0x6f, 0x03, 0x8a, 0xfe, 0x4f, 0xf1};
	uint8_t		out[16];

	(void) state;
	pubid_guid_order(c, out);
	assert_memory_equal(out, u, 16);
	pubid_guid_order(u, out);
	assert_memory_equal(out, c, 16);
	/* in place works too */
	memcpy(out, c, 16);
	pubid_guid_order(out, out);
	assert_memory_equal(out, u, 16);
}

/* ---------- public-id key files ---------- */

/* expected bytes from Python's base64 module, not from the code under test */
static const uint8_t spec_key[32] = {
	0x93, 0xb7, 0xc1, 0x0c, 0x97, 0x10, 0x6a, 0x6d, 0x36, 0x86, 0xc0, 0x72, 0x68, 0xe5, 0x8f, 0x78,
	0xfd, 0x82, 0xa9, 0xe0, 0xde, 0x19, 0x7b, 0xeb, 0x3d, 0x49, 0x04, 0x01, 0x00, 0x6d, 0x00, 0x57};

/* the status and line of the first thing keyfile_next() stops at in text */
static keyfile_status
keyfile_first(const char *text, size_t len, int *line, uint8_t key[KEYFILE_MAX_KEY], int *keylen)
{
	keyfile_reader r;
	keyfile_status st;

	keyfile_init(&r, text, len);
	st = keyfile_next(&r, key, keylen);
	*line = r.line;
	return st;
}

static void
test_keyfile_keys(void **state)
{
	static const char text[] =
		"# public id keys\n"
		"\n"
		"  k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=  # active since June\r\n"
		"\t\r\n"
		"AAECAwQFBgcICQoLDA0ODw==\n"
		"   # AES-192, retired\n"
		"AAECAwQFBgcICQoLDA0ODxAREhMUFRYX";	/* no final newline */
	uint8_t		key[KEYFILE_MAX_KEY];
	uint8_t		seq[24];
	int			len = 0;
	int			i;
	keyfile_reader r;

	(void) state;
	for (i = 0; i < 24; i++)
		seq[i] = (uint8_t) i;
	keyfile_init(&r, text, strlen(text));
	assert_int_equal(keyfile_next(&r, key, &len), KEYFILE_KEY);
	assert_int_equal(r.line, 3);
	assert_int_equal(len, 32);
	assert_memory_equal(key, spec_key, 32);
	assert_int_equal(keyfile_next(&r, key, &len), KEYFILE_KEY);
	assert_int_equal(r.line, 5);
	assert_int_equal(len, 16);
	assert_memory_equal(key, seq, 16);
	assert_int_equal(keyfile_next(&r, key, &len), KEYFILE_KEY);
	assert_int_equal(r.line, 7);
	assert_int_equal(len, 24);
	assert_memory_equal(key, seq, 24);
	assert_int_equal(keyfile_next(&r, key, &len), KEYFILE_END);
	assert_int_equal(keyfile_next(&r, key, &len), KEYFILE_END);

	/* nothing but comments and blanks */
	keyfile_init(&r, "# none yet\n\n  \n", 15);
	assert_int_equal(keyfile_next(&r, key, &len), KEYFILE_END);
	keyfile_init(&r, "", 0);
	assert_int_equal(keyfile_next(&r, key, &len), KEYFILE_END);
	/* nothing past len is read: a blank last line with blanks after len */
	keyfile_init(&r, "    ", 2);
	assert_int_equal(keyfile_next(&r, key, &len), KEYFILE_END);

	/* the ends of each range of the alphabet (A Z a z 0 9 + /), decoded by Python's base64 */
	{
		static const uint8_t ends[16] = {0x01, 0x96, 0xb3, 0xd3, 0xdf, 0xbf, 0x01, 0x96,
		0xb3, 0xd3, 0xdf, 0xbf, 0x01, 0x96, 0xb3, 0xd3};

		keyfile_init(&r, "AZaz09+/AZaz09+/AZaz0w==", 24);
		assert_int_equal(keyfile_next(&r, key, &len), KEYFILE_KEY);
		assert_int_equal(len, 16);
		assert_memory_equal(key, ends, 16);
	}
	/* '+' (62): 0xFB 0xEF 0xBE is "++++" (Python's base64) */
	{
		static const uint8_t plus[16] = {0xfb, 0xef, 0xbe, 0xfb, 0xef, 0xbe, 0xfb, 0xef,
		0xbe, 0xfb, 0xef, 0xbe, 0xfb, 0xef, 0xbe, 0xf8};

		keyfile_init(&r, "+++++++++++++++++++++A==", 24);
		assert_int_equal(keyfile_next(&r, key, &len), KEYFILE_KEY);
		assert_int_equal(len, 16);
		assert_memory_equal(key, plus, 16);
	}

	/* the partial last group of each padding, with bits at both its ends */
	memset(seq, 0xFF, sizeof(seq));
	keyfile_init(&r, "////////////////////////////////////////gAE=\n/////////////////////w==", 69);
	assert_int_equal(keyfile_next(&r, key, &len), KEYFILE_KEY);
	assert_int_equal(len, 32);
	assert_memory_equal(key, seq, 24);
	assert_memory_equal(key + 24, seq, 6);
	assert_int_equal(key[30], 0x80);
	assert_int_equal(key[31], 0x01);
	assert_int_equal(keyfile_next(&r, key, &len), KEYFILE_KEY);
	assert_int_equal(len, 16);
	assert_memory_equal(key, seq, 16);
}

static void
test_keyfile_errors(void **state)
{
	static const struct
	{
		const char *text;
		keyfile_status status;
		int			line;
		int			keylen;		/* for KEYFILE_BAD_LENGTH */
	}			cases[] = {
		{"not base64!\n", KEYFILE_NOT_BASE64, 1, 0},
		{"#\n\nAAECAwQFBgcICQoLDA0ODw\n", KEYFILE_NOT_BASE64, 3, 0},	/* no padding */
		{"AAECAwQFBgcICQoLDA0ODw=\n", KEYFILE_NOT_BASE64, 1, 0},
		{"AAECAwQFBgcI CQoLDA0ODw==\n", KEYFILE_NOT_BASE64, 1, 0},	/* inner space */
		{"AAECAwQFBgcICQoLDA0ODw==AAAA\n", KEYFILE_NOT_BASE64, 1, 0},
		{"AAECAwQFBgcICQoLDA0ODw=x\n", KEYFILE_NOT_BASE64, 1, 0},
		{"AAECAwQFBgcICQoLDA0ODw-_\n", KEYFILE_NOT_BASE64, 1, 0},	/* url-safe alphabet */
		{"====\n", KEYFILE_NOT_BASE64, 1, 0},
		/* at most two '=' */
		{"AAAAAAAAAAAAAAAAAAAAA===\n", KEYFILE_NOT_BASE64, 1, 0},
		/* a bad first character, and the bytes around each range of the alphabet */
		{"*AAAAAAAAAAAAAAAAAAAAA==\n", KEYFILE_NOT_BASE64, 1, 0},
		{"@AAAAAAAAAAAAAAAAAAAAA==\n", KEYFILE_NOT_BASE64, 1, 0},
		{"[AAAAAAAAAAAAAAAAAAAAA==\n", KEYFILE_NOT_BASE64, 1, 0},
		{"`AAAAAAAAAAAAAAAAAAAAA==\n", KEYFILE_NOT_BASE64, 1, 0},
		{"{AAAAAAAAAAAAAAAAAAAAA==\n", KEYFILE_NOT_BASE64, 1, 0},
		{":AAAAAAAAAAAAAAAAAAAAA==\n", KEYFILE_NOT_BASE64, 1, 0},
		{",AAAAAAAAAAAAAAAAAAAAA==\n", KEYFILE_NOT_BASE64, 1, 0},
		{".AAAAAAAAAAAAAAAAAAAAA==\n", KEYFILE_NOT_BASE64, 1, 0},
		{"AAECAwQFBgcICQoLDA0O\n", KEYFILE_BAD_LENGTH, 1, 15},
		{"\n\nAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g\n", KEYFILE_BAD_LENGTH, 3, 33},
		{"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4v", KEYFILE_BAD_LENGTH, 1, 48},
		{"AAAA\n", KEYFILE_BAD_LENGTH, 1, 3},
	};
	uint8_t		key[KEYFILE_MAX_KEY];
	size_t		i;

	(void) state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		int			line = 0;
		int			len = -1;
		keyfile_reader r;

		memset(key, 0xAA, sizeof(key));
		assert_int_equal(keyfile_first(cases[i].text, strlen(cases[i].text), &line, key, &len),
						 cases[i].status);
		assert_int_equal(line, cases[i].line);
		if (cases[i].status == KEYFILE_BAD_LENGTH)
		{
			uint8_t		zero[KEYFILE_MAX_KEY] = {0};

			assert_int_equal(len, cases[i].keylen);
			/* no byte of the line, nor of what the buffer held, is left */
			assert_memory_equal(key, zero, KEYFILE_MAX_KEY);
		}
		/* after an error the reader stops */
		keyfile_init(&r, cases[i].text, strlen(cases[i].text));
		(void) keyfile_next(&r, key, &len);
		assert_int_equal(keyfile_next(&r, key, &len), KEYFILE_END);
	}

	/* after an error the reader stops even where a valid key follows */
	{
		static const char *const texts[] = {"not base64!\nAAECAwQFBgcICQoLDA0ODw==\n",
		"AAAA\nAAECAwQFBgcICQoLDA0ODw==\n"};
		keyfile_reader r;
		int			len;

		for (i = 0; i < 2; i++)
		{
			keyfile_init(&r, texts[i], strlen(texts[i]));
			assert_int_equal(keyfile_next(&r, key, &len), i == 0 ? KEYFILE_NOT_BASE64 : KEYFILE_BAD_LENGTH);
			assert_int_equal(keyfile_next(&r, key, &len), KEYFILE_END);
		}
	}

	/* a valid key, then a NUL byte on line 2: not a text file */
	{
		static const char text[] = "AAECAwQFBgcICQoLDA0ODw==\nAA\0A\n";
		keyfile_reader r;
		int			len;

		keyfile_init(&r, text, sizeof(text) - 1);
		assert_int_equal(keyfile_next(&r, key, &len), KEYFILE_KEY);
		assert_int_equal(keyfile_next(&r, key, &len), KEYFILE_NUL);
		assert_int_equal(r.line, 2);
		assert_int_equal(keyfile_next(&r, key, &len), KEYFILE_END);
	}
}

/* ---------- flaxid ---------- */

static void
test_flaxid_vectors(void **state)
{
	/* SPEC: ms 24869425807, random 0x7680cb8bb9bdc1 -> 0RdKJcxqVBiAiQr0 */
	idg_u128	v = flaxid_compose(UINT64_C(24869425807), UINT64_C(0x7680cb8bb9bdc1));
	idg_u128	back;
	char		text[FLAXID_TEXT_LEN + 1];
	size_t		off;
	uint64_t	seed = 31;
	int			i;

	(void) state;
	flaxid_format(v, text);
	assert_string_equal(text, "0RdKJcxqVBiAiQr0");
	assert_int_equal(flaxid_parse(text, &back, &off), FLAXID_PARSE_OK);
	assert_true(back == v && flaxid_ms(back) == UINT64_C(24869425807));
	flaxid_format(0, text);
	assert_string_equal(text, "----------------");
	/* the random part is 56 bits: what a caller passes above them is left out */
	assert_true(flaxid_compose(5, UINT64_MAX) == (((idg_u128) 5 << 56) | ((UINT64_C(1) << 56) - 1)));
	assert_true(flaxid_compose(0, UINT64_C(1) << 56) == 0);
	/* the largest time, from Python */
	flaxid_format(flaxid_compose(FLAXID_MAX_MS, 0), text);
	assert_string_equal(text, "zzzzzzw---------");
	/* text order is numeric order */
	for (i = 0; i < 100000; i++)
	{
		idg_u128	a = ((idg_u128) rng_splitmix(&seed) << 32) ^ rng_splitmix(&seed);
		idg_u128	b = ((idg_u128) rng_splitmix(&seed) << 32) ^ rng_splitmix(&seed);
		char		ta[FLAXID_TEXT_LEN + 1],
					tb[FLAXID_TEXT_LEN + 1];
		int			c;

		a &= ((idg_u128) 1 << 96) - 1;
		b &= ((idg_u128) 1 << 96) - 1;
		flaxid_format(a, ta);
		flaxid_format(b, tb);
		c = strcmp(ta, tb);
		assert_true((a < b && c < 0) || (a > b && c > 0) || (a == b && c == 0));
		assert_int_equal(flaxid_parse(ta, &back, &off), FLAXID_PARSE_OK);
		assert_true(back == a);
	}
}

static void
test_flaxid_parse_errors(void **state)
{
	idg_u128	v;
	size_t		off;

	(void) state;
	assert_int_equal(flaxid_parse("", &v, &off), FLAXID_PARSE_LENGTH);
	assert_int_equal(off, 0);
	assert_int_equal(flaxid_parse("0RdKJcxqVBiAiQr", &v, &off), FLAXID_PARSE_LENGTH);
	assert_int_equal(off, 15);
	assert_int_equal(flaxid_parse("0RdKJcxqVBiAiQr00", &v, &off), FLAXID_PARSE_LENGTH);
	assert_int_equal(flaxid_parse("0RdKJcxq+BiAiQr0", &v, &off), FLAXID_PARSE_BAD_CHAR);
	assert_int_equal(off, 8);
	assert_int_equal(flaxid_parse("0RdKJcxqVBiAiQr0 ", &v, &off), FLAXID_PARSE_BAD_CHAR);
	assert_int_equal(off, 16);
}

/*
 * The byte codec (type input and output) against the SPEC's vectors and a
 * reference written from the SPEC's alphabet alone: each character is its
 * index in the alphabet, 6 bits, most significant first.
 */
static const char flax_alphabet[] =
"-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";

static void
flax_reference_bytes(const char *text, uint8_t out[FLAXID_LEN])
{
	idg_u128	v = 0;
	int			i;

	for (i = 0; i < FLAXID_TEXT_LEN; i++)
		v = (v << 6) | (unsigned) (strchr(flax_alphabet, text[i]) - flax_alphabet);
	for (i = FLAXID_LEN - 1; i >= 0; i--, v >>= 8)
		out[i] = (uint8_t) v;
}

static void
test_flaxid_bytes(void **state)
{
	/* SPEC: ms 24869425807, random 0x7680cb8bb9bdc1; the largest time */
	static const uint8_t vec[FLAXID_LEN] = {0x05, 0xca, 0x55, 0x52, 0x8f, 0x76, 0x80, 0xcb,
	0x8b, 0xb9, 0xbd, 0xc1};
	static const uint8_t last[FLAXID_LEN] = {0xff, 0xff, 0xff, 0xff, 0xff};
	uint8_t		b[FLAXID_LEN],
				want[FLAXID_LEN];
	char		text[FLAXID_TEXT_LEN + 1];
	size_t		off;
	uint64_t	seed = 33;
	int			i,
				pos,
				c;

	(void) state;
	flaxid_format_bytes(vec, text);
	assert_string_equal(text, "0RdKJcxqVBiAiQr0");
	assert_int_equal(flaxid_parse_bytes("0RdKJcxqVBiAiQr0", b, &off), FLAXID_PARSE_OK);
	assert_memory_equal(b, vec, FLAXID_LEN);
	flaxid_format_bytes(last, text);
	assert_string_equal(text, "zzzzzzw---------");
	assert_int_equal(flaxid_parse_bytes("----------------", b, &off), FLAXID_PARSE_OK);
	memset(want, 0, sizeof(want));
	assert_memory_equal(b, want, FLAXID_LEN);

	/* every byte value at every position: in the alphabet or not, and its value */
	for (pos = 0; pos < FLAXID_TEXT_LEN; pos++)
		for (c = 1; c < 256; c++)
		{
			flaxid_parse_status st;

			memset(text, '-', FLAXID_TEXT_LEN);
			text[FLAXID_TEXT_LEN] = '\0';
			text[pos] = (char) c;
			st = flaxid_parse_bytes(text, b, &off);
			if (strchr(flax_alphabet, c) != NULL)
			{
				assert_int_equal(st, FLAXID_PARSE_OK);
				flax_reference_bytes(text, want);
				assert_memory_equal(b, want, FLAXID_LEN);
			}
			else
			{
				assert_int_equal(st, FLAXID_PARSE_BAD_CHAR);
				assert_int_equal(off, pos);
			}
		}
	/* a NUL at each position: the length, nothing read after it */
	for (pos = 0; pos < FLAXID_TEXT_LEN; pos++)
	{
		char	   *heap = malloc(pos + 1);

		memset(heap, 'z', pos);
		heap[pos] = '\0';
		assert_int_equal(flaxid_parse_bytes(heap, b, &off), FLAXID_PARSE_LENGTH);
		assert_int_equal(off, pos);
		free(heap);
	}
	/* too long: the length, or the first character outside the alphabet */
	assert_int_equal(flaxid_parse_bytes("0RdKJcxqVBiAiQr00", b, &off), FLAXID_PARSE_LENGTH);
	assert_int_equal(off, 17);
	assert_int_equal(flaxid_parse_bytes("0RdKJcxqVBiAiQr0!", b, &off), FLAXID_PARSE_BAD_CHAR);
	assert_int_equal(off, 16);
	assert_int_equal(flaxid_parse_bytes("0RdKJ!xqVBiAiQr00", b, &off), FLAXID_PARSE_BAD_CHAR);
	assert_int_equal(off, 5);

	/* every 12-bit group, in the first and the last two characters */
	for (i = 0; i < 4096; i++)
	{
		memset(b, 0, sizeof(b));
		b[0] = (uint8_t) (i >> 4);
		b[1] = (uint8_t) (i << 4);
		b[10] = (uint8_t) (i >> 8);
		b[11] = (uint8_t) i;
		flaxid_format_bytes(b, text);
		assert_int_equal(text[0], flax_alphabet[i >> 6]);
		assert_int_equal(text[1], flax_alphabet[i & 63]);
		assert_int_equal(text[14], flax_alphabet[i >> 6]);
		assert_int_equal(text[15], flax_alphabet[i & 63]);
		assert_int_equal(text[16], '\0');
	}

	/* random texts: the reference's bytes, formatted back to the same text */
	for (i = 0; i < 100000; i++)
	{
		char		back[FLAXID_TEXT_LEN + 1];
		uint64_t	r1 = rng_splitmix(&seed),
					r2 = rng_splitmix(&seed);

		for (pos = 0; pos < FLAXID_TEXT_LEN; pos++)
			text[pos] = flax_alphabet[((pos < 8 ? r1 : r2) >> (pos % 8 * 6)) & 63];
		text[FLAXID_TEXT_LEN] = '\0';
		assert_int_equal(flaxid_parse_bytes(text, b, &off), FLAXID_PARSE_OK);
		flax_reference_bytes(text, want);
		assert_memory_equal(b, want, FLAXID_LEN);
		flaxid_format_bytes(b, back);
		assert_string_equal(back, text);
	}
}

/* ---------- byte helpers ---------- */

static void
test_bytes(void **state)
{
	uint8_t		b[8];

	(void) state;
	idg_store_be64(b, UINT64_C(0x0102030405060708));
	assert_int_equal(b[0], 1);
	assert_int_equal(b[7], 8);
	assert_true(idg_load_be64(b) == UINT64_C(0x0102030405060708));
	idg_store_be32(b, UINT32_C(0x0A0B0C0D));
	assert_int_equal(b[0], 0x0A);
	assert_int_equal(b[3], 0x0D);
	assert_int_equal(b[4], 5);	/* untouched */
	assert_true(idg_load_be32(b) == UINT32_C(0x0A0B0C0D));
	assert_true(idg_mask(0) == 0);
	assert_true(idg_mask(54) == (UINT64_C(1) << 54) - 1);
	assert_true(idg_mask(64) == UINT64_MAX);
}

/*
 * waitline: the members of a line in order, read by following next from the
 * head, checked against prev and tail too.
 */
static void
wl_expect(const wl_line *lines, const wl_node *nodes, int line, const int *want, int n)
{
	int			m = lines[line].head;
	int			prev = -1;
	int			i;

	for (i = 0; i < n; i++)
	{
		assert_int_equal(m, want[i]);
		assert_int_equal(nodes[m].line, line);
		assert_int_equal(nodes[m].prev, prev);
		prev = m;
		m = nodes[m].next;
	}
	assert_int_equal(m, -1);
	assert_int_equal(lines[line].tail, n > 0 ? want[n - 1] : -1);
	assert_int_equal(lines[line].length, n);
	assert_true(wl_empty(&lines[line]) == (n == 0));
}

/* first come, first served; leaving from the front, middle or end */
static void
test_waitline_order(void **state)
{
	wl_line		lines[2];
	wl_node		nodes[6];

	(void) state;
	wl_init(lines, 2, nodes, 6);
	assert_true(wl_empty(&lines[0]) && wl_empty(&lines[1]));
	assert_int_equal(wl_join(lines, nodes, 0, 4), 0);
	assert_int_equal(wl_join(lines, nodes, 0, 1), 1);
	assert_int_equal(wl_join(lines, nodes, 0, 5), 2);
	assert_int_equal(wl_join(lines, nodes, 0, 2), 3);
	/* another line is independent */
	assert_int_equal(wl_join(lines, nodes, 1, 3), 0);
	wl_expect(lines, nodes, 0, (int[]) {4, 1, 5, 2}, 4);
	wl_expect(lines, nodes, 1, (int[]) {3}, 1);
	assert_true(wl_is_first(lines, nodes, 4) && wl_is_first(lines, nodes, 3));
	assert_false(wl_is_first(lines, nodes, 1));
	assert_false(wl_is_first(lines, nodes, 0));
	assert_int_equal(wl_line_of(nodes, 0), -1);
	assert_int_equal(wl_line_of(nodes, 5), 0);

	/* the middle leaves (a cancel): nobody becomes first */
	assert_int_equal(wl_leave(lines, nodes, 5), -1);
	wl_expect(lines, nodes, 0, (int[]) {4, 1, 2}, 3);
	assert_int_equal(wl_line_of(nodes, 5), -1);
	/* leaving twice, or never having joined, changes nothing */
	assert_int_equal(wl_leave(lines, nodes, 5), -1);
	assert_int_equal(wl_leave(lines, nodes, 0), -1);
	wl_expect(lines, nodes, 0, (int[]) {4, 1, 2}, 3);
	/* the last leaves */
	assert_int_equal(wl_leave(lines, nodes, 2), -1);
	wl_expect(lines, nodes, 0, (int[]) {4, 1}, 2);
	/* the first leaves: the next is first, to be woken */
	assert_int_equal(wl_leave(lines, nodes, 4), 1);
	wl_expect(lines, nodes, 0, (int[]) {1}, 1);
	/* one who left joins again, at the end */
	assert_int_equal(wl_join(lines, nodes, 0, 4), 1);
	wl_expect(lines, nodes, 0, (int[]) {1, 4}, 2);
	assert_int_equal(wl_leave(lines, nodes, 1), 4);
	assert_int_equal(wl_leave(lines, nodes, 4), -1);
	wl_expect(lines, nodes, 0, NULL, 0);
	assert_int_equal(wl_leave(lines, nodes, 3), -1);
	wl_expect(lines, nodes, 1, NULL, 0);
}

/*
 * Random joins and leaves against a plain array kept in arrival order: the
 * lines hold the same members in the same order, and leave() names the new
 * first exactly when the first left.
 */
#define WL_MEMBERS 40
#define WL_LINES 3
static void
test_waitline_model(void **state)
{
	wl_line		lines[WL_LINES];
	wl_node		nodes[WL_MEMBERS];
	int			model[WL_LINES][WL_MEMBERS];
	int			len[WL_LINES] = {0};
	int			where[WL_MEMBERS];
	uint32_t	x = 12345;
	int			step;

	(void) state;
	wl_init(lines, WL_LINES, nodes, WL_MEMBERS);
	for (step = 0; step < WL_MEMBERS; step++)
		where[step] = -1;
	for (step = 0; step < 200000; step++)
	{
		int			m,
					l,
					i;

		x = x * 1103515245u + 12345u;
		m = (int) ((x >> 8) % WL_MEMBERS);
		l = (int) ((x >> 20) % WL_LINES);
		if (where[m] < 0)
		{
			assert_int_equal(wl_join(lines, nodes, l, m), len[l]);
			model[l][len[l]++] = m;
			where[m] = l;
		}
		else
		{
			int			ml = where[m];
			int			expect_woken = -1;

			for (i = 0; model[ml][i] != m; i++)
				;
			if (i == 0 && len[ml] > 1)
				expect_woken = model[ml][1];
			memmove(&model[ml][i], &model[ml][i + 1], (size_t) (len[ml] - i - 1) * sizeof(int));
			len[ml]--;
			where[m] = -1;
			assert_int_equal(wl_leave(lines, nodes, m), expect_woken);
		}
		for (i = 0; i < WL_LINES; i++)
			wl_expect(lines, nodes, i, model[i], len[i]);
	}
}

/*
 * base36id's judgement of the synchronous standbys (b36sync.c), against
 * PostgreSQL's rules (syncrep.c): candidates are streaming walsenders with
 * a priority and a known flush position; FIRST n takes the n of lowest
 * priority number (ties by slot) and needs all of them; ANY n needs n of
 * the candidates; fewer candidates than n confirm nothing.
 */
static b36s_standby sb_slots[4];

static b36s_view
sb_view(int method, int num_sync)
{
	b36s_view	v;

	memset(&v, 0, sizeof(v));
	v.defined = true;
	v.config_current = true;
	v.takes_reloads = true;
	v.method = method;
	v.num_sync = num_sync;
	v.flushed = 1000;
	v.n = 4;
	v.standbys = sb_slots;
	return v;
}

static void
sb_set(int i, int32_t pid, int priority, uint64_t write, uint64_t flush, uint64_t apply)
{
	sb_slots[i].pid = pid;
	sb_slots[i].streaming = pid != 0;
	sb_slots[i].priority = priority;
	sb_slots[i].pos[0] = write;
	sb_slots[i].pos[1] = flush;
	sb_slots[i].pos[2] = apply;
}

/* two walsenders in slots i and j, the others free; FIRST 1 */
static b36s_view
sb_two(int i, int pi, uint64_t at_i, int j, int pj, uint64_t at_j)
{
	memset(sb_slots, 0, sizeof(sb_slots));
	sb_set(i, 11, pi, at_i, at_i, at_i);
	sb_set(j, 12, pj, at_j, at_j, at_j);
	return sb_view(B36S_FIRST, 1);
}

/*
 * Whether the standbys synchronous now have lsn at level, as judged once
 * core's queue released it (so that only the standbys decide).
 */
static bool
have(const b36s_view *v, uint64_t lsn, int level)
{
	b36s_view	w = *v;
	int			i;

	for (i = 0; i < 3; i++)
		w.released[i] = lsn;
	return b36s_judge(&w, lsn, level) == B36S_CONFIRMED;
}

/*
 * The level a call asks for: the higher of the floor and the session's
 * synchronous_commit, in PostgreSQL's SyncCommitLevel (off 0, local 1,
 * remote_write 2, remote_flush 3, remote_apply 4: access/xact.h).
 */
static void
test_b36sync_level(void **state)
{
	(void) state;
	assert_int_equal(b36s_level(0, 0), 0);
	assert_int_equal(b36s_level(0, 4), 4);
	assert_int_equal(b36s_level(4, 0), 4);
	assert_int_equal(b36s_level(3, 2), 3);
	assert_int_equal(b36s_level(2, 3), 3);
	assert_int_equal(b36s_level(1, 1), 1);
}

static void
test_b36sync_judge(void **state)
{
	b36s_view	v;

	(void) state;
	/* FIRST 1 (a, b): a (priority 1) has 100 flushed, b (2) lags */
	v = sb_two(0, 2, 50, 2, 1, 100);
	sb_slots[2].pos[2] = 90;
	assert_true(have(&v, 100, B36S_FLUSH));
	assert_false(have(&v, 100, B36S_APPLY));
	assert_true(have(&v, 100, B36S_LOCAL));
	/* FIRST 2: b must have it too */
	v = sb_view(B36S_FIRST, 2);
	assert_false(have(&v, 100, B36S_WRITE));
	assert_true(have(&v, 50, B36S_APPLY));
	/* ANY 1: either; ANY 2: both */
	v = sb_view(B36S_ANY, 1);
	assert_true(have(&v, 100, B36S_FLUSH));
	v = sb_view(B36S_ANY, 2);
	assert_false(have(&v, 100, B36S_FLUSH));
	/* the queue already released past the record: poll */
	v.released[1] = 120;
	assert_int_equal(b36s_judge(&v, 100, B36S_FLUSH), B36S_WAIT_POLL);
	/* the priorities swapped (names reordered): b is the synchronous one */
	sb_slots[0].priority = 1;
	sb_slots[2].priority = 2;
	v = sb_view(B36S_FIRST, 1);
	assert_false(have(&v, 100, B36S_FLUSH));
	/* equal priorities: the lower slot first */
	sb_slots[2].priority = 1;
	assert_false(have(&v, 100, B36S_FLUSH));
	assert_true(have(&v, 50, B36S_FLUSH));
	/* not a candidate: no flush position, not streaming, no priority */
	sb_set(0, 11, 1, 50, 0, 0);
	assert_true(have(&v, 100, B36S_FLUSH));
	sb_slots[0].streaming = false;
	sb_slots[0].pos[1] = 50;
	assert_true(have(&v, 100, B36S_FLUSH));
	/* fewer candidates than FIRST 2 asks: nothing confirmed */
	v = sb_view(B36S_FIRST, 2);
	assert_false(have(&v, 1, B36S_WRITE));
	/* none at all: nothing confirmed; none defined: nothing to wait for */
	memset(sb_slots, 0, sizeof(sb_slots));
	v = sb_view(B36S_FIRST, 1);
	assert_false(have(&v, 1, B36S_WRITE));
	v.defined = false;
	assert_true(have(&v, 1, B36S_APPLY));
	/* never before the local flush */
	v.flushed = 99;
	assert_int_equal(b36s_judge(&v, 100, B36S_OFF), B36S_WAIT_POLL);
}

static void
test_b36sync_stale_config(void **state)
{
	b36s_view	v;

	(void) state;
	/* a reload pending: every candidate must have it, whatever FIRST 1 says */
	v = sb_two(0, 1, 100, 1, 2, 40);
	assert_true(have(&v, 100, B36S_FLUSH));
	v.config_current = false;
	assert_false(have(&v, 100, B36S_FLUSH));
	/* an empty own copy trusts nothing while the flag says defined */
	v.config_empty = true;
	assert_false(have(&v, 100, B36S_FLUSH));
	sb_slots[1].pos[1] = 100;
	assert_true(have(&v, 100, B36S_FLUSH));

	/*
	 * A process that takes no reloads in (a background worker ignoring
	 * SIGHUP) has none pending, yet its copy may be stale: every candidate.
	 */
	v = sb_two(0, 1, 100, 1, 2, 40);
	assert_true(have(&v, 100, B36S_FLUSH));
	v.takes_reloads = false;
	assert_false(have(&v, 100, B36S_FLUSH));
	sb_slots[1].pos[1] = 100;
	assert_true(have(&v, 100, B36S_FLUSH));

	/*
	 * No candidate at all (both stopped streaming), the configuration
	 * current or not: nobody has it, as core releases no commit then.
	 */
	v = sb_two(0, 1, 100, 1, 2, 100);
	sb_slots[0].streaming = false;
	sb_slots[1].streaming = false;
	assert_false(have(&v, 100, B36S_FLUSH));
	v.config_current = false;
	assert_false(have(&v, 100, B36S_FLUSH));
	v.config_current = true;
	v.takes_reloads = false;
	assert_false(have(&v, 100, B36S_FLUSH));

	/*
	 * A walsender that exited leaves its slot with pid 0 and the rest as it
	 * was (core's WalSndKill() clears only the pid): no candidate, however
	 * high its priority and far its position.
	 */
	v = sb_two(0, 2, 40, 1, 1, 100);
	assert_true(have(&v, 100, B36S_FLUSH));
	sb_slots[1].pid = 0;
	assert_false(have(&v, 100, B36S_FLUSH));
}

/*
 * Core's queue decides first: the walsenders release with the configuration
 * each has taken in, while the caller's may be newer (a reload on its way
 * to them).  Vectors worked out by hand from core's SyncRepGetSyncRecPtr().
 */
static void
test_b36sync_released(void **state)
{
	b36s_view	v;

	(void) state;
	/* the standbys have it, the queue is not past it: wait in the queue */
	v = sb_two(0, 1, 100, 1, 2, 100);
	v.released[1] = 99;
	assert_int_equal(b36s_judge(&v, 100, B36S_FLUSH), B36S_WAIT_QUEUE);
	v.released[1] = 100;
	assert_int_equal(b36s_judge(&v, 100, B36S_FLUSH), B36S_CONFIRMED);
	/* released at flush says nothing of apply */
	assert_int_equal(b36s_judge(&v, 100, B36S_APPLY), B36S_WAIT_QUEUE);

	/*
	 * The walsenders still on FIRST 2 (a, b): a priority 1, b 2, c not
	 * named; the caller on FIRST 1 (c).  Only a has 1000: by the old rule b
	 * lacks it, by the new one c does; core releases nothing past 900.
	 */
	memset(sb_slots, 0, sizeof(sb_slots));
	sb_set(0, 11, 1, 1000, 1000, 1000);
	sb_set(1, 12, 2, 900, 900, 900);
	sb_set(2, 13, 0, 900, 900, 900);
	v = sb_view(B36S_FIRST, 1);
	v.released[0] = v.released[1] = v.released[2] = 900;
	assert_int_equal(b36s_judge(&v, 1000, B36S_FLUSH), B36S_WAIT_QUEUE);

	/*
	 * The walsenders still on ANY 2 (a, b, c): all priority 1; the caller
	 * on FIRST 1 (a).  Only c has 1000; two are needed, core released 900.
	 */
	sb_set(0, 11, 1, 900, 900, 900);
	sb_set(1, 12, 1, 900, 900, 900);
	sb_set(2, 13, 1, 1000, 1000, 1000);
	assert_int_equal(b36s_judge(&v, 1000, B36S_FLUSH), B36S_WAIT_QUEUE);
}

static void
test_b36sync_protocol(void **state)
{
	b36s_reservation r;
	b36s_call	c1, c2;
	b36s_view	v;

	(void) state;
	memset(sb_slots, 0, sizeof(sb_slots));
	sb_set(0, 11, 1, 0, 5, 0);
	v = sb_view(B36S_FIRST, 1);
	/* on memory full of 0x5a bytes: the inits must set what is read */
	memset(&r, 0x5a, sizeof(r));
	memset(&c1, 0x5a, sizeof(c1));
	memset(&c2, 0x5a, sizeof(c2));
	b36s_init(&r, 7);
	b36s_call_init(&c1, B36S_FLUSH);
	b36s_call_init(&c2, B36S_LOCAL);
	/* second 8 is new: c1 reserves, c2 waits for the reservation */
	assert_int_equal(b36s_next(&r, &c1, 8, &v), B36S_RESERVE);
	assert_int_equal(b36s_next(&r, &c2, 8, &v), B36S_WAIT_RESERVATION);
	/* logged, not yet flushed: not published */
	b36s_reserve_logged(&r, &c1, 20);
	assert_int_equal(b36s_next(&r, &c2, 8, &v), B36S_WAIT_RESERVATION);
	v.flushed = 20;
	b36s_reserved(&r, &c1);
	assert_int_equal(r.reserved, 8);
	assert_int_equal(r.lsn, 20);
	assert_int_equal(r.reserving, -1);
	/* c2 (local) gets its id; c1 (on) waits for the standby, alone */
	assert_int_equal(b36s_next(&r, &c2, 8, &v), B36S_HAND_OUT);
	assert_int_equal(b36s_next(&r, &c1, 8, &v), B36S_WAIT_STANDBYS);
	assert_int_equal(c1.verdict, B36S_WAIT_QUEUE);
	assert_int_equal(c1.wait_lsn, 20);
	sb_slots[0].pos[1] = 20;
	assert_int_equal(b36s_next(&r, &c1, 8, &v), B36S_WAIT_STANDBYS);
	assert_int_equal(c1.verdict, B36S_WAIT_QUEUE);
	v.released[1] = 20;
	assert_int_equal(b36s_next(&r, &c1, 8, &v), B36S_HAND_OUT);
	/* the standby goes, another one is synchronous and lags: wait again */
	sb_set(0, 0, 0, 0, 0, 0);
	sb_set(3, 13, 1, 10, 10, 10);
	assert_int_equal(b36s_next(&r, &c1, 8, &v), B36S_WAIT_STANDBYS);
	assert_int_equal(c1.verdict, B36S_WAIT_POLL);

	/*
	 * A record of its own: the queue first.  Released, but the standby
	 * synchronous now lacks it: judged again, it polls (no walsender will
	 * wake it); once the standby has it, the id leaves.
	 */
	b36s_own_logged(&c1, 40);
	assert_int_equal(c1.verdict, B36S_WAIT_QUEUE);
	assert_int_equal(c1.wait_lsn, 40);
	v.flushed = 40;
	v.released[1] = 40;
	assert_int_equal(b36s_again(&r, &c1, &v), B36S_WAIT_STANDBYS);
	assert_int_equal(c1.verdict, B36S_WAIT_POLL);
	sb_set(3, 13, 1, 40, 40, 40);
	assert_int_equal(b36s_again(&r, &c1, &v), B36S_HAND_OUT);
	/* a failed reservation lets another call try */
	assert_int_equal(b36s_next(&r, &c2, 9, &v), B36S_RESERVE);
	b36s_reserve_failed(&r, &c2);
	assert_int_equal(b36s_next(&r, &c1, 9, &v), B36S_RESERVE);
}

/*
 * b36gen: the generation path, step by step.  A machine with a budget of 3
 * ids a second and four members; the clock in seconds since base36id's
 * epoch, given to a step as milliseconds since 1970.  The view: no standby
 * defined unless a test says so.
 */
static b36g_shared g_shared;
static wl_node g_members[4];
static b36g g_m = {.sh = &g_shared,.members = g_members,.nmembers = 4};
static b36s_view g_view;

static void
g_read_view(void *arg, b36s_view *v)
{
	(void) arg;
	*v = g_view;
}

static uint64_t
g_ms(int64_t second, int ms)
{
	return (uint64_t) (second + B36_EPOCH_UNIX_S) * 1000 + (uint64_t) ms;
}

static b36g_req
g_step(b36g_call *c, int64_t second)
{
	return b36g_step(&g_m, c, g_ms(second, 250), g_read_view, NULL);
}

/*
 * b36g_start() on memory full of g_poison bytes: it must set every field a call reads
 * (the server's shared memory is new at each start, but nothing promises
 * zeros).
 */
static unsigned char g_poison = 0x5a;

static void
g_start(int64_t file_second, int64_t clock, bool archive_recovery, int damaged, int budget)
{
	memset(&g_shared, g_poison, sizeof(g_shared));
	memset(g_members, 0x5a, sizeof(g_members));
	b36g_start(&g_m, file_second, clock, archive_recovery, damaged, budget);
}

/* a call on the stack, as the glue's: b36g_call_init() on garbage */
static void
g_call(b36g_call *c, int worker, int member, int level)
{
	memset(c, 0x5a, sizeof(*c));
	b36g_call_init(c, worker, member, level);
}

static void
g_reset(int64_t file_second, int64_t clock)
{
	memset(&g_view, 0, sizeof(g_view));
	g_view.flushed = 1000;
	g_view.takes_reloads = true;
	g_view.config_current = true;
	g_start(file_second, clock, false, 0, 3);
}

/* the reservation of second, from the call's first step to its publication */
static void
g_reserve(b36g_call *c, int64_t second, uint64_t lsn, bool file)
{
	b36g_req	req = g_step(c, second);

	if (file)
	{
		assert_int_equal(req, B36G_WRITE_FILE);
		assert_int_equal(c->second, second);
		req = g_step(c, second);
	}
	assert_int_equal(req, B36G_LOG);
	assert_int_equal(c->second, second);
	assert_int_equal(b36g_logged(&g_m, c, lsn), B36G_FLUSH);
	assert_int_equal(c->lsn, lsn);
	assert_int_equal(c->wake, -1);
	assert_int_equal(g_step(c, second), B36G_RESERVED);
	assert_int_equal(g_shared.res.reserved, second);
	assert_int_equal(g_shared.res.lsn, lsn);
}

static void
test_b36gen_reserve_and_budget(void **state)
{
	b36g_call	c;

	(void) state;
	/* the state file says 99, the clock 100: second 100 may have been used */
	g_reset(99, 100);
	assert_int_equal(g_shared.floor, 100);
	g_call(&c, 7, 0, B36S_LOCAL);
	/* 100 is used up: wait for 101, first in line, until 101.000 */
	assert_int_equal(g_step(&c, 100), B36G_WAIT_CLOCK);
	assert_int_equal(c.sleep_ms, 750);
	assert_true(b36g_in_line(&g_m, &c));
	/* 101: reserved (file, record, flush, published), then the first id */
	g_reserve(&c, 101, 40, true);
	assert_int_equal(g_shared.file_second, 101);
	assert_int_equal(g_step(&c, 101), B36G_ID);
	assert_int_equal(c.id, (101 * 36 + 7) * 1296 + 0);
	assert_false(b36g_in_line(&g_m, &c));
	assert_int_equal(c.wake, -1);
	/* the budget: two more in 101, then a wait for 102 */
	g_call(&c, 7, 0, B36S_LOCAL);
	assert_int_equal(g_step(&c, 101), B36G_ID);
	assert_int_equal(b36_counter(c.id), 1);
	g_call(&c, 7, 0, B36S_LOCAL);
	assert_int_equal(g_step(&c, 101), B36G_ID);
	assert_int_equal(b36_counter(c.id), 2);
	g_call(&c, 7, 0, B36S_LOCAL);
	assert_int_equal(g_step(&c, 101), B36G_WAIT_CLOCK);
	/* a second already in the file is not written again */
	g_start(200, 150, false, 0, 3);
	g_call(&c, 7, 0, B36S_LOCAL);
	assert_int_equal(g_step(&c, 200), B36G_WAIT_CLOCK);
	g_reserve(&c, 201, 41, true);
	g_start(201, 150, false, 0, 3);
	g_shared.file_second = 205;
	g_call(&c, 7, 0, B36S_LOCAL);
	assert_int_equal(g_step(&c, 201), B36G_WAIT_CLOCK);
	g_reserve(&c, 202, 42, false);
	assert_int_equal(g_shared.file_second, 205);
	/* the clock 50 s behind the file: it looks again in a second, not 51 */
	g_start(200, 150, false, 0, 3);
	g_call(&c, 7, 0, B36S_LOCAL);
	assert_int_equal(g_step(&c, 150), B36G_WAIT_CLOCK);
	assert_int_equal(c.sleep_ms, 1000);
}

static void
test_b36gen_line(void **state)
{
	b36g_call	a, b, d;

	(void) state;
	g_reset(-1, 100);
	g_call(&a, 0, 2, B36S_OFF);
	g_call(&b, 0, 0, B36S_OFF);
	g_call(&d, 0, 3, B36S_OFF);
	/* a waits for the next second, first; b and d join behind it */
	assert_int_equal(g_step(&a, 100), B36G_WAIT_CLOCK);
	assert_int_equal(g_step(&b, 101), B36G_WAIT_LINE);
	assert_int_equal(b.ahead, 1);
	assert_int_equal(b.wake, -1);
	/* doc/base36id.md: a waiting call looks again at least once a second */
	assert_int_equal(b.sleep_ms, 1000);
	assert_int_equal(g_step(&d, 101), B36G_WAIT_LINE);
	assert_int_equal(d.ahead, 2);
	/* woken early, b is still not first */
	assert_int_equal(g_step(&b, 101), B36G_WAIT_LINE);
	/* a reserves 101 and takes counter 0; b is first now and woken */
	g_reserve(&a, 101, 10, true);
	assert_int_equal(g_step(&a, 101), B36G_ID);
	assert_int_equal(b36_counter(a.id), 0);
	assert_int_equal(a.wake, 0);
	assert_int_equal(g_step(&b, 101), B36G_ID);
	assert_int_equal(b36_counter(b.id), 1);
	assert_int_equal(b.wake, 3);
	/* an error after that: b is in no line, and abandoning it wakes nobody */
	assert_false(b36g_abandon(&g_m, &b));
	assert_int_equal(b.wake, -1);
	/* a new call comes after d, even with a counter left */
	g_call(&a, 0, 2, B36S_OFF);
	assert_int_equal(g_step(&a, 101), B36G_WAIT_LINE);
	assert_int_equal(g_step(&d, 101), B36G_ID);
	assert_int_equal(b36_counter(d.id), 2);
	assert_int_equal(d.wake, 2);
	/* d cancelled while it waited would have woken a as well */
	assert_int_equal(g_step(&a, 101), B36G_WAIT_CLOCK);
	g_call(&b, 0, 0, B36S_OFF);
	assert_int_equal(g_step(&b, 101), B36G_WAIT_LINE);
	assert_false(b36g_abandon(&g_m, &a));
	assert_int_equal(a.wake, 0);
	assert_false(b36g_in_line(&g_m, &a));
	/* the clock's end: whoever is in line leaves too */
	assert_int_equal(b36g_step(&g_m, &b, g_ms(B36_MAX_SECONDS + 1, 0), g_read_view, NULL),
					 B36G_RANGE);
	assert_false(b36g_in_line(&g_m, &b));
}

/*
 * A call that must wait for standbys takes its counter, leaves the line and
 * waits alone: the next in line is served at once.
 */
static void
test_b36gen_wait_alone(void **state)
{
	b36g_call	a, b;

	(void) state;
	g_reset(-1, 100);
	memset(sb_slots, 0, sizeof(sb_slots));
	sb_set(0, 11, 1, 5, 5, 5);
	g_view = sb_view(B36S_FIRST, 1);
	g_call(&a, 0, 1, B36S_APPLY);
	g_call(&b, 0, 2, B36S_OFF);
	assert_int_equal(g_step(&a, 100), B36G_WAIT_CLOCK);
	assert_int_equal(g_step(&b, 101), B36G_WAIT_LINE);
	g_reserve(&a, 101, 30, true);
	/* the standby lacks 30: a holds counter 0, out of the line; b is woken */
	assert_int_equal(g_step(&a, 101), B36G_WAIT_STANDBYS);
	assert_int_equal(a.sync.verdict, B36S_WAIT_QUEUE);
	assert_int_equal(a.lsn, 30);
	assert_int_equal(a.id, (101 * 36 + 0) * 1296 + 0);
	assert_false(b36g_in_line(&g_m, &a));
	assert_int_equal(a.wake, 2);
	assert_int_equal(g_step(&b, 101), B36G_ID);
	assert_int_equal(b36_counter(b.id), 1);
	/* still lacking: a waits again, with its counter */
	assert_int_equal(g_step(&a, 101), B36G_WAIT_STANDBYS);
	/* replayed and released: a's id leaves */
	sb_slots[0].pos[0] = sb_slots[0].pos[1] = sb_slots[0].pos[2] = 30;
	g_view.released[2] = 30;
	assert_int_equal(g_step(&a, 101), B36G_ID);
	assert_int_equal(b36_counter(a.id), 0);
	/* cancelled while it holds one: a gap, nothing to give back */
	g_call(&a, 0, 1, B36S_APPLY);
	g_view.released[2] = 0;
	assert_int_equal(g_step(&a, 101), B36G_WAIT_STANDBYS);
	assert_int_equal(b36_counter(a.id), 2);
	/* the second it holds (the wait's error context names it) */
	assert_int_equal(a.second, 101);
	assert_false(b36g_abandon(&g_m, &a));
	assert_int_equal(a.wake, -1);
	g_call(&b, 0, 2, B36S_OFF);
	assert_int_equal(g_step(&b, 101), B36G_WAIT_CLOCK);
	/* at local, an unflushed record is waited for locally (never, normally) */
	g_view.flushed = 20;
	g_call(&b, 0, 2, B36S_LOCAL);
	assert_int_equal(g_step(&b, 102), B36G_WRITE_FILE);
	assert_int_equal(g_step(&b, 102), B36G_LOG);
	assert_int_equal(b36g_logged(&g_m, &b, 31), B36G_FLUSH);
	assert_int_equal(g_step(&b, 102), B36G_RESERVED);
	assert_int_equal(g_step(&b, 102), B36G_WAIT_FLUSH);
	assert_int_equal(b.lsn, 31);
	g_view.flushed = 31;
	assert_int_equal(g_step(&b, 102), B36G_ID);
}

/*
 * A reservation that ended during a call stands for the clock (the call
 * takes from its second, however slow it was); that second used up, the
 * call sleeps 1 ms, not until a second already past, and from then on only
 * a new second will do.
 */
static void
reserved_past(void)
{
	b36g_call	a, b, d, e;

	g_reset(-1, 100);
	g_call(&a, 0, 1, B36S_OFF);
	g_call(&d, 0, 3, B36S_OFF);
	g_call(&e, 0, 0, B36S_OFF);
	g_call(&b, 0, 2, B36S_OFF);
	assert_int_equal(g_step(&a, 100), B36G_WAIT_CLOCK);
	assert_int_equal(g_step(&d, 101), B36G_WAIT_LINE);
	assert_int_equal(g_step(&e, 101), B36G_WAIT_LINE);
	assert_int_equal(g_step(&b, 101), B36G_WAIT_LINE);
	g_reserve(&a, 101, 10, true);
	assert_int_equal(g_step(&a, 101), B36G_ID);
	assert_int_equal(g_step(&d, 101), B36G_ID);
	assert_int_equal(g_step(&e, 101), B36G_ID);
	assert_int_equal(b36_counter(e.id), 2);
	/* b, first now, at 102.000: 101 stands for its clock, and is used up */
	assert_int_equal(b36g_step(&g_m, &b, g_ms(102, 0), g_read_view, NULL), B36G_WAIT_CLOCK);
	assert_int_equal(b.sleep_ms, 1);
	assert_true(b36g_in_line(&g_m, &b));
	assert_int_equal(b36g_step(&g_m, &b, g_ms(102, 1), g_read_view, NULL), B36G_WRITE_FILE);
	assert_int_equal(b.second, 102);
}

static void
test_b36gen_reserved_past(void **state)
{
	(void) state;
	reserved_past();
	/* again from memory full of ones: the count of reservations is one too */
	g_poison = 0xff;
	reserved_past();
	g_poison = 0x5a;
}

/*
 * A reservation in progress: others wait for it; one that fails lets the
 * next call reserve; a process that takes no reloads waits for a record of
 * its own.
 */
static void
test_b36gen_reservation_and_own_record(void **state)
{
	b36g_call	a, b;

	(void) state;
	g_reset(-1, 100);
	g_call(&a, 0, 1, B36S_OFF);
	g_call(&b, 0, 2, B36S_OFF);
	/* the clock moved on to 101: a reserves it, b waits for the reservation */
	assert_int_equal(g_step(&a, 100), B36G_WAIT_CLOCK);
	assert_int_equal(g_step(&a, 101), B36G_WRITE_FILE);
	assert_int_equal(g_step(&b, 101), B36G_WAIT_LINE);
	assert_int_equal(b36g_abandon(&g_m, &a), true);
	assert_int_equal(g_shared.res.reserving, -1);
	assert_int_equal(a.wake, 2);
	assert_int_equal(g_step(&b, 101), B36G_WRITE_FILE);
	/* a call that only waits leaves without ending b's reservation */
	g_call(&a, 0, 1, B36S_OFF);
	assert_int_equal(g_step(&a, 101), B36G_WAIT_LINE);
	assert_int_equal(b36g_abandon(&g_m, &a), false);
	assert_int_equal(g_shared.res.reserving, 101);
	g_call(&a, 0, 1, B36S_OFF);
	assert_int_equal(g_step(&a, 101), B36G_WAIT_LINE);
	assert_int_equal(g_step(&b, 101), B36G_LOG);
	assert_int_equal(b36g_logged(&g_m, &b, 12), B36G_FLUSH);
	assert_int_equal(g_step(&b, 101), B36G_RESERVED);
	assert_int_equal(g_step(&b, 101), B36G_ID);
	assert_int_equal(g_step(&a, 101), B36G_ID);

	/* a background worker at on, a standby defined: its own record first */
	memset(sb_slots, 0, sizeof(sb_slots));
	sb_set(0, 11, 1, 12, 12, 12);
	g_view = sb_view(B36S_FIRST, 1);
	g_view.released[1] = 12;
	g_view.takes_reloads = false;
	g_call(&a, 0, 1, B36S_FLUSH);
	assert_int_equal(g_step(&a, 101), B36G_LOG);
	assert_int_equal(b36_counter(a.id), 2);
	assert_int_equal(a.second, 101);
	assert_int_equal(b36g_logged(&g_m, &a, 13), B36G_FLUSH);
	/* not a reservation: nothing published */
	assert_int_equal(g_shared.res.lsn, 12);
	g_view.flushed = 13;
	assert_int_equal(g_step(&a, 101), B36G_WAIT_STANDBYS);
	assert_int_equal(a.lsn, 13);
	sb_slots[0].pos[1] = 13;
	assert_int_equal(g_step(&a, 101), B36G_WAIT_STANDBYS);
	g_view.released[1] = 13;
	assert_int_equal(g_step(&a, 101), B36G_ID);
	/* the same call in a client backend: the latest reservation suffices */
	g_view.takes_reloads = true;
	g_call(&a, 0, 1, B36S_FLUSH);
	assert_int_equal(g_step(&a, 101), B36G_WAIT_CLOCK);

	/*
	 * A background worker at local (or off), standbys defined that have
	 * nothing: no record of its own, no wait, the id at once.
	 */
	g_reset(-1, 100);
	memset(sb_slots, 0, sizeof(sb_slots));
	sb_set(0, 11, 1, 0, 0, 0);
	g_view = sb_view(B36S_FIRST, 1);
	g_view.takes_reloads = false;
	g_call(&a, 0, 1, B36S_LOCAL);
	assert_int_equal(g_step(&a, 100), B36G_WAIT_CLOCK);
	g_reserve(&a, 101, 20, true);
	assert_int_equal(g_step(&a, 101), B36G_ID);
	g_call(&a, 0, 1, B36S_OFF);
	assert_int_equal(g_step(&a, 101), B36G_ID);

	/*
	 * Started with the clock before base36id's epoch and no state file: the
	 * epoch's own second 0 is reserved, and a reservation of second 0 is one
	 * in progress for the others too.
	 */
	g_reset(-1, -5);
	g_call(&a, 0, 1, B36S_OFF);
	g_call(&b, 1, 2, B36S_OFF);
	assert_int_equal(g_step(&a, 0), B36G_WRITE_FILE);
	assert_int_equal(a.second, 0);
	assert_int_equal(g_step(&b, 0), B36G_WAIT_RESERVATION);
}

static void
test_b36gen_start_redo(void **state)
{
	b36g_call	c;
	bool		sync;

	(void) state;
	/* a damaged state file: every call refuses */
	g_start(-1, 100, false, 3, 3);
	g_call(&c, 0, 0, B36S_OFF);
	assert_int_equal(g_step(&c, 100), B36G_DAMAGED);
	assert_int_equal(b36g_redo(&g_m, 300, 300, &sync), -1);
	assert_int_equal(g_shared.floor, 300);
	assert_int_equal(b36g_redo_end(&g_m), -1);
	/* replay: every second raises the floor and goes to the file */
	g_reset(50, 100);
	assert_int_equal(b36g_redo(&g_m, 120, 180, &sync), 120);
	assert_true(sync);
	b36g_file_written(&g_m, 120, sync);
	assert_int_equal(b36g_redo(&g_m, 119, 180, &sync), -1);
	/* fsync'd 60 s behind the clock, not 61 */
	assert_int_equal(b36g_redo(&g_m, 130, 190, &sync), 130);
	assert_true(sync);
	b36g_file_written(&g_m, 130, sync);
	assert_int_equal(b36g_redo_end(&g_m), -1);
	/* older: written all the same (a restart keeps it), fsync'd at the end */
	assert_int_equal(b36g_redo(&g_m, 140, 201, &sync), 140);
	assert_false(sync);
	b36g_file_written(&g_m, 140, sync);
	assert_int_equal(g_shared.file_second, 140);
	assert_int_equal(b36g_redo(&g_m, 140, 202, &sync), -1);
	assert_int_equal(b36g_redo(&g_m, 150, 260, &sync), 150);
	assert_false(sync);
	b36g_file_written(&g_m, 150, sync);
	assert_int_equal(g_shared.floor, 150);
	assert_int_equal(b36g_redo_end(&g_m), 150);
	b36g_file_written(&g_m, 150, true);
	assert_int_equal(b36g_redo_end(&g_m), -1);
	/* a restart (the file as written, synced or not) fsyncs nothing anew */
	g_start(150, 90, true, 0, 3);
	assert_int_equal(g_shared.floor, 150);
	assert_int_equal(b36g_redo(&g_m, 145, 91, &sync), -1);
	assert_int_equal(b36g_redo_end(&g_m), -1);
	/* the first generation after a promotion skips the clock's second */
	g_start(10, 100, true, 0, 3);
	g_call(&c, 0, 0, B36S_OFF);
	assert_int_equal(g_step(&c, 105), B36G_WAIT_CLOCK);
	assert_int_equal(g_shared.floor, 105);
	/* the monitoring view's counters */
	{
		int64_t		second;
		int			used;

		b36g_worker_state(&g_m, 0, &second, &used);
		assert_int_equal(second, 105);
		assert_int_equal(used, 3);
	}
}

static void
test_b36sync_queue_action(void **state)
{
	(void) state;
	/* as core: the queue while it is behind the record, standbys defined */
	assert_int_equal(b36s_queue_action(true, 10, 9, false, false), B36S_QUEUE_JOIN);
	assert_int_equal(b36s_queue_action(true, 10, 9, true, false), B36S_QUEUE_JOIN);
	/* one process a position in core's queue: another call for 10 polls */
	assert_int_equal(b36s_queue_action(true, 10, 9, false, true), B36S_QUEUE_POLL);
	/* released already: when the judgement saw so, nobody will wake it */
	assert_int_equal(b36s_queue_action(true, 10, 10, true, false), B36S_QUEUE_POLL);
	assert_int_equal(b36s_queue_action(true, 10, 10, false, false), B36S_QUEUE_AGAIN);
	assert_int_equal(b36s_queue_action(false, 10, 9, true, true), B36S_QUEUE_AGAIN);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_uuid_parse_forms),
		cmocka_unit_test(test_uuid_format),
		cmocka_unit_test(test_uuid_parse_errors),
		cmocka_unit_test(test_iuid_vectors),
		cmocka_unit_test(test_iuid_validate),
		cmocka_unit_test(test_iuid_roundtrip_random),
		cmocka_unit_test(test_iuid_order_by_time),
		cmocka_unit_test(test_mono_first_id),
		cmocka_unit_test(test_mono_frozen_clock),
		cmocka_unit_test(test_mono_increment_at_least_one),
		cmocka_unit_test(test_mono_new_millisecond_fresh),
		cmocka_unit_test(test_mono_clock_back_500ms),
		cmocka_unit_test(test_mono_clock_back_1s_edge),
		cmocka_unit_test(test_mono_clock_back_5s),
		cmocka_unit_test(test_mono_overflow_borrows),
		cmocka_unit_test(test_mono_overflow_boundary),
		cmocka_unit_test(test_mono_burst_borrows_many),
		cmocka_unit_test(test_mono_time_range),
		cmocka_unit_test(test_mono_fresh_rules),
		cmocka_unit_test(test_mono_random_walk),
		cmocka_unit_test(test_mono_frac_layout),
		cmocka_unit_test(test_mono_frac_orders_backends),
		cmocka_unit_test(test_mono_frac_frozen_and_borrow),
		cmocka_unit_test(test_clock_frac_bits),
		cmocka_unit_test(test_mono_coarse_clock),
		cmocka_unit_test(test_mono_whole_field),
		cmocka_unit_test(test_mono_coarse_clock_orders_backends),
		cmocka_unit_test(test_mono_backfill),
		cmocka_unit_test(test_mono_backfill_one_ms),
		cmocka_unit_test(test_b36_vectors),
		cmocka_unit_test(test_b36_order_roundtrip),
		cmocka_unit_test(test_b36_parse_errors),
		cmocka_unit_test(test_b36_counter_exhaustion),
		cmocka_unit_test(test_b36_counter_clock_back),
		cmocka_unit_test(test_b36_counter_restart),
		cmocka_unit_test(test_b36_counter_epoch),
		cmocka_unit_test(test_b36_counter_range),
		cmocka_unit_test(test_distid_vectors),
		cmocka_unit_test(test_distid_decimal_format),
		cmocka_unit_test(test_distid_parse_errors),
		cmocka_unit_test(test_distid_alnum_other),
		cmocka_unit_test(test_distid_gen_burst),
		cmocka_unit_test(test_distid_gen_sustained_rate),
		cmocka_unit_test(test_distid_gen_rewind),
		cmocka_unit_test(test_distid_gen_zero_random),
		cmocka_unit_test(test_distid_gen_edges),
		cmocka_unit_test(test_distid128_pack),
		cmocka_unit_test(test_distid128_gen),
		cmocka_unit_test(test_distid128_gen_overflow),
		cmocka_unit_test(test_distid128_gen_edges),
		cmocka_unit_test(test_distid128_rate),
		cmocka_unit_test(test_distid128_frac_orders_backends),
		cmocka_unit_test(test_pubid_layouts),
		cmocka_unit_test(test_pubid_guid_order),
		cmocka_unit_test(test_keyfile_keys),
		cmocka_unit_test(test_keyfile_errors),
		cmocka_unit_test(test_flaxid_vectors),
		cmocka_unit_test(test_flaxid_parse_errors),
		cmocka_unit_test(test_flaxid_bytes),
		cmocka_unit_test(test_waitline_order),
		cmocka_unit_test(test_waitline_model),
		cmocka_unit_test(test_b36sync_level),
		cmocka_unit_test(test_b36sync_judge),
		cmocka_unit_test(test_b36sync_stale_config),
		cmocka_unit_test(test_b36sync_released),
		cmocka_unit_test(test_b36sync_protocol),
		cmocka_unit_test(test_b36sync_queue_action),
		cmocka_unit_test(test_b36gen_reserve_and_budget),
		cmocka_unit_test(test_b36gen_line),
		cmocka_unit_test(test_b36gen_wait_alone),
		cmocka_unit_test(test_b36gen_reserved_past),
		cmocka_unit_test(test_b36gen_reservation_and_own_record),
		cmocka_unit_test(test_b36gen_start_redo),
	};

	return cmocka_run_group_tests_name("idgen core", tests, NULL, NULL);
}
