
# base36id: a restart never reissues an id issued before it.
#
# Before the first id of a second is handed out, idgen writes that second to
# $PGDATA/idgen_base36id.state; when shared memory is set up (server start,
# and again by the postmaster after a crash) every counter starts used up at
# the later of that second and the clock's.  So after a restart the first id
# comes from a second later than the last id's.
#
# An implementation that kept the counters only in shared memory would start
# them afresh after a restart: a restart that completes within the second of
# the last id would hand out that second's counters 0, 1, ... again, ids
# issued before.  Each round below therefore generates its ids at the start of
# a second and restarts at once, so that the restart (a fraction of a second)
# ends within that second.  005_base36id_clock_back.pl tests the persisted
# second without depending on timing, with the clock set back.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $worker = 9;
my $per_round = 100;

my $node = start_idgen_node('base36id_restart', "idgen.worker_id = $worker",
	'restart_after_crash = on');

my $state_file = $node->data_dir . '/idgen_base36id.state';

$node->safe_psql(
	'postgres', q{
	CREATE TABLE r (seq bigint GENERATED ALWAYS AS IDENTITY, round int,
	                id base36id NOT NULL, clk timestamptz NOT NULL);
	CREATE FUNCTION gen(p_round int, p_n int) RETURNS void
	LANGUAGE plpgsql AS $$
	BEGIN
		FOR i IN 1 .. p_n LOOP
			INSERT INTO r (round, id, clk) VALUES (p_round, base36id_generate(), clock_timestamp());
		END LOOP;
	END $$;
});

# Generates $per_round ids just after the start of a second (the server's
# clock), so that a restart right after it can end within the same second.
sub generate_early_in_a_second
{
	my ($round) = @_;
	$node->safe_psql(
		'postgres', qq{
		SELECT pg_sleep(1 - extract(microseconds FROM clock_timestamp())::int % 1000000 / 1e6);
		SELECT gen($round, $per_round);});
	return;
}

# Whether the server's clock is still in the second of the last id: then the
# restart just done ended within that second, and a generator that forgot the
# counters would reissue ids of it.
my $restarts_within_second = 0;

sub note_restart_within_second
{
	my ($label) = @_;
	my $within = $node->safe_psql(
		'postgres', q{
		SELECT clock_timestamp() < base36id_timestamp(max(id)) + interval '1 second'
		FROM r});
	$restarts_within_second++ if $within eq 't';
	note("$label ended within the second of the last id: $within");
	return;
}

# Checks round $round, the first after a restart: its ids come after every
# id generated before it and from a later second than the last of them.
sub check_round
{
	my ($round, $label) = @_;
	my $before = "FROM r WHERE seq < (SELECT min(seq) FROM r WHERE round = $round)";
	my ($count, $not_after, $min_sec, $prev_sec) = split /\|/,
	  $node->safe_psql(
		'postgres', qq{
		SELECT count(*),
		       count(*) FILTER (WHERE id <= (SELECT max(id) $before)),
		       extract(epoch FROM min(base36id_timestamp(id))),
		       (SELECT extract(epoch FROM base36id_timestamp(max(id))) $before)
		FROM r WHERE round = $round});
	is($count, $per_round, "$label: $per_round ids generated after it");
	is($not_after, '0', "$label: every new id is greater than every id before");
	cmp_ok($min_sec, '>', $prev_sec,
		"$label: the first new id is from a later second than the last id before");
	return;
}

my $round = 0;
generate_early_in_a_second(++$round);
ok(-f $state_file, 'the state file exists in the data directory after generation');
my $last_sec = $node->safe_psql('postgres',
	q{SELECT extract(epoch FROM base36id_timestamp(max(id))) - 1704067200 FROM r});
my $persisted = state_file_second($node);
ok(defined $persisted && $persisted >= $last_sec,
	'it holds a second at least that of the last id')
  or diag('persisted second: ' . ($persisted // 'none') . ", last id's second: $last_sec");

#
# Fast restarts
#
foreach my $i (1 .. 3)
{
	my $label = "fast restart $i";
	generate_early_in_a_second(++$round) if $i > 1;
	$node->restart;
	note_restart_within_second($label);
	$node->safe_psql('postgres', 'SELECT gen(' . ++$round . ", $per_round)");
	note(
		"$label: ",
		$node->safe_psql(
			'postgres', qq{
			SELECT 'last id before ' || (SELECT max(id) FROM r WHERE round < $round)
			    || ', first after ' || min(id)
			    || ', ' || (min(clk) - (SELECT max(clk) FROM r WHERE round < $round))
			    || ' apart'
			FROM r WHERE round = $round}));
	check_round($round, $label);
}

#
# Crash restart: a backend is killed with SIGKILL; the postmaster kills the
# others and sets up shared memory again.
#
generate_early_in_a_second(++$round);
$round++;
crash_restart($node);
note_restart_within_second('crash restart');
$node->safe_psql('postgres', "SELECT gen($round, $per_round)");
check_round($round, 'crash restart');

ok(-f $state_file, 'the state file is still there');
$persisted = state_file_second($node);
$last_sec = $node->safe_psql('postgres',
	q{SELECT extract(epoch FROM base36id_timestamp(max(id))) - 1704067200 FROM r});
ok(defined $persisted && $persisted >= $last_sec,
	'it holds a second at least that of the last id')
  or diag('persisted second: ' . ($persisted // 'none') . ", last id's second: $last_sec");

# Otherwise the checks above would not have told a generator that forgets
# its counters at a restart from a correct one.
cmp_ok($restarts_within_second, '>=', 1,
	'at least one restart ended within the second of the last id before it');

is(count_duplicate_ids($node, 'r'), '0', 'no duplicate ids across the restarts');
is(count_ids_not_increasing($node, 'r'),
	'0', 'ids strictly increase in generation order across the restarts');

$node->stop;

done_testing();
