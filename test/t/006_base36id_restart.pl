
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
# issued before.  That a restart ends within the second is arranged, not
# hoped for (a restart takes more than a second on a busy machine): the
# server runs under libfaketime, and from the last id of a round until the
# first call after the restart has started its generation, its clock stands
# still at the start of the last id's second.  The first call then waits for
# the next second (the counters of that second are used up), and goes on
# once the clock runs again.  005_base36id_clock_back.pl tests the persisted
# second with the clock set back.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $worker = 9;
my $per_round = 100;

my $node = init_idgen_node('base36id_restart', "idgen.worker_id = $worker",
	'restart_after_crash = on');
# the clock: running ("+0"), or standing still at a time (freeze_clock)
my $clock = $node->basedir . '/faketime.rc';
set_clock_offset($clock, '+0');
# an absolute time in the file is read in the server's local time zone
{
	local $ENV{TZ} = 'UTC';
	with_faketime($clock, sub { $node->start });
}
$node->safe_psql('postgres', 'CREATE EXTENSION idgen');

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

# Generates round $round's ids, then stops the server's clock at the start
# of the second of the last of them.
sub generate_and_freeze
{
	my ($round) = @_;
	my $second = $node->safe_psql('postgres',
		qq{SELECT gen($round, $per_round);
		SELECT to_char(base36id_timestamp(max(id)) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') FROM r});
	set_clock_offset($clock, $second);
	return;
}

# Starts round $round's generation after a restart while the clock stands
# still; once it has started (it waits for the next second, or a generator
# that forgot the counters has finished), lets the clock run and collects it.
sub generate_after_restart
{
	my ($round) = @_;
	my ($session, $pid) = start_call($node, "SELECT gen($round, $per_round);");
	ok( $node->poll_query_until(
			'postgres', qq{
			SELECT state = 'idle' OR (state = 'active' AND (wait_event_type = 'Extension'
			       OR (wait_event_type = 'Timeout' AND wait_event = 'PgSleep')))
			FROM pg_stat_activity WHERE pid = $pid}),
		"round $round: its first id is being made in the second of the last id before");
	set_clock_offset($clock, '+0');
	$session->query('SELECT 1');
	$session->quit;
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
generate_and_freeze(++$round);
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
	generate_and_freeze(++$round) if $i > 1;
	{
		local $ENV{TZ} = 'UTC';
		with_faketime($clock, sub { $node->restart });
	}
	note_restart_within_second($label);
	generate_after_restart(++$round);
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
generate_and_freeze(++$round);
$round++;
crash_restart($node);
note_restart_within_second('crash restart');
generate_after_restart($round);
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
is($restarts_within_second, 4,
	'every restart ended within the second of the last id before it (the clock held there)');

is(count_duplicate_ids($node, 'r'), '0', 'no duplicate ids across the restarts');
is(count_ids_not_increasing($node, 'r'),
	'0', 'ids strictly increase in generation order across the restarts');

$node->stop;

done_testing();
