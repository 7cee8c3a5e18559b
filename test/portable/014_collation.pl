# The SQL edition's text inputs under a nondeterministic collation: a text
# column declared with a case-insensitive ICU collation, or a COLLATE in
# the call, hands that collation to the function, and PostgreSQL refuses
# regular expressions and substring searches under one (0A000, "not
# supported").  The C types' input functions take no collation, so the
# edition's functions must answer as they do under the default collation:
# the same result, or the same error.  Every function of the edition's
# schema with a text argument is called (found in the catalog, not
# listed), each text argument with every input below, with the default
# collation, with COLLATE in the call, and from a column of the collation.
# On main at 9ff1339, where iuid(text), distid(text) and the alphanumeric
# and hexadecimal decoders were PL/pgSQL, which takes its caller's
# collation, each raised 0A000 under this one ("nondeterministic
# collations are not supported for regular expressions"); flaxid(text) and
# flaxid_timestamp(text), SQL bodies, whose collation was fixed when they
# were made, answered alike.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('collation');
$node->init;
$node->start;
my $q = sub { $node->safe_psql('postgres', $_[0]) };
# tools/pgbuild.sh builds 17 and later without ICU (Debian's 15 has it)
my ($ret, $out, $err) = $node->psql('postgres',
	q{CREATE COLLATION ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false)});
if ($ret != 0)
{
	$node->stop;
	die "CREATE COLLATION failed: $err" unless $err =~ /ICU is not supported in this build/;
	plan skip_all => 'this server was built without ICU';
}
$q->(
	q{CREATE EXTENSION idgen_portable CASCADE;
	CREATE SCHEMA probe;
	-- what a call gives: its result as text, or its SQLSTATE and message
	CREATE FUNCTION probe.try(sql text) RETURNS text LANGUAGE plpgsql AS $$
	DECLARE r text;
	BEGIN
		EXECUTE sql INTO r;
		RETURN 'ok: ' || coalesce(r, 'NULL');
	EXCEPTION WHEN OTHERS THEN
		RETURN 'error ' || SQLSTATE || ': ' || SQLERRM;
	END $$;});

# inputs: the forms the edition reads, made by its own functions (so each
# decoder meets a valid text), their case changed (equal under the
# collation, not to the decoders), and texts that are none
my @inputs = split /\n/, $q->(
	q{WITH v(s) AS (VALUES (idgen_portable.iuid_generate(1, 2)::text),
		(idgen_portable.distid_generate()::text),
		(idgen_portable.distid_to_alphanumeric(idgen_portable.distid_generate())),
		(idgen_portable.distid_to_hex(idgen_portable.distid_generate())),
		(idgen_portable.uuid_to_alphanumeric(idgen_portable.distid128_generate())),
		(idgen_portable.bigint_to_alphanumeric(1234567890123)),
		(idgen_portable.flaxid_generate()))
	SELECT s FROM v UNION ALL SELECT upper(s) FROM v UNION ALL SELECT lower(s) FROM v
	UNION ALL SELECT '{' || replace(s, '-', '') || '}' FROM v WHERE s LIKE '%-%-%'
	UNION ALL VALUES (''), ('x'), ('0'), ('42'), ('1e3'), (' 7'), ('é'), (repeat('Z', 16)), ('١٢٣')});
cmp_ok(scalar(@inputs), '>=', 25, 'the inputs were made');

# the functions: every one of the schema (not internal) with a text argument
my @funcs = split /\n/, $q->(
	q{SELECT p.oid::regprocedure FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
	WHERE n.nspname = 'idgen_portable' AND p.proname !~ '^_' AND 'text'::regtype = ANY (p.proargtypes)
	ORDER BY 1});
cmp_ok(scalar(@funcs), '>=', 8, 'functions with a text argument found: ' . join(' ', @funcs));

# a value for an argument of another type (none today: a function with one
# fails here until it has one)
my %other = (numeric => '1', bigint => '1', integer => '1', uuid => 'gen_random_uuid()',
	bytea => q{'\x000102030405060708090a0b0c0d0e0f'::bytea}, 'timestamp with time zone' => 'now()');

$q->(q{CREATE TABLE probe.input (n int, s text COLLATE ci)});
for my $i (0 .. $#inputs)
{
	(my $lit = $inputs[$i]) =~ s/'/''/g;
	$q->("INSERT INTO probe.input VALUES ($i, '$lit')");
}

my ($calls, $fine) = (0, 0);
for my $f (@funcs)
{
	my ($name, $args) = $f =~ /^(.*?)\((.*)\)$/;
	my @types = split /,\s*/, $args;
	my @missing = grep { $_ ne 'text' && !exists $other{$_} } @types;
	ok(!@missing, "$f: a value for each argument") or next;
	my @diffs;
	# each form, a template of the call for input n (%1$s, its text
	# %2$L): the text arguments as literals of the default collation, with
	# COLLATE ci, and the column of that collation
	my @forms = map {
		my $form = $_;
		my $text = $form eq 'column' ? 's' : '%2$L::text' . ($form eq 'collate' ? ' COLLATE ci' : '');
		(my $call = "SELECT $name(" . join(', ', map { $_ eq 'text' ? $text : $other{$_} } @types) . ')::text'
		  . ($form eq 'column' ? ' FROM probe.input WHERE n = %1$s' : '')) =~ s/'/''/g;
		"probe.try(format('$call', n, s))"
	} ('default', 'collate', 'column');
	for my $row (split /\n/, $q->("SELECT concat_ws(chr(31), n, " . join(', ', @forms) . ") FROM probe.input ORDER BY n"))
	{
		my ($i, @got) = split /\x1f/, $row;
		$calls++;
		$fine++ if $got[0] =~ /^ok: /;
		push @diffs, "input '$inputs[$i]': default: $got[0]; COLLATE ci: $got[1]; column: $got[2]"
		  if $got[1] ne $got[0] || $got[2] ne $got[0];
	}
	is(join("\n", @diffs), '', "$f: the same answers under a nondeterministic collation");
}
# each valid form was read by its decoder at least once
cmp_ok($fine, '>=', 12, "$fine of $calls calls returned a value");

$node->stop;
done_testing();
