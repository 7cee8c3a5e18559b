# The SQL edition where USAGE on its schema is revoked from PUBLIC, as
# doc/portable.md says to restrict it: a role without it still reaches the
# functions through objects bound to them when made (a view, a column's
# default or check, a SQL-standard body), and each call must answer as for
# a role with USAGE.  PostgreSQL leaves a schema the current role may not
# use out of every search_path, the one a function pins too, so a PL/pgSQL
# function that looked up another function of the edition by name found
# none: on main at 9ff1339 the refusals raised 42883 ("function
# _iuid_refuse(uuid, text) does not exist") instead of the C types' 22P02,
# and distid_to_alphanumeric(), uuid_to_alphanumeric() and the public ids
# failed on valid input (found by the fresh-eye attack of branch atk6).
# Every line of calls.sql (each function, its valid inputs and the
# branches of its errors) becomes a view of a role with USAGE, read by
# that role and by one without.  And no PL/pgSQL function of the edition
# names another of its functions (plpgsql_check's dependencies, where it
# is installed), so that no call needs the lookup.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use PortableTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $portable = "$ENV{IDGEN_PORTABLE_ROOT}/portable";
my $node = PostgreSQL::Test::Cluster->new('usage');
$node->init;
$node->start;
my $q = sub { $node->safe_psql('postgres', $_[0]) };
$q->('CREATE EXTENSION pgcrypto');
my ($ok, $err) = psql_file($node, 'postgres', undef, "$portable/install_psql.sql", 'schema=ids');
ok($ok, 'installed into schema ids') or diag($err);
($ok, $err) = psql_file($node, 'postgres', undef, "$FindBin::RealBin/try.sql");
ok($ok, 'xc.try()') or diag($err);
$q->(
	q{REVOKE USAGE ON SCHEMA ids FROM PUBLIC;
	CREATE ROLE keeper;
	CREATE ROLE bob;
	GRANT USAGE ON SCHEMA ids TO keeper;
	CREATE SCHEMA v AUTHORIZATION keeper;
	GRANT USAGE ON SCHEMA v, xc TO bob, keeper;});

my @calls = grep { /\S/ && !/^--/ } split /\n/, slurp_file("$FindBin::RealBin/calls.sql");
for my $i (0 .. $#calls)
{
	(my $c = $calls[$i]) =~ s/\@s\@/ids/g;
	$q->("SET ROLE keeper; CREATE VIEW v.c$i AS SELECT ($c)::text AS r; GRANT SELECT ON v.c$i TO bob;");
}
my ($ret, $out, $perr) = $node->psql('postgres', 'SET ROLE bob; SELECT ids.iuid_generate(1, 2)');
like($perr, qr/permission denied for schema ids/, 'the role without USAGE cannot name the functions');

# each view's outcome as each role
sub outcomes
{
	my ($role) = @_;
	return $q->(
		"SET ROLE $role; SELECT string_agg(i || ': ' || xc.try('SELECT r FROM v.c' || i), E'\\n' ORDER BY i)
		FROM generate_series(0, $#calls) i");
}
my $keeper = outcomes('keeper');
my $bob = outcomes('bob');
my @k = split /\n/, $keeper;
my @b = split /\n/, $bob;
is(scalar(@k), scalar(@calls), scalar(@calls) . ' calls of calls.sql, each a view');
cmp_ok(scalar(grep { /^\d+: error 22/ } @k), '>=', 40, 'many of them refusals of the C types\' classes (22xxx)');
is( join("\n", map { "$k[$_]\n  without USAGE: " . ($b[$_] // '') } grep { ($b[$_] // '') ne $k[$_] } 0 .. $#k),
	'', 'a role without USAGE gets the same values and errors through them');

# no PL/pgSQL function of the edition names another function of it
SKIP:
{
	my ($r) = $node->psql('postgres', 'CREATE EXTENSION plpgsql_check');
	skip 'plpgsql_check is not installed for this server', 1 if $r != 0;
	is( $q->(
			q{SELECT string_agg(f || ' -> ' || d, ', ' ORDER BY f) FROM (
			SELECT p.oid::regprocedure::text AS f, string_agg(DISTINCT x.name, ' ') AS d
			FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace,
				LATERAL plpgsql_show_dependency_tb(p.oid::regprocedure) x
			WHERE n.nspname = 'ids' AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'plpgsql')
				AND NOT 'anyelement'::regtype = ANY (p.proargtypes)
				AND x.type = 'FUNCTION' AND x.schema = 'ids'
			GROUP BY 1) s}),
		'', 'no PL/pgSQL function of the edition calls another of its functions by name');
}

$node->stop;
done_testing();
