# base36id: a standby replays a reservation more than 60 s after its second
# (replay held back: pg_wal_replay_pause(), a hot-standby conflict,
# recovery_min_apply_delay), a restartpoint passes the record, the standby
# restarts with its clock set back behind that second, and is promoted.
# Replay fsyncs the state file only for seconds within 60 s of the clock
# (B36G_REDO_WINDOW_S: catch-up costs no fsync a second), and until an
# attack on 55343f4 wrote nothing for older ones: the restart lost the
# second, and the promoted standby handed out the primary's ids again.  Now
# older seconds are written without an fsync, which a restart of the server
# keeps.
#
# The standby's replay is paused while the primary hands out ids at on
# (the standby flushes them: on is met), then its clock runs 70 s ahead
# (libfaketime) when replay resumes: the second is 70 s old.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();

my $primary = start_idgen_primary('redo_old_primary', 'idgen.worker_id = 21');
$primary->backup('b');

my $standby = PostgreSQL::Test::Cluster->new('redo_old_standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
my $clock = $standby->basedir . '/faketime.rc';
set_clock_offset($clock, '+0');
with_faketime($clock, sub { $standby->start });
ok(set_sync_names($primary, 'FIRST 1 (redo_old_standby)', 'redo_old_standby=sync'),
	'the standby is synchronous');

$standby->safe_psql('postgres', 'SELECT pg_wal_replay_pause()');
ok( $standby->poll_query_until(
		'postgres', "SELECT pg_get_wal_replay_pause_state() = 'paused'"),
	"the standby's replay is paused");

my @issued = grep { /^[0-9A-Z]{9}$/ } split /\n/,
  $primary->safe_psql('postgres',
	'SELECT base36id_generate() FROM generate_series(1, 30)');
is(scalar @issued, 30, 'the primary returned 30 ids at on');
my ($max_issued) = reverse sort @issued;
my $second = $primary->safe_psql('postgres',
	"SELECT extract(epoch FROM base36id_timestamp('$max_issued'))::bigint");
# the restartpoint needs a checkpoint after the reservation
$primary->safe_psql('postgres', 'CHECKPOINT');
my $lsn = $primary->lsn('insert');

set_clock_offset($clock, '+70');
ok( $standby->poll_query_until(
		'postgres', "SELECT clock_timestamp() >= to_timestamp($second + 61)"),
	"the standby's clock is more than 60 s past the ids' second");
$standby->safe_psql('postgres', 'SELECT pg_wal_replay_resume()');
ok( $standby->poll_query_until(
		'postgres', "SELECT pg_last_wal_replay_lsn() >= '$lsn'"),
	'the standby replays the reservation and the checkpoint after it');
my $redo_before = $standby->safe_psql('postgres',
	'SELECT redo_lsn FROM pg_control_checkpoint()');
$standby->safe_psql('postgres', 'CHECKPOINT');
ok( $standby->safe_psql('postgres',
		"SELECT redo_lsn > '$redo_before' FROM pg_control_checkpoint()") eq 't',
	'a restartpoint passed the reservation');
my $epoch = $standby->safe_psql('postgres',
	"SELECT extract(epoch FROM timestamptz '2024-01-01 00:00:00+00')::bigint");
is(state_file_second($standby) // -1, $second - $epoch,
	"the standby's state file holds the ids' second");

# the failover: the primary dies; the standby, its clock now 3 s behind the
# ids' second, restarts (immediate stop) and is promoted
$primary->stop('immediate');
set_clock_offset($clock, sprintf('%+d', int($second - Time::HiRes::time()) - 3));
$standby->stop('immediate');
with_faketime($clock, sub { $standby->start });
check_promoted_repeats_none($standby, $clock, $second, \@issued);

$standby->stop;
done_testing();
