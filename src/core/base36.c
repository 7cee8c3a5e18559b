/*
 * base36.c — base36id text form and per-worker counter state machine.
 */
#include "base36.h"

static const char b36_digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

b36_parse_status
b36_parse(const char *s, int64_t *out, size_t *offset)
{
	int64_t		v = 0;
	size_t		i;

	for (i = 0; s[i] != '\0'; i++)
	{
		char		c = s[i];
		int			d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'A' && c <= 'Z')
			d = c - 'A' + 10;
		else
		{
			*offset = i;
			return c >= 'a' && c <= 'z' ? B36_PARSE_LOWER : B36_PARSE_BAD_CHAR;
		}
		/* 9 digits cannot overflow; stop accumulating past them */
		if (i < B36_LEN)
			v = v * 36 + d;
	}
	if (i != B36_LEN)
	{
		*offset = i;
		return B36_PARSE_LENGTH;
	}
	*out = v;
	return B36_PARSE_OK;
}

void
b36_format(int64_t v, char out[B36_LEN + 1])
{
	/* unsigned: division by 36 without the fix-ups of a signed one */
	uint64_t	u = (uint64_t) v;
	int			i;

	for (i = B36_LEN - 1; i >= 0; i--)
	{
		out[i] = b36_digits[u % 36];
		u /= 36;
	}
	out[B36_LEN] = '\0';
}

void
b36_state_init(b36_state *st, int64_t hw)
{
	st->second = hw;
	/* a second that may have been used before is treated as used up */
	st->next = hw >= 0 ? B36_COUNTERS : 0;
}

b36_next_status
b36_state_next_of(b36_state *st, int64_t now, int budget, int64_t *second, int *counter,
				  bool *new_second)
{
	*new_second = false;
	if (now > st->second)
	{
		if (now < 0 || now > B36_MAX_SECONDS)
			return B36_NEXT_RANGE;
		st->second = now;
		st->next = 0;
		*new_second = true;
	}
	else if (st->second < 0)
		return B36_NEXT_RANGE;	/* never started, clock before the epoch */

	if (st->next >= budget)
		return B36_NEXT_WAIT;
	*second = st->second;
	*counter = st->next++;
	return B36_NEXT_OK;
}
