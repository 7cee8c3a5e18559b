# Public-id keys live in a key file (idgen.public_id_key_file) that no other
# role can ever see: not in settings, catalogs, activity views or the server
# log, with or without preloading.  Rotation works by editing the file and
# reloading; bad files give errors that name the file and line, never a key.
use strict;
use warnings;
use Digest::SHA qw(sha256_hex);
use FindBin;
use IPC::Run;
use lib $FindBin::RealBin;
use IdgenTest;
use MIME::Base64 qw(decode_base64 encode_base64);
use POSIX qw(mkfifo);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

# A: doc/formats.md's key and vector.  B: fresh random bytes, known to no code.
my $KEY_A = 'k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=';
my $KEY_B = encode_base64(pack('C*', map { int(rand(256)) } 1 .. 32), '');
my $SPEC_DISTID = '1088824355131185736905670087';
my $SPEC_PUBLIC = '30322474-a954-ffa9-941c-6f038afe4ff1';

# every form a key could leak in: base64 (also without padding, as a
# mangled line would show it), hex in both cases
my @secrets;
foreach my $key ($KEY_A, $KEY_B)
{
	my $hex = unpack('H*', decode_base64($key));
	(my $bare = $key) =~ s/=+$//;
	push @secrets, $key, $bare, $hex, uc($hex);
}

sub fingerprint
{
	my ($key) = @_;
	return substr(sha256_hex(decode_base64($key)), 0, 8);
}

# public_id_of($key, $n): the public id of bigint $n under $key, computed by
# the openssl command (AES-256-ECB of SPEC's plaintext block, Guid byte
# order).  The tests never pass these keys as SQL arguments: the statement
# would put them into the server log, which is what this test looks for.
sub public_id_of
{
	my ($key, $n) = @_;
	my $plain = ("\0" x 8) . pack('Q<', $n);
	my $cipher;
	IPC::Run::run(
		[ 'openssl', 'enc', '-aes-256-ecb', '-nopad', '-K', unpack('H*', decode_base64($key)) ],
		'<', \$plain, '>', \$cipher)
	  or die "openssl enc failed";
	my @c = unpack('C16', $cipher);
	my @guid = (reverse(@c[0 .. 3]), reverse(@c[4 .. 5]), reverse(@c[6 .. 7]), @c[8 .. 15]);
	return sprintf('%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x', @guid);
}

# write_key_file($node, $mode, @lines): the key file, owned by the server's
# user (the tests run as that user)
sub write_key_file
{
	my ($node, $mode, @lines) = @_;
	my $path = $node->data_dir . '/public_id.keys';
	open(my $fh, '>', $path) or die "could not write $path: $!";
	print $fh map { "$_\n" } @lines;
	close($fh);
	chmod($mode, $path) or die "could not chmod $path: $!";
	return;
}

# no_secret_in($text, $what): checks that no form of either key is in $text
sub no_secret_in
{
	my ($text, $what) = @_;
	my @found = grep { index($text, $_) >= 0 } @secrets;
	is(scalar(@found), 0, "no key text in $what")
	  or diag("found: @found");
	return;
}

# as($node, $role, $sql): psql as $role; returns "stdout\nstderr"
sub as
{
	my ($node, $role, $sql) = @_;
	my ($ret, $out, $err) = $node->psql(
		'postgres', $sql,
		on_error_stop => 0,
		timeout => $PostgreSQL::Test::Utils::timeout_default,
		extra_params => [ '-U', $role ]);
	return "$out\n$err";
}

# everything a role without privileges can look at
my $LOOK_AROUND = q{
	SELECT * FROM pg_settings;
	SHOW ALL;
	SELECT * FROM pg_roles;
	SELECT * FROM pg_db_role_setting;
	SELECT * FROM pg_file_settings;
	SELECT * FROM pg_stat_activity;
	SELECT name, current_setting(name, true) FROM pg_settings WHERE name LIKE 'idgen.%';
	SELECT current_setting('idgen.public_id_key_file', true);
	SELECT current_setting('idgen.public_id_key', true);
	SHOW idgen.public_id_key_file;
	SHOW idgen.worker_id;
	SHOW idgen.public_id_key;
};

# until_reloaded($session, $sql, $expected): polls $sql in a background
# session until it returns $expected (the session handles the reload signal
# between two queries); returns whether it did
sub until_reloaded
{
	my ($session, $sql, $expected) = @_;
	foreach (1 .. 5 * $PostgreSQL::Test::Utils::timeout_default)
	{
		return 1 if $session->query_safe($sql) eq $expected;
		usleep(100_000);
	}
	return 0;
}

foreach my $preload (1, 0)
{
	my $mode = $preload ? 'preloaded' : 'not preloaded';
	my $node = PostgreSQL::Test::Cluster->new($preload ? 'keys_preload' : 'keys_no_preload');
	$node->init;
	$node->append_conf(
		'postgresql.conf', join("\n",
			$preload ? "shared_preload_libraries = 'idgen'" : '',
			"idgen.public_id_key_file = 'public_id.keys'",
			# the log shows as much as it can: every statement, reloads
			"log_statement = 'all'",
			"log_min_messages = debug1",
			"log_connections = on"));
	write_key_file($node, 0600, '# public id keys', '', $KEY_A);
	$node->start;
	$node->safe_psql('postgres', q{
		CREATE EXTENSION idgen;
		CREATE ROLE app LOGIN;
		CREATE ROLE mon LOGIN IN ROLE pg_read_all_settings;
	});
	is($node->safe_psql('postgres', 'SHOW shared_preload_libraries'),
		$preload ? 'idgen' : '', "$mode: shared_preload_libraries");

	# a fresh 1.1 grants the keyless functions to nobody (doc/security.md);
	# the administrator grants them as the page shows
	like(as($node, 'app', "SELECT public_id_to_distid('$SPEC_PUBLIC')"),
		qr/ERROR:  permission denied for function public_id_to_distid/,
		"$mode: the server's key is refused to a role not granted it");
	$node->safe_psql('postgres', q{
		CREATE ROLE public_id_user NOLOGIN;
		GRANT EXECUTE ON FUNCTION public_id(bigint), public_id(distid), public_id(uuid),
		    public_id(iuid), public_id_to_bigint(uuid), public_id_to_distid(uuid),
		    public_id_to_uuid(uuid) TO public_id_user;
		GRANT public_id_user TO app;
	});

	# What an unprivileged role sees, first in a session that has not used
	# idgen (without preloading, the library is not loaded yet), then after.
	my $seen = as($node, 'app', $LOOK_AROUND
		  . "SELECT public_id('$SPEC_DISTID'::distid);\n"
		  . $LOOK_AROUND);
	# (ok, not like: a failure would print every setting)
	ok(index($seen, $SPEC_PUBLIC) >= 0,
		"$mode: the SPEC vector through the key file, as a role without privileges");
	ok($seen =~ /idgen\.public_id_key_file\|public_id\.keys/,
		"$mode: the settings show the file name");
	no_secret_in($seen, "$mode: settings, SHOW, roles, role settings, activity");
	is( $node->safe_psql('postgres',
			"SELECT public_id_to_distid('$SPEC_PUBLIC')", extra_params => [ '-U', 'app' ]),
		$SPEC_DISTID, "$mode: the SPEC public id decodes through the key file");

	# the superuser's pg_file_settings names the file, not a key
	my $file_settings = $node->safe_psql('postgres',
		"SELECT name, setting FROM pg_file_settings WHERE name LIKE 'idgen.%'");
	is($file_settings, 'idgen.public_id_key_file|public_id.keys',
		"$mode: pg_file_settings holds the file name");

	# public_id_keys(): operators only
	like(as($node, 'app', 'SELECT * FROM public_id_keys()'),
		qr/ERROR:  permission denied/, "$mode: a role without privileges cannot list keys");
	is( $node->safe_psql('postgres', 'SELECT line, active, fingerprint FROM public_id_keys()',
			extra_params => [ '-U', 'mon' ]),
		'3|t|' . fingerprint($KEY_A),
		"$mode: pg_read_all_settings lists the key: line, active, SHA-256 fingerprint");

	# ALTER ROLE/DATABASE SET of the file setting, and of 1.0's key setting
	foreach my $stmt (
		"ALTER ROLE app SET idgen.public_id_key_file = 'other.keys'",
		"ALTER DATABASE postgres SET idgen.public_id_key_file = 'other.keys'",
		"ALTER ROLE app SET idgen.public_id_key = 'AAECAwQFBgcICQoLDA0ODw=='",
		"ALTER DATABASE postgres SET idgen.public_id_key = 'AAECAwQFBgcICQoLDA0ODw=='")
	{
		# without preloading, a session must have loaded idgen for PostgreSQL
		# to know these names (README says so)
		my $sql = ($preload ? '' : "LOAD 'idgen';\n") . $stmt;
		my ($ret, $err) = psql_verbose($node, $sql);
		isnt($ret, 0, "$mode: refused: $stmt");
		like($err, qr/ERROR:  (55P02|42602): /, "$mode: ... with 55P02 or 42602");
	}
	is($node->safe_psql('postgres', 'SELECT count(*) FROM pg_db_role_setting'),
		'0', "$mode: nothing was stored in pg_db_role_setting");

	# Rotation: B becomes active, A stays second.  A session that used A
	# before picks the file up at the reload, though the setting's value
	# does not change.
	my $session = $node->background_psql('postgres', extra_params => [ '-U', 'app' ]);
	my $old_bigint = $session->query_safe('SELECT public_id(4242::bigint)');
	is($old_bigint, public_id_of($KEY_A, 4242), "$mode: a public id made with A, as openssl makes it");
	my $old_uuid = $session->query_safe(
		"SELECT public_id('017f22e2-79b0-802a-8141-23456789abcd'::uuid)");
	write_key_file($node, 0600, $KEY_B, "# retired, still decodes", $KEY_A);
	is($session->query_safe('SELECT public_id(4242::bigint)'),
		$old_bigint, "$mode: before the reload, a session keeps the keys it read");
	$node->reload;
	ok( until_reloaded(
			$session,
			'SELECT public_id(4242::bigint)', public_id_of($KEY_B, 4242)),
		"$mode: after the reload, the same session's new public ids use B");
	is( $session->query_safe(
			"SELECT public_id_to_bigint('$old_bigint') || ' ' || public_id_to_distid('$SPEC_PUBLIC')"),
		"4242 $SPEC_DISTID",
		"$mode: ... and ids made under A still decode");
	is( $session->query_safe(
			"SELECT public_id_to_uuid(public_id('017f22e2-79b0-802a-8141-23456789abcd'::uuid))"),
		'017f22e2-79b0-802a-8141-23456789abcd',
		"$mode: ... public_id_to_uuid uses the active key B");
	isnt(
		$session->query_safe("SELECT public_id_to_uuid('$old_uuid')"),
		'017f22e2-79b0-802a-8141-23456789abcd',
		"$mode: ... and only B: a uuid made under A does not come back");
	is( $node->safe_psql('postgres',
			"SELECT public_id_to_bigint('$old_bigint'), public_id(7::bigint)",
			extra_params => [ '-U', 'app' ]),
		'4242|' . public_id_of($KEY_B, 7), "$mode: a new session decodes A's ids and makes B's");
	is( $node->safe_psql('postgres', 'SELECT line, active, fingerprint FROM public_id_keys()'),
		'1|t|' . fingerprint($KEY_B) . "\n3|f|" . fingerprint($KEY_A),
		"$mode: public_id_keys() shows both keys");

	# A retired for good: its ids stop decoding
	write_key_file($node, 0600, $KEY_B);
	$node->reload;
	ok(until_reloaded($session, "SELECT public_id_to_bigint('$old_bigint') IS NULL", 't'),
		"$mode: once A leaves the file, its ids no longer decode");
	$session->quit;

	# errors in key-using functions get logged with their statements
	like(as($node, 'app', 'SELECT public_id(-1::bigint)'),
		qr/ERROR:  bigint -1 has no public id/, "$mode: an error in a keyless function");

	# Bad files: clear errors naming the file (and line), without key text.
	# Each is read by a new session.
	(my $mangled_b = $KEY_B) =~ s/.=*$//;
	my @bad = (
		[ 'readable by group', 0640, [$KEY_B],
			qr/public id key file "public_id\.keys" has group or world access/ ],
		[ 'readable by others', 0604, [$KEY_B],
			qr/public id key file "public_id\.keys" has group or world access/ ],
		[ 'executable by owner only', 0700, [$KEY_B], undef ],
		[ 'a line that is not base64', 0600, [ $KEY_B, '# next', $mangled_b ],
			qr/invalid key in public id key file "public_id\.keys" at line 3\nDETAIL:  A key is written in base64/ ],
		[ 'a key of the wrong length', 0600, [ '', 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g' ],
			qr/invalid key in public id key file "public_id\.keys" at line 2\nDETAIL:  The key is 33 bytes long/ ],
		[ 'no key at all', 0600, ['# empty'],
			qr/public id key file "public_id\.keys" contains no key/ ]);
	foreach my $case (@bad)
	{
		my ($what, $perm, $lines, $error) = @$case;
		write_key_file($node, $perm, @$lines);
		my $out = as($node, 'app', "\\set VERBOSITY default\nSELECT public_id(1::bigint)");
		if (defined $error)
		{
			like($out, $error, "$mode: $what: a clear error");
		}
		else
		{
			unlike($out, qr/ERROR/, "$mode: $what: accepted");
		}
		no_secret_in($out, "$mode: $what: the error");
	}
	# a FIFO would block a plain open() until someone writes to it
	unlink($node->data_dir . '/public_id.keys');
	mkfifo($node->data_dir . '/public_id.keys', 0600) or die "mkfifo: $!";
	like(as($node, 'app', 'SELECT public_id(1::bigint)'),
		qr/public id key file "public_id\.keys" is not a regular file/,
		"$mode: a FIFO: a clear error, at once");
	unlink($node->data_dir . '/public_id.keys');
	like(as($node, 'app', 'SELECT public_id_to_bigint(gen_random_uuid())'),
		qr/could not open public id key file "public_id\.keys": No such file or directory/,
		"$mode: a missing file: a clear error");
	$node->safe_psql('postgres', "ALTER SYSTEM SET idgen.public_id_key_file = 'global'");
	$node->reload;
	ok( $node->poll_query_until(
			'postgres', "SELECT current_setting('idgen.public_id_key_file') = 'global'"),
		"$mode: the setting now names a directory");
	like(as($node, 'app', 'SELECT public_id(1::bigint)'),
		qr/public id key file "global" is not a regular file/,
		"$mode: a directory: a clear error");

	if (!$preload)
	{
		# Without preloading, a superuser session that has not loaded idgen
		# cannot have idgen.* names checked: the update to 1.1 then warns
		# where 1.0's setting still holds a key, naming where, not what.
		$node->safe_psql('postgres', q{
			DROP EXTENSION idgen;
			ALTER ROLE app SET idgen.public_id_key = 'AAECAwQFBgcICQoLDA0ODw==';
		});
		my ($ret, $err) = psql_verbose($node, q{
			CREATE EXTENSION idgen VERSION '1.0';
			ALTER EXTENSION idgen UPDATE TO '1.1';
		});
		is($ret, 0, "$mode: update from 1.0 to 1.1");
		like($err, qr/WARNING:  01000: idgen.public_id_key is still set for role app in database \(all databases\)/,
			"$mode: ... warns where idgen.public_id_key still holds a key");
		unlike($err, qr/AAECAwQFBgcICQoLDA0ODw/, "$mode: ... without printing it");
		$node->safe_psql('postgres', 'ALTER ROLE app RESET idgen.public_id_key');
	}

	# the whole log, after reloads, bad files and failed statements
	$node->stop;
	my $log = slurp_file($node->logfile);
	like($log, qr/received SIGHUP, reloading configuration files/,
		"$mode: the log has the reloads");
	like($log, qr/has group or world access/, "$mode: the log has the key file errors");
	like($log, qr/STATEMENT:  SELECT public_id\(-1::bigint\)/,
		"$mode: the log has the failed statements");
	no_secret_in($log, "$mode: the server log");
}

done_testing();
