/*
 * base36id_sync.h — base36id's wait for synchronous standbys: the levels
 * (idgen.base36id_synchronous_commit and the session's synchronous_commit),
 * the shared facts src/core/b36sync.c judges from, and a wait in core's
 * queue that a cancel or a terminate ends with the usual error.
 */
#ifndef IDGEN_BASE36ID_SYNC_H
#define IDGEN_BASE36ID_SYNC_H

#include "postgres.h"

#include "access/xlogdefs.h"
#include "core/b36sync.h"

/* from base36id_gen_init(): defines idgen.base36id_synchronous_commit */
extern void base36id_sync_init(void);

/*
 * The level this session's calls ask for: the floor
 * (idgen.base36id_synchronous_commit), or its synchronous_commit if higher;
 * as every setting, as the session had them when its statement began.
 */
extern int	base36id_sync_level(void);

/* the facts b36s_judge() needs, now (valid until the next call); a b36g_view_fn */
extern void base36id_sync_view(void *arg, b36s_view *v);

/*
 * Waits until the synchronous standbys have WAL up to lsn at level (a
 * synchronous_commit value above local), as a commit does, or until none
 * are defined; if core's queue is past lsn already, for POLL_MS when the
 * caller saw it so (released), else not at all.  Woken by the walsenders; a
 * cancel or a terminate ends it with the usual error, whose context names
 * second.  The caller judges again afterwards.
 */
extern void base36id_sync_wait(XLogRecPtr lsn, int level, int64 second,
							   bool released);

#endif							/* IDGEN_BASE36ID_SYNC_H */
