
# base36id: a standby catching up on old WAL does not fsync its state file
# once per replayed second.
#
# Replay fsyncs the state file only for seconds within 60 s of
# the standby's clock: older ones are below the clock already, which the
# floor never goes under after a restart.  Here the primary's clock runs a
# day behind (libfaketime), it generates in 10 seconds of its own, and a
# standby started afterwards replays them all; fault_fsync.c counts the
# fsyncs of the standby's state file.  (test/bench/catchup.sh times it.)
#
# Mutation this test catches (tried by hand): one fsync per replayed
# second (1.1's first generator): 10 fsyncs.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my ($primary) = start_faketime_primary('b36c_primary', '-1d',
	conf => ['idgen.worker_id = 12']);
$primary->backup('b');

my %seconds;
for (1 .. 10)
{
	# a second not reserved yet: each id reserves one of its own
	await_unreserved_second($primary);
	my $id = $primary->safe_psql('postgres', 'SELECT base36id_generate()');
	$id =~ s/^\s+//;
	$seconds{ substr($id, 0, 6) } = 1;
}
is(scalar(keys %seconds), 10, 'the primary generated in 10 seconds, a day ago');
my $lsn = $primary->lsn('insert');

my $standby = PostgreSQL::Test::Cluster->new('b36c_standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->append_conf('postgresql.conf', 'fsync = on');
my $ctl = $standby->basedir . '/fsync';
set_fsync_fault($ctl, 'count');
start_with_fault_fsync($standby);
$standby->poll_query_until('postgres', "SELECT pg_last_wal_replay_lsn() >= '$lsn'")
  or die 'the standby did not catch up';
my @fsyncs = grep { $_ eq '1' } split /\n/, slurp_file("$ctl.count");
cmp_ok(scalar @fsyncs, '<=', 1,
	'catching up on 10 old seconds fsyncs the state file at most once');

$standby->stop;
$primary->stop;

done_testing();
