--
-- idgen_create_partitions(): range partitions of a table keyed by an idgen id
--
CREATE EXTENSION idgen;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

-- a table's partitions and their bounds, by name
CREATE FUNCTION pg_temp.parts(parent regclass) RETURNS TABLE (part text, bounds text)
LANGUAGE sql AS $$
	SELECT c.oid::regclass::text, pg_get_expr(c.relpartbound, c.oid)
	FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	WHERE i.inhparent = parent ORDER BY c.relname
$$;

--
-- monthly partitions of an iuid table: names, bounds, return value, idempotence
--
CREATE TABLE orders (id iuid PRIMARY KEY, note text) PARTITION BY RANGE (id);
SELECT * FROM idgen_create_partitions('orders', '2026-11-01', '2027-02-01', '1 month');
SELECT * FROM pg_temp.parts('orders');
-- the bounds are the least ids of each month
SELECT count(*) AS bounds_from_iuid_from_timestamp FROM pg_temp.parts('orders') p
WHERE p.bounds = format('FOR VALUES FROM (%L) TO (%L)',
                        iuid_from_timestamp(to_date(right(p.part, 8), 'YYYYMMDD')::timestamp AT TIME ZONE 'UTC'),
                        iuid_from_timestamp((to_date(right(p.part, 8), 'YYYYMMDD') + interval '1 month') AT TIME ZONE 'UTC'));
-- again: nothing to create
SELECT count(*) AS created_again FROM idgen_create_partitions('orders', '2026-11-01', '2027-02-01', '1 month');
-- again in a session with standard_conforming_strings off (the helper's
-- dynamic queries read the bounds with regular expressions): nothing
-- (19 no longer has the setting off: the SET fails there, and the case
-- runs as before)
DO $$BEGIN SET standard_conforming_strings = off; EXCEPTION WHEN OTHERS THEN NULL; END$$;
SELECT count(*) AS created_again_scs_off FROM idgen_create_partitions('orders', '2026-11-01', '2027-02-01', '1 month');
RESET standard_conforming_strings;
-- a longer range: only the missing month
SELECT * FROM idgen_create_partitions('orders', '2026-11-01', '2027-02-15', '1 month');
-- [from, from) is empty
SELECT count(*) AS created_empty FROM idgen_create_partitions('orders', '2030-01-01', '2030-01-01', '1 month');
-- every row lands in the partition of its month
INSERT INTO orders
SELECT iuid_generate(7, 1, timestamptz '2026-11-01' + g * interval '1 hour 7 minutes'), 'n' || g
FROM generate_series(0, 2000) g;
SELECT count(*) AS rows, count(*) FILTER (WHERE tableoid::regclass::text
                                          <> 'orders_' || to_char(iuid_timestamp(id), 'YYYYMM') || '01') AS misplaced
FROM orders;
-- the edges: the last millisecond of October is outside, the first of November inside
SELECT regress.err($$INSERT INTO orders VALUES (iuid_max_for_timestamp('2026-10-31 23:59:59.999+00'), 'edge')$$);
INSERT INTO orders VALUES (iuid_from_timestamp('2026-11-01 00:00:00+00'), 'edge'),
                          (iuid_max_for_timestamp('2027-02-28 23:59:59.999+00'), 'edge');
SELECT regress.err($$INSERT INTO orders VALUES (iuid_from_timestamp('2027-03-01 00:00:00+00'), 'edge')$$);
SELECT tableoid::regclass, iuid_timestamp(id) FROM orders WHERE note = 'edge' ORDER BY id;
-- partition pruning on a time range
EXPLAIN (COSTS OFF) SELECT * FROM orders
WHERE id >= iuid_from_timestamp('2026-12-10') AND id < iuid_from_timestamp('2026-12-11');

--
-- every key type; the bounds of a uuid key come from distid128_from_timestamp
-- (vector 2026-11-01 from test/vectors/time_bounds.py)
--
CREATE TABLE t_distid (id distid) PARTITION BY RANGE (id);
CREATE TABLE t_flaxid (id flaxid) PARTITION BY RANGE (id);
CREATE TABLE t_base36id (id base36id) PARTITION BY RANGE (id);
CREATE TABLE t_uuid (id uuid) PARTITION BY RANGE (id);
SELECT * FROM idgen_create_partitions('t_distid', '2026-11-01', '2026-11-03', '1 day');
SELECT * FROM idgen_create_partitions('t_flaxid', '2026-11-01', '2026-11-01 02:00', '1 hour');
SELECT * FROM idgen_create_partitions('t_base36id', '2026-11-01', '2026-11-15', '1 week');
SELECT * FROM idgen_create_partitions('t_uuid', '2026-11-01', '2026-12-01', '1 month');
SELECT * FROM pg_temp.parts('t_distid');
SELECT * FROM pg_temp.parts('t_flaxid');
SELECT * FROM pg_temp.parts('t_base36id');
SELECT * FROM pg_temp.parts('t_uuid');
SELECT bounds = 'FOR VALUES FROM (''09616001-ac00-7000-0000-000000000000'') TO ('''
                || distid128_from_timestamp('2026-12-01') || ''')' AS uuid_bound_is_vector
FROM pg_temp.parts('t_uuid');
INSERT INTO t_uuid SELECT distid128_generate() FROM generate_series(1, 3);	-- now: no partition
INSERT INTO t_uuid VALUES (distid128_max_for_timestamp('2026-11-30 23:59:59.999')),
                          (distid128_from_timestamp('2026-11-01'));
SELECT regress.err($$INSERT INTO t_uuid VALUES (distid128_from_timestamp('2026-12-01'))$$);

--
-- steps in UTC whatever the session's time zone; months from the origin
-- (no drift at month ends); names with the time of day below a day
--
SET TimeZone = 'Europe/Berlin';		-- DST starts 2026-03-29
CREATE TABLE t_tz (id flaxid) PARTITION BY RANGE (id);
SELECT * FROM idgen_create_partitions('t_tz', '2026-03-01 00:00+00', '2026-05-01 00:00+00', '1 month');
SET TimeZone = 'UTC';
SELECT part, bounds = format('FOR VALUES FROM (%L) TO (%L)',
                             flaxid_from_timestamp(to_date(right(part, 8), 'YYYYMMDD')::timestamp AT TIME ZONE 'UTC'),
                             flaxid_from_timestamp((to_date(right(part, 8), 'YYYYMMDD') + interval '1 month') AT TIME ZONE 'UTC')) AS utc_months
FROM pg_temp.parts('t_tz');
CREATE TABLE t_ends (id distid) PARTITION BY RANGE (id);
SELECT * FROM idgen_create_partitions('t_ends', '2026-01-31', '2026-05-01', '1 month');
CREATE TABLE t_hours (id iuid) PARTITION BY RANGE (id);
SELECT * FROM idgen_create_partitions('t_hours', '2026-11-01 22:00', '2026-11-02 01:30', '90 minutes');

--
-- the parent's schema, names that need quoting, an extension in another schema
-- called with a search_path that does not have it
--
CREATE SCHEMA "Sales Data";
CREATE TABLE "Sales Data"."Orders" (id iuid) PARTITION BY RANGE (id);
SELECT * FROM idgen_create_partitions('"Sales Data"."Orders"', '2026-11-01', '2027-01-01', '1 month');
SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relname LIKE 'Orders%' ORDER BY 2;
CREATE SCHEMA ext;
ALTER EXTENSION idgen SET SCHEMA ext;
SET search_path = pg_catalog;
SELECT * FROM ext.idgen_create_partitions('"Sales Data"."Orders"', '2026-11-01', '2027-02-01', '1 month');
RESET search_path;
ALTER EXTENSION idgen SET SCHEMA public;

--
-- overlaps and names in the way: clear errors, and nothing created
--
CREATE TABLE t_odd (id iuid) PARTITION BY RANGE (id);
CREATE TABLE t_odd_mid PARTITION OF t_odd
	FOR VALUES FROM (iuid_from_timestamp('2026-11-15')) TO (iuid_from_timestamp('2026-11-20'));
SELECT regress.err($$SELECT idgen_create_partitions('t_odd', '2026-10-01', '2027-01-01', '1 month')$$);
SELECT count(*) AS partitions_after_overlap FROM pg_temp.parts('t_odd');
CREATE TABLE t_low PARTITION OF t_odd FOR VALUES FROM (MINVALUE) TO (iuid_from_timestamp('2026-01-01'));
SELECT regress.err($$SELECT idgen_create_partitions('t_odd', '2025-12-01', '2026-01-01', '1 month')$$);
SELECT * FROM idgen_create_partitions('t_odd', '2026-01-01', '2026-02-01', '1 month');	-- meets t_low, fine
CREATE TABLE t_high PARTITION OF t_odd FOR VALUES FROM (iuid_from_timestamp('2027-06-01')) TO (MAXVALUE);
SELECT regress.err($$SELECT idgen_create_partitions('t_odd', '2027-06-01', '2027-07-01', '1 day')$$);
-- same bounds under another name: skipped
CREATE TABLE t_odd_custom PARTITION OF t_odd
	FOR VALUES FROM (iuid_from_timestamp('2027-01-01')) TO (iuid_from_timestamp('2027-02-01'));
SELECT count(*) AS created_over_custom FROM idgen_create_partitions('t_odd', '2027-01-01', '2027-02-01', '1 month');
-- a table in the way of a name
CREATE TABLE t_odd_20270201 (id iuid);
SELECT regress.err($$SELECT idgen_create_partitions('t_odd', '2027-02-01', '2027-03-01', '1 month')$$);
-- a name too long for an identifier
CREATE TABLE a_table_with_a_name_of_exactly_fifty_seven_characters_xx (id iuid) PARTITION BY RANGE (id);
SELECT regress.err($$SELECT idgen_create_partitions('a_table_with_a_name_of_exactly_fifty_seven_characters_xx', '2026-01-01', '2026-02-01', '1 month')$$);
-- a default partition: checked by the server when its rows would move
CREATE TABLE t_def (id flaxid) PARTITION BY RANGE (id);
CREATE TABLE t_def_other PARTITION OF t_def DEFAULT;
INSERT INTO t_def VALUES (flaxid_from_timestamp('2026-11-05'));
SELECT regress.err($$SELECT idgen_create_partitions('t_def', '2026-11-01', '2026-12-01', '1 month')$$);
SELECT * FROM idgen_create_partitions('t_def', '2026-12-01', '2027-01-01', '1 month');

--
-- layouts it refuses
--
CREATE TABLE t_plain (id iuid);
CREATE TABLE t_list (id iuid) PARTITION BY LIST (id);
CREATE TABLE t_hash (id iuid) PARTITION BY HASH (id);
CREATE TABLE t_two (id iuid, n int) PARTITION BY RANGE (id, n);
CREATE TABLE t_expr (id iuid) PARTITION BY RANGE ((id::uuid));
CREATE TABLE t_ts (at timestamptz) PARTITION BY RANGE (at);
CREATE TABLE t_text (id text) PARTITION BY RANGE (id);
CREATE OPERATOR CLASS iuid_other_ops FOR TYPE iuid USING btree AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 iuid_cmp(iuid, iuid);
CREATE TABLE t_opclass (id iuid) PARTITION BY RANGE (id iuid_other_ops);
SELECT t, regress.err(format('SELECT idgen_create_partitions(%L, %L, %L, %L)', t, '2026-11-01', '2026-12-01', '1 month'))
FROM unnest(ARRAY['t_plain', 'orders_pkey', 't_list', 't_hash', 't_two', 't_expr', 't_ts', 't_text', 't_opclass']) t;

--
-- arguments it refuses
--
SELECT s, regress.err(format('SELECT idgen_create_partitions(%L, %L, %L, %L)', 'orders', '2026-11-01', '2027-02-01', s))
FROM unnest(ARRAY['0', '-1 month', '1 month -1 day', '-1 hour', '1 month 1 day', '1 mon 1 hour', '1.5 seconds', '00:00:00.001']) s;
SELECT regress.err($$SELECT idgen_create_partitions('orders', '2027-02-01', '2026-11-01', '1 month')$$);
SELECT regress.err($$SELECT idgen_create_partitions('orders', '-infinity', '2026-11-01', '1 month')$$);
SELECT regress.err($$SELECT idgen_create_partitions('orders', '2026-11-01', 'infinity', '1 month')$$);
SELECT regress.err($$SELECT idgen_create_partitions('orders', NULL, '2026-11-01', '1 month')$$);
SELECT regress.err($$SELECT idgen_create_partitions('orders', '2026-11-01', '2027-01-01', NULL)$$);
-- a bound outside the type's span: 22008 from *_from_timestamp, nothing created
SELECT regress.err($$SELECT idgen_create_partitions('t_base36id', '2023-12-01', '2024-02-01', '1 month')$$);
SELECT count(*) AS base36id_partitions FROM pg_temp.parts('t_base36id');

--
-- runs as its caller: creating partitions needs the owner's rights
--
CREATE ROLE regress_idgen_parts_user;
GRANT SELECT, UPDATE ON orders TO regress_idgen_parts_user;
GRANT CREATE ON SCHEMA public TO regress_idgen_parts_user;
SET ROLE regress_idgen_parts_user;
SELECT count(*) AS created_by_other_role FROM idgen_create_partitions('orders', '2026-11-01', '2027-02-01', '1 month');
SELECT regress.err($$SELECT idgen_create_partitions('orders', '2026-11-01', '2027-04-01', '1 month')$$);
RESET ROLE;
REVOKE CREATE ON SCHEMA public FROM regress_idgen_parts_user;
DROP OWNED BY regress_idgen_parts_user;
DROP ROLE regress_idgen_parts_user;

SET client_min_messages = warning;
DROP SCHEMA "Sales Data" CASCADE;
DROP SCHEMA ext CASCADE;
DROP EXTENSION idgen CASCADE;
DROP TABLE t_plain, t_ts, t_text, t_uuid, t_odd_20270201;
