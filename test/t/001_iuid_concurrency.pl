
# Concurrent iuid generation: several backends generating at the same time
# into one table with a unique index.  Checks uniqueness across backends,
# strict per-backend monotonicity, the country/entity fields and that every
# id's timestamp lies within the wall-clock window of the run.

use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $sessions = 4;
my $per_session = 200_000;
my $total = $sessions * $per_session;

my $node = PostgreSQL::Test::Cluster->new('iuid_concurrency');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'");
$node->start;

$node->safe_psql('postgres', 'CREATE EXTENSION idgen');
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
my $script_file = $node->basedir . '/iuid_concurrency.sql';
PostgreSQL::Test::Utils::append_to_file($script_file, $script);

# A barrier, so the backends really generate at the same time: a transaction
# holds an ACCESS EXCLUSIVE lock on t, every client's INSERT blocks on it
# before generating anything, and the lock is released once all of them wait.
my $locker = $node->background_psql('postgres');
$locker->query_safe('BEGIN; LOCK TABLE t IN ACCESS EXCLUSIVE MODE');

$node->safe_psql('postgres',
	"INSERT INTO run_window VALUES ('start', clock_timestamp())");

my ($pgb_out, $pgb_err) = ('', '');
my $pgbench = IPC::Run::start(
	[
		'pgbench', '--no-vacuum',
		'-h', $node->host, '-p', $node->port,
		'-c', $sessions, '-j', $sessions, '-t', 1,
		'-f', $script_file, 'postgres'
	],
	'>', \$pgb_out, '2>', \$pgb_err,
	IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));

ok( $node->poll_query_until(
		'postgres', qq{
		SELECT count(*) = $sessions FROM pg_stat_activity
		WHERE backend_type = 'client backend'
		  AND wait_event_type = 'Lock'
		  AND query LIKE 'INSERT INTO t%'}),
	"all $sessions sessions wait at the barrier");

$locker->query_safe('COMMIT');
$locker->quit;

my $pgbench_ok = $pgbench->finish;
$node->safe_psql('postgres',
	"INSERT INTO run_window VALUES ('end', clock_timestamp())");

ok($pgbench_ok, 'pgbench exit status is 0')
  or diag("pgbench stdout:\n$pgb_out\npgbench stderr:\n$pgb_err");
like(
	$pgb_out,
	qr{number of transactions actually processed: $sessions/$sessions},
	'every client completed its transaction');
unlike($pgb_err, qr{ERROR|FATAL|abort}i, 'pgbench reports no error');

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

is( $node->safe_psql(
		'postgres', 'SELECT count(*) - count(DISTINCT id) FROM t'),
	'0',
	'no duplicate ids across sessions');

is( $node->safe_psql(
		'postgres', q{
		SELECT count(*) FROM (
			SELECT id, lag(id) OVER (PARTITION BY sess ORDER BY seq) AS prev
			FROM t) s
		WHERE prev IS NOT NULL AND id <= prev}),
	'0',
	'ids strictly increase within each session');

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
is( $node->safe_psql(
		'postgres', q{
		SELECT count(*) FROM t
		WHERE iuid_timestamp(id) < (SELECT date_trunc('milliseconds', ts)
		                            FROM run_window WHERE what = 'start')
		   OR iuid_timestamp(id) > (SELECT ts FROM run_window WHERE what = 'end')}),
	'0',
	'every timestamp lies within the wall-clock window of the run');

# The sessions really ran at the same time: all per-session [first, last]
# intervals share a common stretch of time (the latest start comes before
# the earliest end).
my $overlap = $node->safe_psql(
	'postgres', q{
	WITH s AS (
		SELECT sess, min(iuid_timestamp(id)) AS lo, max(iuid_timestamp(id)) AS hi
		FROM t GROUP BY sess)
	SELECT max(lo) < min(hi), min(hi) - max(lo) FROM s});
my ($overlaps, $common) = split /\|/, $overlap;
is($overlaps, 't', 'the sessions generated concurrently')
  or diag("common interval of all sessions: $common");
note("time all $sessions sessions were generating at once: $common");

$node->stop;

done_testing();
