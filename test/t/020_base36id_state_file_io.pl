
# base36id: trouble writing the state file stays with the calls that need it.
#
# The server runs with fault_fsync.c preloaded: fsync() of the state file
# fails (EIO) or blocks (a slow disk) while a flag file exists.
#
# - A failed fsync is an ERROR for the call that needs the new second, not a
#   PANIC (data_sync_retry = off would make it one): the record is rewritten
#   whole before every fsync, so the next success makes it durable.
#   Generation resumes once fsync works.
# - While one call waits for a slow fsync, others that need the same second
#   wait for it in a cancellable wait, not on the LWLock.
# - When every fsync takes 1.5 s, each reservation ends after its second has
#   passed: ids still come (of the second just reserved), and a call that
#   keeps reserving answers a cancel and a fast shutdown, long before it
#   could have ended on its own.
#
# No wall-clock threshold: the waiter's cancel is shown to come while the
# stall (which lasts until the test clears it) still holds; the loop's by
# the server's clock against the 772 s its ids would take at least.
#
# Mutations this test catches (tried by hand): the fsync failure reported
# at data_sync_elevel(ERROR) (a PANIC and a crash restart); waiters that
# poll without a cancellable wait (the cancel does not end them).  The
# slow-fsync checks fail on 1.1's first generator, which reserved the clock's
# second again after each slow reservation, forever, without a
# CHECK_FOR_INTERRUPTS.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);

my $node = init_idgen_node('base36id_state_io', 'idgen.worker_id = 3', 'fsync = on');
my $ctl = start_with_fault_fsync($node);
$node->safe_psql('postgres', 'CREATE EXTENSION idgen');
my $first = $node->safe_psql('postgres', 'SELECT base36id_generate()');

# waits until the server's clock is past every second reserved: the next
# call reserves a new one
sub next_second
{
	await_unreserved_second($node);
	return;
}

#
# fsync fails
#
set_fsync_fault($ctl, 'fail');
next_second();
my $log_offset = -s $node->logfile;
my ($ret, $err) = psql_verbose($node, 'SELECT base36id_generate()');
isnt($ret, 0, 'with fsync failing, a call that needs a new second fails');
like(
	$err,
	qr/ERROR:  58030: could not fsync file "idgen_base36id.state": Input\/output error/,
	'with the I/O error');
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'the server is still up');
ok( !$node->log_contains(
		qr/PANIC|server processes terminated|terminated by signal/, $log_offset),
	'no PANIC, no crash restart');
clear_fsync_fault($ctl, 'fail');
my $resumed = $node->safe_psql('postgres', 'SELECT base36id_generate()');
ok($resumed gt $first, 'once fsync works again, generation resumes');

#
# fsync is slow
#
set_fsync_fault($ctl, 'stall');
next_second();
my $slow = $node->background_psql('postgres');
my $slow_pid = $slow->query_safe('SELECT pg_backend_pid()');
$slow->query_until(qr/slow-start/,
	"\\echo slow-start\nSELECT base36id_generate();\n");
# the fsync's wait event (030_monitoring.pl): named on 17+, core's closest before
my $sync_event =
  $node->safe_psql('postgres', 'SHOW server_version_num') >= 170000
  ? 'Extension/Base36idStateFileSync'
  : 'IO/DataFileSync';
ok( $node->poll_query_until(
		'postgres',
		"SELECT state || '/' || wait_event_type || '/' || wait_event FROM pg_stat_activity WHERE pid = $slow_pid",
		"active/$sync_event"),
	'a call reserving the new second is held by the slow fsync');

my $waiter = $node->background_psql('postgres', on_error_stop => 0);
my $waiter_pid = $waiter->query_safe('SELECT pg_backend_pid()');
$waiter->query_until(qr/waiter-start/,
	"\\echo waiter-start\nSELECT base36id_generate();\n");
ok(wait_for_extension_wait($node, $waiter_pid),
	'another call waits for that reservation in an extension wait');
# The stall lasts until the test clears it: a waiter that answered the
# cancel only once the fsync ended would not have ended yet.
$node->safe_psql('postgres', "SELECT pg_cancel_backend($waiter_pid)");
$waiter->query('SELECT 1');
$waiter->quit;
like(
	$waiter->{stderr},
	qr/canceling statement due to user request/,
	'pg_cancel_backend() cancels the waiting call');
is( $node->safe_psql(
		'postgres', "SELECT state FROM pg_stat_activity WHERE pid = $slow_pid"),
	'active',
	'while the fsync is still stalled: the reserving call is still held');

clear_fsync_fault($ctl, 'stall');
my ($slow_id) = grep { /^[0-9A-Z]{9}$/ } split /\n/, $slow->query_safe('SELECT 1');
$slow->quit;
ok(defined $slow_id && $slow_id gt $resumed,
	'once the fsync ends, the reserving call returns a later id')
  or diag('id: ' . ($slow_id // 'none'));

#
# every fsync is slow: 1.5 s
#
set_fsync_fault($ctl, 'slow', 1500);
next_second();
my ($gen_ret, $gen_out, $gen_err) = $node->psql(
	'postgres',
	"SET statement_timeout = '60s'; SELECT base36id_generate() FROM generate_series(1, 5)",
	timeout => 90,
	timed_out => \my $gen_timed_out);
is($gen_ret, 0, 'with a 1.5 s fsync, 5 base36ids come')
  or diag("stderr: $gen_err");
my @slow_ids = split /\n/, $gen_out;
is(scalar(grep { /^[0-9A-Z]{9}$/ } @slow_ids), 5, 'five ids');
is(join(',', @slow_ids), join(',', sort @slow_ids), 'in increasing order');
is(scalar(keys %{ { map { $_ => 1 } @slow_ids } }), 5, 'all distinct');

# A call that needs many new seconds, each reservation 1.5 s: a cancel
# ends it.  1,000,000 ids take at least 772 s at 1,296 a second (longer
# with a 1.5 s reservation each second): the call answers the cancel when
# it ends before then, by the server's clock.
my $loop_sql =
  'SELECT count(*) FROM (SELECT base36id_generate() FROM generate_series(1, 1000000)) s';

# starts the loop in a new session; returns once the loop has reserved a
# second of its own and is reserving again (its fsync's wait event)
sub start_looper
{
	my $syncs = $node->safe_psql('postgres', 'SELECT state_file_syncs FROM idgen_stat_base36id');
	my $session = $node->background_psql('postgres', on_error_stop => 0);
	my $pid = $session->query_safe('SELECT pg_backend_pid()');
	$session->query_until(qr/loop-start/, "\\echo loop-start\n$loop_sql;\n");
	$node->poll_query_until(
		'postgres', qq{
		SELECT s.state_file_syncs > $syncs AND a.state = 'active'
		       AND a.wait_event_type || '/' || a.wait_event = '$sync_event'
		FROM idgen_stat_base36id s, pg_stat_activity a WHERE a.pid = $pid})
	  or die "the loop of backend $pid never reserved a second";
	return ($session, $pid);
}
my ($looper, $looper_pid) = start_looper();
my $cancelled_at = $node->safe_psql('postgres',
	"SELECT clock_timestamp() FROM pg_cancel_backend($looper_pid)");
# the call's end: the backend idle again, since when by the server's clock
ok($node->poll_query_until('postgres', "SELECT state FROM pg_stat_activity WHERE pid = $looper_pid", 'idle'),
	'the cancelled call ends');
my $loop_cancel_seconds = $node->safe_psql('postgres',
	"SELECT extract(epoch FROM state_change - '$cancelled_at') FROM pg_stat_activity WHERE pid = $looper_pid");
$looper->query('SELECT 1');
$looper->quit;
like(
	$looper->{stderr},
	qr/canceling statement due to user request/,
	'with a 1.5 s fsync, pg_cancel_backend() cancels a generating call');
cmp_ok($loop_cancel_seconds, '<', 120,
	'by the server\'s clock, long before the call could have ended on its own');

# and a fast shutdown stops the server while such a call runs (pg_ctl's
# bound: 120 s, far more than a fast shutdown takes, far less than the loop)
($looper) = start_looper();
my $t0 = time;
my $stopped;
{
	local $ENV{PGCTLTIMEOUT} = 120;
	$stopped = $node->stop('fast', fail_ok => 1);
}
my $stop_seconds = time - $t0;
ok($stopped, 'with a 1.5 s fsync, a fast shutdown stops the server')
  or diag("pg_ctl stop -m fast failed after $stop_seconds s");
$node->stop('immediate') unless $stopped;
# psql lost its server
eval { $looper->quit };
clear_fsync_fault($ctl, 'slow');

done_testing();
