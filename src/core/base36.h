/*
 * base36.h — the base36id format (ADR 13, doc/formats.md): 9 upper-case base-36
 * characters, [6: seconds since 2024-01-01Z][1: worker][2: counter], stored
 * as the base-36 number itself so integer order is text order.
 */
#ifndef IDGEN_CORE_BASE36_H
#define IDGEN_CORE_BASE36_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define B36_LEN 9
#define B36_WORKERS 36
#define B36_COUNTERS 1296					/* 36^2 per second */
#define B36_MAX_SECONDS INT64_C(2176782335)	/* 36^6 - 1 */
#define B36_MAX_VALUE INT64_C(101559956668415)	/* 36^9 - 1 */
#define B36_EPOCH_UNIX_S INT64_C(1704067200)	/* 2024-01-01T00:00:00Z */

static inline int64_t
b36_compose(int64_t seconds, int worker, int counter)
{
	return (seconds * B36_WORKERS + worker) * B36_COUNTERS + counter;
}

static inline int64_t
b36_seconds(int64_t v)
{
	return v / (B36_WORKERS * B36_COUNTERS);
}

static inline int
b36_worker(int64_t v)
{
	return (int) (v / B36_COUNTERS % B36_WORKERS);
}

static inline int
b36_counter(int64_t v)
{
	return (int) (v % B36_COUNTERS);
}

typedef enum b36_parse_status
{
	B36_PARSE_OK = 0,
	B36_PARSE_LOWER,			/* a lower-case letter */
	B36_PARSE_BAD_CHAR,			/* anything else outside 0-9A-Z */
	B36_PARSE_LENGTH			/* valid characters, but not 9 of them */
} b36_parse_status;

/* on failure *offset is the offending byte (characters) or the length */
extern b36_parse_status b36_parse(const char *s, int64_t *out, size_t *offset);

/* v in 0 .. B36_MAX_VALUE; writes 9 characters and a NUL */
extern void b36_format(int64_t v, char out[B36_LEN + 1]);

/*
 * The per-worker counter: the second in use and the next counter in it.
 * The second never goes backwards: with the clock behind, the last second
 * is used up, then the caller must wait for the clock to pass it.
 */
typedef struct b36_state
{
	int64_t		second;			/* -1: none yet */
	int32_t		next;			/* next counter; B36_COUNTERS: used up */
} b36_state;

typedef enum b36_next_status
{
	B36_NEXT_OK = 0,
	B36_NEXT_WAIT,				/* used up: wait until the clock passes st->second */
	B36_NEXT_RANGE				/* the clock is outside 2024 .. 2092 */
} b36_next_status;

/* a fresh state, or one after a restart that must not reuse second hw */
extern void b36_state_init(b36_state *st, int64_t hw);

/*
 * Issue the next (second, counter) at clock reading now (seconds since the
 * epoch, floor).  *new_second tells that the second advanced: the caller
 * must make that second durable before handing out the id.
 */
extern b36_next_status b36_state_next_of(b36_state *st, int64_t now, int budget,
										 int64_t *second, int *counter, bool *new_second);

/* the same, with budget counters a second (1 .. B36_COUNTERS; the simulation uses fewer) */
static inline b36_next_status
b36_state_next(b36_state *st, int64_t now, int64_t *second, int *counter, bool *new_second)
{
	return b36_state_next_of(st, now, B36_COUNTERS, second, counter, new_second);
}

#endif							/* IDGEN_CORE_BASE36_H */
