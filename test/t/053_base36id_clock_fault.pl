# base36id: the real-time clock fails in a call that is past its first step
# (it waited for a synchronous standby).  The clock is read under the
# generator's lock; an error there, raised with the lock held, met
# call_abandon(), the call's error cleanup, which takes the same lock: the
# backend waited on itself for ever, holding the lock, and every later
# base36id_generate() on the server waited behind it, deaf to
# statement_timeout and cancel (found by an attack on main at 55343f4).
# Now the error comes after the release: the call fails with 58000, the
# others go on, and the session gets ids again once its clock reads.
#
# fault_clock.c, preloaded into the server, fails CLOCK_REALTIME in the
# backend whose pid the control file holds.  The call waits for the
# standby's stopped walsender (so that it is inside its slow path) when
# its clock starts failing; the walsender then goes on and the call steps
# again.

use strict;
use warnings;

use File::Spec;
use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();

my $primary = PostgreSQL::Test::Cluster->new('clock_fault_primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', join("\n",
	"shared_preload_libraries = 'idgen'", 'idgen.worker_id = 4',
	'wal_sender_timeout = 0'));
# absolute: the server runs in its data directory
my $ctl = File::Spec->rel2abs($primary->basedir . '/clockfail');
my $shim = File::Spec->rel2abs($primary->basedir . '/fault_clock.so');
# a shim that does not build is a failure, not a skip
system('cc', '-shared', '-fPIC', '-o', $shim, "$FindBin::RealBin/fault_clock.c", '-ldl') == 0
  or die "could not build $shim";
{
	local $ENV{LD_PRELOAD} = $shim;
	local $ENV{IDGEN_CLOCK_CTL} = $ctl;
	$primary->start;
}
$primary->safe_psql('postgres', 'CREATE EXTENSION idgen');
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('clock_fault_standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->start;
ok(set_sync_names($primary, 'FIRST 1 (clock_fault_standby)', 'clock_fault_standby=sync'),
	'the standby is synchronous');
my $first = $primary->safe_psql('postgres', 'SELECT base36id_generate()');
like($first, qr/^[0-9A-Z]{9}$/, 'ids come');

my $walsender = $primary->safe_psql('postgres', 'SELECT pid FROM pg_stat_replication');
ok(kill('STOP', $walsender), 'the walsender is stopped');
# a second after the first id's: the call reserves it and waits for the standby
$primary->poll_query_until('postgres',
	"SELECT base36id_timestamp('$first') < date_trunc('second', clock_timestamp())")
  or die 'the clock never passed the first id\'s second';
my ($call, $pid) = start_call($primary, 'SELECT base36id_generate();');
is(settled_state($primary, $pid), 'active/SyncRep', 'the call waits for the standby');

# its clock fails from now on; the walsender goes on, the call steps again
open my $fh, '>', $ctl or die "could not write $ctl: $!";
print $fh "$pid\n";
close $fh;
ok(kill('CONT', $walsender), 'the walsender goes on');

my $ended = $primary->poll_query_until('postgres',
	"SELECT state = 'idle' FROM pg_stat_activity WHERE pid = $pid");
ok($ended, 'the failing call ends')
  or diag($primary->safe_psql('postgres',
	"SELECT state, wait_event_type, wait_event FROM pg_stat_activity WHERE pid = $pid"));

my $timed_out = 0;
my ($ret, $out, $err) = $primary->psql('postgres',
	"SET synchronous_commit = off; SET statement_timeout = '10s'; SELECT base36id_generate()",
	timeout => 60, timed_out => \$timed_out);
ok(!$timed_out && $ret == 0 && $out =~ /^[0-9A-Z]{9}$/,
	'another session gets an id')
  or diag("timed out $timed_out, status $ret, out $out, stderr $err");

if (!$ended)
{
	# a backend waiting on an LWLock ignores SIGTERM
	$primary->stop('immediate');
	$standby->stop;
	done_testing();
	exit;
}

my $state = $call->query_until(qr/sqlstate=\w+/, "\\echo sqlstate=:LAST_ERROR_SQLSTATE\n");
like($state, qr/sqlstate=58000/, 'the call failed with 58000 (system_error)');
like($call->{stderr}, qr/could not read the real-time clock: Invalid argument/,
	'its message names the clock and the system error');

unlink $ctl or die "could not remove $ctl: $!";
# query_safe fails on any stderr: the error above is read
$call->{stderr} = '';
like($call->query_safe('SELECT base36id_generate()'), qr/^[0-9A-Z]{9}$/,
	'the session gets ids again once its clock reads');
is($primary->safe_psql('postgres',
	"SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'idgen_base36id'"),
	'0', 'no backend waits on the generator\'s lock');
$call->quit;

$primary->stop;
$standby->stop;
done_testing();
