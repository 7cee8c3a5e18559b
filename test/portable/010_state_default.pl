# A state the session did not write must be ignored (idgen_portable.sql.in,
# "Per-session generator state"; doc/portable.md).  distid_generate()'s
# inlined fast path reads idgp.distid, idgp.distid_e and idgp.distid_l
# without the worker's own() check and compares them as text, so a default
# that a database owner (an ordinary role) sets with ALTER DATABASE ... SET
# reaches every session of that database, a superuser's included.  With
# idgp.distid = 'NaN' (NaN + increment = NaN, written back by the domain
# check) every call returns the same value.  Here the superuser's three
# calls must be three increasing integers, in a database whose owner set
# that state as its default, and in a session that set it itself.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('statedefault');
$node->init;
$node->start;
$node->safe_psql('postgres', q{CREATE ROLE owner LOGIN; CREATE DATABASE d OWNER owner;});
$node->safe_psql('d', q{CREATE EXTENSION idgen_portable CASCADE;});
# PostgreSQL 15 and later refuse a non-superuser's ALTER DATABASE ... SET
# of a placeholder (42501), so a default is the superuser's own doing
my ($ret, $out, $err) = $node->psql('d', q{ALTER DATABASE d SET idgp.distid = 'NaN';},
	connstr => $node->connstr('d') . ' user=owner');
like($err, qr/permission denied to set parameter "idgp.distid"/, 'the database owner cannot set a default of idgp.*');

my $calls = q{SELECT string_agg(idgen_portable.distid_generate()::text, ' ') FROM generate_series(1, 3)};
# three ids, each an integer of 1..28 digits above the one before
sub increasing_integers
{
	my @v = split / /, shift;
	return 0 unless @v == 3;
	for my $i (0 .. 2)
	{
		return 0 unless $v[$i] =~ /^[0-9]{1,28}$/;
		return 0 if $i > 0 && $v[$i] <= $v[$i - 1];
	}
	return 1;
}

# a pooled connection: an ordinary role, after SET ROLE, writes the
# session's state (set_config on a placeholder is open to every role);
# the superuser's calls after RESET ROLE follow it
my $ids = $node->safe_psql('d', q{SET ROLE owner;
	SELECT set_config('idgp.distid', 'NaN', false), set_config('idgp.distid_e', '9', false),
		set_config('idgp.distid_l', 'z', false) \gset
	RESET ROLE;
} . $calls);
ok(increasing_integers($ids), "a state another role crafted in the session repeats no id: three increasing ids ($ids)");

# the same kind of state for distid_generate_dense(), whose worker checks
# that the state is digits (made_of) before it follows it
$ids = $node->safe_psql('d', q{SET ROLE owner;
	SELECT set_config('idgp.dense', 'NaN', false) \gset
	RESET ROLE;
	SELECT string_agg(idgen_portable.distid_generate_dense()::text, ' ') FROM generate_series(1, 3)});
ok(increasing_integers($ids), "distid_generate_dense() ignores that state: three increasing ids ($ids)");

$node->stop;
done_testing();
