# OpenSSL out of memory while idgen expands a key (issue 10): the call fails
# with "out of memory", and the next call works.  Nothing half-made is kept:
# with a cipher context for one direction cached and none for the other, the
# next call would hand OpenSSL a NULL context (OpenSSL 3 then fails the
# operation; the original report was a NULL dereference).
#
# evp_fail_shim.c, preloaded into the server, makes chosen calls of
# EVP_CIPHER_CTX_new() from idgen.so return NULL.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# $CC as make takes it: a command with its arguments ("ccache gcc").  A
# shim that does not build is a failure, not a skip: a C compiler is there
# wherever idgen builds.
my $cc = $ENV{CC} // 'cc';
my $shim = PostgreSQL::Test::Utils::tempdir() . '/evp_fail_shim.so';
my ($ok, $out, $err) = (0, '', '');
$ok = eval {
	IPC::Run::run(
		[ split(' ', $cc), '-shared', '-fPIC', '-o', $shim, "$FindBin::RealBin/evp_fail_shim.c", '-ldl' ],
		'>', \$out, '2>', \$err);
};
$err .= $@ if $@;
unless ($ok)
{
	fail("the shim builds with CC=$cc: $err");
	done_testing();
	exit;
}

# the AES-128 key 00..0f (one line) and the SPEC key, in a key file
my $node = init_idgen_node('oom', "idgen.public_id_key_file = 'public_id.keys'");
my $keys = $node->data_dir . '/public_id.keys';
append_to_file($keys,
	"AAECAwQFBgcICQoLDA0ODw==\nk7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=\n");
chmod(0600, $keys) or die "chmod $keys: $!";
{
	# Each key expansion asks for two contexts (encrypt, decrypt), in this
	# order.  Calls 1-2: the argument key, 2 fails; 3-4: again, fine.
	# 5-8: the key file's two keys, 7 fails (the second key's first);
	# 9-12: again, fine.
	local $ENV{LD_PRELOAD} = $shim;
	local $ENV{IDGEN_EVP_FAIL_AT} = '2,7';
	$node->start;
}
$node->safe_psql('postgres', 'CREATE EXTENSION idgen');

my $k128 = q{'\x000102030405060708090a0b0c0d0e0f'::bytea};
# public id of bigint 1 under k128: openssl enc -aes-128-ecb -nopad, Guid order
my $vector = 'd3802c5f-d352-fce8-b4ae-a438188d77c8';
# one session (the cache is per backend): fail, retry, fail, retry
my ($ret, $stdout, $stderr) = $node->psql(
	'postgres', qq{
	SELECT 'first', public_id(1::bigint, $k128);
	SELECT public_id(1::bigint, $k128), public_id_to_bigint(public_id(1::bigint, $k128), $k128);
	SELECT 'first from file', public_id_to_distid(public_id(1::bigint));
	SELECT public_id(1::bigint), public_id_to_distid('30322474-a954-ffa9-941c-6f038afe4ff1');
	},
	on_error_stop => 0);
my @errors = ($stderr =~ /ERROR:  out of memory\nDETAIL:  OpenSSL could not allocate a cipher context/g);
is(scalar(@errors), 2, 'out of memory in a key expansion is an error, twice')
  or diag($stderr);
unlike($stdout, qr/first/, '... for the statements that hit it');
is( $stdout,
	"$vector|1\n$vector|1088824355131185736905670087",
	'the next call with the key argument encrypts and decrypts, and the next one from the file has both keys'
);
my $log = slurp_file($node->logfile);
unlike($log, qr/terminated by signal|server process .* was terminated/,
	'no backend crashed');
like($log, qr/ERROR:  out of memory/, 'the log has the failures');
$node->stop;
done_testing();
