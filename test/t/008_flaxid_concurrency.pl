
# flaxid_generate() under concurrent backends: uniqueness across backends,
# strict per-backend monotonicity, timestamps against the wall clock, text
# order = binary order for the ids of a concurrent run, and two backends
# forked by the same postmaster drawing independent random bytes.
#
# A flaxid is (ms since 2015-01-01Z << 56) | random56 (doc/formats.md, "flaxid").
# The generator is RFC 9562 "monotonic random", one state per backend: a new
# millisecond takes a fresh random field with its top bit clear, the same
# millisecond adds a fresh random increment >= 1 to the last random field.
# Nothing but the timestamp and the random field tells the ids of two
# backends apart, so the uniqueness checks exercise exactly those.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $sessions = 4;
my $per_session = 200_000;
my $total = $sessions * $per_session;

my $node = start_idgen_node('flaxid_concurrency', 'fsync = off');

# t: the concurrent run, one unique index on the id column.  r: the two
# backends of part 3, without a unique index (collisions are counted, not
# refused).  gen_t() and gen_r() generate p_n ids in the calling backend
# after passing a barrier (a shared advisory lock, held exclusively by
# another session until every client waits for it).
#
# gen_t() generates with one INSERT ... SELECT: its SELECT list is evaluated
# in generate_series order, so seq is the generation order within the
# backend.  gen_r() generates one id at a time and sleeps 1 ms after every
# tenth, so the two backends of part 3 generate side by side for about
# p_n / 10 milliseconds, each with runs of ids in one millisecond (random
# increments) and ids starting a new millisecond (fresh random fields).
$node->safe_psql(
	'postgres', q{
	CREATE TABLE t (sess int, seq int, pid int, id flaxid NOT NULL);
	CREATE UNIQUE INDEX t_id ON t (id);
	CREATE TABLE r (sess int, seq int, pid int, id flaxid NOT NULL);
	CREATE TABLE run_window (what text PRIMARY KEY, ts timestamptz NOT NULL);

	CREATE FUNCTION gen_t(p_sess int, p_n int) RETURNS void
	LANGUAGE plpgsql AS $$
	BEGIN
		PERFORM pg_advisory_lock_shared(8);	-- the barrier
		PERFORM pg_advisory_unlock_shared(8);
		INSERT INTO t
			SELECT p_sess, g, pg_backend_pid(), flaxid_generate()
			FROM generate_series(1, p_n) g;
	END $$;

	CREATE FUNCTION gen_r(p_sess int, p_n int) RETURNS void
	LANGUAGE plpgsql AS $$
	BEGIN
		PERFORM pg_advisory_lock_shared(8);	-- the barrier
		PERFORM pg_advisory_unlock_shared(8);
		FOR i IN 1 .. p_n LOOP
			INSERT INTO r VALUES (p_sess, i, pg_backend_pid(), flaxid_generate());
			IF i % 10 = 0 THEN
				PERFORM pg_sleep(0.001);
			END IF;
		END LOOP;
	END $$;

	-- the parts of an id, from its 12 big-endian bytes: 5 bytes of
	-- milliseconds, 7 bytes of random field
	CREATE FUNCTION ms_of(flaxid) RETURNS bigint
	LANGUAGE sql IMMUTABLE STRICT AS
	$$ SELECT ('x' || encode(substr(flaxid_send($1), 1, 5), 'hex'))::bit(40)::bigint $$;
	CREATE FUNCTION rand_of(flaxid) RETURNS bigint
	LANGUAGE sql IMMUTABLE STRICT AS
	$$ SELECT ('x' || encode(substr(flaxid_send($1), 6, 7), 'hex'))::bit(56)::bigint $$;
});

# Runs "SELECT $func(:client_id, $n)" in $clients pgbench clients at once,
# each its own backend (so each has a fresh generator).  pgbench connects
# every client before any runs its script, and the barrier holds them all
# until every one waits.
sub run_concurrently
{
	my ($func, $clients, $n) = @_;

	run_pgbench_at_barrier(
		$node,
		clients => $clients,
		script_file =>
		  pgbench_script($node, "$func.sql", "SELECT $func(:client_id, $n);\n"),
		key => 8,
		query_prefix => "SELECT $func(",
		label => "$func: ",
		no_errors => 1);
	return;
}

#
# 1. flaxid_generate() in $sessions concurrent sessions, into one table with a
# unique index on the id.
#

mark_run_window($node, 'start');
run_concurrently('gen_t', $sessions, $per_session);
mark_run_window($node, 'end');

is(count_rows_sessions_backends($node, 't'),
	"$total/$sessions/$sessions",
	"$total ids from $sessions sessions, each in its own backend");

is(count_sessions_not_numbered($node, 't', $per_session),
	'0', "each session inserted ids 1 .. $per_session");

is(count_duplicate_ids($node, 't'), '0', 'no duplicate ids across sessions');

is(count_ids_not_increasing($node, 't', partition_by => 'sess'),
	'0', 'ids strictly increase within each session');

# The generator truncates the clock to the millisecond; clock_timestamp()
# has microseconds.  A millisecond holds millions of ids (random increments
# are far smaller than the random field), so no id borrows a millisecond
# past the end of the run.
is(count_outside_run_window($node, 't', 'flaxid_timestamp(id)'),
	'0', 'every timestamp lies within the wall-clock window of the run');
note(
	'run window ',
	$node->safe_psql(
		'postgres',
		q{SELECT string_agg(what || ' ' || ts, ', ' ORDER BY ts) FROM run_window}),
	'; ids stamped ',
	$node->safe_psql(
		'postgres',
		q{SELECT min(flaxid_timestamp(id)) || ' .. ' || max(flaxid_timestamp(id)) FROM t}));

# The sessions really ran at the same time: all per-session [first, last]
# intervals share a common stretch of time (the latest start comes before
# the earliest end).
check_sessions_concurrent($node, 't', 'flaxid_timestamp(id)', $sessions, '');

# and their ids interleave: no session's ids all lie before or after another's
is(session_ranges_overlap($node, 't', 'id'),
	't', 'the id ranges of all sessions overlap');

#
# 2. Text order equals binary order for the ids of the concurrent run: the
# alphabet's ASCII order is its numeric order, so sorting the 16-character
# text forms in the C collation sorts the ids.
#

is( $node->safe_psql(
		'postgres', q{
		SELECT (SELECT array_agg(id ORDER BY id) FROM t)
		     = (SELECT array_agg(id ORDER BY id::text COLLATE "C") FROM t)}),
	't',
	"text order (C collation) equals binary order for all $total ids");

# and the same seen from the text side, with a count of the pairs out of order
is( $node->safe_psql(
		'postgres', q{
		SELECT count(*) FROM (
			SELECT id::text COLLATE "C" AS s,
			       lag(id::text COLLATE "C") OVER (ORDER BY id) AS prev
			FROM t) x
		WHERE prev IS NOT NULL AND s <= prev}),
	'0',
	'in id order, every text form is greater than the one before');

#
# 3. Two backends forked by the same postmaster draw independent random bytes.
#
# idgen draws CSPRNG bytes a buffer at a time into a per-process buffer
# (src/random.c).  A buffer filled in the postmaster and inherited by its
# children would make sibling backends hand out the same bytes in the same
# order: the k-th id of each would take the same draw.  flaxid has no
# backfill form (iuid's test, 002, pins every id to one millisecond), so the
# two backends generate at the same time, both connected before either
# generates, and the draws are compared as they surface in the ids:
#  - a new millisecond's random field is a fresh draw (top bit cleared):
#    with shared bytes, the two backends' first ids alone would carry the
#    same random field, whatever their milliseconds;
#  - an id in the same millisecond as the one before adds a fresh random
#    increment: with shared bytes, the k-th increments of the two backends
#    would be equal.
# Identical draws in the same millisecond would give identical ids, so the
# sets of ids are compared too, though ids of different milliseconds differ
# anyway.
#

my $r_per_session = 1000;
run_concurrently('gen_r', 2, $r_per_session);

is(count_rows_sessions_backends($node, 'r'),
	2 * $r_per_session . '/2/2',
	"2 sessions of $r_per_session ids, each in its own backend");

is(count_ids_not_increasing($node, 'r', partition_by => 'sess'),
	'0', '2 sessions: ids strictly increase within each session');

is( $node->safe_psql(
		'postgres', q{
		SELECT count(*) FROM (
			SELECT id FROM r GROUP BY id HAVING count(DISTINCT sess) > 1) s}),
	'0',
	"2 sessions: the sessions' sets of ids are disjoint");

# The comparisons below mean something only if the backends generated side
# by side: they shared milliseconds.
my $shared_ms = $node->safe_psql(
	'postgres', q{
	SELECT count(*) FROM (
		SELECT ms_of(id) FROM r GROUP BY 1 HAVING count(DISTINCT sess) = 2) s});
cmp_ok($shared_ms, '>', 0, '2 sessions: both generated ids in the same milliseconds');
note("2 sessions: $shared_ms milliseconds hold ids of both sessions");

is( $node->safe_psql(
		'postgres', q{
		SELECT count(*) FROM r a JOIN r b
		  ON ms_of(a.id) = ms_of(b.id) AND rand_of(a.id) = rand_of(b.id)
		WHERE a.sess < b.sess}),
	'0',
	'2 sessions: ids of the same millisecond have different random fields');

# Stronger: no random field of one session occurs in the other, in any
# millisecond.  Independent 55-bit draws meet with probability about
# 1000 * 1000 / 2^55; shared bytes make at least the first ids' fields equal.
is( $node->safe_psql(
		'postgres', q{
		SELECT count(*) FROM
		  (SELECT DISTINCT sess, rand_of(id) AS v FROM r) a
		  JOIN (SELECT DISTINCT sess, rand_of(id) AS v FROM r) b USING (v)
		WHERE a.sess < b.sess}),
	'0',
	'2 sessions: no random field of one session occurs in the other');

is( $node->safe_psql(
		'postgres', q{
		SELECT count(DISTINCT rand_of(id)) FROM r WHERE seq = 1}),
	'2',
	"2 sessions: the sessions' first ids have different random fields");

# The increments, position by position: the k-th id of a session that stays
# in the millisecond of the (k-1)-th adds a random increment.  Increments are
# drawn from a wide range (32 bits today), so equal increments at the same
# position of both sessions are rare by chance; with shared bytes nearly all
# positions where both sessions incremented would match.  A small allowance
# keeps this robust against a narrower increment range.
my ($both_inc, $same_inc) = split /\|/, $node->safe_psql(
	'postgres', q{
	WITH d AS (
		SELECT sess, seq,
		       rand_of(id) - lag(rand_of(id)) OVER w AS inc,
		       ms_of(id) = lag(ms_of(id)) OVER w AS same_ms
		FROM r WINDOW w AS (PARTITION BY sess ORDER BY seq))
	SELECT count(*), count(*) FILTER (WHERE a.inc = b.inc)
	FROM d a JOIN d b USING (seq)
	WHERE a.sess < b.sess AND a.same_ms AND b.same_ms});
note("2 sessions: $both_inc positions where both sessions added an increment, "
	  . "$same_inc of them equal");
cmp_ok($both_inc, '>', 100,
	'2 sessions: both sessions added increments at many of the same positions');
cmp_ok($same_inc, '<=', $both_inc / 100,
	'2 sessions: the increments at the same positions differ (at most 1% equal)');

$node->stop;

done_testing();
