# base36id, issue 39's finding A made deterministic with injection points:
# a call whose statement began while no synchronous standby was named
# (its backend's copy of synchronous_standby_names stays empty until the
# statement ends) must not hand out an id of the second it reserved once
# a standby that lacks the second's record is named.
#
# The call reserves second S and stops at the injection point
# idgen-b36-reserved (the record is flushed locally and published, not
# yet judged).  synchronous_standby_names becomes 's2', a standby that is
# down (a commit then waits for it).  The call, released, must wait for
# s2 (core's queue, wait event SyncRep), as must a new session's call; s1,
# streaming and holding the record but not named, confirms nothing.  The
# primary then dies (immediate stop) with the call still waiting, s2 is
# started with its clock before S and promoted: its ids reach S, and none
# repeats an id the primary returned.
#
# Needs a server configured with --enable-injection-points and core's
# injection_points module (tools/pgbuild.sh: the 18 build); skipped
# elsewhere.  Fails when the judgement trusts the backend's own copy of the
# configuration (B36S_MUTANT_A of src/core/b36sync.c, planted in the
# extension): the call returns its id at once and the promoted s2 repeats
# it.

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

my $primary = start_idgen_primary('b36ia_primary', 'idgen.worker_id = 7');
$primary->safe_psql('postgres', 'CREATE EXTENSION injection_points');
$primary->backup('b');
my $s1 = PostgreSQL::Test::Cluster->new('b36ia_s1');
$s1->init_from_backup($primary, 'b', has_streaming => 1);
$s1->start;
# s2 stays down until the primary is gone: it never has S's record
my $s2 = PostgreSQL::Test::Cluster->new('b36ia_s2');
$s2->init_from_backup($primary, 'b', has_streaming => 1);
my $s2_clock = File::Spec->rel2abs($s2->basedir . '/faketime.rc');

# the statement begins with no synchronous standby named, and reserves S
my ($gen, $gen_pid) = start_call($primary, 'SELECT base36id_generate();',
	points => ['idgen-b36-reserved']);
ok(wait_at_point($primary, $gen_pid, 'idgen-b36-reserved'),
	'the call reserved a second S and stops before judging it');
my ($second, $lsn) = split /\|/,
  $primary->safe_psql('postgres',
	'SELECT extract(epoch FROM reserved_second)::bigint, last_reservation_lsn FROM idgen_stat_base36id'
  );
$primary->wait_for_replay_catchup($s1);
is( $s1->safe_psql('postgres', "SELECT pg_last_wal_replay_lsn() >= '$lsn'"),
	't', 's1 has replayed S\'s record');

$primary->safe_psql('postgres', q{
	ALTER SYSTEM SET synchronous_standby_names = 'b36ia_s2';
	SELECT pg_reload_conf();});
# the checkpointer has taken the names in once a commit waits for s2
my ($commit, $commit_pid) = start_call($primary, 'CREATE TABLE waits_for_s2 ();');
is(settled_state($primary, $commit_pid), 'active/SyncRep', 'a commit waits for s2, which is down');

$primary->safe_psql('postgres', "SELECT injection_points_wakeup('idgen-b36-reserved')");
is(settled_state($primary, $gen_pid), 'active/SyncRep',
	'released, the call waits for s2 to have S\'s record');
my ($other, $other_pid) = start_call($primary, 'SELECT base36id_generate();');
is(settled_state($primary, $other_pid), 'active/SyncRep', 'so does a new session\'s call');

$primary->stop('immediate');
my @returned = (printed_ids($gen), printed_ids($other));
printed_ids($commit);
is(scalar @returned, 0, 'the primary died without returning an id of S');

# started with its clock a minute before S (it starts after its clock's second)
set_clock_offset($s2_clock, sprintf('%+d', int($second - Time::HiRes::time()) - 60));
with_faketime($s2_clock, sub { $s2->start });
check_promoted_repeats_none($s2, $s2_clock, $second, \@returned,
	unknown => 1);

$s2->stop;
$s1->stop;
done_testing();
