# A query sees one key set, whichever process computes its public ids.  A
# session keeps the keys of the key file it read until the next reload; a
# parallel worker is a process of its own that would read the file afresh.
# So after the file's active key changes (no reload yet), a parallel plan
# must still encode and decode every row with the session's keys: one
# public id per id, one decoded value per public id.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use MIME::Base64 qw(encode_base64);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $KEY_A = 'k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=';
my $KEY_B = encode_base64(pack('C*', map { int(rand(256)) } 1 .. 32), '');

sub write_key_file
{
	my ($node, @lines) = @_;
	my $path = $node->data_dir . '/public_id.keys';
	open(my $fh, '>', $path) or die "could not write $path: $!";
	print $fh map { "$_\n" } @lines;
	close($fh);
	chmod(0600, $path) or die "could not chmod $path: $!";
	return;
}

my $node = PostgreSQL::Test::Cluster->new('public_id_parallel');
$node->init;
$node->append_conf(
	'postgresql.conf', join("\n",
		"shared_preload_libraries = 'idgen'",
		"idgen.public_id_key_file = 'public_id.keys'",
		"max_worker_processes = 8",
		"max_parallel_workers = 8"));
write_key_file($node, $KEY_A);
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION idgen;
	CREATE TABLE big AS SELECT g FROM generate_series(1, 300000) g;
	ALTER TABLE big SET (parallel_workers = 2);
	ANALYZE big;
});

# the session reads the key file (A) before it changes
my $session = $node->background_psql('postgres');
$session->query_safe(q{
	SET max_parallel_workers_per_gather = 2;
	SET parallel_setup_cost = 0;
	SET parallel_tuple_cost = 0;
	SET min_parallel_table_scan_size = 0;
	SET parallel_leader_participation = on;
});
my $before = $session->query_safe('SELECT public_id(42::bigint)');
my $made_b = $node->safe_psql('postgres',
	"SELECT public_id(42::bigint, decode('$KEY_B', 'base64'))");
isnt($before, $made_b, 'the two keys give different public ids');

# a new active key first, the old one kept, and no reload
write_key_file($node, $KEY_B, $KEY_A);

my $encode = q{SELECT public_id(42 + g % 1) AS p, count(*) FROM big GROUP BY 1};
my $plan = $session->query_safe("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) $encode");
like($plan, qr/Workers Launched: [1-9]/, 'the query runs with parallel workers')
  or diag($plan);
is($session->query_safe($encode), "$before|300000",
	'every row gets the public id of the session\'s key')
  or diag($plan);

# decoding: a public id made with B is not one of the session's keys'
is( $session->query_safe(
		"SELECT coalesce(public_id_to_bigint(public_id(42 + g % 1, decode('$KEY_B', 'base64')))::text, 'null'),"
		  . " count(*) FROM big GROUP BY 1"),
	'null|300000',
	'every row decodes with the session\'s keys');
is( $session->query_safe(
		"SELECT public_id_to_uuid(public_id(g::bigint % 1, decode('$KEY_B', 'base64'))) AS u, count(*)"
		  . " FROM big GROUP BY 1 HAVING count(*) <> 300000"),
	'',
	'public_id_to_uuid decodes every row with one key');

# after the reload the session uses B, in every process alike
$node->reload;
# the session handles the reload signal between two queries
my $now;
foreach (1 .. 5 * $PostgreSQL::Test::Utils::timeout_default)
{
	$now = $session->query_safe('SELECT public_id(42::bigint)');
	last if $now eq $made_b;
	select(undef, undef, undef, 0.1);
}
is($now, $made_b, 'after the reload the session uses the new active key');
is($session->query_safe($encode), "$made_b|300000", 'and so does the parallel query');
is( $session->query_safe(
		"SELECT public_id_to_bigint('$before'), count(*) FROM big GROUP BY 1 HAVING count(*) = 300000"),
	'42|300000',
	'an id made with the old key still decodes');

$session->quit;
$node->stop;
done_testing();
