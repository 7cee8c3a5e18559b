/*
 * base36id_gen.h — the server-wide base36id generator: counters in shared
 * memory and the high-water second, made durable in a state file and in WAL
 * (a custom WAL resource manager) before any id of a new second is handed out.
 */
#ifndef IDGEN_BASE36ID_GEN_H
#define IDGEN_BASE36ID_GEN_H

#include "postgres.h"

/* from base36id_init(), while shared_preload_libraries is processed */
extern void base36id_gen_init(void);

/* whether shared memory was set up: idgen is in shared_preload_libraries */
extern bool base36id_gen_loaded(void);

/*
 * The next id of worker (0-35) as its int8 value.  Errors: during recovery (25006), a damaged state file, I/O errors.  Returns false
 * when the clock is outside base36id's span (the caller reports it).
 */
extern bool base36id_gen_next(int worker, int64 *value);

/* monitoring (the view, in base36id.c): the generator's state, read under its lock */
typedef struct base36id_gen_snap
{
	int64		floor;			/* counters start used up at this second */
	int64		reserved;		/* highest second reserved, -1: none */
	int64		file_second;	/* highest second in the state file, -1: none */
	const char *state_file;		/* "ok", "missing" or what is damaged */
	int64		worker_second;	/* the worker's second in use */
	int			worker_used;	/* counters of it used (or skipped) */
	int64		clock_second;	/* the clock, read under the lock */
} base36id_gen_snap;

/* false without shared memory; worker -1 leaves the worker's fields at -1 */
extern bool base36id_gen_snapshot(int worker, base36id_gen_snap *snap);

#endif							/* IDGEN_BASE36ID_GEN_H */
