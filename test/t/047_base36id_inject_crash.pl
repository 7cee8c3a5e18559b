# base36id: the primary crashes while a call stands at each of the
# injection points of src/base36id_gen.c, and its synchronous standby is
# promoted: no id the primary returned is repeated.
#
# For each point a primary with one synchronous standby s ('on').  A call
# reserves a new second S and stops at the point; meanwhile a call of
# another session asks for an id of S.  At idgen-b36-reserved and
# idgen-b36-wait, s's WAL receiver is paused (SIGSTOP) so that s lacks S's
# record: the other call must wait, and no id leaves.  At
# idgen-b36-waited the receiver goes on once the call waits, s confirms,
# and the call stops after its wait; at idgen-b36-confirmed s streams
# freely and the call stops with its id taken, not returned: in both the
# other call gets its id.  The primary then dies (immediate stop); a
# paused receiver is killed (what it had not read of the stream is lost)
# and s restarted; s, its clock before S, is promoted and generates ids
# from S on: none repeats an id the primary returned, and where s never had
# S's record its ids reach S.
#
# Needs a server configured with --enable-injection-points and core's
# injection_points module (tools/pgbuild.sh: the 18 build); skipped
# elsewhere.

use strict;
use warnings;

use File::Spec;
use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $absent = injection_points_absent();
plan skip_all => $absent if defined $absent;

foreach my $point (qw(idgen-b36-reserved idgen-b36-wait idgen-b36-waited idgen-b36-confirmed))
{
	my $name = $point =~ s/^idgen-b36-//r;
	# s lacks S's record at the crash at the first two points
	my $lags = $point eq 'idgen-b36-reserved' || $point eq 'idgen-b36-wait';
	my $primary = start_idgen_primary("b36ic_${name}_primary", 'idgen.worker_id = 9',
		'wal_sender_timeout = 0', 'wal_receiver_status_interval = 1');
	$primary->safe_psql('postgres', 'CREATE EXTENSION injection_points');
	$primary->backup('b');
	my $s = PostgreSQL::Test::Cluster->new("b36ic_${name}_s");
	$s->init_from_backup($primary, 'b', has_streaming => 1);
	# a minute behind: s starts below any second the primary reserves
	my $clock = File::Spec->rel2abs($s->basedir . '/faketime.rc');
	set_clock_offset($clock, '-60');
	with_faketime($clock, sub { $s->start });
	ok(set_sync_names($primary, "b36ic_${name}_s", "b36ic_${name}_s=sync"),
		"$name: s is the synchronous standby");
	my $receiver = $s->safe_psql('postgres', 'SELECT pid FROM pg_stat_wal_receiver');
	if ($point ne 'idgen-b36-confirmed')
	{
		ok(kill('STOP', $receiver), "$name: s's WAL receiver is paused");
	}

	# the server's start second is used up: a call in it would wait in line
	# for the next one, and hold the line at the point (others would wait
	# behind it, not for s)
	ok( $primary->poll_query_until(
			'postgres',
			"SELECT clock_timestamp() >= floor_second + interval '1 second' FROM idgen_stat_base36id"
		),
		"$name: the clock is past the server's start second");
	my ($gen, $gen_pid) = start_call($primary, 'SELECT base36id_generate();',
		points => [$point]);
	if ($point eq 'idgen-b36-waited')
	{
		is(settled_state($primary, $gen_pid), 'active/SyncRep',
			"$name: the call reserved S and waits for s");
		ok(kill('CONT', $receiver), "$name: s's WAL receiver goes on");
	}
	ok(wait_at_point($primary, $gen_pid, $point), "$name: the call stops at $point");
	my ($second, $lsn) = split /\|/,
	  $primary->safe_psql('postgres',
		'SELECT extract(epoch FROM reserved_second)::bigint, last_reservation_lsn FROM idgen_stat_base36id'
	  );
	my ($other, $other_pid) = start_call($primary, 'SELECT base36id_generate();');
	if ($lags)
	{
		is(settled_state($primary, $other_pid), 'active/SyncRep',
			"$name: another session's call waits for s");
	}
	else
	{
		like(settled_state($primary, $other_pid), qr/^idle/,
			"$name: another session's call gets its id");
		ok(await_printed_id($other), "$name: its id reaches the client");
	}

	$primary->stop('immediate');
	my @held = printed_ids($gen);
	my @returned = printed_ids($other);
	is(scalar @held, 0, "$name: the call held at the point returned nothing");
	is(scalar @returned, $lags ? 0 : 1, "$name: the primary returned " . ($lags ? 'no id' : 'the other call\'s id'));

	if ($lags)
	{
		ok(kill('KILL', $receiver), "$name: s's paused WAL receiver is killed");
		$s->stop('immediate', fail_ok => 1);
		with_faketime($clock, sub { $s->start });
	}
	check_promoted_repeats_none($s, $clock, $second, \@returned,
		unknown => $lags, label => "$name: ");
	$s->stop;
}

done_testing();
