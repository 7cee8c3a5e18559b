# idgen_check_worker_ids() masks a password in the connection strings it
# shows (doc/reference.md: "a password is masked in node").  libpq decodes
# the percent-escapes of a URI's query, keywords included, so
# "pass%77ord=..." is the password parameter; the masking's regular
# expressions look for the literal word "password" and show it.  Found by
# branch atk4 at 7d6761c: node came back as
#   1: postgresql:///postgres?host=...&port=...&pass%77ord=SECRET1
# with worker_id 7 (the server was reached: libpq took the string).  Now a
# URI shows no parameter value but those of host, hostaddr, port, dbname
# and user.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = start_idgen_node('mask', 'idgen.worker_id = 7');
my ($ret) = $node->psql('postgres', 'CREATE EXTENSION dblink');
if ($ret != 0)
{
	$node->stop;
	plan skip_all => 'no dblink (contrib) on this server';
}
my ($host, $port) = ($node->host, $node->port);

# the same connection, the password keyword spelled plainly (masked today)
# and with one letter percent-encoded (%77 is "w", RFC 3986)
for my $case (
	[ 'plain keyword',   "postgresql:///postgres?host=$host&port=$port&password=SECRET1" ],
	[ 'encoded keyword', "postgresql:///postgres?host=$host&port=$port&pass%77ord=SECRET1" ],
	[ 'encoded first letter', "postgresql:///postgres?host=$host&port=$port&%70assword=SECRET1" ])
{
	my ($name, $conninfo) = @$case;
	my $out = $node->safe_psql('postgres',
		"SELECT worker_id || ' ' || node FROM idgen_check_worker_ids(ARRAY['$conninfo'])");
	like($out, qr/^7 /, "$name: the server was reached (libpq took the string)");
	unlike($out, qr/SECRET1/, "$name: the password is not shown");
}

$node->stop;
done_testing();
