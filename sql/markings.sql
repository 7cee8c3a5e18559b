--
-- markings and comments of every object of the extension (doc/reference.md)
--
CREATE EXTENSION idgen;
SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS args, p.provolatile,
       p.proisstrict, p.proparallel, p.proleakproof
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idgen'
WHERE d.deptype = 'e'
ORDER BY 1, 2;
-- every object of the extension has a comment
SELECT pg_describe_object(classid, objid, objsubid) AS uncommented
FROM pg_depend d
WHERE d.refclassid = 'pg_extension'::regclass
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')
  AND d.deptype = 'e'
  AND obj_description(objid, (SELECT relname FROM pg_class WHERE oid = classid)::name) IS NULL
  -- array types, and the row types of views (extension members on newer
  -- servers) go uncommented, as core's do
  AND NOT (d.classid = 'pg_type'::regclass
           AND EXISTS (SELECT 1 FROM pg_type t WHERE t.typarray = d.objid))
  AND NOT (d.classid = 'pg_type'::regclass
           AND EXISTS (SELECT 1 FROM pg_type t WHERE t.oid = d.objid AND t.typrelid <> 0))
ORDER BY 1;
-- the markings doc/reference.md states, checked for every function: each row would be a violation
SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS args
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idgen'
WHERE d.deptype = 'e' AND p.prokind = 'f'
  AND ((p.proname ~ '_(eq|ne|lt|le|gt|ge|cmp)$'
        AND NOT (p.provolatile = 'i' AND p.proisstrict AND p.proparallel = 's' AND p.proleakproof))
    OR (p.proname ~ '_generate(_dense)?$' AND NOT (p.provolatile = 'v' AND p.proparallel = 'r'))
    -- the keyless public id functions (and public_id_keys()) read the key
    -- file, which a reload can change: STABLE; the session's keys are its
    -- own, which a parallel worker would read afresh: PARALLEL RESTRICTED
    -- (public_id_keys() always reads the file afresh: PARALLEL SAFE)
    OR (p.proname ~ '^public_id' AND p.pronargs <= 1
        AND NOT (p.provolatile = 's' AND p.proisstrict
                 AND p.proparallel = CASE p.proname WHEN 'public_id_keys' THEN 's' ELSE 'r' END))
    -- partition upkeep runs DDL, the worker-id check connects to other nodes:
    -- VOLATILE, PARALLEL UNSAFE, as its caller, with a pinned search_path; not
    -- STRICT, so that a NULL argument is an error (or, for the check, Citus)
    OR (p.proname IN ('idgen_create_partitions', 'idgen_retire_partitions', 'idgen_check_worker_ids')
        AND NOT (p.provolatile = 'v' AND NOT p.proisstrict AND p.proparallel = 'u'
                 AND NOT p.prosecdef AND p.proconfig = '{"search_path=pg_catalog, pg_temp"}'))
    -- listing partitions, or other roles' objects in idgen's schema, only
    -- reads the catalogs: STABLE, PARALLEL SAFE, as
    -- its caller, with a pinned search_path, not STRICT
    OR (p.proname IN ('idgen_partitions', 'idgen_check_schema')
        AND NOT (p.provolatile = 's' AND NOT p.proisstrict AND p.proparallel = 's'
                 AND NOT p.prosecdef AND p.proconfig = '{"search_path=pg_catalog, pg_temp"}'))
    -- one statement as a table's owner for the partition helpers: VOLATILE,
    -- PARALLEL UNSAFE, STRICT, not SECURITY DEFINER; C, its search_path set
    -- for the statement inside
    OR (p.proname = 'idgen_ddl_as_owner'
        AND NOT (p.provolatile = 'v' AND p.proisstrict AND p.proparallel = 'u'
                 AND NOT p.prosecdef AND p.proconfig IS NULL))
    -- skip support after pg_upgrade: DDL as the caller, like partition upkeep
    OR (p.proname = 'idgen_add_skip_support'
        AND NOT (p.provolatile = 'v' AND p.proisstrict = false AND p.proparallel = 'u'
                 AND NOT p.prosecdef AND p.proconfig = '{"search_path=pg_catalog, pg_temp"}'))
    -- monitoring reads counters that change under it: VOLATILE; shared
    -- memory is the same in parallel workers: PARALLEL SAFE
    OR (p.proname ~ '^idgen_stat_' AND NOT (p.provolatile = 'v' AND p.proparallel = 's'))
    OR (p.proname !~ '_generate(_dense)?$' AND NOT (p.proname ~ '^public_id' AND p.pronargs <= 1)
        AND p.proname NOT IN ('idgen_create_partitions', 'idgen_check_worker_ids', 'idgen_add_skip_support',
                              'idgen_partitions', 'idgen_retire_partitions', 'idgen_ddl_as_owner',
                              'idgen_check_schema')
        AND p.proname !~ '^idgen_stat_'
        AND NOT (p.provolatile = 'i' AND p.proisstrict AND p.proparallel = 's')))
ORDER BY 1, 2;
DROP EXTENSION idgen;
