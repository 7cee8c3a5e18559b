# What the planner inlines of the SQL edition (doc/portable.md, "Cost"):
# the generators become a call of their worker in the caller's query, and
# the extractors, bounds and checks become their expression, so that
# WHERE iuid_timestamp(id) > ... or a partition bound costs what the
# expression costs.  Seen in the plan: EXPLAIN VERBOSE writes a call of a
# function that is not inlined with its schema (idgen_portable.f(...)),
# and an inlined one not at all; what remains of the edition are the
# workers and the helpers of the refusing branches.  The check is seen to
# see: a copy of an extractor declared STRICT (then not inlined, its CASE
# being no strict construct) shows its call.  And NULL gives NULL through
# the expressions, as it did through the STRICT functions they replace.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('inline');
$node->init;
$node->start;
my $q = sub { $node->safe_psql('postgres', $_[0]) };
$q->(
	q{CREATE EXTENSION idgen_portable CASCADE;
	CREATE TABLE t AS SELECT idgen_portable.iuid_generate(1, 2) AS i, idgen_portable.distid_generate() AS d,
		idgen_portable.distid128_generate() AS u, idgen_portable.flaxid_generate() COLLATE "C" AS f,
		clock_timestamp() AS ts, g::bigint AS b, g AS n, 'AzL8n0Y58m7'::text AS a,
		'\x000102030405060708090a0b0c0d0e0f'::bytea AS k FROM generate_series(1, 3) g;
	ANALYZE t});

# the plan's output expressions
sub plan
{
	my ($exprs) = @_;
	return join("\n", grep { /Output:/ } split /\n/, $q->("EXPLAIN (VERBOSE, COSTS OFF) SELECT $exprs FROM t"));
}

# the edition's functions the plan still calls
sub calls
{
	my ($plan) = @_;
	my %seen = map { $_ => 1 } $plan =~ /idgen_portable\.(\w+)\(/g;
	return join(' ', sort keys %seen);
}

# each function with the calls of the edition that remain of it
my %inlined = (
	'iuid(i)' => '_iuid_refused',
	'iuid_timestamp(i)' => '_iuid_refused',
	'iuid_country(i)' => '_iuid_refused',
	'iuid_entity(i)' => '_iuid_refused',
	'iuid_format_version(i)' => '_iuid_refused',
	'iuid_from_timestamp(ts)' => '_units',
	'iuid_max_for_timestamp(ts)' => '_units',
	'distid(d)' => '_distid_checked',
	'distid_timestamp(d)' => '_distid_checked',
	'distid_from_timestamp(ts)' => '_units',
	'distid_max_for_timestamp(ts)' => '_units',
	'distid128_timestamp(u)' => '_distid128_refused',
	'distid128_from_timestamp(ts)' => '_units',
	'distid128_max_for_timestamp(ts)' => '_units',
	'flaxid(f)' => '_flaxid_refused',
	'flaxid_timestamp(f)' => '_flaxid_refused',
	'flaxid_from_timestamp(ts)' => '_units',
	'flaxid_max_for_timestamp(ts)' => '_units',
	# the text forms and public ids: their parts in PL/pgSQL, which call
	# nothing of the edition (015_usage.pl); _aes (pgcrypto's functions)
	# where its block is such a part (named twice in its body)
	'iuid(f)' => '_iuid_in _uuid_syntax_detail',
	'distid(a)' => '_distid_in',
	'distid_to_alphanumeric(d)' => '_base62 _distid_checked',
	'distid_to_hex(d)' => '_distid_checked',
	'uuid_to_alphanumeric(u)' => '_base62',
	'bigint_to_alphanumeric(b)' => '_base62 _bigint_refused',
	'distid_from_alphanumeric(a)' => '_decode_fixed',
	'distid_from_hex(a)' => '_decode_fixed',
	'uuid_from_alphanumeric(a)' => '_decode_fixed _uuid_of',
	'bigint_from_alphanumeric(a)' => '_decode_fixed',
	'public_id(b, k)' => '_aes _bigint_block _bigint_refused _guid',
	'public_id(n, k)' => '_aes _bigint_block _bigint_refused _guid',
	'public_id(d, k)' => '_aes _distid_block _distid_checked _guid',
	'public_id(u, k)' => '_aes_key_error _guid',
	'public_id_to_bigint(u, k)' => '_aes _bigint_of_block _guid',
	'public_id_to_distid(u, k)' => '_aes _distid_of_block _guid',
	'public_id_to_uuid(u, k)' => '_aes _guid',
	# a generator: its worker, given the state, the clock and a random uuid
	'iuid_generate(1, 2)' => '_iuid_next',
	'iuid_generate(1, 2, ts)' => '_iuid_at_next',
	'distid_generate()' => '_distid_next',
	'distid_generate_dense()' => '_distid_dense_next',
	'distid128_generate()' => '_distid128_next',
	'flaxid_generate()' => '_flaxid_next');
for my $f (sort keys %inlined)
{
	is(calls(plan("idgen_portable.$f")), $inlined{$f}, "$f is inlined: the plan calls only $inlined{$f}");
}

# the check sees a call: functions that are not inlined (PL/pgSQL), and an
# extractor's copy declared STRICT
is(calls(plan('idgen_portable._uuid_syntax_detail(f), idgen_portable.iuid_generate(1, 2)::text')),
	'_iuid_next _uuid_syntax_detail', 'a PL/pgSQL function appears as a call');
$q->(
	q{CREATE SCHEMA copy;
	SELECT replace(replace(pg_get_functiondef('idgen_portable.iuid_timestamp(uuid)'::regprocedure),
		'idgen_portable.iuid_timestamp', 'copy.iuid_timestamp'), 'IMMUTABLE', 'IMMUTABLE STRICT') AS def \gset
	:def});
is(calls(plan('copy.iuid_timestamp(i)') =~ s/copy\./idgen_portable./gr), 'iuid_timestamp',
	'iuid_timestamp declared STRICT would not be inlined (its CASE is no strict construct): the plan calls it');
is($q->(q{SELECT copy.iuid_timestamp(i) = idgen_portable.iuid_timestamp(i) FROM t LIMIT 1}), 't',
	'(and the copy is the same function)');

# NULL in, NULL out (* marks a NULL); a generator given NULL writes no state
is( $q->(
		q{SELECT array_to_string(ARRAY[
		idgen_portable.iuid(NULL::uuid)::text, idgen_portable.iuid_timestamp(NULL)::text, idgen_portable.iuid_country(NULL)::text,
		idgen_portable.iuid_entity(NULL)::text, idgen_portable.iuid_format_version(NULL)::text,
		idgen_portable.iuid_from_timestamp(NULL)::text, idgen_portable.iuid_max_for_timestamp(NULL)::text,
		idgen_portable.distid(NULL::numeric)::text, idgen_portable.distid_timestamp(NULL)::text,
		idgen_portable.distid_from_timestamp(NULL)::text, idgen_portable.distid_max_for_timestamp(NULL)::text,
		idgen_portable.distid128_timestamp(NULL)::text, idgen_portable.distid128_from_timestamp(NULL)::text,
		idgen_portable.distid128_max_for_timestamp(NULL)::text, idgen_portable.flaxid(NULL)::text,
		idgen_portable.flaxid_timestamp(NULL)::text, idgen_portable.flaxid_from_timestamp(NULL)::text,
		idgen_portable.flaxid_max_for_timestamp(NULL)::text,
		idgen_portable.iuid_generate(NULL, 2)::text, idgen_portable.iuid_generate(1, NULL, now())::text,
		idgen_portable.iuid_generate(1, 2, NULL)::text,
		idgen_portable.iuid(NULL::text)::text, idgen_portable.distid(NULL::text)::text,
		idgen_portable.distid_to_alphanumeric(NULL), idgen_portable.distid_to_hex(NULL),
		idgen_portable.uuid_to_alphanumeric(NULL), idgen_portable.bigint_to_alphanumeric(NULL),
		idgen_portable.distid_from_alphanumeric(NULL)::text, idgen_portable.distid_from_hex(NULL)::text,
		idgen_portable.uuid_from_alphanumeric(NULL)::text, idgen_portable.bigint_from_alphanumeric(NULL)::text,
		-- a NULL id with a key of a wrong length: NULL, as from the C functions (STRICT)
		idgen_portable.public_id(NULL::bigint, '\x01')::text, idgen_portable.public_id(NULL::int, '\x01')::text,
		idgen_portable.public_id(NULL::numeric, '\x01')::text, idgen_portable.public_id(NULL::uuid, '\x01')::text,
		idgen_portable.public_id(1::bigint, NULL)::text, idgen_portable.public_id_to_bigint(NULL, '\x01')::text,
		idgen_portable.public_id_to_distid(NULL, '\x01')::text, idgen_portable.public_id_to_uuid(NULL, '\x01')::text,
		idgen_portable.public_id_to_uuid(gen_random_uuid(), NULL)::text], ',', '*');
		SELECT coalesce(current_setting('idgp.iuid', true), 'unset') || ' '
			|| coalesce(current_setting('idgp.iuid_at', true), 'unset') || ' '
			|| coalesce(current_setting('idgp.iuid_at_r', true), 'unset')}),
	join(',', ('*') x 40) . "\nunset unset unset", 'NULL gives NULL, from every inlined function and from the generators with an argument, which then write no state');

$node->stop;
done_testing();
