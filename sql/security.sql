--
-- privileges (doc/security.md): no role gains privileges through idgen
--
-- idgen in a schema of its own; an ordinary role that may create objects in
-- public (as every role could before PostgreSQL 15) and owns a schema
CREATE SCHEMA idgen_home;
CREATE EXTENSION idgen SCHEMA idgen_home;
GRANT USAGE ON SCHEMA idgen_home TO PUBLIC;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';
CREATE ROLE regress_idgen_mallory;
CREATE ROLE regress_idgen_bystander;
GRANT CREATE ON SCHEMA public TO regress_idgen_mallory;
CREATE SCHEMA regress_mal AUTHORIZATION regress_idgen_mallory;
-- what mallory wants: superuser, taken by whatever mallory's code a superuser runs
SET ROLE regress_idgen_mallory;
CREATE FUNCTION regress_mal.escalate() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
	IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
		ALTER ROLE regress_idgen_mallory SUPERUSER;
	END IF;
	RETURN 1;
END $$;
-- immutable, as an index needs, calling the volatile function above
CREATE FUNCTION regress_mal.fold() RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT regress_mal.escalate()';
CREATE FUNCTION regress_mal.key(idgen_home.iuid) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT regress_mal.escalate()';
RESET ROLE;
CREATE FUNCTION pg_temp.mallory_is_superuser() RETURNS bool LANGUAGE sql AS
$$ SELECT rolsuper FROM pg_roles WHERE rolname = 'regress_idgen_mallory' $$;

--
-- 1. The key's "less" is its operator class's, not an operator named "<"
-- that any role can add to public for the key's type
--
SET ROLE regress_idgen_mallory;
CREATE FUNCTION public.iuid_lt_trap(idgen_home.iuid, idgen_home.iuid) RETURNS bool LANGUAGE plpgsql AS $$
BEGIN
	PERFORM regress_mal.escalate();
	RETURN idgen_home.iuid_lt($1, $2);
END $$;
CREATE OPERATOR public.< (LEFTARG = idgen_home.iuid, RIGHTARG = idgen_home.iuid, FUNCTION = public.iuid_lt_trap);
RESET ROLE;
CREATE TABLE sec_orders (id idgen_home.iuid) PARTITION BY RANGE (id);
SELECT * FROM idgen_home.idgen_create_partitions('sec_orders', '2026-01-01', '2026-02-01', '1 month');
-- the partition there is compared with the new ones' bounds
SELECT * FROM idgen_home.idgen_create_partitions('sec_orders', '2026-01-01', '2026-03-01', '1 month');
SELECT pg_temp.mallory_is_superuser();
DROP TABLE sec_orders;

--
-- 2. Partitions belong to the table's owner, and are created with the
-- owner's rights: an index predicate folded while the index is cloned onto
-- the new partition, and an index expression that ANALYZE runs as the
-- partition's owner, run as mallory, not as the caller
--
SET ROLE regress_idgen_mallory;
CREATE TABLE regress_mal.t (id idgen_home.iuid, v int) PARTITION BY RANGE (id);
CREATE INDEX t_folded ON regress_mal.t (v) WHERE v > regress_mal.fold();
CREATE INDEX t_keyed ON regress_mal.t (regress_mal.key(id));
RESET ROLE;
SELECT * FROM idgen_home.idgen_create_partitions('regress_mal.t', '2026-01-01', '2026-03-01', '1 month');
SELECT pg_temp.mallory_is_superuser() AS after_create;
SET ROLE regress_idgen_mallory;
INSERT INTO regress_mal.t VALUES (idgen_home.iuid_generate(1, 1, '2026-01-15'), 1);
RESET ROLE;
ANALYZE regress_mal.t_20260101;
SELECT pg_temp.mallory_is_superuser() AS after_analyze;
-- the partitions and everything made with them are the owner's
SELECT c.relname, c.relkind, pg_get_userbyid(c.relowner) AS owner
FROM pg_class c WHERE c.relnamespace = 'regress_mal'::regnamespace ORDER BY 1;
-- the caller's role is the caller's again afterwards
SELECT current_user, current_setting('role') AS role;
-- a member of the owner's role (with its privileges) creates them as the
-- owner too, and is itself again afterwards
GRANT regress_idgen_mallory TO regress_idgen_bystander;
SET SESSION AUTHORIZATION regress_idgen_bystander;
SELECT * FROM idgen_home.idgen_create_partitions('regress_mal.t', '2026-03-01', '2026-04-01', '1 month');
SELECT current_user, current_setting('role') AS role;
RESET SESSION AUTHORIZATION;
REVOKE regress_idgen_mallory FROM regress_idgen_bystander;
SELECT pg_get_userbyid(relowner) AS owner_of_member_made FROM pg_class WHERE oid = 'regress_mal.t_20260301'::regclass;
-- a role without the owner's privileges creates nothing, whatever the
-- session could SET ROLE to
GRANT USAGE ON SCHEMA regress_mal TO regress_idgen_bystander;
GRANT SELECT, UPDATE ON regress_mal.t TO regress_idgen_bystander;
SET ROLE regress_idgen_bystander;
SELECT regress.err($$SELECT idgen_home.idgen_create_partitions('regress_mal.t', '2026-04-01', '2026-05-01', '1 month')$$);
-- nor detaches, drops or lists more than plain SQL would let it
SELECT regress.err($$SELECT idgen_home.idgen_retire_partitions('regress_mal.t', '2026-03-01')$$);
SELECT regress.err($$SELECT idgen_home.idgen_retire_partitions('regress_mal.t', '2026-03-01', drop_tables => true)$$);
SELECT regress.err($$ALTER TABLE regress_mal.t DETACH PARTITION regress_mal.t_20260101$$);
-- nor, through the function the helpers run their statements with, runs
-- anything as the owner
SELECT regress.err($$SELECT idgen_home.idgen_ddl_as_owner('regress_idgen_mallory', 'DROP TABLE regress_mal.t')$$);
SELECT partition, from_time, to_time FROM idgen_home.idgen_partitions('regress_mal.t');
SELECT count(*) AS plain_sql_lists_as_many FROM pg_inherits WHERE inhparent = 'regress_mal.t'::regclass;
RESET ROLE;
-- a SECURITY DEFINER function calls as its owner: one of a role without the
-- table owner's privileges creates nothing; one owned by the table's owner
-- does
CREATE FUNCTION pg_temp.as_definer(t regclass) RETURNS SETOF regclass LANGUAGE sql SECURITY DEFINER AS
$$ SELECT idgen_home.idgen_create_partitions(t, '2026-04-01', '2026-05-01', '1 month') $$;
ALTER FUNCTION pg_temp.as_definer(regclass) OWNER TO regress_idgen_bystander;
SELECT regress.err($$SELECT pg_temp.as_definer('regress_mal.t')$$);
DROP FUNCTION pg_temp.as_definer(regclass);
SET ROLE regress_idgen_mallory;
CREATE FUNCTION regress_mal.as_owner(t regclass) RETURNS SETOF regclass LANGUAGE sql SECURITY DEFINER AS
$$ SELECT idgen_home.idgen_create_partitions(t, '2026-04-01', '2026-05-01', '1 month') $$;
RESET ROLE;
SELECT regress_mal.as_owner('regress_mal.t');
-- the owner needs what it would need to create the partition itself:
-- USAGE and CREATE on the table's schema, even when a superuser calls
CREATE SCHEMA regress_sec_admin;
CREATE TABLE regress_sec_admin.t (id idgen_home.iuid) PARTITION BY RANGE (id);
ALTER TABLE regress_sec_admin.t OWNER TO regress_idgen_mallory;
SELECT regress.err($$SELECT idgen_home.idgen_create_partitions('regress_sec_admin.t', '2026-01-01', '2026-02-01', '1 month')$$);
GRANT USAGE, CREATE ON SCHEMA regress_sec_admin TO regress_idgen_mallory;
SELECT * FROM idgen_home.idgen_create_partitions('regress_sec_admin.t', '2026-01-01', '2026-02-01', '1 month');
SELECT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE oid = 'regress_sec_admin.t_20260101'::regclass;
DROP SCHEMA regress_sec_admin CASCADE;
-- the owner retires; a superuser too, the detach and the drop run as the
-- owner
SET ROLE regress_idgen_mallory;
SELECT partition, action FROM idgen_home.idgen_retire_partitions('regress_mal.t', '2026-02-01');
RESET ROLE;
SELECT partition, action FROM idgen_home.idgen_retire_partitions('regress_mal.t', '2026-03-01', drop_tables => true);
SELECT pg_temp.mallory_is_superuser() AS at_the_end;
SELECT c.relname, pg_get_userbyid(c.relowner) AS owner
FROM pg_class c WHERE c.relnamespace = 'regress_mal'::regnamespace AND c.relkind IN ('r', 'p') ORDER BY 1;

--
-- 3. Owner code that runs while a helper works runs as the owner in a
-- security-restricted operation and cannot get back to the caller: SET ROLE
-- is no fence (attack review of c8b5d53, finding A, as given there).
-- Mallory's default partition has a CHECK constraint whose IMMUTABLE
-- function the server folds while it checks a new partition against it;
-- run under another session user, it switches the role back and takes
-- superuser.
--
SET SESSION AUTHORIZATION regress_idgen_mallory;
CREATE FUNCTION public.pwn() RETURNS bool LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF session_user <> current_user THEN
    PERFORM pg_catalog.set_config('role', 'none', true);   -- back to the superuser
    ALTER ROLE regress_idgen_mallory SUPERUSER;
  END IF;
  RETURN true;
END $$;
CREATE FUNCTION public.trap() RETURNS bool LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN RETURN public.pwn(); END $$;
CREATE TABLE public.ev (id idgen_home.iuid NOT NULL, v int) PARTITION BY RANGE (id);
CREATE TABLE public.ev_def PARTITION OF public.ev DEFAULT;
ALTER TABLE public.ev_def ADD CONSTRAINT c CHECK (public.trap() OR id IS NOT NULL);
RESET SESSION AUTHORIZATION;
SELECT pg_temp.mallory_is_superuser() AS before_create;
SELECT regress.err($$SELECT * FROM idgen_home.idgen_create_partitions('public.ev', '2026-01-01', '2026-01-03', '1 day')$$);
SELECT pg_temp.mallory_is_superuser() AS after_create;
-- nothing was created, and the caller is itself again
SELECT count(*) AS partitions FROM pg_inherits WHERE inhparent = 'public.ev'::regclass;
SELECT current_user = session_user AS caller_is_itself, current_setting('role') AS role;
-- every way back to the session's user is refused to the owner's code
SET SESSION AUTHORIZATION regress_idgen_mallory;
CREATE TABLE regress_mal.how (stmt text);
INSERT INTO regress_mal.how VALUES (NULL);
CREATE OR REPLACE FUNCTION public.pwn() RETURNS bool LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF session_user <> current_user THEN
    EXECUTE (SELECT stmt FROM regress_mal.how);
    ALTER ROLE regress_idgen_mallory SUPERUSER;
  END IF;
  RETURN true;
END $$;
RESET SESSION AUTHORIZATION;
UPDATE regress_mal.how SET stmt = 'SET ROLE NONE';
SELECT regress.err($$SELECT * FROM idgen_home.idgen_create_partitions('public.ev', '2026-01-01', '2026-01-03', '1 day')$$) AS set_role;
UPDATE regress_mal.how SET stmt = 'SELECT pg_catalog.set_config(''role'', ''none'', false)';
SELECT regress.err($$SELECT * FROM idgen_home.idgen_create_partitions('public.ev', '2026-01-01', '2026-01-03', '1 day')$$) AS set_config_role;
UPDATE regress_mal.how SET stmt = 'RESET ROLE';
SELECT regress.err($$SELECT * FROM idgen_home.idgen_create_partitions('public.ev', '2026-01-01', '2026-01-03', '1 day')$$) AS reset_role;
UPDATE regress_mal.how SET stmt = 'SET SESSION AUTHORIZATION DEFAULT';
SELECT regress.err($$SELECT * FROM idgen_home.idgen_create_partitions('public.ev', '2026-01-01', '2026-01-03', '1 day')$$) AS set_session_authorization;
SELECT pg_temp.mallory_is_superuser() AS after_each;
-- the same trap, and an index expression with it, through
-- idgen_retire_partitions called by a superuser: a detach, then a drop (the
-- server runs neither while it detaches or drops; were it to, it would run
-- as mallory, restricted)
SET SESSION AUTHORIZATION regress_idgen_mallory;
UPDATE regress_mal.how SET stmt = 'SELECT pg_catalog.set_config(''role'', ''none'', true)';
CREATE TABLE public.ev_20260101 PARTITION OF public.ev FOR VALUES FROM (idgen_home.iuid_from_timestamp('2026-01-01')) TO (idgen_home.iuid_from_timestamp('2026-01-02'));
CREATE TABLE public.ev_20260102 PARTITION OF public.ev FOR VALUES FROM (idgen_home.iuid_from_timestamp('2026-01-02')) TO (idgen_home.iuid_from_timestamp('2026-01-03'));
CREATE INDEX ev_trapped ON public.ev ((public.trap() AND id IS NOT NULL));
RESET SESSION AUTHORIZATION;
SELECT partition, action FROM idgen_home.idgen_retire_partitions('public.ev', '2026-01-02');
SELECT partition, action FROM idgen_home.idgen_retire_partitions('public.ev', '2026-01-03', drop_tables => true);
SELECT pg_temp.mallory_is_superuser() AS after_retire;
-- with concurrent => true the statements come back to be run at top level
-- (\gexec), where DETACH ... CONCURRENTLY runs the partition's CHECK
-- constraints with the rights of whoever runs it: a superuser, a member of
-- the owner, and a superuser's session after SET SESSION AUTHORIZATION (the
-- owner's code could RESET it) are refused; only a session logged in as the
-- owner gets them (partition_life.sql)
SET SESSION AUTHORIZATION regress_idgen_mallory;
CREATE TABLE public.evc (id idgen_home.iuid NOT NULL, v int) PARTITION BY RANGE (id);
SELECT count(*) FROM idgen_home.idgen_create_partitions('public.evc', '2026-01-01', '2026-01-03', '1 day');
ALTER TABLE public.evc_20260101 ADD CONSTRAINT c CHECK (regress_mal.fold() = 1 OR id IS NOT NULL);
RESET SESSION AUTHORIZATION;
CREATE ROLE regress_idgen_member IN ROLE regress_idgen_mallory;
SELECT statement FROM idgen_home.idgen_retire_partitions('public.evc', '2026-01-02', concurrent => true) \gexec
SELECT pg_temp.mallory_is_superuser() AS after_concurrent_retire;
SET SESSION AUTHORIZATION regress_idgen_member;
SELECT split_part(regress.err($$SELECT * FROM idgen_home.idgen_retire_partitions('public.evc', '2026-01-02', concurrent => true)$$), ' | ', 1) AS member;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION regress_idgen_mallory;
SELECT split_part(regress.err($$SELECT * FROM idgen_home.idgen_retire_partitions('public.evc', '2026-01-02', concurrent => true)$$), ' | ', 1) AS session_authorization;
RESET SESSION AUTHORIZATION;
SELECT count(*) AS still_attached FROM idgen_home.idgen_partitions('public.evc');
DROP TABLE public.evc;
DROP ROLE regress_idgen_member;
DROP TABLE public.ev, public.ev_20260101;
DROP FUNCTION public.trap(), public.pwn();

--
-- names are quoted wherever they go into SQL
--
CREATE SCHEMA "s'q""; x";
CREATE TABLE "s'q""; x"."t'); DROP TABLE sec_victim; --" (id idgen_home.flaxid) PARTITION BY RANGE (id);
CREATE TABLE sec_victim ();
SELECT * FROM idgen_home.idgen_create_partitions('"s''q""; x"."t''); DROP TABLE sec_victim; --"', '2026-01-01', '2026-01-03', '1 day');
SELECT partition, from_time FROM idgen_home.idgen_partitions('"s''q""; x"."t''); DROP TABLE sec_victim; --"');
SELECT partition, action FROM idgen_home.idgen_retire_partitions('"s''q""; x"."t''); DROP TABLE sec_victim; --"', '2026-01-02', drop_tables => true);
SELECT to_regclass('sec_victim') IS NOT NULL AS victim_is_there;
DROP SCHEMA "s'q""; x" CASCADE;
DROP TABLE sec_victim;

--
-- the rules every function of the extension keeps, from the catalog: none
-- is SECURITY DEFINER; every one in a language that resolves names at run
-- time pins search_path to pg_catalog and pg_temp (each row a violation)
--
SELECT p.oid::regprocedure AS violation, p.prosecdef, l.lanname, p.proconfig
FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid JOIN pg_language l ON l.oid = p.prolang
WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')
  AND (p.prosecdef OR (l.lanname NOT IN ('c', 'internal')
                       AND p.proconfig IS DISTINCT FROM '{"search_path=pg_catalog, pg_temp"}'))
ORDER BY 1;
-- the functions that run SQL (so the list above is not empty by accident)
SELECT p.proname, l.lanname
FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid JOIN pg_language l ON l.oid = p.prolang
WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')
  AND l.lanname NOT IN ('c', 'internal')
ORDER BY 1;
-- every object of the extension that PUBLIC may not use as it may use a
-- new object of its kind, and who may (ACLs without owner names)
SELECT pg_describe_object(d.classid, d.objid, 0) AS object,
       (SELECT string_agg(CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(a.grantee) END
                          || ':' || a.privilege_type, ', ' ORDER BY 1)
        FROM aclexplode(acl.acl) a WHERE a.grantee <> acl.owner) AS granted
FROM pg_depend d,
LATERAL (SELECT p.proacl, p.proowner FROM pg_proc p WHERE d.classid = 'pg_proc'::regclass AND p.oid = d.objid
         UNION ALL
         SELECT c.relacl, c.relowner FROM pg_class c WHERE d.classid = 'pg_class'::regclass AND c.oid = d.objid
         UNION ALL
         SELECT t.typacl, t.typowner FROM pg_type t WHERE d.classid = 'pg_type'::regclass AND t.oid = d.objid) AS acl(acl, owner)
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')
  AND acl.acl IS NOT NULL
ORDER BY pg_describe_object(d.classid, d.objid, 0) COLLATE "C";
-- idgen's settings and whether an ordinary role may change them; those it
-- may not are refused to it with SET, and in ALTER ROLE ... SET of its own
SELECT name, context FROM pg_settings WHERE name LIKE 'idgen.%' ORDER BY 1;
SET ROLE regress_idgen_bystander;
SELECT s.name, regress.err(format('SET %s = %L', s.name, s.setting)) AS set_by_ordinary_role
FROM pg_settings s WHERE s.name LIKE 'idgen.%' AND s.context <> 'user' ORDER BY 1;
SELECT s.name, regress.err(format('ALTER ROLE regress_idgen_bystander SET %s = %L', s.name, s.setting))
       AS alter_role_set_by_ordinary_role
FROM pg_settings s WHERE s.name LIKE 'idgen.%' AND s.context <> 'user' ORDER BY 1;
RESET ROLE;

SELECT pg_temp.mallory_is_superuser() AS mallory_stays_ordinary;
SET client_min_messages = warning;
DROP OPERATOR public.< (idgen_home.iuid, idgen_home.iuid);
DROP FUNCTION public.iuid_lt_trap(idgen_home.iuid, idgen_home.iuid);
REVOKE CREATE ON SCHEMA public FROM regress_idgen_mallory;
DROP SCHEMA regress_mal CASCADE;
DROP ROLE regress_idgen_mallory, regress_idgen_bystander;
DROP EXTENSION idgen;
DROP SCHEMA idgen_home;
