/*
 * distid.c — DistributedId / DistributedId128 codecs and generators.
 */
#include "distid.h"

#include <string.h>

#include "base62.h"
#include "bytes.h"


static int
hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * Checks the length exactly; LENGTH carries the length found.  The encodings
 * are ASCII, so a byte outside it is a bad character, named before any
 * length (counting bytes would misreport a multibyte character).
 */
static distid_parse_status
check_length(const char *s, size_t want, size_t *offset)
{
	size_t		n = 0;

	for (; s[n] != '\0'; n++)
		if ((unsigned char) s[n] >= 0x80)
		{
			*offset = n;
			return DISTID_PARSE_BAD_CHAR;
		}
	if (n == 0)
	{
		*offset = 0;
		return DISTID_PARSE_EMPTY;
	}
	if (n != want)
	{
		*offset = n;
		return DISTID_PARSE_LENGTH;
	}
	return DISTID_PARSE_OK;
}

distid_parse_status
distid_parse_decimal(const char *s, idg_u128 *out, size_t *offset)
{
	idg_u128	v = 0;
	bool		over = false;
	size_t		i;

	if (s[0] == '\0')
	{
		*offset = 0;
		return DISTID_PARSE_EMPTY;
	}
	for (i = 0; s[i] != '\0'; i++)
	{
		if (s[i] < '0' || s[i] > '9')
		{
			*offset = i;
			return DISTID_PARSE_BAD_CHAR;
		}
		if (!over)
		{
			v = v * 10 + (unsigned) (s[i] - '0');
			over = v > distid_max();
		}
	}
	if (over)
	{
		*offset = i;
		return DISTID_PARSE_RANGE;
	}
	*out = v;
	return DISTID_PARSE_OK;
}

/* "00" to "99": two decimal digits per lookup */
static const char digit_pairs[] =
"0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
"5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

/* v = v / 10^9 over its four 32-bit words, most significant first; v % 10^9 */
static uint32_t
div_1e9(uint32_t w[4])
{
	uint64_t	r = 0;
	int			i;

	for (i = 0; i < 4; i++)
	{
		/* below 10^9 * 2^32: a 64-bit division by a constant, a multiplication */
		uint64_t	cur = (r << 32) | w[i];

		w[i] = (uint32_t) (cur / 1000000000);
		r = cur % 1000000000;
	}
	return (uint32_t) r;
}

/*
 * The 9 digits of c < 10^9, zero-padded, into out: c * ceil(2^57 / 10^8)
 * holds c / 10^8 as a fixed-point number with 57 fractional bits, so the
 * first digit is its integer part and each pair after it the integer part
 * of the fraction times 100.  The constant's excess (under 2e-10 relative)
 * stays below the gap to the next integer at every step (at most 0.17 of
 * one at the last), so every digit is exact.
 */
#define FRAC57 ((UINT64_C(1) << 57) - 1)
#define NEXT_PAIR(at) \
	do { \
		t = (t & FRAC57) * 100; \
		memcpy(out + (at), &digit_pairs[2 * (t >> 57)], 2); \
	} while (0)

static inline void
put_9_digits(uint32_t c, char *out)
{
	uint64_t	t = (uint64_t) c * UINT64_C(1441151881);

	out[0] = (char) ('0' + (t >> 57));
	NEXT_PAIR(1);
	NEXT_PAIR(3);
	NEXT_PAIR(5);
	NEXT_PAIR(7);
}

/* decimal digits of c < 10^9, at least one */
static inline int
count_digits(uint32_t c)
{
	if (c < 10000)
		return c < 100 ? (c < 10 ? 1 : 2) : (c < 1000 ? 3 : 4);
	if (c < 10000000)
		return c < 100000 ? 5 : (c < 1000000 ? 6 : 7);
	return c < 100000000 ? 8 : 9;
}

#define E9 UINT64_C(1000000000)

/*
 * In chunks of 9 digits.  Below 2^96 (every distid) the chunks come from the
 * two 64-bit halves, h * 2^64 + l with 2^64 = 18 446744073 709551616 in base
 * 10^9, by 64-bit multiplications and divisions by a constant; above, by
 * long division of the 32-bit words.
 */
void
distid_format_decimal(idg_u128 v, char *out)
{
	uint32_t	d[5];			/* base 10^9, least significant first */
	int			top = 0;
	char		buf[45 + 40];	/* digits end at 45, read 40 from the first */
	char	   *p;
	int			k;

	if ((v >> 96) == 0)
	{
		uint64_t	h = (uint64_t) (v >> 64);
		uint64_t	l = (uint64_t) v;
		uint64_t	l1 = l / E9;
		uint64_t	c0 = h * UINT64_C(709551616) + l % E9;
		uint64_t	c1 = h * UINT64_C(446744073) + l1 % E9 + c0 / E9;
		uint64_t	c2 = h * 18 + l1 / E9 + c1 / E9;

		d[0] = (uint32_t) (c0 % E9);
		d[1] = (uint32_t) (c1 % E9);
		d[2] = (uint32_t) (c2 % E9);
		d[3] = (uint32_t) (c2 / E9);
		top = d[3] ? 3 : d[2] ? 2 : d[1] ? 1 : 0;
	}
	else
	{
		uint32_t	w[4] = {(uint32_t) (v >> 96), (uint32_t) (v >> 64), (uint32_t) (v >> 32), (uint32_t) v};

		while (w[0] != 0 || w[1] != 0 || w[2] != 0 || w[3] >= E9)
			d[top++] = div_1e9(w);
		d[top] = w[3];
	}
	/* 9 digits a chunk, the last ending at buf + 45; the first from its first */
	for (k = 0; k <= top; k++)
		put_9_digits(d[k], buf + 45 - 9 * (k + 1));
	p = buf + 45 - 9 * top - count_digits(d[top]);
	/* a fixed-size copy (out holds 40), then the end */
	memcpy(out, p, 40);
	out[buf + 45 - p] = '\0';
}

/* decodes consecutive base62 blocks of the given widths from s */
static distid_parse_status
decode_blocks(const char *s, const int *widths, int nblocks, uint64_t *values, size_t *offset)
{
	size_t		pos = 0;
	int			b;

	for (b = 0; b < nblocks; b++)
	{
		idg_b62_status st = idg_base62_decode(s + pos, widths[b], &values[b], offset);

		if (st != IDG_B62_OK)
		{
			*offset += pos;
			return st == IDG_B62_RANGE ? DISTID_PARSE_BLOCK_RANGE : DISTID_PARSE_BAD_CHAR;
		}
		pos += (size_t) widths[b];
	}
	return DISTID_PARSE_OK;
}

void
distid_to_alphanumeric(idg_u128 v, char out[DISTID_ALNUM_LEN + 1])
{
	idg_base62_encode((uint64_t) (v >> 64), 5, out);
	idg_base62_encode((uint64_t) v, 11, out + 5);
	out[DISTID_ALNUM_LEN] = '\0';
}

distid_parse_status
distid_from_alphanumeric(const char *s, idg_u128 *out, size_t *offset)
{
	static const int widths[] = {5, 11};
	uint64_t	blocks[2];
	distid_parse_status st = check_length(s, DISTID_ALNUM_LEN, offset);
	idg_u128	v;

	if (st == DISTID_PARSE_OK)
		st = decode_blocks(s, widths, 2, blocks, offset);
	if (st != DISTID_PARSE_OK)
		return st;
	v = ((idg_u128) blocks[0] << 64) | blocks[1];
	if (v > distid_max())
	{
		*offset = 0;
		return DISTID_PARSE_RANGE;
	}
	*out = v;
	return DISTID_PARSE_OK;
}

void
distid_to_hex(idg_u128 v, char out[DISTID_HEX_LEN + 1])
{
	static const char hex[] = "0123456789ABCDEF";
	int			i;

	for (i = DISTID_HEX_LEN - 1; i >= 0; i--)
	{
		out[i] = hex[(unsigned) v & 0xF];
		v >>= 4;
	}
	out[DISTID_HEX_LEN] = '\0';
}

distid_parse_status
distid_from_hex(const char *s, idg_u128 *out, size_t *offset)
{
	distid_parse_status st = check_length(s, DISTID_HEX_LEN, offset);
	idg_u128	v = 0;
	int			i;

	if (st != DISTID_PARSE_OK)
		return st;
	for (i = 0; i < DISTID_HEX_LEN; i++)
	{
		int			d = hex_value(s[i]);

		if (d < 0)
		{
			*offset = (size_t) i;
			return DISTID_PARSE_BAD_CHAR;
		}
		v = (v << 4) | (unsigned) d;
	}
	if (v > distid_max())
	{
		*offset = 0;
		return DISTID_PARSE_RANGE;
	}
	*out = v;
	return DISTID_PARSE_OK;
}

void
uuid_to_alphanumeric(const uint8_t in[16], char out[UUID_ALNUM_LEN + 1])
{
	idg_base62_encode(idg_load_be64(in), 11, out);
	idg_base62_encode(idg_load_be64(in + 8), 11, out + 11);
	out[UUID_ALNUM_LEN] = '\0';
}

distid_parse_status
uuid_from_alphanumeric(const char *s, uint8_t out[16], size_t *offset)
{
	static const int widths[] = {11, 11};
	uint64_t	blocks[2];
	distid_parse_status st = check_length(s, UUID_ALNUM_LEN, offset);

	if (st == DISTID_PARSE_OK)
		st = decode_blocks(s, widths, 2, blocks, offset);
	if (st != DISTID_PARSE_OK)
		return st;
	idg_store_be64(out, blocks[0]);
	idg_store_be64(out + 8, blocks[1]);
	return DISTID_PARSE_OK;
}

void
bigint_to_alphanumeric(int64_t v, char out[BIGINT_ALNUM_LEN + 1])
{
	idg_base62_encode((uint64_t) v, BIGINT_ALNUM_LEN, out);
	out[BIGINT_ALNUM_LEN] = '\0';
}

distid_parse_status
bigint_from_alphanumeric(const char *s, int64_t *out, size_t *offset)
{
	static const int widths[] = {11};
	uint64_t	v;
	distid_parse_status st = check_length(s, BIGINT_ALNUM_LEN, offset);

	if (st == DISTID_PARSE_OK)
		st = decode_blocks(s, widths, 1, &v, offset);
	if (st != DISTID_PARSE_OK)
		return st;
	if (v > (uint64_t) INT64_MAX)
	{
		*offset = 0;
		return DISTID_PARSE_RANGE;
	}
	*out = (int64_t) v;
	return DISTID_PARSE_OK;
}

/*
 * DistributedIdGenerator.CreateValues(): ids are stamped 1000 ms in the past,
 * so a burst may borrow milliseconds up to the present (about 128 ids per
 * millisecond, so ~128K at once) before it has to sleep.
 */
distid_gen_status
distid_next(distid_gen *g, uint64_t now_ms, idg_rand64_fn rnd, void *ctx, idg_u128 *id)
{
	const uint64_t max48 = idg_mask(DISTID_RAND_BITS);
	uint64_t	r = rnd(ctx) & max48;
	uint64_t	ts = now_ms - DISTID_LEEWAY_MS;

	if (r == 0)
		r = 1;
	if (ts <= g->prev_ts)
	{
		uint64_t	inc = r & idg_mask(DISTID_INC_BITS);
		uint64_t	max_ts;

		if (inc == 0)
			inc = 1;
		if (inc <= max48 - g->prev_rand)
		{
			g->prev_rand += inc;
			*id = distid_compose(g->prev_ts, g->prev_rand);
			return DISTID_GEN_OK;
		}
		/* overflow: move to a later millisecond that is still in the past */
		max_ts = ts + DISTID_LEEWAY_MS - 1;
		if (g->prev_ts < max_ts)
			ts = g->prev_ts + 1;
		else if (g->prev_ts - max_ts <= DISTID_LEEWAY_MS)
			return DISTID_GEN_SLEEP;
		/* else the clock went back by more than the leeway: follow it */
	}
	if (ts > DISTID_MAX_TS)
		return DISTID_GEN_RANGE;
	g->prev_ts = ts;
	g->prev_rand = r;
	*id = distid_compose(ts, r);
	return DISTID_GEN_OK;
}

void
distid128_pack(uint64_t ms, idg_u128 r75, uint8_t id[16])
{
	idg_store_be64(id, (ms << 16) | (UINT64_C(0x7) << 12) | (uint64_t) (r75 >> 63));
	idg_store_be64(id + 8, (uint64_t) r75 & idg_mask(63));
}

/*
 * DistributedId128Generator.CreateValues(): no leeway; on overflow within a
 * millisecond, sleep unless the clock went back by a second or more.
 *
 * One change for concurrent writers: the top frac_bits of the 75 random bits
 * (at most the 12 after the version nibble, where UUIDv7 keeps its rand_a;
 * only as many as the clock resolves) carry the sub-millisecond fraction,
 * and a later fraction in the same millisecond takes fresh bits instead of
 * an increment (RFC 9562 §6.2 method 3, as PostgreSQL 18's uuidv7()), so
 * that ids of different backends come out in real-time order.  With
 * frac_bits 0 this is the reference's algorithm.
 */
distid_gen_status
distid128_next(distid128_gen *g, uint64_t now_ms, uint32_t sub_ns, unsigned frac_bits,
			   idg_rand64_fn rnd, void *ctx, uint8_t id[16])
{
	unsigned	low = DISTID128_RAND_BITS - frac_bits;
	uint64_t	frac = idg_mono_frac(sub_ns, frac_bits);
	uint64_t	r = rnd(ctx);
	idg_u128	fresh = ((idg_u128) frac << low) | (r & idg_mask(63));
	uint64_t	hi;
	uint64_t	lo;
	uint64_t	ts = now_ms;
	idg_u128	prev = ((idg_u128) g->prev_hi << 64) | g->prev_lo;

	/* a coarse clock leaves more than 63 bits to chance: draw again */
	if (low > 63)
		fresh |= (idg_u128) (rnd(ctx) & idg_mask(low - 63)) << 63;
	if (fresh == 0)
		fresh = 1;
	hi = (uint64_t) (fresh >> 64);
	lo = (uint64_t) fresh;
	if (ts < g->prev_ts || (ts == g->prev_ts && frac <= (uint64_t) (prev >> low)))
	{
		uint64_t	inc = r & idg_mask(DISTID128_INC_BITS);
		idg_u128	max75 = ((idg_u128) 1 << DISTID128_RAND_BITS) - 1;

		if (inc == 0)
			inc = 1;
		if (inc <= max75 - prev)
		{
			prev += inc;
			g->prev_hi = (uint64_t) (prev >> 64);
			g->prev_lo = (uint64_t) prev;
			hi = g->prev_hi;
			lo = g->prev_lo;
			ts = g->prev_ts;
			goto write;
		}
		if (ts + 1000 > g->prev_ts)
			return DISTID_GEN_SLEEP;
	}
	if (ts >= (UINT64_C(1) << 48))
		return DISTID_GEN_RANGE;
	g->prev_ts = ts;
	g->prev_hi = hi;
	g->prev_lo = lo;

write:
	distid128_pack(ts, ((idg_u128) hi << 64) | lo, id);
	return DISTID_GEN_OK;
}
