# A superuser installing the SQL edition trusts pgcrypto no more than any
# other installer (attack2 finding E): a superuser is a member of every
# role, so membership is no test of whom to trust.  A pgcrypto whose
# extension or schema belongs to an ordinary role (which could drop it with
# CASCADE, and the edition and what uses it with it) is refused (42501) on
# each route: the psql script, the extension from its control file (also
# through CASCADE, which puts pgcrypto into the first schema of the
# installer's search_path, "$user" when another role created it), pg_tle.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use PortableTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $portable = "$ENV{IDGEN_PORTABLE_ROOT}/portable";
my $refused = qr/ERROR:  idgen_portable does not trust pgcrypto here: it belongs to mallory/;

my $node = PostgreSQL::Test::Cluster->new('superuser');
$node->init;
$node->start;
my $superuser = $node->safe_psql('postgres', 'SELECT current_user');
$node->safe_psql(
	'postgres', q{
	CREATE ROLE mallory LOGIN;
	CREATE DATABASE p2;
	GRANT CREATE ON DATABASE p2 TO mallory;
	CREATE DATABASE p3;
	GRANT CREATE ON DATABASE p3 TO mallory;
});
my $as = sub { my ($n, $db, $user, $sql) = @_; return $n->psql($db, $sql, connstr => $n->connstr($db) . " user=$user"); };
my $installed = sub {
	my ($n, $db) = @_;
	return $n->safe_psql($db,
		q{SELECT (SELECT count(*) FROM pg_extension WHERE extname = 'idgen_portable')
		       + (SELECT count(*) FROM pg_proc WHERE proname = '_aes')});
};

my ($ret, $out, $err) = $as->($node, 'p2', 'mallory', 'CREATE SCHEMA m; CREATE EXTENSION pgcrypto SCHEMA m;');
is($ret, 0, 'an ordinary role with CREATE on the database creates pgcrypto in its own schema') or diag($err);

my ($ok, $perr) = psql_file($node, 'p2', undef, "$portable/install_psql.sql", 'schema=ids');
like($perr, $refused, 'psql script run by a superuser: refused');
($ret, $out, $err) = $node->psql('p2', 'CREATE EXTENSION idgen_portable');
like($err, $refused, 'the extension from its control file, created by a superuser: refused');
is($installed->($node, 'p2'), '0', 'nothing of it is there');

# CASCADE puts pgcrypto into the first schema of the search_path: "$user",
# here the superuser's name, a schema another role created
($ret, $out, $err) = $as->($node, 'p3', 'mallory', qq{CREATE SCHEMA "$superuser"});
is($ret, 0, 'an ordinary role creates a schema named after the superuser') or diag($err);
($ret, $out, $err) = $node->psql('p3', 'CREATE EXTENSION idgen_portable CASCADE');
like($err, $refused, 'CREATE EXTENSION idgen_portable CASCADE by the superuser: pgcrypto in that schema refused');
is( $node->safe_psql('p3', q{SELECT count(*) FROM pg_extension WHERE extname IN ('pgcrypto', 'idgen_portable')}),
	'0', 'neither extension is there');

# What DROP EXTENSION pgcrypto CASCADE takes with the extension (the reason
# for the refusals above; doc/security.md): every object of any role that
# depends on it.  And a key written into such an object is in the catalogs,
# which every role reads (doc/security.md, the key): pg_get_expr shows it.
$node->safe_psql('postgres', 'CREATE ROLE alice LOGIN; CREATE DATABASE p4;');
$node->safe_psql('p4', 'CREATE EXTENSION pgcrypto SCHEMA public; CREATE EXTENSION idgen_portable; GRANT CREATE ON SCHEMA public TO alice;');
($ret, $out, $err) = $as->(
	$node, 'p4', 'alice', q{
	CREATE TABLE public.orders (id bigint PRIMARY KEY,
		pub uuid GENERATED ALWAYS AS (idgen_portable.public_id(id, '\x000102030405060708090a0b0c0d0e0f'::bytea)) STORED,
		d uuid DEFAULT idgen_portable.iuid_generate(1, 1));
	CREATE INDEX orders_pub ON public.orders ((idgen_portable.public_id(id, '\x0f0e0d0c0b0a09080706050403020100'::bytea)));
	INSERT INTO public.orders (id) VALUES (1), (2);
	CREATE VIEW public.v AS SELECT id, idgen_portable.iuid_country(d) FROM public.orders;
	REVOKE ALL ON public.orders FROM PUBLIC;});
is($ret, 0, 'a role\'s table with a generated column, a default, an expression index and a view over the edition') or diag($err);
is( ($as->($node, 'p4', 'mallory', q{SELECT string_agg(pg_get_expr(adbin, adrelid), ' ') FROM pg_attrdef WHERE adrelid = 'public.orders'::regclass}))[1]
	  =~ /\\x000102030405060708090a0b0c0d0e0f/ ? 'key' : 'none',
	'key', 'another role, with no privilege on the table, reads the key written into its generated column');
($ret, $out, $err) = $node->psql('p4', 'DROP EXTENSION pgcrypto CASCADE');
is( $node->safe_psql(
		'p4', q{SELECT (SELECT count(*) FROM pg_extension WHERE extname = 'idgen_portable') || ' '
		|| (SELECT count(*) FROM pg_attribute WHERE attrelid = 'public.orders'::regclass AND attnum > 0 AND NOT attisdropped) || ' '
		|| (SELECT count(*) FROM pg_attrdef WHERE adrelid = 'public.orders'::regclass) || ' '
		|| (SELECT count(*) FROM pg_class WHERE relname IN ('orders_pub', 'v')) || ' '
		|| (SELECT count(*) FROM public.orders)}),
	'0 2 0 0 2',
	'DROP EXTENSION pgcrypto CASCADE drops the edition, the generated column with its data, the default, the index and the view; the rows stay');
$node->stop;

SKIP:
{
	skip 'pg_tle: ' . ($ENV{IDGEN_PORTABLE_TLE_SKIP} // 'not available on this server'), 3
	  unless $ENV{IDGEN_PORTABLE_TLE_INSTALL};
	my $tle = PostgreSQL::Test::Cluster->new('superuser_tle', install_path => $ENV{IDGEN_PORTABLE_TLE_INSTALL});
	$tle->init;
	$tle->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_tle'");
	$tle->start;
	$tle->safe_psql('postgres', 'CREATE ROLE mallory LOGIN; CREATE DATABASE hosted; GRANT CREATE ON DATABASE hosted TO mallory;');
	$tle->safe_psql('hosted', 'CREATE EXTENSION pg_tle');
	($ok, $perr) = psql_file($tle, 'hosted', undef, "$portable/install_pg_tle.sql");
	ok($ok, 'a superuser registers idgen_portable with pg_tle') or diag($perr);
	$as->($tle, 'hosted', 'mallory', 'CREATE SCHEMA m; CREATE EXTENSION pgcrypto SCHEMA m;');
	($ret, $out, $err) = $tle->psql('hosted', 'CREATE EXTENSION idgen_portable');
	like($err, $refused, 'pg_tle, created by the superuser: refused');
	is($installed->($tle, 'hosted'), '0', 'nothing of it is there');
	$tle->stop;
}

done_testing();
