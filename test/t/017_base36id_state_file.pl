
# base36id's state file, $PGDATA/idgen_base36id.state.
#
# Before the first id of a second is handed out, that second is written to
# the file (fsync'd) and to WAL.  Crash recovery replays WAL only from the
# last checkpoint on: across a checkpoint, the file is what remembers the
# second.  A damaged file gives a clear error (XX001) when generating, not a
# wait for a second that may lie decades ahead, nor ids the file no longer
# rules out; its problem is logged at start.
#
# The server's clock runs 30 s ahead (libfaketime), then steps back to the
# true time before the crash, so that after the crash only the file keeps
# the generator from going back to the clock's earlier second.
#
# Mutations this test catches (each tried by hand):
# - no state file write before the first id of a second: after a checkpoint
#   and a crash, ids smaller than those issued before the crash;
# - no checksum check, or no range check of the second read back: generation
#   waits (until statement_timeout) instead of the damaged-file error;
# - no size check: a short file is taken for a valid one.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $worker = 4;
my $ahead = 30;

my $node = init_idgen_node('base36id_state_file', "idgen.worker_id = $worker",
	'restart_after_crash = on');
my $state_file = $node->data_dir . '/idgen_base36id.state';
my $offset_file = $node->basedir . '/faketime.rc';
set_clock_offset($offset_file, "+$ahead");
with_faketime($offset_file, sub { $node->start });
$node->safe_psql('postgres', 'CREATE EXTENSION idgen');

# CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), computed here
# bit by bit, independently of PostgreSQL's.
sub crc32c
{
	my ($data) = @_;
	my $crc = 0xFFFFFFFF;
	foreach my $byte (unpack('C*', $data))
	{
		$crc ^= $byte;
		$crc = ($crc & 1) ? (($crc >> 1) ^ 0x82F63B78) : ($crc >> 1)
		  foreach 1 .. 8;
	}
	return $crc ^ 0xFFFFFFFF;
}
is(sprintf('%08X', crc32c('123456789')), 'E3069283',
	'the CRC-32C helper gives the standard check value');

# Writes the state file: raw bytes.
sub write_state_file
{
	my ($bytes) = @_;
	open my $fh, '>:raw', $state_file or die "$state_file: $!";
	print $fh $bytes;
	close $fh or die "$state_file: $!";
	return;
}

# A record as src/base36id_gen.c writes it: magic "ID37", CRC-32C of magic
# and second, second; the CRC may be overridden.
sub state_record
{
	my ($second, $crc) = @_;
	my $magic = 0x49443337;
	$crc //= crc32c(pack('L q', $magic, $second));
	return pack('L L q', $magic, $crc, $second);
}

# One call with statement_timeout 1.5 s: (psql stdout, stderr with verbose
# errors).
sub try_generate
{
	my ($ret, $out, $err) = $node->psql('postgres',
		"\\set VERBOSITY verbose\nSET statement_timeout = '1500ms';\nSELECT base36id_generate();");
	return ($out, $err);
}

#
# A crash after a checkpoint, with the clock stepped back.
#
my $last = $node->safe_psql('postgres',
	'SELECT max(id) FROM (SELECT base36id_generate() AS id FROM generate_series(1, 10)) s');
my $last_second = $node->safe_psql('postgres',
	"SELECT extract(epoch FROM base36id_timestamp('$last'))::bigint - 1704067200");
is(state_file_second($node), $last_second,
	"the state file holds the last id's second");
$node->safe_psql('postgres', 'CHECKPOINT');
set_clock_offset($offset_file, '+0');
crash_restart($node);
is( $node->safe_psql(
		'postgres',
		"SELECT clock_timestamp() < base36id_timestamp('$last')"),
	't',
	"after the crash the server's clock is before the last id's second");
my ($out, $err) = try_generate();
is($out, '', 'after a checkpoint and a crash, no id while the clock is behind')
  or diag("last id before the crash: $last");
like($err, qr/canceling statement due to statement timeout/,
	'generation waits for the clock to pass the last second');

#
# Damaged files: a clear error at once, and a line in the log at start.
#
my @damaged = (
	[
		'a checksum that does not match',
		state_record(1_000_000_000, 12345),
		qr/The file's checksum does not match its contents\./
	],
	[
		'a second beyond 2092 with a valid checksum',
		state_record(36**6),
		qr/The second it holds is outside the time span of base36id\./
	],
	[
		'a short file',
		substr(state_record(100), 0, 8),
		qr/The file does not have the expected size of 16 bytes\./
	],
	[
		'a long file',
		state_record(100) . "\0",
		qr/The file does not have the expected size of 16 bytes\./
	],
	[
		'no marker',
		pack('L L q', 0x12345678, 0, 100),
		qr/The file does not start with idgen's marker\./
	]);
foreach my $case (@damaged)
{
	my ($label, $bytes, $detail) = @$case;
	$node->stop;
	write_state_file($bytes);
	my $log_offset = -s $node->logfile;
	$node->start;
	ok( $node->log_contains(
			qr/LOG:  base36id state file "idgen_base36id.state" is damaged/,
			$log_offset),
		"$label: logged at start");
	($out, $err) = try_generate();
	is($out, '', "$label: no id");
	like(
		$err,
		qr/ERROR:  XX001: base36id state file "idgen_base36id.state" is damaged/,
		"$label: error XX001, not a wait");
	like($err, qr/DETAIL:  $detail/, "$label: the detail says what is wrong");
	like($err, qr/HINT:  .*remove the file and restart the server/,
		"$label: the hint says how to recover");
}

# the hint's way out
$node->stop;
unlink $state_file or die "$state_file: $!";
$node->start;
like($node->safe_psql('postgres', 'SELECT base36id_generate()'),
	qr/^[0-9A-Z]{9}$/, 'with the file removed and a restart, generation works');

#
# Valid files: one written by version 1.0 (magic "ID36", no checksum) and
# one with a checksum, each holding a second 3 s ahead of the clock: the
# first id comes from a later second.
#
foreach my $case (['version 1.0', 0x49443336, 0], ['checksummed', undef, undef])
{
	my ($label, $magic, $crc) = @$case;
	$node->stop;
	my $second = time() - 1704067200 + 3;
	write_state_file(
		defined $magic
		? pack('L L q', $magic, $crc, $second)
		: state_record($second));
	$node->start;
	my $id = $node->safe_psql('postgres', 'SELECT base36id_generate()');
	my $id_second = $node->safe_psql('postgres',
		"SELECT extract(epoch FROM base36id_timestamp('$id'))::bigint - 1704067200");
	cmp_ok($id_second, '>', $second,
		"$label file: the first id comes after the second it holds");
	is(state_file_second($node), $id_second,
		"$label file: rewritten with the first id's second and a checksum");
}

$node->stop;

done_testing();
