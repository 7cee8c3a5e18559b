# The extension installs and iuid works the usual way, without
# shared_preload_libraries: iuid needs no shared memory.  So does the
# base36id type; only base36id_generate() needs the shared counters, and it
# says how to get them.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('no_preload');
$node->init;
$node->start;

is($node->safe_psql('postgres', 'SHOW shared_preload_libraries'), '',
	'idgen is not preloaded');
$node->safe_psql('postgres', 'CREATE EXTENSION idgen');

my $row = $node->safe_psql('postgres', q{
	SELECT iuid_country(id), iuid_entity(id),
	       abs(extract(epoch FROM iuid_timestamp(id) - now())) < 60
	FROM (SELECT iuid_generate(42, 5) AS id) s});
is($row, '42|5|t', 'iuid_generate works without preloading');

is($node->safe_psql('postgres',
	q{SELECT iuid_timestamp('017f22e2-79b0-802a-8141-23456789abcd') = '2022-02-22 19:22:22+00'}),
	't', 'the SPEC vector reads back without preloading');

# base36id: the type works, generation explains what is missing
is( $node->safe_psql(
		'postgres', q{
		SELECT id::text, base36id_worker(id), base36id_counter(id),
		       base36id_timestamp(id) = '2025-01-01 00:00:00+00'
		FROM (SELECT '0ITS0030Z'::base36id AS id) s}),
	'0ITS0030Z|3|35|t',
	'the base36id type works without preloading');

# Whether or not a worker is configured, the error is about preloading.
foreach my $worker_conf ('', 'idgen.worker_id = 3')
{
	my $label = $worker_conf eq '' ? 'no worker set' : $worker_conf;
	if ($worker_conf ne '')
	{
		$node->append_conf('postgresql.conf', $worker_conf);
		$node->reload;
		ok($node->poll_query_until('postgres', 'SHOW idgen.worker_id', '3'),
			'idgen.worker_id is set to 3');
	}
	my ($ret, $err) = psql_verbose($node, 'SELECT base36id_generate()');
	isnt($ret, 0, "base36id_generate() fails without preloading ($label)");
	like(
		$err,
		qr/ERROR:  55000: [^\n]*shared_preload_libraries/,
		"... with SQLSTATE 55000 and a message naming shared_preload_libraries ($label)");
	like($err, qr/\nHINT:  [^\n]*shared_preload_libraries/,
		"... and a hint ($label)");
}

is($node->safe_psql('postgres', 'SELECT 1'), '1', 'the server is fine');

$node->stop;
done_testing();
