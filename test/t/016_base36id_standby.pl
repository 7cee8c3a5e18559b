
# base36id on a streaming standby, after failover and in a restored backup.
#
# A standby copies its primary's settings, idgen.worker_id included, so its
# ids would repeat the primary's: it refuses to generate (25006, as
# nextval()).  Before the first id of a second is handed out, the primary
# WAL-logs that second and flushes the record, whether or not the
# transaction commits; a promoted standby or a restored base backup starts
# its counters used up at the latest second it replayed.
#
# The primary's clock runs $ahead seconds ahead of the standby's (libfaketime):
# when the standby is promoted its own clock is still before the primary's
# last second, as when a primary fails and its standby is promoted within the
# same second.  So only the replayed high-water keeps the promoted standby
# from reissuing the primary's ids, whatever the timing of the test.
#
# Every id the primary returned to a client is kept: ids of committed rows,
# of a transaction that rolled back and of a read-only query, each in a
# second of its own.  The last second's ids come from the read-only query,
# which writes no WAL of its own: nothing but idgen flushes its reservation
# (wal_writer_delay is 10 s), and the standby is waited for up to the
# primary's flush position, no further.
#
# Mutations this test catches (each tried by hand):
# - no recovery check: the standby fails with another error than 25006;
# - redo that does not raise the floor, or no WAL record at all: the promoted
#   standby and the restored backup issue ids from their own (earlier) clock;
# - the WAL record not flushed before the id is handed out: the standby lacks
#   the last second's reservation and reissues its ids.

use strict;
use warnings;

use File::Copy;
use FindBin;
use IPC::Run;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $worker = 7;
my $ahead = 20;    # seconds the primary's clock is ahead

my ($primary) = start_faketime_primary(
	'b36_primary', "+$ahead",
	init => { has_archiving => 1 },
	conf => [ "idgen.worker_id = $worker", "wal_writer_delay = '10s'" ]);
$primary->safe_psql('postgres', 'CREATE TABLE r (id base36id PRIMARY KEY)');
my $lag = server_clock_lag($primary);
ok($lag > -$ahead - 1 && $lag < -$ahead + 1,
	"the primary's clock is $ahead s ahead")
  or diag("primary clock lag: $lag s");

# before any id: the backup holds no state file, only WAL can tell
$primary->backup('before_ids');
ok(!-e $primary->backup_dir . '/before_ids/idgen_base36id.state',
	'the base backup has no base36id state file');

my $standby = PostgreSQL::Test::Cluster->new('b36_standby');
$standby->init_from_backup($primary, 'before_ids', has_streaming => 1);
$standby->append_conf('postgresql.conf', 'archive_mode = off');
$standby->start;

#
# The standby refuses.
#
is($standby->safe_psql('postgres', 'SHOW idgen.worker_id'),
	$worker, 'the standby has the same idgen.worker_id');
my ($ret, $err) = psql_verbose($standby, 'SELECT base36id_generate()');
isnt($ret, 0, 'base36id_generate() fails on the standby');
like(
	$err,
	qr/ERROR:  25006: cannot execute base36id_generate\(\) during recovery/,
	'with SQLSTATE 25006 and the message nextval() has');
like($err, qr/HINT:  Generate base36id values on the primary server\./,
	'with a hint to generate on the primary');

#
# The primary's ids, every one returned to a client.
#
my %issued;

sub keep_ids
{
	my ($out) = @_;
	my @ids = grep { /^[0-9A-Z]{9}$/ } split /\n/, $out;
	$issued{$_}++ foreach @ids;
	return scalar @ids;
}

is( keep_ids(
		$primary->safe_psql(
			'postgres',
			'INSERT INTO r SELECT base36id_generate() FROM generate_series(1, 50) RETURNING id'
		)),
	50,
	'50 ids in committed rows');

# Each of the next two steps starts a new second, so that its transaction
# reserves it: one that rolls back, then a read-only query, the last WAL
# before the primary stops.
sub next_second
{
	await_unreserved_second($primary);
	return;
}
next_second();
is( keep_ids(
		$primary->safe_psql(
			'postgres', q{
			BEGIN;
			INSERT INTO r SELECT base36id_generate() FROM generate_series(1, 20) RETURNING id;
			ROLLBACK;})),
	20,
	'20 ids in rows rolled back');
next_second();
is( keep_ids(
		$primary->safe_psql(
			'postgres', 'SELECT base36id_generate() FROM generate_series(1, 20)')),
	20,
	'20 ids from a read-only query');
is(scalar(keys %issued), 90, 'the primary returned 90 distinct ids');
my ($max_issued) = sort { $b cmp $a } keys %issued;
my @rows_before = split /\n/,
  $primary->safe_psql('postgres', 'SELECT id FROM r ORDER BY id');
is(scalar @rows_before, 50, 'only the committed rows are in the table');

# Only WAL the primary has flushed can reach a standby (asynchronous
# replication): wait for that and no more.
my $flushed = $primary->safe_psql('postgres', 'SELECT pg_current_wal_flush_lsn()');
# (promotion replays all the standby received)
$standby->poll_query_until('postgres',
	"SELECT pg_last_wal_receive_lsn() >= '$flushed'")
  or die 'the standby did not receive the WAL the primary flushed';

#
# Failover: the primary stops at once, the standby is promoted.  At the same
# time, its base backup is restored with its WAL up to the stop (what a WAL
# archive or pg_receivewal holds: only WAL written to disk), recovered to the
# end of it and started as a server of its own.
#
# On each, one psql reads the clock (it must still be before the end of the
# primary's last second, or the test could not tell a server that forgot it)
# and then generates 20 ids; the two run at once, as each waits for its
# clock to pass the primary's last second.
#
my $generate_sql = 'INSERT INTO r SELECT base36id_generate() FROM generate_series(1, 20) RETURNING id';

sub start_generation
{
	my ($node) = @_;
	my $run = { out => '', err => '' };
	$run->{harness} = IPC::Run::start(
		[
			'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1',
			'-d', $node->connstr('postgres'),
			'-c', "SELECT clock_timestamp() < base36id_timestamp('$max_issued') + interval '1 second'",
			'-c', $generate_sql
		],
		'>', \$run->{out}, '2>', \$run->{err},
		IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
	return $run;
}

sub check_generation
{
	my ($run, $label) = @_;
	ok($run->{harness}->finish, "$label: psql succeeds") or diag($run->{err});
	my ($before, @ids) = split /\n/, $run->{out};
	is($before, 't',
		"$label: its clock is before the end of the primary's last second");
	is(scalar @ids, 20, "$label: generates 20 ids into the table");
	is(scalar(grep { $issued{$_} } @ids),
		0, "$label: none of them is an id the primary returned");
	is(scalar(grep { $_ le $max_issued } @ids),
		0, "$label: each is greater than every id the primary returned")
	  or diag("greatest id of the primary: $max_issued; $label: @ids");
	return;
}

$primary->stop('immediate');

opendir my $wal_dir, $primary->data_dir . '/pg_wal' or die "pg_wal: $!";
foreach my $segment (grep { /^[0-9A-F]{24}$/ } readdir $wal_dir)
{
	my $to = $primary->archive_dir . "/$segment";
	copy($primary->data_dir . "/pg_wal/$segment", $to) or die "copy $segment: $!"
	  unless -e $to;
}
closedir $wal_dir;

$standby->promote;
my $standby_run = start_generation($standby);

my $restored = PostgreSQL::Test::Cluster->new('b36_restored');
$restored->init_from_backup($primary, 'before_ids',
	has_restoring => 1, standby => 0);
$restored->append_conf('postgresql.conf', 'archive_mode = off');
$restored->start;
$restored->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
  or die 'the restored backup did not finish recovery';
is($restored->safe_psql('postgres', 'SELECT count(*) FROM r'),
	'50', 'the restored backup replayed the committed rows');
my $restored_run = start_generation($restored);

check_generation($standby_run, 'promoted standby');
check_generation($restored_run, 'restored backup');

$restored->stop;
$standby->stop;

done_testing();
