# Routing by id with PL/Proxy, as doc/multi-node.md shows:
# two data nodes, each owning some countries, and a router whose
# insert_order(country, ...) runs on the node of the country and whose
# get_order(id) finds the row by its id alone, routed by iuid_country(id).
#
# PL/Proxy is packaged for PostgreSQL 15 only (postgresql-15-plproxy): on
# other servers the test is skipped; on 15 the test command installs it,
# and the test fails without it.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Utils;
use Test::More;

plan_packaged_15('PL/Proxy', 'plproxy', 'postgresql-15-plproxy');

# node => countries it owns; the partition number is the node's index
my @data = ([ 'part0', 10, 30 ], [ 'part1', 20, 40 ]);

# The SQL of a data node and of the router: the same table, type and
# functions on every data node, idgen in the same schema everywhere
# (PL/Proxy's remote calls name the router's schema and types).
my $data_sql = q{
	CREATE TABLE orders (id iuid PRIMARY KEY, country int NOT NULL, item text NOT NULL,
	                     amount numeric NOT NULL);
	CREATE TYPE order_row AS (id iuid, country int, item text, amount numeric, node text);

	CREATE FUNCTION insert_order(country int, item text, amount numeric) RETURNS iuid
	LANGUAGE sql AS $$
		INSERT INTO orders VALUES (iuid_generate(country, 1), country, item, amount)
		RETURNING id
	$$;
	CREATE FUNCTION get_order(id iuid) RETURNS SETOF order_row
	LANGUAGE sql STABLE AS $$
		SELECT o.id, o.country, o.item, o.amount, current_setting('cluster_name')
		FROM orders o WHERE o.id = get_order.id
	$$;
};

my @nodes;
for my $d (@data)
{
	my $node = start_idgen_node($d->[0], "cluster_name = '$d->[0]'");
	$node->safe_psql('postgres', $data_sql);
	push @nodes, $node;
}

my $router = start_idgen_node('router');
my $servers = join ', ',
  map { (my $c = $nodes[$_]->connstr('postgres')) =~ s/'/''/g; "p$_ '$c'" } 0 .. $#nodes;
$router->safe_psql(
	'postgres', qq{
	CREATE EXTENSION plproxy;
	-- the cluster: one connection string per partition, a power of two of them
	CREATE SERVER orders_cluster FOREIGN DATA WRAPPER plproxy OPTIONS ($servers);
	CREATE USER MAPPING FOR PUBLIC SERVER orders_cluster;

	-- which partition owns a country
	CREATE TABLE country_partition (country int PRIMARY KEY, part int NOT NULL);
	CREATE FUNCTION part_of(country int) RETURNS int LANGUAGE sql STABLE AS
		'SELECT part FROM country_partition WHERE country = part_of.country';

	CREATE TYPE order_row AS (id iuid, country int, item text, amount numeric, node text);
	CREATE FUNCTION insert_order(country int, item text, amount numeric) RETURNS iuid
	LANGUAGE plproxy AS \$\$
		CLUSTER 'orders_cluster';
		RUN ON part_of(country);
	\$\$;
	CREATE FUNCTION get_order(id iuid) RETURNS SETOF order_row
	LANGUAGE plproxy AS \$\$
		CLUSTER 'orders_cluster';
		RUN ON part_of(iuid_country(id));
	\$\$;
});
for my $p (0 .. $#data)
{
	my ($name, @countries) = @{ $data[$p] };
	$router->safe_psql('postgres',
		"INSERT INTO country_partition VALUES " . join ', ', map { "($_, $p)" } @countries);
}

# 200 orders through the router, countries in turn
my $n = 200;
my @countries = map { @{$_}[ 1 .. $#$_ ] } @data;
my $inserted = $router->safe_psql(
	'postgres', qq{
	CREATE TABLE placed AS
	SELECT g, c AS country, insert_order(c, 'item ' || g, g * 1.5) AS id
	FROM generate_series(1, $n) g,
	     LATERAL (SELECT (ARRAY[@{[ join ', ', @countries ]}])[1 + g % @{[ scalar @countries ]}] AS c) s;
	SELECT count(*) || '/' || count(DISTINCT id) FROM placed;});
is($inserted, "$n/$n", "the router placed $n orders with distinct ids");

is( $router->safe_psql(
		'postgres', 'SELECT count(*) FROM placed WHERE iuid_country(id) <> country'),
	'0',
	'every id carries its country');

# every order is found by its id alone, on the node that owns its country
my $node_of = join ' ',
  map { my $p = $_; map { "WHEN $_ THEN '$data[$p][0]'" } @{ $data[$p] }[ 1 .. $#{ $data[$p] } ] }
  0 .. $#data;
is( $router->safe_psql(
		'postgres', qq{
		SELECT count(*) FROM placed p
		LEFT JOIN LATERAL get_order(p.id) o ON true
		WHERE o.id IS DISTINCT FROM p.id OR o.country <> p.country
		   OR o.item <> 'item ' || p.g OR o.amount <> p.g * 1.5
		   OR o.node <> CASE p.country $node_of END}),
	'0',
	'get_order(id) finds every order, with its fields, on the node of its country');
is( $router->safe_psql(
		'postgres', 'SELECT count(*) FROM placed p, LATERAL get_order(p.id) o'),
	$n, 'and exactly one row for each');

# the data nodes hold exactly their countries' orders
for my $p (0 .. $#data)
{
	my ($name, @own) = @{ $data[$p] };
	my $own = join ', ', @own;
	my $expected = $router->safe_psql('postgres',
		"SELECT count(*) FROM placed WHERE country IN ($own)");
	is( $nodes[$p]->safe_psql(
			'postgres',
			"SELECT count(*) || '/' || count(*) FILTER (WHERE country NOT IN ($own)
			                                            OR iuid_country(id) NOT IN ($own))
			 FROM orders"),
		"$expected/0",
		"$name holds the $expected orders of countries $own and no other");
}

# an id that no node has: no row, not an error
is( $router->safe_psql(
		'postgres', q{SELECT count(*) FROM get_order(iuid_generate(20, 1))}),
	'0',
	'an unknown id of a known country finds no row');

# RUN ON needs an integer: an iuid itself is refused, its hash (core
# uuid_hash of the same bytes) is accepted
my ($ret, $err) = psql_verbose(
	$router, q{
	CREATE FUNCTION get_order_on_id(id iuid) RETURNS SETOF order_row
	LANGUAGE plproxy AS $$ CLUSTER 'orders_cluster'; RUN ON id; $$;
	SELECT * FROM get_order_on_id((SELECT id FROM placed LIMIT 1));});
isnt($ret, 0, 'RUN ON an iuid is refused');
like($err, qr/Hash result must be int2, int4 or int8/, '... as a hash that is not an integer');
is( $router->safe_psql(
		'postgres', 'SELECT count(*) FROM placed WHERE iuid_hash(id) <> uuid_hash(id::uuid)'),
	'0',
	'iuid_hash(id) is core uuid_hash of the same bytes');
$router->safe_psql(
	'postgres', q{
	CREATE FUNCTION count_on_hash(id iuid) RETURNS SETOF bigint
	LANGUAGE plproxy AS $$ CLUSTER 'orders_cluster'; RUN ON iuid_hash(id);
	                       SELECT count(*) FROM orders; $$;});
is( $router->safe_psql(
		'postgres', 'SELECT count(*) FROM placed p, LATERAL count_on_hash(p.id) c WHERE c > 0'),
	$n,
	'RUN ON iuid_hash(id) is accepted and runs on a data node');

$router->stop;
$_->stop for @nodes;

done_testing();
