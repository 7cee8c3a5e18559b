
# kill -9 of a backend while sessions generate every type.
#
# Four psql clients insert rows of every generator (iuid, flaxid, distid,
# DistributedId128, base36id) with RETURNING, so that each client prints
# every id it receives, committed or not.  While they run, one client's
# backend gets SIGKILL: the postmaster ends every backend and reinitialises
# shared memory (a crash restart), and the clients lose their connections.
# Then four new clients generate again.
#
# Checks: the crash restart happened; every client of the first round lost
# its connection after having received ids; generation resumes and the new
# clients complete without error; no id of any type repeats across
# everything every client received, before and after the crash, nor among
# the committed rows; a committed row that no client received repeats no
# received id either; and ids generated after the crash are greater than
# every id received before it.
#
# The SIGKILL is sent a quarter into a second, so that the clients have
# received ids of that second and the crash restart usually ends within it:
# a base36id generator that forgot its high-water second in a crash restart
# would then reissue that second's counters.  Checked to fail with
# base36id_shmem_init() starting the counters afresh (b36_state_init(...,
# -1) instead of the persisted second): base36ids repeated among those
# received, among the committed rows and across clients, and came out lower
# after the crash than before it.  Whether the restart ended within that
# second is noted in the log (when it did not, that mutation would go
# unnoticed; 005_base36id_clock_back.pl covers the persisted second
# independently of timing).

use strict;
use warnings;

use File::Spec;
use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $clients = 4;
my $rows = 10;    # per statement

my $node = start_idgen_node('kill_backend', 'idgen.worker_id = 13',
	'restart_after_crash = on');

# ids: the committed rows; received: what the clients printed.  No unique
# constraint: a repeated id is counted, not refused (which would stop the
# client before it receives it).
$node->safe_psql(
	'postgres', q{
	CREATE TABLE ids (client int NOT NULL, phase int NOT NULL,
	    iu iuid, fx flaxid, di distid, d128 uuid, b36 base36id);
	CREATE TABLE received (LIKE ids);
});

my @cols = qw(iu fx di d128 b36);

# A script of $n statements, each inserting $rows rows of new ids for
# client $client in phase $phase and printing them.
sub client_script
{
	my ($client, $phase, $n) = @_;
	my $file = $node->basedir . "/client_$client.sql";
	my $stmt = qq{INSERT INTO ids
	  SELECT $client, $phase, iuid_generate(1, 2), flaxid_generate(), distid_generate(),
	         distid128_generate(), base36id_generate()
	  FROM generate_series(1, $rows)
	  RETURNING *;
};
	open my $fh, '>', $file or die "could not write $file: $!";
	print $fh $stmt x $n;
	close $fh;
	return $file;
}

# Starts psql for client $client (application_name gen$client) running its
# script; returns the client.  Its output goes to a file, so that psql never
# waits for the test to read it.
sub start_client
{
	my ($client, $phase, $n) = @_;
	my $c = {
		client => $client,
		# absolute: the server reads it (COPY FROM), and from 16 on basedir
		# is relative to the test's directory
		out => File::Spec->rel2abs($node->basedir . "/client_$client.out"),
		err => ''
	};
	my $file = client_script($client, $phase, $n);
	$c->{h} = IPC::Run::start(
		[
			'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1',
			'-d', $node->connstr('postgres') . " application_name=gen$client",
			'-f', $file
		],
		'>', $c->{out}, '2>', \$c->{err},
		IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
	return $c;
}

# Waits for the client to end; returns whether psql exited with status 0.
sub finish_client
{
	my ($c) = @_;
	return eval { $c->{h}->finish } ? 1 : 0;
}

# the lines the client printed so far
sub lines
{
	my ($c) = @_;
	return 0 unless -e $c->{out};
	return scalar(() = slurp_file($c->{out}) =~ /\n/g);
}

#
# Phase 1: generate, and kill one backend while all generate
#
my @first = map { start_client($_, 1, 5000) } 1 .. $clients;

# until every client has received ids and every backend runs
my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
while (time < $deadline)
{
	last if !grep { lines($_) < 5 * $rows } @first;
	usleep(50_000);
}
ok(!(grep { lines($_) < 5 * $rows } @first),
	'every client received ids before the crash');
ok( $node->poll_query_until(
		'postgres', qq{
		SELECT count(*) = $clients FROM pg_stat_activity
		WHERE application_name LIKE 'gen%' AND state = 'active'}),
	"all $clients backends are generating");

# a quarter into a second of the server's clock: the clients have received
# ids of that second, and the crash restart can end before the next
$node->safe_psql('postgres',
	q{SELECT pg_sleep(1.25 - extract(microseconds FROM clock_timestamp())::int % 1000000 / 1e6)});
my $victim = $node->safe_psql('postgres',
	q{SELECT pid FROM pg_stat_activity WHERE application_name = 'gen1'});
kill_backend($node, $victim, "SIGKILL to backend $victim of client 1");
my $resumed = $node->safe_psql('postgres', 'SELECT clock_timestamp()');

for my $c (@first)
{
	ok(!finish_client($c), "client $c->{client} ended with an error");
	like(
		$c->{err},
		qr/server closed the connection unexpectedly|connection to server was lost|terminating connection because of crash/,
		"client $c->{client} lost its connection");
}

#
# Phase 2: generation resumes
#
my @second = map { start_client($_, 2, 20) } $clients + 1 .. 2 * $clients;
for my $c (@second)
{
	ok(finish_client($c), "client $c->{client} (after the crash) completed")
	  or diag($c->{err});
	is(lines($c), 20 * $rows, "client $c->{client} received " . 20 * $rows . ' rows');
}

#
# Every id any client received, before and after the crash
#
for my $c (@first, @second)
{
	$node->safe_psql('postgres', "COPY received FROM '$c->{out}' (DELIMITER '|')");
}
my $received = $node->safe_psql('postgres', 'SELECT count(*) FROM received');
note("$received rows received, "
	  . $node->safe_psql('postgres', 'SELECT count(*) FROM received WHERE phase = 1')
	  . ' before the crash');

note('the server accepted connections again within the second of the last '
	  . 'base36id received before the crash: '
	  . $node->safe_psql(
		'postgres', qq{
		SELECT '$resumed' < base36id_timestamp(max(b36)) + interval '1 second'
		FROM received WHERE phase = 1}));

for my $col (@cols)
{
	is($node->safe_psql('postgres', "SELECT count(DISTINCT $col) FROM received"),
		$received, "$col: no id repeats among the $received the clients received");

	is($node->safe_psql('postgres', "SELECT count(*) - count(DISTINCT $col) FROM ids"),
		'0', "$col: no id repeats among the committed rows");

	# a row committed but not received (the crash came before the result)
	# must not hold an id another client received
	is( $node->safe_psql(
			'postgres', qq{
			SELECT count(*) FROM ids i JOIN received r ON r.$col = i.$col
			WHERE r.client <> i.client}),
		'0',
		"$col: no committed row repeats an id another client received");

	is( $node->safe_psql(
			'postgres', qq{
			SELECT count(*) FROM received
			WHERE phase = 2
			  AND $col <= (SELECT $col FROM received WHERE phase = 1
			               ORDER BY $col DESC LIMIT 1)}),
		'0',
		"$col: every id after the crash is greater than every id before it");
}

$node->stop;

done_testing();
