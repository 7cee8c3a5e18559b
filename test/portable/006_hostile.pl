# What an ordinary role can do to the SQL edition (issue 38), each attack
# played as the issue describes it:
#  - finding 2: a role that created pgcrypto in its own schema renames that
#    schema after the install and puts SECURITY DEFINER look-alikes of
#    encrypt()/decrypt() under the old name, to collect every caller's key:
#    the install refuses a pgcrypto that such a role owns;
#  - and where pgcrypto is the installer's, renaming its schema and putting
#    look-alikes in its place changes nothing: _aes is bound to pgcrypto's
#    functions by OID;
#  - DROP EXTENSION pgcrypto refuses while the edition uses it; with CASCADE
#    it drops what uses it (_aes for the psql script; the extension, and the
#    column defaults that call it, through pg_tle);
#  - finding 3: after a pgtle_admin member registers idgen_portable, a role
#    with only CREATE on the database creates the extension first, to own
#    its functions: refused;
#  - the session's state: readable, after SET ROLE, by the next role of a
#    pooled connection (the limitation doc/portable.md states), gone after
#    RESET ALL and DISCARD ALL.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use PortableTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $portable = "$ENV{IDGEN_PORTABLE_ROOT}/portable";
my $key = q{'\x000102030405060708090a0b0c0d0e0f'::bytea};


my $node = PostgreSQL::Test::Cluster->new('hostile',
	$ENV{IDGEN_PORTABLE_TLE_INSTALL} ? (install_path => $ENV{IDGEN_PORTABLE_TLE_INSTALL}) : ());
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_tle'") if $ENV{IDGEN_PORTABLE_TLE_INSTALL};
$node->start;
$node->safe_psql(
	'postgres', q{
	CREATE ROLE owner LOGIN;
	CREATE ROLE mallory LOGIN;
	CREATE ROLE victim LOGIN;
});
my $as = sub { my ($db, $user, $sql) = @_; return $node->psql($db, $sql, connstr => $node->connstr($db) . " user=$user"); };

# look-alikes of encrypt() and decrypt() in schema $s that keep the key in
# $s.loot and call the originals, now in $old
sub lookalikes
{
	my ($s, $old) = @_;
	return qq{
	CREATE SCHEMA $s;
	GRANT USAGE ON SCHEMA $s TO PUBLIC;
	CREATE TABLE $s.loot (k bytea);
	CREATE FUNCTION $s.encrypt(bytea, bytea, text) RETURNS bytea LANGUAGE sql SECURITY DEFINER
		AS \$\$ INSERT INTO $s.loot VALUES (\$2); SELECT $old.encrypt(\$1, \$2, \$3) \$\$;
	CREATE FUNCTION $s.decrypt(bytea, bytea, text) RETURNS bytea LANGUAGE sql SECURITY DEFINER
		AS \$\$ INSERT INTO $s.loot VALUES (\$2); SELECT $old.decrypt(\$1, \$2, \$3) \$\$;
	GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA $s TO PUBLIC;};
}

# the vector of SPEC.md for public_id(numeric) and a round trip of a bigint
my $calls = qq{SELECT ids.public_id(1088824355131185736905670087::numeric, decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64'))
	|| ' ' || ids.public_id_to_bigint(ids.public_id(42::bigint, $key), $key)};
my $calls_ok = '30322474-a954-ffa9-941c-6f038afe4ff1 42';

#
# Finding 2: pgcrypto in a schema of an ordinary role
#
$node->safe_psql(
	'postgres', q{
	CREATE DATABASE f2 OWNER owner;
	GRANT CREATE ON DATABASE f2 TO mallory;
});
my ($ret, $out, $err) = $as->('f2', 'mallory', 'CREATE SCHEMA m; CREATE EXTENSION pgcrypto SCHEMA m;');
is($ret, 0, 'an ordinary role with CREATE on the database creates pgcrypto in its own schema') or diag($err);
my ($ok, $perr) = psql_file($node, 'f2', 'owner', "$portable/install_psql.sql", 'schema=ids');
like($perr, qr/ERROR:  idgen_portable does not trust pgcrypto here: it belongs to mallory/,
	'the install refuses that pgcrypto (it belongs to another role)');
# the attack, played on: rename, look-alikes, a victim's call
($ret, $out, $err) = $as->('f2', 'mallory', 'ALTER SCHEMA m RENAME TO m_old;' . lookalikes('m', 'm_old'));
is($ret, 0, 'the role renames its schema and puts look-alikes under the old name') or diag($err);
$as->('f2', 'victim', $calls);
is($node->safe_psql('f2', 'SELECT count(*) FROM m.loot'), '0', 'no key reaches the look-alikes');

#
# pgcrypto of the installer: its schema renamed and replaced
#
$node->safe_psql('postgres', 'CREATE DATABASE f2b OWNER owner');
($ret, $out, $err) = $as->('f2b', 'owner', 'CREATE SCHEMA c; CREATE EXTENSION pgcrypto SCHEMA c;');
($ok, $perr) = psql_file($node, 'f2b', 'owner', "$portable/install_psql.sql", 'schema=ids');
ok($ok, 'with pgcrypto of the installer, the install runs') or diag($perr);
is(($as->('f2b', 'victim', $calls))[1], $calls_ok, 'public ids: the vector of SPEC.md, a round trip');
($ret, $out, $err) = $as->('f2b', 'owner', 'ALTER SCHEMA c RENAME TO c_old;' . lookalikes('c', 'c_old'));
is($ret, 0, 'pgcrypto\'s schema renamed, look-alikes under its old name') or diag($err);
is(($as->('f2b', 'victim', $calls))[1], $calls_ok, 'public ids: the same');
is($node->safe_psql('f2b', 'SELECT count(*) FROM c.loot'), '0',
	'and no call reaches the look-alikes: _aes is bound to pgcrypto\'s functions, not to their names');

# DROP EXTENSION pgcrypto
($ret, $out, $err) = $as->('f2b', 'owner', 'DROP EXTENSION pgcrypto');
like($err, qr/cannot drop extension pgcrypto because other objects depend on it.*function ids\._aes/s,
	'DROP EXTENSION pgcrypto refuses: _aes depends on it');
($ret, $out, $err) = $as->('f2b', 'owner', 'DROP EXTENSION pgcrypto CASCADE');
like($err, qr/drop cascades to function ids\._aes.*drop cascades to function ids\.public_id\(numeric,bytea\)/s,
	'with CASCADE it drops _aes, and the public ids bound to it');
($ret, $out, $err) = $as->('f2b', 'victim', $calls);
like($err, qr/function ids\.public_id\(numeric, bytea\) does not exist/,
	'so public ids fail until pgcrypto is back and the script run again');
$as->('f2b', 'owner', 'CREATE EXTENSION pgcrypto SCHEMA c_old');
($ok, $perr) = psql_file($node, 'f2b', 'owner', "$portable/install_psql.sql", 'schema=ids');
is(($as->('f2b', 'victim', $calls))[1], $calls_ok, 'which brings them back');

#
# The session's state and SET ROLE
#
$node->safe_psql(
	'postgres', q{
	CREATE ROLE alice;
	CREATE ROLE bob;
	CREATE ROLE pooler LOGIN;
	GRANT alice, bob TO pooler;
});
is(($as->(
	'f2b', 'pooler', q{
	SET ROLE alice;
	SELECT ids.iuid_generate(1, 2) AS id \gset
	RESET ROLE;
	SET ROLE bob;
	SELECT current_setting('idgp.iuid') = replace(:'id', '-', '');
	RESET ALL;
	SELECT current_setting('idgp.iuid', true) IS NULL OR current_setting('idgp.iuid', true) = '';
	SELECT ids.iuid_generate(1, 2) IS NOT NULL;
	DISCARD ALL;
	SELECT current_setting('idgp.iuid', true) IS NULL OR current_setting('idgp.iuid', true) = '';
}))[1], "t\nt\nt\nt",
	'after SET ROLE, the next role of the session reads the last id (stated); RESET ALL and DISCARD ALL erase it');
# and writes it (attack2 finding G, stated in doc/security.md): a malformed
# value is ignored (the id is from the clock); a chosen one places its ids
is(($as->(
	'f2b', 'pooler', q{
	SET ROLE alice;
	SELECT set_config('idgp.iuid', 'zzzz', false) IS NULL;
	RESET ROLE;
	SET ROLE bob;
	SELECT ids.iuid_generate(42, 5) AS id \gset
	SELECT abs(('x' || substr(replace(:'id', '-', ''), 1, 12))::bit(48)::bigint - (extract(epoch FROM clock_timestamp()) * 1000)::bigint) < 1000
		AND current_setting('idgp.iuid') = replace(:'id', '-', '');
}))[1], "f\nt", 'the previous role writes the state: a malformed value is ignored, the next role\'s id is from the clock');
is(($as->(
	'f2b', 'pooler', q{
	SET ROLE alice;
	SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint + 900 AS ms \gset
	SELECT set_config('idgp.iuid', lpad(to_hex((:ms::bigint << 16) | 32810), 16, '0') || to_hex(-9223372036854775808 | (5::bigint << 54)), false) IS NULL;
	RESET ROLE;
	SET ROLE bob;
	SELECT ids.iuid_generate(42, 5) AS id \gset
	SELECT ('x' || substr(replace(:'id', '-', ''), 1, 12))::bit(48)::bigint = :ms
		AND ('x' || substr(current_setting('idgp.iuid'), 17, 16))::bit(64)::bigint & 18014398509481983 <= 4294967296;
}))[1], "f\nt",
	'a chosen value: the next role\'s id is in the millisecond the previous role chose, its random field counted on from the value it chose');

#
# A fresh-eye attack (branch atk6, on 9ff1339): objects another role made
# in the schema while it could create there (public as PostgreSQL 14 and
# earlier made it, hardened since as CVE-2018-1058 advises) were kept by
# the install, and overloads that match a call better than the edition's
# helpers ran as the caller (a superuser: "pwned"); red before the fix:
# the install ran.  And running the script again granted USAGE to PUBLIC
# again after a REVOKE (red before: bob generated).
#
$node->safe_psql(
	'postgres', q{
	CREATE DATABASE legacy OWNER owner;
	CREATE ROLE carol LOGIN;
});
$node->safe_psql(
	'legacy', q{
	ALTER SCHEMA public OWNER TO owner;
	GRANT CREATE ON SCHEMA public TO PUBLIC;
	CREATE EXTENSION pgcrypto SCHEMA public;
});
($ret, $out, $err) = $as->(
	'legacy', 'carol', q{
	CREATE FUNCTION public._base62(v bigint, width int) RETURNS text LANGUAGE sql AS $$ SELECT 'pwned' $$;});
is($ret, 0, 'while public is writable, another role makes a better-matching overload of a helper') or diag($err);
$node->safe_psql('legacy', 'REVOKE CREATE ON SCHEMA public FROM PUBLIC');
($ok, $perr) = psql_file($node, 'legacy', 'owner', "$portable/install_psql.sql", 'schema=public');
like($perr, qr/ERROR:  idgen_portable must be installed into a schema of its own\nDETAIL:  Schema public holds function _base62\(bigint,integer\), which belongs to role carol/,
	'the install refuses the schema once it is no longer writable: it holds an object of another role');
is($node->safe_psql('legacy', q{SELECT count(*) FROM pg_proc WHERE proname = 'bigint_to_alphanumeric'}), '0', 'and installs nothing');
($ret, $out, $err) = $as->('legacy', 'carol', 'CREATE SCHEMA c; ALTER FUNCTION public._base62(bigint, int) SET SCHEMA c');
isnt($ret, 0, 'the other role cannot move it out of the schema by itself (no CREATE there now)');
$node->safe_psql('legacy', 'ALTER FUNCTION public._base62(bigint, int) OWNER TO owner');
($ok, $perr) = psql_file($node, 'legacy', 'owner', "$portable/install_psql.sql", 'schema=public');
ok($ok, 'owned by the schema\'s owner, the same object is no refusal') or diag($perr);

# (branch atk7, on baa93cd) a role with CREATE on the database creates a
# trusted extension in the schema after the install (core checks no
# privilege on the schema): the update refused, naming it; its objects
# belong to the superuser its script ran as, and are looked at each
SKIP:
{
	skip 'no trusted extension citext on this server', 2
	  unless $node->safe_psql('legacy', q{SELECT count(*) FROM pg_available_extensions WHERE name = 'citext'});
	$node->safe_psql('legacy', 'GRANT CREATE ON DATABASE legacy TO carol');
	($ret, $out, $err) = $as->('legacy', 'carol', 'CREATE EXTENSION citext SCHEMA public');
	is($ret, 0, 'a role with CREATE on the database creates a trusted extension in the schema, having no CREATE on it') or diag($err);
	($ok, $perr) = psql_file($node, 'legacy', 'owner', "$portable/install_psql.sql", 'schema=public');
	ok($ok, 'the script runs again to update: the extension\'s objects are the superuser\'s') or diag($perr);
}

$node->safe_psql('postgres', 'CREATE DATABASE regrant OWNER owner');
($ret, $out, $err) = $as->('regrant', 'owner', 'CREATE SCHEMA c; CREATE EXTENSION pgcrypto SCHEMA c;');
($ok, $perr) = psql_file($node, 'regrant', 'owner', "$portable/install_psql.sql", 'schema=ids');
ok($ok, 'installed into a new schema') or diag($perr);
is(($as->('regrant', 'victim', 'SELECT ids.iuid_generate(1, 2) IS NOT NULL'))[1], 't', 'every role may call it');
$as->('regrant', 'owner', 'REVOKE USAGE ON SCHEMA ids FROM PUBLIC; GRANT USAGE ON SCHEMA ids TO carol;');
($ok, $perr) = psql_file($node, 'regrant', 'owner', "$portable/install_psql.sql", 'schema=ids');
ok($ok, 'the script run again, to update') or diag($perr);
is( $node->safe_psql('regrant', q{SELECT array_to_string(ARRAY(SELECT a.grantee::regrole::text || ':' || a.privilege_type
		FROM pg_namespace n, aclexplode(n.nspacl) a WHERE n.nspname = 'ids' ORDER BY 1), ' ')}),
	'carol:USAGE owner:CREATE owner:USAGE', 'the schema\'s privileges are as they were set');
($ret, $out, $err) = $as->('regrant', 'victim', 'SELECT ids.iuid_generate(1, 2)');
like($err, qr/permission denied for schema ids/, 'a role the REVOKE left out still cannot call it');

#
# pg_tle: finding 3, and DROP EXTENSION pgcrypto CASCADE
#
SKIP:
{
	skip 'pg_tle: ' . ($ENV{IDGEN_PORTABLE_TLE_SKIP} // 'not available on this server'), 8
	  unless $ENV{IDGEN_PORTABLE_TLE_INSTALL};
	$node->safe_psql(
		'postgres', q{
		CREATE ROLE app LOGIN;
		CREATE DATABASE hosted;
		GRANT CREATE ON DATABASE hosted TO app, mallory;
	});
	$node->safe_psql('hosted', 'CREATE EXTENSION pg_tle; GRANT pgtle_admin TO app;');
	($ok, $perr) = psql_file($node, 'hosted', 'app', "$portable/install_pg_tle.sql");
	ok($ok, 'a pgtle_admin member registers idgen_portable') or diag($perr);
	($ret, $out, $err) = $as->('hosted', 'mallory', 'CREATE EXTENSION idgen_portable CASCADE');
	like($err, qr/ERROR:  only a member of pgtle_admin may create idgen_portable through pg_tle/,
		'a role with CREATE on the database only cannot create it first');
	is($node->safe_psql('hosted', q{SELECT count(*) FROM pg_extension WHERE extname = 'idgen_portable'}),
		'0', 'nothing of it is left');
	# what it would have done: own the functions, replace public_id
	($ret, $out, $err) = $as->(
		'hosted', 'mallory', q{
		CREATE OR REPLACE FUNCTION idgen_portable.public_id(id bigint, key bytea) RETURNS uuid
			LANGUAGE sql AS $$ SELECT NULL::uuid $$});
	isnt($ret, 0, 'so it cannot replace public_id()');
	($ret, $out, $err) = $as->('hosted', 'app', 'CREATE EXTENSION idgen_portable CASCADE');
	is($ret, 0, 'the pgtle_admin member creates it') or diag($err);
	is( $node->safe_psql(
			'hosted', q{SELECT extowner::regrole FROM pg_extension WHERE extname = 'idgen_portable'}),
		'app', 'and owns it');

	# DROP EXTENSION pgcrypto, with a table whose default calls the edition
	$as->('hosted', 'app',
		'CREATE SCHEMA shop; CREATE TABLE shop.orders (id uuid PRIMARY KEY DEFAULT idgen_portable.iuid_generate(1, 2));'
		  . ' INSERT INTO shop.orders DEFAULT VALUES;');
	($ret, $out, $err) = $as->('hosted', 'app', 'DROP EXTENSION pgcrypto');
	like($err, qr/cannot drop extension pgcrypto because other objects depend on it/,
		'DROP EXTENSION pgcrypto refuses while idgen_portable is there');
	($ret, $out, $err) = $as->('hosted', 'app', 'DROP EXTENSION pgcrypto CASCADE');
	is( $node->safe_psql(
			'hosted', q{SELECT (SELECT count(*) FROM pg_extension WHERE extname = 'idgen_portable') || ' '
			|| (SELECT count(*) FROM pg_attrdef WHERE adrelid = 'shop.orders'::regclass) || ' '
			|| (SELECT count(*) FROM shop.orders)}),
		'0 0 1', 'with CASCADE it drops idgen_portable and the column default that calls it, the rows stay');
}

$node->stop;
done_testing();
