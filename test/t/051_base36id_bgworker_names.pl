# base36id in a background worker that ignores SIGHUP (pg_cron's job
# workers, as core's bgworker.c leaves them): it is never told of a reload,
# so its copy of synchronous_standby_names stays the one it started with,
# and must not be trusted as a client backend's is.
#
# ANY 1 (a, c); a pg_cron job (a background worker) generates ids in a
# loop.  c's WAL receiver is stopped (SIGSTOP): the job cannot know whether
# c is one the names need, so each of its ids waits for a record of its own
# that every standby streaming has, and it gets none from now on.  A client
# session (ANY 1: a confirms) reserves a new second S meanwhile.  The names
# become FIRST 1 (c, a), and every walsender has them (c is the synchronous
# standby).  A new session's call waits for c; so do the job's calls: no id
# the job logs after c stopped is one c lacks.  The primary then dies; c,
# which never had S's record, is promoted with its clock before S, and
# repeats none of the job's ids.
#
# pg_cron is packaged for PostgreSQL 15 only (postgresql-15-cron): on other
# servers the test is skipped; on 15 the test command installs it, and the
# test fails without it.  Fails when a background worker trusts its copy
# (B36S_MUTANT_BGW of src/core/b36sync.c, planted in the extension): the
# job's ids go on, judged by ANY 1 on the latest reservation's record, and
# the promoted c repeats them.

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

plan_packaged_15('pg_cron', 'pg_cron', 'postgresql-15-cron');

# a stopped receiver must not be timed out meanwhile
my $primary = start_idgen_primary('b36bg_primary',
	"shared_preload_libraries = 'idgen,pg_cron'",
	'cron.use_background_workers = on',
	'cron.database_name = postgres',
	'max_worker_processes = 16',
	'idgen.worker_id = 7', 'wal_sender_timeout = 0');
$primary->backup('b');
my %sb;
foreach my $name (qw(a c))
{
	my $node = PostgreSQL::Test::Cluster->new("b36bg_$name");
	$node->init_from_backup($primary, 'b', has_streaming => 1);
	$node->append_conf('postgresql.conf',
		"wal_receiver_timeout = 0\nshared_preload_libraries = 'idgen'");
	$sb{$name} = $node;
}
my $c_clock = File::Spec->rel2abs($sb{c}->basedir . '/faketime.rc');
set_clock_offset($c_clock, '+0');
$sb{a}->start;
with_faketime($c_clock, sub { $sb{c}->start });
$primary->wait_for_catchup($sb{$_}) foreach qw(a c);

ok( set_sync_names(
		$primary, 'ANY 1 (b36bg_a, b36bg_c)',
		'b36bg_a=quorum,b36bg_c=quorum'),
	'ANY 1 (a, c)');

# every minute (pg_cron's finest here): a loop that logs each id it gets
$primary->safe_psql('postgres', q{CREATE EXTENSION pg_cron;
	SELECT cron.schedule('* * * * *', $j$DO $d$ BEGIN LOOP RAISE LOG 'b36job %', base36id_generate()::text; PERFORM pg_sleep(0.01); END LOOP; END $d$$j$);});

sub job_ids
{
	my ($from) = @_;
	return slurp_file($primary->logfile, $from) =~ /b36job ([0-9A-Z]{9})/g;
}
ok( $primary->poll_query_until(
		'postgres',
		"SELECT backend_type <> 'client backend' FROM pg_stat_activity WHERE query LIKE 'DO %b36job%'"
	),
	'the job runs in a background worker');
my $got_ids = 0;
foreach (1 .. 3000)
{
	$got_ids = () = job_ids(0);
	last if $got_ids >= 3;
	Time::HiRes::sleep(0.01);
}
ok($got_ids >= 3, 'the job gets ids');

my $receiver_c = $sb{c}->safe_psql('postgres', 'SELECT pid FROM pg_stat_wal_receiver');
ok($receiver_c =~ /^\d+$/, "c's WAL receiver");
kill 'STOP', $receiver_c;
my $off_stopped = -s $primary->logfile;

# a client session reserves a new second, a (ANY 1) confirms it
my $lsn0 = $primary->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');
ok( $primary->poll_query_until(
		'postgres',
		"SELECT base36id_generate() IS NOT NULL AND last_reservation_lsn > '$lsn0' FROM idgen_stat_base36id"),
	'a second is reserved after c stopped receiving');
# S: that second; c lacks its record and every later one
my ($second, $lsn) = split /\|/,
  $primary->safe_psql('postgres',
	'SELECT extract(epoch FROM reserved_second)::bigint, last_reservation_lsn FROM idgen_stat_base36id'
  );
# c synchronous: c's walsender has priority 1, a's 2 (with a's old 1, a,
# the lower slot, would be)
ok( set_sync_names(
		$primary, 'FIRST 1 (b36bg_c, b36bg_a)',
		'b36bg_a=potential,b36bg_c=sync'),
	'every walsender has FIRST 1 (c, a): c is the synchronous standby');
# the checkpointer has the flag set all along (the names were never empty);
# from here on, every id must wait for c

my ($other, $other_pid) = start_call($primary, 'SELECT base36id_generate();');
is(settled_state($primary, $other_pid), 'active/SyncRep',
	'a new session\'s call waits: c lacks the record');
ok( $primary->poll_query_until(
		'postgres',
		"SELECT wait_event = 'SyncRep' FROM pg_stat_activity WHERE query LIKE 'DO %b36job%'"
	),
	'the job waits too');
# an id taken before c stopped may have been logged after it: the job logs
# at most one more once it waits
my @after = job_ids($off_stopped);
ok(@after <= 1,
	'the job got no id after c stopped (logged after it: ' . scalar(@after) . ')');

$primary->stop('immediate');
my @returned = printed_ids($other);
is(scalar @returned, 0, 'the new session returned no id');
push @returned, @after;

# c's receiver never reads what the walsender had sent it
ok(restart_without_receiver($sb{c}, $receiver_c, $c_clock, $second),
	'c stopped once its receiver was killed');
is( $sb{c}->safe_psql('postgres',
		"SELECT pg_is_in_recovery() AND pg_last_wal_replay_lsn() < '$lsn'"),
	't', 'c is a standby again, without the record');
check_promoted_repeats_none($sb{c}, $c_clock, $second, \@returned,
	unknown => 1);

$sb{$_}->stop foreach qw(a c);
done_testing();
