/*
 * keyfile.c — reading the lines of a public-id key file (see keyfile.h).
 */
#include "keyfile.h"

#include <limits.h>
#include <stdbool.h>
#include <string.h>

/* value of a base64 digit, or -1 */
static int
b64_digit(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

void
keyfile_init(keyfile_reader *r, const char *text, size_t len)
{
	r->text = text;
	r->len = len;
	r->pos = 0;
	r->line = 0;
}

/*
 * Checks s[0..n) as padded base64 and returns the length it decodes to, or
 * -1.  Decodes into out only when that length fits KEYFILE_MAX_KEY.
 */
static long
b64_decode(const char *s, size_t n, uint8_t *out)
{
	size_t		pad = 0;
	size_t		i;
	size_t		o = 0;
	long		outlen;
	uint32_t	acc = 0;

	if (n == 0 || n % 4 != 0)
		return -1;
	while (pad < 2 && s[n - 1 - pad] == '=')
		pad++;
	for (i = 0; i < n - pad; i++)
		if (b64_digit((unsigned char) s[i]) < 0)
			return -1;
	outlen = (long) (n / 4 * 3 - pad);
	if (outlen > KEYFILE_MAX_KEY)
		return outlen;
	for (i = 0; i < n - pad; i++)
	{
		acc = (acc << 6) | (uint32_t) b64_digit((unsigned char) s[i]);
		if (i % 4 == 3)
		{
			out[o++] = (uint8_t) (acc >> 16);
			out[o++] = (uint8_t) (acc >> 8);
			out[o++] = (uint8_t) acc;
			acc = 0;
		}
	}
	if (pad == 1)				/* 3 digits: 18 bits, 2 bytes */
	{
		out[o++] = (uint8_t) (acc >> 10);
		out[o++] = (uint8_t) (acc >> 2);
	}
	else if (pad == 2)			/* 2 digits: 12 bits, 1 byte */
		out[o++] = (uint8_t) (acc >> 4);
	acc = 0;
	return outlen;
}

keyfile_status
keyfile_next(keyfile_reader *r, uint8_t key[KEYFILE_MAX_KEY], int *keylen)
{
	while (r->pos < r->len)
	{
		const char *line = r->text + r->pos;
		size_t		rest = r->len - r->pos;
		const char *nl = memchr(line, '\n', rest);
		size_t		n = nl ? (size_t) (nl - line) : rest;
		size_t		start = 0;
		size_t		end;
		long		decoded;
		const char *hash;

		r->line++;
		if (memchr(line, '\0', n) != NULL)
		{
			r->pos = r->len;	/* stop here */
			return KEYFILE_NUL;
		}
		r->pos += n + (nl ? 1 : 0);

		/* a comment runs to the end of the line; base64 has no '#' */
		hash = memchr(line, '#', n);
		end = hash ? (size_t) (hash - line) : n;
		while (start < end && is_blank(line[start]))
			start++;
		while (end > start && is_blank(line[end - 1]))
			end--;
		if (start == end)
			continue;

		decoded = b64_decode(line + start, end - start, key);
		if (decoded < 0)
		{
			r->pos = r->len;	/* stop here */
			return KEYFILE_NOT_BASE64;
		}
		*keylen = decoded > INT_MAX ? INT_MAX : (int) decoded;
		if (decoded != 16 && decoded != 24 && decoded != 32)
		{
			memset(key, 0, KEYFILE_MAX_KEY);
			r->pos = r->len;
			return KEYFILE_BAD_LENGTH;
		}
		return KEYFILE_KEY;
	}
	return KEYFILE_END;
}
