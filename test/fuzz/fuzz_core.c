/*
 * libFuzzer harness for the PostgreSQL-independent core.
 *
 * The first byte picks a target:
 *  - text: any string either parses to 16 bytes that format canonically and
 *    parse back identically, or fails with an offset inside the string;
 *  - layout: any 16 bytes that validate as an iuid unpack and pack back to
 *    the same bytes;
 *  - generator: the input scripts clock steps and random words; while the
 *    clock is at most 1 s behind, ids strictly increase;
 *  - base36 text: a string parses only if it is its own canonical form;
 *  - base36 counter: whatever the clock does, issued ids strictly increase;
 *  - distid text forms: whatever decodes re-encodes to the same canonical
 *    string (decimal modulo leading zeros) and stays within 10^28-1;
 *  - flaxid text: a string parses only if it is its own canonical form;
 *  - key file: every key read is 16, 24 or 32 bytes, lines only go forward,
 *    and a key written back as base64 reads back as the same bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base36.h"
#include "base62.h"
#include "distid.h"
#include "flaxid.h"
#include "iuid_layout.h"
#include "keyfile.h"
#include "monotonic.h"
#include "uuidtext.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

static void
fuzz_text(const uint8_t *data, size_t size)
{
	char	   *s = malloc(size + 1);
	uint8_t		out[16],
				back[16];
	char		text[IDG_UUID_TEXT_LEN + 1];
	idg_uuid_parse_error err;
	idg_uuid_parse_status st;
	size_t		i;

	memcpy(s, data, size);
	s[size] = '\0';
	st = idg_uuid_parse(s, out, &err);
	if (st == IDG_UUID_OK)
	{
		idg_uuid_format(out, text);
		CHECK(strlen(text) == IDG_UUID_TEXT_LEN);
		for (i = 0; i < IDG_UUID_TEXT_LEN; i++)
			CHECK((text[i] >= '0' && text[i] <= '9') || (text[i] >= 'a' && text[i] <= 'f') ||
				  (text[i] == '-' && (i == 8 || i == 13 || i == 18 || i == 23)));
		CHECK(idg_uuid_parse(text, back, &err) == IDG_UUID_OK);
		CHECK(memcmp(out, back, 16) == 0);
	}
	else
		CHECK(err.offset <= strlen(s));
	free(s);
}

static void
fuzz_layout(const uint8_t *data, size_t size)
{
	uint8_t		b[16] = {0},
				back[16];
	iuid_fields f;

	memcpy(b, data, size < 16 ? size : 16);
	if (iuid_validate(b) != IUID_CHECK_OK)
		return;
	iuid_unpack(b, &f);
	iuid_pack(&f, back);
	CHECK(memcmp(b, back, 16) == 0);
}

typedef struct script
{
	const uint8_t *p;
	size_t		left;
} script;

static uint64_t
script_rand(void *ctx)
{
	script	   *sc = ctx;
	uint64_t	v = 0;
	int			i;

	for (i = 0; i < 8 && sc->left > 0; i++, sc->left--)
		v = (v << 8) | *sc->p++;
	return v;
}

/*
 * Backfill (idg_mono_next_at): a millisecond the current walk covers
 * continues it, strictly increasing, whatever the overflows; any other
 * starts a walk there.
 */
static void
fuzz_backfill(script *sc)
{
	/* 8 bits and increments of 1..16: a walk overflows after about 15 ids */
	idg_mono_cfg cfg_ = {.rand_bits = 8, .inc_bits = 4, .max_ms = 1u << 30,
	.back_leeway_ms = 1000};
	const idg_mono_cfg *cfg = &cfg_;
	idg_mono	st = {0};
	uint64_t	at = 1u << 20;

	while (sc->left >= 2)
	{
		idg_mono	prev = st;
		uint8_t		step = *sc->p++;

		sc->left--;
		/* mostly the same millisecond, so that walks overflow and borrow */
		if ((step & 31) == 0)
			at -= step >> 5;
		else if ((step & 31) == 1)
			at += step >> 5;
		if (idg_mono_next_at(&st, cfg, at, script_rand, sc) != IDG_MONO_OK)
			return;
		if (prev.valid && at >= prev.at_ms && at <= prev.ms)
			CHECK(st.ms > prev.ms || (st.ms == prev.ms && st.rand > prev.rand));
		else
			CHECK(st.ms == at && st.at_ms == at && st.rand < 0x80);
		CHECK(st.ms >= at && st.rand <= 0xFF);
	}
}

static void
fuzz_generator(const uint8_t *data, size_t size)
{
	/*
	 * A small random field so that overflow and borrowing happen often; the
	 * first byte picks 0 or 4 bits of sub-millisecond clock fraction, or
	 * backfill.
	 */
	idg_mono_cfg cfg = {.rand_bits = 12, .inc_bits = 4, .max_ms = 1u << 30,
	.back_leeway_ms = 1000};
	script		sc = {data, size};
	idg_mono	st = {0};
	uint64_t	now = 1u << 20;
	uint32_t	sub_ns = 0;

	if (sc.left < 1)
		return;
	if (*sc.p & 2)
	{
		sc.p++;
		sc.left--;
		fuzz_backfill(&sc);
		return;
	}
	cfg.frac_bits = (*sc.p++ & 1) ? 4 : 0;
	sc.left--;
	while (sc.left >= 3)
	{
		uint64_t	pms = st.ms,
					prand = st.rand;
		int			had = st.valid;
		int8_t		step = (int8_t) *sc.p++;

		/* the sub-millisecond clock: anywhere in the millisecond */
		sub_ns = (uint32_t) (*sc.p++ * 3921u);
		sc.left -= 2;
		/* steps of -128..127 ms, scaled up now and then to cross the 1 s leeway */
		now += (int64_t) step * ((*sc.p & 0x80) ? 20 : 1);
		if (idg_mono_next(&st, &cfg, now, sub_ns, script_rand, &sc) != IDG_MONO_OK)
			return;
		if (!had || now > pms)
			CHECK(st.ms == now);
		else if (pms - now <= cfg.back_leeway_ms)
			CHECK(st.ms > pms || (st.ms == pms && st.rand > prand));
		else
			CHECK(st.ms == now);
		/* a fresh field of a new millisecond starts with the clock's fraction */
		if (cfg.frac_bits > 0 && (!had || now > pms))
			CHECK(st.rand >> 8 == idg_mono_frac(sub_ns, 4));
		CHECK(st.rand <= 0xFFF);
	}
}

static void
fuzz_b36_text(const uint8_t *data, size_t size)
{
	char	   *s = malloc(size + 1);
	char		text[B36_LEN + 1];
	int64_t		v;
	size_t		off;

	memcpy(s, data, size);
	s[size] = '\0';
	if (b36_parse(s, &v, &off) == B36_PARSE_OK)
	{
		CHECK(v >= 0 && v <= B36_MAX_VALUE);
		b36_format(v, text);
		CHECK(strcmp(text, s) == 0);
	}
	else
		CHECK(off <= strlen(s));
	free(s);
}

static void
fuzz_b36_counter(const uint8_t *data, size_t size)
{
	b36_state	st;
	int64_t		now = 1000,
				last = -1;
	size_t		i;

	b36_state_init(&st, data[0] & 1 ? 1000 : -1);
	for (i = 0; i < size; i++)
	{
		int64_t		second;
		int			counter;
		bool		new_second;
		int			burst = 1 + (data[i] & 0x3F) * 40;	/* up to ~2500 calls */
		int			k;

		now += (int8_t) data[i] >> 4;	/* -8 .. +7 s */
		for (k = 0; k < burst; k++)
		{
			b36_next_status r = b36_state_next(&st, now, &second, &counter, &new_second);

			if (r == B36_NEXT_WAIT)
			{
				CHECK(st.second >= now);	/* waits only for a clock not past it */
				break;
			}
			CHECK(r == B36_NEXT_OK);
			CHECK(counter >= 0 && counter < B36_COUNTERS);
			CHECK(b36_compose(second, 0, counter) > last);
			last = b36_compose(second, 0, counter);
		}
	}
}

static void
fuzz_distid_text(const uint8_t *data, size_t size)
{
	char	   *s = malloc(size + 1);
	char		buf[40];
	idg_u128	v;
	uint8_t		u[16];
	int64_t		b;
	size_t		off;

	memcpy(s, data, size);
	s[size] = '\0';
	if (distid_parse_decimal(s, &v, &off) == DISTID_PARSE_OK)
	{
		const char *p = s;

		CHECK(v <= distid_max());
		distid_format_decimal(v, buf);
		while (*p == '0' && p[1] != '\0')
			p++;
		CHECK(strcmp(buf, p) == 0);
	}
	if (distid_from_alphanumeric(s, &v, &off) == DISTID_PARSE_OK)
	{
		CHECK(v <= distid_max());
		distid_to_alphanumeric(v, buf);
		CHECK(strcmp(buf, s) == 0);
	}
	if (distid_from_hex(s, &v, &off) == DISTID_PARSE_OK)
	{
		distid_to_hex(v, buf);
		CHECK(strcasecmp(buf, s) == 0);
	}
	if (uuid_from_alphanumeric(s, u, &off) == DISTID_PARSE_OK)
	{
		uuid_to_alphanumeric(u, buf);
		CHECK(strcmp(buf, s) == 0);
	}
	if (bigint_from_alphanumeric(s, &b, &off) == DISTID_PARSE_OK)
	{
		CHECK(b >= 0);
		idg_base62_encode((uint64_t) b, BIGINT_ALNUM_LEN, buf);
		buf[BIGINT_ALNUM_LEN] = '\0';
		CHECK(strcmp(buf, s) == 0);
	}
	free(s);
}

static void
fuzz_flaxid_text(const uint8_t *data, size_t size)
{
	char	   *s = malloc(size + 1);
	char		text[FLAXID_TEXT_LEN + 1];
	idg_u128	v;
	size_t		off;

	static const char alphabet[] =
		"-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";
	uint8_t		b[FLAXID_LEN];
	int			valid;

	memcpy(s, data, size);
	s[size] = '\0';
	/* the SPEC's rule: 16 characters of the alphabet */
	valid = strlen(s) == FLAXID_TEXT_LEN && strspn(s, alphabet) == FLAXID_TEXT_LEN;
	CHECK((flaxid_parse_bytes(s, b, &off) == FLAXID_PARSE_OK) == valid);
	if (flaxid_parse(s, &v, &off) == FLAXID_PARSE_OK)
	{
		CHECK(valid);
		CHECK(v >> 96 == 0);
		flaxid_format(v, text);
		CHECK(strcmp(text, s) == 0);
		flaxid_format_bytes(b, text);
		CHECK(strcmp(text, s) == 0);
	}
	else
		CHECK(!valid && off <= strlen(s));
	free(s);
}

static void
fuzz_keyfile(const uint8_t *data, size_t size)
{
	static const char digits[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	keyfile_reader r;
	keyfile_status st;
	uint8_t		key[KEYFILE_MAX_KEY];
	int			len = 0;
	int			last_line = 0;
	size_t		calls = 0;

	keyfile_init(&r, (const char *) data, size);
	while ((st = keyfile_next(&r, key, &len)) != KEYFILE_END)
	{
		CHECK(++calls <= size + 1);
		CHECK(r.line > last_line && r.pos <= size);
		last_line = r.line;
		if (st == KEYFILE_KEY)
		{
			char		text[KEYFILE_MAX_KEY / 3 * 4 + 8];
			uint8_t		back[KEYFILE_MAX_KEY];
			int			backlen = 0;
			int			i,
						o = 0;
			keyfile_reader r2;

			CHECK(len == 16 || len == 24 || len == 32);
			for (i = 0; i < len; i += 3)
			{
				uint32_t	v = (uint32_t) key[i] << 16 |
					(i + 1 < len ? (uint32_t) key[i + 1] << 8 : 0) |
					(i + 2 < len ? key[i + 2] : 0);

				text[o++] = digits[v >> 18];
				text[o++] = digits[(v >> 12) & 63];
				text[o++] = i + 1 < len ? digits[(v >> 6) & 63] : '=';
				text[o++] = i + 2 < len ? digits[v & 63] : '=';
			}
			keyfile_init(&r2, text, (size_t) o);
			CHECK(keyfile_next(&r2, back, &backlen) == KEYFILE_KEY);
			CHECK(backlen == len && memcmp(back, key, (size_t) len) == 0);
		}
		else if (st == KEYFILE_BAD_LENGTH)
			CHECK(len != 16 && len != 24 && len != 32 && len >= 0);
	}
}

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	switch (data[0] % 8)
	{
		case 7:
			fuzz_keyfile(data + 1, size - 1);
			break;
		case 6:
			fuzz_flaxid_text(data + 1, size - 1);
			break;
		case 5:
			fuzz_distid_text(data + 1, size - 1);
			break;
		case 3:
			fuzz_b36_text(data + 1, size - 1);
			break;
		case 4:
			if (size > 1)
				fuzz_b36_counter(data + 1, size - 1);
			break;
		case 0:
			fuzz_text(data + 1, size - 1);
			break;
		case 1:
			fuzz_layout(data + 1, size - 1);
			break;
		default:
			fuzz_generator(data + 1, size - 1);
			break;
	}
	return 0;
}
