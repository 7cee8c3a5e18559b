
# base36id: redo checks its record and stops recovery with a clear error.
#
# A record of idgen's resource manager whose second lies outside base36id's
# span (a damaged record with a valid CRC, or another extension's on the same
# resource manager id) must not become the floor: generation would wait for
# decades, and the second written to the state file would make the next
# start fail with XX001.  Recovery stops instead, naming the record.
#
# The test writes a reservation, stops the server without a checkpoint, and
# rewrites the record's second in the WAL segment (with a CRC-32C computed
# here, checked first against the record as PostgreSQL wrote it).
#
# Mutation this test catches (tried by hand): redo without the range check
# (1.1's first generator): the server starts, with the bad second as floor.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Utils;
use Test::More;

# CRC-32C (Castagnoli), as PostgreSQL's pg_crc32c, over a byte string,
# continuing $crc (start with 0xFFFFFFFF; the final value is its complement)
my @crc_table;
for my $i (0 .. 255)
{
	my $c = $i;
	$c = ($c & 1) ? (($c >> 1) ^ 0x82F63B78) : ($c >> 1) for 1 .. 8;
	push @crc_table, $c;
}

sub crc32c_update
{
	my ($crc, $bytes) = @_;
	$crc = $crc_table[ ($crc ^ $_) & 0xFF ] ^ ($crc >> 8) for unpack('C*', $bytes);
	return $crc;
}

# an XLogRecord's CRC: the data after the 24-byte header, then the header up
# to xl_crc (PostgreSQL's XLogRecordAssemble)
sub record_crc
{
	my ($record) = @_;
	my $crc = crc32c_update(0xFFFFFFFF, substr($record, 24));
	$crc = crc32c_update($crc, substr($record, 0, 20));
	return $crc ^ 0xFFFFFFFF;
}

my $node = init_idgen_node('b36_bad_record', 'idgen.worker_id = 2', 'autovacuum = off');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION idgen');
$node->safe_psql('postgres', 'CHECKPOINT');

# a reservation record that does not cross a WAL page
my ($lsn, $record_bytes, $segment, $offset);
for my $try (1 .. 20)
{
	# wait for a new second, so that generation writes a record
	await_unreserved_second($node);
	my ($before, undef, $after, $walfile) = split /\n/,
	  $node->safe_psql(
		'postgres', q{
		SELECT pg_current_wal_insert_lsn();
		SELECT base36id_generate();
		SELECT pg_current_wal_insert_lsn();
		SELECT pg_walfile_name(pg_current_wal_insert_lsn());});
	my $dump = `pg_waldump -p '@{[ $node->data_dir ]}/pg_wal' -s $before -e $after 2>&1`;
	note($dump);
	my ($rec_lsn) = $dump =~ /rmgr: custom190\s.*lsn: ([0-9A-F]+\/[0-9A-F]+)/;
	next unless defined $rec_lsn;
	my ($hi, $lo) = map { hex } split m{/}, $rec_lsn;
	my $seg_size = 16 * 1024 * 1024;
	$offset = $lo % $seg_size;
	next if $offset % 8192 + 34 > 8192;
	($lsn, $segment) = (sprintf("%X/%X", $hi, $lo), $node->data_dir . "/pg_wal/$walfile");
	last;
}
ok(defined $lsn, "a reservation record at $lsn, within one WAL page")
  or BAIL_OUT('no reservation record found');
$node->stop('immediate');

open my $fh, '+<:raw', $segment or die "$segment: $!";
seek($fh, $offset, 0) or die;
read($fh, $record_bytes, 34) == 34 or die "short read of $segment";
my ($tot_len, $rmid, $crc) = (unpack('L', $record_bytes), unpack('C', substr($record_bytes, 17, 1)),
	unpack('L', substr($record_bytes, 20, 4)));
is("$tot_len/$rmid", '34/190', 'a record of 34 bytes of resource manager 190');
is(record_crc($record_bytes), $crc, 'the CRC computed here matches the one PostgreSQL wrote');

# the second just past base36id's span: 36^6
substr($record_bytes, 26, 8) = pack('q', 2176782336);
substr($record_bytes, 20, 4) = pack('L', record_crc($record_bytes));
seek($fh, $offset, 0) or die;
print $fh $record_bytes;
close $fh or die;

my $log_offset = -s $node->logfile;
ok(!$node->start(fail_ok => 1), 'the server does not start with the bad record');
like(
	slurp_file($node->logfile, $log_offset),
	qr/invalid WAL record of resource manager idgen_base36id \(id 190\) at \Q$lsn\E/,
	'recovery stops at the record, naming it');
like(
	slurp_file($node->logfile, $log_offset),
	qr/Second 2176782336 is outside the time span of base36id/,
	'and telling what is wrong with it');
isnt(state_file_second($node), 2176782336, 'the bad second was not written to the state file');

done_testing();
