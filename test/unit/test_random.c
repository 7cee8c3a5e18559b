/*
 * Unit tests of src/random.c, the per-process buffer of random bytes,
 * against stubs of what it takes from PostgreSQL (pg_strong_random,
 * MyProcPid, ereport).
 *
 * The fork bug: PostgreSQL's postmaster forks every backend, so a buffer
 * filled before a fork would be inherited by every child, and sibling
 * backends would hand out the same bytes (and so the same ids).  idgen
 * itself never draws random bytes in the postmaster today, so no test
 * against a running server can make the buffer full at fork time (that is
 * why test/t/002_iuid_fork_random.pl cannot catch the bug); this test plays
 * the postmaster: it fills the buffer, forks two children that set
 * MyProcPid as InitPostmasterChild() does, and compares what each draws.
 *
 * The stub pg_strong_random() returns a stream keyed by the calling pid and
 * its call number, so every refill in every process is distinct and the
 * test is deterministic.
 *
 * Checked to fail: with the pid check in idgen_random_bytes() removed
 * ("if (buffer_owner != MyProcPid) buffer_pos = RANDOM_BUFFER_SIZE;"),
 * test_fork_siblings_differ fails: neither child refills, and both return
 * the parent's buffered bytes, equal to each other and to the parent's next
 * ones.
 */
#include "postgres.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "miscadmin.h"
#include "random.h"

/* random.c's buffer size; a draw of this much always crosses a refill */
#define BUFFER_SIZE 4096
#define DRAW 64

/* ---------- stubs of PostgreSQL ---------- */

int			MyProcPid;

static int	strong_random_calls = 0;
static bool strong_random_fails = false;

static uint64
splitmix(uint64 *s)
{
	uint64		z = (*s += UINT64CONST(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64CONST(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64CONST(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* the stub's output for call number `call` (1-based) in process `pid` */
static void
stream(int pid, int call, uint8 *buf, size_t len)
{
	uint64		s = ((uint64) (uint32) pid << 32) | (uint32) call;
	size_t		i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8) splitmix(&s);
}

bool
pg_strong_random(void *buf, size_t len)
{
	if (strong_random_fails)
		return false;
	strong_random_calls++;
	/* the real pid: a child that kept its parent's MyProcPid still differs */
	stream((int) getpid(), strong_random_calls, buf, len);
	return true;
}

static jmp_buf *error_jump = NULL;
static int	error_code = 0;
static int	error_level = 0;

bool
errstart(int elevel, const char *domain)
{
	error_level = elevel;
	return true;
}

bool
errstart_cold(int elevel, const char *domain)
{
	return errstart(elevel, domain);
}

int
errcode(int sqlerrcode)
{
	error_code = sqlerrcode;
	return 0;
}

int
errmsg(const char *fmt,...)
{
	return 0;
}

void
errfinish(const char *filename, int lineno, const char *funcname)
{
	if (error_level >= ERROR)
	{
		if (error_jump == NULL)
			fail_msg("unexpected ERROR at %s:%d", filename, lineno);
		longjmp(*error_jump, 1);
	}
}

/* ---------- helpers ---------- */

/*
 * Each test starts with a buffer just filled: single bytes are drawn until
 * pg_strong_random() has been called, so the buffer holds the stub's call 1
 * from byte 1 on (byte 0 was handed out).  Whatever an earlier test left is
 * used up on the way; this relies on nothing but buffering.
 */
static int
setup(void **state)
{
	uint8		byte;
	int			n = 0;

	MyProcPid = (int) getpid();
	strong_random_fails = false;
	strong_random_calls = 0;
	while (strong_random_calls == 0 && n++ <= BUFFER_SIZE)
		idgen_random_bytes(&byte, 1);
	assert_int_equal(strong_random_calls, 1);
	return 0;
}

/*
 * Forks a child that does what a backend does (MyProcPid = its pid), draws
 * DRAW bytes and reports them with its count of pg_strong_random() calls.
 */
static pid_t
fork_drawing_child(int fd[2])
{
	pid_t		pid;

	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
	{
		uint8		out[DRAW];
		int			calls_before = strong_random_calls;
		int			refills;

		close(fd[0]);
		MyProcPid = (int) getpid();
		idgen_random_bytes(out, sizeof(out));
		refills = strong_random_calls - calls_before;
		if (write(fd[1], out, sizeof(out)) != sizeof(out) ||
			write(fd[1], &refills, sizeof(refills)) != sizeof(refills))
			_exit(2);
		_exit(0);
	}
	close(fd[1]);
	return pid;
}

static void
read_child(int fd[2], pid_t pid, uint8 *out, int *refills)
{
	int			status;

	assert_int_equal(read(fd[0], out, DRAW), DRAW);
	assert_int_equal(read(fd[0], refills, sizeof(*refills)), sizeof(*refills));
	close(fd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* ---------- tests ---------- */

/*
 * The postmaster fills the buffer, then forks two backends: each backend
 * draws from a buffer it filled itself, so the two, and the postmaster,
 * get different bytes.
 */
static void
test_fork_siblings_differ(void **state)
{
	uint8		parent[DRAW];
	uint8		child1[DRAW];
	uint8		child2[DRAW];
	uint8		expect[1 + DRAW];
	int			refills1;
	int			refills2;
	int			fd1[2];
	int			fd2[2];
	pid_t		pid1;
	pid_t		pid2;

	/* setup() filled the buffer, as if the postmaster had drawn a byte */
	pid1 = fork_drawing_child(fd1);
	pid2 = fork_drawing_child(fd2);
	read_child(fd1, pid1, child1, &refills1);
	read_child(fd2, pid2, child2, &refills2);
	idgen_random_bytes(parent, sizeof(parent));

	/* each child discarded the inherited buffer and filled its own */
	assert_int_equal(refills1, 1);
	assert_int_equal(refills2, 1);
	stream((int) pid1, 2, expect, DRAW);
	assert_memory_equal(child1, expect, DRAW);
	stream((int) pid2, 2, expect, DRAW);
	assert_memory_equal(child2, expect, DRAW);
	assert_memory_not_equal(child1, child2, DRAW);

	/* the parent goes on with its own buffer, where it left it */
	assert_int_equal(strong_random_calls, 1);
	stream((int) getpid(), 1, expect, 1 + DRAW);
	assert_memory_equal(parent, expect + 1, DRAW);
	assert_memory_not_equal(parent, child1, DRAW);
	assert_memory_not_equal(parent, child2, DRAW);
}

/*
 * Within one process the bytes handed out are exactly pg_strong_random()'s
 * output, in order, across refills: none is handed out twice.
 */
static void
test_stream_in_order(void **state)
{
	const size_t total = 3 * BUFFER_SIZE + 100;	/* from byte 1 of call 1 */
	uint8	   *got = test_malloc(total);
	uint8	   *expect = test_malloc(1 + total);
	size_t		pos = 0;
	size_t		step = 1;
	int			call;

	/* draws of varying sizes, some across a refill */
	while (pos < total)
	{
		size_t		n = Min(step, total - pos);

		idgen_random_bytes(got + pos, n);
		pos += n;
		step = step * 3 + 1;
	}
	assert_int_equal(strong_random_calls, 4);
	for (call = 1; call <= 4; call++)
	{
		size_t		off = (size_t) (call - 1) * BUFFER_SIZE;

		stream((int) getpid(), call, expect + off, Min(BUFFER_SIZE, 1 + total - off));
	}
	assert_memory_equal(got, expect + 1, total);
	test_free(got);
	test_free(expect);
}

/* pg_strong_random() failing is an ERROR with SQLSTATE XX000 */
static void
test_refill_failure_is_error(void **state)
{
	jmp_buf		jump;
	uint8		rest[BUFFER_SIZE - 1];
	uint8		out[8];

	idgen_random_bytes(rest, sizeof(rest));	/* empty the buffer */
	strong_random_fails = true;
	error_code = 0;
	error_jump = &jump;
	if (setjmp(jump) == 0)
	{
		idgen_random_bytes(out, sizeof(out));
		error_jump = NULL;
		fail_msg("no error when pg_strong_random() failed");
	}
	error_jump = NULL;
	assert_int_equal(error_level, ERROR);
	assert_int_equal(error_code, ERRCODE_INTERNAL_ERROR);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_fork_siblings_differ, setup),
		cmocka_unit_test_setup(test_stream_in_order, setup),
		cmocka_unit_test_setup(test_refill_failure_is_error, setup),
	};

	return cmocka_run_group_tests_name("idgen random buffer", tests, NULL, NULL);
}
