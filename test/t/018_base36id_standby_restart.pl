
# base36id: a standby's restarts keep the seconds it replayed.
#
# A standby replays the primary's reservation records; after a restartpoint
# past them, a restart of the standby replays WAL only from there.  Replay
# therefore writes the second to the standby's own state file, as the
# primary does, and the promoted standby still starts after every second it
# ever replayed.
#
# The primary's clock runs $ahead seconds ahead (libfaketime), so that at
# promotion the standby's own clock is before the primary's last second.
#
# Mutation this test catches (tried by hand): redo that does not write the
# state file (the promoted standby issues ids from its own, earlier, clock).

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $worker = 8;
my $ahead = 20;

my ($primary) = start_faketime_primary('b36r_primary', "+$ahead",
	conf => ["idgen.worker_id = $worker"]);
$primary->backup('b');

my $standby = PostgreSQL::Test::Cluster->new('b36r_standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->start;

my @issued = split /\n/,
  $primary->safe_psql('postgres',
	'SELECT base36id_generate() FROM generate_series(1, 30)');
is(scalar @issued, 30, 'the primary returned 30 ids');
my ($max_issued) = sort { $b cmp $a } @issued;
my $max_second = $primary->safe_psql('postgres',
	"SELECT extract(epoch FROM base36id_timestamp('$max_issued'))::bigint - 1704067200");

# a checkpoint after the ids, replayed by the standby, which makes it its
# restartpoint: a restart of the standby replays WAL only after it
$primary->safe_psql('postgres', 'CHECKPOINT');
my $lsn = $primary->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');
$standby->poll_query_until('postgres', "SELECT pg_last_wal_replay_lsn() >= '$lsn'")
  or die 'the standby did not replay the checkpoint';
$standby->safe_psql('postgres', 'CHECKPOINT');
is(state_file_second($standby), $max_second,
	"the standby's state file holds the primary's last second");
$standby->restart;

$primary->stop('immediate');
$standby->promote;
my ($before, @after) = split /\n/,
  $standby->safe_psql(
	'postgres', qq{
	SELECT clock_timestamp() < base36id_timestamp('$max_issued') + interval '1 second';
	SELECT base36id_generate() FROM generate_series(1, 20);});
is($before, 't',
	"after promotion the standby's clock is before the end of the primary's last second");
is(scalar @after, 20, 'the promoted standby generates 20 ids');
is(scalar(grep { $_ le $max_issued } @after),
	0, 'each is greater than every id the primary returned')
  or diag("greatest id of the primary: $max_issued; standby: @after");

$standby->stop;

done_testing();
