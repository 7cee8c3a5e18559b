# base36id, issue 39's finding B (ABA) made deterministic with injection
# points: the same standbys synchronous before and after a wait does not
# mean they were synchronous all along, nor that they have the record.
#
# synchronous_standby_names = 'FIRST 1 (s1, s2)'; s1's WAL receiver is
# paused (SIGSTOP: its walsender still streams, s1 stays the synchronous
# standby, its flush position stands still).  A call reserves second S and
# waits in core's queue for s1.  The names become 'FIRST 1 (s2, s1)': s2,
# which has the record, releases the queue, and the call stops at the
# injection point idgen-b36-waited (woken, not yet judged again).  The
# names go back to 'FIRST 1 (s1, s2)': the same standbys, at the same
# priorities, as before the wait.  Released, the call must keep waiting,
# since s1, synchronous again, lacks the record; as must a new session's
# call.  The primary then dies (immediate stop) with the call still
# waiting; s1's paused receiver is killed (what it had not read of the
# stream is lost), and s1, its clock before S, is promoted: its ids reach
# S, and none repeats an id the primary returned.
#
# Needs a server configured with --enable-injection-points and core's
# injection_points module (tools/pgbuild.sh: the 18 build); skipped
# elsewhere.  Fails when a call woken by core's queue hands out the id if
# the synchronous standbys' pids, slots and priorities hash as before its
# wait (B36S_MUTANT_B of src/core/b36sync.c, planted in the extension): the
# call returns its id and the promoted s1 repeats it.

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

my $absent = injection_points_absent();
plan skip_all => $absent if defined $absent;

# no walsender times out on s1's paused receiver; standbys report at once
my $primary = start_idgen_primary('b36ib_primary', 'idgen.worker_id = 8',
	'wal_sender_timeout = 0', 'wal_receiver_status_interval = 1');
$primary->safe_psql('postgres', 'CREATE EXTENSION injection_points');
$primary->backup('b');
my $s1 = PostgreSQL::Test::Cluster->new('b36ib_s1');
$s1->init_from_backup($primary, 'b', has_streaming => 1);
$s1->start;
my $s1_clock = File::Spec->rel2abs($s1->basedir . '/faketime.rc');
my $s2 = PostgreSQL::Test::Cluster->new('b36ib_s2');
$s2->init_from_backup($primary, 'b', has_streaming => 1);
$s2->start;

ok(set_sync_names($primary, 'FIRST 1 (b36ib_s1, b36ib_s2)', 'b36ib_s1=sync,b36ib_s2=potential'),
	's1 is the synchronous standby, s2 a potential one');
$primary->wait_for_replay_catchup($s1);
my $receiver = $s1->safe_psql('postgres', 'SELECT pid FROM pg_stat_wal_receiver');
ok(kill('STOP', $receiver), 's1\'s WAL receiver is paused');

my ($gen, $gen_pid) = start_call($primary, 'SELECT base36id_generate();',
	points => ['idgen-b36-waited']);
is(settled_state($primary, $gen_pid), 'active/SyncRep',
	'a call reserves a second S and waits for s1 in core\'s queue');
my ($second, $lsn) = split /\|/,
  $primary->safe_psql('postgres',
	'SELECT extract(epoch FROM reserved_second)::bigint, last_reservation_lsn FROM idgen_stat_base36id'
  );

ok(set_sync_names($primary, 'FIRST 1 (b36ib_s2, b36ib_s1)', 'b36ib_s1=potential,b36ib_s2=sync'),
	'the names reordered: s2 is the synchronous standby');
ok(wait_at_point($primary, $gen_pid, 'idgen-b36-waited'),
	's2 confirms S\'s record: the call is woken, and stops before judging again');
is( $s2->safe_psql('postgres', "SELECT pg_last_wal_receive_lsn() >= '$lsn'"),
	't', 's2 has S\'s record');

ok(set_sync_names($primary, 'FIRST 1 (b36ib_s1, b36ib_s2)', 'b36ib_s1=sync,b36ib_s2=potential'),
	'the names back as before the wait: s1 is the synchronous standby again');
is( $primary->safe_psql('postgres',
		"SELECT flush_lsn < '$lsn' FROM pg_stat_replication WHERE application_name = 'b36ib_s1'"),
	't', 's1 has not flushed S\'s record');
# released without stopping again (it looks again every 10 ms)
$primary->safe_psql('postgres', q{
	SELECT injection_points_detach('idgen-b36-waited');
	SELECT injection_points_wakeup('idgen-b36-waited');});
is(settled_state($primary, $gen_pid), 'active/SyncRep',
	'released, the call waits again, for s1');
my ($other, $other_pid) = start_call($primary, 'SELECT base36id_generate();');
is(settled_state($primary, $other_pid), 'active/SyncRep', 'so does a new session\'s call');

$primary->stop('immediate');
my @returned = (printed_ids($gen), printed_ids($other));
is(scalar @returned, 0, 'the primary died without returning an id of S');

# the paused receiver killed: s1 goes down with it (TAP nodes do not
# restart after a crash), or is stopped here
ok(kill('KILL', $receiver), 's1\'s paused WAL receiver is killed');
$s1->stop('immediate', fail_ok => 1);
# started with its clock a minute before S (it starts after its clock's second)
set_clock_offset($s1_clock, sprintf('%+d', int($second - Time::HiRes::time()) - 60));
with_faketime($s1_clock, sub { $s1->start });
check_promoted_repeats_none($s1, $s1_clock, $second, \@returned,
	unknown => 1);

$s1->stop;
$s2->stop;
done_testing();
