--
-- least and greatest ids of a time unit: *_from_timestamp and
-- *_max_for_timestamp of every type, DistributedId128 included
--
CREATE EXTENSION idgen;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

--
-- Vectors from test/vectors/time_bounds.py, which computes them from doc/formats.md's
-- layouts with Python integers: each row must match both columns.
--
-- the least and greatest id of type typ at time ts, in their text forms
CREATE FUNCTION pg_temp.bounds(typ text, ts timestamptz, OUT got_lo text, OUT got_hi text)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('SELECT %1$I($1)::text, %2$I($1)::text',
	               typ || '_from_timestamp', typ || '_max_for_timestamp')
		INTO got_lo, got_hi USING ts;
END $$;
SELECT typ, ts, b.got_lo AS least, b.got_hi AS greatest, b.got_lo = lo AND b.got_hi = hi AS matches
FROM (VALUES
	('iuid', '1970-01-01 00:00:00+00', '00000000-0000-8000-8000-000000000000', '00000000-0000-8fff-bfff-ffffffffffff'),
	('iuid', '2022-02-22 19:22:22.000999+00', '017f22e2-79b0-8000-8000-000000000000', '017f22e2-79b0-8fff-bfff-ffffffffffff'),
	('iuid', '2026-10-31 23:59:59.999+00', '01a19467-e7ff-8000-8000-000000000000', '01a19467-e7ff-8fff-bfff-ffffffffffff'),
	('iuid', '10889-08-02 05:31:50.655+00', 'ffffffff-ffff-8000-8000-000000000000', 'ffffffff-ffff-8fff-bfff-ffffffffffff'),
	('distid', '1900-01-01 00:00:00+00', '0', '281474976710655'),
	('distid', '2022-07-31 18:33:00.285+00', '1088824355130989278616616960', '1088824355131270753593327615'),
	('distid', '3025-10-23 17:06:28.004+00', '9999999999999715909119770624', '9999999999999997384096481279'),
	('distid', '3025-10-23 17:06:28.005+00', '9999999999999997384096481280', '9999999999999999999999999999'),
	('flaxid', '2015-01-01 00:00:00+00', '----------------', '------2zzzzzzzzz'),
	('flaxid', '2015-10-15 20:10:25.807999+00', '0RdKJcw---------', '0RdKJczzzzzzzzzz'),
	('flaxid', '2049-11-03 19:53:47.775+00', 'zzzzzzw---------', 'zzzzzzzzzzzzzzzz'),
	('base36id', '2024-01-01 00:00:00+00', '000000000', '000000ZZZ'),
	('base36id', '2025-01-01 00:00:00.999+00', '0ITS00000', '0ITS00ZZZ'),
	('base36id', '2092-12-23 05:45:35+00', 'ZZZZZZ000', 'ZZZZZZZZZ'),
	('distid128', '1700-01-01 00:00:00+00', '00000000-0000-7000-0000-000000000000', '00000000-0000-7fff-7fff-ffffffffffff'),
	('distid128', '2023-07-24 17:59:43.916+00', '094954a8-622c-7000-0000-000000000000', '094954a8-622c-7fff-7fff-ffffffffffff'),
	('distid128', '2026-11-01 00:00:00+00', '09616001-ac00-7000-0000-000000000000', '09616001-ac00-7fff-7fff-ffffffffffff')) v(typ, ts, lo, hi),
LATERAL pg_temp.bounds(typ, ts::timestamptz) b
ORDER BY typ, ts::timestamptz;

-- the issue's Citus shard maximum, typed by hand there
SELECT iuid_max_for_timestamp(timestamptz '2026-11-01 00:00:00+00' - interval '1 ms')
       = '01a19467-e7ff-8fff-bfff-ffffffffffff' AS citus_shard_max;

-- the greatest id is a valid id of its own time unit (the extractors accept it)
SELECT iuid_timestamp(m) AS ts, iuid_format_version(m), iuid_country(m), iuid_entity(m)
FROM iuid_max_for_timestamp('2022-02-22 19:22:22.5+00') m;
SELECT distid128_timestamp(distid128_max_for_timestamp('2023-07-24 17:59:43.916+00')) AS ts128,
       distid128_timestamp(distid128_from_timestamp('2023-07-24 17:59:43.916+00')) AS ts128_least,
       distid_timestamp(distid_max_for_timestamp('2022-07-31 18:33:00.285+00')) AS ts_distid,
       flaxid_timestamp(flaxid_max_for_timestamp('2015-10-15 20:10:25.807+00')) AS ts_flaxid,
       base36id_timestamp(base36id_max_for_timestamp('2025-01-01 00:00:00.5+00')) AS ts_base36id,
       base36id_worker(base36id_max_for_timestamp('2025-01-01 00:00:00.5+00')) AS worker,
       base36id_counter(base36id_max_for_timestamp('2025-01-01 00:00:00.5+00')) AS counter;

-- Over a thousand times: least < greatest < least of the next unit; for
-- distid and base36id, whose values are whole numbers, the greatest plus one
-- is the next least.
SELECT count(*) FILTER (WHERE NOT (iuid_from_timestamp(t) < iuid_max_for_timestamp(t)
                                   AND iuid_max_for_timestamp(t) < iuid_from_timestamp(t + interval '1 ms'))) AS iuid_bad,
       count(*) FILTER (WHERE NOT (distid_from_timestamp(t) < distid_max_for_timestamp(t)
                                   AND distid_max_for_timestamp(t)::numeric + 1 = distid_from_timestamp(t + interval '1 ms')::numeric)) AS distid_bad,
       count(*) FILTER (WHERE NOT (flaxid_from_timestamp(t) < flaxid_max_for_timestamp(t)
                                   AND flaxid_max_for_timestamp(t) < flaxid_from_timestamp(t + interval '1 ms'))) AS flaxid_bad,
       count(*) FILTER (WHERE NOT (base36id_from_timestamp(t) < base36id_max_for_timestamp(t)
                                   AND base36id_max_for_timestamp(t)::bigint + 1 = base36id_from_timestamp(t + interval '1 s')::bigint)) AS base36id_bad,
       count(*) FILTER (WHERE NOT (distid128_from_timestamp(t) < distid128_max_for_timestamp(t)
                                   AND distid128_max_for_timestamp(t) < distid128_from_timestamp(t + interval '1 ms'))) AS distid128_bad
FROM generate_series(timestamptz '2024-01-01', timestamptz '2030-01-01', interval '52 hours 17 minutes 3.141 seconds') t;

-- ids generated now lie between the bounds of the clock around them
CREATE TEMP TABLE gen AS
SELECT clock_timestamp() AS before, iuid_generate(42, 5) AS i, flaxid_generate() AS f,
       distid_generate() AS d, distid128_generate() AS u, clock_timestamp() AS after
FROM generate_series(1, 1000);
SELECT count(*) FILTER (WHERE i NOT BETWEEN iuid_from_timestamp(before) AND iuid_max_for_timestamp(after)) AS iuid_outside,
       count(*) FILTER (WHERE f NOT BETWEEN flaxid_from_timestamp(before) AND flaxid_max_for_timestamp(after)) AS flaxid_outside,
       count(*) FILTER (WHERE u NOT BETWEEN distid128_from_timestamp(before) AND distid128_max_for_timestamp(after)) AS distid128_outside
FROM gen;
-- distid is stamped 1 s in the past, and a burst may borrow milliseconds up
-- to the present, as in the reference: between the bounds of 1 s before the
-- first clock reading and of the second
SELECT count(*) FILTER (WHERE d NOT BETWEEN distid_from_timestamp(before - interval '1 s')
                                        AND distid_max_for_timestamp(after)) AS distid_outside
FROM gen;
-- and a backfilled iuid lies between the bounds of its own millisecond
SELECT count(*) FILTER (WHERE iuid_generate(255, 255, t) NOT BETWEEN iuid_from_timestamp(t) AND iuid_max_for_timestamp(t)) AS backfill_outside
FROM generate_series(timestamptz '2026-01-01', timestamptz '2026-01-02', interval '7 minutes 0.001 s') t;

-- BETWEEN from(t) AND max(t2) finds exactly the ids of [t, t2]: an index range scan
CREATE TEMP TABLE ids AS
SELECT iuid_generate(1, 1, timestamptz '2026-01-01' + g * interval '1 ms') AS id, g
FROM generate_series(0, 9999) g;
CREATE INDEX ON ids (id);
ANALYZE ids;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ids
WHERE id BETWEEN iuid_from_timestamp('2026-01-01 00:00:01+00') AND iuid_max_for_timestamp('2026-01-01 00:00:01.999+00');
SELECT count(*), min(g), max(g) FROM ids
WHERE id BETWEEN iuid_from_timestamp('2026-01-01 00:00:01+00') AND iuid_max_for_timestamp('2026-01-01 00:00:01.999+00');
RESET enable_seqscan;
RESET enable_bitmapscan;

-- outside a type's span: 22008, as *_from_timestamp
SELECT regress.err($$SELECT iuid_max_for_timestamp('1969-12-31 23:59:59.999+00')$$);
SELECT regress.err($$SELECT iuid_max_for_timestamp('10889-08-02 05:31:50.656+00')$$);
SELECT regress.err($$SELECT distid_max_for_timestamp('1899-12-31 23:59:59.999+00')$$);
SELECT regress.err($$SELECT distid_max_for_timestamp('3025-10-23 17:06:28.006+00')$$);
SELECT regress.err($$SELECT flaxid_max_for_timestamp('2014-12-31 23:59:59.999+00')$$);
SELECT regress.err($$SELECT flaxid_max_for_timestamp('2049-11-03 19:53:47.776+00')$$);
SELECT regress.err($$SELECT base36id_max_for_timestamp('2023-12-31 23:59:59.999+00')$$);
SELECT regress.err($$SELECT base36id_max_for_timestamp('2092-12-23 05:45:36+00')$$);
SELECT regress.err($$SELECT distid128_from_timestamp('1699-12-31 23:59:59.999+00')$$);
SELECT regress.err($$SELECT distid128_max_for_timestamp('1699-12-31 23:59:59.999+00')$$);
SELECT regress.err($$SELECT distid128_from_timestamp('10619-08-04 05:31:50.656+00')$$);
SELECT regress.err($$SELECT distid128_max_for_timestamp('infinity')$$);
SELECT regress.err($$SELECT iuid_max_for_timestamp('-infinity')$$);
-- the last millisecond of the DistributedId128 span still works
SELECT distid128_max_for_timestamp('10619-08-04 05:31:50.655+00');
-- STRICT: NULL in, NULL out
SELECT iuid_max_for_timestamp(NULL) IS NULL AND distid128_from_timestamp(NULL) IS NULL AS strict;

DROP EXTENSION idgen CASCADE;
