# distid_generate() and distid128_generate() under concurrent backends, their
# timestamps against the wall clock, and a burst of each in one statement.
#
# The generators follow Architect.Identities 2.x (doc/formats.md, "distid"): one
# generator per backend, strictly increasing within it.  A distid is stamped
# 1000 ms in the past (now - 1 s, to the millisecond); when a millisecond's
# 48-bit random field overflows (about 128 ids), the next id borrows the next
# millisecond, but never the present one (at most now - 1 ms): a burst gets
# about 128K ids at once, then the generator sleeps 1 ms at a time.  A
# DistributedId128 is stamped with the present millisecond (no leeway); its
# millisecond holds about 2^17 ids, more than a backend generates here, so
# its sleep on overflow is left to the unit tests.
#
# Every id is recorded with clock_timestamp() taken right before it (clk0)
# and right after it (clk): a plpgsql loop evaluates the three in this order
# for sure.  The generators read the same real-time clock, truncated to the
# millisecond, in between: an id's time is bounded by the two readings, with
# no slack for a backend descheduled in between, however loaded the machine.
# The bursts run with the server's clock standing still (libfaketime), so
# that how many ids fit in a millisecond is counted, not raced against the
# clock.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $sessions = 4;
my $per_session = 100_000;
my $total = $sessions * $per_session;
my $burst = 50_000;

my $node = start_idgen_node('distid_concurrency', 'fsync = off');

# One table per generator, one unique index on the id column.  gen_*()
# generates p_n ids in the calling backend after passing a barrier (a shared
# advisory lock, held exclusively by another session until every client
# waits for it).
$node->safe_psql(
	'postgres', q{
	CREATE TABLE d (sess int, seq int, pid int, id distid NOT NULL,
	                clk timestamptz NOT NULL, clk0 timestamptz NOT NULL);
	CREATE UNIQUE INDEX d_id ON d (id);
	CREATE TABLE u (sess int, seq int, pid int, id uuid NOT NULL,
	                clk timestamptz NOT NULL, clk0 timestamptz NOT NULL);
	CREATE UNIQUE INDEX u_id ON u (id);
});
$node->safe_psql(
	'postgres',
	gen_function_sql(
		name => 'gen_d',
		table => 'd',
		type => 'distid',
		generate => 'distid_generate()',
		before => 1,
		barrier => 7));
$node->safe_psql(
	'postgres',
	gen_function_sql(
		name => 'gen_u',
		table => 'u',
		type => 'uuid',
		generate => 'distid128_generate()',
		before => 1,
		barrier => 7));

# Runs "SELECT $func(:client_id, $per_session)" in $sessions pgbench clients
# at once, each its own backend (so each has a fresh generator).
sub run_concurrently
{
	my ($func) = @_;

	run_pgbench_at_barrier(
		$node,
		clients => $sessions,
		script_file => pgbench_script(
			$node, "$func.sql", "SELECT $func(:client_id, $per_session);\n"),
		key => 7,
		query_prefix => "SELECT $func(",
		label => "$func: ");
	return;
}

# Checks common to both generators on table $t.  $ord is an expression of id
# that min() and max() order as the ids (uuid has no min() in PostgreSQL 15;
# its canonical text in the C collation sorts in the same order).
sub check_concurrent_run
{
	my ($t, $label, $ord) = @_;

	is(count_rows_sessions_backends($node, $t),
		"$total/$sessions/$sessions",
		"$label: $total ids from $sessions sessions, each in its own backend");

	is(count_sessions_not_numbered($node, $t, $per_session),
		'0', "$label: each session inserted ids 1 .. $per_session");

	is(count_duplicate_ids($node, $t),
		'0', "$label: no duplicate ids across sessions");

	is(count_ids_not_increasing($node, $t, partition_by => 'sess'),
		'0', "$label: ids strictly increase within each session");

	# All per-session [first, last] clock intervals share a common stretch
	# (the latest start comes before the earliest end).
	check_sessions_concurrent($node, $t, 'clk', $sessions, "$label: ");

	# The sessions' ids interleave: no session's ids all lie before or after
	# another's (ids of concurrent sessions share milliseconds).
	is(session_ranges_overlap($node, $t, $ord),
		't', "$label: the id ranges of all sessions overlap");
	return;
}

#
# 1 and 2. distid_generate() in 4 concurrent sessions.
#

run_concurrently('gen_d');
check_concurrent_run('d', 'distid', 'id');

# Every id is stamped at least 1 s before the millisecond of the clock
# reading right before it (the generator read the clock after that), and
# never with the present millisecond or later: the newest millisecond a
# burst may borrow is now - 1 ms, and the clock was read after the id.
is( $node->safe_psql(
		'postgres', q{
		SELECT count(*) FROM d
		WHERE distid_timestamp(id) < date_trunc('milliseconds', clk0) - interval '1 s'
		   OR distid_timestamp(id) > clk - interval '1 ms'}),
	'0',
	"distid: ms(clock before) - 1 s <= distid_timestamp(id) <= clock after - 1 ms for every id");
note(
	'distid: clock - distid_timestamp(id) ranges over ',
	$node->safe_psql(
		'postgres',
		q{SELECT min(clk - distid_timestamp(id)) || ' .. ' || max(clk - distid_timestamp(id))
		  FROM d}));

# A backend's first id has nothing to borrow from: it is stamped with the
# clock's millisecond minus exactly 1000 ms, a millisecond between those of
# the readings before and after it.
is( $node->safe_psql(
		'postgres', q{
		SELECT count(*) FROM d WHERE seq = 1
		   AND distid_timestamp(id) + interval '1 s' BETWEEN date_trunc('milliseconds', clk0)
		                                                 AND date_trunc('milliseconds', clk)}),
	$sessions,
	"distid: each session's first id is stamped 1 s before the clock's millisecond");

#
# 3. distid128_generate() in 4 concurrent sessions.
#

run_concurrently('gen_u');
check_concurrent_run('u', 'distid128', 'id::text COLLATE "C"');

is( $node->safe_psql(
		'postgres', q{
		SELECT count(*) FROM u
		WHERE substr(id::text, 15, 1) <> '7'
		   OR get_byte(uuid_send(id), 8) >= 128}),
	'0',
	'distid128: every id has version nibble 7 and bit 64 clear');

# No leeway: the id carries the clock's millisecond, between the readings
# before and after it.
is( $node->safe_psql(
		'postgres', q{
		SELECT count(*) FROM u
		WHERE distid128_timestamp(id) < date_trunc('milliseconds', clk0)
		   OR distid128_timestamp(id) > clk}),
	'0',
	"distid128: ms(clock before) <= distid128_timestamp(id) <= clock after for every id");
note(
	'distid128: clock - distid128_timestamp(id) ranges over ',
	$node->safe_psql(
		'postgres',
		q{SELECT min(clk - distid128_timestamp(id)) || ' .. ' || max(clk - distid128_timestamp(id))
		  FROM u}));

#
# 4. A distid burst: $burst ids in one statement (SELECT burst_d(...)) of a
# new backend, the server's clock standing still at a whole second T.
#
# About 128 ids fit in a millisecond: the first id is stamped T - 1 s, the
# next ones borrow the milliseconds up to T - 1 ms (about 128K ids at once),
# so $burst ids fit without the generator waiting for the clock (which would
# wait forever here: a generator that waited at every used-up millisecond
# instead of borrowing fails by the test's timeout).  How many milliseconds
# they take is a count, not a race with the clock.  The ids and the clock
# readings around them are collected in arrays (no INSERT per id).
#

# the server under libfaketime from here on, its clock running ("+0") until
# frozen; an absolute time in the file is read in the server's time zone
my $clock = $node->basedir . '/faketime.rc';
set_clock_offset($clock, '+0');
$node->stop;
{
	local $ENV{TZ} = 'UTC';
	with_faketime($clock, sub { $node->start });
}
my $frozen = $node->safe_psql('postgres',
	q{SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')});
set_clock_offset($clock, $frozen);
# (pg_sleep() would never end now: it counts by this clock)
is( $node->safe_psql('postgres', qq{SELECT clock_timestamp() = '$frozen+00'})
	  . $node->safe_psql('postgres', qq{SELECT clock_timestamp() = '$frozen+00'}),
	'tt', "the server's clock stands still at $frozen");

$node->safe_psql(
	'postgres', q{
	CREATE FUNCTION burst_d(p_n int)
	RETURNS TABLE (seq bigint, id distid, clk timestamptz)
	LANGUAGE plpgsql AS $$
	DECLARE
		v_ids distid[];
		v_clks timestamptz[];
	BEGIN
		FOR i IN 1 .. p_n LOOP
			v_ids[i] := distid_generate();
			v_clks[i] := clock_timestamp();
		END LOOP;
		RETURN QUERY SELECT s.o, s.i, s.c
			FROM unnest(v_ids, v_clks) WITH ORDINALITY AS s(i, c, o);
	END $$;
});
$node->safe_psql('postgres',
	"CREATE UNLOGGED TABLE burst AS SELECT * FROM burst_d($burst)");

is(count_rows_distinct_ids($node, 'burst'),
	"$burst/$burst", "burst: $burst distinct ids");

is(count_ids_not_increasing($node, 'burst'),
	'0', 'burst: ids strictly increase in generation order');

# Borrowing stops short of the present: no id carries the present
# millisecond or a later one.
is( $node->safe_psql(
		'postgres', qq{
		SELECT count(*) FROM burst WHERE distid_timestamp(id) > timestamptz '$frozen+00' - interval '1 ms'
		   OR clk <> '$frozen+00'}),
	'0',
	'burst: no id is stamped later than the clock - 1 ms (none in the future)');

is( $node->safe_psql(
		'postgres', qq{
		SELECT distid_timestamp(id) = timestamptz '$frozen+00' - interval '1 s'
		FROM burst WHERE seq = 1}),
	't',
	'burst: the first id is stamped 1 s before the clock');

my ($ms, $reach) = split /\|/, $node->safe_psql(
	'postgres', qq{
	SELECT count(DISTINCT distid_timestamp(id)),
	       extract(epoch FROM max(distid_timestamp(id)) - (timestamptz '$frozen+00' - interval '1 s')) * 1000
	FROM burst});
note("burst: $burst ids in $ms distinct milliseconds, reaching $reach ms past the first");

# About 128 ids per millisecond: the 48-bit random field takes increments of
# up to 2^41 (2^40 on average) from a random start.
cmp_ok($ms, '>=', int($burst / 200),
	'burst: at most ~200 ids per millisecond on average');
cmp_ok($ms, '<=', int($burst / 80),
	'burst: at least ~80 ids per millisecond on average');

# The burst borrowed: with the clock still, its ids went on to later
# milliseconds (a generator that waited at every used-up millisecond would
# have stayed at the first)
cmp_ok($reach, '>=', int($burst / 200),
	'burst: borrowed milliseconds carried the ids past the first millisecond, one after another');

#
# 5. A DistributedId128 burst: $burst128 ids in one statement of a new
# backend, the clock still standing.  No leeway and no borrowing: every id
# carries the clock's millisecond.  Its 75-bit random field takes increments
# below 2^58, so a millisecond has room for about 2^17 ids (against
# distid's ~128): all of them fit in the one millisecond the clock shows.
#

my $burst128 = 20_000;
$node->safe_psql(
	'postgres', qq{
	CREATE UNLOGGED TABLE burst128 (seq int, id uuid NOT NULL);
	INSERT INTO burst128 SELECT g, distid128_generate() FROM generate_series(1, $burst128) g;});

is(count_rows_distinct_ids($node, 'burst128'),
	"$burst128/$burst128", "burst128: $burst128 distinct ids");

is(count_ids_not_increasing($node, 'burst128'),
	'0', 'burst128: ids strictly increase in generation order');

is( $node->safe_psql(
		'postgres', qq{
		SELECT count(*) FROM burst128
		WHERE distid128_timestamp(id) <> timestamptz '$frozen+00'}),
	'0',
	"burst128: every id is stamped with the clock's millisecond (no leeway, no id in the future)");

my $busiest = $node->safe_psql('postgres',
	q{SELECT max(n) FROM (SELECT count(*) AS n FROM burst128 GROUP BY distid128_timestamp(id)) s});
cmp_ok($busiest, '>', 400,
	'burst128: a millisecond holds more than 400 ids (far above distid\'s ~128)');

set_clock_offset($clock, '+0');
$node->stop;

done_testing();
