/*
 * base36id_sync.h — base36id's wait for synchronous standbys: the levels
 * (idgen.base36id_synchronous_commit and the session's synchronous_commit),
 * which standbys are synchronous, and a wait in core's queue that a cancel
 * or a terminate ends with the usual error.
 */
#ifndef IDGEN_BASE36ID_SYNC_H
#define IDGEN_BASE36ID_SYNC_H

#include "postgres.h"

#include "access/xlogdefs.h"

/*
 * Which standbys are synchronous, as a number (a hash of their walsenders'
 * slots, pids and priorities, and of how many are needed): equal numbers at
 * two moments mean the same standbys were synchronous at both.
 * BASE36ID_SYNC_NONE: no synchronous standbys are defined (nothing to wait
 * for, as for a commit).  BASE36ID_SYNC_UNSURE is never the number of any
 * standbys: a reservation during which they changed records it.
 */
#define BASE36ID_SYNC_NONE ((uint64) 0)
#define BASE36ID_SYNC_UNSURE ((uint64) 1)

/* from base36id_gen_init(): defines idgen.base36id_synchronous_commit */
extern void base36id_sync_init(void);

/* the level every reservation is confirmed at: the server's setting */
extern int	base36id_sync_floor(void);

/* the level this session asks for: the floor, or its synchronous_commit if higher */
extern int	base36id_sync_level(void);

/* the synchronous standbys now (see above) */
extern uint64 base36id_sync_standbys(void);

/*
 * Waits until the synchronous standbys have WAL up to lsn at level (a
 * synchronous_commit value above local), as a commit does, or until none
 * are defined.  Woken by the walsenders; a cancel or a terminate ends it
 * with the usual error, whose context names second.
 */
extern void base36id_sync_wait(XLogRecPtr lsn, int level, int64 second);

#endif							/* IDGEN_BASE36ID_SYNC_H */
