# The trap check of the SQL edition (issue 38): no name in its scripts or
# functions is resolved through the search_path.
#
# test/hostile/trap.sql, the project's one trap generator (the C edition's
# hostile regression tests use it too), makes schema "trap" from the catalog
# (regress_trap.make_twins): a twin of every function (aggregates and window
# functions as plain functions), operator, type and relation of pg_catalog
# that reports being reached (a WARNING "idgen-trap: ...", and a call of the
# sequence regress_trap.calls) or refuses every call.  Each route's script is run with its one search_path line,
# "SET LOCAL search_path = pg_catalog, <schema>, pg_temp", made
# "SET LOCAL search_path = trap, pg_catalog, <schema>, pg_temp": the install
# runs with the trap searched first; a function either pins that path (SET
# search_path FROM CURRENT), so its body finds the trap first too, or has a
# SQL-standard body, bound at install with that path, or is a generator's
# worker, PL/pgSQL that pins nothing and finds names in its caller's path.
# Then every line of calls.sql is run against that install and against a
# plain install of the same database, with the trap first in the session's
# path while the call runs (the workers plan their statements with it): the
# outcomes (value, or SQLSTATE, message and detail) must be the same, and
# nothing may report the trap.
#  - the psql script, as a superuser, with the session's path trap first too;
#  - pg_tle (where it is built): install_pg_tle.sql and CREATE EXTENSION;
#  - the extension from its control file: IDGEN_PORTABLE_TRAP_INSTALL names
#    a tree whose idgen_portable script is the trapped one (run.sh makes it).
# The trap is checked complete: every pg_catalog name the scripts write has
# a twin.  And the check is seen to fail: installs with one qualification
# taken out each (at install, in a body, in a cast, in the pgcrypto binding,
# in a worker) are red.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use PortableTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $portable = "$ENV{IDGEN_PORTABLE_ROOT}/portable";
my $trap_sql = "$ENV{IDGEN_PORTABLE_ROOT}/test/hostile/trap.sql";
my $path_line = qr/^SET LOCAL search_path = pg_catalog, /m;
my $trap_path = '-csearch_path=trap,pg_catalog,public';

sub slurp { open(my $f, '<', $_[0]) or die "$_[0]: $!"; local $/; return scalar <$f>; }

sub spew
{
	my ($name, $text) = @_;
	my $file = "$PostgreSQL::Test::Utils::tmp_check/$name";
	open(my $f, '>', $file) or die "$file: $!";
	print $f $text;
	close($f);
	return $file;
}

# a script with its search_path line trapped; exactly one such line
sub trapped
{
	my ($text) = @_;
	my $n = () = $text =~ /$path_line/g;
	BAIL_OUT("$n search_path lines where one was expected") unless $n == 1;
	$text =~ s/$path_line/SET LOCAL search_path = trap, pg_catalog, /;
	return $text;
}


my @calls = grep { /\S/ && !/^--/ } split /\n/, slurp("$FindBin::RealBin/calls.sql");
my $values = join(",\n", map { my $i = $_; (my $c = $calls[$i]) =~ s/'/''/g; "($i, '$c')" } 0 .. $#calls);

# a database with pgcrypto, the trap, a plain install in schema ref and
# the helper that runs a call
sub prepare
{
	my ($node, $db, $first) = @_;
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, $first) if $first;
	$node->safe_psql($db, 'CREATE EXTENSION pgcrypto');
	my ($ok, $err) = psql_file($node, $db, undef, $trap_sql);
	ok($ok, "$db: the trap's generator") or diag($err);
	# every twin made, or an error: nothing is left out
	my $made = $node->safe_psql($db, q{CREATE SCHEMA trap; GRANT USAGE ON SCHEMA trap TO PUBLIC;
		SELECT string_agg(kind || ' ' || made, ', ') FROM regress_trap.make_twins('trap')});
	like($made, qr/^types [1-9]\d*, functions [1-9]\d*, operators [1-9]\d*$/,
		"$db: the trap, a twin of every function, operator and type of pg_catalog") and diag("$db: $made");
	($ok, $err) = psql_file($node, $db, undef, "$portable/install_psql.sql", 'schema=ref');
	ok($ok, "$db: a plain install in schema ref") or diag($err);
	($ok, $err) = psql_file($node, $db, undef, "$FindBin::RealBin/try.sql");
	ok($ok, "$db: xc.try()") or diag($err);
	return;
}

# the calls whose outcome in schema $s differs from ref's: '' when none.
# Each call is parsed with the session's plain path and runs with the trap
# first in it (set_config() around it, in the order an array's elements
# are evaluated; an error undoes it with the call's subtransaction), so that
# the generators' workers, which pin no path, plan their statements with
# the trap first.
sub differences
{
	my ($node, $db, $s) = @_;
	my $run = q{'SELECT (ARRAY[pg_catalog.set_config(''search_path'', ''trap, pg_catalog, public'', true), ('
	  || replace(q, '@s@', <schema>) || ')::pg_catalog.text, pg_catalog.set_config(''search_path'', ''"$user", public'', true)])[2]'};
	(my $run_s = $run) =~ s/<schema>/'$s'/;
	(my $run_ref = $run) =~ s/<schema>/'ref'/;
	my ($ret, $out, $err) = $node->psql(
		$db, qq{
		SELECT string_agg(i || ': ' || a || ' <> ' || b, E'\\n' ORDER BY i)
		FROM (SELECT i, xc.try($run_s) AS a, xc.try($run_ref) AS b
			  FROM (VALUES $values) v(i, q)) x
		WHERE a IS DISTINCT FROM b});
	return "psql failed: $err" if $ret != 0;
	return $err =~ /idgen-trap/ ? "$out\n$err" : $out;
}

sub check_calls
{
	my ($node, $db, $s, $route) = @_;
	is(differences($node, $db, $s), '', "$route: every call of calls.sql (" . scalar(@calls)
		  . ") as in a plain install, with the trap first in each function's path");
	is( $node->safe_psql(
			$db, qq{SELECT count(*) FROM pg_proc WHERE pronamespace = '$s'::regnamespace
			AND prosqlbody IS NULL AND proconfig IS NOT NULL AND NOT proconfig \@> ARRAY['search_path=trap, pg_catalog, $s, pg_temp']}),
		'0', "$route: and every function that pins a path pinned that one");
	is( $node->safe_psql(
			$db, qq{SELECT string_agg(proname, ' ' ORDER BY proname COLLATE "C") FROM pg_proc
			WHERE pronamespace = '$s'::regnamespace AND prosqlbody IS NULL AND proconfig IS NULL}),
		'_distid128_next _distid_dense_next _distid_next _flaxid_next _iuid_at_next _iuid_next',
		"$route: the others are the generators' workers (run with the trap first in the caller's path) or SQL-standard bodies");
	is($node->safe_psql($db, 'SELECT is_called FROM regress_trap.calls'), 'f', "$route: no twin was used");
	return;
}

my $node = PostgreSQL::Test::Cluster->new('trap',
	$ENV{IDGEN_PORTABLE_TLE_INSTALL} ? (install_path => $ENV{IDGEN_PORTABLE_TLE_INSTALL}) : ());
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_tle'") if $ENV{IDGEN_PORTABLE_TLE_INSTALL};
$node->start;

#
# The psql script
#
prepare($node, 'plain');

my $psql_trapped = spew('install_psql_trapped.sql', trapped(slurp("$portable/install_psql.sql")));
my ($ok, $err);
{
	local $ENV{PGOPTIONS} = $trap_path;
	($ok, $err) = psql_file($node, 'plain', undef, $psql_trapped, 'schema=ids');
}
ok($ok && $err !~ /idgen-trap/, 'the psql script installs with the trap first (session and script)') or diag($err);
check_calls($node, 'plain', 'ids', 'psql script');

# complete: every word and operator symbol of the scripts that names a
# function, operator or type of pg_catalog has a twin in the trap
(my $scripts = slurp("$portable/install_psql.sql") . slurp("$portable/install_pg_tle.sql")) =~ s/'/''/g;
is( $node->safe_psql(
		'plain', qq{SELECT coalesce(string_agg(m, ' '), '') FROM regress_trap.missing('trap', '$scripts') m}),
	'', 'every pg_catalog name in the scripts has a twin in the trap');

# seen red: one qualification taken out
my $text = slurp($psql_trapped);
my @breaks = (
	[ 'at install (an operator of the schema check)', 'WHERE n.nspname OPERATOR(pg_catalog.=) s', 'WHERE n.nspname = s' ],
	[ 'in a body (format() of _uuid_syntax_detail)', q{RETURN pg_catalog.format('Expected 32 hexadecimal digits},
		q{RETURN format('Expected 32 hexadecimal digits} ],
	[ 'in a cast (::text in iuid(uuid))', 'IF pg_catalog.substr(id::pg_catalog.text, 15, 1)', 'IF pg_catalog.substr(id::text, 15, 1)' ],
	[ 'the pgcrypto binding (length() in _aes)', 'WHEN NOT (pg_catalog.length(key)', 'WHEN NOT (length(key)' ],
	[ 'in a generator\'s worker, which pins no path (uuid_hash_extended() in _distid128_next)',
		q{fresh_hi := (frac OPERATOR(pg_catalog.<<) 3) OPERATOR(pg_catalog.|) (pg_catalog.uuid_hash_extended(u, 1)},
		q{fresh_hi := (frac OPERATOR(pg_catalog.<<) 3) OPERATOR(pg_catalog.|) (uuid_hash_extended(u, 1)} ],
	[ 'in an inlined extractor (get_byte() in iuid_country)', 'THEN pg_catalog.get_byte(pg_catalog.uuid_send($1), 7)',
		'THEN get_byte(pg_catalog.uuid_send($1), 7)' ]);
for my $i (0 .. $#breaks)
{
	my ($what, $from, $to) = @{ $breaks[$i] };
	my $broken = $text;
	my $at = index($broken, $from);
	BAIL_OUT("break $i: '$from' not in the script") if $at < 0;
	substr($broken, $at, length($from)) = $to;
	my $s = "broken$i";
	{
		local $ENV{PGOPTIONS} = $trap_path;
		($ok, $err) = psql_file($node, 'plain', undef, spew("broken$i.sql", $broken), "schema=$s");
	}
	my ($e) = grep { /ERROR/ } split /\n/, $err;
	my ($hit) = grep { /idgen-trap/ } split /\n/, $err;
	my $red = !$ok ? 'install fails: ' . ($e // $err) : $hit ? "install: $hit" : differences($node, 'plain', $s);
	isnt($red, '', "red with one qualification taken out $what") and diag("$what: " . (split /\n/, $red)[0]);
}

#
# pg_tle
#
SKIP:
{
	skip 'pg_tle: ' . ($ENV{IDGEN_PORTABLE_TLE_SKIP} // 'not available on this server'), 10
	  unless $ENV{IDGEN_PORTABLE_TLE_INSTALL};
	prepare($node, 'tle', 'CREATE EXTENSION pg_tle');
	# the session's path as it is: pg_tle's own SQL (available_extensions())
	# writes LIKE without its schema, which the trap would report; the
	# script pg_tle runs puts the trap first itself
	($ok, $err) = psql_file($node, 'tle', undef, spew('install_pg_tle_trapped.sql', trapped(slurp("$portable/install_pg_tle.sql"))));
	ok($ok && $err !~ /idgen-trap/, 'pg_tle: install_pg_tle.sql registers the trapped script') or diag($err);
	my ($ret, $out);
	($ret, $out, $err) = $node->psql('tle', 'CREATE EXTENSION idgen_portable');
	ok($ret == 0 && $err !~ /idgen-trap/, 'pg_tle: CREATE EXTENSION, the script with the trap first') or diag($err);
	check_calls($node, 'tle', 'idgen_portable', 'pg_tle');
}
$node->stop;

#
# The extension from its control file
#
SKIP:
{
	skip 'no install tree with the trapped extension script (IDGEN_PORTABLE_TRAP_INSTALL)', 9
	  unless $ENV{IDGEN_PORTABLE_TRAP_INSTALL};
	my $file = PostgreSQL::Test::Cluster->new('trapfile', install_path => $ENV{IDGEN_PORTABLE_TRAP_INSTALL});
	$file->init;
	$file->start;
	prepare($file, 'file');
	my ($ret, $out);
	{
		local $ENV{PGOPTIONS} = $trap_path;
		($ret, $out, $err) = $file->psql('file', 'CREATE EXTENSION idgen_portable');
	}
	ok($ret == 0 && $err !~ /idgen-trap/, 'control file: CREATE EXTENSION of the trapped script') or diag($err);
	check_calls($file, 'file', 'idgen_portable', 'control file');
	$file->stop;
}

done_testing();
