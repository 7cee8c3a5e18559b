--
-- Comparisons with the nearest core types (SPEC.md): iuid with uuid, distid
-- with numeric (and so, through their implicit casts to numeric, with
-- bigint, integer and smallint), in both argument orders, as members of the
-- types' operator families, so that a driver's natural parameter type uses
-- the index.  They compare values and never validate.
--
CREATE EXTENSION idgen;

--
-- iuid and uuid: by their bytes, as core's uuid compares; a version 4 uuid
-- is no error
--
CREATE TEMP TABLE u_vals (v uuid);
INSERT INTO u_vals VALUES ('00000000-0000-0000-0000-000000000000'),
	('017f22e2-79b0-402a-8141-23456789abcd'), ('017f22e2-79b0-802a-8141-23456789abcd'),
	('017f22e2-79b0-802a-8141-23456789abce'), ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
	('ffffffff-ffff-ffff-ffff-ffffffffffff');
-- each operator, both orders, against uuid's own: no row disagrees
SELECT a.v AS iuid_side, b.v AS uuid_side
FROM u_vals a, u_vals b
WHERE a.v::text ~ '^.{14}8' AND a.v::text ~ '^.{19}[89ab]'
  AND ((a.v::iuid = b.v) IS DISTINCT FROM (a.v = b.v) OR (b.v = a.v::iuid) IS DISTINCT FROM (b.v = a.v)
    OR (a.v::iuid <> b.v) IS DISTINCT FROM (a.v <> b.v) OR (b.v <> a.v::iuid) IS DISTINCT FROM (b.v <> a.v)
    OR (a.v::iuid < b.v) IS DISTINCT FROM (a.v < b.v) OR (b.v < a.v::iuid) IS DISTINCT FROM (b.v < a.v)
    OR (a.v::iuid <= b.v) IS DISTINCT FROM (a.v <= b.v) OR (b.v <= a.v::iuid) IS DISTINCT FROM (b.v <= a.v)
    OR (a.v::iuid > b.v) IS DISTINCT FROM (a.v > b.v) OR (b.v > a.v::iuid) IS DISTINCT FROM (b.v > a.v)
    OR (a.v::iuid >= b.v) IS DISTINCT FROM (a.v >= b.v) OR (b.v >= a.v::iuid) IS DISTINCT FROM (b.v >= a.v)
    OR iuid_uuid_cmp(a.v::iuid, b.v) IS DISTINCT FROM sign(uuid_cmp(a.v, b.v))
    OR uuid_iuid_cmp(b.v, a.v::iuid) IS DISTINCT FROM sign(uuid_cmp(b.v, a.v)));
-- the pairs compared (the iuid side must be a valid iuid)
SELECT count(*) AS pairs FROM u_vals a, u_vals b
WHERE a.v::text ~ '^.{14}8' AND a.v::text ~ '^.{19}[89ab]';
-- a version 4 uuid compares, never fails
SELECT '017f22e2-79b0-802a-8141-23456789abcd'::iuid = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS eq,
       '017f22e2-79b0-802a-8141-23456789abcd'::iuid < 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS lt,
       'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid > '017f22e2-79b0-802a-8141-23456789abcd'::iuid AS gt;
-- equal values hash alike (the shared hash family relies on it)
SELECT count(*) FILTER (WHERE iuid_hash(v::iuid) <> uuid_hash(v)
                           OR iuid_hash_extended(v::iuid, 42) <> uuid_hash_extended(v, 42)) AS hash_mismatches
FROM u_vals WHERE v::text ~ '^.{14}8' AND v::text ~ '^.{19}[89ab]';

--
-- what a user writes keeps its meaning: an untyped literal is still read as
-- the column's type (and so validated), a uuid = iuid is not ambiguous
--
CREATE TABLE orders (id iuid PRIMARY KEY, d distid UNIQUE, item text);
INSERT INTO orders
SELECT iuid_generate(1, 2, '2024-01-01'::timestamptz + g * interval '1 minute'),
       distid(1088824355131185736905670087 + g * 1000003), 'item ' || g
FROM generate_series(1, 2000) g;
INSERT INTO orders VALUES ('017f22e2-79b0-802a-8141-23456789abcd', 42::numeric, 'the answer');
ANALYZE orders;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF, VERBOSE) SELECT item FROM orders WHERE id = '017f22e2-79b0-802a-8141-23456789abcd';
SELECT regress.err($$SELECT item FROM orders WHERE id = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'$$);
SELECT item FROM orders WHERE '017f22e2-79b0-802a-8141-23456789abcd'::uuid = id;
SELECT item FROM orders WHERE id = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid;
EXPLAIN (COSTS OFF, VERBOSE) SELECT item FROM orders WHERE d = '42';
SELECT regress.err($$SELECT item FROM orders WHERE d = '42.5'$$);
SELECT regress.err($$SELECT item FROM orders WHERE d = '-1'$$);
EXPLAIN (COSTS OFF, VERBOSE) SELECT item FROM orders WHERE d = 42;
EXPLAIN (COSTS OFF, VERBOSE) SELECT item FROM orders WHERE 42 = d;
EXPLAIN (COSTS OFF, VERBOSE) SELECT item FROM orders WHERE d = 42.0;
SELECT item, d = 42 AS int4, d = 42::int8 AS int8, d = 42::int2 AS int2, d = 42.0 AS numeric,
       d = 42.5 AS fraction, d < 42.5 AS below_fraction, d > -1 AS above_negative
FROM orders WHERE d = 42;
-- a float has no comparison with distid (no implicit cast to either side)
SELECT regress.err($$SELECT 1 FROM orders WHERE d = 42::float8$$);

--
-- the driver's natural parameter type uses the index
--
PREPARE by_uuid(uuid) AS SELECT item FROM orders WHERE id = $1;
EXPLAIN (COSTS OFF) EXECUTE by_uuid('017f22e2-79b0-802a-8141-23456789abcd');
EXECUTE by_uuid('017f22e2-79b0-802a-8141-23456789abcd');
PREPARE by_uuids(uuid[]) AS SELECT item FROM orders WHERE id = ANY($1) ORDER BY item;
EXPLAIN (COSTS OFF) EXECUTE by_uuids('{017f22e2-79b0-802a-8141-23456789abcd,a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}');
EXECUTE by_uuids('{017f22e2-79b0-802a-8141-23456789abcd,a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}');
PREPARE uuid_range(uuid, uuid) AS SELECT count(*) FROM orders WHERE id >= $1 AND id < $2;
EXPLAIN (COSTS OFF) EXECUTE uuid_range('00000000-0000-0000-0000-000000000000', '017f22e2-79b0-802a-8141-23456789abce');
EXECUTE uuid_range('00000000-0000-0000-0000-000000000000', '017f22e2-79b0-802a-8141-23456789abce');
PREPARE by_numeric(numeric) AS SELECT item FROM orders WHERE d = $1;
EXPLAIN (COSTS OFF) EXECUTE by_numeric(1088824355131185736905670087 + 5 * 1000003);
EXECUTE by_numeric(1088824355131185736905670087 + 5 * 1000003);
PREPARE by_numerics(numeric[]) AS SELECT item FROM orders WHERE d = ANY($1) ORDER BY item;
EXPLAIN (COSTS OFF) EXECUTE by_numerics(ARRAY[42, 1088824355131185736905670087 + 7 * 1000003]);
EXECUTE by_numerics(ARRAY[42, 1088824355131185736905670087 + 7 * 1000003]);
PREPARE by_int8(int8) AS SELECT item FROM orders WHERE d = $1;
EXPLAIN (COSTS OFF) EXECUTE by_int8(42);
EXECUTE by_int8(42);
PREPARE by_int4(int4) AS SELECT item FROM orders WHERE d = $1;
EXPLAIN (COSTS OFF) EXECUTE by_int4(42);
EXECUTE by_int4(42);
PREPARE by_int2(int2) AS SELECT item FROM orders WHERE d = $1;
EXPLAIN (COSTS OFF) EXECUTE by_int2(42);
EXECUTE by_int2(42);
PREPARE by_int8s(int8[]) AS SELECT item FROM orders WHERE d = ANY($1);
EXPLAIN (COSTS OFF) EXECUTE by_int8s('{42,43}');
EXECUTE by_int8s('{42,43}');
RESET enable_seqscan;

--
-- joins between an iuid column and a uuid column: merge and hash joins use
-- the shared families; a nested loop probes the iuid index
--
CREATE TABLE payments (order_id uuid, n numeric, amount int);
INSERT INTO payments SELECT id::uuid, d::numeric, 10 FROM orders WHERE item <> 'the answer';
INSERT INTO payments VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 12.5, 20);
ANALYZE payments;
SET enable_hashjoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders o JOIN payments p ON o.id = p.order_id;
SELECT count(*) FROM orders o JOIN payments p ON o.id = p.order_id;
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders o JOIN payments p ON p.order_id = o.id;
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders o JOIN payments p ON o.d = p.n;
SELECT count(*) FROM orders o JOIN payments p ON o.d = p.n;
RESET enable_hashjoin;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders o JOIN payments p ON o.id = p.order_id;
SELECT count(*) FROM orders o JOIN payments p ON o.id = p.order_id;
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders o JOIN payments p ON p.order_id = o.id;
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders o JOIN payments p ON o.d = p.n;
SELECT count(*) FROM orders o JOIN payments p ON o.d = p.n;
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders o JOIN payments p ON p.n = o.d;
RESET ALL;
-- a hash index on a distid column serves a numeric (and, through its cast, an integer)
BEGIN;
ALTER TABLE orders DROP CONSTRAINT orders_d_key;
CREATE INDEX orders_d_hash ON orders USING hash (d);
SET LOCAL enable_seqscan = off;
SET LOCAL enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT item FROM orders WHERE d = 42::numeric;
SELECT item FROM orders WHERE d = 42::numeric;
SELECT item FROM orders WHERE d = 42.00;
SELECT item FROM orders WHERE d = 42::int8;
ROLLBACK;
-- a few rows probe the index of the other type's column
EXPLAIN (COSTS OFF) SELECT o.item FROM payments p JOIN orders o ON o.id = p.order_id WHERE p.amount = 20;
EXPLAIN (COSTS OFF) SELECT o.item FROM payments p JOIN orders o ON o.d = p.n WHERE p.amount = 20;
-- an outer join keeps the unmatched uuid
SELECT p.order_id, o.item FROM payments p LEFT JOIN orders o ON o.id = p.order_id WHERE o.id IS NULL;

--
-- distid and numeric or the integers: by value, as numeric compares them;
-- fractions, negatives, numbers above 10^28-1, NaN and infinities simply sort
-- outside, never fail
--
CREATE TEMP TABLE d_vals (v distid);
INSERT INTO d_vals SELECT v::numeric FROM (VALUES (0), (1), (41), (42), (43), (32767), (2147483647), (9223372036854775807),
	(9223372036854775808), (18446744073709551616), (1088824355131185736905670087),
	(9999999999999999999999999999)) x(v);
CREATE TEMP TABLE n_vals (n numeric);
INSERT INTO n_vals VALUES (0), (1), (-1), (41.5), (42), (42.0000001), (-32768), (32767), (-2147483648),
	(2147483647), (9223372036854775807), (-9223372036854775808), (9223372036854775808),
	(18446744073709551616), (1088824355131185736905670087), (1088824355131185736905670087.5),
	(9999999999999999999999999999), (10000000000000000000000000000), ('NaN'), ('Infinity'), ('-Infinity');
-- numeric's own comparison of the same numbers is the reference: the rows
-- where an operator of distid with TYPE (in either order; an integer through
-- its cast to numeric), or the btree comparison function, disagrees with it,
-- over the numbers TYPE can hold (all of them for numeric)
CREATE FUNCTION pg_temp.mismatches(type text, lo numeric DEFAULT NULL, hi numeric DEFAULT NULL)
RETURNS TABLE (v distid, n numeric) LANGUAGE plpgsql AS $$
DECLARE
	cond text := '';
	op text;
BEGIN
	FOREACH op IN ARRAY ARRAY['=', '<>', '<', '<=', '>', '>='] LOOP
		cond := cond || format(' OR (d.v %1$s c.i) IS DISTINCT FROM (d.v::numeric %1$s n.n)'
			' OR (c.i %1$s d.v) IS DISTINCT FROM (n.n %1$s d.v::numeric)', op);
	END LOOP;
	RETURN QUERY EXECUTE format(
		'SELECT d.v, n.n FROM d_vals d, n_vals n, LATERAL (SELECT n.n::%1$s AS i) c'
		' WHERE ($3 OR (n.n BETWEEN $1 AND $2 AND n.n = round(n.n)))', type)
		|| format(' AND (false%s', cond)
		|| CASE WHEN type = 'numeric' THEN
			' OR distid_numeric_cmp(d.v, c.i) IS DISTINCT FROM numeric_cmp(d.v::numeric, n.n)'
			' OR numeric_distid_cmp(c.i, d.v) IS DISTINCT FROM numeric_cmp(n.n, d.v::numeric)' ELSE '' END
		|| ')'
		USING lo, hi, type = 'numeric';
END $$;
SELECT * FROM pg_temp.mismatches('numeric')
UNION ALL SELECT * FROM pg_temp.mismatches('int8', -9223372036854775808, 9223372036854775807)
UNION ALL SELECT * FROM pg_temp.mismatches('int4', -2147483648, 2147483647)
UNION ALL SELECT * FROM pg_temp.mismatches('int2', -32768, 32767);
-- the pairs compared, per type
SELECT count(*) AS numeric_pairs,
       count(*) FILTER (WHERE n.n BETWEEN -9223372036854775808 AND 9223372036854775807 AND n.n = round(n.n)) AS int8_pairs,
       count(*) FILTER (WHERE n.n BETWEEN -2147483648 AND 2147483647 AND n.n = round(n.n)) AS int4_pairs,
       count(*) FILTER (WHERE n.n BETWEEN -32768 AND 32767 AND n.n = round(n.n)) AS int2_pairs
FROM d_vals d, n_vals n;

-- equal values hash alike in distid's hash family (what hash joins and hash
-- indexes rely on): a distid as the numerics equal to it, checked against
-- numeric's own =; numerics equal as numerics alike
SELECT count(*) FILTER (WHERE d.v::numeric = n.n) AS equal_pairs,
       count(*) FILTER (WHERE d.v::numeric = n.n AND (distid_hash(d.v) <> distid_numeric_hash(n.n)
           OR distid_hash_extended(d.v, 7) <> distid_numeric_hash_extended(n.n, 7))) AS hash_mismatches
FROM d_vals d, (SELECT n FROM n_vals UNION ALL SELECT n * 1.000 FROM n_vals WHERE n = round(n)) n;
SELECT count(*) FILTER (WHERE distid_numeric_hash(a) <> distid_numeric_hash(b)
           OR distid_numeric_hash_extended(a, 7) <> distid_numeric_hash_extended(b, 7)) AS numeric_hash_mismatches
FROM (SELECT n AS a, n * 1.000 AS b FROM n_vals WHERE n = n) x;

--
-- the families' members and flags: the cross-type = of iuid with uuid and of
-- distid with numeric hash and merge
--
SELECT o.oid::regoperator AS operator, o.oprcanmerge AS merges, o.oprcanhash AS hashes,
       array_agg(am.amname || ':' || f.opfname ORDER BY am.amname) AS families
FROM pg_operator o
JOIN pg_amop ao ON ao.amopopr = o.oid
JOIN pg_opfamily f ON f.oid = ao.amopfamily JOIN pg_am am ON am.oid = f.opfmethod
WHERE o.oprname = '=' AND f.opfname IN ('iuid_ops', 'distid_ops')
GROUP BY o.oid ORDER BY 1::text;

-- the families stay complete (every pair of their types has all operators
-- and the support functions): amvalidate finds nothing to say
SELECT c.opcname, am.amname, amvalidate(c.oid) AS valid
FROM pg_opclass c JOIN pg_am am ON am.oid = c.opcmethod
WHERE c.opcname IN ('iuid_ops', 'distid_ops') ORDER BY 1, 2;

DROP FUNCTION pg_temp.mismatches(text, numeric, numeric);
DROP TABLE payments, orders, u_vals, d_vals, n_vals;
DROP EXTENSION idgen;
