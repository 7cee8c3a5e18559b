/*
 * base62.c — fixed-width base62 blocks.
 */
#include "base62.h"

#include "u128.h"

static const char b62_digits[] =
"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

static int
b62_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 36;
	return -1;
}

void
idg_base62_encode(uint64_t v, int width, char *out)
{
	int			i;

	for (i = width - 1; i >= 0; i--)
	{
		out[i] = b62_digits[v % 62];
		v /= 62;
	}
}

idg_b62_status
idg_base62_decode(const char *s, int width, uint64_t *out, size_t *offset)
{
	idg_u128	v = 0;
	int			i;

	for (i = 0; i < width; i++)
	{
		int			d = b62_value(s[i]);

		if (d < 0)
		{
			*offset = (size_t) i;
			return IDG_B62_BAD_CHAR;
		}
		v = v * 62 + (unsigned) d;
	}
	if (v > UINT64_MAX)
	{
		*offset = 0;
		return IDG_B62_RANGE;
	}
	*out = (uint64_t) v;
	return IDG_B62_OK;
}
