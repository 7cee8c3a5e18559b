
# base36id: sessions waiting for a worker's budget (1296 ids a second) are
# served first come, first served, and one that leaves the line (cancelled,
# terminated) does not hold up the others.
#
# The server's clock is frozen with libfaketime (an absolute time without
# "@"), so each second's budget is used up and the waiters stay in line for
# as long as the test needs; the test moves the clock one second at a time.
# Nothing is timed: the order of arrival is arranged (each session is seen
# waiting before the next one starts), and the ids tell who was served when.
#
# 1. Two drainers (100,000 ids each) and then a victim (1 id) wait for second
#    T+1.  At T+1 the victim gets an id of T+1, with counter 2 at most: the
#    two ids asked before its own.  Before the line (1.1's first versions),
#    the drainers took all of T+1 and the victim waited on for T+2.
# 2. Five wait for T+2: the two drainers, c1, c2, v2.  The first (a drainer,
#    waiting for the clock) and c2 (in the middle) are cancelled: each ends
#    with 57014 and a context naming its wait, and the other drainer becomes
#    first.  At T+2, c1 and v2 get counters 1 and 2 at most.
# 3. The drainer left waits first for T+3, v3 behind it; the drainer is
#    terminated (its backend exits): v3 becomes first, and gets counter 0
#    of T+3.
# 4. The postmaster is killed while one waits first in line and another
#    behind it: both backends exit.
#
# Mutations this test catches (tried by hand): no line (main before this
# test): part 1's victim gets no id of T+1; a cancelled or exiting waiter not
# leaving the line (no cleanup): part 2's and 3's waiters never become first;
# the waits without WL_EXIT_ON_PM_DEATH (WL_POSTMASTER_DEATH): part 4's
# backends go on.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use POSIX qw(strftime);
use PostgreSQL::Test::Utils;
use Test::More;

my $worker = 9;

# libfaketime reads absolute times in the local time zone
$ENV{TZ} = 'UTC';

my ($node, $clock) = start_faketime_primary('b36line', '+0',
	conf => ["idgen.worker_id = $worker"]);
$node->safe_psql('postgres', 'CREATE TABLE got (sess text, id base36id)');

# the clock frozen at second $s (Unix); returns it as timestamptz text
sub freeze_at
{
	my ($s, $label) = @_;
	set_clock_offset($clock, strftime('%Y-%m-%d %H:%M:%S', gmtime($s)));
	my $text = strftime('%Y-%m-%d %H:%M:%S+00', gmtime($s));
	is( $node->safe_psql(
			'postgres',
			"SELECT clock_timestamp() = '$text' AND clock_timestamp() = clock_timestamp()"),
		't',
		"the server's clock stands still at $label");
	return $text;
}

# what backend $pid waits for: "next" (the next second, first in line),
# "line" (behind others), "idle" (its statement is over) or another state
sub wait_of
{
	my ($pid) = @_;
	return $node->safe_psql(
		'postgres', qq{
		SELECT CASE WHEN state = 'idle' THEN 'idle'
		            WHEN wait_event IN ('Base36idNextSecond', 'PgSleep') THEN 'next'
		            WHEN wait_event IN ('Base36idLine', 'Extension') THEN 'line'
		            ELSE coalesce(wait_event, state) END
		FROM pg_stat_activity WHERE pid = $pid});
}

# polls until backend $pid is first in line: it waits for the next second
sub first_in_line
{
	my ($pid) = @_;
	return $node->poll_query_until(
		'postgres', qq{
		SELECT wait_event IN ('Base36idNextSecond', 'PgSleep')
		FROM pg_stat_activity WHERE pid = $pid});
}

# a session asking for $n ids (recorded in got as $name when all came),
# seen waiting before this returns, so that the next one arrives after it
sub start_waiter
{
	my ($name, $n) = @_;
	my ($session, $pid) = start_call($node,
		"\\set VERBOSITY verbose\nINSERT INTO got SELECT '$name', base36id_generate() FROM generate_series(1, $n);"
	);
	ok(wait_for_extension_wait($node, $pid), "$name waits for the budget");
	return ($session, $pid);
}

# polls until second $text is used up and backends @pids wait or are done
sub used_up
{
	my ($text, @pids) = @_;
	my $pids = join ',', @pids;
	return $node->poll_query_until(
		'postgres', qq{
		SELECT (SELECT ids_used = ids_per_second AND counter_second = '$text'
		        FROM idgen_stat_base36id)
		   AND (SELECT bool_and(state = 'idle'
		                        OR wait_event IN ('Base36idNextSecond', 'PgSleep',
		                                          'Base36idLine', 'Extension'))
		        FROM pg_stat_activity WHERE pid IN ($pids))});
}

# the counter of the id $name got in second $text, or a note of what it got
sub counter_of
{
	my ($name, $text) = @_;
	return $node->safe_psql(
		'postgres', qq{
		SELECT CASE WHEN count(*) = 0 THEN 'no id'
		            WHEN count(*) > 1 THEN count(*) || ' ids'
		            WHEN min(base36id_timestamp(id)) <> '$text' THEN 'id of ' || min(base36id_timestamp(id))
		            ELSE min(base36id_counter(id))::text END
		FROM got WHERE sess = '$name'});
}

#
# Second T: its 1296 ids are taken; the clock stays in it.
#
my $t = int(time()) + 2;
freeze_at($t, 'T');
is( $node->safe_psql(
		'postgres',
		'SELECT count(DISTINCT base36id_generate()) FROM generate_series(1, 1296)'),
	'1296',
	"T's 1296 ids are taken");

#
# 1. Two drainers, then the victim.
#
my ($d1, $d1_pid) = start_waiter('d1', 100000);
my ($d2, $d2_pid) = start_waiter('d2', 100000);
my ($v1, $v1_pid) = start_waiter('v1', 1);
my $t1 = freeze_at($t + 1, 'T+1');
ok(used_up($t1, $d1_pid, $d2_pid, $v1_pid),
	'the ids of T+1 are used up, and the sessions wait or are done');
my $got = counter_of('v1', $t1);
ok($got =~ /^\d+$/ && $got <= 2,
	'the victim gets an id of T+1 after the two asked before its own')
  or diag("the victim got: $got");
if (!is(wait_of($v1_pid), 'idle', "the victim's statement is over"))
{
	# it waits on for T+2, which the frozen clock never reaches
	$node->safe_psql('postgres',
		"SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE pid IN ($d1_pid, $d2_pid, $v1_pid)"
	);
	$_->quit for ($d1, $d2, $v1);
	$node->stop;
	done_testing();
	exit;
}
$v1->quit;

#
# 2. Five in line; the first and the fourth are cancelled.
#
my @drainers = ($d1_pid, $d2_pid);
my ($first) = grep { wait_of($_) eq 'next' } @drainers;
my ($second) = grep { wait_of($_) eq 'line' } @drainers;
ok(defined $first && defined $second,
	'one drainer waits for T+2 first in line, the other behind it');
my %session = ($d1_pid => $d1, $d2_pid => $d2);
my ($c1, $c1_pid) = start_waiter('c1', 1);
my ($c2, $c2_pid) = start_waiter('c2', 1);
my ($v2, $v2_pid) = start_waiter('v2', 1);
is(wait_of($c2_pid), 'line', 'c2 waits in line');

$node->safe_psql('postgres',
	"SELECT pg_cancel_backend($first), pg_cancel_backend($c2_pid)");
$session{$first}->query('SELECT 1');
like(
	$session{$first}->{stderr},
	qr/ERROR:  57014: canceling statement due to user request\nCONTEXT:  waiting for the next second, the 1296 base36ids of worker $worker in this one being used; no id was handed out/,
	'the first in line, cancelled, fails with 57014 and its wait as context');
$c2->query('SELECT 1');
like(
	$c2->{stderr},
	qr/ERROR:  57014: canceling statement due to user request\nCONTEXT:  waiting in line for a base36id of worker $worker, 3 earlier callers ahead when it joined; no id was handed out/,
	'c2, cancelled in line, fails with 57014 and its wait as context');
ok(first_in_line($second),
	'the other drainer is first in line now');

my $t2 = freeze_at($t + 2, 'T+2');
ok(used_up($t2, $second, $c1_pid, $v2_pid),
	'the ids of T+2 are used up, and the sessions wait or are done');
$got = counter_of('c1', $t2);
ok($got =~ /^\d+$/ && $got <= 1, 'c1 gets an id of T+2 after the one asked before its own')
  or diag("c1 got: $got");
$got = counter_of('v2', $t2);
ok($got =~ /^\d+$/ && $got <= 2, 'v2 gets an id of T+2 after the two asked before its own')
  or diag("v2 got: $got");
is(counter_of('c2', $t2), 'no id', 'cancelled c2 got none');
$_->quit for ($c1, $c2, $v2, $session{$first});

#
# 3. The first in line exits.
#
ok(first_in_line($second),
	'the drainer left waits for T+3 first in line');
my ($v3, $v3_pid) = start_waiter('v3', 1);
is(wait_of($v3_pid), 'line', 'v3 waits in line behind it');
$node->safe_psql('postgres', "SELECT pg_terminate_backend($second)");
# psql ends with its connection
$session{$second}->{run}->finish;
like(
	$session{$second}->{stderr},
	qr/FATAL:  57P01: terminating connection due to administrator command/,
	'the drainer is terminated');
ok(first_in_line($v3_pid),
	'once the drainer is gone, v3 is first in line');
my $t3 = freeze_at($t + 3, 'T+3');
ok( $node->poll_query_until(
		'postgres', "SELECT state = 'idle' FROM pg_stat_activity WHERE pid = $v3_pid"),
	"v3's statement is over");
is(counter_of('v3', $t3), '0', 'v3 gets the first id of T+3');
$v3->quit;

is(count_duplicate_ids($node, 'got'), '0', 'no duplicate ids');

#
# 4. The postmaster dies while two wait: the first in line, for T+4, and
# one behind it.  Both backends exit.
#
is( $node->safe_psql(
		'postgres',
		'SELECT count(DISTINCT base36id_generate()) FROM generate_series(1, 1295)'),
	'1295',
	"the rest of T+3's ids are taken");
my ($w1, $w1_pid) = start_waiter('w1', 1);
ok(first_in_line($w1_pid), 'w1 waits for T+4 first in line');
my ($w2, $w2_pid) = start_waiter('w2', 1);
is(wait_of($w2_pid), 'line', 'w2 waits in line behind it');
ok(kill_postmaster_and_wait($node, $w1_pid, $w2_pid),
	'the postmaster is killed, and both waiting backends exit');
eval { $_->quit } for ($w1, $w2);

done_testing();
