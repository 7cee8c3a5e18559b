
# base36id: failover to a synchronous standby right after read-only
# generation repeats no id.
#
# A read-only SELECT commits nothing, so no commit waits for the synchronous
# standby; the reservation of a new second does (SyncRepWaitForLSN, under the
# server's synchronous_commit) before any id of the second is handed out.
# Here the primary's walsender is paused (SIGSTOP) while a read-only SELECT
# asks for 40 ids: the SELECT must wait.  Then the walsender goes on, the ids
# come, the primary dies, and the synchronous standby, whose clock runs 3 s
# behind, is promoted and generates 40 ids once its clock is in the
# primary's second.
#
# A session's synchronous_commit = local does not lower the level waited for
# (idgen.base36id_synchronous_commit); a wait ended by statement_timeout fails
# the call with SQLSTATE 57014.  034_base36id_sync_wait.pl tests the wait
# from the sessions' side.
#
# Mutation this test catches (tried by hand): no SyncRepWaitForLSN (1.1's
# first generator): the SELECT returns at once; the primary is then killed
# before its walsender resumes, and the promoted standby repeats all 40 ids.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $worker = 9;

my $primary = start_idgen_primary('b36s_primary', "idgen.worker_id = $worker");
$primary->backup('b');

my $standby = PostgreSQL::Test::Cluster->new('b36s_standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
my $clock = $standby->basedir . '/faketime.rc';
set_clock_offset($clock, '-3');
with_faketime($clock, sub { $standby->start });

$primary->safe_psql('postgres', "ALTER SYSTEM SET synchronous_standby_names = '*'");
$primary->reload;
ok( $primary->poll_query_until(
		'postgres', "SELECT sync_state = 'sync' FROM pg_stat_replication"),
	'the standby is synchronous');
my $lag = server_clock_lag($standby);
ok($lag > 2 && $lag < 4, "the standby's clock is 3 s behind")
  or diag("standby clock lag: $lag s");

my $walsender = $primary->safe_psql('postgres', 'SELECT pid FROM pg_stat_replication');
ok(kill('STOP', $walsender), 'the walsender is paused');

# the server's synchronous_commit rules, not a session's lower one; a wait
# ended by statement_timeout hands out no id
my ($ret, $err) = psql_verbose($primary,
	"SET synchronous_commit = local; SET statement_timeout = '2s'; SELECT base36id_generate()");
isnt($ret, 0,
	'a call waits for the standby despite the session\'s synchronous_commit = local, and times out');
like(
	$err,
	qr/ERROR:  57014: canceling statement due to statement timeout\n.*CONTEXT:  waiting for synchronous standbys to confirm base36id second \d+; this call returned no id/s,
	'with SQLSTATE 57014, handing out no id');

my ($gen, $gen_pid) =
  start_call($primary, 'SELECT base36id_generate() FROM generate_series(1, 40);');
my $state = settled_state($primary, $gen_pid);
is($state, 'active/SyncRep',
	'the read-only SELECT waits for the synchronous standby before handing out ids');

if ($state eq 'active/SyncRep')
{
	ok(kill('CONT', $walsender), 'the walsender goes on');
}
my @issued = grep { /^[0-9A-Z]{9}$/ } split /\n/, $gen->query_safe('SELECT 1');
$gen->quit;
is(scalar @issued, 40, 'the primary returned 40 ids');

# the primary dies; a paused walsender could not even exit
kill('KILL', $walsender) unless $state eq 'active/SyncRep';
$primary->stop('immediate');
$standby->promote;

my ($min_issued) = sort @issued;
# the standby's clock reaches the primary's first second, then generates
my @after = split /\n/,
  $standby->safe_psql(
	'postgres', qq{
	SELECT pg_sleep_until(base36id_timestamp('$min_issued'));
	SELECT base36id_generate() FROM generate_series(1, 40);});
@after = grep { /^[0-9A-Z]{9}$/ } @after;
is(scalar @after, 40, 'the promoted standby generates 40 ids');
my %issued = map { $_ => 1 } @issued;
is(scalar(grep { $issued{$_} } @after), 0, 'none repeats an id of the primary');

$standby->stop;

done_testing();
