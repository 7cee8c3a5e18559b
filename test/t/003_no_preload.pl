# The extension installs and iuid works the usual way, without
# shared_preload_libraries: iuid needs no shared memory.
use strict;
use warnings;
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

$node->stop;
done_testing();
