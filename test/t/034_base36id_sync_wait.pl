
# base36id: the wait for synchronous standbys, from the sessions' side.
#
# Primary + synchronous standby.  The wait of a reservation (the first id of
# a new second) must:
#  1. follow the server's configuration only: a role's ALTER ROLE ... SET
#     synchronous_commit = off, or connection options, do not lower it; a
#     wait ended by statement_timeout or a terminate hands out no id, and a
#     later superuser call does not get one of that unconfirmed second;
#  2. under synchronous_commit = remote_apply, wait for the standby's replay
#     (paused here) instead of failing, and alone: a session at on meanwhile
#     gets ids at once (the standby has flushed the record: on is met);
#  3. release the waiting call with its id when synchronous_standby_names is
#     cleared, as commits are released;
#  4. not fail when the names were just set and the checkpointer has not yet
#     told the waiting backends (stopped here), as commits do not wait then;
#  5. with the floor lowered to local: a role with ALTER ROLE ... SET
#     synchronous_commit = off reserves a new second without a wait, and a
#     session at on then asking for an id of that second waits for the
#     standby, although the second is reserved;
#  6. end when the postmaster dies (the backend exits).
#
# Mutations this test catches (tried by hand): the level from
# GetConfigOptionResetString() (1.1's first version): part 1 gets an id in
# the role's session; SyncRepWaitForLSN(lsn, false) and then a check of what
# the standbys confirmed (the same): parts 2, 3 and 4 fail with 57014; the
# reservation waiting at the session's level, with no record of the level
# it was confirmed at (1.1's second version): part 2's session at on times
# out behind the remote_apply one, part 5's gets its id at once.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = start_idgen_primary('b36w_primary', 'idgen.worker_id = 4');
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('b36w_standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->start;

$primary->safe_psql(
	'postgres', q{
	ALTER SYSTEM SET synchronous_standby_names = '*';
	SELECT pg_reload_conf();
	CREATE ROLE app LOGIN;
	ALTER ROLE app SET synchronous_commit = off;});
ok( $primary->poll_query_until(
		'postgres', "SELECT sync_state = 'sync' FROM pg_stat_replication"),
	'the standby is synchronous');

# the pid of a background session's backend while it waits for the standbys
sub wait_for_syncrep
{
	my ($pid) = @_;
	return $primary->poll_query_until('postgres',
		"SELECT wait_event = 'SyncRep' FROM pg_stat_activity WHERE pid = $pid");
}

sub walsender_pid
{
	return $primary->safe_psql('postgres', 'SELECT pid FROM pg_stat_replication');
}

# a call in a new second, in a session of its own: psql's status and stderr
sub generate_in_new_second
{
	my ($setup, %params) = @_;
	return psql_verbose($primary,
		"$setup; SELECT pg_sleep(1.1); SELECT base36id_generate()", %params);
}

# 1. nothing a session or role sets lowers the level
my $walsender = walsender_pid();
ok(kill('STOP', $walsender), 'the walsender is paused');

my $timeout_error =
  qr/ERROR:  57014: canceling statement due to statement timeout\n.*CONTEXT:  waiting for synchronous standbys to confirm base36id second \d+; this call returned no id/s;
my ($ret, $err) = generate_in_new_second("SET statement_timeout = '3s'",
	connstr => $primary->connstr('postgres') . ' user=app');
isnt($ret, 0, 'a role with ALTER ROLE ... SET synchronous_commit = off waits, until its statement_timeout');
like($err, $timeout_error, 'with 57014, handing out no id');

($ret, $err) = generate_in_new_second("SET statement_timeout = '3s'",
	connstr => $primary->connstr('postgres')
	  . q{ options='-c synchronous_commit=local'});
isnt($ret, 0, 'so does a session whose connection options say synchronous_commit = local');
like($err, $timeout_error, 'with 57014');

($ret, $err) = psql_verbose($primary,
	"SET synchronous_commit = off; SET statement_timeout = '3s'; SELECT base36id_generate()");
isnt($ret, 0, 'so does a session with SET synchronous_commit = off');

# a terminate ends the wait too, and hands out nothing
my ($gen, $gen_pid) = start_call($primary, 'SELECT base36id_generate();');
ok(wait_for_syncrep($gen_pid), 'a call waits for the standby');
$primary->safe_psql('postgres', "SELECT pg_terminate_backend($gen_pid)");
ok( $primary->poll_query_until(
		'postgres', "SELECT count(*) = 0 FROM pg_stat_activity WHERE pid = $gen_pid"),
	'pg_terminate_backend() ends it');
eval { $gen->quit };

($ret, $err) = psql_verbose($primary,
	"SET statement_timeout = '3s'; SELECT base36id_generate()");
isnt($ret, 0, 'a superuser\'s call then gets no id of the unconfirmed second: it waits too');
like($err, $timeout_error, 'until its statement_timeout');

# a session whose wait was cancelled goes on: it must have left core's queue
# (18's assertions check it at the next commit that waits)
my $cancelled = $primary->background_psql('postgres', on_error_stop => 0);
$cancelled->query("SET statement_timeout = '1s'; SELECT base36id_generate()");
like($cancelled->{stderr}, qr/canceling statement due to statement timeout/,
	'a call in a session that goes on ends at its statement_timeout');

ok(kill('CONT', $walsender), 'the walsender goes on');
like($primary->safe_psql('postgres', 'SELECT base36id_generate()'),
	qr/^[0-9A-Z]{9}$/, 'then the call gets its id');
# (query, not query_safe: the end of the first error may come in late)
is( $cancelled->query(
		"RESET statement_timeout; CREATE TABLE after_cancel (); DROP TABLE after_cancel; SELECT 'committed'"),
	'committed',
	'and the cancelled session commits, waiting for the standby as any commit');
$cancelled->quit;

# 2. remote_apply waits for the replay, which is paused
$primary->safe_psql('postgres',
	"ALTER SYSTEM SET synchronous_commit = remote_apply; SELECT pg_reload_conf()");
ok( $primary->poll_query_until(
		'postgres', 'SHOW synchronous_commit', 'remote_apply'),
	'the server\'s synchronous_commit is remote_apply');
$standby->safe_psql('postgres', 'SELECT pg_wal_replay_pause()');

($gen, $gen_pid) =
  start_call($primary, "SELECT pg_sleep(1.1);\nSELECT base36id_generate();");
ok(wait_for_syncrep($gen_pid), 'with the standby\'s replay paused, a call waits');
($ret, $err) = psql_verbose($primary,
	"SET synchronous_commit = on; SET statement_timeout = '3s'; SELECT count(base36id_generate()) FROM generate_series(1, 3)");
is($ret, 0, 'meanwhile a session at on gets ids: the remote_apply call waits alone')
  or diag($err);
sleep(1);
is( $primary->safe_psql(
		'postgres', "SELECT state || '/' || wait_event FROM pg_stat_activity WHERE pid = $gen_pid"),
	'active/SyncRep',
	'and still waits a second later, with no error');
$standby->safe_psql('postgres', 'SELECT pg_wal_replay_resume()');
my $out = $gen->query('SELECT 1');
like($out, qr/^[0-9A-Z]{9}$/m, 'after the replay resumes, the call returns its id');
unlike($gen->{stderr}, qr/ERROR/, 'and no error');
$gen->quit;
$primary->safe_psql('postgres',
	"ALTER SYSTEM RESET synchronous_commit; SELECT pg_reload_conf()");

# 3. clearing synchronous_standby_names releases a waiting call with its id
$walsender = walsender_pid();
ok(kill('STOP', $walsender), 'the walsender is paused again');
($gen, $gen_pid) =
  start_call($primary, "SELECT pg_sleep(1.1);\nSELECT base36id_generate();");
ok(wait_for_syncrep($gen_pid), 'a call waits for the standby');
$primary->safe_psql('postgres',
	"ALTER SYSTEM RESET synchronous_standby_names; SELECT pg_reload_conf()");
$out = $gen->query('SELECT 1');
like($out, qr/^[0-9A-Z]{9}$/m,
	'clearing synchronous_standby_names releases it with its id');
unlike($gen->{stderr}, qr/ERROR/, 'and no error');
$gen->quit;

# 4. names just set, not yet published by the checkpointer: no wait, as for commits
my $checkpointer = $primary->safe_psql('postgres',
	"SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'");
ok(kill('STOP', $checkpointer), 'the checkpointer is paused');
$primary->safe_psql('postgres',
	"ALTER SYSTEM SET synchronous_standby_names = '*'; SELECT pg_reload_conf()");
ok( $primary->poll_query_until('postgres', 'SHOW synchronous_standby_names', '*'),
	'new sessions see synchronous_standby_names set');
($ret, $err) = generate_in_new_second("SET statement_timeout = '5s'");
is($ret, 0, 'a call just after the names are set does not fail')
  or diag($err);
ok(kill('CONT', $checkpointer), 'the checkpointer goes on');
ok(kill('CONT', $walsender),    'the walsender goes on');
ok( $primary->poll_query_until(
		'postgres', "SELECT sync_state = 'sync' FROM pg_stat_replication"),
	'the standby is synchronous again');
like($primary->safe_psql('postgres', 'SELECT pg_sleep(1.1); SELECT base36id_generate()'),
	qr/[0-9A-Z]{9}$/, 'and calls get ids');

# 5. the floor lowered to local: a second reserved without a wait does not
# serve a session at on unconfirmed
$primary->safe_psql('postgres',
	"ALTER SYSTEM SET idgen.base36id_synchronous_commit = local; SELECT pg_reload_conf()");
ok( $primary->poll_query_until(
		'postgres', 'SHOW idgen.base36id_synchronous_commit', 'local'),
	'the floor is local');
$walsender = walsender_pid();
ok(kill('STOP', $walsender), 'the walsender is paused');
($ret, $err) = generate_in_new_second("SET statement_timeout = '3s'",
	connstr => $primary->connstr('postgres') . ' user=app');
is($ret, 0, 'the role at off reserves a new second and gets an id without a wait')
  or diag($err);
my ($on, $on_pid) = start_call($primary, 'SELECT base36id_generate();');
ok(wait_for_syncrep($on_pid),
	'a session at on asking for an id of that second waits for the standby');
ok(kill('CONT', $walsender), 'the walsender goes on');
like($on->query('SELECT 1'), qr/^[0-9A-Z]{9}$/m, 'then the session at on gets its id');
$on->quit;
$primary->safe_psql('postgres',
	"ALTER SYSTEM RESET idgen.base36id_synchronous_commit; SELECT pg_reload_conf()");

# 6. the postmaster's death ends a wait too: with the standby gone, a call
# waits until the postmaster is killed, then its backend exits
$standby->stop;
my ($orphan, $orphan_pid) =
  start_call($primary, "SELECT pg_sleep(1.1);\nSELECT base36id_generate();");
ok(wait_for_syncrep($orphan_pid), 'with the standby gone, a call waits');
ok(kill_postmaster_and_wait($primary, $orphan_pid),
	'the postmaster is killed, and the waiting backend exits');
eval { $orphan->quit };

done_testing();
