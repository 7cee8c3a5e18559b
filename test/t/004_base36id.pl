
# base36id generation on one server: the idgen.worker_id setting, ids from
# concurrent backends, the limit of 1296 ids per second, and cancelling a
# call that waits for the next second.
#
# An id is (seconds since 2024, worker, counter): the counters are per worker
# in shared memory, so all backends of the server share them, and at most
# 1296 ids come from one second; the 1297th call waits for the next second.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $worker = 7;

my $node = start_idgen_node('base36id');
$node->safe_psql('postgres', 'CREATE ROLE regress_idgen_user LOGIN');

#
# 1. The setting idgen.worker_id
#

is($node->safe_psql('postgres', 'SHOW idgen.worker_id'),
	'-1', 'idgen.worker_id is unset (-1) by default');

my ($ret, $err) = psql_verbose($node, 'SELECT base36id_generate()');
isnt($ret, 0, 'base36id_generate() fails while idgen.worker_id is unset');
like(
	$err,
	qr/ERROR:  55000: idgen\.worker_id is not set\n/,
	'... with SQLSTATE 55000 and "idgen.worker_id is not set"');
like($err, qr/\nHINT:  [^\n]*ALTER SYSTEM/,
	'... and a hint that mentions ALTER SYSTEM');

# The worker number is the administrator's, the same for every session.
($ret, $err) = psql_verbose($node, "SET idgen.worker_id = $worker");
like(
	$err,
	qr/ERROR:  55P02: parameter "idgen\.worker_id" cannot be changed now/,
	'a session cannot SET idgen.worker_id');
($ret, $err) =
  psql_verbose($node, "SELECT set_config('idgen.worker_id', '$worker', false)");
like(
	$err,
	qr/ERROR:  55P02: parameter "idgen\.worker_id" cannot be changed now/,
	'nor change it with set_config()');

($ret, $err) = psql_verbose($node,
	"ALTER SYSTEM SET idgen.worker_id = $worker",
	connstr => $node->connstr('postgres') . ' user=regress_idgen_user');
like(
	$err,
	qr/ERROR:  42501: permission denied to set parameter "idgen\.worker_id"/,
	'a non-superuser cannot ALTER SYSTEM SET idgen.worker_id');
unlike(
	slurp_file($node->data_dir . '/postgresql.auto.conf'),
	qr/worker_id/,
	'... and postgresql.auto.conf is unchanged');

# A session that exists before the change must pick it up too.
my $old_session = $node->background_psql('postgres', on_error_stop => 0);

$node->safe_psql('postgres', "ALTER SYSTEM SET idgen.worker_id = $worker");
$node->safe_psql('postgres', 'SELECT pg_reload_conf()');
ok($node->poll_query_until('postgres', 'SHOW idgen.worker_id', $worker),
	"after ALTER SYSTEM and a reload, idgen.worker_id is $worker");

is( $node->safe_psql(
		'postgres', 'SELECT base36id_worker(base36id_generate())'),
	$worker,
	"a new session generates ids of worker $worker");
is($old_session->query('SELECT base36id_worker(base36id_generate())'),
	$worker, "a session that existed before the reload generates ids of worker $worker");
is($old_session->{stderr}, '', '... without an error');
$old_session->quit;

#
# 2. Concurrent backends: every backend takes ids from the same counters.
#
# Each call records the id and, right after it, clock_timestamp(): a plpgsql
# loop evaluates the two in this order for sure.  The sessions wait at a
# barrier (an advisory lock held by another session) before generating, so
# that they all generate at the same time and no id waits long for its row.
#

my $sessions = 4;
my $per_session = 1500;
my $total = $sessions * $per_session;

$node->safe_psql(
	'postgres', q{
	CREATE TABLE gen_log (sess int, seq int, pid int, id base36id NOT NULL,
	                      clk timestamptz NOT NULL, clk0 timestamptz NOT NULL);
});
$node->safe_psql(
	'postgres',
	gen_function_sql(
		name => 'gen',
		table => 'gen_log',
		type => 'base36id',
		generate => 'base36id_generate()',
		before => 1,
		barrier => 36));

my $script_file = pgbench_script($node, 'base36id_gen.sql',
	"SELECT gen(:client_id, $per_session);\n");

my $barrier = hold_advisory_barrier($node, 36);

# the last id before the run: the run's first second may be its second
my $pre = $node->safe_psql('postgres', 'SELECT base36id_generate()');

my $pgbench = start_pgbench($node, $sessions, $script_file);
wait_at_barrier($node, $barrier, $sessions, 'SELECT gen(',
	"all $sessions sessions wait at the barrier");
release_barrier($barrier);
check_pgbench($pgbench, '');

is(count_rows_sessions_backends($node, 'gen_log'),
	"$total/$sessions/$sessions",
	"$total ids from $sessions sessions, each in its own backend");

is(count_duplicate_ids($node, 'gen_log'), '0', 'no duplicate ids across backends');
is($node->safe_psql('postgres', "SELECT count(*) FROM gen_log WHERE id <= '$pre'"),
	'0', 'all of them are greater than the id generated before the run');

is( $node->safe_psql(
		'postgres',
		"SELECT count(*) FROM gen_log WHERE base36id_worker(id) <> $worker"),
	'0',
	"every id carries worker $worker");

is(count_ids_not_increasing($node, 'gen_log', partition_by => 'sess'),
	'0', 'ids strictly increase within each backend');

# The id's second is the clock's second when it was generated: it starts at
# or before the clock_timestamp() taken right after it, and not before the
# second of the one taken right before it (the same real-time clock; no
# slack for a backend descheduled in between).  An id from a later second
# (not waiting when a second is used up) or a stale one would fail this.
is( $node->safe_psql(
		'postgres', q{
		SELECT count(*) FROM gen_log
		WHERE clk < base36id_timestamp(id)
		   OR base36id_timestamp(id) < date_trunc('second', clk0)}),
	'0',
	"every id's second is the clock's second when it was generated");
note(
	'largest clock - id time: ',
	$node->safe_psql(
		'postgres', 'SELECT max(clk - base36id_timestamp(id)) FROM gen_log'));

# Per second: at most 1296 ids, and, as one counter serves all backends,
# their counters are exactly 0 .. n-1, except in the second of the id $pre
# generated just before the run, where they continue after it.  (A second
# right after a restart would be different too; there is none here.)
my $per_second = qq{
	SELECT base36id_timestamp(id) AS sec, count(*) AS n,
	       count(DISTINCT base36id_counter(id)) AS distinct_counters,
	       min(base36id_counter(id)) AS lo, max(base36id_counter(id)) AS hi,
	       count(DISTINCT sess) AS nsess,
	       CASE WHEN base36id_timestamp(id) = base36id_timestamp('$pre')
	            THEN base36id_counter('$pre') + 1 ELSE 0 END AS first
	FROM gen_log GROUP BY 1};
is($node->safe_psql('postgres', "SELECT max(n) FROM ($per_second) s"),
	'1296', 'no second has more than 1296 ids, and some have all 1296');
is( $node->safe_psql(
		'postgres', "SELECT count(*) FROM ($per_second) s
		WHERE lo <> first OR hi <> first + n - 1 OR distinct_counters <> n"),
	'0',
	'the counters of each second are exactly 0 .. n-1 (or continue after the previous id)');
# 6000 ids at 1296 per second: the rate limit was reached several times.
cmp_ok(
	$node->safe_psql(
		'postgres', "SELECT count(*) FROM ($per_second) s WHERE n = 1296"),
	'>=', 3,
	'at least 3 seconds were used up');
cmp_ok($node->safe_psql('postgres', "SELECT count(*) FROM ($per_second) s"),
	'>=', 5, "$total ids span at least 5 seconds");
cmp_ok(
	$node->safe_psql(
		'postgres', "SELECT count(*) FROM ($per_second) s WHERE nsess > 1"),
	'>=', 1,
	'the sessions shared the counter of a second');

#
# 3. One session: 3000 ids need 3 seconds; the 1297th id of a second comes
# from the next second, after a wait.
#

$node->safe_psql('postgres', 'SELECT gen(100, 3000)');
my $single_session = 'gen_log WHERE sess = 100';
my $single = "FROM $single_session";
is(count_rows_distinct_ids($node, $single_session),
	'3000/3000', 'one session generated 3000 distinct ids');
is(count_ids_not_increasing($node, $single_session),
	'0', 'they strictly increase in generation order');
is( $node->safe_psql(
		'postgres', "SELECT max(n) FROM (
			SELECT count(*) AS n $single GROUP BY base36id_timestamp(id)) s"),
	'1296', 'at most 1296 of them come from one second');
cmp_ok(
	$node->safe_psql(
		'postgres', "SELECT count(DISTINCT base36id_timestamp(id)) $single"),
	'>=', 3, 'they come from at least 3 seconds');
is( $node->safe_psql(
		'postgres', "SELECT count(*) $single AND clk < base36id_timestamp(id)"),
	'0',
	'no id comes from a second the clock had not reached (the call waited)');
is( $node->safe_psql(
		'postgres',
		"SELECT max(clk) - min(clk) > interval '1 second' $single"),
	't',
	'generating them took more than a second');

#
# 4. A call waiting for the next second can be cancelled.  (A wait here lasts
# less than a second; 005_base36id_clock_back.pl cancels one that would last
# about 30 s, which also tells a wait that only notices the cancel once it
# ends from one that is interrupted.)
#

my $long = $node->background_psql(
	'postgres',
	on_error_stop => 0,
	timeout => 30);
$long->set_query_timer_restart;
my $long_pid = $long->query_safe('SELECT pg_backend_pid()');
# 100000 ids take 78 seconds at 1296 per second.  The query after it is
# already in psql's input, so it runs as soon as the long one ends, and its
# clock_timestamp() tells when that was.
$long->query_until(
	qr/long-start/, q{\echo long-start
SELECT count(base36id_generate()) FROM generate_series(1, 100000);
SELECT 'after', clock_timestamp(), base36id_worker(base36id_generate());
});
ok(wait_for_extension_wait($node, $long_pid),
	'the long generation waits for the next second');

my ($cancelled, $cancel_time) = split /\|/,
  $node->safe_psql('postgres',
	"SELECT pg_cancel_backend($long_pid), clock_timestamp()");
is($cancelled, 't', 'pg_cancel_backend() on it');
my $out = $long->query('SELECT 1');
like(
	$long->{stderr},
	qr/ERROR:  canceling statement due to user request/,
	'the long generation was cancelled');
my ($after_time, $after_worker) = $out =~ /^after\|([^|]*)\|(\d+)$/m;
ok(defined $after_time, 'the session ran the next query')
  or diag("output: $out");
# the generation had more than 70 s to go: a cancel that only stopped it at
# its end would come far later than this bound, however loaded the machine
# (005_base36id_clock_back.pl shows a wait itself interrupted)
my $elapsed = seconds_between($node, $cancel_time, $after_time);
cmp_ok($elapsed, '<', 30, 'the cancelled call ended long before its generation would have');
note("the cancelled call ended within $elapsed s");
is($after_worker, $worker, 'the same session generates ids again afterwards');
$long->quit;

is( $node->safe_psql(
		'postgres',
		'SELECT base36id_worker(base36id_generate()) FROM generate_series(1, 3)'),
	"$worker\n$worker\n$worker",
	'other sessions still generate ids');

$node->stop;

done_testing();
