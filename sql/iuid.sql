--
-- iuid: vectors, input errors, generation, ordering, indexes, casts, partitions
--
CREATE EXTENSION idgen;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';
SET extra_float_digits = 0;

-- the random field of an iuid, computed from its text with core SQL only
CREATE FUNCTION pg_temp.rand_field(id iuid) RETURNS bigint LANGUAGE sql AS $$
	SELECT ('x' || substr(replace(id::text, '-', ''), 17, 16))::bit(64)::bigint
	       & ((1::bigint << 54) - 1)
$$;

--
-- doc/formats.md vectors
--
SELECT '017f22e2-79b0-802a-8141-23456789abcd'::iuid AS id;
SELECT iuid_timestamp(v), iuid_country(v), iuid_entity(v), iuid_format_version(v),
       pg_temp.rand_field(v) = x'0123456789ABCD'::bigint AS random_ok
FROM (SELECT '017f22e2-79b0-802a-8141-23456789abcd'::iuid AS v) s;
SELECT iuid_timestamp(v), iuid_country(v), iuid_entity(v), iuid_format_version(v),
       pg_temp.rand_field(v) = (1::bigint << 54) - 1 AS random_is_max
FROM (SELECT '017f22e2-79b0-80ff-bfff-ffffffffffff'::iuid AS v) s;

-- every spelling core uuid accepts reads as the canonical form
SELECT s, s::iuid AS id
FROM (VALUES ('017F22E2-79B0-802A-8141-23456789ABCD'),
             ('{017f22e2-79b0-802a-8141-23456789abcd}'),
             ('017f22e279b0802a814123456789abcd'),
             ('017f-22e2-79b0-802a-8141-2345-6789-abcd')) v(s);

-- format version nibble is read, not rejected
SELECT iuid_format_version('017f22e2-79b0-8f2a-8141-23456789abcd');

--
-- malformed text input: 22P02 with a detail
--
SELECT regress.err($$SELECT ''::iuid$$);
SELECT regress.err($$SELECT '{'::iuid$$);
SELECT regress.err($$SELECT '017f22e2-79b0-802a-8141-23456789abc'::iuid$$);
SELECT regress.err($$SELECT '017f22e2-79b0-802a-8141-23456789abcd0'::iuid$$);
SELECT regress.err($$SELECT '017f22e2'::iuid$$);
SELECT regress.err($$SELECT '017g22e2-79b0-802a-8141-23456789abcd'::iuid$$);
SELECT regress.err($$SELECT '017f22e2-79b0-802a-8141-23456789abcé'::iuid$$);
SELECT regress.err($$SELECT ' 017f22e2-79b0-802a-8141-23456789abcd'::iuid$$);
SELECT regress.err($$SELECT '017f22e2--79b0-802a-8141-23456789abcd'::iuid$$);
SELECT regress.err($$SELECT '{017f22e2-79b0-802a-8141-23456789abcd'::iuid$$);
-- a valid uuid of another version or variant is not an iuid
SELECT regress.err($$SELECT '017f22e2-79b0-402a-8141-23456789abcd'::iuid$$);
SELECT regress.err($$SELECT '017f22e2-79b0-702a-8141-23456789abcd'::iuid$$);
SELECT regress.err($$SELECT '017f22e2-79b0-802a-c141-23456789abcd'::iuid$$);
SELECT regress.err($$SELECT '017f22e2-79b0-802a-4141-23456789abcd'::iuid$$);
SELECT regress.err($$SELECT '017f22e2-79b0-802a-0141-23456789abcd'::iuid$$);
-- the plain error, as a client sees it
SELECT 'not an id'::iuid;

--
-- generation
--
-- extractors agree with the clock to the millisecond and with the arguments
DO $$
DECLARE
	t0 timestamptz;
	t1 timestamptz;
	id iuid;
	bad int := 0;
BEGIN
	FOR i IN 1..2000 LOOP
		t0 := clock_timestamp();
		id := iuid_generate(i % 256, (i * 7) % 256);
		t1 := clock_timestamp();
		IF iuid_timestamp(id) < date_trunc('milliseconds', t0)
		   OR iuid_timestamp(id) > t1
		   OR iuid_country(id) <> i % 256 OR iuid_entity(id) <> (i * 7) % 256
		   OR iuid_format_version(id) <> 0 THEN
			bad := bad + 1;
		END IF;
	END LOOP;
	RAISE NOTICE 'ids off the clock or arguments: %', bad;
END $$;

-- strictly increasing within a session, whatever the stream
SELECT count(*) AS ids, count(*) FILTER (WHERE id <= prev) AS not_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, iuid_generate(3, 4) AS id FROM generate_series(1, 50000) n) g) s;
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing_per_stream
FROM (SELECT id, lag(id) OVER (PARTITION BY n % 3 ORDER BY n) AS prev
      FROM (SELECT n, iuid_generate(n % 3, 200) AS id FROM generate_series(1, 30000) n) g) s;

-- the random field of a new millisecond has its top bit clear (each id here
-- is the first of its millisecond; with the bit left random half would fail)
SELECT count(*) FILTER (WHERE pg_temp.rand_field(id) >= (1::bigint << 53)) AS top_bit_set
FROM (SELECT iuid_generate(255, 255, '2019-01-01 00:00+00'::timestamptz + g * interval '1 ms') AS id
      FROM generate_series(1, 1000) g) s;

-- from the clock, the top 12 bits of a new millisecond's random field are
-- the clock's fraction of that millisecond
SELECT checked > 150 AS enough_checked, off_clock
FROM regress.fraction_off_clock('SELECT iuid_generate(1, 1)::text',
	'SELECT pg_temp.rand_field($1::iuid) >> 42', 'SELECT iuid_timestamp($1::iuid)', 200);
-- idgen.sub_millisecond_clock = off: those bits are random (a few fall
-- into the clock's window by chance), and so may be the top bit
SHOW idgen.sub_millisecond_clock;
SET idgen.sub_millisecond_clock = off;
SELECT checked > 150 AS enough_checked, off_clock > checked / 2 AS mostly_off_clock
FROM regress.fraction_off_clock('SELECT iuid_generate(1, 1)::text',
	'SELECT pg_temp.rand_field($1::iuid) >> 42', 'SELECT iuid_timestamp($1::iuid)', 200);
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, iuid_generate(1, 1) AS id FROM generate_series(1, 20000) n) g) s;
-- each id after a sleep, so the first of its millisecond: a fresh field, all
-- random; that none of 64 has its top bit set has odds of 2^-64
SELECT count(*) FILTER (WHERE pg_temp.rand_field(id) >= (1::bigint << 53)) > 0 AS top_bit_set
FROM (SELECT iuid_generate(1, 1) AS id
      FROM generate_series(1, 64) n, LATERAL pg_sleep(0.0015 + 0 * n)) g;
RESET idgen.sub_millisecond_clock;

-- backfill: the id carries the given time, truncated to the millisecond
SELECT iuid_timestamp(iuid_generate(1, 2, '2024-05-06 07:08:09.123999+00')),
       iuid_country(iuid_generate(1, 2, '2024-05-06 07:08:09.123999+00')),
       iuid_entity(iuid_generate(1, 2, '2024-05-06 07:08:09.123999+00'));
-- many ids for one instant are distinct and increasing
SELECT count(DISTINCT id) AS distinct_ids, count(*) FILTER (WHERE id <= prev) AS not_increasing,
       min(iuid_timestamp(id)) = max(iuid_timestamp(id)) AS one_instant
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, iuid_generate(9, 9, '2020-01-01 00:00:00+00') AS id
            FROM generate_series(1, 10000) n) g) s;

-- NULL in, NULL out
SELECT iuid_generate(NULL, 1) IS NULL AS a, iuid_generate(1, NULL) IS NULL AS b,
       iuid_generate(1, 1, NULL) IS NULL AS c;

-- country and entity are 0..255
SELECT regress.err($$SELECT iuid_generate(256, 1)$$);
SELECT regress.err($$SELECT iuid_generate(-1, 1)$$);
SELECT regress.err($$SELECT iuid_generate(1, 256)$$);
SELECT regress.err($$SELECT iuid_generate(1, -2147483648, now())$$);
SELECT iuid_country(iuid_generate(0, 255)), iuid_entity(iuid_generate(0, 255));
-- times outside 1970 .. 10889 are errors
SELECT regress.err($$SELECT iuid_generate(1, 1, '1969-12-31 23:59:59.999+00')$$);
SELECT regress.err($$SELECT iuid_generate(1, 1, 'infinity')$$);

--
-- iuid_from_timestamp: the least iuid of the millisecond
--
SELECT iuid_from_timestamp('2022-02-22 19:22:22.123456+00');
SELECT iuid_from_timestamp('1970-01-01 00:00:00+00');
SELECT iuid_from_timestamp('10889-08-02 05:31:50.655+00');
SELECT iuid_from_timestamp('2022-02-22 19:22:22+00') <= '017f22e2-79b0-802a-8141-23456789abcd'::iuid AS le_vector,
       iuid_from_timestamp('2022-02-22 19:22:22.001+00') > '017f22e2-79b0-80ff-bfff-ffffffffffff'::iuid AS gt_vector;
SELECT regress.err($$SELECT iuid_from_timestamp('1969-12-31 23:59:59.999999+00')$$);
SELECT regress.err($$SELECT iuid_from_timestamp('10889-08-02 05:31:50.656+00')$$);
SELECT regress.err($$SELECT iuid_from_timestamp('-infinity')$$);
-- the round trip at the edges
SELECT iuid_timestamp(iuid_from_timestamp('1970-01-01 00:00:00+00')) AS first,
       iuid_timestamp(iuid_from_timestamp('10889-08-02 05:31:50.655+00')) AS last;

--
-- comparison
--
CREATE TEMP TABLE pair AS
SELECT '017f22e2-79b0-802a-8141-23456789abcd'::iuid AS a, '017f22e2-79b0-80ff-bfff-ffffffffffff'::iuid AS b;
SELECT a < b AS lt, a <= b AS le, a = b AS eq, a <> b AS ne, a >= b AS ge, a > b AS gt,
       iuid_cmp(a, b) AS cmp_ab, iuid_cmp(b, a) AS cmp_ba, iuid_cmp(a, a) AS cmp_aa,
       a = a AS eq_self, a <= a AS le_self, a >= a AS ge_self
FROM pair;

-- order is time first, then country, entity, random
CREATE TEMP TABLE some_ids (label text, id iuid);
INSERT INTO some_ids VALUES
	('2022, country 255', '017f22e2-79b0-80ff-bfff-ffffffffffff'),
	('1970 epoch',        '00000000-0000-8000-8000-000000000000'),
	('2022, country 42',  '017f22e2-79b0-802a-8141-23456789abcd'),
	('2022 +1 ms',        '017f22e2-79b1-8000-8000-000000000000'),
	('2022, entity 6',    '017f22e2-79b0-802a-8181-23456789abcd'),
	('year 10889',        'ffffffff-ffff-8000-8000-000000000000');
SELECT label, id FROM some_ids ORDER BY id;
SELECT label FROM some_ids ORDER BY id DESC LIMIT 1;
SELECT min(id), max(id) FROM some_ids;

-- sorting many ids (abbreviated keys) agrees with their hex text's byte order
CREATE TEMP TABLE many AS
SELECT iuid_generate((random() * 255)::int, (random() * 255)::int,
                     timestamptz '2020-01-01' + random() * interval '1000 days') AS id
FROM generate_series(1, 50000);
INSERT INTO many SELECT iuid_generate(1, 1, '2021-06-01') FROM generate_series(1, 20000);
SELECT (SELECT array_agg(id ORDER BY id) FROM many)
     = (SELECT array_agg(id ORDER BY id::text COLLATE "C") FROM many) AS sorted_like_text;
SELECT count(*) FILTER (WHERE id <= prev) AS out_of_order
FROM (SELECT id, lag(id) OVER (ORDER BY id) AS prev FROM many) s;
SELECT min(id) = (SELECT id FROM many ORDER BY id LIMIT 1) AS min_ok,
       max(id) = (SELECT id FROM many ORDER BY id DESC LIMIT 1) AS max_ok
FROM many;

--
-- hashing
--
SELECT iuid_hash(a) = iuid_hash(a::text::iuid) AS stable,
       iuid_hash(a) <> iuid_hash(b) AS differs,
       (iuid_hash_extended(a, 0) & 4294967295) = (iuid_hash(a)::bigint & 4294967295) AS seed0_matches,
       iuid_hash_extended(a, 0) <> iuid_hash_extended(a, 1) AS seed_matters
FROM pair;
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT id, count(*) FROM many GROUP BY id;
SELECT count(*) AS groups, sum(c) AS rows FROM (SELECT id, count(*) AS c FROM many GROUP BY id) s;
RESET enable_sort;
SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM many m1 JOIN many m2 ON m1.id = m2.id;
SELECT count(*) FROM many m1 JOIN many m2 ON m1.id = m2.id;
RESET enable_mergejoin;
RESET enable_nestloop;

--
-- indexes
--
CREATE TABLE tbl (id iuid PRIMARY KEY DEFAULT iuid_generate(42, 5), n int);
INSERT INTO tbl (n) SELECT g FROM generate_series(1, 20000) g;
INSERT INTO tbl SELECT id, -1 FROM some_ids;
ANALYZE tbl;
CREATE EXTENSION amcheck;
SELECT bt_index_check('tbl_pkey', true);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
-- btree
EXPLAIN (COSTS OFF) SELECT n FROM tbl WHERE id = '017f22e2-79b0-802a-8141-23456789abcd';
SELECT n FROM tbl WHERE id = '017f22e2-79b0-802a-8141-23456789abcd';
EXPLAIN (COSTS OFF) SELECT count(*) FROM tbl WHERE id < '017f22e2-79b1-8000-8000-000000000000';
SELECT count(*) FROM tbl WHERE id < '017f22e2-79b1-8000-8000-000000000000';
-- hash
CREATE INDEX tbl_hash ON tbl USING hash (id);
ALTER TABLE tbl DROP CONSTRAINT tbl_pkey;
EXPLAIN (COSTS OFF) SELECT n FROM tbl WHERE id = '017f22e2-79b0-802a-8141-23456789abcd';
SELECT n FROM tbl WHERE id = '017f22e2-79b0-802a-8141-23456789abcd';
DROP INDEX tbl_hash;
-- BRIN
CREATE INDEX tbl_brin ON tbl USING brin (id) WITH (pages_per_range = 2);
SET enable_bitmapscan = on;
EXPLAIN (COSTS OFF) SELECT count(*) FROM tbl WHERE id >= '017f22e2-79b0-8000-8000-000000000000' AND id < '017f22e2-79b1-8000-8000-000000000000';
SELECT count(*) FROM tbl WHERE id >= '017f22e2-79b0-8000-8000-000000000000' AND id < '017f22e2-79b1-8000-8000-000000000000';
RESET enable_seqscan;
RESET enable_bitmapscan;
-- the same count without an index
SELECT count(*) FROM tbl WHERE id >= '017f22e2-79b0-8000-8000-000000000000' AND id < '017f22e2-79b1-8000-8000-000000000000';
-- btree deduplication is allowed (btequalimage)
CREATE INDEX tbl_n_id ON tbl (id);
CREATE EXTENSION pageinspect;
SELECT allequalimage FROM bt_metap('tbl_n_id');
SELECT amname, opcname, amproc::regproc FROM pg_amproc ap
  JOIN pg_opfamily f ON f.oid = ap.amprocfamily JOIN pg_am a ON a.oid = f.opfmethod
  JOIN pg_opclass c ON c.opcfamily = f.oid
-- (skip support, btree function 6, exists on 18 only: test skipscan)
WHERE ap.amproclefttype = 'iuid'::regtype AND NOT (a.amname = 'btree' AND amprocnum = 6)
ORDER BY 1, 2, amprocnum;

--
-- casts
--
SELECT '017f22e2-79b0-802a-8141-23456789abcd'::iuid::uuid AS to_uuid,
       '017f22e2-79b0-802a-8141-23456789abcd'::uuid::iuid AS from_uuid,
       '017f22e2-79b0-802a-8141-23456789abcd'::iuid::text AS to_text;
SELECT count(*) FILTER (WHERE id::uuid::iuid <> id OR id::text::iuid <> id) AS roundtrip_mismatches
FROM many;
SELECT regress.err($$SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid::iuid$$);
SELECT regress.err($$SELECT '017f22e2-79b0-802a-c141-23456789abcd'::uuid::iuid$$);
-- assignment casts: a uuid column takes an iuid, an iuid column a valid uuid
CREATE TEMP TABLE u (u uuid, i iuid);
INSERT INTO u VALUES ('017f22e2-79b0-802a-8141-23456789abcd'::iuid, '017f22e2-79b0-802a-8141-23456789abcd'::uuid);
SELECT * FROM u;

--
-- binary I/O
--
SELECT iuid_send('017f22e2-79b0-802a-8141-23456789abcd') = '\x017f22e279b0802a814123456789abcd'::bytea AS send_ok;
CREATE TEMP TABLE bin_in (id iuid);
DO $$
BEGIN
	EXECUTE format('COPY (SELECT id FROM some_ids) TO %L WITH (FORMAT binary)',
	               regress.binfile(''));
	EXECUTE format('COPY bin_in FROM %L WITH (FORMAT binary)',
	               regress.binfile(''));
	-- a uuid of version 4, read as iuid, fails the same checks as text
	EXECUTE format('COPY (SELECT %L::uuid) TO %L WITH (FORMAT binary)',
	               'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
	               regress.binfile(''));
END $$;
SELECT (SELECT array_agg(id ORDER BY id) FROM bin_in) = (SELECT array_agg(id ORDER BY id) FROM some_ids) AS binary_roundtrip;
SELECT regress.err(format('COPY bin_in FROM %L WITH (FORMAT binary)',
                          regress.binfile('')));
SELECT regress.rm(regress.binfile(''));

--
-- range partitioning by month on iuid_from_timestamp bounds
--
CREATE TABLE events (id iuid NOT NULL, note text) PARTITION BY RANGE (id);
CREATE TABLE events_2026_01 PARTITION OF events
	FOR VALUES FROM (iuid_from_timestamp('2026-01-01 00:00+00')) TO (iuid_from_timestamp('2026-02-01 00:00+00'));
CREATE TABLE events_2026_02 PARTITION OF events
	FOR VALUES FROM (iuid_from_timestamp('2026-02-01 00:00+00')) TO (iuid_from_timestamp('2026-03-01 00:00+00'));
CREATE TABLE events_2026_03 PARTITION OF events
	FOR VALUES FROM (iuid_from_timestamp('2026-03-01 00:00+00')) TO (iuid_from_timestamp('2026-04-01 00:00+00'));
INSERT INTO events VALUES
	(iuid_generate(1, 1, '2026-01-01 00:00:00+00'), 'first instant of January'),
	(iuid_generate(255, 255, '2026-01-31 23:59:59.999+00'), 'last millisecond of January'),
	(iuid_generate(0, 0, '2026-02-01 00:00:00+00'), 'first instant of February'),
	(iuid_generate(7, 7, '2026-02-15 12:00:00+00'), 'mid February'),
	(iuid_generate(7, 7, '2026-03-31 23:59:59.999+00'), 'last millisecond of March');
SELECT tableoid::regclass AS partition, note FROM events ORDER BY id;
SELECT regress.err($$INSERT INTO events VALUES (iuid_from_timestamp('2026-04-01 00:00:00+00'), 'April')$$);
EXPLAIN (COSTS OFF)
SELECT note FROM events
WHERE id >= iuid_from_timestamp('2026-02-01 00:00+00') AND id < iuid_from_timestamp('2026-03-01 00:00+00');
SELECT note FROM events
WHERE id >= iuid_from_timestamp('2026-02-01 00:00+00') AND id < iuid_from_timestamp('2026-03-01 00:00+00')
ORDER BY id;

-- the extension drops cleanly with everything built on it
SET client_min_messages = warning;
DROP EXTENSION idgen CASCADE;
DROP EXTENSION amcheck;
DROP EXTENSION pageinspect;
RESET client_min_messages;
SELECT count(*) AS idgen_types_left FROM pg_type WHERE typname IN ('iuid', '_iuid');
