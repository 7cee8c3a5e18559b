/*
 * flaxid.c — the 16-character text form of Flax IDs.
 */
#include "flaxid.h"

static const char flax_digits[] =
"-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";

static int
flax_value(char c)
{
	if (c == '-')
		return 0;
	if (c >= '0' && c <= '9')
		return c - '0' + 1;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 11;
	if (c == '_')
		return 37;
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 38;
	return -1;
}

flaxid_parse_status
flaxid_parse(const char *s, idg_u128 *out, size_t *offset)
{
	idg_u128	v = 0;
	size_t		i;

	for (i = 0; s[i] != '\0'; i++)
	{
		int			d = flax_value(s[i]);

		if (d < 0)
		{
			*offset = i;
			return FLAXID_PARSE_BAD_CHAR;
		}
		v = (v << 6) | (unsigned) d;	/* past 16 characters the value is discarded */
	}
	if (i != FLAXID_TEXT_LEN)
	{
		*offset = i;
		return FLAXID_PARSE_LENGTH;
	}
	*out = v;
	return FLAXID_PARSE_OK;
}

void
flaxid_format(idg_u128 v, char out[FLAXID_TEXT_LEN + 1])
{
	int			i;

	for (i = FLAXID_TEXT_LEN - 1; i >= 0; i--)
	{
		out[i] = flax_digits[(unsigned) v & 63];
		v >>= 6;
	}
	out[FLAXID_TEXT_LEN] = '\0';
}
