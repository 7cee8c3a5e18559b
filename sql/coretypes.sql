--
-- Ids kept in core-typed columns (doc/cdc.md's route for consumers that know
-- only core types, doc/reference.md#core-typed-columns): iuid and
-- DistributedId128 in uuid, distid in numeric(28,0), base36id in bigint or
-- text, flaxid in text COLLATE "C".  The C generators fill them through their
-- assignment casts; the C extractors read them through explicit casts; range
-- bounds use the index once cast to the column's type.  Values are SPEC.md's
-- vectors.
--
CREATE EXTENSION idgen;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

--
-- the generators as DEFAULTs of core-typed columns: every id casts back to
-- its type, carries its fields, and the column's own order is the order the
-- ids were made in (increasing within a session)
--
CREATE TABLE core_ids (
	n int GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	iuid_col uuid NOT NULL DEFAULT iuid_generate(42, 5),
	distid_col numeric(28,0) NOT NULL DEFAULT distid_generate(),
	dense_col numeric(28,0) NOT NULL DEFAULT distid_generate_dense(),
	distid128_col uuid NOT NULL DEFAULT distid128_generate(),
	flaxid_col text COLLATE "C" NOT NULL DEFAULT flaxid_generate(),
	made timestamptz NOT NULL DEFAULT clock_timestamp());
INSERT INTO core_ids (made) SELECT clock_timestamp() FROM generate_series(1, 2000);
SELECT pg_typeof(iuid_col) AS iuid_col, pg_typeof(distid_col) AS distid_col,
       pg_typeof(distid128_col) AS distid128_col, pg_typeof(flaxid_col) AS flaxid_col
FROM core_ids LIMIT 1;
-- fields (SPEC.md: country and entity as generated) and times: an iuid and
-- a flaxid carry the time they were made, a distid one second before
-- (the reference back-dates by 1000 ms), to the millisecond
SELECT count(*) AS rows,
       bool_and(iuid_country(iuid_col::iuid) = 42 AND iuid_entity(iuid_col::iuid) = 5
                AND iuid_format_version(iuid_col::iuid) = 0) AS iuid_fields,
       bool_and(abs(extract(epoch FROM iuid_timestamp(iuid_col::iuid) - made)) < 1) AS iuid_time,
       bool_and(abs(extract(epoch FROM distid_timestamp(distid_col::distid) - made) + 1) < 1) AS distid_time,
       bool_and(abs(extract(epoch FROM distid_timestamp(dense_col::distid) - made) + 1) < 1) AS dense_time,
       bool_and(abs(extract(epoch FROM distid128_timestamp(distid128_col) - made)) < 1) AS distid128_time,
       bool_and(abs(extract(epoch FROM flaxid_timestamp(flaxid_col::flaxid) - made)) < 1) AS flaxid_time
FROM core_ids;
-- the core type's order is the order of the ids (and of their making)
SELECT bool_and(iuid_col > prev_iuid) AS uuid_order,
       bool_and(distid_col > prev_distid) AS numeric_order,
       bool_and(dense_col > prev_dense) AS dense_numeric_order,
       bool_and(distid128_col > prev_distid128) AS distid128_uuid_order,
       bool_and(flaxid_col > prev_flaxid AND flaxid_col::flaxid > prev_flaxid::flaxid) AS text_c_order
FROM (SELECT *, lag(iuid_col) OVER w AS prev_iuid, lag(distid_col) OVER w AS prev_distid,
             lag(dense_col) OVER w AS prev_dense, lag(distid128_col) OVER w AS prev_distid128,
             lag(flaxid_col) OVER w AS prev_flaxid
      FROM core_ids WINDOW w AS (ORDER BY n)) s
WHERE n > 1;
-- the text forms are the ids' own (no formatting lost or added)
SELECT bool_and(iuid_col::text = iuid_col::iuid::text) AS uuid_text,
       bool_and(distid_col::text = distid_col::distid::text) AS numeric_text,
       bool_and(flaxid_col = flaxid_col::flaxid::text) AS flaxid_text
FROM core_ids;

--
-- SPEC.md's vectors, held in core types and read by the C extractors
--
-- iuid in uuid: ts 0x017F22E279B0 = 2022-02-22 19:22:22 UTC, country 42,
-- entity 5; the second: country 255, entity 255
SELECT v, iuid_timestamp(v::iuid), iuid_country(v::iuid), iuid_entity(v::iuid),
       iuid_format_version(v::iuid)
FROM (VALUES ('017f22e2-79b0-802a-8141-23456789abcd'::uuid),
             ('017f22e2-79b0-80ff-bfff-ffffffffffff'::uuid)) s(v);
-- distid in numeric(28,0): 1088824355131185736905670087 <-> 3zfAkCP7ZtzfeQYp
-- <-> 000384A786907DB2AD82883DC7, time 2022-07-31 18:33:00.285 UTC
CREATE TABLE core_distid (d numeric(28,0) PRIMARY KEY);
INSERT INTO core_distid VALUES (1088824355131185736905670087);
SELECT d, distid_timestamp(d::distid), distid_to_alphanumeric(d::distid), distid_to_hex(d::distid)
FROM core_distid;
-- and back into the numeric column from the encoded forms
INSERT INTO core_distid VALUES (distid_from_alphanumeric('3zfAkCP7ZtzfeQYp'))
	ON CONFLICT (d) DO NOTHING;
SELECT distid_from_hex('000384A786907DB2AD82883DC7')::numeric = d AS hex_back,
       distid_from_alphanumeric('3zfAkCP7ZtzfeQYp')::numeric = d AS alphanumeric_back,
       count(*) OVER () AS rows
FROM core_distid;
-- DistributedId128 is a uuid already: 2023-07-24 17:59:43.916 UTC
SELECT distid128_timestamp('094954a8-622c-76ad-1b93-cdefcbdf0888'::uuid);
-- base36id in bigint (its stored value, the base-36 number) and in text:
-- 2025-01-01, worker 3, counter 35 -> 0ITS0030Z = 31622400 * 36^3 + 3 * 36^2 + 35
CREATE TABLE core_base36 (as_bigint bigint, as_text text COLLATE "C");
INSERT INTO core_base36 VALUES ('0ITS0030Z'::base36id, '0ITS0030Z'::base36id),
	('0ITS00ZZZ'::base36id, '0ITS00ZZZ'::base36id), ('000000000'::base36id, '000000000'::base36id);
SELECT as_bigint, as_text, as_bigint::base36id::text = as_text AS same_id,
       base36id_timestamp(as_bigint::base36id), base36id_worker(as_bigint::base36id),
       base36id_counter(as_bigint::base36id), base36id_timestamp(as_text::base36id),
       base36id_worker(as_text::base36id), base36id_counter(as_text::base36id)
FROM core_base36 ORDER BY as_bigint;
SELECT as_bigint = 31622400::bigint * 46656 + 3 * 1296 + 35 AS bigint_is_the_number
FROM core_base36 WHERE as_text = '0ITS0030Z';
-- bigint order and text order (collation "C") are the ids' order
SELECT array_agg(as_text ORDER BY as_bigint) = array_agg(as_text ORDER BY as_text) AS same_order
FROM core_base36;
-- flaxid in text: ms 24869425807 and random 0x7680cb8bb9bdc1 ->
-- 0RdKJcxqVBiAiQr0, 2015-10-15 20:10:25.807 UTC; the epoch, random 0
SELECT v, flaxid_timestamp(v::flaxid)
FROM (VALUES ('0RdKJcxqVBiAiQr0'::text), ('----------------')) s(v);
-- public ids are uuids; the distid they hide comes back as a numeric
SELECT public_id(1088824355131185736905670087::numeric::distid,
                 decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')) AS public_id,
       public_id_to_distid('30322474-a954-ffa9-941c-6f038afe4ff1',
                           decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64'))::numeric AS distid;

--
-- a core-typed column holds what its type takes: the casts to the id types
-- validate, with the SQLSTATEs of the types' own input
--
SELECT regress.err($$SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid::iuid$$) AS v4_uuid;
SELECT regress.err($$SELECT 42.5::numeric(28,1)::distid$$) AS fraction;
SELECT regress.err($$SELECT (-1)::numeric::distid$$) AS negative;
SELECT regress.err($$SELECT 101559956668416::bigint::base36id$$) AS above_36_9;
SELECT regress.err($$SELECT '0its0030z'::text::base36id$$) AS lower_case;
SELECT regress.err($$SELECT '0RdKJcxqVBiAiQr'::text::flaxid$$) AS short_flaxid;
-- a CHECK through the cast makes the column as strict as the type
CREATE TABLE core_strict (id uuid PRIMARY KEY CHECK (id::iuid IS NOT NULL),
	b text COLLATE "C" CHECK (b::base36id IS NOT NULL));
INSERT INTO core_strict VALUES ('017f22e2-79b0-802a-8141-23456789abcd', '0ITS0030Z');
SELECT regress.err($$INSERT INTO core_strict VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '0ITS0030Z')$$);
SELECT regress.err($$INSERT INTO core_strict VALUES ('017f22e2-79b0-80ff-bfff-ffffffffffff', '0its0030z')$$);
SELECT * FROM core_strict;
DROP TABLE core_strict;

--
-- range bounds: a bound of the id type on a core-typed column compares
-- (iuid with uuid, distid with numeric) but is no member of the core
-- type's operator family, so the column's index is not used; the bound cast
-- to the column's type is.  The bounds are the greatest ids of SPEC.md's
-- vectors' times, years before every generated row (computed from the
-- layouts, not by idgen): 017f22e2-79b0-8fff-bfff-ffffffffffff,
-- 1088824355131270753593327615 = (0x000384A786907D << 48) + 2^48 - 1,
-- 0RdKJczzzzzzzzzz = (24869425807 << 56) + 2^56 - 1, 1475374741055 = 0ITS00ZZZ
--
CREATE INDEX ON core_ids (iuid_col);
CREATE INDEX ON core_ids (distid_col);
CREATE INDEX ON core_ids (flaxid_col);
CREATE INDEX ON core_base36 (as_bigint);
CREATE INDEX ON core_base36 (as_text);
ANALYZE core_ids, core_base36;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM core_ids WHERE iuid_col <= iuid_max_for_timestamp('2022-02-22 19:22:22+00');
EXPLAIN (COSTS OFF) SELECT n FROM core_ids WHERE iuid_col <= iuid_max_for_timestamp('2022-02-22 19:22:22+00')::uuid;
EXPLAIN (COSTS OFF) SELECT n FROM core_ids WHERE distid_col <= distid_max_for_timestamp('2022-07-31 18:33:00.285+00');
EXPLAIN (COSTS OFF) SELECT n FROM core_ids WHERE distid_col <= distid_max_for_timestamp('2022-07-31 18:33:00.285+00')::numeric;
EXPLAIN (COSTS OFF) SELECT n FROM core_ids WHERE flaxid_col <= flaxid_max_for_timestamp('2015-10-15 20:10:25.807+00')::text;
-- (three rows: the planner would read the table whatever the bound)
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT 1 FROM core_base36 WHERE as_bigint <= base36id_max_for_timestamp('2025-01-01')::bigint;
EXPLAIN (COSTS OFF) SELECT 1 FROM core_base36 WHERE as_text <= base36id_max_for_timestamp('2025-01-01')::text;
-- a base36id bound has no comparison with bigint at all (the message
-- only: 19 words its detail and hint otherwise)
SELECT split_part(regress.err($$SELECT 1 FROM core_base36 WHERE as_bigint >= base36id_from_timestamp('2025-01-01')$$),
                  ' | ', 1) AS err;
RESET enable_seqscan;
RESET enable_bitmapscan;
-- the cast bounds select what the id types' bounds select (whole
-- milliseconds: the ids' unit)
SELECT count(*) FILTER (WHERE iuid_col BETWEEN iuid_from_timestamp(lo)::uuid AND iuid_max_for_timestamp(hi)::uuid)
         = count(*) FILTER (WHERE iuid_timestamp(iuid_col::iuid) BETWEEN lo AND hi) AS iuid_range,
       count(*) FILTER (WHERE distid_col BETWEEN distid_from_timestamp(lo)::numeric AND distid_max_for_timestamp(hi)::numeric)
         = count(*) FILTER (WHERE distid_timestamp(distid_col::distid) BETWEEN lo AND hi) AS distid_range,
       count(*) FILTER (WHERE flaxid_col BETWEEN flaxid_from_timestamp(lo)::text AND flaxid_max_for_timestamp(hi)::text)
         = count(*) FILTER (WHERE flaxid_timestamp(flaxid_col::flaxid) BETWEEN lo AND hi) AS flaxid_range,
       count(*) FILTER (WHERE iuid_col BETWEEN iuid_from_timestamp(lo)::uuid AND iuid_max_for_timestamp(hi)::uuid) > 0 AS some_rows
FROM core_ids, (SELECT date_trunc('milliseconds', min(made) + (max(made) - min(made)) / 3) AS lo,
                       date_trunc('milliseconds', min(made) + 2 * (max(made) - min(made)) / 3) AS hi
                FROM core_ids) b;
SELECT count(*) FILTER (WHERE as_bigint BETWEEN base36id_from_timestamp('2025-01-01')::bigint
                                            AND base36id_max_for_timestamp('2025-01-01')::bigint) AS bigint_in_2025_01_01,
       count(*) FILTER (WHERE as_text BETWEEN base36id_from_timestamp('2025-01-01')::text
                                          AND base36id_max_for_timestamp('2025-01-01')::text) AS text_in_2025_01_01
FROM core_base36;

DROP TABLE core_ids, core_distid, core_base36;
DROP EXTENSION idgen;
