/*
 * uuidtext.c — text form of 16-byte UUID-shaped ids.
 */
#include "uuidtext.h"

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

void
idg_uuid_format(const uint8_t in[IDG_UUID_LEN], char out[IDG_UUID_TEXT_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	char	   *p = out;
	int			i;

	for (i = 0; i < IDG_UUID_LEN; i++)
	{
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*p++ = '-';
		*p++ = hex[in[i] >> 4];
		*p++ = hex[in[i] & 0xF];
	}
	*p = '\0';
}
