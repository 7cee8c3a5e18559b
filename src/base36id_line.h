/*
 * base36id_line.h — the line of sessions waiting for a base36id worker's
 * budget (1296 ids a second), served first come, first served.
 *
 * One line per worker, in shared memory; a backend waits in at most one.
 * base36id_gen.c keeps it under its own lock: who may take an id is decided
 * together with the counters.  A caller takes an id without waiting only
 * when nobody waits for its worker (base36id_line_empty(): one comparison on
 * the per-id path); otherwise it joins the end of the line and takes one when
 * it is first, then leaves the line and wakes whoever follows.  A backend
 * that leaves on an error or at exit (the generator's cleanup) wakes the next
 * too, so nobody waits for a session that is gone.
 */
#ifndef IDGEN_BASE36ID_LINE_H
#define IDGEN_BASE36ID_LINE_H

#include "postgres.h"

#include "core/waitline.h"

/* from base36id_gen_init(), while shared_preload_libraries is processed */
extern void base36id_line_init(void);

/* the lines, one per worker; NULL without shared memory */
extern wl_line *base36id_lines;

/* whether nobody waits for worker's budget; under the generator's lock */
static inline bool
base36id_line_empty(int worker)
{
	return wl_empty(&base36id_lines[worker]);
}

/*
 * Before this backend joins a line, without the lock: checks that it has a
 * place (an error, should it have none, comes here and not under the lock).
 */
extern void base36id_line_ready(void);

/*
 * The rest, too, is called under the generator's lock, exclusive, except
 * base36id_line_wake(), and after base36id_line_ready().  The calling
 * backend is the member.
 */

/* whether this backend waits in a line, and is first in it */
extern bool base36id_line_waiting(void);
extern bool base36id_line_first(void);

/* joins the end of worker's line; returns how many wait before it */
extern int	base36id_line_join(int worker);

/* leaves its line, if in one; returns who to wake (base36id_line_wake) or -1 */
extern int	base36id_line_leave(void);

extern void base36id_line_wake_member(int member);

/* wakes member (a proc number) that became first, if any; without the lock */
static inline void
base36id_line_wake(int member)
{
	if (unlikely(member >= 0))
		base36id_line_wake_member(member);
}

#endif							/* IDGEN_BASE36ID_LINE_H */
