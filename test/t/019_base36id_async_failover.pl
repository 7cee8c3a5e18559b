
# base36id: asynchronous failover within one second, the last WAL lost.
#
# The issue's case: a primary generates ids, stops with -m immediate, and its
# standby is promoted within the same second.  Here the standby does not even
# get the primary's last WAL (replication is cut before the ids, as with an
# asynchronous standby that lags), so the replayed high-water cannot help;
# what does is that a server ending recovery starts after the second, by its
# own clock, in which it did.  With the two clocks in agreement, the old
# primary's ids all come from that second or earlier.
#
# To be within one second for sure, both servers' clocks are frozen at the
# same second T (libfaketime, absolute time) from before the ids to after the
# promotion; then the promoted standby's first call must wait for the clock
# to pass T, and the clock is let go.
#
# Mutation this test catches (tried by hand): no clock floor at the end of
# recovery (the promoted standby hands out T's counters again at once).

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use POSIX qw(strftime);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $worker = 6;

# libfaketime reads absolute times in the local time zone
$ENV{TZ} = 'UTC';

my ($primary, $clock) = start_faketime_primary('b36a_primary', '+0',
	conf => ["idgen.worker_id = $worker"]);
$primary->backup('b');

my $standby = PostgreSQL::Test::Cluster->new('b36a_standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
with_faketime($clock, sub { $standby->start });
$primary->poll_query_until('postgres',
	"SELECT count(*) = 1 FROM pg_stat_replication WHERE state = 'streaming'")
  or die 'the standby does not stream';

# Replication is cut: the primary rejects replication connections and its
# walsender is terminated.
my $hba = $primary->data_dir . '/pg_hba.conf';
my $hba_old = slurp_file($hba);
open my $fh, '>', $hba or die "$hba: $!";
print $fh "local replication all reject\nhost replication all all reject\n$hba_old";
close $fh or die "$hba: $!";
$primary->reload;
$primary->safe_psql('postgres',
	"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE backend_type = 'walsender'");
ok( $primary->poll_query_until(
		'postgres', 'SELECT count(*) = 0 FROM pg_stat_replication'),
	'replication is cut');

# Both clocks freeze at T, a second neither server has used.
my $t = int(time()) + 2;
set_clock_offset($clock, strftime('%Y-%m-%d %H:%M:%S', gmtime($t)));
my $t_text = strftime('%Y-%m-%d %H:%M:%S+00', gmtime($t));
foreach my $node ($primary, $standby)
{
	is( $node->safe_psql(
			'postgres',
			"SELECT clock_timestamp() = '$t_text' AND clock_timestamp() = clock_timestamp()"),
		't',
		$node->name . "'s clock is frozen at T");
}

my @issued = split /\n/,
  $primary->safe_psql('postgres',
	'SELECT base36id_generate() FROM generate_series(1, 30)');
my %issued = map { $_ => 1 } @issued;
is(scalar(keys %issued), 30, 'the primary returned 30 ids');
is( $primary->safe_psql(
		'postgres',
		'SELECT count(*) FROM unnest(ARRAY['
		  . join(',', map { "'$_'::base36id" } @issued)
		  . "]) id WHERE base36id_timestamp(id) = '$t_text'"),
	'30',
	'all from second T');
my ($max_issued) = sort { $b cmp $a } @issued;

$primary->stop('immediate');
$standby->promote;
is($standby->safe_psql('postgres', "SELECT clock_timestamp() = '$t_text'"),
	't', 'the standby was promoted within second T');

# The first call on the promoted standby waits for the clock to pass T.
my $session = $standby->background_psql('postgres');
my $pid = $session->query_safe('SELECT pg_backend_pid()');
$session->query_until(qr/generate-start/,
	"\\echo generate-start\nSELECT base36id_generate();\n");
my $waits = 0;
foreach (1 .. 50)
{
	my $state = $standby->safe_psql('postgres',
		"SELECT state || '/' || coalesce(wait_event_type, '') || '/' || coalesce(wait_event, '') FROM pg_stat_activity WHERE pid = $pid"
	);
	# the wait for the next second: an extension's wait event, on 15 and 16
	# Timeout/PgSleep (doc/monitoring.md)
	if ($state =~ m{^active/Extension/} || $state eq 'active/Timeout/PgSleep')
	{
		$waits = 1;
		last;
	}
	last if $state =~ /^idle/;
	select(undef, undef, undef, 0.1);
}
ok($waits, "the promoted standby's first call waits while the clock is at T");

# The clock runs again: the call returns an id from a later second.
set_clock_offset($clock, '+0');
my ($id) = grep { /^[0-9A-Z]{9}$/ } split /\n/, $session->query_safe('SELECT 1');
$session->quit;
ok(defined $id && !$issued{$id}, 'its id is none of the primary\'s')
  or diag('id: ' . ($id // 'none'));
ok(defined $id && $id gt $max_issued,
	'it is greater than every id the primary returned')
  or diag('id: ' . ($id // 'none') . ", greatest of the primary: $max_issued");

$standby->stop;

done_testing();
