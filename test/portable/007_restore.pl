# A dump of the SQL edition restored into a database where another role
# prepared look-alikes of pgcrypto's functions beforehand (issue 38,
# attack.md finding B), played as found: mallory, with CREATE on the new
# database and on its public schema, creates pgcrypto in a schema of her
# own and SECURITY DEFINER public.encrypt()/public.decrypt() that keep the
# key and call hers; a superuser restores.
#  - the psql script's install: its dump names pgcrypto's functions as
#    public.encrypt()/decrypt(); restored with ON_ERROR_STOP (as pg_dump's
#    documentation advises) the restore fails at _aes, and restored carrying
#    on after errors _aes is not created: public ids fail, no key is kept;
#    the noisier variant (look-alikes only, no pgcrypto) the same;
#    installing again, as the superuser, refuses mallory's pgcrypto (a
#    superuser trusts no other role's, attack2 finding E); restored into a
#    new, empty database the edition works;
#  - the extension from its control file: CREATE EXTENSION runs the script
#    again, which refuses mallory's pgcrypto: public ids fail, no key is
#    kept either.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IPC::Run ();
use PortableTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $portable = "$ENV{IDGEN_PORTABLE_ROOT}/portable";
my $call = q{SELECT idgen_portable.public_id(42::bigint, '\x000102030405060708090a0b0c0d0e0f')};

my $node = PostgreSQL::Test::Cluster->new('restore');
$node->init;
$node->start;
$node->safe_psql('postgres', 'CREATE ROLE mallory LOGIN; CREATE ROLE alice LOGIN;');

# a database prepared by mallory as attack.md has it; $with_pgcrypto: her
# own pgcrypto in her schema m (else only the look-alikes, calling nothing)
sub prepare
{
	my ($db, $with_pgcrypto) = @_;
	$node->safe_psql('postgres', "CREATE DATABASE $db; GRANT CREATE ON DATABASE $db TO mallory;");
	$node->safe_psql($db, 'GRANT CREATE ON SCHEMA public TO mallory;');
	my $inner = sub { return $with_pgcrypto ? "RETURN m.$_[0](d, k, t)" : 'RETURN d'; };
	my ($ret, $out, $err) = $node->psql(
		$db, qq{
		CREATE SCHEMA m;
		@{[ $with_pgcrypto ? 'CREATE EXTENSION pgcrypto SCHEMA m;' : '' ]}
		CREATE TABLE m.loot(k bytea, who name, at timestamptz DEFAULT now());
		GRANT USAGE ON SCHEMA m TO PUBLIC;
		CREATE FUNCTION public.encrypt(d bytea, k bytea, t text) RETURNS bytea LANGUAGE plpgsql SECURITY DEFINER
			SET search_path = pg_catalog AS \$\$ BEGIN INSERT INTO m.loot(k, who) VALUES (k, session_user); @{[ $inner->('encrypt') ]}; END \$\$;
		CREATE FUNCTION public.decrypt(d bytea, k bytea, t text) RETURNS bytea LANGUAGE plpgsql SECURITY DEFINER
			SET search_path = pg_catalog AS \$\$ BEGIN INSERT INTO m.loot(k, who) VALUES (k, session_user); @{[ $inner->('decrypt') ]}; END \$\$;},
		connstr => $node->connstr($db) . ' user=mallory',
		on_error_stop => 1);
	is($ret, 0, "mallory prepares $db") or diag($err);
	return;
}

# psql -f DUMP into DB as the superuser; $stop: with ON_ERROR_STOP
sub restore
{
	my ($db, $dump, $stop) = @_;
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run([ 'psql', '-X', '-q', ($stop ? ('-v', 'ON_ERROR_STOP=1') : ()), '-d', $node->connstr($db), '-f', $dump ],
		'>', \$out, '2>', \$err);
	return ($ok, $err);
}

sub loot { return $node->safe_psql($_[0], 'SELECT count(*) FROM m.loot'); }

my $dir = PostgreSQL::Test::Utils::tempdir();

#
# the psql script's install
#
$node->safe_psql('postgres', 'CREATE DATABASE t3');
$node->safe_psql('t3', 'CREATE EXTENSION pgcrypto');
my ($ok, $err) = psql_file($node, 't3', undef, "$portable/install_psql.sql");
ok($ok, 'install_psql.sql into t3') or diag($err);
my $expected = $node->safe_psql('t3', $call);
$node->command_ok([ 'pg_dump', '-d', $node->connstr('t3'), '-f', "$dir/t3.sql" ], 'pg_dump of t3');

prepare('t5', 1);
($ok, $err) = restore('t5', "$dir/t3.sql", 1);
ok(!$ok, 'restore with ON_ERROR_STOP: fails') or diag($err);
like($err, qr/does not trust function public\.encrypt\(bytea,bytea,text\): it is not pgcrypto's/, '... at _aes, naming the look-alike');
my ($ret, $out);
($ret, $out, $err) = $node->psql('t5', $call, connstr => $node->connstr('t5') . ' user=alice');
isnt($out, $expected, 'alice gets no public id there');
is(loot('t5'), '0', '... and mallory no key');

prepare('t6', 1);
($ok, $err) = restore('t6', "$dir/t3.sql", 0);
like($err, qr/does not trust function public\.encrypt/, 'restore carrying on after errors: the error is reported');
($ret, $out, $err) = $node->psql('t6', $call, connstr => $node->connstr('t6') . ' user=alice');
isnt($ret, 0, 'a public id fails there') ;
like($err, qr/function idgen_portable\.public_id\(bigint, unknown\) does not exist/,
	'... for want of _aes, to which public_id() is bound: it was not restored either');
is(loot('t6'), '0', '... and mallory gets no key');
# installing again, as the superuser: mallory's pgcrypto (in her schema m)
# is refused, a superuser's install trusting no other role's
($ok, $err) = psql_file($node, 't6', undef, "$portable/install_psql.sql");
like($err, qr/does not trust pgcrypto here: it belongs to mallory/, 'installing again there, as the superuser: refused');
($ret, $out, $err) = $node->psql('t6', $call, connstr => $node->connstr('t6') . ' user=alice');
isnt($ret, 0, '... public ids still fail');
is(loot('t6'), '0', '... and mallory gets no key');

# the noisier variant: look-alikes only, no pgcrypto
prepare('t7', 0);
($ok, $err) = restore('t7', "$dir/t3.sql", 0);
like($err, qr/function "?encrypt"? already exists/, 'noisier variant: CREATE EXTENSION pgcrypto fails');
like($err, qr/does not trust function public\.encrypt/, '... and so does _aes');
($ret, $out, $err) = $node->psql('t7', $call, connstr => $node->connstr('t7') . ' user=alice');
isnt($ret, 0, 'a public id fails there');
is(loot('t7'), '0', '... and mallory gets no key');

# into a new, empty database: as before
$node->safe_psql('postgres', 'CREATE DATABASE t8');
($ok, $err) = restore('t8', "$dir/t3.sql", 1);
ok($ok, 'restore into a new, empty database') or diag($err);
is($node->safe_psql('t8', $call, connstr => $node->connstr('t8') . ' user=alice'), $expected, '... gives the same public ids');
($ok, $err) = psql_file($node, 't8', undef, "$portable/install_psql.sql");
ok($ok, '... and install_psql.sql runs again there') or diag($err);

#
# the extension from its control file
#
$node->safe_psql('postgres', 'CREATE DATABASE e3');
$node->safe_psql('e3', 'CREATE SCHEMA idgen_portable; CREATE EXTENSION idgen_portable SCHEMA idgen_portable CASCADE');
is($node->safe_psql('e3', $call), $expected, 'the extension, in e3: the same public id');
$node->command_ok([ 'pg_dump', '-d', $node->connstr('e3'), '-f', "$dir/e3.sql" ], 'pg_dump of e3');
for my $stop (1, 0)
{
	my $db = $stop ? 'e5' : 'e6';
	prepare($db, 1);
	($ok, $err) = restore($db, "$dir/e3.sql", $stop);
	like($err, qr/does not trust pgcrypto here: it belongs to mallory/,
		"extension restored into $db (ON_ERROR_STOP " . ($stop ? 'on' : 'off') . '): its script refuses mallory\'s pgcrypto');
	($ret, $out, $err) = $node->psql($db, $call, connstr => $node->connstr($db) . ' user=alice');
	isnt($ret, 0, '... public ids fail');
	is(loot($db), '0', '... and mallory gets no key');
}

done_testing();
