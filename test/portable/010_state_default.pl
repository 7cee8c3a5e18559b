# A crafted per-session state (idgen_portable.sql.in, "Per-session
# generator state"): any role of a session writes the settings idgp.*
# (set_config on a placeholder is open to every role), so on a pooled
# connection the previous role chooses the state the next role's
# generators find.  Each generator's inlined fast path reads some of these
# settings without the worker's checks; it must take a value only when it
# has exactly the form the worker writes, and hand anything else to the
# worker, which ignores what it cannot read.
#
# Found by an attack on 78f1692: distid_generate() with idgp.distid =
# 'NaN', idgp.distid_e = '9', idgp.distid_l = 'z' stayed on its fast path
# and returned NaN on every call; a 17-digit idgp.iuid_at_r passed the text
# range check of iuid_generate(c, e, at) and gave entity 251, then a lower
# id.  Those two stay as they were found (subtests 2 to 4).  Then every
# generator, and every setting its fast path reads (and backfill's
# idgp.iuid_at_b, which only its worker reads), with crafted values of
# each kind: empty, reset (NULL), a sign, a space before or after, NaN,
# Infinity, an exponent, a fraction, an underscore or a 0x prefix (which
# numeric and bigint input accept from PostgreSQL 16), other Unicode
# digits, upper-case hexadecimal, one character short or long, and
# well-formed values at the edges.  The role owner writes them after SET
# ROLE, and in the same statement the role is reset (set_config('role',
# 'none'), as RESET ROLE) and the generator called three times: so the
# calls come in the millisecond the crafted state names (distid's fast
# path takes its state only in the clock's millisecond).  Each id must be
# what a generator of the type makes (read here from its text, not by the
# edition's functions: version, variant, country and entity of an iuid, a
# whole distid of at most 28 digits and not NaN, flaxid's alphabet), in
# the clock's milliseconds around the calls (distid: one second before;
# backfill: the millisecond asked for), and each above the one before
# (subtest 5).  A well-formed state of the role's choice is followed, as
# far as doc/security.md says: a distid or DistributedId128 in 2100, and
# for distid's expression a last id of 2020 in the clock's millisecond the
# state names (subtests 6 and 7).  A database default is out of an
# ordinary role's reach on 15 (subtest 1).
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use Math::BigInt;
use PortableTest;
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
		# as decimal text (Perl's numbers hold 15 or 16 digits)
		return 0 if $i > 0 && (length($v[$i]) <=> length($v[$i - 1]) || $v[$i] cmp $v[$i - 1]) <= 0;
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

#
# Every generator, every setting its fast path reads, every kind of value
#

# The fields of an id as its type defines them (../shared/SPEC.md), from
# its text: the Unix millisecond it names and whether it is well-formed
# (undef if not)
my $AT_MS = 1704067200000;    # backfill's millisecond: 2024-01-01 00:00:00 UTC
my $FLAX = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
my %type = (
	# iuid of country 1 and entity 2: ms | 8 | format 0 | country, 10 | entity | random
	iuid => sub { return iuid_ms(shift, 1, 2); },
	# a whole number below 10^28 of a 45-bit millisecond since 1900 (stamped
	# a second early: the Unix millisecond of the call is returned) and a
	# 48-bit random field that is not 0 (distid_generate()) or any
	# (distid_generate_dense())
	distid => sub {
		my $v = shift;
		return undef unless $v =~ /^[1-9][0-9]{0,27}$/;
		$v = Math::BigInt->new($v);
		my $ts = $v->copy->brsft(48);
		return undef if $ts > 35184372088831;
		return $ts->numify - 2208988800000 + 1000;
	},
	# version 7, bit 64 clear, milliseconds since 1700
	distid128 => sub {
		(my $h = shift) =~ tr/-//d;
		return undef unless $h =~ /^[0-9a-f]{32}$/ && substr($h, 12, 1) eq '7' && hex(substr($h, 16, 1)) < 8;
		return hex(substr($h, 0, 12)) - 8520336000000;
	},
	# 16 characters of the alphabet, 40 bits of milliseconds since 2015 first
	flaxid => sub {
		my $f = shift;
		return undef unless $f =~ /^[-0-9A-Z_a-z]{16}$/;
		my $bits = 0;
		$bits = ($bits << 6) | index($FLAX, $_) for split //, substr($f, 0, 8);
		return ($bits >> 8) + 1420070400000;
	});

# the generators: the call, its type, and the milliseconds its ids may be
# in: the clock's from before the attack to after the calls (plus two:
# a millisecond borrowed when a field is full), or backfill's
my %gen = (
	'iuid_generate(1, 2)' => ['iuid', 'clock'],
	"iuid_generate(1, 2, '2024-01-01 00:00:00+00')" => ['iuid', 'at'],
	'distid_generate()' => ['distid', 'clock'],
	'distid_generate_dense()' => ['distid', 'clock'],
	'distid128_generate()' => ['distid128', 'clock'],
	'flaxid_generate()' => ['flaxid', 'clock']);

# The kinds of crafted value, from V, an SQL expression of a well-formed
# value of the same width (the session's own, read before the attack);
# each a name and an SQL expression
sub kinds
{
	my ($v, $hex) = @_;
	my @k = (
		['empty', q{''}],
		['reset', 'NULL'],
		['NaN', q{'NaN'}],
		['Infinity', q{'Infinity'}],
		['-Infinity', q{'-Infinity'}],
		['a + before', "'+' || $v"],
		['a + in place of the first digit', "'+' || substr($v, 2)"],
		['a - in place of the first digit', "'-' || substr($v, 2)"],
		['a space in place of the first digit', "' ' || substr($v, 2)"],
		['a space in place of the last digit', "substr($v, 1, length($v) - 1) || ' '"],
		['two digits and spaces', "rpad(substr($v, 1, 2), length($v), ' ')"],
		['a tab in place of the last digit', "substr($v, 1, length($v) - 1) || chr(9)"],
		['one character short', "substr($v, 1, length($v) - 1)"],
		['one character long', "$v || '0'"],
		['a leading zero', "'0' || substr($v, 2)"],
		['an exponent in place of the last four', "substr($v, 1, length($v) - 4) || 'e+00'"],
		['an exponent, short', q{'1e27'}],
		['a fraction in place of the last two', "substr($v, 1, length($v) - 2) || '.5'"],
		['an underscore in place of the fifth', "substr($v, 1, 4) || '_' || substr($v, 6)"],
		['a 0x prefix in place of the first two', "'0x' || substr($v, 3)"],
		['Arabic-Indic digits', "translate($v, '0123456789', U&'\\0660\\0661\\0662\\0663\\0664\\0665\\0666\\0667\\0668\\0669')"],
		['fullwidth digits', "translate($v, '0123456789', U&'\\FF10\\FF11\\FF12\\FF13\\FF14\\FF15\\FF16\\FF17\\FF18\\FF19')"],
		['a letter in place of the last', "substr($v, 1, length($v) - 1) || 'z'"],
		['upper case', "upper($v)"],
		['all nines', "repeat('9', length($v))"],
		['all z', "repeat('z', length($v))"],
		['a character above the ASCII ones in place of the last', "substr($v, 1, length($v) - 1) || U&'\\00FF'"]);
	push @k, ['hexadecimal upper case', "upper($v)"] if $hex;
	return @k;
}

# The settings each generator's fast path reads (backfill's idgp.iuid_at_b
# its worker only), each with the others as the attack leaves them: the
# state that sends a call to the fast path (the stream's own idgp.iuid_s;
# backfill's millisecond; distid's clock millisecond, and a bound that
# every id is under)
my $NOW = q{floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint::text};
my @cases = (
	['iuid_generate(1, 2)', 'idgp.iuid', [], 1],
	['iuid_generate(1, 2)', 'idgp.iuid_s', []],
	# the text range check of the first round passed these (subtest 4)
	["iuid_generate(1, 2, '2024-01-01 00:00:00+00')", 'idgp.iuid_at_r', [['idgp.iuid_at', "'$AT_MS'"]], 0,
		[q{'11801439421451468'}, q{rpad('11', 18, ' ')}, q{'1100000000000000' || chr(9) || chr(9)}, q{'11000_00000000000'},
		 q{'1100000000000000e0'}, q{'0x0000000000000001'}]],
	["iuid_generate(1, 2, '2024-01-01 00:00:00+00')", 'idgp.iuid_at', []],
	["iuid_generate(1, 2, '2024-01-01 00:00:00+00')", 'idgp.iuid_at_b', [['idgp.iuid_at', "'$AT_MS'"]]],
	# 2^93 - 1, the greatest id of 45-bit milliseconds, and 10^28 - 1
	['distid_generate()', 'idgp.distid', [['idgp.distid_l', q{'z'}], ['idgp.distid_e', $NOW]], 0,
		[q{'9903520314283042199192993791'}, q{'9999999999999999999999999999'}]],
	# the same for the worker (distid_e of no clock's millisecond)
	['distid_generate()', 'idgp.distid', [['idgp.distid_l', q{'z'}], ['idgp.distid_e', q{'0'}]], 0,
		[q{'9903520314283042199192993791'}, q{'9999999999999999999999999999'}]],
	# the first round's bound of the millisecond, 17 digits of microseconds
	['distid_generate()', 'idgp.distid_e', [['idgp.distid_l', q{'z'}]], 0, [q{'99999999999999999'}, q{'9'}]],
	['distid_generate()', 'idgp.distid_e', [['idgp.distid_l', q{'z'}]]],
	['distid_generate()', 'idgp.distid_l', [['idgp.distid_e', $NOW]]],
	['distid_generate_dense()', 'idgp.dense', []],
	['distid128_generate()', 'idgp.d128', [], 1],
	['flaxid_generate()', 'idgp.flaxid', []]);

# one attack: a call of the session's own, the crafted settings written by
# role owner, the role reset, three calls, in one statement (an array's
# elements are evaluated in order); returns the clock before and after,
# the role of the calls, the id before and the three after
sub attack
{
	my ($call, @set) = @_;
	my $g = "(idgen_portable.$call)::text";
	my $sql = "SET ROLE owner;\nSELECT array_to_string(ARRAY[$NOW, $g, "
	  . join('', map { "(pg_catalog.set_config('$_->[0]', $_->[1], false) IS NULL)::text, " } @set)
	  . "pg_catalog.set_config('role', 'none', false), current_user::text, $g, $g, $g, $NOW], '/')";
	my ($ok, $out, $err) = $node->psql('d', $sql);
	return (undef, $err) if $err ne '';
	my ($t0, $first, @rest) = split m{/}, $out;
	my $t1 = pop @rest;
	my @after = splice(@rest, -3);
	my $role = pop @rest;
	return ($t0, $t1, $role, $first, @after);
}

my ($n, @failed) = (0);
for my $case (@cases)
{
	my ($call, $setting, $others, $hex, $extra) = @$case;
	my ($typ, $range) = @{ $gen{$call} };
	my $v = "current_setting('$setting')";
	for my $kind (kinds($v, $hex), map { ["$_", $_] } @{ $extra // [] })
	{
		my ($name, $value) = @$kind;
		my ($t0, $t1, $role, $first, @ids) = attack($call, @$others, [$setting, $value]);
		$n++;
		if (!defined $t0)
		{
			push @failed, "$call, $setting $name: $t1";
			next;
		}
		my ($lo, $hi) = $range eq 'at' ? ($AT_MS, $AT_MS + 2) : ($t0, $t1 + 2);
		my @why;
		push @why, "the calls ran as $role" if $role eq 'owner';
		push @why, "the session's own id $first is no $typ" unless defined $type{$typ}->($first);
		for my $i (0 .. 2)
		{
			my $ms = $type{$typ}->($ids[$i]);
			if (!defined $ms) { push @why, "$ids[$i] is no $typ of the call"; next; }
			push @why, "$ids[$i] names millisecond $ms, outside $lo..$hi" if $ms < $lo || $ms > $hi;
			next if $i == 0;
			my $above = $typ eq 'distid' ? Math::BigInt->new($ids[$i]) > Math::BigInt->new($ids[$i - 1])
			  : $ids[$i] gt $ids[$i - 1];
			push @why, "$ids[$i] is not above $ids[$i - 1]" unless $above;
		}
		push @failed, "$call, $setting $name: " . join('; ', @why) if @why;
	}
}
diag($_) for @failed;
ok(!@failed && $n > 250,
	"$n crafted states, each setting each generator's fast path reads: every id well-formed, of the clock, above the one before ("
	  . scalar(@failed) . ' wrong)');

#
# A well-formed state of the previous role's choice is followed as the
# worker follows the session's own (doc/security.md states how far): a
# distid or DistributedId128 in 2100 is continued, as their references
# continue a last id in the future until its field is full (a distid's
# within some hundreds of ids: 2000 calls end on the clock); and distid's
# expression continues a last id of an earlier millisecond for calls in
# the clock's millisecond idgp.distid_e names (tried until a call comes in
# that millisecond)
#
my $ms2100 = 4102444800000;
my @chosen = split /\n/, $node->safe_psql('d', qq{SET ROLE owner;
	SELECT set_config('idgp.d128', lpad(to_hex((($ms2100 + 8520336000000) << 16) | 28672), 16, '0') || '0000000000000001', false),
		set_config('idgp.distid', ((($ms2100 + 2208988800000)::numeric * 281474976710656) + 1)::text, false),
		set_config('idgp.distid_e', '0', false) \\gset
	RESET ROLE;
	SELECT string_agg(idgen_portable.distid128_generate()::text, ' ') FROM generate_series(1, 3);
	SELECT string_agg(idgen_portable.distid_generate()::text, ' ') FROM generate_series(1, 3);
	SELECT x FROM (SELECT g, idgen_portable.distid_generate()::text AS x FROM generate_series(1, 2000) g OFFSET 0) s ORDER BY g DESC LIMIT 1;
	SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint});
my @d128 = split / /, $chosen[0];
my @dist = split / /, $chosen[1];
ok( @d128 == 3 && @dist == 3
	  && !grep({ ($type{distid128}->($_) // 0) != $ms2100 } @d128)
	  && !grep({ ($type{distid}->($_) // 0) != $ms2100 + 1000 } @dist)
	  && $d128[0] lt $d128[1] && $d128[1] lt $d128[2]
	  && Math::BigInt->new($dist[0]) < Math::BigInt->new($dist[1]) && Math::BigInt->new($dist[1]) < Math::BigInt->new($dist[2])
	  && abs($type{distid}->($chosen[2]) - $chosen[3]) < 2000,
	"a well-formed DistributedId128 or distid state of the previous role in 2100 is continued (@d128; @dist), a distid's until its field is full ($chosen[2])");
my ($past, $tries) = (0, 0);
my $ms2020 = 1577836800000;
while (!$past && $tries++ < 20)
{
	my ($t0, $t1, $role, $first, @ids) = attack('distid_generate()', ['idgp.distid_l', q{'z'}],
		['idgp.distid', "((($ms2020 + 2208988799000)::numeric * 281474976710656) + 1)::text"], ['idgp.distid_e', $NOW]);
	my @ms = map { $type{distid}->($_) } @ids;
	last if grep { !defined } @ms;
	$past = 1 if $ms[0] == $ms2020;
}
ok($past, "distid_generate() continues a well-formed last id of 2020 for calls in the clock's millisecond idgp.distid_e names (try $tries)");

$node->stop;
done_testing();
