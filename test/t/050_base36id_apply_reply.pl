# base36id at remote_apply: a standby that replays a reservation reports it
# at once, however old the reservation's second is by the standby's clock.
#
# The standby's clock is 120 s ahead of the primary's (libfaketime), so
# every reservation it replays is older than REDO_SYNC_WINDOW_S (60 s) by
# its clock, as after lag or recovery_min_apply_delay.  It sends no status
# message of its own (wal_receiver_status_interval = 0; see below for 19)
# and the primary asks for none (wal_sender_timeout = 0).  Core's startup process also reports
# its replay when it has replayed all it received and waits for more: here
# it never gets there.  Its replay stops at a lock record of table a
# (a standby session holds a lock on a, max_standby_streaming_delay = -1),
# the call reserves a second and waits, a lock record of table b follows
# and reaches the standby, and only then is a released: the standby replays
# the reservation and stops at b.  Only the reply the reservation's replay
# asks for, as core asks at the replay of a commit that wants apply
# feedback, can release the call.
#
# No timing is hoped for: the test polls until the standby has replayed the
# record, then gives the call at most 30 s to return.  Fails when redo asks
# for the reply only for recent records: the call waits on, the primary
# never learns of the replay.

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

my $primary = start_idgen_primary('b36ar_primary', 'idgen.worker_id = 5',
	'idgen.base36id_synchronous_commit = remote_apply',
	'wal_sender_timeout = 0');
# before there is a synchronous standby: no commit waits later
$primary->safe_psql('postgres', 'CREATE TABLE a (x int); CREATE TABLE b (x int)');
$primary->backup('b');
my $s = PostgreSQL::Test::Cluster->new('b36ar_s');
$s->init_from_backup($primary, 'b', has_streaming => 1);
# 19 sends the reply a replay asks for (WalRcvRequestApplyReply) only
# when status messages are on, for commits too: there, the longest
# interval instead of none.  The WAL receiver then also reports at the
# receipt of WAL (such as the primary's next running-xacts record), which
# may release the call too: the failure without the reply is certain
# before 19 only (on 19beta1 the call was released without it).
my $status_interval =
  $primary->safe_psql('postgres', 'SHOW server_version_num') >= 190000
  ? '2147483s'
  : '0';
$s->append_conf('postgresql.conf',
	"wal_receiver_timeout = 0\nwal_receiver_status_interval = '$status_interval'\nmax_standby_streaming_delay = -1"
);
my $s_clock = File::Spec->rel2abs($s->basedir . '/faketime.rc');
set_clock_offset($s_clock, '+120');
with_faketime($s_clock, sub { $s->start });
ok(set_sync_names($primary, 'b36ar_s', 'b36ar_s=sync'), 's is the synchronous standby');

# standby sessions holding locks on a and b; primary sessions locking them
my %hold = map {
	my $h = $s->background_psql('postgres');
	$h->query_safe("BEGIN; SELECT count(*) FROM $_");
	($_ => $h)
} qw(a b);
sub lock_table
{
	my ($table) = @_;
	my $session = $primary->background_psql('postgres');
	my $lsn = $session->query_safe(
		"BEGIN; LOCK TABLE $table IN ACCESS EXCLUSIVE MODE; SELECT pg_current_wal_insert_lsn()");
	return ($session, $lsn);
}
my ($lock_a, $a_lsn) = lock_table('a');

my ($call, $pid) = start_call($primary, 'SELECT base36id_generate();');
is(settled_state($primary, $pid), 'active/SyncRep',
	'the call reserves a second and waits: s\'s replay stops at a\'s lock');
my ($second, $lsn) = split /\|/,
  $primary->safe_psql('postgres',
	'SELECT extract(epoch FROM reserved_second)::bigint, last_reservation_lsn FROM idgen_stat_base36id'
  );
is($primary->safe_psql('postgres', "SELECT '$lsn' > '$a_lsn'"), 't',
	'the reservation comes after a\'s lock in the WAL');
my ($lock_b, $b_lsn) = lock_table('b');
# a record that is no commit waits in a page the WAL writer leaves unflushed
$primary->safe_psql('postgres', 'SELECT pg_switch_wal()');
ok($s->poll_query_until('postgres', "SELECT pg_last_wal_receive_lsn() >= '$b_lsn'"),
	's has received b\'s lock');

# released, s replays up to b's lock, which waits for the other session
$hold{a}->query_safe('COMMIT');
ok($s->poll_query_until('postgres', "SELECT pg_last_wal_replay_lsn() >= '$lsn'"),
	's has replayed the reservation');
is($s->safe_psql('postgres',
		"SELECT pg_last_wal_replay_lsn() < '$b_lsn' AND extract(epoch FROM clock_timestamp())::bigint - $second > 60"
	),
	't',
	's waits at b\'s lock, and by its clock the reserved second is older than 60 s');

my $state = '';
my $deadline = Time::HiRes::time() + 30;
while (1)
{
	$state = $primary->safe_psql('postgres',
		"SELECT state || '/' || coalesce(wait_event, '') FROM pg_stat_activity WHERE pid = $pid");
	last if $state =~ /^idle/ || Time::HiRes::time() > $deadline;
	Time::HiRes::sleep(0.1);
}
like($state, qr/^idle/, 'the call returned once s replayed its record')
  or diag("30 s after the replay: $state; s's replay as the primary knows it, and the record: "
	  . $primary->safe_psql('postgres',
		  "SELECT replay_lsn || ', ' || '$lsn' FROM pg_stat_replication"));
if ($state =~ /^idle/)
{
	ok(await_printed_id($call), 'the call printed its id');
}
else
{
	ok(0, 'the call printed its id');
	$primary->safe_psql('postgres', "SELECT pg_cancel_backend($pid)");
}
$call->quit;
$hold{b}->query_safe('COMMIT');
$_->quit foreach ($hold{a}, $hold{b}, $lock_a, $lock_b);

$primary->stop;
$s->stop;
done_testing();
