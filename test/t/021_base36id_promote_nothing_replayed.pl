
# base36id: a standby promoted with nothing replayed since its start still
# skips the second it was promoted in.
#
# The standby is restarted after its primary stopped: it starts at a shutdown
# restartpoint, has no WAL left to replay, and is promoted.  PostgreSQL then
# runs no resource manager's end-of-recovery callback (rm_cleanup runs only
# when a record was replayed), so the floor must come from elsewhere: the
# first generation after a start or promotion raises it to the clock's
# second.  The old primary, whose clock may be a few milliseconds ahead, may
# have handed out ids of that second in WAL the standby never received.
#
# Mutation this test catches (tried by hand): the floor raised only in
# rm_cleanup (1.1's first generator): the first id comes from the second the
# clock is in right after promotion.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = start_idgen_primary('b36p_primary', 'idgen.worker_id = 4');
$primary->safe_psql('postgres', 'SELECT base36id_generate() FROM generate_series(1, 3)');
$primary->backup('b');

my $standby = PostgreSQL::Test::Cluster->new('b36p_standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->start;
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));

# the primary's shutdown checkpoint reaches the standby; then the standby
# restarts at it
$primary->stop('fast');
my $log_offset = -s $standby->logfile;
$standby->restart;
# the standby's clock past the second its counters started used up at (its
# start), so that only the promotion can put the first id past the clock's
# second
await_unreserved_second($standby);
$standby->promote;
# the clock read in the statement that makes the first id, just before it
my ($clock, $first) = split /\|/,
  $standby->safe_psql(
	'postgres', q{
	SELECT floor(extract(epoch FROM clock_timestamp()))::bigint,
	       extract(epoch FROM base36id_timestamp(base36id_generate()))::bigint});
ok(!$standby->log_contains(qr/redo starts at/, $log_offset),
	'the standby replayed nothing after its restart');
cmp_ok($first, '>', $clock,
	"the first id after promotion comes after the second the promoted server's clock was in");

$standby->stop;

done_testing();
