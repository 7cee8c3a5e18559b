
# base36id: a standby that cannot make a replayed second durable stops
# recovery, and replays the record again when started.
#
# A standby writes each recent second it replays to its own state file, so
# that its restarts (and backups taken from it) keep it once a restartpoint
# has passed the record.  If the write fails and replay went on, a
# restartpoint could pass the record first and the second would be lost.  So
# a failure stops the startup process, as core does when recovery cannot
# write its own files; the next start replays the record again.
#
# The standby runs with fault_fsync.c preloaded; fsync() of the state file
# fails while a flag file exists.
#
# Mutation this test catches (tried by hand): the failure only a WARNING
# (1.1's first generator): the standby goes on replaying.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = start_idgen_primary('b36w_primary', 'idgen.worker_id = 6');
$primary->backup('b');

my $standby = PostgreSQL::Test::Cluster->new('b36w_standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->append_conf('postgresql.conf', 'fsync = on');
my $ctl = start_with_fault_fsync($standby);
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));

set_fsync_fault($ctl, 'fail');
my $log_offset = -s $standby->logfile;
# a new second on the primary
$primary->safe_psql('postgres', 'SELECT pg_sleep(1.1)');
my $id = $primary->safe_psql('postgres', 'SELECT base36id_generate()');
my $second = $primary->safe_psql('postgres',
	"SELECT extract(epoch FROM base36id_timestamp('$id'))::bigint - 1704067200");

ok( $standby->wait_for_log(
		qr/could not fsync file "idgen_base36id.state": Input\/output error/, $log_offset),
	'the standby fails to fsync the replayed second');
my $stopped = 0;
for (1 .. $PostgreSQL::Test::Utils::timeout_default * 10)
{
	$stopped = system('pg_ctl', '-D', $standby->data_dir, 'status') >> 8 == 3;
	last if $stopped;
	select(undef, undef, undef, 0.1);
}
ok($stopped, 'recovery stops: the standby shuts down');
like(
	slurp_file($standby->logfile, $log_offset),
	qr/FATAL:  could not fsync file "idgen_base36id.state"/,
	'the startup process ends with the error');
$standby->_update_pid(-1);

# storage works again: the record is replayed again
clear_fsync_fault($ctl, 'fail');
start_with_fault_fsync($standby);
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
$standby->safe_psql('postgres', 'CHECKPOINT');
cmp_ok(state_file_second($standby) // -1, '>=', $second,
	"after a restart the standby's state file holds the primary's second (or a later one)");

$standby->stop;
$primary->stop;

done_testing();
