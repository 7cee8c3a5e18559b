# iuid_generate(country, entity, at) of the SQL edition keeps its state in
# the session settings idgp.iuid_at (the walk's millisecond), idgp.iuid_at_b
# (where it began) and idgp.iuid_at_r (its last random field plus 10^17).  On a
# pool that hands one session to several roles, doc/security.md says the
# previous role can make the next one's ids "in a millisecond it chose, up
# to one second ahead".  For the at variant no bound applies: any state
# whose [began, ms] holds at is continued, so a role that writes began 0,
# millisecond 281474976710655 (on main's scripts of 7d6761c, the state
# "PID,0,281474976710655,0" of idgen_portable.iuid_at) makes the next role's
# iuid_generate(1, 2, '2026-01-01 00:00:00+00') return an id of
# 10889-08-02 05:31:50.655 UTC (ffffffff-ffff-8001-...), 8863 years after
# the "at" asked for.  Found by branch atk4 at 7d6761c.  Now a state more
# than a second past at starts a fresh walk at at.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('at_state');
$node->init;
$node->start;
$node->safe_psql('postgres', q{CREATE ROLE alice; CREATE EXTENSION idgen_portable CASCADE;});

# 2026-01-01 00:00:00 UTC in Unix milliseconds, computed here (20454 days
# from 1970-01-01 to 2026-01-01): the id's first 48 bits (SPEC.md)
my $at_ms = 20454 * 86400 * 1000;
is($at_ms, 1767225600000, 'the millisecond of at');

my $out = $node->safe_psql('postgres', q{
SELECT idgen_portable.iuid_generate(1, 2, '2026-01-01 00:00:00+00');
SET ROLE alice;
SELECT set_config('idgp.iuid_at_b', '0', false), set_config('idgp.iuid_at', '281474976710655', false),
	set_config('idgp.iuid_at_r', '100000000000000000', false);
RESET ROLE;
SELECT idgen_portable.iuid_generate(1, 2, '2026-01-01 00:00:00+00');
});
my @lines = split /\n/, $out;
my ($first, $second) = ($lines[0], $lines[2]);
sub id_ms { my $u = shift; $u =~ s/-//g; return hex(substr($u, 0, 12)); }
is(id_ms($first), $at_ms, "the first id is of at ($first)");
my $ms = id_ms($second);
ok($ms >= $at_ms && $ms <= $at_ms + 1000,
	"after another role's state, the id is at most one second after at (got $second, millisecond $ms)");

$node->stop;
done_testing();
