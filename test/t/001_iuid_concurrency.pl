
# Concurrent iuid generation: several backends generating at the same time
# into one table with a unique index.  Checks uniqueness across backends,
# strict per-backend monotonicity, the country/entity fields and that every
# id's timestamp lies within the wall-clock window of the run.

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

my $node = start_idgen_node('iuid_concurrency');
$node->safe_psql(
	'postgres', q{
	CREATE TABLE t (sess int, seq int, pid int, id iuid UNIQUE);
	CREATE TABLE run_window (what text PRIMARY KEY, ts timestamptz NOT NULL);
});

# Each pgbench client (a backend of its own) inserts $per_session ids.  All
# clients pass the same country and entity, so nothing but the timestamp and
# the random field tells their ids apart: that is what the uniqueness checks
# exercise (with a field that differed per client, ids of different clients
# could never collide).  The SELECT list is evaluated in generate_series
# order, so seq is the generation order within the backend.
my ($country, $entity) = (7, 42);
my $script = <<"EOF";
INSERT INTO t
  SELECT :client_id, g, pg_backend_pid(), iuid_generate($country, $entity)
  FROM generate_series(1, $per_session) g;
EOF
my $script_file = pgbench_script($node, 'iuid_concurrency.sql', $script);

# A barrier, so the backends really generate at the same time: a transaction
# holds an ACCESS EXCLUSIVE lock on t, every client's INSERT blocks on it
# before generating anything, and the lock is released once all of them wait.
my $barrier = hold_barrier(
	$node,
	lock => 'BEGIN; LOCK TABLE t IN ACCESS EXCLUSIVE MODE',
	unlock => 'COMMIT',
	waiting => "backend_type = 'client backend' AND wait_event_type = 'Lock'");

mark_run_window($node, 'start');

my $pgbench = start_pgbench($node, $sessions, $script_file);
wait_at_barrier($node, $barrier, $sessions, 'INSERT INTO t',
	"all $sessions sessions wait at the barrier");
release_barrier($barrier);

finish_pgbench($pgbench);
mark_run_window($node, 'end');
check_pgbench($pgbench, '', no_errors => 1);

is($node->safe_psql('postgres', 'SELECT count(*) FROM t'),
	$total, "$total rows");

is( $node->safe_psql(
		'postgres',
		'SELECT count(DISTINCT sess) || \'/\' || count(DISTINCT pid) FROM t'),
	"$sessions/$sessions",
	"$sessions sessions, each in its own backend");

is( $node->safe_psql(
		'postgres', qq{
		SELECT count(*) FROM (
			SELECT sess FROM t GROUP BY sess
			HAVING count(*) <> $per_session
			    OR count(DISTINCT seq) <> $per_session) s}),
	'0',
	"each session inserted $per_session ids");

is(count_duplicate_ids($node, 't'), '0', 'no duplicate ids across sessions');

is(count_ids_not_increasing($node, 't', partition_by => 'sess'),
	'0', 'ids strictly increase within each session');

is( $node->safe_psql(
		'postgres', qq{
		SELECT count(*) FROM t
		WHERE iuid_country(id) <> $country
		   OR iuid_entity(id) <> $entity
		   OR iuid_format_version(id) <> 0}),
	'0',
	'country, entity and format version fields equal the arguments');

# The generator truncates the clock to the millisecond; clock_timestamp()
# has microseconds.
is(count_outside_run_window($node, 't', 'iuid_timestamp(id)'),
	'0', 'every timestamp lies within the wall-clock window of the run');

# The sessions really ran at the same time: all per-session [first, last]
# intervals share a common stretch of time (the latest start comes before
# the earliest end).
check_sessions_concurrent($node, 't', 'iuid_timestamp(id)', $sessions, '');

$node->stop;

done_testing();
