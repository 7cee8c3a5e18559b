--
-- B-tree skip scans (PostgreSQL 18 and later) on two-column indexes led by an
-- idgen key: each type's skip support (btree support function 6) names the
-- next possible key, so a query on the second column alone descends the
-- index once per leading key.  15 and 17 have no skip support
-- (expected/skipscan_1.out).
--
CREATE EXTENSION idgen;

-- the skip support functions exist on every server; they are in the btree
-- operator families only on 18, the first with the slot for them
SELECT p.oid::regprocedure AS function,
       EXISTS (SELECT 1 FROM pg_amproc ap WHERE ap.amproc = p.oid AND ap.amprocnum = 6)
         AS in_family
FROM pg_proc p
JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')
  AND p.proname LIKE '%skipsupport'
ORDER BY 1;

SELECT current_setting('server_version_num')::int >= 180000 AS skip_scans \gset
\if :skip_scans

-- every btree operator class of the extension has skip support, and passes
-- the access method's validation
SELECT c.opcname, p.amproc::regprocedure AS skip_support, amvalidate(c.oid) AS valid
FROM pg_opclass c
JOIN pg_am am ON am.oid = c.opcmethod AND am.amname = 'btree'
JOIN pg_amproc p ON p.amprocfamily = c.opcfamily AND p.amprocnum = 6
WHERE c.opcname IN ('iuid_ops', 'base36id_ops', 'distid_ops', 'flaxid_ops')
ORDER BY 1;

-- A table of 10 consecutive keys (as numbers: each the one after the other)
-- times 2000 values of n, an index on (id, n); a query on n alone, scanning
-- the index forwards (skip support's increment) and backwards (decrement):
-- the plan, the number of index descents and the result, next to a
-- sequential scan's.
CREATE FUNCTION pg_temp.skip_scan(typ text, key text, opclass text DEFAULT '')
RETURNS TABLE (forward text, backward text, expected text)
LANGUAGE plpgsql AS $$
DECLARE
	q text;
	line text;
	node text;
	searches text;
	res text;
BEGIN
	EXECUTE format('CREATE TEMP TABLE skip_t AS SELECT (%s)::%s AS id, n, i'
				   ' FROM generate_series(0, 9) i, generate_series(1, 2000) n', key, typ);
	EXECUTE format('CREATE INDEX skip_t_id_n ON skip_t (id %s, n)', opclass);
	ANALYZE skip_t;
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_bitmapscan = off;
	FOREACH q IN ARRAY ARRAY['ASC', 'DESC'] LOOP
		q := 'SELECT string_agg(i::text, '','' ORDER BY id ' || q || ', n ' || q || ')'
			 ' FROM skip_t WHERE n = 1990';
		node := NULL;
		searches := NULL;
		FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || q
		LOOP
			node := coalesce(node, substring(line FROM 'Index (?:Only )?Scan (?:Backward )?using skip_t_id_n'));
			searches := coalesce(searches, substring(line FROM 'Index Searches: \d+'));
		END LOOP;
		EXECUTE q INTO res;
		res := concat_ws('; ', node, searches, res);
		IF forward IS NULL THEN forward := res; ELSE backward := res; END IF;
	END LOOP;
	RESET enable_seqscan;
	RESET enable_bitmapscan;
	-- n + 0: no index scan of any kind
	EXECUTE 'SELECT string_agg(i::text, '','' ORDER BY id, n) FROM skip_t WHERE n + 0 = 1990'
		INTO expected;
	DROP TABLE skip_t;
	RETURN NEXT;
END $$;

-- the least keys of each type, and the greatest (where skip support's step
-- would leave the byte range or the type's domain)
\x on
SELECT * FROM pg_temp.skip_scan('iuid', $$'00000000-0000-8000-8000-00000000000' || i$$);
SELECT * FROM pg_temp.skip_scan('iuid',
	$$'ffffffff-ffff-8fff-bfff-fffffffffff' || to_hex(6 + i)$$);
SELECT * FROM pg_temp.skip_scan('base36id', 'i::bigint');
SELECT * FROM pg_temp.skip_scan('base36id', '(101559956668406 + i)::bigint');
SELECT * FROM pg_temp.skip_scan('distid', 'i::numeric');
SELECT * FROM pg_temp.skip_scan('distid', '(9999999999999999999999999990 + i)::numeric');
SELECT * FROM pg_temp.skip_scan('flaxid', $$'---------------' || substr('-012345678', i + 1, 1)$$);
SELECT * FROM pg_temp.skip_scan('flaxid', $$'zzzzzzzzzzzzzzz' || substr('pqrstuvwxyz', i + 1, 1)$$);

\x off
\else
\echo PostgreSQL before 18 has no B-tree skip support
\endif

-- idgen_add_skip_support(), the path after pg_upgrade into 18 (which keeps
-- the families as the old server had them): nothing is missing after
-- CREATE EXTENSION, on any server; on 18, families without function 6 get
-- it back, and a second call finds nothing to do
SELECT idgen_add_skip_support() AS added;
\if :skip_scans
ALTER OPERATOR FAMILY iuid_ops USING btree DROP FUNCTION 6 (iuid, iuid);
ALTER OPERATOR FAMILY flaxid_ops USING btree DROP FUNCTION 6 (flaxid, flaxid);
SELECT idgen_add_skip_support() AS added;
SELECT f.opfname, p.amproc::regprocedure AS skip_support
FROM pg_opfamily f JOIN pg_amproc p ON p.amprocfamily = f.oid AND p.amprocnum = 6
WHERE f.opfname IN ('iuid_ops', 'base36id_ops', 'distid_ops', 'flaxid_ops')
ORDER BY 1;
SELECT idgen_add_skip_support() AS added;
\endif

SET client_min_messages = warning;
DROP EXTENSION idgen CASCADE;
RESET client_min_messages;
