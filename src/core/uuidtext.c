/*
 * uuidtext.c — text form of 16-byte UUID-shaped ids.
 */
#include "uuidtext.h"

#include <string.h>

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int
count_hex(const char *s)
{
	int			n = 0;

	for (; *s; s++)
		if (hexval(*s) >= 0)
			n++;
	return n;
}

/*
 * Same grammar as PostgreSQL's string_to_uuid(): 16 pairs of hex digits, a
 * single optional hyphen after each even-numbered pair but the last, the whole
 * optionally in braces.
 */
static idg_uuid_parse_status
uuid_parse(const char *source, uint8_t out[IDG_UUID_LEN], idg_uuid_parse_error *err)
{
	const char *src = source;
	int			braces = 0;
	int			i;

	err->offset = 0;

	if (*src == '{')
	{
		src++;
		braces = 1;
	}
	if (*src == '\0')
	{
		err->offset = (size_t) (src - source);
		return IDG_UUID_EMPTY;
	}

	for (i = 0; i < IDG_UUID_LEN; i++)
	{
		int			hi,
					lo;

		if (src[0] == '\0' || (src[1] == '\0' && hexval(src[0]) >= 0))
		{
			err->offset = (size_t) (src - source) + (src[0] != '\0');
			return IDG_UUID_TOO_SHORT;
		}
		hi = hexval(src[0]);
		if (hi < 0)
		{
			err->offset = (size_t) (src - source);
			return IDG_UUID_BAD_CHAR;
		}
		lo = hexval(src[1]);
		if (lo < 0)
		{
			err->offset = (size_t) (src - source) + 1;
			return IDG_UUID_BAD_CHAR;
		}
		out[i] = (uint8_t) ((hi << 4) | lo);
		src += 2;
		if (src[0] == '-' && (i % 2) == 1 && i < IDG_UUID_LEN - 1)
			src++;
	}

	if (braces)
	{
		if (*src == '}')
			src++;
		else if (*src == '\0')
		{
			err->offset = (size_t) (src - source);
			return IDG_UUID_NO_CLOSING_BRACE;
		}
	}

	if (*src != '\0')
	{
		const char *p;
		int			more_digits = 0;

		/* only digits and hyphens follow, some digits: the input is too long */
		err->offset = (size_t) (src - source);
		for (p = src; *p; p++)
		{
			if (hexval(*p) >= 0)
				more_digits = 1;
			else if (*p != '-' && !(braces && *p == '}' && p[1] == '\0'))
				return IDG_UUID_BAD_CHAR;
		}
		return more_digits ? IDG_UUID_TOO_LONG : IDG_UUID_BAD_CHAR;
	}
	return IDG_UUID_OK;
}

idg_uuid_parse_status
idg_uuid_parse(const char *source, uint8_t out[IDG_UUID_LEN], idg_uuid_parse_error *err)
{
	idg_uuid_parse_status st = uuid_parse(source, out, err);

	/* the digits are counted for an error message only, not on every input */
	err->hex_digits = st == IDG_UUID_OK ? 32 : count_hex(source);
	return st;
}

/* "00" to "ff": a byte's two digits per lookup */
static const char hex_pairs[] =
"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/* where each byte's two digits go in 8-4-4-4-12 */
#define HEX(i, pos) memcpy(out + (pos), &hex_pairs[2 * in[i]], 2)

void
idg_uuid_format(const uint8_t in[IDG_UUID_LEN], char out[IDG_UUID_TEXT_LEN + 1])
{
	HEX(0, 0);
	HEX(1, 2);
	HEX(2, 4);
	HEX(3, 6);
	out[8] = '-';
	HEX(4, 9);
	HEX(5, 11);
	out[13] = '-';
	HEX(6, 14);
	HEX(7, 16);
	out[18] = '-';
	HEX(8, 19);
	HEX(9, 21);
	out[23] = '-';
	HEX(10, 24);
	HEX(11, 26);
	HEX(12, 28);
	HEX(13, 30);
	HEX(14, 32);
	HEX(15, 34);
	out[IDG_UUID_TEXT_LEN] = '\0';
}
