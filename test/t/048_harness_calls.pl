# The harness itself: everything psql printed for a call of start_call()
# reaches printed_ids(), also when the call returns at once and its output
# arrives in the same read as start_call's mark (query_until clears what it
# read: 047 once lost an id that way, on CI and in an empty-cache run).
# Without the fix, 10 of 60 calls lost their output on a loaded machine.

use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('calls');
$node->init;
$node->start;
my $lost = 0;
foreach my $i (1 .. 40)
{
	my ($s, $pid) = start_call($node, "SELECT 'ABCDEFGH1';");
	$node->poll_query_until('postgres', "SELECT state = 'idle' FROM pg_stat_activity WHERE pid = $pid");
	Time::HiRes::sleep(0.05);
	my @ids = printed_ids($s);
	$lost++ unless @ids == 1;
}
is($lost, 0, "every call's output is read (lost: $lost of 40)");
$node->stop;
done_testing();
