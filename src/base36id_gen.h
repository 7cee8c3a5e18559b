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

#endif							/* IDGEN_BASE36ID_GEN_H */
