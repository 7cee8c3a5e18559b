--
-- distid, DistributedId128 and the alphanumeric forms
--
CREATE EXTENSION idgen;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

--
-- doc/formats.md vector: 1088824355131185736905670087 <-> 3zfAkCP7ZtzfeQYp <->
-- 000384A786907DB2AD82883DC7, timestamp 2022-07-31 18:33:00.285 UTC
--
SELECT '1088824355131185736905670087'::distid AS id,
       distid_to_alphanumeric('1088824355131185736905670087') AS alphanumeric,
       distid_to_hex('1088824355131185736905670087') AS hex,
       distid_timestamp('1088824355131185736905670087') AS created;
SELECT distid_from_alphanumeric('3zfAkCP7ZtzfeQYp') AS from_alphanumeric,
       distid_from_hex('000384A786907DB2AD82883DC7') AS from_hex,
       distid_from_hex('000384a786907db2ad82883dc7') AS from_lower_hex;

-- boundaries through every encoding (and where the decimal text has a head
-- group of nine digits exactly 10^8: 10^8, 10^17, 10^26); the expected forms
-- are test/vectors/distid_forms.py's, Python's integers (format(v, '026X')
-- and base62 blocks of 5 and 11)
SELECT d, distid_to_alphanumeric(d::distid) = a AS alnum_ok, distid_to_hex(d::distid) = h AS hex_ok,
       distid_from_alphanumeric(a)::text = d AS from_alnum_ok, distid_from_hex(h)::text = d AS from_hex_ok,
       d::distid::numeric = d::numeric AS numeric_ok, d::numeric::distid::text = d AS from_numeric_ok
FROM (VALUES
	('0', '0000000000000000', '00000000000000000000000000'),
	('1', '0000000000000001', '00000000000000000000000001'),
	('61', '000000000000000z', '0000000000000000000000003D'),
	('62', '0000000000000010', '0000000000000000000000003E'),
	('4294967296', '00000000004gfFC4', '00000000000000000100000000'),
	('18446744073709551615', '00000LygHa16AHYF', '0000000000FFFFFFFFFFFFFFFF'),
	('9999999999999999999999999999', 'agbFu5KnEQGxp4QB', '00204FCE5E3E2502610FFFFFFF'),
	('1088824355131185736905670087', '3zfAkCP7ZtzfeQYp', '000384A786907DB2AD82883DC7'),
	('99999999', '000000000006laZD', '00000000000000000005F5E0FF'),
	('100000000', '000000000006laZE', '00000000000000000005F5E100'),
	('100000001', '000000000006laZF', '00000000000000000005F5E101'),
	('99999999999999999', '0000007O044qYiZb', '0000000000016345785D89FFFF'),
	('100000000000000000', '0000007O044qYiZc', '0000000000016345785D8A0000'),
	('100000000000000001', '0000007O044qYiZd', '0000000000016345785D8A0001'),
	('99999999999999999999999999', '0MkFeIxDIMYatqxT', '000052B7D2DCC80CD2E3FFFFFF'),
	('100000000000000000000000000', '0MkFeIxDIMYatqxU', '000052B7D2DCC80CD2E4000000'),
	('100000000000000000000000001', '0MkFeIxDIMYatqxV', '000052B7D2DCC80CD2E4000001'),
	('9999999999999999999999999998', 'agbFu5KnEQGxp4QA', '00204FCE5E3E2502610FFFFFFE')) v(d, a, h);

-- DistributedId128 vector: timestamp 2023-07-24 17:59:43.916 UTC; alphanumeric from Python
SELECT distid128_timestamp('094954a8-622c-76ad-1b93-cdefcbdf0888') AS created,
       uuid_to_alphanumeric('094954a8-622c-76ad-1b93-cdefcbdf0888') AS alphanumeric,
       uuid_from_alphanumeric('0nQkrErwxJd2MnCm41WZ5s') AS back;
SELECT u, uuid_to_alphanumeric(u::uuid) = a AS to_ok, uuid_from_alphanumeric(a) = u::uuid AS from_ok
FROM (VALUES
	('00000000-0000-0000-0000-000000000000', '0000000000000000000000'),
	('ffffffff-ffff-ffff-ffff-ffffffffffff', 'LygHa16AHYFLygHa16AHYF'),
	('00000000-0000-0000-ffff-ffffffffffff', '00000000000LygHa16AHYF'),
	('00000000-0000-0001-0000-000000000000', '0000000000100000000000')) v(u, a);
SELECT b, bigint_to_alphanumeric(b) = a AS to_ok, bigint_from_alphanumeric(a) = b AS from_ok
FROM (VALUES (0::bigint, '00000000000'), (1, '00000000001'), (61, '0000000000z'), (62, '00000000010'),
             (4294967296, '000004gfFC4'), (9223372036854775807, 'AzL8n0Y58m7')) v(b, a);

--
-- malformed input: 22P02 with a detail; out of range: 22003
--
SELECT regress.err($$SELECT ''::distid$$);
SELECT regress.err($$SELECT '12a4'::distid$$);
SELECT regress.err($$SELECT '-1'::distid$$);
SELECT regress.err($$SELECT ' 1'::distid$$);
SELECT regress.err($$SELECT '10000000000000000000000000000'::distid$$);
SELECT '00000000000000000000000000000000042'::distid AS leading_zeros;
SELECT regress.err($$SELECT distid_from_alphanumeric('3zfAkCP7ZtzfeQY')$$);
SELECT regress.err($$SELECT distid_from_alphanumeric('3zfAkCP7ZtzfeQYpp')$$);
SELECT regress.err($$SELECT distid_from_alphanumeric('3zfAkCP7Z-zfeQYp')$$);
SELECT regress.err($$SELECT distid_from_alphanumeric('3zfAkCP7ZtzfeQYé')$$);
SELECT regress.err($$SELECT distid_from_alphanumeric('')$$);
-- the reference wraps a block above 2^64-1; here it is an error
SELECT regress.err($$SELECT distid_from_alphanumeric('00000zzzzzzzzzzz')$$);
SELECT regress.err($$SELECT distid_from_alphanumeric('zzzzz00000000000')$$);
SELECT regress.err($$SELECT distid_from_hex('000384A786907DB2AD82883DC')$$);
SELECT regress.err($$SELECT distid_from_hex('000384A786907DB2AD82883DCG')$$);
SELECT regress.err($$SELECT distid_from_hex('00204FCE5E3E25026110000000')$$);
SELECT regress.err($$SELECT uuid_from_alphanumeric('LygHa16AHYGLygHa16AHYF')$$);
SELECT regress.err($$SELECT uuid_from_alphanumeric('0nQkrErwxJd2MnCm41WZ5')$$);
SELECT regress.err($$SELECT bigint_from_alphanumeric('AzL8n0Y58m8')$$);
SELECT regress.err($$SELECT bigint_from_alphanumeric('AzL8n0Y58m')$$);
SELECT regress.err($$SELECT bigint_to_alphanumeric(-1)$$);
SELECT regress.err($$SELECT distid128_timestamp('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')$$);
SELECT regress.err($$SELECT distid128_timestamp('094954a8-622c-76ad-9b93-cdefcbdf0888')$$);

--
-- numeric casts
--
SELECT 1088824355131185736905670087::numeric::distid AS from_numeric,
       '1088824355131185736905670087'::distid::numeric + 1 AS plus_one,
       42.000::numeric::distid AS whole_with_scale;
SELECT regress.err($$SELECT 42.5::numeric::distid$$);
SELECT regress.err($$SELECT (-1)::numeric::distid$$);
SELECT regress.err($$SELECT 10000000000000000000000000000::numeric::distid$$);
SELECT regress.err($$SELECT 'NaN'::numeric::distid$$);
SELECT regress.err($$SELECT 'Infinity'::numeric::distid$$);

--
-- generation
--
-- increasing within a session, stamped from 1 s before the clock's millisecond
-- read right before the id (t0) to the clock read right after it (t1): two
-- readings of the same clock bound it, however long the backend is
-- descheduled in between
DO $$
DECLARE
	prev distid;
	id distid;
	t0 timestamptz;
	t1 timestamptz;
	bad int := 0;
BEGIN
	FOR i IN 1..20000 LOOP
		t0 := clock_timestamp();
		id := distid_generate();
		t1 := clock_timestamp();
		IF (prev IS NOT NULL AND id <= prev)
		   OR distid_timestamp(id) > t1
		   OR distid_timestamp(id) < date_trunc('milliseconds', t0) - interval '1 s' THEN
			bad := bad + 1;
		END IF;
		prev := id;
	END LOOP;
	RAISE NOTICE 'distids out of order or off the clock: %', bad;
END $$;
-- the dense generator: as strictly increasing and as stamped as the reference,
-- with the fields of a valid DistributedId
DO $$
DECLARE
	prev distid;
	id distid;
	t0 timestamptz;
	t1 timestamptz;
	bad int := 0;
BEGIN
	FOR i IN 1..20000 LOOP
		t0 := clock_timestamp();
		id := distid_generate_dense();
		t1 := clock_timestamp();
		IF (prev IS NOT NULL AND id <= prev)
		   OR distid_timestamp(id) > t1
		   OR distid_timestamp(id) < date_trunc('milliseconds', t0) - interval '1 s'
		   OR distid_from_alphanumeric(distid_to_alphanumeric(id)) <> id
		   OR id::numeric >= 10::numeric ^ 28 THEN
			bad := bad + 1;
		END IF;
		prev := id;
	END LOOP;
	RAISE NOTICE 'dense distids out of order or off the clock: %', bad;
END $$;
-- one statement of many ids: all distinct, in the order made
SELECT count(DISTINCT d) = 200000 AS distinct,
       bool_and(d > p) AS increasing
FROM (SELECT d, lag(d) OVER (ORDER BY n) AS p
      FROM (SELECT n, distid_generate_dense() AS d
            FROM generate_series(1, 200000) n) g) s;
-- DistributedId128: version 7, bit 64 clear, increasing, no leeway
DO $$
DECLARE
	prev uuid;
	id uuid;
	t0 timestamptz;
	t1 timestamptz;
	bad int := 0;
BEGIN
	FOR i IN 1..20000 LOOP
		t0 := clock_timestamp();
		id := distid128_generate();
		t1 := clock_timestamp();
		IF (prev IS NOT NULL AND id <= prev)
		   OR substr(id::text, 15, 1) <> '7'
		   OR substr(id::text, 20, 1) NOT IN ('0', '1', '2', '3', '4', '5', '6', '7')
		   OR distid128_timestamp(id) > t1
		   OR distid128_timestamp(id) < date_trunc('milliseconds', t0) THEN
			bad := bad + 1;
		END IF;
		prev := id;
	END LOOP;
	RAISE NOTICE 'DistributedId128s out of order, malformed or off the clock: %', bad;
END $$;
-- the 12 bits after its version nibble are the clock's fraction of the
-- millisecond for the first id of a millisecond
SELECT checked > 150 AS enough_checked, off_clock
FROM regress.fraction_off_clock('SELECT distid128_generate()::text',
	'SELECT ((get_byte(uuid_send($1::uuid), 6) & 15) << 8) | get_byte(uuid_send($1::uuid), 7)',
	'SELECT distid128_timestamp($1::uuid)', 200);
-- idgen.sub_millisecond_clock = off: those bits are random (the reference's
-- algorithm); distid_generate_dense() keeps its clock bits
SET idgen.sub_millisecond_clock = off;
SELECT checked > 150 AS enough_checked, off_clock > checked / 2 AS mostly_off_clock
FROM regress.fraction_off_clock('SELECT distid128_generate()::text',
	'SELECT ((get_byte(uuid_send($1::uuid), 6) & 15) << 8) | get_byte(uuid_send($1::uuid), 7)',
	'SELECT distid128_timestamp($1::uuid)', 200);
SELECT checked > 150 AS enough_checked, off_clock
FROM regress.fraction_off_clock('SELECT distid_generate_dense()::text',
	'SELECT div(mod($1::distid::numeric, 2::numeric ^ 48), 2::numeric ^ 36)::int',
	'SELECT distid_timestamp($1::distid) + interval ''1 s''', 200);
RESET idgen.sub_millisecond_clock;

--
-- bounds for ranges
--
SELECT distid_from_timestamp('2022-07-31 18:33:00.285+00') AS least_of_ms,
       distid_from_timestamp('2022-07-31 18:33:00.285+00') <= '1088824355131185736905670087'::distid AS le,
       distid_from_timestamp('2022-07-31 18:33:00.286+00') > '1088824355131185736905670087'::distid AS gt;
SELECT distid_from_timestamp('1900-01-01 00:00:00+00') AS first,
       distid_timestamp(distid_from_timestamp('3025-10-23 17:06:28.005+00')) AS last;
SELECT regress.err($$SELECT distid_from_timestamp('1899-12-31 23:59:59.999+00')$$);
SELECT regress.err($$SELECT distid_from_timestamp('3025-10-23 17:06:28.006+00')$$);
SELECT distid_timestamp('9999999999999999999999999999') AS last_representable;

--
-- ordering, hashing, indexes
--
CREATE TEMP TABLE many AS
SELECT trunc(random() * 9999999999999999999999999999)::numeric::distid AS id FROM generate_series(1, 30000);
SELECT (SELECT array_agg(id ORDER BY id) FROM many)
     = (SELECT array_agg(id ORDER BY id::numeric) FROM many) AS sorted_like_numeric;
SELECT min(id) = (SELECT id FROM many ORDER BY id LIMIT 1) AS min_ok,
       max(id)::numeric = (SELECT max(id::numeric) FROM many) AS max_ok
FROM many;
SELECT distid_hash('1') = distid_hash('1'::text::distid) AS stable, distid_hash('1') <> distid_hash('2') AS differs,
       (distid_hash_extended('1', 0) & 4294967295) = (distid_hash('1')::bigint & 4294967295) AS seed0_matches;
CREATE TABLE d (id distid PRIMARY KEY, n int);
INSERT INTO d SELECT (g::numeric * 1000000000000000000000)::distid, g FROM generate_series(1, 20000) g;
ANALYZE d;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM d WHERE id = '500000000000000000000000';
SELECT n FROM d WHERE id = '500000000000000000000000';
CREATE INDEX d_hash ON d USING hash (id);
ALTER TABLE d DROP CONSTRAINT d_pkey;
EXPLAIN (COSTS OFF) SELECT n FROM d WHERE id = '500000000000000000000000';
SELECT n FROM d WHERE id = '500000000000000000000000';
DROP INDEX d_hash;
CREATE INDEX d_brin ON d USING brin (id) WITH (pages_per_range = 2);
SET enable_bitmapscan = on;
EXPLAIN (COSTS OFF) SELECT count(*) FROM d WHERE id BETWEEN '1000000000000000000000' AND '3000000000000000000000';
SELECT count(*) FROM d WHERE id BETWEEN '1000000000000000000000' AND '3000000000000000000000';
RESET enable_seqscan;
RESET enable_bitmapscan;
CREATE INDEX d_btree ON d (id);
CREATE EXTENSION pageinspect;
SELECT allequalimage FROM bt_metap('d_btree');

--
-- binary I/O: 12 big-endian bytes, range checked on input
--
SELECT distid_send('1088824355131185736905670087') = '\x0384a786907db2ad82883dc7'::bytea AS send_ok;
CREATE TEMP TABLE bin_in (id distid);
DO $$
BEGIN
	EXECUTE format('COPY (SELECT id FROM many) TO %L WITH (FORMAT binary)',
	               regress.binfile('distid_'));
	EXECUTE format('COPY bin_in FROM %L WITH (FORMAT binary)',
	               regress.binfile('distid_'));
	-- 12 bytes of 0xff: above 10^28-1
	EXECUTE format('COPY (SELECT %L::bytea) TO %L WITH (FORMAT binary)', '\xffffffffffffffffffffffff',
	               regress.binfile('distid_'));
END $$;
SELECT (SELECT array_agg(id ORDER BY id) FROM bin_in) = (SELECT array_agg(id ORDER BY id) FROM many) AS binary_roundtrip;
SELECT regress.err(format('COPY bin_in FROM %L WITH (FORMAT binary)',
                          regress.binfile('distid_')));
SELECT regress.rm(regress.binfile('distid_'));

SET client_min_messages = warning;
DROP EXTENSION idgen CASCADE;
DROP EXTENSION pageinspect;
