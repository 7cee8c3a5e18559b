/*
 * Unit tests of src/fixedid.h, the comparison shared by the fixed-width ids
 * (iuid, distid, flaxid): their order must be memcmp()'s on the stored
 * big-endian bytes (what btree, sorts, and the cross-type operators with
 * uuid assume), now computed as 64- and 32-bit integers.
 *
 * Pairs of random ids share a prefix of every length, so each word decides
 * the order in turn and equal ids are among them.
 *
 * Checked to fail: with pg_ntoh64() left out of the first word's comparison
 * (comparing the little-endian integers), test_fixed_cmp_is_memcmp fails.
 *
 * idgen_fixed_send(), the binary output, against a palloc() stub.
 */
#include "postgres.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "fixedid.h"

/* the one allocation idgen_fixed_send() makes */
void *
palloc(Size size)
{
	return malloc(size);
}

/* the varlena macros' assertions, on a server built with them */
#if PG_VERSION_NUM >= 160000
void
ExceptionalCondition(const char *conditionName, const char *fileName, int lineNumber)
#else
void
ExceptionalCondition(const char *conditionName, const char *errorType,
					 const char *fileName, int lineNumber)
#endif
{
	fail_msg("assertion %s failed at %s:%d", conditionName, fileName, lineNumber);
	abort();
}

static uint64_t
next_random(uint64_t *s)
{
	uint64_t	z = (*s += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

static int
sign(int c)
{
	return c < 0 ? -1 : c > 0;
}

static void
check_width(int len)
{
	uint64_t	seed = (uint64_t) len;
	uint8_t		a[24],
				b[24];
	int			shared,
				i,
				n;

	for (shared = 0; shared <= len; shared++)
		for (n = 0; n < 20000; n++)
		{
			for (i = 0; i < len; i++)
			{
				a[i] = (uint8_t) next_random(&seed);
				/* after the shared prefix, often a near miss */
				b[i] = i < shared ? a[i] :
					(n % 2 ? (uint8_t) (a[i] + (n % 3) - 1) : (uint8_t) next_random(&seed));
			}
			assert_int_equal(idgen_fixed_cmp(a, b, len), sign(memcmp(a, b, len)));
			assert_int_equal(idgen_fixed_cmp(b, a, len), sign(memcmp(b, a, len)));
			assert_int_equal(idgen_fixed_cmp(a, a, len), 0);
		}
}

static void
test_fixed_cmp_is_memcmp(void **state)
{
	(void) state;
	check_width(12);			/* distid, flaxid */
	check_width(16);			/* iuid */
	check_width(20);			/* any other width: memcmp() after 8 bytes */
}

/* the byte at each position decides alone, both ways */
static void
test_fixed_cmp_each_byte(void **state)
{
	uint8_t		a[16],
				b[16];
	int			len,
				i;

	(void) state;
	for (len = 12; len <= 16; len += 4)
		for (i = 0; i < len; i++)
		{
			memset(a, 0x80, sizeof(a));
			memset(b, 0x80, sizeof(b));
			b[i] = 0x81;
			assert_int_equal(idgen_fixed_cmp(a, b, len), -1);
			assert_int_equal(idgen_fixed_cmp(b, a, len), 1);
			b[i] = 0x7F;
			assert_int_equal(idgen_fixed_cmp(a, b, len), 1);
		}
}

/* a bytea of the id's bytes, as pq_begintypsend()/pq_endtypsend() made it */
static void
test_fixed_send(void **state)
{
	static const uint8_t id[16] = {0x01, 0x7f, 0x22, 0xe2, 0x79, 0xb0, 0x80, 0x2a,
	0x81, 0x41, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd};
	int			len;

	(void) state;
	for (len = 12; len <= 16; len += 4)
	{
		bytea	   *b = idgen_fixed_send(id, len);

		assert_int_equal(VARSIZE(b), VARHDRSZ + len);
		assert_int_equal(VARSIZE_ANY_EXHDR(b), len);
		assert_memory_equal(VARDATA(b), id, len);
		free(b);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_cmp_is_memcmp),
		cmocka_unit_test(test_fixed_cmp_each_byte),
		cmocka_unit_test(test_fixed_send),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
