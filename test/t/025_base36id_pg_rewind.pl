
# base36id: pg_rewind after a split-brain failover.
#
# The standby is promoted while its primary keeps running; both generate
# base36ids, so both timelines hold reservation records of idgen's resource
# manager.  The old primary then dies (not shut down cleanly: pg_rewind
# first completes its crash recovery with "postgres --single", which replays
# those records and needs idgen preloaded), is rewound onto the new
# primary's timeline, starts as its standby and streams.  Finally the roles
# switch back: the rewound server is promoted and its ids come after every
# id of the new primary.
#
# No claim is made about ids of the split-brain window itself: two primaries
# with one worker number can hand out the same id.

use strict;
use warnings;

use File::Copy;
use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# wal_keep_size: pg_rewind reads the old primary's WAL back to the last
# common checkpoint, which its crash recovery would otherwise recycle
my $primary = start_idgen_primary('b36rw_primary', 'idgen.worker_id = 11',
	'wal_log_hints = on', 'wal_keep_size = 128MB');
$primary->safe_psql('postgres', 'SELECT base36id_generate() FROM generate_series(1, 5)');
$primary->backup('b');

my $standby = PostgreSQL::Test::Cluster->new('b36rw_standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->start;
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));

# split brain: both generate, in seconds of their own
$standby->promote;
$standby->safe_psql('postgres', 'CHECKPOINT');
my @new_ids;
for (1 .. 3)
{
	$primary->safe_psql('postgres',
		'SELECT pg_sleep(1.05); SELECT base36id_generate() FROM generate_series(1, 5)');
	push @new_ids, grep { /^[0-9A-Z]{9}$/ } split /\n/,
	  $standby->safe_psql('postgres', 'SELECT base36id_generate() FROM generate_series(1, 5)');
}
$primary->stop('immediate');

# pg_rewind overwrites postgresql.conf with the source's (port included)
my $conf = $primary->data_dir . '/postgresql.conf';
copy($conf, $primary->basedir . '/postgresql.conf.keep') or die "copy $conf: $!";
my ($out, $err) = run_command(
	[
		'pg_rewind', '--target-pgdata', $primary->data_dir,
		'--source-server', $standby->connstr('postgres'),
		'--write-recovery-conf'
	]);
like($err, qr/for target server to complete crash recovery/,
	'pg_rewind first completes the crash recovery of the old primary, idgen records included');
like($err, qr/Done!/, 'pg_rewind rewinds the old primary') or diag($err);
copy($primary->basedir . '/postgresql.conf.keep', $conf) or die "copy $conf: $!";

$primary->start;
ok( $standby->poll_query_until(
		'postgres', "SELECT count(*) = 1 FROM pg_stat_replication WHERE state = 'streaming'"),
	'the rewound server streams from the new primary');
my ($ret, $gen_err) = psql_verbose($primary, 'SELECT base36id_generate()');
like($gen_err, qr/ERROR:  25006:/, 'as a standby it refuses to generate');

# more ids on the new primary, replayed by the rewound server
$standby->safe_psql('postgres', 'SELECT pg_sleep(1.05)');
push @new_ids, grep { /^[0-9A-Z]{9}$/ } split /\n/,
  $standby->safe_psql('postgres', 'SELECT base36id_generate() FROM generate_series(1, 5)');
# (not wait_for_catchup: the connection pg_rewind wrote has another
# application_name)
my $lsn = $standby->lsn('insert');
$primary->poll_query_until('postgres', "SELECT pg_last_wal_replay_lsn() >= '$lsn'")
  or die 'the rewound server did not replay the new primary\'s ids';
is(scalar @new_ids, 20, 'the new primary returned 20 ids');

# switch back
$standby->stop('fast');
$primary->promote;
my @after = split /\n/,
  $primary->safe_psql('postgres', 'SELECT base36id_generate() FROM generate_series(1, 20)');
my ($max_new) = sort { $b cmp $a } @new_ids;
is(scalar(grep { $_ le $max_new } @after),
	0, 'promoted again, the rewound server hands out ids after every id of the new primary');

$primary->stop;

done_testing();
