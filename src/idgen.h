/*
 * idgen.h — pieces shared by the per-type files of the idgen extension:
 * module initialisation, the clock, time spans and input errors.
 */
#ifndef IDGEN_H
#define IDGEN_H

#include "postgres.h"

#include "fmgr.h"
#if PG_VERSION_NUM >= 160000
#include "nodes/miscnodes.h"
#endif
#include "utils/timestamp.h"

#include "core/monotonic.h"
#include "stats.h"

/*
 * PostgreSQL 18 replaced pg_attribute_noreturn(), written after the
 * declarator, by pg_noreturn, written before the declaration; GCC accepts
 * the attribute before the declaration too, so use 18's spelling everywhere.
 */
#ifndef pg_noreturn
#define pg_noreturn pg_attribute_noreturn()
#endif

/*
 * Called by _PG_init: each piece defines its own settings and asks for its
 * own shared memory (shmem.h).
 */
extern void base36id_init(void);
extern void publicid_init(void);

/*
 * Bits of the sub-millisecond clock fraction on top of the random field of
 * iuid, flaxid and DistributedId128 (about 244 ns, as PostgreSQL 18's
 * uuidv7()): ids of different backends in one millisecond follow real time.
 */
#define IDGEN_FRAC_BITS 12

/* the real-time clock in Unix milliseconds, and nanoseconds into that one */
extern uint64 idgen_clock_now(uint32 *sub_ns);

/*
 * The same without an error, for a caller holding a lock that its error
 * cleanup takes again: false with errno set, then idgen_clock_failed()
 * (58000) once the lock is released.
 */
extern bool idgen_clock_try_ms(uint64 *ms);
pg_noreturn extern void idgen_clock_failed(void);

/*
 * How many of IDGEN_FRAC_BITS the real-time clock resolves (clock_getres,
 * asked once per process): a microsecond clock gives 9, a millisecond one 0.
 */
extern unsigned idgen_clock_frac_bits(void);
extern uint64 idgen_clock_res_ns(void);

/*
 * idgen.sub_millisecond_clock: off leaves the whole random field of iuid,
 * flaxid and DistributedId128 to chance, as their formats describe it.
 */
extern bool idgen_sub_ms_clock;
extern uint64 idgen_clock_ms(void);

/* A type's representable time span, in its own units since its own epoch. */
typedef struct idgen_time_span
{
	const char *typname;
	int64		epoch_unix_ms;	/* the type's epoch, as Unix milliseconds */
	int64		unit_ms;		/* 1 for milliseconds, 1000 for seconds */
	uint64		max_units;		/* largest representable value */
	const char *first;			/* the span in words, for error details */
	const char *last;
	idgen_clock_gen clock_gen;	/* whose clock events idgen_mono_next_now counts */
} idgen_time_span;

/* 22008 for a system clock outside the span */
pg_noreturn extern void idgen_clock_out_of_span(const idgen_time_span *span);

/* floor of ts in the span's units since its epoch; 22008 outside the span */
extern uint64 idgen_timestamp_to_units(TimestampTz ts, const idgen_time_span *span);
extern TimestampTz idgen_units_to_timestamp(uint64 units, const idgen_time_span *span);

/* errdetail naming the offending character of a text input, by position */
extern int	idgen_errdetail_bad_char(const char *input, size_t offset);

/*
 * Errors of input functions and of casts that can fail.  From 16 on they are
 * soft when the caller passed an ErrorSaveContext as fcinfo->context
 * (pg_input_is_valid(), pg_input_error_info(), SQL/JSON's ON ERROR): saved
 * there, and the function returns.  15 has no soft errors: they always throw.
 * idgen_errsave reports and continues where it did not throw; the macros
 * below that end in "return" return (Datum) 0 from the calling function
 * then, as core's ereturn does.
 */
#if PG_VERSION_NUM >= 160000
#define idgen_errsave(escontext, ...) errsave(escontext, __VA_ARGS__)
#else
#define idgen_errsave(escontext, ...) \
	do { (void) (escontext); ereport(ERROR, __VA_ARGS__); } while (0)
#endif

#define idgen_ereturn(escontext, ...) \
	do { idgen_errsave(escontext, __VA_ARGS__); return (Datum) 0; } while (0)

/* 22P02 with a detail, the one message every type's text input uses */
#define idgen_invalid_input_save(escontext, typname, input, detail) \
	idgen_errsave(escontext, \
				  (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), \
				   errmsg("invalid input syntax for type %s: \"%s\"", (typname), (input)), \
				   detail))
#define idgen_invalid_input(escontext, typname, input, detail) \
	do { \
		idgen_invalid_input_save(escontext, typname, input, detail); \
		return (Datum) 0; \
	} while (0)

/* generate the next id of a monotonic stream from the real-time clock */
extern void idgen_mono_next_now(idg_mono *st, const idg_mono_cfg *cfg,
								const idgen_time_span *span, bool clock_bits);
extern void idgen_mono_next_at(idg_mono *st, const idg_mono_cfg *cfg,
							   const idgen_time_span *span, TimestampTz at);

#endif							/* IDGEN_H */
