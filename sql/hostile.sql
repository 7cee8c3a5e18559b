--
-- The hostile database's verdict (hostile_setup made it): idgen in a schema
-- of its own, installed as 1.0 and updated, then installed afresh, with the
-- shadows of pg_catalog's names joined by shadows of idgen's own (in public
-- and in a schema before idgen's on the search_path), and every helper run
-- by a superuser on tables another role owns.  No shadow may be called, and
-- no owner, privilege or role attribute change.
--
SET TimeZone = 'UTC';
-- no shadow was called by any test so far (each call would have warned too)
SELECT is_called AS shadow_called_by_earlier_tests FROM regress_trap.shadow_calls;
-- owners, privileges and role attributes now, to compare at the end
-- (an object of the catalogs by its oid, described only when it differs)
CREATE FUNCTION pg_temp.privileges() RETURNS TABLE (classid regclass, objid oid, label text, owner oid, acl text)
LANGUAGE sql AS $$
	SELECT 'pg_class'::regclass, oid, NULL, relowner, relacl::text FROM pg_class
	UNION ALL SELECT 'pg_proc'::regclass, oid, NULL, proowner, proacl::text FROM pg_proc
	UNION ALL SELECT 'pg_type'::regclass, oid, NULL, typowner, typacl::text FROM pg_type
	UNION ALL SELECT 'pg_operator'::regclass, oid, NULL, oprowner, NULL FROM pg_operator
	UNION ALL SELECT 'pg_namespace'::regclass, oid, NULL, nspowner, nspacl::text FROM pg_namespace
	UNION ALL SELECT 'pg_database'::regclass, oid, NULL, datdba, datacl::text FROM pg_database
	UNION ALL SELECT 'pg_authid'::regclass, oid, NULL, NULL, concat_ws(' ', rolsuper, rolinherit, rolcreaterole,
	                                                                   rolcreatedb, rolcanlogin, rolreplication, rolbypassrls)
	FROM pg_authid
	UNION ALL SELECT 0::regclass, 0::oid, format('member %s of %s', member::regrole, roleid::regrole), grantor, admin_option::text
	FROM pg_auth_members
	UNION ALL SELECT 0::regclass, 0::oid, 'default privileges ' || defaclrole::regrole, defaclrole, defaclacl::text FROM pg_default_acl
	UNION ALL SELECT 0::regclass, 0::oid, 'role settings ' || setrole || ' ' || setdatabase, NULL, setconfig::text FROM pg_db_role_setting
$$;
CREATE TEMP TABLE privileges_before AS SELECT * FROM pg_temp.privileges();

-- idgen's home: made by a superuser, usable by all, writable by none else
CREATE SCHEMA idgen_hostile;
GRANT USAGE ON SCHEMA idgen_hostile TO PUBLIC;
-- the shadow schema first on the superuser's path: each call below is
-- qualified, as the caller's own SQL must be on such a path
SET search_path = regress_trap, public, idgen_hostile;
-- shadows of idgen's own names (in both schemas) and of every pg_catalog
-- operator name for idgen's types, and attempts at casts between idgen's
-- types and the core types its functions take (none may succeed: a cast
-- needs the ownership of one of its types)
CREATE FUNCTION pg_temp.shadow_idgen() RETURNS TABLE (functions bool, operators bool, types bool, casts int)
LANGUAGE plpgsql AS $$
DECLARE
	s name;
	ns oid := 'idgen_hostile'::regnamespace;
	idgen_types regtype[] := ARRAY(SELECT t.oid FROM pg_type t WHERE t.typnamespace = ns AND t.typtype = 'b'
	                                AND t.typname !~ '^_' ORDER BY 1);
	core_types regtype[] := ARRAY(SELECT DISTINCT a FROM pg_proc p, unnest(p.proargtypes::oid[] || p.prorettype) a
	                               WHERE p.pronamespace = ns AND a < 16384 ORDER BY 1);
	src regtype;
	dst regtype;
	made_casts int := 0;
BEGIN
	SET LOCAL ROLE regress_idgen_shadow;
	FOREACH s IN ARRAY ARRAY['public', 'regress_trap'] LOOP
		functions := regress_trap.shadow_functions(s, ns) > 0;
		operators := regress_trap.shadow_operators(s, ns, idgen_types) > 0;
		types := regress_trap.shadow_types(s, ns) > 0;
	END LOOP;
	FOREACH src IN ARRAY idgen_types || core_types LOOP
		FOREACH dst IN ARRAY idgen_types || core_types LOOP
			CONTINUE WHEN src = dst OR NOT (src = ANY (idgen_types) OR dst = ANY (idgen_types));
			BEGIN
				EXECUTE format('CREATE CAST (%s AS %s) WITH INOUT', src, dst);
				made_casts := made_casts + 1;
			EXCEPTION WHEN OTHERS THEN
				NULL;	-- refused: not the owner of either type (or not a type a cast may have)
			END;
		END LOOP;
	END LOOP;
	casts := made_casts;
	RETURN NEXT;
END $$;

--
-- 1.0, then the update, as a superuser
--
CREATE EXTENSION idgen VERSION '1.0' SCHEMA idgen_hostile;
SELECT * FROM pg_temp.shadow_idgen();
ALTER EXTENSION idgen UPDATE;
-- the names 1.1 added (its views' row types among them)
SELECT * FROM pg_temp.shadow_idgen();

--
-- every helper, run by a superuser on tables of each key type that another
-- role owns
--
CREATE ROLE regress_idgen_tenant;
CREATE SCHEMA tenant AUTHORIZATION regress_idgen_tenant;
SET ROLE regress_idgen_tenant;
CREATE TABLE tenant.k_iuid (id idgen_hostile.iuid PRIMARY KEY, note text) PARTITION BY RANGE (id);
CREATE TABLE tenant.k_distid (id idgen_hostile.distid) PARTITION BY RANGE (id);
CREATE TABLE tenant.k_flaxid (id idgen_hostile.flaxid) PARTITION BY RANGE (id);
CREATE TABLE tenant.k_base36id (id idgen_hostile.base36id) PARTITION BY RANGE (id);
CREATE TABLE tenant.k_uuid (id pg_catalog.uuid) PARTITION BY RANGE (id);
CREATE TABLE tenant.k_iuid_default PARTITION OF tenant.k_iuid DEFAULT;
RESET ROLE;
CREATE TEMP TABLE helpers_run (helper text);
CREATE FUNCTION pg_temp.every_helper() RETURNS TABLE (step text, outcome text) LANGUAGE plpgsql AS $$
DECLARE
	t regclass;
BEGIN
	FOREACH t IN ARRAY ARRAY['tenant.k_iuid', 'tenant.k_distid', 'tenant.k_flaxid', 'tenant.k_base36id', 'tenant.k_uuid']::regclass[] LOOP
		-- twice: the second run compares the partitions there with the new ones
		step := t || ' create';
		outcome := (SELECT count(*) FROM idgen_hostile.idgen_create_partitions(t, '2026-01-01', '2026-03-01', '1 month'))
		        || ', then ' || (SELECT count(*) FROM idgen_hostile.idgen_create_partitions(t, '2026-01-01', '2026-04-01', '1 month'));
		RETURN NEXT;
		step := t || ' list';
		outcome := (SELECT string_agg(coalesce(to_char(from_time, 'YYYY-MM-DD'), 'default'), ', ' ORDER BY from_time)
		            FROM idgen_hostile.idgen_partitions(t));
		RETURN NEXT;
		step := t || ' retire';
		outcome := (SELECT string_agg(action, ', ' ORDER BY from_time)
		            FROM idgen_hostile.idgen_retire_partitions(t, '2026-02-01'))
		        || ', ' || (SELECT string_agg(action, ', ' ORDER BY from_time)
		                    FROM idgen_hostile.idgen_retire_partitions(t, '2026-03-01', drop_tables => true));
		RETURN NEXT;
	END LOOP;
	step := 'tenant.k_distid retire concurrently';
	outcome := (SELECT string_agg(action, ', ') FROM idgen_hostile.idgen_retire_partitions('tenant.k_distid', '2026-04-01', true, true));
	RETURN NEXT;
	step := 'worker ids without Citus';
	outcome := regress.err('SELECT idgen_hostile.idgen_check_worker_ids()');
	RETURN NEXT;
	step := 'worker ids without dblink';
	outcome := regress.err($q$SELECT idgen_hostile.idgen_check_worker_ids(ARRAY['dbname=postgres'])$q$);
	RETURN NEXT;
	step := 'skip support';
	outcome := regress.err('SELECT idgen_hostile.idgen_add_skip_support()');
	RETURN NEXT;
	INSERT INTO helpers_run
	VALUES ('idgen_create_partitions'), ('idgen_partitions'), ('idgen_retire_partitions'),
	       ('idgen_check_worker_ids'), ('idgen_add_skip_support');
END $$;
SELECT * FROM pg_temp.every_helper();
-- every helper of the extension (every function in a language other than
-- C) was run above: a new one must be added there
SELECT p.proname AS helper_not_run
FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid JOIN pg_language l ON l.oid = p.prolang
WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')
  AND l.lanname NOT IN ('c', 'internal')
  AND p.proname NOT IN (SELECT helper FROM helpers_run)
ORDER BY 1;
-- everything the helpers made is the tables' owner's
SELECT count(*) > 10 AS made, count(*) FILTER (WHERE c.relowner <> 'regress_idgen_tenant'::regrole) AS not_the_owners
FROM pg_class c WHERE c.relnamespace = 'tenant'::regnamespace;

--
-- a fresh install of 1.1 (the shadows of idgen's names go with the old one)
--
SET client_min_messages = warning;
DROP EXTENSION idgen CASCADE;
RESET client_min_messages;
CREATE EXTENSION idgen SCHEMA idgen_hostile;
SELECT * FROM pg_temp.shadow_idgen();
SELECT count(*) AS created FROM idgen_hostile.idgen_create_partitions('tenant.k_uuid', '2026-04-01', '2026-06-01', '1 month');
SELECT partition, pg_get_userbyid(c.relowner) AS owner
FROM idgen_hostile.idgen_partitions('tenant.k_uuid') JOIN pg_class c ON c.oid = partition;

--
-- the verdict: no shadow called, no owner, privilege or role attribute of
-- anything that was there before changed (each row a change)
--
RESET search_path;
SELECT is_called AS shadow_called FROM regress_trap.shadow_calls;
SELECT coalesce(b.label, CASE WHEN b.classid = 'pg_authid'::regclass THEN 'role ' || b.objid::regrole::text
                           ELSE pg_describe_object(b.classid, b.objid, 0) END) AS object,
       b.owner::regrole AS owner_before, a.owner::regrole AS owner_after, b.acl AS acl_before, a.acl AS acl_after
FROM privileges_before b
JOIN pg_temp.privileges() a ON a.classid = b.classid AND a.objid = b.objid AND a.label IS NOT DISTINCT FROM b.label
WHERE (a.owner, a.acl) IS DISTINCT FROM (b.owner, b.acl)
ORDER BY 1;

SET client_min_messages = warning;
DROP EXTENSION idgen CASCADE;
DROP SCHEMA idgen_hostile, tenant CASCADE;
DROP ROLE regress_idgen_tenant;
REVOKE CREATE ON SCHEMA public FROM regress_idgen_shadow;
DROP OWNED BY regress_idgen_shadow;
DROP ROLE regress_idgen_shadow;
