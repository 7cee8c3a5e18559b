
# pg_dump and restore of every type.
#
# A database holds, for each idgen type (iuid, distid, base36id, flaxid) a
# table range-partitioned on an id column, with bounds from
# *_from_timestamp(), and for DistributedId128 a plain table of uuids.  Each
# id column has its generator as default, a btree (primary key), a hash and
# a BRIN index (on generated copies of the id, so that each index can be
# checked on its own), and a public id of the id (flaxid has none).  The
# rows are generated ids, SPEC vectors and extreme values, and the least id
# of every partition.
#
# The database is dumped in plain format (restored with psql) and in custom
# format (restored with pg_restore) into fresh databases.  After the restore:
# the catalog (columns, defaults, generated columns, partition keys and
# bounds, indexes, constraints) is the original's; every row is in the same
# partition with the same value, compared both as text and in the binary
# form of the type's send function (which pg_dump does not use, so a value
# that the text round trip changed shows); a dump of the restored database is
# identical to the original's; every index finds every row and the btree
# indexes pass amcheck; the public ids decode to their ids; inserts with
# the default generators still work, and their ids come after every
# generated id restored.
#
# Then the same, in custom format, for a database where idgen was installed
# as 1.0 and updated to 1.1.
#
# What it catches: checked to fail with base36id_out() printing every
# worker as 0: the restored rows print as the original's (both print the
# same wrong text, and the dump of the restored database equals the
# original's), but their binary forms differ and their public ids no longer
# decode to them.  With distid_out() printing only the low 64 bits, the
# plain restore fails (a value no longer fits its partition).

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = start_idgen_node('dump_restore', 'idgen.worker_id = 11');
my $tmp = PostgreSQL::Test::Utils::tempdir;

# the SPEC's public id key
my $key = q{decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')};

# name: the table's suffix; gen: the default; from: its *_from_timestamp
# (the table is partitioned on id if given); send: its send function;
# values: SPEC vectors and extremes; pub / unpub: public id of id, and back.
my @types = (
	{
		name => 'iuid',
		type => 'iuid',
		gen => 'iuid_generate(42, 5)',
		from => 'iuid_from_timestamp',
		send => 'iuid_send',
		values => [
			'017f22e2-79b0-802a-8141-23456789abcd',
			'017f22e2-79b0-80ff-bfff-ffffffffffff',
			'00000000-0000-8000-8000-000000000000',
			'ffffffff-ffff-8fff-bfff-ffffffffffff'
		],
		pub => "public_id(id::uuid, $key)",
		unpub => "public_id_to_uuid(pub, $key)::iuid",
	},
	{
		name => 'distid',
		type => 'distid',
		gen => 'distid_generate()',
		from => 'distid_from_timestamp',
		send => 'distid_send',
		values => [
			'1088824355131185736905670087', '9999999999999999999999999999',
			'0', '18446744073709551616'
		],
		pub => "public_id(id, $key)",
		unpub => "public_id_to_distid(pub, $key)",
	},
	{
		name => 'base36id',
		type => 'base36id',
		gen => 'base36id_generate()',
		from => 'base36id_from_timestamp',
		send => 'base36id_send',
		values => [ '0ITS0030Z', '0ITS00ZZZ', '000000000', 'ZZZZZZZZZ' ],
		pub => "public_id(id::bigint, $key)",
		unpub => "public_id_to_bigint(pub, $key)::base36id",
	},
	{
		name => 'flaxid',
		type => 'flaxid',
		gen => 'flaxid_generate()',
		from => 'flaxid_from_timestamp',
		send => 'flaxid_send',
		values => [ '0RdKJcxqVBiAiQr0', '----------------', 'zzzzzzzzzzzzzzzz' ],
	},
	{
		name => 'distid128',
		type => 'uuid',
		gen => 'distid128_generate()',
		send => 'uuid_send',
		values => ['094954a8-622c-76ad-1b93-cdefcbdf0888'],
		pub => "public_id(id, $key)",
		unpub => "public_id_to_uuid(pub, $key)",
	});

# partitions: [MINVALUE, 2025), [2025, 2026), [2026, 2027), [2027, MAXVALUE);
# the generated ids are of now (2026 or later)
my @bounds = ('2025-01-01 00:00:00+00', '2026-01-01 00:00:00+00',
	'2027-01-01 00:00:00+00');
my $generated = 200;

# The SQL that creates the tables and fills them.
sub create_sql
{
	my $sql = '';
	for my $t (@types)
	{
		my ($name, $type) = ($t->{name}, $t->{type});
		my $table = "t_$name";
		$sql .= qq{
		CREATE TABLE $table (
			id $type NOT NULL DEFAULT $t->{gen},
			h $type GENERATED ALWAYS AS (id) STORED,
			r $type GENERATED ALWAYS AS (id) STORED,
			pub uuid,
			note text,
			PRIMARY KEY (id))};
		if ($t->{from})
		{
			$sql .= " PARTITION BY RANGE (id);\n";
			my @b = ('MINVALUE', (map { "$t->{from}('$_')" } @bounds), 'MAXVALUE');
			for my $i (0 .. $#b - 1)
			{
				$sql .= "CREATE TABLE ${table}_p$i PARTITION OF $table
				         FOR VALUES FROM ($b[$i]) TO ($b[$i + 1]);\n";
			}
			# the least id of every bounded partition
			$sql .= "INSERT INTO $table (id, note)
			         SELECT $t->{from}(b), 'bound' FROM unnest(ARRAY['"
			  . join("', '", @bounds) . "']::timestamptz[]) b;\n";
		}
		else
		{
			$sql .= ";\n";
		}
		$sql .= "CREATE INDEX ON $table USING hash (h);
		         CREATE INDEX ON $table USING brin (r) WITH (pages_per_range = 1);
		         INSERT INTO $table (note)
		           SELECT 'generated' FROM generate_series(1, $generated);
		         INSERT INTO $table (id, note) VALUES "
		  . join(', ', map { "('$_', 'value')" } @{ $t->{values} }) . ";\n";
		$sql .= "UPDATE $table SET pub = $t->{pub};\n" if $t->{pub};
	}
	return $sql;
}

# One line per relation, column, default, partition bound, index and
# constraint of schema public.
my $catalog_sql = q{
	SELECT c.relname || ' ' || c.relkind::text
		|| coalesce(' partition key ' || pg_get_partkeydef(c.oid), '')
		|| coalesce(' bound ' || pg_get_expr(c.relpartbound, c.oid), '')
	FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace
	UNION ALL
	SELECT c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
		|| ' notnull=' || a.attnotnull || ' generated=' || a.attgenerated::text
		|| coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
	FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
	LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
	WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
	UNION ALL
	SELECT pg_get_indexdef(i.indexrelid) || ' valid=' || i.indisvalid
	FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
	WHERE c.relnamespace = 'public'::regnamespace
	UNION ALL
	SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
	FROM pg_constraint WHERE connamespace = 'public'::regnamespace
	ORDER BY 1};

# Every row of every table, with its partition, as text and in binary.
sub data_sql
{
	return join(
		"\nUNION ALL\n",
		map {
			"SELECT * FROM (SELECT tableoid::regclass::text, id::text,
			   $_->{send}(id)::text, h::text, r::text, pub::text, note
			 FROM t_$_->{name} ORDER BY id) s"
		} @types);
}

# Compares two long texts line by line: on a difference, names the first
# differing line instead of printing both.
sub same_text
{
	my ($got, $expected, $name) = @_;
	my @g = split /\n/, $got;
	my @e = split /\n/, $expected;
	for my $i (0 .. ($#g > $#e ? $#g : $#e))
	{
		next if defined $g[$i] && defined $e[$i] && $g[$i] eq $e[$i];
		fail($name);
		diag("first difference, line " . ($i + 1) . ":\n  got:      "
			  . ($g[$i] // '<none>') . "\n  expected: " . ($e[$i] // '<none>'));
		return 0;
	}
	return pass($name);
}

# Dumps $db in plain format into $file; returns the dump without the lines
# \restrict and \unrestrict (their key is random).
sub dump_plain
{
	my ($db, $file, $name) = @_;
	$node->command_ok([ 'pg_dump', '--no-sync', '-Fp', '-f', $file, '-d', $db ],
		$name);
	return join('', grep { !/^\\(un)?restrict / } split /^/, slurp_file($file));
}

# Restores $file (format $format) into the new database $db.
sub restore
{
	my ($format, $file, $db) = @_;
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	if ($format eq 'plain')
	{
		$node->command_ok(
			[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $db, '-f', $file ],
			"$db: the plain dump restores with psql");
	}
	else
	{
		$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', $db, $file ],
			"$db: the custom dump restores with pg_restore");
	}
	return;
}

# the plain dumps of the original databases, as dump_plain() returns them
my %orig_dump;

# Checks the restored database $db against the original $orig.
sub check_restored
{
	my ($orig, $db) = @_;

	same_text($node->safe_psql($db, $catalog_sql),
		$node->safe_psql($orig, $catalog_sql),
		"$db: tables, columns, defaults, partition bounds, indexes and constraints equal the original's");

	my $data = $node->safe_psql($db, data_sql());
	my $rows = () = $data =~ /\n/g;
	note("$db: " . ($rows + 1) . ' rows');
	same_text($data, $node->safe_psql($orig, data_sql()),
		"$db: every row is in the same partition with the same value, as text and in binary");

	same_text(dump_plain($db, "$tmp/$db.again.sql", "$db: dumps again"),
		$orig_dump{$orig},
		"$db: a dump of it is identical to the original's dump");

	for my $t (@types)
	{
		my $table = "t_$t->{name}";
		my $total = $node->safe_psql($db, "SELECT count(*) FROM $table");
		# the ids as a constant, so that the plan shows only the index tested
		my $ids = $node->safe_psql($db,
			"SELECT 'ARRAY[' || string_agg(quote_literal(id::text), ', ')
			        || ']::$t->{type}\[]' FROM $table");

		# each index on its own finds every row
		for my $index ([ 'id', 'btree', qr/Index.* Scan on ${table}\w*_pkey/ ],
			[ 'h', 'hash', qr/Index Scan on ${table}\w*_h_idx/ ],
			[ 'r', 'BRIN', qr/Index Scan on ${table}\w*_r_idx/ ])
		{
			my ($col, $am, $plan_re) = @$index;
			my $query = "SELECT count(*) FROM $table WHERE $col = ANY ($ids)";
			my @out = split /\n/,
			  $node->safe_psql(
				$db, "SET enable_seqscan = off; SET enable_indexonlyscan = off;
				      EXPLAIN (COSTS OFF) $query; $query");
			my $count = pop @out;
			like(join("\n", @out), $plan_re, "$db: $table: the query uses the $am index");
			is($count, $total, "$db: $table: the $am index finds all $total rows");
		}

		if ($t->{unpub})
		{
			is( $node->safe_psql(
					$db,
					"SELECT count(*) FILTER (WHERE pub IS NOT NULL)
					   || '/' || count(*) FILTER (WHERE $t->{unpub} = id)
					 FROM $table"),
				"$total/$total",
				"$db: $table: every public id decodes to its id");
		}

		# the default generator still works, and comes after every id of now
		$node->safe_psql($db,
			"INSERT INTO $table (note) SELECT 'after' FROM generate_series(1, 20)");
		is( $node->safe_psql(
				$db, qq{
				SELECT count(*) FILTER (WHERE note = 'after') || '/'
				    || count(*) FILTER (WHERE note = 'after' AND id <= (
				         SELECT id FROM $table WHERE note = 'generated'
				         ORDER BY id DESC LIMIT 1))
				FROM $table}),
			'20/0',
			"$db: $table: inserts with the default work, after every generated id");
	}

	$node->safe_psql($db, 'CREATE EXTENSION amcheck');
	# a primary key per partition, and the one of the plain table
	my $btrees = 4 * (grep { $_->{from} } @types) + (grep { !$_->{from} } @types);
	is( $node->safe_psql(
			$db, q{
			SELECT count(*) FROM (SELECT bt_index_check(i.indexrelid, true)
			FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
			JOIN pg_am am ON am.oid = c.relam
			WHERE am.amname = 'btree' AND c.relkind = 'i'
			  AND c.relnamespace = 'public'::regnamespace) s}),
		$btrees,
		"$db: the btree indexes pass amcheck with every row indexed");
	return;
}

# Dumps $orig in the @formats (plain, custom), restores each into a fresh
# database and checks it.
sub dump_and_restore
{
	my ($orig, @formats) = @_;
	$orig_dump{$orig} = dump_plain($orig, "$tmp/$orig.sql", "$orig: pg_dump, plain format");
	$node->command_ok(
		[ 'pg_dump', '--no-sync', '-Fc', '-f', "$tmp/$orig.custom", '-d', $orig ],
		"$orig: pg_dump, custom format");
	for my $format (@formats)
	{
		my $file = $format eq 'plain' ? "$tmp/$orig.sql" : "$tmp/$orig.custom";
		restore($format, $file, "${orig}_$format");
		check_restored($orig, "${orig}_$format");
	}
	return;
}

# a database with idgen 1.1
$node->safe_psql('postgres', 'CREATE DATABASE fresh');
$node->safe_psql('fresh', 'CREATE EXTENSION idgen');
$node->safe_psql('fresh', create_sql());
dump_and_restore('fresh', 'plain', 'custom');

# a database with idgen installed as 1.0 and updated
$node->safe_psql('postgres', 'CREATE DATABASE updated');
$node->safe_psql('updated', q{CREATE EXTENSION idgen VERSION '1.0'});
$node->safe_psql('updated', create_sql());
$node->safe_psql('updated', q{ALTER EXTENSION idgen UPDATE TO '1.1'});
is($node->safe_psql('updated', q{SELECT extversion FROM pg_extension WHERE extname = 'idgen'}),
	'1.1', 'updated: idgen was updated to 1.1');
dump_and_restore('updated', 'custom');
is($node->safe_psql('updated_custom',
	q{SELECT extversion FROM pg_extension WHERE extname = 'idgen'}),
	'1.1', 'updated_custom: idgen 1.1 is installed');

$node->stop;

done_testing();
