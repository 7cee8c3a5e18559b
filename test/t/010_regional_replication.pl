# Three regional clusters replicate into one global cluster with built-in
# logical replication, as doc/multi-node.md describes: each
# region has its own idgen.worker_id and countries, generates every id type
# in DEFAULTs, and publishes its table; the global cluster subscribes to all
# three (binary = true for two, false for one) into one table, partitioned
# by month with idgen_create_partitions().
#
# Checked on the global cluster: no id of any type collides; ORDER BY id is
# the creation order across regions to the millisecond (to the second for
# base36id); iuid_country and base36id_worker name each row's region;
# updates and deletes arrive; a DEFAULT fills the column the publishers do
# not send.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

# region => [idgen.worker_id, country, binary subscription]
my %regions = (
	eu => [ 1, 10, 'true' ],
	us => [ 2, 20, 'false' ],
	asia => [ 3, 30, 'true' ],
);
my @names = sort keys %regions;

# A region's table: every id comes from a DEFAULT, so a client only says
# what the row is about.
sub region_table_sql
{
	my ($name) = @_;
	my $country = $regions{$name}[1];
	return qq{
	CREATE TABLE orders (
		id iuid PRIMARY KEY DEFAULT iuid_generate($country, 1),
		d distid NOT NULL DEFAULT distid_generate(),
		f flaxid NOT NULL DEFAULT flaxid_generate(),
		b base36id NOT NULL DEFAULT base36id_generate(),
		u uuid NOT NULL DEFAULT distid128_generate(),
		region text NOT NULL DEFAULT '$name',
		step int,
		amount numeric NOT NULL DEFAULT 0);
	CREATE PUBLICATION orders_pub FOR TABLE orders;};
}

my %node;
for my $name (@names)
{
	$node{$name} = start_idgen_node(
		$name,
		'wal_level = logical',
		'max_wal_senders = 8',
		'max_replication_slots = 8',
		"idgen.worker_id = $regions{$name}[0]");
	$node{$name}->safe_psql('postgres', region_table_sql($name));
}

# The global cluster: idgen installed (binary subscriptions receive idgen's
# binary forms), no worker id of its own (it generates nothing), the same
# table partitioned by month, and a column only it fills.
my $global = start_idgen_node('global', 'max_logical_replication_workers = 8');
$global->safe_psql(
	'postgres', q{
	CREATE TABLE orders (
		id iuid PRIMARY KEY, d distid NOT NULL, f flaxid NOT NULL, b base36id NOT NULL,
		u uuid NOT NULL, region text NOT NULL, step int, amount numeric NOT NULL,
		received_at timestamptz NOT NULL DEFAULT clock_timestamp())
	PARTITION BY RANGE (id);
	CREATE INDEX ON orders (d);
	CREATE INDEX ON orders (f);
	CREATE INDEX ON orders (b);
	CREATE INDEX ON orders (u);});
# the call doc/reference.md shows for pg_cron: this month and the next three
my $created = $global->safe_psql(
	'postgres', q{
	SELECT count(*) FROM idgen_create_partitions('public.orders',
		date_trunc('month', now(), 'UTC'),
		date_trunc('month', now(), 'UTC') + interval '4 months',
		interval '1 month')});
is($created, '4', 'idgen_create_partitions() made 4 monthly partitions on the global cluster');

for my $name (@names)
{
	my $binary = $regions{$name}[2];
	(my $connstr = $node{$name}->connstr('postgres')) =~ s/'/''/g;
	$global->safe_psql('postgres',
		"CREATE SUBSCRIPTION sub_$name CONNECTION '$connstr' PUBLICATION orders_pub
		 WITH (binary = $binary)");
}
$global->wait_for_subscription_sync;
is( $global->safe_psql(
		'postgres',
		'SELECT string_agg(subname || \'=\' || subbinary, \',\' ORDER BY subname) FROM pg_subscription'),
	'sub_asia=true,sub_eu=true,sub_us=false',
	'three subscriptions, two binary');

sub wait_for_global
{
	$node{$_}->wait_for_catchup("sub_$_") for @names;
	return;
}

#
# 1. Creation order across regions: one row at a time, the regions taking
# turns, each insert at least 2 ms after the previous one ended (it sleeps
# before its row's DEFAULTs run).
#
my %session = map { $_ => $node{$_}->background_psql('postgres') } @names;
my $steps = 60;
for my $step (1 .. $steps)
{
	my $name = $names[ $step % 3 ];
	$session{$name}->query_safe(
		"INSERT INTO orders (step) SELECT $step FROM pg_sleep(0.002)");
}
$_->quit for values %session;
wait_for_global();

is($global->safe_psql('postgres', 'SELECT count(*) FROM orders WHERE step IS NOT NULL'),
	$steps, "all $steps interleaved rows arrived");
my $in_step_order = join(',', 1 .. $steps);
for my $col (qw(id d f u))
{
	is( $global->safe_psql(
			'postgres',
			"SELECT string_agg(step::text, ',' ORDER BY $col) FROM orders WHERE step IS NOT NULL"),
		$in_step_order,
		"ORDER BY $col is the creation order across the regions");
}
# base36id counts seconds: its order is the creation order to the second
is( $global->safe_psql(
		'postgres', q{
		SELECT count(*) FROM (
			SELECT base36id_timestamp(b) AS sec,
			       lag(base36id_timestamp(b)) OVER (ORDER BY step) AS prev_sec
			FROM orders WHERE step IS NOT NULL) s
		WHERE sec < prev_sec}),
	'0',
	'ORDER BY b (base36id) is the creation order to the second');

#
# 2. Volume: every region generates at once; base36id allows 1296 ids per
# second per worker, so 2000 rows take each region two seconds or more and
# all three workers share those seconds.
#
my $per_region = 2000;
my %bulk;
for my $name (@names)
{
	my ($out, $err) = ('', '');
	$bulk{$name} = [
		IPC::Run::start(
			[
				'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1',
				'-d', $node{$name}->connstr('postgres'),
				'-c', "INSERT INTO orders (amount) SELECT g FROM generate_series(1, $per_region) g"
			],
			'>', \$out, '2>', \$err,
			IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default)),
		\$err
	];
}
for my $name (@names)
{
	ok($bulk{$name}[0]->finish, "$name generated $per_region rows")
	  or diag(${ $bulk{$name}[1] });
}

# 3. Updates and deletes in every region, on the bulk rows (amount 1 .. 2000)
for my $name (@names)
{
	$node{$name}->safe_psql(
		'postgres', q{
		UPDATE orders SET amount = -amount WHERE step IS NULL AND amount % 7 = 0;
		DELETE FROM orders WHERE step IS NULL AND amount % 11 = 0;});
}
wait_for_global();

#
# The global table against the regions
#
my $total = 0;
my @region_rows;
for my $name (@names)
{
	$total += $node{$name}->safe_psql('postgres', 'SELECT count(*) FROM orders');
	push @region_rows,
	  split /\n/,
	  $node{$name}->safe_psql('postgres',
		'SELECT id, d, f, b, u, region, step, amount FROM orders');
}
my @global_rows = split /\n/,
  $global->safe_psql('postgres',
	'SELECT id, d, f, b, u, region, step, amount FROM orders');
is(scalar(@global_rows), $total, "the global table has all $total rows of the regions");
is_deeply([ sort @global_rows ], [ sort @region_rows ],
	'every row, updated or not, arrived as it is in its region, and deleted rows are gone');
my $negated = grep { $_ % 7 == 0 && $_ % 11 != 0 } 1 .. $per_region;
my $kept = grep { $_ % 11 != 0 } 1 .. $per_region;
is( $global->safe_psql(
		'postgres', q{
		SELECT count(*) FILTER (WHERE amount < 0) || '/'
		    || count(*) FILTER (WHERE amount % 7 = 0 AND amount > 0) || '/'
		    || count(*) FILTER (WHERE amount % 11 = 0) || '/' || count(*)
		FROM orders WHERE step IS NULL}),
	3 * $negated . '/0/0/' . 3 * $kept,
	'the updates arrived (amounts negated) and the deleted rows are gone');

for my $col (qw(id d f b u))
{
	is($global->safe_psql('postgres', "SELECT count(*) - count(DISTINCT $col) FROM orders"),
		'0', "no two rows share a $col across the regions");
}

my $region_of = join ' ',
  map { "WHEN '$_' THEN $regions{$_}[1]" } @names;
is( $global->safe_psql(
		'postgres', "SELECT count(*) FROM orders
		WHERE iuid_country(id) <> CASE region $region_of END"),
	'0',
	"iuid_country(id) names each row's region");
my $worker_of = join ' ',
  map { "WHEN '$_' THEN $regions{$_}[0]" } @names;
is( $global->safe_psql(
		'postgres', "SELECT count(*) FROM orders
		WHERE base36id_worker(b) <> CASE region $worker_of END"),
	'0',
	"base36id_worker(b) names each row's region");
cmp_ok(
	$global->safe_psql(
		'postgres', q{
		SELECT count(*) FROM (SELECT base36id_timestamp(b) FROM orders
		                      GROUP BY 1 HAVING count(DISTINCT region) = 3) s}),
	'>=', 1, 'the three regions generated base36ids in the same second');
is( $global->safe_psql(
		'postgres', q{
		SELECT count(*) FROM orders
		WHERE received_at < iuid_timestamp(id) OR received_at > clock_timestamp()}),
	'0',
	'the DEFAULT of the column the publishers do not send ran on the global cluster');
is( $global->safe_psql(
		'postgres', q{
		SELECT count(*) FROM orders
		WHERE tableoid::regclass::text <> 'orders_' || to_char(iuid_timestamp(id) AT TIME ZONE 'UTC', 'YYYYMM') || '01'}),
	'0',
	'every row is in the partition of its month');

#
# Two upkeep runs for the same table at once take turns: the second waits
# for the first's lock, then finds the partitions made and creates none.
#
my $extend = q{SELECT count(*) FROM idgen_create_partitions('public.orders',
	date_trunc('month', now(), 'UTC'),
	date_trunc('month', now(), 'UTC') + interval '6 months', interval '1 month')};
my $first = $global->background_psql('postgres');
$first->query_safe('BEGIN');
is($first->query_safe($extend), '2', 'a run in an open transaction creates the 2 missing months');
my $second = $global->background_psql('postgres', on_error_stop => 0);
$second->query_until(qr/second-start/, "\\echo second-start\n$extend;\n");
ok( $global->poll_query_until(
		'postgres', q{
		SELECT count(*) = 1 FROM pg_stat_activity
		WHERE wait_event_type = 'Lock' AND query LIKE '%idgen_create_partitions%'}),
	'a second run waits for the first');
$first->query_safe('COMMIT');
$first->quit;
my $second_out = $second->query('SELECT 1');
is($second->{stderr}, '', 'the second run ends without an error');
like($second_out, qr/^0\n1$/, '... and creates nothing');
$second->quit;
is( $global->safe_psql(
		'postgres', q{SELECT count(*) FROM pg_inherits WHERE inhparent = 'orders'::regclass}),
	'6', 'the global table has 6 monthly partitions');

$global->stop;
$node{$_}->stop for @names;

done_testing();
