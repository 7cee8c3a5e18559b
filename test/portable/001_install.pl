# The ways to install idgen_portable by a role that is no superuser
# (doc/portable.md; the extension from its control file is in
# 002_crosscheck.pl):
#  - through pg_tle, by a role whose only privileges are pgtle_admin and
#    CREATE on its database, as on a hosted service; then an update to the
#    next version through pg_tle's update path (the next version's scripts
#    made from this source with generate.py --version);
#  - as a plain psql script, by a role that owns its database, into a schema
#    of its choosing, and again as an update; every role may call it;
# and what the script refuses (a schema another role can create objects in).
#
# pg_tle needs a server tree without idgen_portable's control file (it
# refuses an extension name the server has one for): IDGEN_PORTABLE_TLE_INSTALL
# names such a tree, with pg_tle in it, from which the node runs with only
# pg_tle preloaded; unset, the pg_tle part is skipped (tools/test.sh says
# why) and the node runs from the run's tree.

use strict;
use warnings;

use File::Basename;
use File::Temp ();
use FindBin;
use lib $FindBin::RealBin;
use PortableTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $portable = "$ENV{IDGEN_PORTABLE_ROOT}/portable";
my $vectors = q{SELECT %1$s.iuid_country('017f22e2-79b0-802a-8141-23456789abcd') || ' '
	|| %1$s.distid_to_alphanumeric(1088824355131185736905670087) || ' '
	|| to_char(%1$s.flaxid_timestamp('0RdKJcxqVBiAiQr0') AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') || ' '
	|| %1$s.public_id(1088824355131185736905670087::numeric, decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')) || ' '
	|| (%1$s.iuid_generate(1, 2) < %1$s.iuid_generate(1, 2))};
my $vectors_ok = '42 3zfAkCP7ZtzfeQYp 2015-10-15 20:10:25.807 30322474-a954-ffa9-941c-6f038afe4ff1 true';
sub vectors { return sprintf($vectors, $_[0]); }


# One node: from the tree with pg_tle (and without idgen_portable's files)
# where there is one, with only pg_tle preloaded, as on a hosted service
my $node = PostgreSQL::Test::Cluster->new('install',
	$ENV{IDGEN_PORTABLE_TLE_INSTALL} ? (install_path => $ENV{IDGEN_PORTABLE_TLE_INSTALL}) : ());
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_tle'") if $ENV{IDGEN_PORTABLE_TLE_INSTALL};
$node->start;

#
# pg_tle, as a role that is no superuser
#
SKIP:
{
	skip 'pg_tle: ' . ($ENV{IDGEN_PORTABLE_TLE_SKIP} // 'not available on this server'), 19
	  unless $ENV{IDGEN_PORTABLE_TLE_INSTALL};
	my $tle = $node;
	$tle->safe_psql(
		'postgres', q{
		CREATE ROLE app LOGIN;
		CREATE DATABASE hosted;
		GRANT CREATE ON DATABASE hosted TO app;
	});
	$tle->safe_psql('hosted', 'CREATE EXTENSION pg_tle; GRANT pgtle_admin TO app;');
	is( $tle->safe_psql(
			'hosted', q{
			SELECT rolsuper OR rolcreaterole OR rolcreatedb OR rolbypassrls OR rolreplication,
				(SELECT string_agg(b.rolname, ',') FROM pg_auth_members m JOIN pg_roles b ON b.oid = m.roleid
				 WHERE m.member = r.oid)
			FROM pg_roles r WHERE rolname = 'app'}),
		'f|pgtle_admin',
		'the installing role: no superuser or other role attribute, member of pgtle_admin only');

	my ($ok, $err) = psql_file($tle, 'hosted', 'app', "$portable/install_pg_tle.sql");
	ok($ok, 'that role runs install_pg_tle.sql') or diag($err);
	($ok, $err) = psql_file($tle, 'hosted', 'app', "$portable/install_pg_tle.sql");
	ok($ok, 'and again, harmlessly') or diag($err);
	my $app = $tle->connstr('hosted') . ' user=app';
	my ($ret, $out);
	($ret, $out, $err) = $tle->psql('hosted', 'CREATE EXTENSION idgen_portable CASCADE', connstr => $app);
	is($ret, 0, 'CREATE EXTENSION idgen_portable CASCADE, as that role') or diag($err);
	is( $tle->safe_psql(
			'hosted', q{SELECT string_agg(extname || ' ' || extowner::regrole, ', ' ORDER BY extname) FROM pg_extension
			WHERE extname IN ('idgen_portable', 'pgcrypto')}),
		'idgen_portable app, pgcrypto app',
		'idgen_portable and pgcrypto belong to it');
	is($tle->safe_psql('hosted', vectors('idgen_portable'), connstr => $app), $vectors_ok,
		'the SQL edition works there: vectors of SPEC.md, increasing ids');
	($ret, $out, $err) = $tle->psql('hosted', 'CREATE EXTENSION pg_stat_statements', connstr => $app);
	like($err, qr/permission denied|must be superuser|Must be superuser/, 'while a C extension is out of its reach');

	# data whose keys the extension makes, then the update
	$tle->safe_psql(
		'hosted', q{
		CREATE SCHEMA shop;
		CREATE TABLE shop.orders (id uuid PRIMARY KEY DEFAULT idgen_portable.iuid_generate(42, 5), item text);
		CREATE TABLE shop.links (id text COLLATE "C" PRIMARY KEY DEFAULT idgen_portable.flaxid_generate());
		INSERT INTO shop.orders (item) SELECT 'item ' || g FROM generate_series(1, 100) g;
		INSERT INTO shop.links SELECT FROM generate_series(1, 100);
	}, connstr => $app);
	my $current = $tle->safe_psql('hosted', "SELECT extversion FROM pg_extension WHERE extname = 'idgen_portable'");
	my $next = $current =~ /^(\d+)\.(\d+)$/ ? "$1." . ($2 + 1) : "$current.1";
	my $dir = File::Temp::tempdir(DIR => $PostgreSQL::Test::Utils::tmp_check, CLEANUP => 1);
	chmod 0755, $dir;
	system('/usr/bin/python3', "$portable/generate.py", '--version', $next, '--out', $dir) == 0
	  or BAIL_OUT("generate.py --version $next failed");
	($ok, $err) = psql_file($tle, 'hosted', 'app', "$dir/install_pg_tle.sql");
	ok($ok, "the role installs version $next beside $current (install_pg_tle.sql of $next)") or diag($err);
	is( $tle->safe_psql(
			'hosted', q{SELECT string_agg(source || '>' || target || ':' || coalesce(path, '-'), ' ' ORDER BY source)
			FROM pgtle.extension_update_paths('idgen_portable')}),
		"$current>$next:$current--$next $next>$current:-",
		"pg_tle's update path from $current to $next (pgtle.install_update_path)");
	($ret, $out, $err) = $tle->psql('hosted', "ALTER EXTENSION idgen_portable UPDATE TO '$next'", connstr => $app);
	is($ret, 0, "ALTER EXTENSION idgen_portable UPDATE TO '$next', as that role") or diag($err);
	is( $tle->safe_psql(
			'hosted', q{SELECT extversion || ' ' || idgen_portable.idgen_portable_version() FROM pg_extension
			WHERE extname = 'idgen_portable'}),
		"$next $next", "the extension is at $next, and so are its functions");
	$tle->safe_psql(
		'hosted', q{
		INSERT INTO shop.orders (item) SELECT 'item ' || g FROM generate_series(101, 200) g;
		INSERT INTO shop.links SELECT FROM generate_series(1, 100);
	}, connstr => $app);
	is( $tle->safe_psql(
			'hosted', q{
			SELECT count(*) || ' ' || count(*) FILTER (WHERE idgen_portable.iuid_country(id) = 42
				AND idgen_portable.iuid_entity(id) = 5)
				|| ' ' || bool_and(id > ALL (SELECT o.id FROM shop.orders o WHERE o.item IN ('item 1', 'item 100')))
					FILTER (WHERE item = 'item 101')
				|| ' ' || (SELECT count(*) FROM shop.links WHERE idgen_portable.flaxid_timestamp(id) <= now())
			FROM shop.orders}, connstr => $app),
		'200 200 true 200',
		'the tables\' keys and defaults work on across the update');
	is($tle->safe_psql('hosted', vectors('idgen_portable'), connstr => $app), $vectors_ok,
		"version $next gives the vectors");

	# pg_dump and pg_restore into a new database, by a superuser (the dump
	# creates pg_tle, which needs one): the schema comes back as the
	# installer's, the script accepts it for the restoring superuser
	my $dump = "$dir/hosted.dump";
	$tle->command_ok([ 'pg_dump', '-Fc', '-f', $dump, '-d', $tle->connstr('hosted') ], 'pg_dump of that database');
	$tle->safe_psql('postgres', 'CREATE DATABASE restored');
	$tle->command_ok([ 'pg_restore', '--exit-on-error', '-d', $tle->connstr('restored'), $dump ],
		'pg_restore into a new database, as a superuser');
	is( $tle->safe_psql(
			'restored', q{SELECT e.extversion || ' ' || (SELECT rolsuper FROM pg_roles WHERE oid = e.extowner)
			|| ' ' || n.nspowner::regrole FROM pg_extension e
			JOIN pg_namespace n ON n.nspname = 'idgen_portable' WHERE e.extname = 'idgen_portable'}),
		"$current true app",
		"the extension is there at pg_tle's default version $current (the dump names none), the restoring superuser's, in the installer's schema");
	$tle->safe_psql('restored', "ALTER EXTENSION idgen_portable UPDATE TO '$next'");
	is( $tle->safe_psql(
			'restored', q{SELECT extversion || ' ' || idgen_portable.idgen_portable_version() FROM pg_extension
			WHERE extname = 'idgen_portable'}),
		"$next $next", "ALTER EXTENSION idgen_portable UPDATE TO '$next' brings it back to the dumped version");
	is($tle->safe_psql('restored', vectors('idgen_portable'), connstr => $tle->connstr('restored') . ' user=app'),
		$vectors_ok, 'it gives the vectors');
	is( $tle->safe_psql(
			'restored', q{INSERT INTO shop.orders (item) VALUES ('restored') RETURNING idgen_portable.iuid_country(id) = 42
			AND id > (SELECT max(id::text)::uuid FROM shop.orders WHERE item <> 'restored')},
			connstr => $tle->connstr('restored') . ' user=app'),
		't', 'and the tables take new ids from their defaults, above the restored ones');
}

#
# The plain script
#
$node->safe_psql(
	'postgres', q{
	CREATE ROLE owner LOGIN;
	CREATE ROLE other LOGIN;
	CREATE DATABASE plain OWNER owner;
});
my $owner = $node->connstr('plain') . ' user=owner';
# pgcrypto is a trusted extension: the owner of a database may create it
$node->safe_psql('plain', 'CREATE EXTENSION pgcrypto', connstr => $owner);

my ($ok, $err) = psql_file($node, 'plain', 'owner', "$portable/install_psql.sql", 'schema=ids');
ok($ok, 'install_psql.sql, by the owner of a database, into a schema it names (ids)') or diag($err);
is($node->safe_psql('plain', vectors('ids'), connstr => $owner), $vectors_ok, 'the SQL edition works there');
is($node->safe_psql('plain', vectors('ids'), connstr => $node->connstr('plain') . ' user=other'), $vectors_ok,
	'for every role of the database');
my $count = q{SELECT count(*) FROM pg_proc WHERE pronamespace = 'ids'::regnamespace};
my $before = $node->safe_psql('plain', $count);
($ok, $err) = psql_file($node, 'plain', 'owner', "$portable/install_psql.sql", 'schema=ids');
ok($ok, 'run again, it updates in place') or diag($err);
is($node->safe_psql('plain', $count), $before, "with the same $before functions");
is($node->safe_psql('plain', 'SHOW search_path', connstr => $owner), '"$user", public',
	'and leaves the session\'s search_path as it was');

# refused: a schema another role can create objects in (its functions
# would find that role's objects), public included
$node->safe_psql('plain', 'CREATE SCHEMA shared; GRANT CREATE ON SCHEMA shared TO other;', connstr => $owner);
for my $schema ('public', 'shared')
{
	($ok, $err) = psql_file($node, 'plain', 'owner', "$portable/install_psql.sql", "schema=$schema");
	like($err, qr/ERROR:  idgen_portable must be installed into a schema of its own/,
		"refused into schema $schema");
	is( $node->safe_psql(
			'plain', "SELECT count(*) FROM pg_proc WHERE pronamespace = '$schema'::regnamespace
			AND proname IN ('idgen_portable_version', 'iuid_generate', '_units')"),
		'0', "and nothing of it is left in $schema");
}

$node->stop;
done_testing();
