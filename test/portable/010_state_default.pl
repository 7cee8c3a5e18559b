# A crafted per-session state (idgen_portable.sql.in, "Per-session
# generator state"): the generators' inlined fast paths read idgp.* without
# the workers' checks (own(), made_of()) and compare it as text.
# distid_generate() with idgp.distid = 'NaN', idgp.distid_e = '9',
# idgp.distid_l = 'z' stays on its fast path, NaN + increment = NaN, and
# the domain check writes NaN back: every call returns NaN.  On a pooled
# connection an ordinary role writes that state after SET ROLE (set_config
# on a placeholder is open to every role); the superuser's calls after
# RESET ROLE must still be three increasing integers.  Likewise a short
# idgp.iuid_at_r for iuid_generate(country, entity, at).  A database
# default is out of an ordinary role's reach on 15 (subtest 1).
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

# iuid_generate(country, entity, at)'s fast path checks idgp.iuid_at_r's
# range as text: a shorter string ('11801439421451468', 17 digits) is
# inside it, and the random field it adds to is then negative.  Two calls
# for one millisecond must give increasing ids of entity 2.
my @u = split / /, $node->safe_psql('d', q{SET ROLE owner;
	SELECT set_config('idgp.iuid_at', '1704067200000', false), set_config('idgp.iuid_at_r', '11801439421451468', false) \gset
	RESET ROLE;
	SELECT string_agg(idgen_portable.iuid_generate(1, 2, '2024-01-01 00:00:00+00')::text, ' ') FROM generate_series(1, 2)});
my @entity = map { (hex(substr($_, 19, 4)) >> 6) & 255 } @u;
ok(@u == 2 && $u[0] lt $u[1] && $entity[0] == 2 && $entity[1] == 2,
	"a crafted idgp.iuid_at_r neither reorders the ids of a millisecond nor changes their entity (@u; entities @entity)");

$node->stop;
done_testing();
