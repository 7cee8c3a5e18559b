# base36id while a change of synchronous_standby_names is on its way: a
# backend that has taken the new names in must not judge them with the
# priorities walsenders computed from the old ones.
#
# Standbys a, b, c; FIRST 2 (a, b).  b and c stop receiving (their WAL
# receivers are stopped with SIGSTOP), a call reserves second S and waits:
# a has S's record, b lacks it.  The walsenders of a and b are stopped
# too, so they keep their priorities (1, 2) through the reload that names
# FIRST 1 (x, c), x absent: c, which lacks the record, is the synchronous
# standby now, and only c's walsender takes that in (priority 2).  A new
# session's call, on the new names, sees a as the candidate of highest
# priority (its stale 1) and a has the record; the walsenders, on either
# configuration, release nothing.  The call must wait, and keep waiting
# once every walsender has the new names.  The primary then dies and c,
# which never had S's record, is promoted with its clock before S: none of
# its ids repeats an id the primary returned.
#
# No timing is hoped for: a stopped process does nothing until continued,
# and pg_stat_replication shows when each walsender has taken the names in.
# Fails when the judgement does not wait for core's queue
# (B36S_MUTANT_MIXED of src/core/b36sync.c, planted in the extension): the
# new session's call returns its id at once, and the promoted c repeats it.

use strict;
use warnings;

use File::Spec;
use POSIX qw(strftime);
use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();

# libfaketime reads absolute times in the local time zone
$ENV{TZ} = 'UTC';

# a stopped walsender or receiver must not be timed out meanwhile
my ($primary, $primary_clock) = start_faketime_primary('b36mx_primary', '+0',
	conf => [ 'idgen.worker_id = 7', 'wal_sender_timeout = 0' ]);
$primary->backup('b');
my %sb;
foreach my $name (qw(a b c))
{
	my $node = PostgreSQL::Test::Cluster->new("b36mx_$name");
	$node->init_from_backup($primary, 'b', has_streaming => 1);
	$node->append_conf('postgresql.conf', 'wal_receiver_timeout = 0');
	$sb{$name} = $node;
}
my $c_clock = File::Spec->rel2abs($sb{c}->basedir . '/faketime.rc');
set_clock_offset($c_clock, '+0');
$sb{a}->start;
$sb{b}->start;
with_faketime($c_clock, sub { $sb{c}->start });
$primary->wait_for_catchup($sb{$_}) foreach qw(a b c);

my $priorities_sql =
  "SELECT string_agg(application_name || '=' || sync_priority, ',' ORDER BY application_name) FROM pg_stat_replication";
sub priorities { return $primary->safe_psql('postgres', $priorities_sql); }

ok( set_sync_names(
		$primary,
		'FIRST 2 (b36mx_a, b36mx_b)',
		'b36mx_a=sync,b36mx_b=sync,b36mx_c=async'),
	'FIRST 2 (a, b)');
is(priorities(), 'b36mx_a=1,b36mx_b=2,b36mx_c=0', 'the walsenders\' priorities');

my %receiver = map {
	$_ => $sb{$_}->safe_psql('postgres', 'SELECT pid FROM pg_stat_wal_receiver')
} qw(b c);
ok($receiver{$_} =~ /^\d+$/, "${_}'s WAL receiver") foreach qw(b c);
kill 'STOP', $receiver{b}, $receiver{c};

# both calls ask for ids of one second S: the primary's clock stands still
my $frozen = int(Time::HiRes::time()) + 2;
set_clock_offset($primary_clock, strftime('%Y-%m-%d %H:%M:%S', gmtime($frozen)));
is($primary->safe_psql('postgres',
		"SELECT clock_timestamp() = to_timestamp($frozen) AND clock_timestamp() = clock_timestamp()"),
	't', 'the primary\'s clock stands still');

my ($first, $first_pid) = start_call($primary, 'SELECT base36id_generate();');
is(settled_state($primary, $first_pid), 'active/SyncRep',
	'a call reserves a second S and waits: b lacks its record');
my ($second, $lsn) = split /\|/,
  $primary->safe_psql('postgres',
	'SELECT extract(epoch FROM reserved_second)::bigint, last_reservation_lsn FROM idgen_stat_base36id'
  );
is($second, $frozen, 'S is the second the clock stands at');
ok( $primary->poll_query_until(
		'postgres',
		"SELECT flush_lsn >= '$lsn' FROM pg_stat_replication WHERE application_name = 'b36mx_a'"
	),
	'a has flushed S\'s record and said so');
is( $primary->safe_psql(
		'postgres',
		"SELECT string_agg(application_name, ',' ORDER BY application_name) FROM pg_stat_replication WHERE flush_lsn < '$lsn'"
	),
	'b36mx_b,b36mx_c',
	'b and c lack it');

my %sender = map {
	$_ => $primary->safe_psql('postgres',
		"SELECT pid FROM pg_stat_replication WHERE application_name = 'b36mx_$_'")
} qw(a b);
kill 'STOP', $sender{a}, $sender{b};
$primary->safe_psql('postgres', q{
	ALTER SYSTEM SET synchronous_standby_names = 'FIRST 1 (b36mx_x, b36mx_c)';
	SELECT pg_reload_conf();});
ok( $primary->poll_query_until(
		'postgres',
		"SELECT sync_priority = 2 FROM pg_stat_replication WHERE application_name = 'b36mx_c'"
	),
	'c\'s walsender has the new names');
is(priorities(), 'b36mx_a=1,b36mx_b=2,b36mx_c=2',
	'a\'s and b\'s walsenders keep the old priorities');

my ($other, $other_pid) = start_call($primary, 'SELECT base36id_generate();');
is($primary->safe_psql('postgres', "SELECT current_setting('synchronous_standby_names')"),
	'FIRST 1 (b36mx_x, b36mx_c)', 'a new session has the new names');
is(settled_state($primary, $other_pid), 'active/SyncRep',
	'the new session\'s call waits: c, synchronous now, lacks the record');

kill 'CONT', $sender{a}, $sender{b};
ok( $primary->poll_query_until('postgres', $priorities_sql,
		'b36mx_a=0,b36mx_b=0,b36mx_c=2'),
	'every walsender has the new names');
is(settled_state($primary, $other_pid), 'active/SyncRep', 'the call still waits');
is(settled_state($primary, $first_pid), 'active/SyncRep', 'so does the first');

$primary->stop('immediate');
my @returned = (printed_ids($first), printed_ids($other));
is(scalar @returned, 0, 'the primary died without returning an id of S');

# c's receiver never reads what the walsender had sent it
kill 'CONT', $receiver{b};
ok(restart_without_receiver($sb{c}, $receiver{c}, $c_clock, $second),
	'c stopped once its receiver was killed');
is( $sb{c}->safe_psql('postgres',
		"SELECT pg_is_in_recovery() AND pg_last_wal_replay_lsn() < '$lsn'"),
	't', 'c is a standby again, without S\'s record');
check_promoted_repeats_none($sb{c}, $c_clock, $second, \@returned,
	unknown => 1);

$sb{$_}->stop foreach qw(a b c);
done_testing();
