# An attack on the SQL edition from the session's settings rather than
# its state (found on branch i48c's merge, 1012fb1, where subtests 1, 2,
# 3 and 5 failed; on main before it, 4f37577, subtest 5).  The
# generators' SQL bodies and domain checks are parsed at install time, but
# a PL/pgSQL worker's statements are parsed in the calling session, with
# its standard_conforming_strings, the first time the session runs them,
# and the plan is kept for the rest of the session.  On i48c,
# flaxid_generate()'s worker, _flaxid_next(), declared its alphabet as the
# literal '\x2d30...'::bytea: with standard_conforming_strings off (any
# role may set it; legacy clients do), '\x2d' is the escape of '-', and
# the alphabet becomes the bytes of the text "-303132...": every id the
# worker makes is of the characters '-', 0-9 and a-f, naming a millisecond
# of 2017 (a flaxid of the clock begins with 'K' from 2026), below the
# session's earlier ids.  The worker makes a session's first id (no state
# yet) and every id the expression hands it (a second call in the same
# 1/512 ms, a state not of its form); so:
#   1. a session with standard_conforming_strings off gets, as its first
#      flaxid, one of 2017;
#   2. on a pooled connection, a previous role that sets it off, calls
#      flaxid_generate() once and resets it (RESET, RESET ROLE) leaves the
#      next role a worker that makes such ids (reached here by a state the
#      previous role left, which doc/security.md says is ignored: "the
#      next id is from the clock");
#   3. DISCARD ALL between the roles (doc/security.md's remedy) does not
#      undo it: the worker's plan survives it (reached here by the same
#      state, written by the next role itself, standing for any call the
#      expression hands to the worker);
#   4. public_id() and public_id_to_bigint(), PL/pgSQL with '\x00...'
#      literals, fail with standard_conforming_strings off (invalid byte
#      sequence 0x00: the escape of a zero byte) where they return the
#      same public id with it on.
#   5. the text inputs whose PL/pgSQL read a regular expression written
#      with a backslash ('\{', '\}', '[\x01-\x7f]': iuid(text), its error
#      detail, the alphanumeric decoders) warned "nonstandard use of
#      escape" with standard_conforming_strings off and escape_string_warning
#      on, its default (their results were the same, by luck of what the
#      escapes became); now they say it without a backslash, and
#      test/portable/folding.py fails on any string constant with one.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('attack');
$node->init;
$node->start;
# 19 has standard_conforming_strings on only (and no escape_string_warning)
my ($scs_ret) = $node->psql('postgres', 'SET standard_conforming_strings = off');
if ($scs_ret != 0)
{
	$node->stop;
	plan skip_all => 'this server refuses standard_conforming_strings off (19 and later)';
}
$node->safe_psql('postgres', q{CREATE ROLE owner LOGIN; CREATE EXTENSION idgen_portable CASCADE;
	GRANT USAGE ON SCHEMA idgen_portable TO owner;});

my $NOW = q{floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint::text};
my $FLAX = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';

# the Unix millisecond a flaxid names (../shared/SPEC.md: 16 characters of
# the alphabet, 40 bits of milliseconds since 2015 first), undef if it is
# none
sub flax_ms
{
	my $f = shift;
	return undef unless defined $f && $f =~ /^[-0-9A-Z_a-z]{16}$/;
	my $bits = 0;
	$bits = ($bits << 6) | index($FLAX, $_) for split //, substr($f, 0, 8);
	return ($bits >> 8) + 1420070400000;
}

# run SQL (a script whose last statement returns "t0/id/t1"), the escape
# warnings silenced; returns whether the id is a flaxid of the clock
# between t0 and t1 (plus two: a borrowed millisecond), and the text
sub of_clock
{
	my ($sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', "SET escape_string_warning = off;\n$sql");
	my ($t0, $id, $t1) = split m{/}, (split /\n/, $out)[-1] // '';
	my $ms = flax_ms($id);
	my $ok = $ret == 0 && defined $ms && $ms >= $t0 && $ms <= $t1 + 2;
	return ($ok, "$id: " . (defined $ms ? "millisecond $ms, the clock's $t0..$t1" : "no flaxid ($err)"));
}

my $call = "SELECT array_to_string(ARRAY[$NOW, idgen_portable.flaxid_generate(), $NOW], '/');";

# 1. a session of its own with standard_conforming_strings off
my ($ok, $what) = of_clock("SET standard_conforming_strings = off;\n$call");
ok($ok, "with standard_conforming_strings off, a session's first flaxid_generate() is of the clock ($what)");

# 2. a pooled connection: the previous role turns it off for one call and
# back, and leaves a state of another form (ignored, says doc/security.md)
($ok, $what) = of_clock(qq{SET ROLE owner;
	SET standard_conforming_strings = off;
	SELECT idgen_portable.flaxid_generate();
	RESET standard_conforming_strings;
	SELECT set_config('idgp.flaxid', 'zzzzzzzzzzzzzzzz', false);
	RESET ROLE;
	SHOW standard_conforming_strings;
	$call});
ok($ok, "a previous role's standard_conforming_strings, set back, leaves the next role's flaxid_generate() of the clock ($what)");

# 3. the same with DISCARD ALL between the roles; the next role's own
# state hands its call to the worker
($ok, $what) = of_clock(qq{SET ROLE owner;
	SET standard_conforming_strings = off;
	SELECT idgen_portable.flaxid_generate();
	DISCARD ALL;
	SELECT set_config('idgp.flaxid', 'zzzzzzzzzzzzzzzz', false);
	$call});
ok($ok, "after DISCARD ALL, a previous role's standard_conforming_strings leaves flaxid_generate()'s worker making ids of the clock ($what)");

# 4. public_id() and its inverse, PL/pgSQL with bytea literals: the same
# with standard_conforming_strings off as on
my $key = q{pg_catalog.decode('000102030405060708090a0b0c0d0e0f', 'hex')};
my $pid = "SELECT idgen_portable.public_id(12345::bigint, $key)::text || '/' || idgen_portable.public_id_to_bigint(idgen_portable.public_id(12345::bigint, $key), $key)::text";
my $on = $node->safe_psql('postgres', $pid);
my ($ret, $off, $err) = $node->psql('postgres', "SET escape_string_warning = off; SET standard_conforming_strings = off;\n$pid");
like($on, qr{^[0-9a-f-]{36}/12345$}, "public_id() and public_id_to_bigint() round trip ($on)");
ok($ret == 0 && $off eq $on, "with standard_conforming_strings off, public_id() and public_id_to_bigint() give the same ($off; $err)");

# 5. each call's result, or error, in a session with
# standard_conforming_strings off and escape_string_warning on: the same
# as with it on, and no warning
my $alnum = $node->safe_psql('postgres', 'SELECT idgen_portable.distid_to_alphanumeric(1234567890123456789)');
my @same = (
	q|SELECT idgen_portable.iuid('{0192a1b2-c3d4-8e5f-8a1b-2c3d4e5f6a7b}')|,
	q|SELECT idgen_portable.iuid('0192a1b2c3d48e5f8a1b2c3d4e5f6a7b')|,
	q|SELECT idgen_portable.iuid('{0192a1b2-c3d4-8e5f-8a1b-2c3d4e5f6a7b00}')|,
	q|SELECT idgen_portable.iuid('{0192a1b2-c3d4-8e5f-8a1b-2c3d4e5f6a7b')|,
	"SELECT idgen_portable.distid_from_alphanumeric('$alnum')",
	q|SELECT idgen_portable.distid_from_alphanumeric('0000000000é00000')|,
	q|SELECT idgen_portable.distid_from_alphanumeric('00000000000000_0')|);
my @differ;
for my $sql (@same)
{
	my (undef, $on_out, $on_err) = $node->psql('postgres', $sql);
	my (undef, $off_out, $off_err) = $node->psql('postgres',
		"SET standard_conforming_strings = off; SET escape_string_warning = on; $sql");
	push @differ, "$sql: on [$on_out|$on_err], off [$off_out|$off_err]"
	  if $off_out ne $on_out || $off_err ne $on_err || $off_err =~ /WARNING/;
}
diag($_) for @differ;
ok(!@differ && $alnum =~ /^[0-9A-Za-z]{16}$/,
	scalar(@same) . ' text inputs give the same results and errors, and no warning, with standard_conforming_strings off');

$node->stop;
done_testing();
