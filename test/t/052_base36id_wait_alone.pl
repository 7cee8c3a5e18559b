
# base36id: a caller that waits for synchronous standbys waits alone; the
# sessions that need no such wait keep getting the whole of each second's
# budget (issue 45's live proof).
#
# A primary with one synchronous standby.  A streaming session asks for
# ids without end (each one recorded with the server's clock_timestamp()
# when it came), so it uses up each second's 1296 ids early in the second
# and then waits for the next, first in line: there is always a line.  A
# waiter arrives while it waits there, and must wait for the standby:
#  1. the standby's replay is paused, the waiter at remote_apply, the
#     streaming session at on (the standby flushes: on is met).  A fresh
#     session at on asking for one id gets it promptly too.  Once replay
#     resumes, the waiter returns its id.
#  2. the floor at local, the streaming session at off, the waiter at on,
#     the standby's walsender stopped (SIGSTOP).  Once it goes on
#     (SIGCONT), the waiter returns its id.
#  3. on a server with injection points (the 18 build): as 1, the waiter
#     held at idgen-b36-wait (judged unconfirmed, before its wait).  Woken,
#     it waits for the replay, and returns its id once replay resumes.
# Each time, over 8 whole seconds of the server's clock during which the
# waiter was seen waiting before and after, the streaming session must get
# at least 1000 ids a second.
#
# Why the rate bound holds on a loaded machine: the budget, not the CPU,
# sets the rate.  Taking 1296 ids (an INSERT each) costs a few tens of ms
# a second, and the ids of a second are taken early in it, so whole
# seconds count whole budgets: about 1296 a second.  A second lost
# altogether (the session not scheduled for a whole second) still leaves
# 7 * 1296 / 8 = 1134 a second.  A streaming session held behind the
# waiter gets almost none.
#
# Red on the code before issue 45's fix (6dcf86e), where the first in line
# kept its place through its standby wait: see CONTRIBUTING.md.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# whole seconds measured while a waiter waits, and the rate they must keep
my $window = 8;
my $min_rate = 1000;

# a stopped walsender must not be timed out meanwhile
my $primary = start_idgen_primary('b36wa_primary', 'idgen.worker_id = 5',
	'wal_sender_timeout = 0');
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('b36wa_standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->append_conf('postgresql.conf', 'wal_receiver_timeout = 0');
$standby->start;
ok(set_sync_names($primary, 'FIRST 1 (b36wa_standby)', 'b36wa_standby=sync'),
	'the standby is synchronous');

# The streaming session: ids until the test releases advisory lock 52,
# each with the time it came.  one_id_seconds(): how long one id takes.
$primary->safe_psql(
	'postgres', q{
	CREATE TABLE streamed (sess text, id base36id, at timestamptz);
	CREATE FUNCTION stream_ids(p_sess text) RETURNS bigint
	LANGUAGE plpgsql AS $$
	DECLARE n bigint := 0;
	BEGIN
		LOOP
			INSERT INTO streamed VALUES (p_sess, base36id_generate(), clock_timestamp());
			n := n + 1;
			EXIT WHEN n % 50 = 0 AND pg_try_advisory_xact_lock_shared(52);
		END LOOP;
		RETURN n;
	END $$;
	CREATE FUNCTION one_id_seconds() RETURNS float8
	LANGUAGE plpgsql AS $$
	DECLARE t0 timestamptz := clock_timestamp();
	BEGIN
		PERFORM base36id_generate();
		RETURN extract(epoch FROM clock_timestamp() - t0);
	END $$;});
my $holder = $primary->background_psql('postgres');

# a session at synchronous_commit $level (its connection's options) that
# runs $sql in the background, as start_call
sub call_at
{
	my ($level, $sql, %opt) = @_;
	local $ENV{PGOPTIONS} = "-c synchronous_commit=$level";
	return start_call($primary, $sql, %opt);
}

# starts a session streaming ids as $sess at $level; returns once it has
# used up a second's budget and waits for the next, first in line
sub start_streaming
{
	my ($sess, $level) = @_;
	$holder->query_safe('SELECT pg_advisory_lock(52)');
	my ($session, $pid) = call_at($level, "SELECT stream_ids('$sess');");
	ok( $primary->poll_query_until(
			'postgres',
			"SELECT wait_event IN ('Base36idNextSecond', 'PgSleep') FROM pg_stat_activity WHERE pid = $pid"
		),
		"$sess, at $level, uses up a second's ids and waits for the next, first in line");
	return ($session, $pid);
}

# whether backend $pid is in its wait: $predicate over pg_stat_activity
sub waits
{
	my ($pid, $predicate) = @_;
	return $primary->safe_psql('postgres',
		"SELECT state = 'active' AND $predicate FROM pg_stat_activity WHERE pid = $pid");
}

# The window: the whole seconds from the one after now, $window of them;
# returns once the server's clock has passed them (Unix seconds [s0, s1)).
sub measure_window
{
	my $s0 = $primary->safe_psql('postgres',
		'SELECT floor(extract(epoch FROM clock_timestamp()))::bigint + 1');
	my $s1 = $s0 + $window;
	$primary->poll_query_until('postgres',
		"SELECT clock_timestamp() >= to_timestamp($s1)")
	  or die "the server's clock never reached $s1";
	return ($s0, $s1);
}

# stops the streaming session (releases the lock) and waits for its end
# (held behind a waiter, it ends only after the waiter); its ids are then
# committed
sub stop_streaming
{
	my ($sess, $session) = @_;
	$holder->query_safe('SELECT pg_advisory_unlock(52)');
	my $out = $session->query('SELECT 1');
	like($out, qr/^\d+$/m, "$sess ends, with the count of its ids")
	  or diag("stderr: $session->{stderr}");
	$session->quit;
	return;
}

# checks $sess's ids in [s0, s1): at least $min_rate a second
sub check_rate
{
	my ($sess, $s0, $s1, $while) = @_;
	my ($count, $per_second) = split /\|/,
	  $primary->safe_psql(
		'postgres', qq{
		SELECT sum(n), string_agg(n::text, ' ' ORDER BY s) FROM (
			SELECT s, (SELECT count(*) FROM streamed
			           WHERE sess = '$sess'
			             AND at >= to_timestamp(s) AND at < to_timestamp(s + 1)) AS n
			FROM generate_series($s0, $s1 - 1) AS s) c});
	cmp_ok($count / ($s1 - $s0), '>=', $min_rate,
		"$sess gets at least $min_rate ids a second while $while")
	  or diag("$sess got $count ids in the $window seconds from $s0, a second each: $per_second");
	note("$sess, a second each: $per_second");
	return;
}

# polls until backend $pid's statement is over; then checks it printed an id
sub check_returns
{
	my ($session, $pid, $test_name) = @_;
	ok( $primary->poll_query_until(
			'postgres', "SELECT state = 'idle' FROM pg_stat_activity WHERE pid = $pid"),
		"$test_name: its statement ends");
	my $out = $session->query('SELECT 1');
	like($out, qr/^[0-9A-Z]{9}$/m, "$test_name, with an id")
	  or diag("stderr: $session->{stderr}");
	$session->quit;
	return;
}

sub pause_replay
{
	$standby->safe_psql('postgres', 'SELECT pg_wal_replay_pause()');
	ok( $standby->poll_query_until(
			'postgres', "SELECT pg_get_wal_replay_pause_state() = 'paused'"),
		"the standby's replay is paused");
	return;
}

#
# 1. remote_apply waits for the paused replay; on streams
#
pause_replay();
my ($b1, $b1_pid) = start_streaming('b1', 'on');
my ($a1, $a1_pid) = call_at('remote_apply', 'SELECT base36id_generate();');
ok( $primary->poll_query_until(
		'postgres', "SELECT wait_event = 'SyncRep' FROM pg_stat_activity WHERE pid = $a1_pid"),
	'a call at remote_apply waits for the replay');
my ($s0, $s1) = measure_window();
my ($ret, $out, $err) = $primary->psql('postgres',
	"SET statement_timeout = '15s'; SELECT one_id_seconds()");
ok($ret == 0 && $out < 5,
	'meanwhile a fresh session at on gets one id within 5 s (server\'s clock)')
  or diag("status $ret, seconds: $out, stderr: $err");
note("the fresh session's id took $out s") if $ret == 0;
is(waits($a1_pid, "wait_event = 'SyncRep'"), 't',
	'the call at remote_apply still waits');
$standby->safe_psql('postgres', 'SELECT pg_wal_replay_resume()');
check_returns($a1, $a1_pid, 'once replay resumes, the call at remote_apply returns');
stop_streaming('b1', $b1);
check_rate('b1', $s0, $s1, 'the call at remote_apply waits');

#
# 2. the floor at local: on waits for a stopped walsender; off streams
#
$primary->safe_psql('postgres',
	"ALTER SYSTEM SET idgen.base36id_synchronous_commit = local; SELECT pg_reload_conf()");
ok( $primary->poll_query_until(
		'postgres', 'SHOW idgen.base36id_synchronous_commit', 'local'),
	'the floor is local');
my ($b2, $b2_pid) = start_streaming('b2', 'off');
my $walsender = $primary->safe_psql('postgres', 'SELECT pid FROM pg_stat_replication');
ok(kill('STOP', $walsender), 'the walsender is stopped');
my ($a2, $a2_pid) = call_at('on', 'SELECT base36id_generate();');
ok( $primary->poll_query_until(
		'postgres', "SELECT wait_event = 'SyncRep' FROM pg_stat_activity WHERE pid = $a2_pid"),
	'a call at on waits for the standby');
($s0, $s1) = measure_window();
is(waits($a2_pid, "wait_event = 'SyncRep'"), 't', 'the call at on still waits');
ok(kill('CONT', $walsender), 'the walsender goes on');
check_returns($a2, $a2_pid, 'then the call at on returns');
stop_streaming('b2', $b2);
check_rate('b2', $s0, $s1, 'the call at on waits');
$primary->safe_psql('postgres',
	"ALTER SYSTEM RESET idgen.base36id_synchronous_commit; SELECT pg_reload_conf()");
ok( $primary->poll_query_until(
		'postgres', 'SHOW idgen.base36id_synchronous_commit', 'on'),
	'the floor is on again');

#
# 3. the waiter held between its judgement and its wait
#
SKIP:
{
	my $absent = injection_points_absent();
	skip $absent, 9 if defined $absent;

	$primary->safe_psql('postgres', 'CREATE EXTENSION injection_points');
	pause_replay();
	my ($b3, $b3_pid) = start_streaming('b3', 'on');
	my ($a3, $a3_pid) = call_at('remote_apply', 'SELECT base36id_generate();',
		points => ['idgen-b36-wait']);
	ok(wait_at_point($primary, $a3_pid, 'idgen-b36-wait'),
		'a call at remote_apply, judged unconfirmed, stops before its wait');
	($s0, $s1) = measure_window();
	is(waits($a3_pid, "wait_event = 'idgen-b36-wait'"), 't',
		'the call still stands at idgen-b36-wait');
	$primary->safe_psql('postgres', q{
		SELECT injection_points_detach('idgen-b36-wait');
		SELECT injection_points_wakeup('idgen-b36-wait');});
	ok( $primary->poll_query_until(
			'postgres', "SELECT wait_event = 'SyncRep' FROM pg_stat_activity WHERE pid = $a3_pid"),
		'woken, it waits for the replay');
	$standby->safe_psql('postgres', 'SELECT pg_wal_replay_resume()');
	check_returns($a3, $a3_pid, 'once replay resumes, the held call returns');
	stop_streaming('b3', $b3);
	check_rate('b3', $s0, $s1, 'the call at remote_apply stands at idgen-b36-wait');
}

is(count_duplicate_ids($primary, 'streamed'), '0', 'no id repeats');

$holder->quit;
$standby->stop;
$primary->stop;
done_testing();
