
# base36id: a second confirmed by a standby that stops being synchronous is
# confirmed again, by the new synchronous standby, before more ids of it
# are handed out.
#
# synchronous_standby_names = 'FIRST 1 (s1, s2)'.  s2's walsender is paused
# (SIGSTOP: s2 lags, and its walsender still counts as streaming); s1
# confirms second S, of which an id is handed out.  The primary's clock
# then steps back 30 s, so that generation stays in S (base36id's second
# never goes backwards), and s1 stops: s2 becomes the synchronous standby,
# as pg_stat_replication shows, and commits from now on wait for it.  An
# id of S asked for now must wait for s2 too.  Then the primary dies and s2,
# its clock set just before S, is promoted: it must repeat none of the ids
# the primary handed out.
#
# Mutation this test catches (tried by hand): ids of a reserved second
# handed out without checking which standbys confirmed it (1.1's second
# version): the ids after the switch come at once, s2 never gets S's
# record, and the promoted s2 repeats them.

use strict;
use warnings;

use File::Spec;
use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# the clock starts ahead and steps back to the true time (see 005)
my ($primary, $primary_clock) = start_faketime_primary('b36x_primary', '+30',
	conf => ['idgen.worker_id = 6']);
$primary->backup('b');

# has_streaming names each standby's connection after the node
my $s1 = PostgreSQL::Test::Cluster->new('b36x_s1');
$s1->init_from_backup($primary, 'b', has_streaming => 1);
$s1->start;
my $s2 = PostgreSQL::Test::Cluster->new('b36x_s2');
$s2->init_from_backup($primary, 'b', has_streaming => 1);
my $s2_clock = File::Spec->rel2abs($s2->basedir . '/faketime.rc');
set_clock_offset($s2_clock, '+0');
with_faketime($s2_clock, sub { $s2->start });

$primary->safe_psql('postgres', q{
	ALTER SYSTEM SET synchronous_standby_names = 'FIRST 1 (b36x_s1, b36x_s2)';
	SELECT pg_reload_conf();});

ok( $primary->poll_query_until(
		'postgres',
		"SELECT string_agg(application_name || '=' || sync_state, ',' ORDER BY application_name) FROM pg_stat_replication",
		'b36x_s1=sync,b36x_s2=potential'),
	's1 is the synchronous standby, s2 a potential one');

my $s2_walsender = $primary->safe_psql('postgres',
	"SELECT pid FROM pg_stat_replication WHERE application_name = 'b36x_s2'");
ok(kill('STOP', $s2_walsender), 's2\'s walsender is paused: s2 lags');

# second S, confirmed by s1
await_unreserved_second($primary);
my @issued = split /\n/, $primary->safe_psql('postgres', 'SELECT base36id_generate()');
@issued = grep { /^[0-9A-Z]{9}$/ } @issued;
is(scalar @issued, 1, 'an id of a new second S, confirmed by s1');
my $second = $primary->safe_psql('postgres',
	"SELECT extract(epoch FROM base36id_timestamp('$issued[0]'))");

set_clock_offset($primary_clock, '+0');
push @issued, $primary->safe_psql('postgres', 'SELECT base36id_generate()');
like($issued[-1], qr/^[0-9A-Z]{9}$/,
	'with the clock stepped back, another id, while s1 is synchronous');
is( $primary->safe_psql(
		'postgres', "SELECT base36id_timestamp('$issued[-1]') = base36id_timestamp('$issued[0]')"),
	't',
	'of the same second S');

$s1->stop;
ok( $primary->poll_query_until(
		'postgres',
		"SELECT string_agg(application_name || '=' || sync_state, ',') FROM pg_stat_replication",
		'b36x_s2=sync'),
	's1 is gone: the lagging s2 is the synchronous standby');

my ($gen, $gen_pid) =
  start_call($primary, 'SELECT base36id_generate() FROM generate_series(1, 5);');
my $state = settled_state($primary, $gen_pid);
is($state, 'active/SyncRep', 'ids of S asked for now wait for s2');

if ($state eq 'active/SyncRep')
{
	ok(kill('CONT', $s2_walsender), 's2\'s walsender goes on');
}
my @after_switch = grep { /^[0-9A-Z]{9}$/ } split /\n/, $gen->query_safe('SELECT 1');
$gen->quit;
is(scalar @after_switch, 5, 'the primary returned 5 more ids');
is( $primary->safe_psql(
		'postgres',
		"SELECT count(*) FROM unnest('{" . join(',', @after_switch)
		  . "}'::base36id[]) AS id WHERE base36id_timestamp(id) = base36id_timestamp('$issued[0]')"),
	'5',
	'all of second S');
push @issued, @after_switch;

# the primary dies; a paused walsender could not even exit
kill('KILL', $s2_walsender) unless $state eq 'active/SyncRep';
$primary->stop('immediate');

# s2's clock before S (the primary's clock was 30 s ahead then), promoted:
# none of its ids of S repeats one of the primary's
check_promoted_repeats_none($s2, $s2_clock, $second, \@issued);

$s2->stop;

done_testing();
