# idgen_portable against the C types on one server (SPEC.md, "SQL
# edition"), installed as an extension beside idgen (and refused into a
# schema of another role); every function from the catalog (search_path
# pinned, a SQL-standard body or a generator's worker, no SECURITY DEFINER,
# volatility, parallel safety, a comment, the C extension's names); the formats' vectors both ways, 100,000 ids of each type made
# by each edition read by the other, malformed input rejected alike (the
# same SQLSTATE, message and detail, over inputs generated from valid ones),
# the bounds of both editions equal over a spread of times, flaxid's text
# order under the collation it needs, partition pruning, and the functions
# under a forced parallel plan.

use strict;
use warnings;

use FindBin;
use lib "$ENV{IDGEN_PORTABLE_ROOT}/test/t";
use IdgenTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $n = $ENV{IDGEN_PORTABLE_IDS} // 100_000;

my $node = start_idgen_node('crosscheck');
my $major = $node->safe_psql('postgres', 'SHOW server_version_num') / 10000;
my $q = sub { $node->safe_psql('postgres', $_[0]) };
$q->('CREATE EXTENSION idgen_portable CASCADE');
is($q->("SELECT extversion FROM pg_extension WHERE extname = 'idgen_portable'"),
	$q->("SELECT default_version FROM pg_available_extensions WHERE name = 'idgen_portable'"),
	'idgen_portable installs beside idgen as an extension, from its control file');

# refused where its schema exists and is another role's
$q->(q{CREATE ROLE other; CREATE DATABASE taken;});
$node->safe_psql('taken', 'CREATE SCHEMA idgen_portable AUTHORIZATION other');
my ($ret, $out, $err) = $node->psql('taken', 'CREATE EXTENSION idgen_portable CASCADE');
like($err, qr/must be installed into a schema of its own/, 'refused into a schema idgen_portable of another role');

#
# Every function, from the catalog
#
my $fn = q{FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
	LEFT JOIN pg_description d ON d.objoid = p.oid AND d.classoid = 'pg_proc'::regclass
	WHERE n.nspname = 'idgen_portable'};
my $nfn = $q->("SELECT count(*) $fn");
cmp_ok($nfn, '>', 50, "$nfn functions");
is( $q->(
		qq{SELECT string_agg(p.oid::regprocedure::text, ', ') $fn
		AND ((p.proconfig IS DISTINCT FROM ARRAY['search_path=pg_catalog, idgen_portable, pg_temp'] AND p.prosqlbody IS NULL
			  AND NOT (p.proconfig IS NULL AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'plpgsql')))
			 OR p.prosecdef
			 OR p.prolang <> ALL (SELECT oid FROM pg_language WHERE lanname IN ('sql', 'plpgsql'))
			 OR d.description IS NULL)}),
	'', 'each in SQL or PL/pgSQL, search_path pinned (pg_catalog first), a SQL-standard body (bound at creation) or PL/pgSQL without a SET clause, no SECURITY DEFINER, a comment');
# a function that pins nothing finds what it names without a schema in its
# caller's search_path: only the generators' workers, which name every
# object with its schema (portable-qualified; 005_trap.pl runs them with the
# trap first in the caller's path)
is( $q->(
		qq{SELECT string_agg(p.proname, ' ' ORDER BY p.proname COLLATE "C") $fn
		AND p.proconfig IS NULL AND p.prosqlbody IS NULL}),
	'_distid128_next _distid_dense_next _distid_next _flaxid_next _iuid_at_next _iuid_next',
	'PL/pgSQL without a SET clause: the generators\' workers only');
is( $q->(
		qq{SELECT string_agg(p.oid::regprocedure::text, ' ' ORDER BY p.oid::regprocedure::text COLLATE "C") $fn AND p.prosqlbody IS NOT NULL}),
	'idgen_portable._aes(bytea,bytea,boolean) idgen_portable._ms_time(bigint) '
	  . 'idgen_portable._unguid(uuid,bytea) idgen_portable.bigint_from_alphanumeric(text) '
	  . 'idgen_portable.bigint_to_alphanumeric(bigint) idgen_portable.distid(numeric) idgen_portable.distid(text) '
	  . 'idgen_portable.distid128_from_timestamp(timestamp with time zone) idgen_portable.distid128_generate() '
	  . 'idgen_portable.distid128_max_for_timestamp(timestamp with time zone) idgen_portable.distid128_timestamp(uuid) '
	  . 'idgen_portable.distid_from_alphanumeric(text) idgen_portable.distid_from_hex(text) '
	  . 'idgen_portable.distid_from_timestamp(timestamp with time zone) idgen_portable.distid_generate() '
	  . 'idgen_portable.distid_generate_dense() idgen_portable.distid_max_for_timestamp(timestamp with time zone) '
	  . 'idgen_portable.distid_timestamp(numeric) idgen_portable.distid_to_alphanumeric(numeric) '
	  . 'idgen_portable.distid_to_hex(numeric) idgen_portable.flaxid(text) '
	  . 'idgen_portable.flaxid_from_timestamp(timestamp with time zone) idgen_portable.flaxid_generate() '
	  . 'idgen_portable.flaxid_max_for_timestamp(timestamp with time zone) idgen_portable.flaxid_timestamp(text) '
	  . 'idgen_portable.iuid(text) idgen_portable.iuid(uuid) idgen_portable.iuid_country(uuid) '
	  . 'idgen_portable.iuid_entity(uuid) idgen_portable.iuid_format_version(uuid) '
	  . 'idgen_portable.iuid_from_timestamp(timestamp with time zone) idgen_portable.iuid_generate(integer,integer) '
	  . 'idgen_portable.iuid_generate(integer,integer,timestamp with time zone) '
	  . 'idgen_portable.iuid_max_for_timestamp(timestamp with time zone) idgen_portable.iuid_timestamp(uuid) '
	  . 'idgen_portable.public_id(bigint,bytea) idgen_portable.public_id(integer,bytea) '
	  . 'idgen_portable.public_id(numeric,bytea) idgen_portable.public_id(uuid,bytea) '
	  . 'idgen_portable.public_id_to_bigint(uuid,bytea) idgen_portable.public_id_to_distid(uuid,bytea) '
	  . 'idgen_portable.public_id_to_uuid(uuid,bytea) idgen_portable.uuid_from_alphanumeric(text) '
	  . 'idgen_portable.uuid_to_alphanumeric(uuid)',
	'SQL-standard bodies: _aes (which binds pgcrypto), the generators, extractors, bounds and checks that are inlined (009_inline.pl), the text inputs, which take no collation from their caller (014_collation.pl), and every function that calls another of the edition (015_usage.pl)');
is( $q->(
		qq{SELECT string_agg(p.proname || ':' || p.provolatile::text || p.proparallel::text, ' ' ORDER BY p.proname COLLATE "C") $fn
		AND (p.provolatile <> 'i' OR p.proparallel <> 's')}),
	'_distid128_next:vu _distid_dense_next:vu _distid_next:vu _flaxid_next:vu _iuid_at_next:vu _iuid_next:vu '
	  . '_pgcrypto_trusted:ss distid128_generate:vu distid_generate:vu distid_generate_dense:vu '
	  . 'flaxid_generate:vu iuid_generate:vu iuid_generate:vu',
	'the generators and their workers are VOLATILE PARALLEL UNSAFE, the check of pgcrypto (it reads the catalog) STABLE, the rest IMMUTABLE PARALLEL SAFE');
is( $q->(
		qq{SELECT string_agg(DISTINCT p.proname::text COLLATE "C", ' ' ORDER BY p.proname::text COLLATE "C") $fn AND p.proname !~ '^_'
		AND p.proname NOT IN (SELECT proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace)}),
	'flaxid idgen_portable_version',
	'its functions bear the names of the C extension\'s, but for flaxid(text) (the C type\'s input) and its version');

#
# The vectors of SPEC.md, decoded and encoded by both editions
#
for my $ed ([ 'C', 'public', '::public.iuid', '::public.distid', '::public.flaxid' ],
	[ 'SQL', 'idgen_portable', '::uuid', '::numeric', '' ])
{
	my ($name, $s, $iuid, $distid, $flaxid) = @$ed;
	is( $q->(
			qq{SELECT $s.iuid_timestamp('017f22e2-79b0-802a-8141-23456789abcd'$iuid) AT TIME ZONE 'UTC'
				|| ' ' || $s.iuid_country('017f22e2-79b0-802a-8141-23456789abcd'$iuid)
				|| ' ' || $s.iuid_entity('017f22e2-79b0-802a-8141-23456789abcd'$iuid)
				|| ' ' || $s.iuid_format_version('017f22e2-79b0-802a-8141-23456789abcd'$iuid)
				|| ' ' || $s.iuid_country('017f22e2-79b0-80ff-bfff-ffffffffffff'$iuid)
				|| ' ' || $s.iuid_entity('017f22e2-79b0-80ff-bfff-ffffffffffff'$iuid)
				|| ' ' || $s.iuid_from_timestamp('2022-02-22 19:22:22Z')}),
		'2022-02-22 19:22:22 42 5 0 255 255 017f22e2-79b0-8000-8000-000000000000',
		"$name: iuid vectors");
	is( $q->(
			qq{SELECT $s.distid_to_alphanumeric(1088824355131185736905670087$distid)
				|| ' ' || $s.distid_to_hex(1088824355131185736905670087$distid)
				|| ' ' || $s.distid_from_alphanumeric('3zfAkCP7ZtzfeQYp')
				|| ' ' || $s.distid_from_hex('000384A786907DB2AD82883DC7')
				|| ' ' || to_char($s.distid_timestamp(1088824355131185736905670087$distid) AT TIME ZONE 'UTC',
								  'YYYY-MM-DD HH24:MI:SS.MS')}),
		'3zfAkCP7ZtzfeQYp 000384A786907DB2AD82883DC7 1088824355131185736905670087 '
		  . '1088824355131185736905670087 2022-07-31 18:33:00.285',
		"$name: distid vectors");
	is( $q->(
			qq{SELECT to_char($s.distid128_timestamp('094954a8-622c-76ad-1b93-cdefcbdf0888') AT TIME ZONE 'UTC',
							  'YYYY-MM-DD HH24:MI:SS.MS')
				|| ' ' || $s.uuid_from_alphanumeric($s.uuid_to_alphanumeric('094954a8-622c-76ad-1b93-cdefcbdf0888'))}),
		'2023-07-24 17:59:43.916 094954a8-622c-76ad-1b93-cdefcbdf0888',
		"$name: DistributedId128 vector");
	is( $q->(
			qq{SELECT to_char($s.flaxid_timestamp('0RdKJcxqVBiAiQr0'$flaxid) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS')
				|| ' ' || $s.flaxid_from_timestamp('2015-01-01Z')
				|| ' ' || $s.flaxid_from_timestamp('2015-10-15 20:10:25.807Z')}),
		'2015-10-15 20:10:25.807 ---------------- 0RdKJcw---------',
		"$name: flaxid vectors");
	is( $q->(
			qq{SELECT $s.public_id(1088824355131185736905670087$distid, decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64'))
				|| ' ' || $s.uuid_to_alphanumeric('30322474-a954-ffa9-941c-6f038afe4ff1')
				|| ' ' || $s.public_id_to_distid($s.uuid_from_alphanumeric('48XoooHHCe1CiOHrghM7Dl'),
												decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64'))}),
		'30322474-a954-ffa9-941c-6f038afe4ff1 48XoooHHCe1CiOHrghM7Dl 1088824355131185736905670087',
		"$name: public id vector");
}

#
# $n ids of each type made by each edition, read by the other
#
# The SELECT list is evaluated in generate_series order: g is the order of
# generation in the session.  The window [t0, t1] is the wall clock around
# the run (distid is stamped 1 s in the past).
$q->(
	qq{
	CREATE TABLE win (t0 timestamptz, t1 timestamptz);
	INSERT INTO win VALUES (date_trunc('milliseconds', clock_timestamp()), NULL);
	CREATE TABLE s_ids AS SELECT g,
		idgen_portable.iuid_generate(g % 256, 255 - g % 256) AS iuid,
		idgen_portable.distid_generate() AS distid,
		idgen_portable.distid128_generate() AS distid128,
		idgen_portable.flaxid_generate() COLLATE "C" AS flaxid
		FROM generate_series(1, $n) g;
	CREATE TABLE c_ids AS SELECT g,
		public.iuid_generate(g % 256, 255 - g % 256)::uuid AS iuid,
		public.distid_generate()::numeric AS distid,
		public.distid128_generate() AS distid128,
		public.flaxid_generate()::text COLLATE "C" AS flaxid
		FROM generate_series(1, $n) g;
	UPDATE win SET t1 = clock_timestamp();
});

is( $q->(
		q{SELECT count(*) FROM s_ids, win
		WHERE public.iuid_country(iuid::public.iuid) <> g % 256
		   OR public.iuid_entity(iuid::public.iuid) <> 255 - g % 256
		   OR public.iuid_format_version(iuid::public.iuid) <> 0
		   OR public.iuid_timestamp(iuid::public.iuid) NOT BETWEEN t0 AND t1}),
	'0', "$n iuids of the SQL edition: the C type takes them and reads their fields and time");
is( $q->(
		q{SELECT count(*) FROM s_ids, win
		WHERE public.distid_timestamp(distid::public.distid) NOT BETWEEN t0 - interval '1 s' AND t1
		   OR public.distid_timestamp(distid::public.distid) <> idgen_portable.distid_timestamp(distid)}),
	'0', "$n distids of the SQL edition: the C type takes them and reads their time");
# the stored size of a distid and a flaxid in core types (doc/portable.md),
# against the C types' 12 bytes (SPEC.md)
is( $q->(
		q{SELECT round(avg(pg_column_size(distid))) || ' ' || round(avg(pg_column_size(flaxid))) || ' '
			|| max(pg_column_size(distid::public.distid)) || ' ' || max(pg_column_size(flaxid::public.flaxid))
		FROM s_ids}),
	'17 17 12 12', "$n ids stored: 17 bytes a distid in numeric and a flaxid in text, on average; 12 in the C types");
is( $q->(
		q{SELECT count(*) FROM s_ids, win
		WHERE public.distid128_timestamp(distid128) NOT BETWEEN t0 AND t1}),
	'0', "$n DistributedId128s of the SQL edition: the C functions read their time");
is( $q->(
		q{SELECT count(*) FROM s_ids, win
		WHERE flaxid::public.flaxid::text <> flaxid
		   OR public.flaxid_timestamp(flaxid::public.flaxid) NOT BETWEEN t0 AND t1}),
	'0', "$n flaxids of the SQL edition: the C type takes them, unchanged, and reads their time");

is( $q->(
		q{SELECT count(*) FROM c_ids
		WHERE idgen_portable.iuid_timestamp(iuid) <> public.iuid_timestamp(iuid::public.iuid)
		   OR idgen_portable.iuid_country(iuid) <> g % 256
		   OR idgen_portable.iuid_entity(iuid) <> 255 - g % 256
		   OR idgen_portable.iuid_format_version(iuid) <> 0}),
	'0', "$n iuids of the C type: the SQL edition reads the same fields and time");
is( $q->(
		q{SELECT count(*) FROM c_ids
		WHERE idgen_portable.distid_timestamp(distid) <> public.distid_timestamp(distid::public.distid)
		   OR idgen_portable.distid(distid) <> distid}),
	'0', "$n distids of the C type: the SQL edition takes them and reads the same time");
is( $q->(
		q{SELECT count(*) FROM c_ids
		WHERE idgen_portable.distid128_timestamp(distid128) <> public.distid128_timestamp(distid128)}),
	'0', "$n DistributedId128s of the C functions: the SQL edition reads the same time");
is( $q->(
		q{SELECT count(*) FROM c_ids
		WHERE idgen_portable.flaxid_timestamp(flaxid) <> public.flaxid_timestamp(flaxid::public.flaxid)
		   OR idgen_portable.flaxid(flaxid) <> flaxid}),
	'0', "$n flaxids of the C type: the SQL edition takes them and reads the same time");

# strictly increasing in the order made, in the session; iuid's random
# field (below country and entity) with its millisecond
is( $q->(
		q{SELECT count(*) FROM (SELECT
			(ms, r) <= lag((ms, r)) OVER (ORDER BY g) AS iuid_back,
			distid <= lag(distid) OVER (ORDER BY g) AS distid_back,
			distid128 <= lag(distid128) OVER (ORDER BY g) AS distid128_back,
			flaxid <= lag(flaxid) OVER (ORDER BY g) AS flaxid_back
			FROM s_ids, LATERAL (SELECT public.iuid_timestamp(iuid::public.iuid) AS ms,
				('x' || substr(iuid::text, 20, 4) || substr(iuid::text, 25, 12))::bit(64)::bigint & 18014398509481983 AS r) x) s
		WHERE iuid_back OR distid_back OR distid128_back OR flaxid_back}),
	'0', "the SQL edition's $n ids of each type strictly increase in the session");

# the text forms of the same ids, both ways, on a tenth of them
my $m = int($n / 10);
is( $q->(
		qq{SELECT count(*) FROM (SELECT * FROM s_ids WHERE g <= $m UNION ALL SELECT * FROM c_ids WHERE g <= $m) x
		WHERE idgen_portable.distid_to_alphanumeric(distid) <> public.distid_to_alphanumeric(distid::public.distid)
		   OR idgen_portable.distid_to_hex(distid) <> public.distid_to_hex(distid::public.distid)
		   OR idgen_portable.distid_from_alphanumeric(public.distid_to_alphanumeric(distid::public.distid)) <> distid
		   OR public.distid_from_hex(idgen_portable.distid_to_hex(distid))::numeric <> distid
		   OR idgen_portable.uuid_to_alphanumeric(distid128) <> public.uuid_to_alphanumeric(distid128)
		   OR idgen_portable.uuid_from_alphanumeric(public.uuid_to_alphanumeric(distid128)) <> distid128
		   OR idgen_portable.bigint_to_alphanumeric(g * 92233720368547) <> public.bigint_to_alphanumeric(g * 92233720368547)
		   OR idgen_portable.bigint_from_alphanumeric(public.bigint_to_alphanumeric(g * 92233720368547)) <> g * 92233720368547}),
	'0', "alphanumeric and hex forms of $m ids of each edition: the same text, decoded by the other");
is( $q->(
		qq{SELECT count(*) FROM (SELECT * FROM s_ids WHERE g <= $m UNION ALL SELECT * FROM c_ids WHERE g <= $m) x,
			LATERAL (SELECT decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64') AS k) k
		WHERE idgen_portable.public_id(distid, k) <> public.public_id(distid::public.distid, k)
		   OR idgen_portable.public_id(iuid, k) <> public.public_id(iuid::public.iuid, k)
		   OR idgen_portable.public_id(g::bigint, k) <> public.public_id(g::bigint, k)
		   OR idgen_portable.public_id_to_distid(public.public_id(distid::public.distid, k), k) <> distid
		   OR public.public_id_to_uuid(idgen_portable.public_id(distid128, k), k) <> distid128
		   OR idgen_portable.public_id_to_bigint(public.public_id(g::bigint, k), k) <> g}),
	'0', "public ids of $m ids of each edition: the same, decoded by the other");

# the other generators: the dense distid, and backfill for one millisecond
# (whose walk continues, never repeating)
$q->(
	qq{CREATE TABLE s_more AS SELECT g, idgen_portable.distid_generate_dense() AS dense,
		idgen_portable.iuid_generate(7, 9, '2024-02-29 12:34:56.789Z') AS backfill
		FROM generate_series(1, $m) g});
is( $q->(
		q{SELECT count(*) FROM (SELECT *, lag(dense) OVER (ORDER BY g) AS pd, lag(backfill) OVER (ORDER BY g) AS pb FROM s_more) s, win
		WHERE public.distid_timestamp(dense::public.distid) NOT BETWEEN t0 - interval '1 s' AND clock_timestamp()
		   OR dense <= pd
		   OR backfill <= pb
		   OR public.iuid_timestamp(backfill::public.iuid) <> '2024-02-29 12:34:56.789Z'
		   OR public.iuid_country(backfill::public.iuid) <> 7 OR public.iuid_entity(backfill::public.iuid) <> 9}),
	'0', "$m of distid_generate_dense() and of iuid_generate(7, 9, a time): valid for the C types, strictly increasing");

#
# Malformed input, the bounds over a spread of times: the same outcome
#
$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'),
	'-f', "$FindBin::RealBin/crosscheck.sql" ], 'the inputs of both editions, generated and tried');
my $tried = $q->(q{SELECT count(*) || ' inputs, ' || count(DISTINCT decoder) || ' functions, '
	|| count(*) FILTER (WHERE c LIKE 'error%') || ' refused by the C extension' FROM xc.tried});
note "tried: $tried";
like($tried, qr/^([0-9]{4,}) inputs, 36 functions, ([0-9]{4,}) refused/, 'thousands of inputs tried, most of them malformed');
is( $q->(q{SELECT count(*) FROM xc.tried WHERE c IS DISTINCT FROM s}), '0',
	'every input: the same value, or the same SQLSTATE, message and detail, from both editions')
  or diag($q->(q{SELECT string_agg(format('%s(%L): C %s, SQL %s', decoder, input, c, s), E'\n')
				 FROM (SELECT * FROM xc.tried WHERE c IS DISTINCT FROM s LIMIT 20) x}));
is( $q->(q{SELECT string_agg(DISTINCT substr(c, 7, 5), ',' ORDER BY substr(c, 7, 5)) FROM xc.tried WHERE c LIKE 'error%'}),
	'22003,22008,22023,22P02',
	'the errors compared: 22P02 (syntax), 22003 (range), 22023 (parameter), 22008 (time span)');

#
# flaxid in text: the order of the id under COLLATE "C" only
#
is( $q->(
		q{SELECT count(*) FROM (
			SELECT row_number() OVER (ORDER BY flaxid COLLATE "C") AS by_text,
				   row_number() OVER (ORDER BY flaxid::public.flaxid) AS by_id
			FROM (SELECT flaxid FROM s_ids WHERE g <= 10000 UNION ALL
				  SELECT public.flaxid_from_timestamp(t)::text FROM generate_series(timestamptz '2015-01-01Z',
					'2049-11-03Z', '97 days 1 hour 7 minutes 13.001 seconds') t) x) y
		WHERE by_text <> by_id}),
	'0', 'flaxid text COLLATE "C" sorts as the C type does');
# under a linguistic collation (where the server has one) the alphabet
# does not sort as in ASCII: letters of both cases interleave, '_' moves
my $coll = $q->(
	q{SELECT quote_ident(collname) FROM pg_collation
	WHERE collname IN ('en_US.utf8', 'en_US', 'en-US-x-icu', 'und-x-icu') AND collencoding IN (-1, 6) ORDER BY 1 LIMIT 1});
# (the test command compiles en_US.UTF-8 where it is missing: tools/lib.sh idgen_locale)
if ($coll)
{
	isnt( $q->(
			qq{SELECT string_agg(c, '' ORDER BY c COLLATE $coll) FROM regexp_split_to_table(
			'-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz', '') AS c}),
		'-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz',
		"under $coll, flaxid's alphabet does not sort in its order (hence COLLATE \"C\")");
}
else
{
	fail('a linguistic collation (en_US.utf8, or ICU) on this server, to sort flaxid\'s alphabet under');
}

#
# Bounds prune partitions: they are IMMUTABLE, and folded at plan time
#
$q->(
	q{CREATE TABLE p_iuid (id uuid PRIMARY KEY) PARTITION BY RANGE (id);
	CREATE TABLE p_iuid_1 PARTITION OF p_iuid FOR VALUES FROM (idgen_portable.iuid_from_timestamp('2025-01-01Z'))
		TO (idgen_portable.iuid_from_timestamp('2025-02-01Z'));
	CREATE TABLE p_iuid_2 PARTITION OF p_iuid FOR VALUES FROM (idgen_portable.iuid_from_timestamp('2025-02-01Z'))
		TO (idgen_portable.iuid_from_timestamp('2025-03-01Z'));
	CREATE TABLE p_distid (id numeric(28, 0) PRIMARY KEY) PARTITION BY RANGE (id);
	CREATE TABLE p_distid_1 PARTITION OF p_distid FOR VALUES FROM (idgen_portable.distid_from_timestamp('2025-01-01Z'))
		TO (idgen_portable.distid_from_timestamp('2025-02-01Z'));
	CREATE TABLE p_distid_2 PARTITION OF p_distid FOR VALUES FROM (idgen_portable.distid_from_timestamp('2025-02-01Z'))
		TO (idgen_portable.distid_from_timestamp('2025-03-01Z'));
	CREATE TABLE p_flaxid (id text COLLATE "C" PRIMARY KEY) PARTITION BY RANGE (id);
	CREATE TABLE p_flaxid_1 PARTITION OF p_flaxid FOR VALUES FROM (idgen_portable.flaxid_from_timestamp('2025-01-01Z'))
		TO (idgen_portable.flaxid_from_timestamp('2025-02-01Z'));
	CREATE TABLE p_flaxid_2 PARTITION OF p_flaxid FOR VALUES FROM (idgen_portable.flaxid_from_timestamp('2025-02-01Z'))
		TO (idgen_portable.flaxid_from_timestamp('2025-03-01Z'));
	INSERT INTO p_iuid SELECT idgen_portable.iuid_generate(1, 1, t) FROM generate_series(timestamptz '2025-01-01Z', '2025-02-28Z', '1 hour') t;
	INSERT INTO p_distid SELECT idgen_portable.distid_from_timestamp(t) + 1 FROM generate_series(timestamptz '2025-01-01Z', '2025-02-28Z', '1 hour') t;
	INSERT INTO p_flaxid SELECT idgen_portable.flaxid_max_for_timestamp(t) FROM generate_series(timestamptz '2025-01-01Z', '2025-02-28Z', '1 hour') t;
	});
for my $t ([ 'iuid', 'iuid' ], [ 'distid', 'distid' ], [ 'flaxid', 'flaxid' ])
{
	my ($table, $f) = @$t;
	my $plan = $q->(
		qq{EXPLAIN (COSTS OFF) SELECT count(*) FROM p_$table
		WHERE id BETWEEN idgen_portable.${f}_from_timestamp('2025-02-03Z') AND idgen_portable.${f}_max_for_timestamp('2025-02-04 23:00Z')});
	ok($plan =~ /p_${table}_2/ && $plan !~ /p_${table}_1/,
		"$table: a range of ids from the bounds scans one partition (pruned at plan time)")
	  or diag($plan);
	is( $q->(
			qq{SELECT count(*) FROM p_$table
			WHERE id BETWEEN idgen_portable.${f}_from_timestamp('2025-02-03Z') AND idgen_portable.${f}_max_for_timestamp('2025-02-04 23:00Z')}),
		'48', "$table: and finds the ids of those two days");
}

#
# Under a forced parallel plan: the extractors run in workers, the
# generators (PARALLEL UNSAFE: they write a setting) keep the plan serial
#
my $force = $major >= 16 ? 'debug_parallel_query' : 'force_parallel_mode';
is( $node->safe_psql(
		'postgres', qq{
		SET $force = on; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
		SELECT count(*) FILTER (WHERE idgen_portable.iuid_timestamp(iuid) = public.iuid_timestamp(iuid::public.iuid)
			AND idgen_portable.flaxid_timestamp(flaxid) = public.flaxid_timestamp(flaxid::public.flaxid))
		FROM c_ids WHERE g <= 1000;
		SELECT count(DISTINCT x) FROM (SELECT idgen_portable.iuid_generate(1, 2) x FROM generate_series(1, 100)
			UNION ALL SELECT idgen_portable.distid128_generate() FROM generate_series(1, 100)) y;
		}),
	"1000\n200", "with $force: the extractors in parallel workers, the generators in the leader");

$node->stop;
done_testing();
