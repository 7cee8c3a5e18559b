# The per-session rules of the SQL edition, whose state lives in custom
# settings of the session (idgp.<generator>), and its order
# across sessions:
#  - concurrent sessions (pgbench clients, released together from a
#    barrier), each making ids with every generator of both editions and
#    backfilling one millisecond: within each session every generator
#    strictly increases and the backfill walk never repeats; no id repeats
#    across sessions;
#  - two sessions taking turns make ids in the order made;
#  - a rolled-back transaction or savepoint undoes the state: the next id is
#    above every id of work that was kept;
#  - a state the session did not write (a role's or a database's default)
#    is ignored, and so is garbage; one of another country and entity does
#    not change the id's fields;
#  - a full random field borrows the next millisecond, live and backfill.

use strict;
use warnings;

use FindBin;
use lib "$ENV{IDGEN_PORTABLE_ROOT}/test/t";
use IdgenTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $sessions = 4;
my $per = $ENV{IDGEN_PORTABLE_SESSION_IDS} // 2000;

my $node = start_idgen_node('sessions');
my $q = sub { $node->safe_psql('postgres', $_[0]) };
$q->(
	q{
	CREATE EXTENSION idgen_portable CASCADE;
	-- one row per id: session, order made, generator, the id as text that sorts as the id
	CREATE TABLE ids (sess int, g int, pid int, kind text, id text COLLATE "C");
});

# Every generator once per row, in generate_series order (the VALUES list
# refers to g, so it is evaluated again for each g); distids as 28-digit
# text so that text order is numeric order.
my $script = <<"EOF";
INSERT INTO ids SELECT :client_id, k.g, pg_backend_pid(), k.kind, k.id
FROM generate_series(1, $per) g, LATERAL (VALUES
	(g, 'sql iuid', idgen_portable.iuid_generate(3, 4)::text),
	(g, 'sql backfill', idgen_portable.iuid_generate(3, 4, '2024-02-29 12:34:56.789Z')::text),
	(g, 'sql distid', lpad(idgen_portable.distid_generate()::text, 28, '0')),
	(g, 'sql distid dense', lpad(idgen_portable.distid_generate_dense()::text, 28, '0')),
	(g, 'sql distid128', idgen_portable.distid128_generate()::text),
	(g, 'sql flaxid', idgen_portable.flaxid_generate()),
	(g, 'C iuid', public.iuid_generate(3, 4)::text),
	(g, 'C backfill', public.iuid_generate(3, 4, '2024-02-29 12:34:56.789Z')::text),
	(g, 'C distid', lpad(public.distid_generate()::text, 28, '0')),
	(g, 'C distid128', public.distid128_generate()::text),
	(g, 'C flaxid', public.flaxid_generate()::text)) AS k(g, kind, id);
EOF
my $script_file = pgbench_script($node, 'sessions.sql', $script);
my $barrier = hold_barrier(
	$node,
	lock => 'BEGIN; LOCK TABLE ids IN ACCESS EXCLUSIVE MODE',
	unlock => 'COMMIT',
	waiting => "backend_type = 'client backend' AND wait_event_type = 'Lock'");
my $pgbench = start_pgbench($node, $sessions, $script_file);
wait_at_barrier($node, $barrier, $sessions, 'INSERT INTO ids', "all $sessions sessions wait at the barrier");
release_barrier($barrier);
check_pgbench($pgbench, '', no_errors => 1);

is($q->('SELECT count(DISTINCT sess) || \'/\' || count(DISTINCT pid) || \'/\' || count(*) FROM ids'),
	"$sessions/$sessions/" . ($sessions * $per * 11), "$sessions sessions, each in a backend of its own, $per ids of 11 kinds");
is( $q->(
		q{SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY sess, kind ORDER BY g) AS back FROM ids) x WHERE back}),
	'0', 'within each session, each generator of both editions strictly increases, backfill included');
is($q->('SELECT count(*) FROM (SELECT kind, id FROM ids GROUP BY 1, 2 HAVING count(*) > 1) d'),
	'0', 'no id repeats, in a session or across sessions');
is( $q->(
		q{SELECT count(*) FROM ids WHERE kind LIKE '% backfill'
		AND public.iuid_timestamp(id::public.iuid) <> '2024-02-29 12:34:56.789Z'}),
	'0', 'every backfilled id carries the millisecond asked for');
# the sessions really overlapped: each one's first SQL iuid before every one's last
is( $q->(
		q{SELECT max(first) < min(last) FROM (SELECT sess, min(public.iuid_timestamp(id::public.iuid)) AS first,
			max(public.iuid_timestamp(id::public.iuid)) AS last FROM ids WHERE kind = 'sql iuid' GROUP BY sess) s}),
	't', 'the sessions generated at the same time');

#
# Across sessions: two sessions taking turns (each id made after the other
# session's last one returned) make ids in the order made, by the clock
# fraction on top of the random field, where the C generators do so too
# (not distid_generate(), the reference's algorithm)
#
my @turn = map { $node->background_psql('postgres') } 1 .. 2;
my $gens = q{idgen_portable.iuid_generate(3, 4)::text || ' ' || idgen_portable.flaxid_generate() || ' '
	|| idgen_portable.distid128_generate()::text || ' ' || lpad(idgen_portable.distid_generate_dense()::text, 28, '0')};
my @made;
push @made, [ split / /, $turn[ $_ % 2 ]->query_safe("SELECT $gens") ] for 1 .. 60;
$_->quit for @turn;
my @out_of_order;
for my $k (0 .. 3)
{
	for my $i (1 .. $#made)
	{
		push @out_of_order, "generator $k, id $i" unless ($made[$i][$k] cmp $made[ $i - 1 ][$k]) > 0;
	}
}
is("@out_of_order", '', 'two sessions taking turns: iuid, flaxid, DistributedId128 and dense distid ids in the order made');

#
# Rollbacks: the state goes back with the setting; kept work stays in order
#
is( $q->(
		q{CREATE TEMP TABLE kept (n int, id uuid);
		INSERT INTO kept VALUES (1, idgen_portable.iuid_generate(1, 1));
		BEGIN;
		INSERT INTO kept VALUES (0, idgen_portable.iuid_generate(1, 1));
		ROLLBACK;
		INSERT INTO kept VALUES (2, idgen_portable.iuid_generate(1, 1));
		BEGIN;
		INSERT INTO kept VALUES (3, idgen_portable.iuid_generate(1, 1));
		SAVEPOINT s;
		CREATE TEMP TABLE undone AS SELECT idgen_portable.iuid_generate(1, 1) FROM generate_series(1, 5);
		ROLLBACK TO SAVEPOINT s;
		INSERT INTO kept VALUES (4, idgen_portable.iuid_generate(1, 1));
		COMMIT;
		DO $$BEGIN
			FOR i IN 5 .. 50 LOOP
				BEGIN
					INSERT INTO kept VALUES (i, idgen_portable.iuid_generate(1, 1));
					IF i % 3 = 0 THEN RAISE EXCEPTION 'undo'; END IF;
				EXCEPTION WHEN raise_exception THEN NULL;
				END;
			END LOOP;
		END$$;
		SELECT count(*) || ' ' || count(*) FILTER (WHERE id <= prev)
		FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM kept) x;}),
	'35 0', 'after rolled-back transactions, savepoints and exception blocks, the ids kept strictly increase');

#
# A state the session did not write is ignored
#
# ahead(): 0.9 s ahead of the clock, within the 1 s a clock may go back; a
# state there, if followed, would give ids of that millisecond (or the next:
# the field is one below full, 2^54 - 2).  iuid_state(ms, rand) is the
# state idgp.iuid of the last id: that iuid (country 1, entity 1) in
# hexadecimal (doc/portable.md)
$q->(
	q{CREATE FUNCTION ahead() RETURNS bigint LANGUAGE sql AS
		$$SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint + 900$$;
	CREATE FUNCTION iuid_state(ms bigint, rand bigint) RETURNS text LANGUAGE sql AS
		$$SELECT lpad(to_hex((ms << 16) | 32769), 16, '0') || to_hex(-9223372036854775808 | (1::bigint << 54) | rand)$$;
	CREATE TABLE state (a bigint)});
my $ms_of = q{(extract(epoch FROM public.iuid_timestamp(idgen_portable.iuid_generate(1, 1)::public.iuid)) * 1000)::bigint};
$q->(
	q{TRUNCATE state; INSERT INTO state SELECT ahead();
	DO $$BEGIN EXECUTE format('ALTER ROLE CURRENT_USER SET idgp.iuid = %L',
		iuid_state((SELECT a FROM state), 18014398509481982)); END$$});
is($q->(qq{SELECT current_setting('idgp.iuid') = iuid_state(a, 18014398509481982), $ms_of < a FROM state}),
	"t|t", 'a role\'s default state is ignored: the id is from the clock');
$q->(q{ALTER ROLE CURRENT_USER RESET idgp.iuid});
is( $q->(
		q{SELECT set_config('idgp.iuid', lpad(to_hex((a << 16) | 33023), 16, '0') || 'bfffffffffffffff', false) IS NOT NULL FROM state;
		SELECT public.iuid_country(x) || ' ' || public.iuid_entity(x) || ' ' || public.iuid_format_version(x)
		FROM (SELECT idgen_portable.iuid_generate(200, 100)::public.iuid AS x) y;
		SELECT set_config('idgp.iuid', 'garbage', false) IS NOT NULL;
		SELECT idgen_portable.iuid_generate(7, 8) IS NOT NULL;}),
	"t\n200 100 0\nt\nt", 'a state of another country and entity, or garbage: the id\'s fields stay intact');
# a last id of another stream in the same millisecond, its field full: as
# text the next id of a higher country would be above it, but its random
# field is not; the next id borrows the next millisecond (50 tries, each
# with the state made in the clock's millisecond: the last id and its
# stream, idgp.iuid_s, entity << 9 | country, which the worker writes)
is( $q->(
		q{CREATE FUNCTION cross_stream() RETURNS int LANGUAGE plpgsql AS $$
		DECLARE
			ms bigint;
			id uuid;
			bad int := 0;
		BEGIN
			FOR i IN 1 .. 50 LOOP
				ms := floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint;
				PERFORM set_config('idgp.iuid', lpad(to_hex((ms << 16) | 32768), 16, '0')
					|| to_hex(-9223372036854775808 | 18014398509481983), false);
				PERFORM set_config('idgp.iuid_s', '0', false);
				id := idgen_portable.iuid_generate(1, 0);
				IF ('x' || substr(replace(id::text, '-', ''), 1, 12))::bit(48)::bigint <= ms THEN
					bad := bad + 1;
				END IF;
			END LOOP;
			RETURN bad;
		END$$;
		SELECT cross_stream();}),
	'0', 'after a full field of another stream in the same millisecond, the next id borrows the next millisecond');

#
# A full random field borrows the next millisecond (SPEC.md), as the C
# generators do; the state this session wrote is followed
#
is( $q->(
		qq{TRUNCATE state; INSERT INTO state SELECT ahead();
		SELECT set_config('idgp.iuid', iuid_state(a, 18014398509481982), false) IS NOT NULL FROM state;
		SELECT $ms_of - a FROM state;}),
	"t\n1", 'live: after the last id of a millisecond (a clock less than 1 s behind) comes the next millisecond\'s');
my $at = $q->(q{SELECT (extract(epoch FROM timestamptz '2024-02-29 12:34:56.789Z') * 1000)::bigint});
is( $q->(
		qq{SELECT set_config('idgp.iuid_at', '$at', false) IS NOT NULL AND set_config('idgp.iuid_at_b', '$at', false) IS NOT NULL
			AND set_config('idgp.iuid_at_r', '118014398509481982', false) IS NOT NULL;
		CREATE TEMP TABLE w AS SELECT g, idgen_portable.iuid_generate(1, 1, '2024-02-29 12:34:56.789Z') AS x
			FROM generate_series(1, 3) g;
		INSERT INTO w VALUES (4, idgen_portable.iuid_generate(1, 1, '2024-02-29 12:34:56.790Z')),
			(5, idgen_portable.iuid_generate(1, 1, '2024-02-29 12:34:56.789Z')),
			(6, idgen_portable.iuid_generate(1, 1, '2024-02-29 12:34:56.791Z'));
		SELECT string_agg(((extract(epoch FROM public.iuid_timestamp(x::public.iuid)) * 1000)::bigint - $at)
			|| CASE WHEN x > prev THEN '+' ELSE '' END, ' ' ORDER BY g)
		FROM (SELECT g, x, lag(x) OVER (ORDER BY g) AS prev FROM w) y;}),
	"t\n1 1+ 1+ 1+ 1+ 2+",
	'backfill: a full millisecond borrows the next; the walk goes on there for the milliseconds it covers, not after');

$node->stop;
done_testing();
