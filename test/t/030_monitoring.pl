
# Monitoring (doc/monitoring.md): the wait events base36id reports in
# pg_stat_activity, and what the views idgen_stat_base36id and
# idgen_stat_clock count.
#
# The server runs with fault_fsync.c (the state file's fsync blocks or fails
# while a flag file exists) and libfaketime (the clock is moved by the test)
# preloaded.  Expected values come from what the test did: how long it held
# the fsync, the ids it got back, the clock steps it made.
#
# - A call reserving a second waits on the state file's fsync, another one
#   on that reservation, a third on the next second once 1296 ids are used:
#   each shows in pg_stat_activity under its event (named on 17+, core's
#   closest on 15/16), and is counted and timed.
# - The counter of ids used in a second agrees with the ids handed out.
# - Clock steps back: absorbed (iuid and flaxid up to 1 s; distid and
#   DistributedId128 always, until their field is full) or followed.
# - A frozen clock: a burst of distids borrows milliseconds ahead of the
#   time it stamps, counted exactly.
# - Counts of a backend that exited stay in the views.
# - A standby counts the state file writes its startup process makes when
#   it replays a reservation.
#
# Mutations this test catches (tried by hand): the state file's fsync
# reported as Extension on 15 (the wait is never seen); a backend's counts
# zeroed at exit without being added to the total; a step back whose id
# stays at the last id's millisecond counted as followed; slots for
# backends only (the startup process's writes are lost).

use strict;
use warnings;

use File::Spec;
use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = init_idgen_node('monitoring', 'idgen.worker_id = 5', 'fsync = on');
my $ctl = File::Spec->rel2abs($node->basedir . '/fsync');
my $shim = File::Spec->rel2abs($node->basedir . '/fault_fsync.so');
my $offset_file = File::Spec->rel2abs($node->basedir . '/clock_offset');
system('cc', '-shared', '-fPIC', '-o', $shim, "$FindBin::RealBin/fault_fsync.c", '-ldl') == 0
  or die "could not build $shim";
set_clock_offset($offset_file, '+0');
{
	local $ENV{LD_PRELOAD} = faketime_lib() . ":$shim";
	local $ENV{IDGEN_FSYNC_CTL} = $ctl;
	local $ENV{FAKETIME_TIMESTAMP_FILE} = $offset_file;
	local $ENV{FAKETIME_NO_CACHE} = '1';
	local $ENV{FAKETIME_DONT_FAKE_MONOTONIC} = '1';
	$node->start;
}
$node->safe_psql('postgres', 'CREATE EXTENSION idgen');

my $version = $node->safe_psql('postgres', 'SHOW server_version_num');
my %event =
  $version >= 170000
  ? (
	sync => 'Extension/Base36idStateFileSync',
	reservation => 'Extension/Base36idReservation',
	next_second => 'Extension/Base36idNextSecond')
  : (
	sync => 'IO/DataFileSync',
	reservation => 'Extension/Extension',
	next_second => 'Timeout/PgSleep');

sub set_flag { return fsync_flag($ctl, $_[0], 1); }
sub clear_flag { return fsync_flag($ctl, $_[0], 0); }

sub next_second
{
	await_unreserved_second($node);
	return;
}

# waits until backend $pid waits on $event ("type/name")
sub wait_for_event
{
	my ($pid, $event) = @_;
	return $node->poll_query_until(
		'postgres', qq{
		SELECT wait_event_type || '/' || wait_event = '$event'
		FROM pg_stat_activity WHERE pid = $pid});
}

sub b36stat
{
	my ($columns) = @_;
	return $node->safe_psql('postgres', "SELECT $columns FROM idgen_stat_base36id");
}

$node->safe_psql('postgres', 'SELECT base36id_generate()');
is(b36stat(q{worker_id || ' ' || state_file || ' ' || ids_per_second}),
	'5 ok 1296', 'the worker, a healthy state file, the cap');

#
# the reservation: a slow fsync, a waiter, both counted
#
my $before = b36stat(q{reservations || ' ' || state_file_syncs || ' ' || reservation_waits});
my ($reservations0, $syncs0, $rwaits0) = split / /, $before;
my $lsn0 = $node->safe_psql('postgres', 'SELECT pg_current_wal_flush_lsn()');
set_flag('stall');
next_second();
my $slow = $node->background_psql('postgres');
my $slow_pid = $slow->query_safe('SELECT pg_backend_pid()');
$slow->query_until(qr/slow-start/, "\\echo slow-start\nSELECT base36id_generate();\n");
ok(wait_for_event($slow_pid, $event{sync}),
	"a call reserving a second shows $event{sync} while the state file's fsync is slow");
my $waiter = $node->background_psql('postgres');
my $waiter_pid = $waiter->query_safe('SELECT pg_backend_pid()');
$waiter->query_until(qr/waiter-start/, "\\echo waiter-start\nSELECT base36id_generate();\n");
ok(wait_for_event($waiter_pid, $event{reservation}),
	"another call shows $event{reservation} while it waits for that reservation");
# both are held for at least this long from here
sleep 1;
clear_flag('stall');
my ($slow_id) = grep { /^[0-9A-Z]{9}$/ } split /\n/, $slow->query_safe('SELECT 1');
my ($waiter_id) = grep { /^[0-9A-Z]{9}$/ } split /\n/, $waiter->query_safe('SELECT 1');
$slow->quit;
$waiter->quit;
ok(defined $slow_id && defined $waiter_id, 'both calls return an id');

my $row = $node->safe_psql(
	'postgres', qq{
	SELECT reservations > $reservations0,
	       state_file_syncs > $syncs0, state_file_sync_time >= 1000,
	       reservation_waits > $rwaits0, reservation_wait_time >= 1000,
	       reservation_time >= 1000, reservation_time >= last_reservation_time,
	       last_reservation_second = greatest(base36id_timestamp('$slow_id'),
	                                          base36id_timestamp('$waiter_id')),
	       reserved_second >= base36id_timestamp('$slow_id'),
	       state_file_second >= base36id_timestamp('$slow_id'),
	       last_reservation_lsn > '$lsn0' AND last_reservation_lsn <= pg_current_wal_flush_lsn(),
	       last_reservation_at <= now()
	FROM idgen_stat_base36id});
is( $row,
	join('|', ('t') x 12),
	'the reservation is counted, timed (>= the 1 s held), and its second, state file and flushed WAL record shown'
);

#
# the cap and the wait for the next second
#
my $nwaits0 = b36stat('next_second_waits');
my $burst = $node->background_psql('postgres');
my $burst_pid = $burst->query_safe('SELECT pg_backend_pid()');
# 2600 ids need at least three seconds: at least two waits
$burst->query_until(qr/burst-start/,
	"\\echo burst-start\nCREATE TABLE burst AS SELECT base36id_generate() AS id FROM generate_series(1, 2600);\n"
);
ok(wait_for_event($burst_pid, $event{next_second}),
	"a call that finds the second's 1296 ids used shows $event{next_second}");
$burst->query_safe('SELECT 1');
$burst->quit;
is( $node->safe_psql(
		'postgres', qq{
		SELECT s.next_second_waits >= $nwaits0 + 2, s.next_second_wait_time > 0,
		       s.counter_second = b.last_second, s.ids_used = b.in_last_second,
		       s.ids_this_second IN (0, s.ids_used)
		FROM idgen_stat_base36id s,
		     (SELECT max(base36id_timestamp(id)) AS last_second,
		             count(*) FILTER (WHERE base36id_timestamp(id) =
		                              (SELECT max(base36id_timestamp(id)) FROM burst))
		               AS in_last_second
		      FROM burst) b}),
	't|t|t|t|t',
	'the waits for the next second are counted, and the counter agrees with the ids of its second'
);

#
# a failed fsync of the state file
#
set_flag('fail');
next_second();
my ($ret) = psql_verbose($node, 'SELECT base36id_generate()');
clear_flag('fail');
isnt($ret, 0, 'with fsync failing, the call fails');
is(b36stat(q{state_file_failures >= 1 AND last_state_file_failure <= now()}),
	't', 'the failure is counted, with its time');

#
# clock steps back
#
my %gen = (
	iuid => 'iuid_generate(1, 1)',
	flaxid => 'flaxid_generate()',
	distid => 'distid_generate()',
	distid128 => 'distid128_generate()',
	distid_dense => 'distid_generate_dense()');
my $all = join(', ', map { $gen{$_} } sort keys %gen);

sub clock_stats
{
	my %s;
	for my $line (split /\n/,
		$node->safe_psql('postgres', 'SELECT * FROM idgen_stat_clock ORDER BY generator'))
	{
		my ($g, @v) = split /\|/, $line;
		@{ $s{$g} }{qw(ahead ahead_max borrowed absorbed followed back_max)} = @v;
	}
	return \%s;
}

# the steps are exact, however long the machine takes between the calls:
# the clock stands at F, then at F - 0.8 s, then at F - 4 s (libfaketime
# reads an absolute time without "@" as a clock standing still, in the
# server's time zone, as localtimestamp shows it)
my $c0 = clock_stats();
my $session = $node->background_psql('postgres');
my $session_pid = $session->query_safe('SELECT pg_backend_pid()');
my $f = $node->safe_psql('postgres',
	q{SELECT date_trunc('second', localtimestamp) + interval '1.9 s'});
sub hold_clock_at
{
	my ($back) = @_;
	set_clock_offset($offset_file,
		$node->safe_psql('postgres',
			qq{SELECT to_char('$f'::timestamp - interval '$back s', 'YYYY-MM-DD HH24:MI:SS.MS')}));
	return;
}
hold_clock_at(0);
$session->query_safe("SELECT $all");
hold_clock_at(0.8);
$session->query_safe("SELECT $all");
hold_clock_at(4);
$session->query_safe("SELECT $all");
set_clock_offset($offset_file, '+0');
my $c1 = clock_stats();
# distid stamps a second in the past and absorbs steps back into that lag
# like the lead of a burst: neither is an event
is( join(' ',
		$c1->{distid}{absorbed} - $c0->{distid}{absorbed},
		$c1->{distid}{followed} - $c0->{distid}{followed},
		$c1->{distid}{ahead} - $c0->{distid}{ahead}),
	'0 0 0',
	'distid: steps back within its 1 s lag are not counted');
for my $g (grep { $_ ne 'distid' } sort keys %gen)
{
	# distid_generate_dense() has iuid's scheme, against the time it stamps
	my $follows = $g ne 'distid128';
	is( join(' ',
			$c1->{$g}{absorbed} - $c0->{$g}{absorbed},
			$c1->{$g}{followed} - $c0->{$g}{followed}),
		$follows ? '1 1' : '2 0',
		"$g: "
		  . ($follows
			? 'a step back of 0.8 s absorbed, one of 3.2 s followed'
			: 'steps back of 0.8 s and 3.2 s absorbed'));
	cmp_ok($c1->{$g}{back_max}, '>=', 2000, "$g: the largest step back is shown");
	cmp_ok($c1->{$g}{ahead} - $c0->{$g}{ahead},
		'>=', $follows ? 1 : 2, "$g: ids of the absorbed steps are ahead of the clock");
}

# the session exits: its counts stay.  Its backend leaves pg_stat_activity
# in an exit callback core registered at its start; idgen folds the
# backend's counts into the total in one registered at its first count,
# later, and the callbacks run last registered first: once the pid is gone
# from pg_stat_activity, the fold is done (no sleep assumes it).
$session->quit;
$node->poll_query_until('postgres',
	"SELECT count(*) = 0 FROM pg_stat_activity WHERE pid = $session_pid")
  or die "backend $session_pid did not exit";
my $c2 = clock_stats();
is( join(' ', map { "$c2->{$_}{absorbed}/$c2->{$_}{followed}" } sort keys %gen),
	join(' ', map { "$c1->{$_}{absorbed}/$c1->{$_}{followed}" } sort keys %gen),
	'counts of a backend that exited stay');

#
# a frozen clock: a burst of distids borrows milliseconds ahead of the time
# it stamps (the clock less 1 s), about 128 ids each (its 48-bit field with
# increments up to 2^41), up to the clock itself: 20,000 stay below that
#
# libfaketime reads an absolute time without "@" as a frozen clock
my $frozen = $node->safe_psql('postgres',
	"SELECT to_char(date_trunc('second', localtimestamp) + interval '30 s', 'YYYY-MM-DD HH24:MI:SS')"
);
my $a0 = clock_stats()->{distid};
set_clock_offset($offset_file, $frozen);
$node->safe_psql('postgres',
	'CREATE TABLE frozen AS SELECT distid_generate() AS id, clock_timestamp() AS f FROM generate_series(1, 20000)'
);
set_clock_offset($offset_file, '+0');
my $a1 = clock_stats()->{distid};
my $expect = $node->safe_psql(
	'postgres', qq{
	SELECT count(DISTINCT t) FILTER (WHERE t > s) || ' '
	       || (extract(epoch FROM max(t) - s) * 1000)::bigint || ' '
	       || count(DISTINCT t) - 1
	FROM (SELECT distid_timestamp(id) AS t, f - interval '1 s' AS s FROM frozen) x
	GROUP BY s});
my ($ahead, $ahead_max, $borrowed) = split / /, $expect;
cmp_ok($borrowed, '>', 0, 'with the clock frozen, distids took later milliseconds');
is( join(' ',
		$a1->{ahead} - $a0->{ahead}, $a1->{ahead_max}, $a1->{borrowed} - $a0->{borrowed}),
	"$ahead " . ($a0->{ahead_max} > $ahead_max ? $a0->{ahead_max} : $ahead_max) . " $borrowed",
	'the borrowed milliseconds (for distid, an event each), the lead at most, as the ids show'
);

$node->stop;

#
# a standby writes the state file when it replays a reservation: the
# startup process, an auxiliary process, has a slot too
#
my $primary = PostgreSQL::Test::Cluster->new('monitoring_primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf',
	"shared_preload_libraries = 'idgen'\nidgen.worker_id = 1");
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION idgen');
$primary->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('monitoring_standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
$standby->start;
my $standby_syncs = $standby->safe_psql('postgres',
	'SELECT state_file_syncs FROM idgen_stat_base36id');
# a second the primary has not reserved: its reservation is replayed
await_unreserved_second($primary);
my ($replayed) = grep { /^[0-9A-Z]{9}$/ } split /\n/,
  $primary->safe_psql('postgres', 'SELECT base36id_generate()');
$primary->wait_for_catchup($standby);
is( $standby->safe_psql(
		'postgres', qq{
		SELECT state_file_syncs > $standby_syncs,
		       state_file_second = base36id_timestamp('$replayed')
		FROM idgen_stat_base36id}),
	't|t',
	'a standby counts the state file writes of its replay');
$standby->stop;
$primary->stop;

done_testing();
