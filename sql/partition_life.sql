--
-- idgen_partitions() and idgen_retire_partitions(): a partitioned table's
-- partitions as times, and the retirement of those that ended
--
CREATE EXTENSION idgen;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

--
-- every key type: the spans are the times the partitions were made for
--
CREATE TABLE l_iuid (id iuid) PARTITION BY RANGE (id);
CREATE TABLE l_distid (id distid) PARTITION BY RANGE (id);
CREATE TABLE l_flaxid (id flaxid) PARTITION BY RANGE (id);
CREATE TABLE l_base36id (id base36id) PARTITION BY RANGE (id);
CREATE TABLE l_uuid (id uuid) PARTITION BY RANGE (id);
SELECT count(*) FROM idgen_create_partitions('l_iuid', '2026-01-01', '2026-04-01', '1 month');
SELECT count(*) FROM idgen_create_partitions('l_distid', '2026-01-01', '2026-01-03', '1 day');
SELECT count(*) FROM idgen_create_partitions('l_flaxid', '2026-01-01 22:00', '2026-01-02 01:00', '90 minutes');
SELECT count(*) FROM idgen_create_partitions('l_base36id', '2026-01-05', '2026-01-19', '1 week');
SELECT count(*) FROM idgen_create_partitions('l_uuid', '2025-12-01', '2026-02-01', '1 month');
SELECT t, p.* FROM unnest(ARRAY['l_iuid', 'l_distid', 'l_flaxid', 'l_base36id', 'l_uuid']) t,
	LATERAL idgen_partitions(t::regclass) p;

--
-- a default partition, open ends, and bounds that are not whole time units:
-- flagged, and the span widened to the units the bounds touch
--
CREATE TABLE odd (id iuid) PARTITION BY RANGE (id);
CREATE TABLE odd_low PARTITION OF odd FOR VALUES FROM (MINVALUE) TO (iuid_from_timestamp('2026-01-01'));
-- up to the last id of 2026-01-10 00:00:00.000: part of that millisecond
CREATE TABLE odd_upper PARTITION OF odd
	FOR VALUES FROM (iuid_from_timestamp('2026-01-01')) TO (iuid_max_for_timestamp('2026-01-10'));
-- from an id inside 2026-01-10 00:00:00.000
CREATE TABLE odd_lower PARTITION OF odd
	FOR VALUES FROM (iuid_max_for_timestamp('2026-01-10')) TO (iuid_from_timestamp('2026-02-01'));
CREATE TABLE odd_high PARTITION OF odd FOR VALUES FROM (iuid_from_timestamp('2026-02-01')) TO (MAXVALUE);
CREATE TABLE odd_default PARTITION OF odd DEFAULT;
SELECT partition, from_time, to_time, is_default, uneven, detach_pending FROM idgen_partitions('odd');
-- the same with standard_conforming_strings off
-- (19 no longer has the setting off: the SET fails there, and the case
-- runs as before)
DO $$BEGIN SET standard_conforming_strings = off; EXCEPTION WHEN OTHERS THEN NULL; END$$;
SELECT partition, from_time, to_time, is_default, uneven, detach_pending FROM idgen_partitions('odd');
RESET standard_conforming_strings;
-- base36id's unit is the second
CREATE TABLE odd36 (id base36id) PARTITION BY RANGE (id);
CREATE TABLE odd36_a PARTITION OF odd36
	FOR VALUES FROM (base36id_from_timestamp('2026-01-01')) TO (base36id_max_for_timestamp('2026-01-02'));
SELECT partition, from_time, to_time, uneven FROM idgen_partitions('odd36');
-- a uuid bound that is not a DistributedId128 has no time
CREATE TABLE l_uuid_other PARTITION OF l_uuid
	FOR VALUES FROM ('00000000-0000-0000-0000-000000000000') TO ('00000000-0000-4000-8000-000000000000');
SELECT partition, from_time, to_time, uneven FROM idgen_partitions('l_uuid');
-- no partitions, no rows
CREATE TABLE empty (id flaxid) PARTITION BY RANGE (id);
SELECT count(*) AS partitions_of_empty FROM idgen_partitions('empty');

--
-- retirement: detach by default, only partitions that ended by the given
-- time; the default, open-ended and timeless partitions stay
--
SELECT * FROM idgen_retire_partitions('l_iuid', '2026-02-15');
SELECT partition, from_time, to_time FROM idgen_partitions('l_iuid');
-- the detached partition is a table of its own, its rows kept
SELECT c.relname, c.relispartition FROM pg_class c WHERE c.relname = 'l_iuid_20260101';
-- nothing more to do
SELECT count(*) AS retired_again FROM idgen_retire_partitions('l_iuid', '2026-02-15');
-- a span ending exactly at the time is retired
SELECT partition, action FROM idgen_retire_partitions('l_iuid', '2026-03-01');
-- drop when asked
SELECT * FROM idgen_retire_partitions('l_distid', '2026-01-02', drop_tables => true);
SELECT to_regclass('l_distid_20260101') AS dropped;
SELECT partition, action FROM idgen_retire_partitions('l_flaxid', '2026-01-02 00:30', drop_tables => true);
SELECT partition, action FROM idgen_retire_partitions('l_base36id', '2026-01-19');
SELECT partition, action FROM idgen_retire_partitions('l_uuid', 'infinity');
SELECT partition, from_time, to_time FROM idgen_partitions('l_uuid');
-- uneven spans, open ends and the default partition
SELECT partition, action FROM idgen_retire_partitions('odd', '2026-01-10');
SELECT partition, action FROM idgen_retire_partitions('odd', '2026-01-10 00:00:00.001');
SELECT partition, action FROM idgen_retire_partitions('odd', 'infinity');
SELECT partition, is_default FROM idgen_partitions('odd');

--
-- backfill into a retired range: the rows of ids of that time have no
-- partition any more (23514), or go to the default partition when there is one
--
CREATE TABLE bf (id iuid) PARTITION BY RANGE (id);
SELECT count(*) FROM idgen_create_partitions('bf', '2026-01-01', '2026-03-01', '1 month');
INSERT INTO bf VALUES (iuid_generate(7, 1, '2026-01-15'));
SELECT partition, action FROM idgen_retire_partitions('bf', '2026-02-01');
SELECT regexp_replace(regress.err($$INSERT INTO bf VALUES (iuid_generate(7, 1, '2026-01-16'))$$),
                      '\(id\) = \(.*\)', '(id) = (...)') AS backfill_after_retirement;
INSERT INTO bf VALUES (iuid_generate(7, 1, '2026-02-16'));	-- a range still attached
CREATE TABLE bf_default PARTITION OF bf DEFAULT;
INSERT INTO bf VALUES (iuid_generate(7, 1, '2026-01-17'));
SELECT tableoid::regclass, iuid_timestamp(id) FROM bf ORDER BY id;
SELECT count(*) AS old_rows_kept FROM bf_20260101;

--
-- DETACH ... CONCURRENTLY: the statements, run at top level with \gexec
--
CREATE TABLE cc (id flaxid) PARTITION BY RANGE (id);
SELECT count(*) FROM idgen_create_partitions('cc', '2026-01-01', '2026-04-01', '1 month');
SELECT * FROM idgen_retire_partitions('cc', '2026-02-01', concurrent => true);
-- nothing was run
SELECT count(*) AS still_attached FROM idgen_partitions('cc');
SELECT statement FROM idgen_retire_partitions('cc', '2026-03-01', concurrent => true) \gexec
SELECT partition, from_time FROM idgen_partitions('cc');
SELECT c.relname, c.relispartition FROM pg_class c WHERE c.relname LIKE 'cc\_%' ORDER BY 1;
-- with drop: two statements per partition, in order
SELECT partition, statement FROM idgen_retire_partitions('cc', '2026-04-01', true, true);
SELECT statement FROM idgen_retire_partitions('cc', '2026-04-01', true, true) \gexec
SELECT to_regclass('cc_20260301') AS dropped;
-- not in a transaction block: the server's own error
BEGIN;
SELECT statement FROM idgen_retire_partitions('odd36', 'infinity', concurrent => true) \gexec
ROLLBACK;
-- a default partition rules it out
SELECT regress.err($$SELECT * FROM idgen_retire_partitions('bf', '2026-03-01', concurrent => true)$$);
-- after SET ROLE the statements would run as that role: refused
CREATE ROLE regress_idgen_other;
SET ROLE regress_idgen_other;
SELECT split_part(regress.err($$SELECT * FROM idgen_retire_partitions('odd36', 'infinity', concurrent => true)$$), ' | ', 1) AS after_set_role;
RESET ROLE;
DROP ROLE regress_idgen_other;

--
-- layouts and arguments it refuses, for both functions
--
CREATE TABLE t_plain (id iuid);
CREATE TABLE t_list (id iuid) PARTITION BY LIST (id);
CREATE TABLE t_hash (id iuid) PARTITION BY HASH (id);
CREATE TABLE t_two (id iuid, n int) PARTITION BY RANGE (id, n);
CREATE TABLE t_expr (id iuid) PARTITION BY RANGE ((id::uuid));
CREATE TABLE t_ts (at timestamptz) PARTITION BY RANGE (at);
CREATE TABLE t_int (n bigint) PARTITION BY RANGE (n);
SELECT t, regress.err(format('SELECT * FROM idgen_partitions(%L)', t)) AS listing,
       regress.err(format('SELECT * FROM idgen_retire_partitions(%L, %L)', t, '2026-01-01')) =
       regress.err(format('SELECT * FROM idgen_partitions(%L)', t)) AS retire_says_the_same
FROM unnest(ARRAY['t_plain', 't_list', 't_hash', 't_two', 't_expr', 't_ts', 't_int']) t;
SELECT regress.err($$SELECT * FROM idgen_partitions(NULL)$$);
SELECT regress.err($$SELECT * FROM idgen_retire_partitions('bf', NULL)$$);
SELECT regress.err($$SELECT * FROM idgen_retire_partitions(NULL, '2026-01-01')$$);
SELECT regress.err($$SELECT * FROM idgen_retire_partitions('bf', '2026-01-01', NULL)$$);

--
-- as its caller: retiring needs the owner's rights; listing does not
--
CREATE ROLE regress_idgen_retire_user;
SET ROLE regress_idgen_retire_user;
SELECT count(*) AS listed_by_other_role FROM idgen_partitions('bf');
SELECT regress.err($$SELECT * FROM idgen_retire_partitions('bf', '2026-03-01')$$);
RESET ROLE;
DROP ROLE regress_idgen_retire_user;

--
-- the extension in another schema, called with a search_path without it
--
CREATE SCHEMA ext;
ALTER EXTENSION idgen SET SCHEMA ext;
SET search_path = pg_catalog;
SELECT partition, from_time FROM ext.idgen_partitions('public.bf');
SELECT partition, action FROM ext.idgen_retire_partitions('public.bf', '2026-03-01');
RESET search_path;
ALTER EXTENSION idgen SET SCHEMA public;

SET client_min_messages = warning;
DROP SCHEMA ext CASCADE;
DROP EXTENSION idgen CASCADE;
DROP TABLE t_plain, t_ts, t_int, l_uuid, l_iuid_20260101, l_iuid_20260201, l_base36id_20260105,
	l_base36id_20260112, l_uuid_20251201, l_uuid_20260101, odd_low, odd_upper, odd_lower,
	bf_20260101, bf_20260201, cc_20260101, cc_20260201;
