
# base36id generation when the server's clock steps back.
#
# The second of base36id never goes backwards: with the clock behind, the
# generator keeps using the last second S until its 1296 counters are used
# up, then waits until the clock passes S.  Restarts, crash restarts
# included, must not forget S either: the first second after a restart is
# later than S even though the clock still says an earlier one.
#
# The server runs under libfaketime (IdgenTest.pm tells how).  The clock
# starts 30 s ahead and steps back to the true time, rather than from the
# true time to 30 s behind, because libfaketime does not fake the
# clock while the process is inside select(), which it wraps: PostgreSQL 15's
# postmaster runs its signal handlers there, so it reads the true time when it
# reinitialises shared memory after a crash.  Stepped back to "+0", every
# process agrees on the clock, and the crash restart sees the earlier clock
# too.

use strict;
use warnings;

use File::Spec;
use Time::HiRes qw(time);
use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $worker = 5;
my $ahead = 30;    # seconds the clock is ahead before it steps back

my $node = init_idgen_node('base36id_clock_back', "idgen.worker_id = $worker",
	'restart_after_crash = on');

# absolute: the server reads it from its data directory, and from 17 on
# basedir is relative to the test's directory
my $offset_file = File::Spec->rel2abs($node->basedir . '/faketime.rc');

set_clock_offset($offset_file, "+$ahead");
with_faketime($offset_file, sub { $node->start });

$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION idgen;
	CREATE TABLE r (seq bigint GENERATED ALWAYS AS IDENTITY, phase text,
	                id base36id NOT NULL, clk timestamptz NOT NULL);
	-- n ids, each with the clock right after it; returns the last id
	CREATE FUNCTION gen(p_phase text, p_n int) RETURNS base36id
	LANGUAGE plpgsql AS $$
	DECLARE
		v_id base36id;
	BEGIN
		FOR i IN 1 .. p_n LOOP
			v_id := base36id_generate();
			INSERT INTO r (phase, id, clk) VALUES (p_phase, v_id, clock_timestamp());
		END LOOP;
		RETURN v_id;
	END $$;
});

my $lag = server_clock_lag($node);
ok($lag > -$ahead - 1 && $lag < -$ahead + 1,
	"with offset +$ahead the server clock is $ahead s ahead")
  or diag("server clock lag: $lag s");

# A call that does not return within 1.5 s: it is waiting for the clock.
# Returns (elapsed seconds by the server's clock around the call, the ids it
# printed, psql stderr): the server times it, psql's start-up is not in it.
sub gen_with_timeout
{
	my ($ret, $out, $err) = $node->psql(
		'postgres', q{SELECT 't0 ' || extract(epoch FROM clock_timestamp());
		SET statement_timeout = '1500ms';
		SELECT base36id_generate();
		RESET statement_timeout;
		SELECT 't1 ' || extract(epoch FROM clock_timestamp());},
		on_error_stop => 0);
	my ($t0) = $out =~ /^t0 (\S+)$/m;
	my ($t1) = $out =~ /^t1 (\S+)$/m;
	my $ids = join("\n", grep { !/^t[01] / } split /\n/, $out);
	return (defined $t0 && defined $t1 ? $t1 - $t0 : -1, $ids, $err);
}

# check_waits($label, $s): a call waits for the clock to pass second $s
# (still ahead of it) until statement_timeout ends it
sub check_waits
{
	my ($label, $s) = @_;
	my ($elapsed, $out, $err) = gen_with_timeout();
	is($out, '', "$label: base36id_generate() issues no id");
	like(
		$err,
		qr/canceling statement due to statement timeout/,
		"$label: it waits until statement_timeout (1.5 s) cancels it");
	cmp_ok($elapsed, '>=', 1.4, "$label: it did wait");
	# the timeout interrupts the wait itself, not a check after the wait
	# (which lasts until the clock passes S): the clock is still before S
	is(clock_before($s), 't', "$label: the timeout ended it before the clock reached S");
	return;
}

# Whether the server clock is still before second $s.
sub clock_before
{
	my ($s) = @_;
	return $node->safe_psql('postgres',
		"SELECT clock_timestamp() < '$s'::timestamptz");
}

#
# Before the step: a few ids.  M is the greatest, S its second.
#
$node->safe_psql('postgres', "SELECT gen('before', 5)");
my ($max_id, $sec, $max_counter) = split /\|/,
  $node->safe_psql(
	'postgres', q{
	SELECT m, base36id_timestamp(m), base36id_counter(m)
	FROM (SELECT max(id) AS m FROM r) s});
my $left = 1295 - $max_counter;
note("before the step: last id $max_id, second $sec, $left counters left");

#
# The clock steps back.
#
set_clock_offset($offset_file, '+0');
$lag = server_clock_lag($node);
ok(abs($lag) < 1, "with offset +0 the server clock stepped back $ahead s")
  or diag("server clock lag: $lag s");
is(clock_before($sec), 't', 'the server clock is before second S');

# The rest of S is used up: ids still greater than M, still in S.
$node->safe_psql('postgres', "SELECT gen('behind', $left)");
is( $node->safe_psql(
		'postgres', qq{
		SELECT count(*), count(*) FILTER (WHERE id <= '$max_id'),
		       count(*) FILTER (WHERE base36id_timestamp(id) <> '$sec'),
		       min(base36id_counter(id)), max(base36id_counter(id)),
		       count(DISTINCT id),
		       count(*) FILTER (WHERE clk >= '$sec')
		FROM r WHERE phase = 'behind'}),
	"$left|0|0|" . ($max_counter + 1) . "|1295|$left|0",
	"with the clock behind, the $left ids left in S come from S, after M, "
	  . 'counters continuing to 1295');

# S is used up and the clock is behind it: the next call waits.
check_waits('S used up, clock behind', $sec);

# That wait, about 30 s here, ends at once on pg_cancel_backend().  The query
# after it is already in psql's input, so it runs as soon as the cancelled one
# ends, and its clock_timestamp() tells when that was.
my $cancelled = $node->background_psql('postgres', on_error_stop => 0);
my $cancelled_pid = $cancelled->query_safe('SELECT pg_backend_pid()');
$cancelled->query_until(
	qr/cancel-start/, q{\echo cancel-start
SELECT base36id_generate();
SELECT 'after', clock_timestamp();
});
ok(wait_for_extension_wait($node, $cancelled_pid),
	'a call to be cancelled waits for the clock to pass S');
my (undef, $cancel_time) = split /\|/,
  $node->safe_psql('postgres',
	"SELECT pg_cancel_backend($cancelled_pid), clock_timestamp()");
my $out = $cancelled->query('SELECT 1');
$cancelled->quit;
like(
	$cancelled->{stderr},
	qr/ERROR:  canceling statement due to user request/,
	'pg_cancel_backend() cancels it');
# the wait lasts until the clock passes S: the session's next query ran
# while the clock was still before S, so the cancel ended the wait itself
my ($after_time) = $out =~ /^after\|(.*)$/m;
is( defined $after_time
	  && $node->safe_psql('postgres', "SELECT '$after_time'::timestamptz < '$sec'::timestamptz"),
	't', 'the cancelled call ended at once, long before the clock reached S')
  or diag("output: $out; S: $sec; cancelled at $cancel_time");

#
# A restart (fast) with the clock still behind S.  The counters start used
# up at the later of the persisted second S and the clock's second: S.
# Without the persisted second the generator would start from the clock's
# second, about 30 s before S, and issue ids smaller than those before the
# restart.
#
with_faketime($offset_file, sub { $node->restart });
is(clock_before($sec), 't', 'after a restart the server clock is still before S');
check_waits('after a restart, clock behind S', $sec);

#
# A crash restart with the clock still behind S: a backend is killed with
# SIGKILL, and the postmaster sets up shared memory again.
#
crash_restart($node);
is(clock_before($sec), 't',
	'after the crash restart the server clock is still before S');
check_waits('after a crash restart, clock behind S', $sec);

#
# The clock is set right again while a call waits: that call returns an id
# from a second after S.
#
my $waiter = $node->background_psql('postgres');
my $waiter_pid = $waiter->query_safe('SELECT pg_backend_pid()');
$waiter->query_until(qr/waiter-start/,
	"\\echo waiter-start\nSELECT gen('resumed', 1);\n");
ok(wait_for_extension_wait($node, $waiter_pid),
	'a call waits for the clock to pass S');
is(clock_before($sec), 't',
	'the server clock is still before S (the last checks were valid)');

set_clock_offset($offset_file, "+$ahead");
my $resumed = $waiter->query_safe('SELECT 1');
$waiter->quit;
like($resumed, qr/^[0-9A-Z]{9}\n1$/, 'the waiting call returns an id')
  or diag("output: $resumed");
$lag = server_clock_lag($node);
ok($lag > -$ahead - 1 && $lag < -$ahead + 1,
	"the server clock is $ahead s ahead again, past S")
  or diag("server clock lag: $lag s");

$node->safe_psql('postgres', "SELECT gen('after', 100)");

is( $node->safe_psql(
		'postgres', qq{
		SELECT count(*), count(*) FILTER (WHERE base36id_timestamp(id) <= '$sec'),
		       count(*) FILTER (WHERE clk < base36id_timestamp(id))
		FROM r WHERE phase IN ('resumed', 'after')}),
	'101|0|0',
	'generation resumes with ids from seconds after S that the clock has reached');

#
# Overall
#
is(count_duplicate_ids($node, 'r'), '0', 'no duplicate ids');
is(count_ids_not_increasing($node, 'r'),
	'0',
	'ids strictly increase in generation order, across the step back and restarts');
is( $node->safe_psql(
		'postgres',
		"SELECT count(*) FROM r WHERE base36id_worker(id) <> $worker"),
	'0',
	"every id carries worker $worker");

$node->stop;

done_testing();
