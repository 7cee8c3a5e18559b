# idgen on a Citus cluster: a coordinator and two workers on loopback, each
# with shared_preload_libraries = 'citus,idgen' and its own idgen.worker_id
# (coordinator 1, workers 2 and 3).  Run by tools/test.sh's citus suite
# (PostgreSQL 17 and 18, Citus 14.0.1 from tools/citusbuild.sh).
#
# Checked: CREATE EXTENSION idgen and ALTER EXTENSION idgen UPDATE reach
# every node; idgen_check_worker_ids() finds every node's worker id, names
# nodes that share one or have none (asked on the coordinator and on a
# worker), and through dblink checks servers by connection string (one
# without idgen, one not there, its password masked); each type as a hash
# distribution column takes single-row and multi-row inserts, COPY and both
# kinds of INSERT ... SELECT with unique ids, and WHERE id = ... is a
# one-shard router query; where a DEFAULT runs shows in base36id's worker
# id, EXPLAIN INSERT uses up a base36id, and two nodes with one worker id
# insert the same id; partitions that idgen_create_partitions adds after
# distribution are distributed, concurrent calls take turns, on a worker
# it is refused; colocated joins, min/max and filters on iuid run on the
# workers, a time bound on the id uses the shards' index, EXPLAIN with a
# bound iuid parameter gets no remote plan; the errors Citus
# gives for what it refuses; shard moves (block_writes, force_logical) keep
# every id.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes;

my %worker_id = (coord => 1, w1 => 2, w2 => 3);
my @names = qw(coord w1 w2);
my %node;
for my $name (@names)
{
	my $n = PostgreSQL::Test::Cluster->new($name);
	$n->init;
	$n->append_conf(
		'postgresql.conf', join("\n",
			"shared_preload_libraries = 'citus,idgen'",
			"listen_addresses = '127.0.0.1'",
			"idgen.worker_id = $worker_id{$name}",
			"cluster_name = '$name'",
			# loopback without TLS; logical decoding for force_logical moves
			"citus.node_conninfo = 'sslmode=disable'",
			'wal_level = logical',
			'max_wal_senders = 10',
			'max_replication_slots = 10',
			'max_prepared_transactions = 20',
			'citus.shard_count = 4',
			'fsync = off'));
	$n->start;
	$n->safe_psql('postgres', 'CREATE EXTENSION citus');
	$node{$name} = $n;
}
my $coord = $node{coord};
$coord->safe_psql('postgres',
	"SELECT citus_set_coordinator_host('127.0.0.1', " . $coord->port . ")");
for my $w (qw(w1 w2))
{
	$coord->safe_psql('postgres',
		"SELECT citus_add_node('127.0.0.1', " . $node{$w}->port . ")");
}
is($coord->safe_psql('postgres', 'SELECT count(*) FROM citus_get_active_worker_nodes()'),
	'2', 'two active workers');

# the psql -c of a statement on a node: [exit code, stdout, stderr]
sub try_psql
{
	my ($n, $sql) = @_;
	my ($out, $err) = ('', '');
	my $rc = $n->psql('postgres', $sql, stdout => \$out, stderr => \$err);
	return ($rc, $out, $err);
}

#
# the extension: created at 1.0 and updated from the coordinator
#
$coord->safe_psql('postgres', "CREATE EXTENSION idgen VERSION '1.0'");
for my $name (@names)
{
	is($node{$name}->safe_psql('postgres',
			"SELECT extversion FROM pg_extension WHERE extname = 'idgen'"),
		'1.0', "CREATE EXTENSION idgen reached $name");
}
$coord->safe_psql('postgres', 'ALTER EXTENSION idgen UPDATE');
my $newest = $coord->safe_psql('postgres',
	"SELECT default_version FROM pg_available_extensions WHERE name = 'idgen'");
for my $name (@names)
{
	is($node{$name}->safe_psql('postgres',
			"SELECT extversion FROM pg_extension WHERE extname = 'idgen'"),
		$newest, "ALTER EXTENSION idgen UPDATE reached $name ($newest)");
}

#
# idgen_check_worker_ids()
#
my $addr = sub { '127.0.0.1:' . $node{ $_[0] }->port };
my $check_sql =
  q{SELECT node || ' ' || coalesce(worker_id::text, '-') || ' ' || coalesce(problem, 'ok')
	FROM idgen_check_worker_ids() ORDER BY node};
my $expect_ok = join("\n",
	sort map { $addr->($_) . " $worker_id{$_} ok" } @names);
is($coord->safe_psql('postgres', $check_sql), $expect_ok,
	'idgen_check_worker_ids(): every node, its worker id, no problem');

# set a node's idgen.worker_id with ALTER SYSTEM (undef: reset it to
# postgresql.conf's) and wait for the reload to show $expect
sub set_worker_id
{
	my ($n, $id, $expect) = @_;
	$n->safe_psql('postgres',
		defined $id
		? "ALTER SYSTEM SET idgen.worker_id = $id"
		: 'ALTER SYSTEM RESET idgen.worker_id');
	$n->reload;
	$n->poll_query_until('postgres', 'SHOW idgen.worker_id', $expect)
	  or die "idgen.worker_id of " . $n->name . " did not become $expect";
}

# w2 takes w1's worker id: both are named, the coordinator is not
set_worker_id($node{w2}, 2, 2);
is( $coord->safe_psql('postgres', $check_sql),
	join("\n", sort(
		$addr->('coord') . ' 1 ok',
		$addr->('w1') . ' 2 idgen.worker_id 2 is also the one of ' . $addr->('w2'),
		$addr->('w2') . ' 2 idgen.worker_id 2 is also the one of ' . $addr->('w1'))),
	'idgen_check_worker_ids(): two workers sharing a worker id');
# asked on a worker, the check sees the same cluster
is( $node{w1}->safe_psql('postgres',
		'SELECT count(*) FROM idgen_check_worker_ids() WHERE problem IS NOT NULL'),
	'2', 'idgen_check_worker_ids() on a worker finds the shared id too');
set_worker_id($node{w2}, -1, -1);
is( $coord->safe_psql('postgres', $check_sql),
	join("\n", sort(
		$addr->('coord') . ' 1 ok',
		$addr->('w1') . ' 2 ok',
		$addr->('w2') . ' -1 idgen.worker_id is not set')),
	'idgen_check_worker_ids(): a node without a worker id');
set_worker_id($node{w2}, undef, 3);
is($coord->safe_psql('postgres', $check_sql), $expect_ok, 'worker ids distinct again');

# by connection string, through dblink: every node, a server without idgen
# preloaded, and one that is not there (a free port), its password masked
my $plain = PostgreSQL::Test::Cluster->new('plain');
$plain->init;
$plain->append_conf('postgresql.conf', "listen_addresses = '127.0.0.1'");
$plain->start;
my $closed = PostgreSQL::Test::Cluster::get_free_port();
$coord->safe_psql('postgres', 'CREATE EXTENSION dblink');
my $conninfos = join(', ',
	(map { "'host=127.0.0.1 port=" . $_->port . " dbname=postgres'" } (map { $node{$_} } @names), $plain),
	"'host=127.0.0.1 port=$closed password=s3cret connect_timeout=5'");
my $by_conn = $coord->safe_psql('postgres',
	"SELECT coalesce(worker_id::text, '-') || ' ' || coalesce(problem, 'ok') || ' | ' || node
	 FROM idgen_check_worker_ids(ARRAY[$conninfos])");
my @rows = split /\n/, $by_conn;
is(scalar(@rows), 5, 'idgen_check_worker_ids(conninfos): a row per connection string');
like($rows[$_], qr/^$worker_id{$names[$_]} ok \| ${\($_ + 1)}: host=127\.0\.0\.1 port=/,
	"idgen_check_worker_ids(conninfos): $names[$_]") for 0 .. 2;
like($rows[3], qr/^- idgen is not loaded \(add it to shared_preload_libraries\) \| 4: /,
	'idgen_check_worker_ids(conninfos): a server without idgen preloaded');
$plain->stop;
like($rows[4], qr/^- not reached: could not establish connection \| 5: host=127\.0\.0\.1 port=$closed password=\*\*\* /,
	'idgen_check_worker_ids(conninfos): a node not reached, password masked');
unlike($by_conn, qr/s3cret/, 'the password is not in the result');
note($by_conn);

#
# each type as a hash distribution column
#
my %gen = (
	iuid => 'iuid_generate(10, 1)',
	distid => 'distid_generate()',
	base36id => 'base36id_generate()',
	flaxid => 'flaxid_generate()');
my $copy_rows = join("\n", ("copy") x 20);
for my $type (sort keys %gen)
{
	my $t = "t_$type";
	$coord->safe_psql(
		'postgres', qq{
		CREATE TABLE $t (id $type PRIMARY KEY DEFAULT $gen{$type}, how text NOT NULL);
		SELECT create_distributed_table('$t', 'id');
		CREATE TABLE ${t}_src (id $type PRIMARY KEY DEFAULT $gen{$type}, how text NOT NULL);
		SELECT create_distributed_table('${t}_src', 'id', colocate_with => '$t');
		INSERT INTO ${t}_src (how) SELECT 'src' FROM generate_series(1, 20);
		INSERT INTO $t (how) VALUES ('single');
		INSERT INTO $t (how) VALUES ('multi'), ('multi'), ('multi'), ('multi'), ('multi');
		COPY $t (how) FROM STDIN;
$copy_rows
\\.
		INSERT INTO $t (how) SELECT 'select-pull' FROM generate_series(1, 20);
		INSERT INTO $t (how) SELECT 'select-repartition' FROM ${t}_src;
	});
	is( $coord->safe_psql('postgres',
			"SELECT count(*), count(DISTINCT id) FROM $t"),
		'66|66', "$type: 66 rows from every kind of insert, ids unique");

	# the two INSERT ... SELECT methods this test relies on
	like($coord->safe_psql('postgres',
			"EXPLAIN (COSTS OFF) INSERT INTO $t (how) SELECT 'x' FROM generate_series(1, 2)"),
		qr/INSERT\/SELECT method: pull to coordinator/,
		"$type: INSERT ... SELECT from generate_series pulls to the coordinator");
	like($coord->safe_psql('postgres',
			"EXPLAIN (COSTS OFF) INSERT INTO $t (how) SELECT how FROM ${t}_src"),
		qr/INSERT\/SELECT method: repartition/,
		"$type: INSERT ... SELECT between distributed tables repartitions");

	# WHERE id = ... goes to one shard
	my $one = $coord->safe_psql('postgres', "SELECT id FROM $t WHERE how = 'single'");
	my $plan = $coord->safe_psql('postgres',
		"EXPLAIN (COSTS OFF) SELECT * FROM $t WHERE id = '$one'");
	like($plan, qr/Task Count: 1\b/, "$type: WHERE id = ... is a one-shard router plan");
	is($coord->safe_psql('postgres', "SELECT how FROM $t WHERE id = '$one'"),
		'single', "$type: the router query finds the row");
}

#
# where base36id DEFAULTs run: the entry node's worker id, except in a
# repartitioned INSERT ... SELECT, which runs them on the workers
#
is( $coord->safe_psql('postgres',
		q{SELECT string_agg(DISTINCT how || ' ' || base36id_worker(id), ', ' ORDER BY how || ' ' || base36id_worker(id))
		  FROM t_base36id WHERE how <> 'select-repartition'}),
	'copy 1, multi 1, select-pull 1, single 1',
	'base36id: router, multi-row, COPY and pull-to-coordinator inserts carry the coordinator\'s worker id');
is( $coord->safe_psql('postgres',
		q{SELECT string_agg(DISTINCT base36id_worker(id)::text, ',' ORDER BY base36id_worker(id)::text)
		  FROM t_base36id WHERE how = 'select-repartition'}),
	'2,3', 'base36id: a repartitioned INSERT ... SELECT carries the workers\' worker ids');
for my $name (qw(w1 w2))
{
	$node{$name}->safe_psql('postgres',
		"INSERT INTO t_base36id (how) SELECT 'via $name' FROM generate_series(1, 10)");
	is( $coord->safe_psql('postgres',
			"SELECT string_agg(DISTINCT base36id_worker(id)::text, ',') FROM t_base36id WHERE how = 'via $name'"),
		$worker_id{$name}, "base36id: rows inserted through $name carry its worker id");
}

# EXPLAIN of a router INSERT (without ANALYZE) evaluates the DEFAULT: the
# coordinator's counter moves by two between two ids with the EXPLAIN in
# between, by one without it (tried until both ids share their second)
sub counter_step
{
	my ($between) = @_;
	for (1 .. 20)
	{
		my @r = split /\n/, $coord->safe_psql('postgres', qq{
			SELECT base36id_generate() AS a \\gset
			$between
			SELECT base36id_generate() AS b \\gset
			SELECT base36id_timestamp(:'a') = base36id_timestamp(:'b'),
			       base36id_counter(:'b') - base36id_counter(:'a');});
		my ($same, $step) = split /\|/, $r[-1];
		return $step if $same eq 't';
	}
	die 'no two ids in one second';
}
is(counter_step(''), 1, 'base36id: consecutive ids of a node differ by one in their counter');
is(counter_step(q{EXPLAIN (COSTS OFF) INSERT INTO t_base36id (how) VALUES ('explain');}), 2,
	'base36id: EXPLAIN INSERT without ANALYZE uses up an id');
is($coord->safe_psql('postgres', q{SELECT count(*) FROM t_base36id WHERE how = 'explain'}),
	'0', 'EXPLAIN INSERT inserts nothing');

# two nodes with one worker id: the first id each makes in a second is the
# same, and the second insert fails on the primary key (tried until both
# inserts fall into one second)
set_worker_id($node{w2}, 2, 2);
my $dup_err = '';
for (1 .. 10)
{
	$node{w1}->safe_psql('postgres', q{
		SELECT pg_sleep(1.01 - extract(epoch FROM clock_timestamp())::numeric % 1);
		INSERT INTO t_base36id (how) VALUES ('dup w1')});
	my ($rc, $out, $err) = try_psql($node{w2}, q{INSERT INTO t_base36id (how) VALUES ('dup w2')});
	if ($rc != 0) { $dup_err = $err; last; }
}
like($dup_err, qr/ERROR:  duplicate key value violates unique constraint "t_base36id_pkey_\d+"/,
	'base36id: two nodes with one worker id insert the same id');
note($dup_err);
set_worker_id($node{w2}, undef, 3);

#
# partitions added after distribution
#
$coord->safe_psql(
	'postgres', q{
	CREATE TABLE events (id iuid NOT NULL DEFAULT iuid_generate(10, 1), what text)
	PARTITION BY RANGE (id);
	SELECT count(*) FROM idgen_create_partitions('events', date_trunc('month', now(), 'UTC'),
	                                             date_trunc('month', now(), 'UTC') + interval '2 months', '1 month');
	SELECT create_distributed_table('events', 'id', colocate_with => 'none');
});
my @added = split /\n/, $coord->safe_psql('postgres',
	q{SELECT p FROM idgen_create_partitions('events', date_trunc('month', now(), 'UTC'),
	                                        date_trunc('month', now(), 'UTC') + interval '4 months', '1 month') p
	  ORDER BY p::text});
is(scalar(@added), 2, 'idgen_create_partitions on a distributed table adds two partitions');
is( $coord->safe_psql('postgres',
		q{SELECT count(*) FILTER (WHERE p.logicalrelid IS NOT NULL) || '/' || count(*)
		  FROM pg_inherits i LEFT JOIN pg_dist_partition p ON p.logicalrelid = i.inhrelid
		  WHERE i.inhparent = 'events'::regclass}),
	'4/4', 'every partition, old and new, is distributed');
$coord->safe_psql('postgres',
	q{INSERT INTO events VALUES (iuid_generate(10, 1, date_trunc('month', now(), 'UTC') + interval '3 months'), 'later'),
	                            (DEFAULT, 'now')});
is($coord->safe_psql('postgres', "SELECT what FROM $added[1]"),
	'later', 'a row lands in a partition added after distribution');
# two concurrent calls take turns: the second waits for the first's
# transaction, then creates only what is still missing
my $month = q{date_trunc('month', now(), 'UTC')};
my $first = $coord->background_psql('postgres');
$first->query_safe('BEGIN');
is( $first->query_safe(
		"SELECT count(*) FROM idgen_create_partitions('events', $month + interval '4 months', $month + interval '5 months', '1 month')"),
	'1', 'concurrent calls: the first creates its partition');
my $second = $coord->background_psql('postgres');
$second->query_until(qr/started/, "\\echo started\n"
	  . "SELECT 'created ' || count(*) FROM idgen_create_partitions('events', $month + interval '4 months', $month + interval '6 months', '1 month');\n");
ok( $coord->poll_query_until('postgres',
		q{SELECT count(*) FROM pg_stat_activity
		  WHERE wait_event_type = 'Lock' AND query LIKE '%idgen_create_partitions%' AND pid <> pg_backend_pid()},
		'1'),
	'concurrent calls: the second waits for the first');
$first->query_safe('COMMIT');
$first->quit;
$second->quit;
like($second->{stdout}, qr/^created 1$/m, 'concurrent calls: the second creates only the partition still missing');
is( $coord->safe_psql('postgres',
		q{SELECT count(*) FILTER (WHERE p.logicalrelid IS NOT NULL) || '/' || count(*)
		  FROM pg_inherits i LEFT JOIN pg_dist_partition p ON p.logicalrelid = i.inhrelid
		  WHERE i.inhparent = 'events'::regclass}),
	'6/6', 'concurrent calls: six partitions, all distributed');

my ($rc, $out, $err) = try_psql($node{w1},
	"SELECT idgen_create_partitions('events', $month + interval '6 months', $month + interval '7 months', '1 month')");
isnt($rc, 0, 'idgen_create_partitions on a worker fails');
like($err, qr/operation is not allowed on this node/, 'on a worker: "operation is not allowed on this node"');
note($err);

#
# queries on iuid tables that run on the workers
#
my $join_plan = $coord->safe_psql('postgres',
	q{EXPLAIN (COSTS OFF) SELECT count(*) FROM t_iuid a JOIN t_iuid_src b ON a.id = b.id});
like($join_plan, qr/Task Count: 4\b/, 'iuid: a colocated join runs as one task per shard');
unlike($join_plan, qr/repartition|Subplan|MapMergeJob/i, 'iuid: a colocated join is pushed down whole');
like($coord->safe_psql('postgres',
		q{EXPLAIN (COSTS OFF, VERBOSE) SELECT min(id), max(id) FROM t_iuid
		  WHERE iuid_country(id) = 10 AND iuid_timestamp(id) > now() - interval '1 day'}),
	qr/Query: SELECT worker_binary_partial_agg\('public\.min\(public\.iuid\)'::regprocedure, id\) AS min, worker_binary_partial_agg\('public\.max\(public\.iuid\)'::regprocedure, id\) AS max FROM public\.t_iuid_\d+ t_iuid WHERE \(\(public\.iuid_country\(id\) OPERATOR\(pg_catalog\.=\) 10\) AND \(public\.iuid_timestamp\(id\) OPERATOR/,
	'iuid: min/max run as partial aggregates on the workers, iuid_country/iuid_timestamp filters with them');

# a time bound on the id itself is an index condition on each shard's
# primary key; one on iuid_timestamp(id) is only a filter (seq scans
# disabled on the workers through SET LOCAL, which Citus passes on with
# propagate_set_commands = local, so that the index is the planner's choice)
sub shard_plan
{
	my ($where) = @_;
	return $coord->safe_psql('postgres', qq{
		SET citus.propagate_set_commands = local;
		BEGIN;
		SET LOCAL enable_seqscan = off;
		EXPLAIN (COSTS OFF) SELECT count(*) FROM t_iuid WHERE $where;
		COMMIT;});
}
like(shard_plan(q{id >= iuid_from_timestamp(now() - interval '1 hour')}),
	qr/Index Cond: \(id >= iuid_from_timestamp\(/,
	'iuid: WHERE id >= iuid_from_timestamp(...) is an index condition on the shards');
my $by_ts = shard_plan(q{iuid_timestamp(id) >= now() - interval '1 hour'});
like($by_ts, qr/Filter: \(iuid_timestamp\(id\) >= /,
	'iuid: WHERE iuid_timestamp(id) >= ... is a filter on the shards');
unlike($by_ts, qr/Index Cond/, 'iuid: WHERE iuid_timestamp(id) >= ... is no index condition');

# a query with the parameter bound through the extended protocol (as
# drivers send it; psql's \bind): EXPLAIN gets no plan from the worker for
# an iuid parameter, where it does for a bigint one; execution works
$coord->safe_psql('postgres', q{
	CREATE TABLE t_int (id bigint PRIMARY KEY);
	SELECT create_distributed_table('t_int', 'id');
	INSERT INTO t_int VALUES (1)});
my $min_iuid = $coord->safe_psql('postgres', 'SELECT min(id) FROM t_iuid');
($rc, $out, $err) = try_psql($coord,
	"EXPLAIN (COSTS OFF) SELECT count(*) FROM t_iuid WHERE id = \$1 \\bind '$min_iuid' \\g");
like($out, qr/Task Count: 1\b.*Error: Could not get remote plan\./s,
	'EXPLAIN with a bound iuid parameter: "Could not get remote plan."');
note($out);
($rc, $out, $err) = try_psql($coord, "EXPLAIN (COSTS OFF) SELECT count(*) FROM t_int WHERE id = \$1 \\bind 1 \\g");
like($out, qr/Task Count: 1\b.*Index Only Scan using t_int_pkey/s, 'EXPLAIN with a bound bigint parameter: the remote plan');
unlike($out, qr/Could not get remote plan/, 'EXPLAIN with a bound bigint parameter: no error');
($rc, $out, $err) = try_psql($coord, "SELECT count(*) FROM t_iuid WHERE id = \$1 \\bind '$min_iuid' \\g");
is($out, '1', 'a query with a bound iuid parameter finds the row');

#
# what Citus refuses, quoted by doc/multi-node.md
#
my %refused = (
	'a volatile generator in UPDATE' =>
	  [ q{UPDATE t_base36id_src SET how = base36id_generate()::text},
		qr/ERROR:  functions used in UPDATE queries on distributed tables must not be VOLATILE/ ],
	'iuid and uuid tables colocated' => [
		q{CREATE TABLE t_uuid (id uuid PRIMARY KEY);
		  SELECT create_distributed_table('t_uuid', 'id', colocate_with => 't_iuid')},
		qr/ERROR:  cannot colocate tables t_iuid and t_uuid\nDETAIL:  Distribution column types don't match for t_iuid and t_uuid\./ ],
	'a generated iuid_country(id) column as distribution column' => [
		q{CREATE TABLE t_gen (id iuid NOT NULL, country int GENERATED ALWAYS AS (iuid_country(id)) STORED);
		  SELECT create_distributed_table('t_gen', 'country')},
		qr/ERROR:  cannot distribute relation: t_gen\nDETAIL:  Distribution column must not use GENERATED ALWAYS AS \(\.\.\.\) STORED\./ ],
);
for my $what (sort keys %refused)
{
	my ($rc, $out, $err) = try_psql($coord, $refused{$what}[0]);
	isnt($rc, 0, "refused: $what");
	like($err, $refused{$what}[1], "refused: $what: the error") or diag($err);
	note($err);
}
# a CHECK in place of the generated column works
$coord->safe_psql('postgres', q{
	CREATE TABLE t_country (id iuid NOT NULL, country int NOT NULL CHECK (country = iuid_country(id)));
	SELECT create_distributed_table('t_country', 'country');
	INSERT INTO t_country VALUES (iuid_generate(20, 1), 20)});
($rc, $out, $err) = try_psql($coord, q{INSERT INTO t_country VALUES (iuid_generate(20, 1), 30)});
like($err, qr/violates check constraint/, 'a CHECK (country = iuid_country(id)) column as distribution column');
note($err);
# a prepared statement with an iuid parameter: EXPLAIN of its generic plan
# and its execution
like( $coord->safe_psql('postgres', qq{
		PREPARE by_id(iuid) AS SELECT count(*) FROM t_iuid WHERE id = \$1;
		SET plan_cache_mode = force_generic_plan;
		EXPLAIN (COSTS OFF) EXECUTE by_id('$min_iuid')}),
	qr/Custom Scan \(Citus Adaptive\).*Task Count: 1\b/s,
	'EXPLAIN EXECUTE (generic plan) with an iuid parameter: a one-shard plan');
is( $coord->safe_psql('postgres', qq{
		PREPARE by_id(iuid) AS SELECT count(*) FROM t_iuid WHERE id = \$1;
		SET plan_cache_mode = force_generic_plan;
		EXECUTE by_id('$min_iuid')}),
	'1', 'EXECUTE (generic plan) with an iuid parameter finds the row');

#
# shard moves keep every id
#
# orphans_dropped(): whether Citus's records of resources to drop
# (pg_dist_cleanup) are gone within 30 s, dropping them each 0.2 s
sub orphans_dropped
{
	foreach (1 .. 150)
	{
		$coord->psql('postgres', 'CALL citus_cleanup_orphaned_resources()');
		return 1
		  if $coord->safe_psql('postgres', 'SELECT count(*) FROM pg_dist_cleanup') eq '0';
		Time::HiRes::sleep(0.2);
	}
	return 0;
}
my $sum_sql = q{SELECT count(*) || ' ' || md5(string_agg(id::text, ',' ORDER BY id)) FROM t_iuid};
my $before = $coord->safe_psql('postgres', $sum_sql);
for my $mode (qw(block_writes force_logical))
{
	# the shard of t_iuid with the most rows, and its worker
	my $shard = $coord->safe_psql('postgres',
		q{SELECT get_shard_id_for_distribution_column('t_iuid', id) FROM t_iuid
		  GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1});
	my $from = $coord->safe_psql('postgres',
		"SELECT nodeport FROM pg_dist_placement JOIN pg_dist_node USING (groupid) WHERE shardid = $shard");
	my $to = $from == $node{w1}->port ? $node{w2}->port : $node{w1}->port;
	# the shard goes back where an earlier move left its old copy, which
	# Citus drops later (pg_dist_cleanup); the move fails if it cannot drop
	# it first ("orphaned shard ... could not be cleaned up": under load,
	# something still held it), so it is dropped here, again while needed
	ok(orphans_dropped(), "$mode: no copy of an earlier move left to drop");
	$coord->safe_psql('postgres',
		"SELECT citus_move_shard_placement($shard, '127.0.0.1', $from, '127.0.0.1', $to, '$mode')");
	is( $coord->safe_psql('postgres',
			"SELECT nodeport FROM pg_dist_placement JOIN pg_dist_node USING (groupid) WHERE shardid = $shard"),
		$to, "$mode: the shard moved");
	is($coord->safe_psql('postgres', $sum_sql), $before, "$mode: count and md5 of every id unchanged");
}

$node{$_}->stop for reverse @names;
done_testing();
