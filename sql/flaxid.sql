--
-- flaxid: vectors, input errors, generation, text order = binary order, indexes
--
CREATE EXTENSION idgen;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

--
-- doc/formats.md vectors: ms 24869425807, random 0x7680cb8bb9bdc1 -> 0RdKJcxqVBiAiQr0
-- (2015-10-15 20:10:25.807 UTC); the epoch with random 0 -> ----------------
--
SELECT '0RdKJcxqVBiAiQr0'::flaxid AS id, flaxid_timestamp('0RdKJcxqVBiAiQr0') AS created,
       flaxid_send('0RdKJcxqVBiAiQr0') AS bytes;
SELECT '----------------'::flaxid AS epoch_id, flaxid_timestamp('----------------') AS epoch;
-- the random part, read from the 12 bytes with core SQL: 0x7680cb8bb9bdc1
SELECT encode(substr(flaxid_send('0RdKJcxqVBiAiQr0'), 6), 'hex') = '7680cb8bb9bdc1' AS random_ok;
-- more forms, computed with Python (16 characters of 6 bits, most significant first)
SELECT s, s::flaxid::text = s AS roundtrip, flaxid_timestamp(s::flaxid) AS created
FROM (VALUES ('------3---------'), ('---------------0'), ('zzzzzzw---------'),
             ('-----yYzzzzzzzzz'), ('zzzzzzzzzzzzzzzz')) v(s);

--
-- malformed text: 22P02 with a detail
--
SELECT regress.err($$SELECT ''::flaxid$$);
SELECT regress.err($$SELECT '0RdKJcxqVBiAiQr'::flaxid$$);
SELECT regress.err($$SELECT '0RdKJcxqVBiAiQr00'::flaxid$$);
SELECT regress.err($$SELECT '0RdKJcxq+BiAiQr0'::flaxid$$);
SELECT regress.err($$SELECT '0RdKJcxqVBiAiQré'::flaxid$$);
SELECT regress.err($$SELECT ' 0RdKJcxqVBiAiQr0'::flaxid$$);

--
-- time bounds: 2015-01-01 .. 2049-11-03 19:53:47.775 UTC, 22008 outside
--
SELECT flaxid_from_timestamp('2015-01-01 00:00:00+00') AS first,
       flaxid_from_timestamp('2049-11-03 19:53:47.775+00') AS last,
       flaxid_from_timestamp('2015-10-15 20:10:25.807999+00') AS vector_ms;
SELECT flaxid_from_timestamp('2015-10-15 20:10:25.807+00') <= '0RdKJcxqVBiAiQr0'::flaxid AS le,
       flaxid_from_timestamp('2015-10-15 20:10:25.808+00') > '0RdKJcxqVBiAiQr0'::flaxid AS gt;
SELECT regress.err($$SELECT flaxid_from_timestamp('2014-12-31 23:59:59.999+00')$$);
SELECT regress.err($$SELECT flaxid_from_timestamp('2049-11-03 19:53:47.776+00')$$);
SELECT regress.err($$SELECT flaxid_from_timestamp('infinity')$$);

--
-- generation: increasing within a session, on the clock, random part in range
--
DO $$
DECLARE
	prev flaxid;
	id flaxid;
	t0 timestamptz;
	t1 timestamptz;
	bad int := 0;
BEGIN
	FOR i IN 1..20000 LOOP
		t0 := clock_timestamp();
		id := flaxid_generate();
		t1 := clock_timestamp();
		IF (prev IS NOT NULL AND id <= prev)
		   OR flaxid_timestamp(id) < date_trunc('milliseconds', t0)
		   OR flaxid_timestamp(id) > t1 THEN
			bad := bad + 1;
		END IF;
		prev := id;
	END LOOP;
	RAISE NOTICE 'flaxids out of order or off the clock: %', bad;
END $$;
-- the top 12 bits of a new millisecond's random part are the clock's
-- fraction of that millisecond (so concurrent sessions stay in time order)
SELECT checked > 150 AS enough_checked, off_clock
FROM regress.fraction_off_clock('SELECT flaxid_generate()::text',
	'SELECT (get_byte(flaxid_send($1::flaxid), 5) << 4) | (get_byte(flaxid_send($1::flaxid), 6) >> 4)',
	'SELECT flaxid_timestamp($1::flaxid)', 200);
-- idgen.sub_millisecond_clock = off: those bits are random
SET idgen.sub_millisecond_clock = off;
SELECT checked > 150 AS enough_checked, off_clock > checked / 2 AS mostly_off_clock
FROM regress.fraction_off_clock('SELECT flaxid_generate()::text',
	'SELECT (get_byte(flaxid_send($1::flaxid), 5) << 4) | (get_byte(flaxid_send($1::flaxid), 6) >> 4)',
	'SELECT flaxid_timestamp($1::flaxid)', 200);
RESET idgen.sub_millisecond_clock;

--
-- text order equals binary order
--
-- 30,000 random strings over the whole alphabet (the subquery refers to g so
-- that it runs for every row), and 20,000 generated ids
CREATE TEMP TABLE many AS
SELECT (SELECT string_agg(substr('-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz',
                                 1 + (random() * 63)::int, 1), '')
        FROM generate_series(1, 16) WHERE g > 0)::flaxid AS id
FROM generate_series(1, 30000) g;
INSERT INTO many SELECT flaxid_generate() FROM generate_series(1, 20000);
SELECT (SELECT array_agg(id ORDER BY id) FROM many)
     = (SELECT array_agg(id ORDER BY id::text COLLATE "C") FROM many) AS text_order_is_binary_order;
SELECT min(id) = (SELECT id FROM many ORDER BY id LIMIT 1) AS min_ok,
       max(id) = (SELECT id FROM many ORDER BY id DESC LIMIT 1) AS max_ok
FROM many;
SELECT flaxid_hash('0RdKJcxqVBiAiQr0') = flaxid_hash('0RdKJcxqVBiAiQr0'::text::flaxid) AS stable,
       (flaxid_hash_extended('0RdKJcxqVBiAiQr0', 0) & 4294967295)
         = (flaxid_hash('0RdKJcxqVBiAiQr0')::bigint & 4294967295) AS seed0_matches;

--
-- indexes
--
CREATE TABLE f (id flaxid PRIMARY KEY, n int);
INSERT INTO f SELECT flaxid_from_timestamp(timestamptz '2020-01-01' + g * interval '1 minute'), g
FROM generate_series(1, 20000) g;
ANALYZE f;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM f WHERE id = flaxid_from_timestamp('2020-01-01 08:20+00');
SELECT n FROM f WHERE id = flaxid_from_timestamp('2020-01-01 08:20+00');
CREATE INDEX f_hash ON f USING hash (id);
ALTER TABLE f DROP CONSTRAINT f_pkey;
EXPLAIN (COSTS OFF) SELECT n FROM f WHERE id = flaxid_from_timestamp('2020-01-01 08:20+00');
SELECT n FROM f WHERE id = flaxid_from_timestamp('2020-01-01 08:20+00');
DROP INDEX f_hash;
CREATE INDEX f_brin ON f USING brin (id) WITH (pages_per_range = 2);
SET enable_bitmapscan = on;
EXPLAIN (COSTS OFF) SELECT count(*) FROM f
WHERE id >= flaxid_from_timestamp('2020-01-02 00:00+00') AND id < flaxid_from_timestamp('2020-01-03 00:00+00');
SELECT count(*) FROM f
WHERE id >= flaxid_from_timestamp('2020-01-02 00:00+00') AND id < flaxid_from_timestamp('2020-01-03 00:00+00');
RESET enable_seqscan;
RESET enable_bitmapscan;
CREATE INDEX f_btree ON f (id);
CREATE EXTENSION pageinspect;
SELECT allequalimage FROM bt_metap('f_btree');

-- binary I/O round trip
CREATE TEMP TABLE bin_in (id flaxid);
DO $$
BEGIN
	EXECUTE format('COPY (SELECT id FROM many) TO %L WITH (FORMAT binary)',
	               regress.binfile('flaxid_'));
	EXECUTE format('COPY bin_in FROM %L WITH (FORMAT binary)',
	               regress.binfile('flaxid_'));
END $$;
SELECT (SELECT array_agg(id ORDER BY id) FROM bin_in) = (SELECT array_agg(id ORDER BY id) FROM many) AS binary_roundtrip;
SELECT regress.rm(regress.binfile('flaxid_'));

SET client_min_messages = warning;
DROP EXTENSION idgen CASCADE;
DROP EXTENSION pageinspect;
