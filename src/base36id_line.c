/*
 * base36id_line.c — the lines of sessions waiting for a base36id worker's
 * budget, in shared memory (see base36id_line.h; the lines themselves are
 * src/core/waitline.c).  Members are proc numbers; a member that became
 * first is woken through its process latch.
 */
#include "base36id_line.h"
#include "shmem.h"

#include "core/base36.h"
#include "miscadmin.h"
#include "storage/latch.h"
#include "storage/proc.h"

typedef struct line_shared
{
	int			nmembers;
	wl_line		lines[B36_WORKERS];
	wl_node		members[FLEXIBLE_ARRAY_MEMBER];
} line_shared;

/* every process that can run SQL has a proc number below this */
#define NMEMBERS (MaxBackends + NUM_AUXILIARY_PROCS)

static line_shared *sh = NULL;
wl_line    *base36id_lines = NULL;

static Size
line_size(void)
{
	return add_size(offsetof(line_shared, members),
					mul_size(NMEMBERS, sizeof(wl_node)));
}

static void
line_shmem_init(void *ptr, bool found, LWLockPadded *locks)
{
	sh = ptr;
	base36id_lines = sh->lines;
	if (found)
		return;
	sh->nmembers = NMEMBERS;
	wl_init(sh->lines, B36_WORKERS, sh->members, sh->nmembers);
}

void
base36id_line_init(void)
{
	idgen_shmem_request_sized("idgen_base36id_line", line_size, 0, line_shmem_init);
}

/* this backend's member number, once base36id_line_ready() checked it */
static int	my_member = -1;

void
base36id_line_ready(void)
{
	int			m;

	if (my_member >= 0)
		return;
	Assert(sh != NULL && MyProc != NULL);
#if PG_VERSION_NUM >= 170000
	m = MyProcNumber;
#else
	m = MyProc->pgprocno;
#endif
	if (m < 0 || m >= sh->nmembers)
		elog(ERROR, "process number %d has no place in base36id's line", m);
	my_member = m;
}

/* never fails: an error under the generator's lock would leave it held */
static inline int
me(void)
{
	Assert(my_member >= 0);
	return my_member;
}

bool
base36id_line_waiting(void)
{
	return wl_line_of(sh->members, me()) >= 0;
}

bool
base36id_line_first(void)
{
	return wl_is_first(sh->lines, sh->members, me());
}

int
base36id_line_join(int worker)
{
	Assert(worker >= 0 && worker < B36_WORKERS);
	Assert(!base36id_line_waiting());
	return wl_join(sh->lines, sh->members, worker, me());
}

int
base36id_line_leave(void)
{
	return wl_leave(sh->lines, sh->members, me());
}

void
base36id_line_wake_member(int member)
{
	SetLatch(&GetPGProcByNumber(member)->procLatch);
}
