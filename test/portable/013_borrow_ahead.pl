# A state one second ahead with a full random field (found by branch atk5
# at 546d981).  The workers of the SQL edition follow a last id up to 1000
# ms ahead of the clock (or, in backfill, of the millisecond asked for) and
# ignore one further ahead as a clock that went back by more than a second
# (the template mono() and _iuid_at_next: "ms - now_ms > 1000").  Following
# a last id exactly 1000 ms ahead whose random field is full, a worker
# borrows the next millisecond and writes a state 1001 ms ahead; the next
# call's worker then takes that state for one it must ignore and starts
# afresh from the clock (or from the millisecond asked for): below the id
# the same worker made one call before.  The session's own ids never get
# that far ahead (a borrowed millisecond takes some hundred thousand ids),
# but on a pooled connection the previous role writes the state
# (doc/security.md, "Session state"), which the doc bounds to "up to one
# second ahead" for iuid, flaxid and distid_generate_dense(), and "the
# millisecond asked for or up to one second after it" in backfill.  What
# the next role's own consecutive calls then get, in order:
#   1. backfill, iuid_generate(1, 2, '2024-01-01 00:00:00+00') three
#      times, after idgp.iuid_at = 1704067201000 (at + 1000 ms),
#      idgp.iuid_at_b = 1704067200000 (at) and idgp.iuid_at_r =
#      118014398509481982 (10^17 + 2^54 - 2): an id of 1704067201001
#      (1001 ms after at), then ids of 1704067200000, below it (SPEC.md:
#      consecutive calls for the same millisecond "never repeat or
#      decrease");
#   2. iuid_generate(1, 2), distid_generate_dense() and flaxid_generate(),
#      after a last id of the clock's millisecond + 1000 with a random field
#      of its greatest value - 1 (and idgp.iuid_s = 1025, the stream (1, 2)),
#      written in the statement that then makes three ids, after a call of
#      the previous role (so that they come in the millisecond the state was
#      made for; 20 tries): an id of the clock + 1001, then one of the clock,
#      below it.
# Each id is read here from its text (../shared/SPEC.md), not by the
# edition's functions.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use Math::BigInt;
use PortableTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('borrow_ahead');
$node->init;
$node->start;
$node->safe_psql('postgres', q{CREATE ROLE alice; CREATE EXTENSION idgen_portable CASCADE;});

# 2024-01-01 00:00:00 UTC in Unix milliseconds (19723 days after
# 1970-01-01), and 10^17 + 2^54 - 2: the greatest random field but one
my $at_ms = 19723 * 86400 * 1000;
is($at_ms, 1704067200000, 'the millisecond of at');
my $full_r = Math::BigInt->new(10)->bpow(17)->badd(Math::BigInt->new(2)->bpow(54))->bsub(2);

#
# 1. backfill
#
my @ids = split /\n/, $node->safe_psql('postgres', qq{
SET ROLE alice;
SELECT set_config('idgp.iuid_at', '@{[$at_ms + 1000]}', false), set_config('idgp.iuid_at_b', '$at_ms', false),
	set_config('idgp.iuid_at_r', '$full_r', false) \\gset
RESET ROLE;
SELECT idgen_portable.iuid_generate(1, 2, '2024-01-01 00:00:00+00') FROM generate_series(1, 3);
});
my @ms = map { iuid_ms($_, 1, 2) // -1 } @ids;
ok(@ids == 3 && !grep({ $_ < $at_ms || $_ > $at_ms + 1000 } @ms),
	"after a walk another role left 1000 ms after at with a full field, the next role's ids are at most a second after at (@ids: milliseconds @ms)");
ok(@ids == 3 && $ids[0] lt $ids[1] && $ids[1] lt $ids[2],
	"and its three consecutive calls for that millisecond increase (@ids)");

#
# 2. the live generators of the monotonic random scheme
#
my $NOW = q{floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint};
my $FLAX = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
my @gen = (
	# the call; the settings (an SQL expression of the clock's millisecond
	# + 1000 each); the id as something that compares as the id does
	[
		'iuid_generate(1, 2)',
		[
			[ 'idgp.iuid_s', q{'1025'} ],
			# ms << 16 | version 8 | country 1, then variant | entity 2 << 54 | 2^54 - 2
			[ 'idgp.iuid', "lpad(to_hex((($NOW + 1000) << 16) | 32768 | 1), 16, '0') || lpad(to_hex(-9223372036854775808 | (2::bigint << 54) | 18014398509481982), 16, '0')" ]
		],
		sub { my $v = shift; return defined iuid_ms($v, 1, 2) ? $v : undef; }
	],
	[
		'distid_generate_dense()',
		# the millisecond since 1900, stamped a second early, << 48 | 2^48 - 2
		[ [ 'idgp.dense', "((($NOW + 1000 + 2208988799000)::numeric * 281474976710656) + 281474976710654)::text" ] ],
		sub { my $v = shift; return $v =~ /^[1-9][0-9]{0,27}$/ ? Math::BigInt->new($v) : undef; }
	],
	[
		'flaxid_generate()',
		# 40 bits of milliseconds since 2015, then 56 bits: 2^56 - 2
		[
			[
				'idgp.flaxid',
				"translate(encode(substr(int8send($NOW + 1000 - 1420070400000), 4) || substr(int8send(72057594037927934), 2), 'base64'), "
				  . "'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', '$FLAX')"
			]
		],
		sub { my $v = shift; return $v =~ /^[-0-9A-Z_a-z]{16}$/ ? $v : undef; }
	]);

for my $g (@gen)
{
	my ($call, $set, $key) = @$g;
	my $c = "(idgen_portable.$call)::text";
	my @bad;
	for my $try (1 .. 20)
	{
		# a call of role alice (the worker compiled and the domains' checks
		# loaded, which takes longer than a millisecond the first time), the
		# state it writes, the role reset, three calls: one statement (an
		# array's elements are evaluated in order)
		my $out = $node->safe_psql('postgres',
			"SET ROLE alice;\nSELECT array_to_string(ARRAY[$c, "
			  . join('', map { "(set_config('$_->[0]', $_->[1], false) IS NULL)::text, " } @$set)
			  . "set_config('role', 'none', false), current_user::text, $c, $c, $c], ' ')");
		my @v = split / /, $out;
		my @three = @v[-3 .. -1];
		my @k = map { $key->($_) } @three;
		if ($v[-4] ne 'postgres' || grep { !defined } @k)
		{
			push @bad, "try $try: no three ids of the next role ($out)";
			last;
		}
		# distids as numbers, the others as text
		my $up = sub { my ($a, $b) = @_; return ref $a ? $b > $a : $b gt $a; };
		push @bad, "try $try: @three" unless $up->($k[0], $k[1]) && $up->($k[1], $k[2]);
	}
	diag($_) for @bad;
	ok(!@bad, "$call: after a last id 1000 ms ahead with a full field, another role's, the next role's three consecutive ids increase in 20 tries ("
		  . scalar(@bad) . ' did not)');
}

#
# 3. distid_generate() and distid128_generate(), which continue a last id
# ahead of the clock as their references do (doc/security.md): a last id
# just under a second ahead with a full random field makes the next call
# wait for the clock (the references' overflow rule: a later millisecond
# still in the past, else 1 ms sleeps), about a second, and the wait
# answers a cancel (found by branch atk6: 991 ms, not documented then).
# Its state written as alice, then the call as the next role.
#
my %ahead = (
	'distid_generate()' => [ 'idgp.distid',
		"((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint + 2208988800000 + 989)::numeric * 281474976710656 + 281474976710655)::text",
		'idgen_portable.distid_generate() > current_setting(\'idgp.distid_was\')::numeric' ],
	'distid128_generate()' => [ 'idgp.d128',
		"encode(int8send((((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint + 8520336000000 + 990) << 16) | 28672 | 4095)) || int8send(9223372036854775807), 'hex')",
		'idgen_portable.distid128_generate() > current_setting(\'idgp.distid_was\')::uuid' ]);
for my $call (sort keys %ahead)
{
	my ($name, $value, $check) = @{ $ahead{$call} };
	my $plant = "SET ROLE alice; SELECT set_config('$name', $value, false) IS NULL, set_config('idgp.distid_was', current_setting('$name'), false) IS NULL; RESET ROLE;";
	my ($ret, $out, $err) = $node->psql('postgres', "$plant SET statement_timeout = '200ms'; SELECT idgen_portable.$call;");
	like($err, qr/canceling statement due to statement timeout/, "$call: after a last id about a second ahead with a full field, the next call waits, and a timeout cancels it");
	is($node->safe_psql('postgres', "$plant SELECT $check;"), "f|f\nt", "$call: without one it returns, above that last id");
}

$node->stop;
done_testing();
