# base36id: an id leaves only once the standbys synchronous *now* have its
# second's record, whatever the statement asking for it started with; and
# no call waits for another call's level (issue 39's findings A and C, made
# deterministic with advisory locks instead of timing).
#
# A. A statement that began while synchronous_standby_names was empty
#    (its backend's copy of the configuration stays empty until the
#    statement ends) reserves second S after the names became 's1' and s1
#    confirmed it; the names then become 's2', a standby that is down.  The
#    next id of S, asked for by that same statement (the primary's clock
#    stepped back, so generation stays in S), must wait until s2 is up and
#    has the record, as a commit would.
# C. With the floor at remote_apply and s1's replay paused, a call waits for
#    the replay; the floor is lowered to on: a new statement's call gets an
#    id of the same second at once, without waiting behind the first.
# E. A statement that began under FIRST 1 (s1, s2) and sessions under
#    ANY 1 (s1, s2) take turns at ids of one reserved second: no
#    reservation is made again.
#
# Mutations this test catches (tried by hand): the judgement by a hash of
# the backend's own SyncRepConfig (1.1's third version): part A's second
# id leaves at once, before s2 even runs; the reservation waiting for the
# standbys at the floor before other calls may use it (the same version):
# part C's call waits for the reservation; part E's turns reserve the
# second again each time (ping-pong).
use strict;
use warnings;

use File::Spec;
use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# the clock starts ahead and steps back to the true time (see 005)
my ($primary, $primary_clock) = start_faketime_primary('b36n_primary', '+30',
	conf => ['idgen.worker_id = 7', 'wal_keep_size = 64MB']);
$primary->backup('b');
my $s1 = PostgreSQL::Test::Cluster->new('b36n_s1');
$s1->init_from_backup($primary, 'b', has_streaming => 1);
$s1->start;
my $s2 = PostgreSQL::Test::Cluster->new('b36n_s2');
$s2->init_from_backup($primary, 'b', has_streaming => 1);

# the locks that hold the generating statement between its steps
my $holder = $primary->background_psql('postgres');
$holder->query_safe('SELECT pg_advisory_lock(1), pg_advisory_lock(2)');

# whether backend $pid waits for an advisory lock
sub waits_for_lock
{
	my ($pid) = @_;
	return $primary->poll_query_until('postgres',
		"SELECT count(*) = 1 FROM pg_locks WHERE pid = $pid AND locktype = 'advisory' AND NOT granted");
}

# A: the statement begins with no synchronous standby named
my ($gen, $gen_pid) = start_call(
	$primary, q{
	DO $$
	DECLARE a base36id; b base36id;
	BEGIN
		PERFORM pg_advisory_lock(1);
		a := base36id_generate();
		PERFORM pg_advisory_lock(2);
		b := base36id_generate();
		RAISE NOTICE 'ids %,% of % and %', a, b,
			extract(epoch FROM base36id_timestamp(a)), extract(epoch FROM base36id_timestamp(b));
	END $$;});
ok(waits_for_lock($gen_pid), 'the statement runs, waiting for the first lock');

$primary->safe_psql('postgres', q{
	ALTER SYSTEM SET synchronous_standby_names = 'b36n_s1';
	SELECT pg_reload_conf();});
ok( $primary->poll_query_until(
		'postgres', "SELECT sync_state = 'sync' FROM pg_stat_replication WHERE application_name = 'b36n_s1'"),
	's1 is the synchronous standby');
# the statement reserves S now, confirmed by s1, and takes its first id
$holder->query_safe('SELECT pg_advisory_unlock(1)');
ok(waits_for_lock($gen_pid), 'the first id is taken; the statement waits for the second lock');

# the clock steps back: the second id is of S too
set_clock_offset($primary_clock, '+0');
$primary->safe_psql('postgres', q{
	ALTER SYSTEM SET synchronous_standby_names = 'b36n_s2';
	SELECT pg_reload_conf();});
# the checkpointer has taken the names in once a commit waits for s2 (down)
my ($commit, $commit_pid) = start_call($primary, 'CREATE TABLE waits_for_s2 ();');
is(settled_state($primary, $commit_pid), 'active/SyncRep', 'a commit waits for s2, which is down');

$holder->query_safe('SELECT pg_advisory_unlock(2)');
my $state = settled_state($primary, $gen_pid);
is($state, 'active/SyncRep', 'the second id of S waits for s2 too');

$s2->start;
ok( $primary->poll_query_until(
		'postgres', "SELECT state = 'idle' FROM pg_stat_activity WHERE pid = $gen_pid"),
	'once s2 is up, the statement ends');
$gen->query('SELECT 1');
like($gen->{stderr}, qr/ids [0-9A-Z]{9},[0-9A-Z]{9} of (\d+)\S* and \1\b/,
	'with two ids of one second S');
my $s2_flush = $primary->safe_psql('postgres',
	"SELECT flush_lsn FROM pg_stat_replication WHERE application_name = 'b36n_s2'");
isnt($s2_flush, '', 's2 streams');
$gen->quit;
$commit->quit;

# C: lowering the floor releases nobody into waiting; the clock jumps past
# S, so that the next call reserves a new second
set_clock_offset($primary_clock, '+60');
$primary->safe_psql('postgres', q{
	ALTER SYSTEM SET synchronous_standby_names = 'b36n_s1';
	ALTER SYSTEM SET idgen.base36id_synchronous_commit = remote_apply;
	SELECT pg_reload_conf();});
ok( $primary->poll_query_until(
		'postgres', "SELECT sync_state = 'sync' FROM pg_stat_replication WHERE application_name = 'b36n_s1'"),
	's1 is the synchronous standby again');
$s1->safe_psql('postgres', 'SELECT pg_wal_replay_pause()');
my ($apply, $apply_pid) = start_call($primary, 'SELECT base36id_generate();');
is(settled_state($primary, $apply_pid), 'active/SyncRep',
	'at remote_apply, an id of a new second waits for s1\'s paused replay');
$primary->safe_psql('postgres', q{
	ALTER SYSTEM SET idgen.base36id_synchronous_commit = 'on';
	SELECT pg_reload_conf();});
ok( $primary->poll_query_until(
		'postgres', "SELECT current_setting('idgen.base36id_synchronous_commit') = 'on'"),
	'the floor is on in new statements');
my ($on, $on_pid) = start_call($primary, 'SELECT base36id_generate();');
like(settled_state($primary, $on_pid), qr/^idle/,
	'a call at on gets its id meanwhile, not waiting behind the other');
$on->quit;
$s1->safe_psql('postgres', 'SELECT pg_wal_replay_resume()');
ok( $primary->poll_query_until(
		'postgres', "SELECT state = 'idle' FROM pg_stat_activity WHERE pid = $apply_pid"),
	'once replay resumes, the remote_apply call ends too');
$apply->quit;

# E: a statement that began under FIRST 1 and sessions under ANY 1 take
# turns at ids of one reserved second: nobody reserves it again
$primary->safe_psql('postgres', q{
	ALTER SYSTEM SET synchronous_standby_names = 'FIRST 1 (b36n_s1, b36n_s2)';
	ALTER SYSTEM RESET idgen.base36id_synchronous_commit;
	SELECT pg_reload_conf();});
ok( $primary->poll_query_until(
		'postgres', "SELECT string_agg(sync_state, ',' ORDER BY application_name) FROM pg_stat_replication",
		'sync,potential'),
	's1 synchronous, s2 potential');
$holder->query_safe('SELECT pg_advisory_lock(k) FROM generate_series(3, 7) AS k');
set_clock_offset($primary_clock, '+90');
my ($turns, $turns_pid) = start_call(
	$primary, q{
	DO $$
	BEGIN
		PERFORM base36id_generate();
		FOR k IN 3 .. 7 LOOP
			PERFORM pg_advisory_lock(k);
			PERFORM base36id_generate();
		END LOOP;
	END $$;});
ok(waits_for_lock($turns_pid), 'a statement took an id of a new second S and waits for its turn');
# the clock steps back: every id from now on is of S
set_clock_offset($primary_clock, '+60');
my $reservations = $primary->safe_psql('postgres', 'SELECT reservations FROM idgen_stat_base36id');
$primary->safe_psql('postgres', q{
	ALTER SYSTEM SET synchronous_standby_names = 'ANY 1 (b36n_s1, b36n_s2)';
	SELECT pg_reload_conf();});
ok( $primary->poll_query_until(
		'postgres', "SELECT string_agg(sync_state, ',' ORDER BY application_name) FROM pg_stat_replication",
		'quorum,quorum'),
	'both standbys are quorum standbys');
foreach my $k (3 .. 7)
{
	$primary->safe_psql('postgres', 'SELECT base36id_generate()');
	$holder->query_safe("SELECT pg_advisory_unlock($k)");
	if ($k < 7)
	{
		waits_for_lock($turns_pid);
	}
}
ok( $primary->poll_query_until(
		'postgres', "SELECT state = 'idle' FROM pg_stat_activity WHERE pid = $turns_pid"),
	'the statement took its turns');
is($primary->safe_psql('postgres', 'SELECT reservations FROM idgen_stat_base36id'),
	$reservations, 'ten ids of S in turns, no reservation');
$turns->quit;
$holder->quit;

$s1->stop;
$s2->stop;
$primary->stop;
done_testing();
