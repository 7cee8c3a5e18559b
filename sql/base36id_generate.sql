--
-- base36id_generate() on a server that preloads idgen and has idgen.worker_id
-- set (make installcheck WORKER=yes).  Every id is read back by
-- doc/formats.md's layout, not by idgen's decoders: its value is
-- ((seconds since 2024-01-01T00:00:00Z) * 36 + worker) * 36^2 + counter, its
-- text the nine base-36 digits (0-9A-Z) of that value; a second holds 1,296
-- ids, after which the next call waits for the next second.
--
CREATE EXTENSION idgen;
SET TimeZone = 'UTC';
SELECT current_setting('idgen.worker_id')::int BETWEEN 0 AND 35 AS worker_set;
CREATE TEMP TABLE clock (t0 timestamptz, t1 timestamptz);
INSERT INTO clock (t0) VALUES (clock_timestamp());
-- 2,000 ids: more than a second holds, so at least one second is used up
-- and the next one begun (a generator that never moves on to the next
-- second is cancelled by the suite's statement_timeout)
CREATE TEMP TABLE ids AS
SELECT g, base36id_generate() AS id FROM generate_series(1, 2000) g;
UPDATE clock SET t1 = clock_timestamp();
CREATE TEMP VIEW spec AS
SELECT g, id, id::bigint AS v, id::text AS t,
       id::bigint / 46656 AS sec, id::bigint / 1296 % 36 AS worker, id::bigint % 1296 AS counter,
       (SELECT string_agg(substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ',
                                 (id::bigint / (36::bigint ^ k)::bigint % 36)::int + 1, 1), '' ORDER BY k DESC)
        FROM generate_series(0, 8) k) AS digits
FROM ids;
-- every id distinct, in the order made, of this server's worker, in the
-- seconds between the two clock readings, its text its value's digits
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       bool_and(worker = current_setting('idgen.worker_id')::int) AS worker_ok,
       bool_and(sec BETWEEN floor(extract(epoch FROM (SELECT t0 FROM clock))) - 1704067200
                        AND floor(extract(epoch FROM (SELECT t1 FROM clock))) - 1704067200) AS second_ok,
       bool_and(t = digits) AS text_ok,
       bool_and(substr(t, 7, 1) = substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ',
                                         current_setting('idgen.worker_id')::int + 1, 1)) AS worker_char_ok
FROM spec;
SELECT count(*) AS not_increasing
FROM (SELECT v, lag(v) OVER (ORDER BY g) AS prev FROM spec) s WHERE v <= prev;
-- a second holds at most 1,296 ids; each second after the first begins at
-- counter 0 and counts up by one (nothing else generates here)
SELECT count(DISTINCT sec) > 1 AS seconds_turned,
       max(n) <= 1296 AS within_budget
FROM (SELECT sec, count(*) AS n FROM spec GROUP BY sec) s;
SELECT count(*) FILTER (WHERE sec <> first_sec AND counter <> rank - 1) AS off_sequence
FROM (SELECT sec, counter, min(sec) OVER () AS first_sec,
             row_number() OVER (PARTITION BY sec ORDER BY g) AS rank
      FROM spec) s;
SET client_min_messages = warning;
DROP EXTENSION idgen CASCADE;
