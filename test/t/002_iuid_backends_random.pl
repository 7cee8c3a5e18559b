
# Backends never share random bytes: sibling backends, started together,
# produce disjoint ids.
#
# The test makes the ids depend on nothing but the random bytes: the backfill
# form iuid_generate(1, 1, '2020-01-01 00:00:00+00') puts every id in the
# same millisecond with the same country and entity, so an id differs from
# another only in its 54-bit random field.  A backend's first id takes a
# fresh random field, each later id adds a random increment.  Two backends
# reading the same random bytes would produce identical first values and then
# identical sequences: their sets would be equal instead of disjoint.  With
# independent random bytes, two sets of 1000 ids drawn from a 2^53-wide start
# meet with negligible probability.
#
# What it catches: a random source that is not independent per backend.
# Checked to fail with src/random.c's refill() filling the buffer with a
# fixed pattern instead of pg_strong_random(): the checks that the sessions'
# ids differ and are disjoint failed.
#
# What it cannot catch: the buffer inherited across fork().  idgen draws no
# random bytes in the postmaster (nothing in _PG_init or the shared memory
# hooks does), so the buffer is empty whenever the postmaster forks, and the
# pid check in src/random.c makes no difference here.  test/unit/test_random.c
# fills the buffer, forks, and fails without that check.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $per_session = 1000;
my $at = '2020-01-01 00:00:00+00';

my $node = start_idgen_node('iuid_backends_random');
# no unique index: collisions are counted, not refused
$node->safe_psql('postgres',
	'CREATE TABLE r (sess int, seq int, pid int, id iuid NOT NULL)');

sub generate_sql
{
	my ($sess) = @_;
	return qq{INSERT INTO r
	  SELECT $sess, g, pg_backend_pid(), iuid_generate(1, 1, '$at')
	  FROM generate_series(1, $per_session) g};
}

# Checks the sessions in [$lo, $hi]: every one has $per_session ids from its
# own backend, all in the one millisecond, strictly increasing; no id is
# shared by two sessions, and the first ids all differ.
sub check_sessions
{
	my ($label, $lo, $hi) = @_;
	my $n = $hi - $lo + 1;
	my $where = "sess BETWEEN $lo AND $hi";

	is(count_rows_sessions_backends($node, "r WHERE $where"),
		$n * $per_session . "/$n/$n",
		"$label: $n sessions of $per_session ids, each in its own backend");

	is( $node->safe_psql(
			'postgres',
			"SELECT count(*) FROM r WHERE $where
			   AND (iuid_timestamp(id) <> '$at' OR iuid_country(id) <> 1
			        OR iuid_entity(id) <> 1)"),
		'0',
		"$label: every id is in the same millisecond, for country 1, entity 1");

	is( $node->safe_psql(
			'postgres',
			"SELECT count(DISTINCT id) FROM r WHERE $where AND seq = 1"),
		$n,
		"$label: the first ids of the sessions differ");

	my $shared = $node->safe_psql(
		'postgres',
		"SELECT count(*) FROM (
			SELECT id FROM r WHERE $where
			GROUP BY id HAVING count(DISTINCT sess) > 1) s");
	is($shared, '0', "$label: the sessions' sets of ids are disjoint");

	is(count_duplicate_ids($node, "r WHERE $where"),
		'0', "$label: no duplicate id at all");

	is(count_ids_not_increasing($node, "r WHERE $where", partition_by => 'sess'),
		'0', "$label: each session's ids strictly increase");
	return;
}

# Two sessions, both connected before either generates.
my $s1 = $node->background_psql('postgres');
my $s2 = $node->background_psql('postgres');
isnt($s1->query_safe('SELECT pg_backend_pid()'),
	$s2->query_safe('SELECT pg_backend_pid()'),
	'two backends');
$s1->query_safe(generate_sql(1));
$s2->query_safe(generate_sql(2));
$s1->quit;
$s2->quit;

check_sessions('2 sessions', 1, 2);

# Eight connections opened at once: pgbench -C connects each client for its
# transaction, and the clients (one thread each) start together.
$node->pgbench(
	'--no-vacuum -C -c 8 -j 8 -t 1',
	0,
	[qr{number of transactions actually processed: 8/8}],
	[qr{^$}],
	'8 concurrent pgbench connections generate ids',
	{
		'002_iuid_backends_random' => generate_sql(':client_id + 100') . ";\n"
	});

check_sessions('8 pgbench sessions', 100, 107);

# and across all ten sessions
is(count_rows_distinct_ids($node, 'r'),
	10 * $per_session . '/' . 10 * $per_session,
	'no id is shared by any of the 10 sessions');

$node->stop;

done_testing();
