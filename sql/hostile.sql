--
-- The hostile database's verdict (hostile_setup made the trap).  Three
-- attacks, each on the real CREATE and ALTER EXTENSION path:
--  1. a writable public: an ordinary role fills it with better matches than
--     pg_catalog's own for what callers pass (polymorphic and "any"
--     arguments, arguments an implicit cast would convert), each trying to
--     make its role superuser when a superuser runs it; idgen 1.0 installed
--     there and updated, then 1.1 installed afresh, by a superuser; then
--     (1b) the role's overloads of idgen's own names, which the install and
--     the update refuse;
--  2. the trap: idgen installed into idgen_trap, where a twin of every name
--     of pg_catalog is searched before pg_catalog, while the update script
--     and the fresh install run and while every helper runs;
--  3. the tenant's own code (an index expression and predicate, a trigger, a
--     default, a check) on the tables a superuser's helpers work on: it may
--     run, but only as the tenant.
-- No trap or overload may be used, no idgen object may depend on a twin,
-- and no owner, privilege or role attribute may change.
--
SET TimeZone = 'UTC';
-- owners, privileges and role attributes now, to compare at the end
-- (an object of the catalogs by its oid, described only when it differs)
CREATE FUNCTION pg_temp.privileges() RETURNS TABLE (classid regclass, objid oid, label text, owner oid, acl text)
LANGUAGE sql AS $$
	SELECT 'pg_class'::regclass, oid, NULL, relowner, relacl::text FROM pg_class
	UNION ALL SELECT 'pg_proc'::regclass, oid, NULL, proowner, proacl::text FROM pg_proc
	UNION ALL SELECT 'pg_type'::regclass, oid, NULL, typowner, typacl::text FROM pg_type
	UNION ALL SELECT 'pg_operator'::regclass, oid, NULL, oprowner, NULL FROM pg_operator
	UNION ALL SELECT 'pg_namespace'::regclass, oid, NULL, nspowner, nspacl::text FROM pg_namespace
	-- (NULL is the default: the same as it, written out)
	UNION ALL SELECT 'pg_database'::regclass, oid, NULL, datdba, coalesce(datacl, acldefault('d', datdba))::text FROM pg_database
	UNION ALL SELECT 'pg_authid'::regclass, oid, NULL, NULL, concat_ws(' ', rolsuper, rolinherit, rolcreaterole,
	                                                                   rolcreatedb, rolcanlogin, rolreplication, rolbypassrls)
	FROM pg_authid
	UNION ALL SELECT 0::regclass, 0::oid, format('member %s of %s', member::regrole, roleid::regrole), grantor, admin_option::text
	FROM pg_auth_members
	UNION ALL SELECT 0::regclass, 0::oid, 'default privileges ' || defaclrole::regrole, defaclrole, defaclacl::text FROM pg_default_acl
$$;
CREATE TEMP TABLE privileges_before AS SELECT * FROM pg_temp.privileges();
-- no trap was used by the tests so far
SELECT is_called AS trap_used_by_earlier_tests FROM regress_trap.calls;

--
-- 1. A writable public.  The attacker's overloads try, when a superuser runs
-- them, to make their role superuser; a setting of its own gives the
-- update's scan of role settings a row to look at.
--
-- For the names the scripts mention (any of them may be a call).
\getenv abs_srcdir PG_ABS_SRCDIR
\set scripts_sh 'cat ' :abs_srcdir '/sql/idgen--1.0.sql ' :abs_srcdir '/sql/idgen--1.0--1.1.sql ' :abs_srcdir '/sql/idgen--1.1.sql'
\set scripts `:scripts_sh`
SET ROLE regress_idgen_shadow;
ALTER ROLE regress_idgen_shadow SET work_mem = '4MB';
-- (the scripts' text is not echoed)
\set ECHO none
SELECT regress_trap.make_overloads('public',
	$$IF pg_catalog.current_setting('is_superuser') OPERATOR(pg_catalog.=) 'on' THEN
		ALTER ROLE regress_idgen_shadow SUPERUSER;
	END IF;$$, ARRAY(SELECT regress_trap.names_in(:'scripts'))) > 50 AS overloads;
\set ECHO all
RESET ROLE;
-- as README says, into public: 1.0 (its script is released and frozen), the
-- update, a fresh 1.1
CREATE EXTENSION idgen VERSION '1.0';
-- The role can block the update (doc/security.md): an operator of its own
-- whose commutator is =(iuid, uuid), which the update creates, makes that a
-- shell operator of the role's.  The update fails naming it, the shell stays
-- the role's and outside the extension; once it is dropped, the update runs.
SET search_path = pg_catalog, pg_temp;
SET ROLE regress_idgen_shadow;
CREATE FUNCTION public.shadow_eq(uuid, public.iuid) RETURNS boolean LANGUAGE sql AS 'SELECT false';
CREATE OPERATOR public.=== (LEFTARG = uuid, RIGHTARG = public.iuid, PROCEDURE = public.shadow_eq,
	COMMUTATOR = OPERATOR(public.=));
RESET ROLE;
CREATE FUNCTION pg_temp.shell_eq() RETURNS TABLE (extversion text, shell bool, the_roles bool,
	extension_owners bool, member bool, com regoperator, neg regoperator) LANGUAGE sql AS $$
	SELECT e.extversion, o.oprcode = 0, o.oprowner = 'regress_idgen_shadow'::regrole, o.oprowner = e.extowner,
	       EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_operator'::regclass AND d.objid = o.oid
	                                         AND d.refclassid = 'pg_extension'::regclass AND d.refobjid = e.oid
	                                         AND d.deptype = 'e'),
	       o.oprcom, o.oprnegate
	FROM pg_extension e LEFT JOIN pg_operator o
	  ON o.oprname = '=' AND o.oprnamespace = 'public'::regnamespace
	 AND o.oprleft = 'public.iuid'::regtype AND o.oprright = 'uuid'::regtype
	WHERE e.extname = 'idgen'
$$;
SELECT * FROM pg_temp.shell_eq();
SELECT regress.err('ALTER EXTENSION idgen UPDATE') AS update_error \gset
-- the error names the shell: 15 lets no role, a superuser neither, fill
-- another's shell; from 17 on a superuser may, but an extension may not take
-- in an object it does not own (the error shown only when it is another)
SELECT CASE WHEN :'update_error' = CASE WHEN current_setting('server_version_num')::int < 170000
	THEN '42501: must be owner of operator ='
	ELSE '55000: operator =(iuid,uuid) is not a member of extension "idgen" | An extension is not allowed to replace an object that it does not own.'
	END THEN 'the exact error' ELSE :'update_error' END AS update_refused;
SELECT * FROM pg_temp.shell_eq();
DROP OPERATOR public.= (public.iuid, uuid);
RESET search_path;
ALTER EXTENSION idgen UPDATE;
SET search_path = pg_catalog, pg_temp;
SELECT * FROM pg_temp.shell_eq();
-- no object of the extension is the role's
SELECT count(*) AS the_roles_in_extension
FROM pg_depend d JOIN pg_shdepend s ON s.classid = d.classid AND s.objid = d.objid
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')
  AND s.dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND s.deptype = 'o' AND s.refobjid = 'regress_idgen_shadow'::regrole;
-- (the role's own operator depends on iuid)
DROP OPERATOR public.=== (uuid, public.iuid);
DROP FUNCTION public.shadow_eq(uuid, public.iuid);
RESET search_path;
SELECT is_called AS used FROM regress_trap.calls;
SET client_min_messages = warning;
DROP EXTENSION idgen;
RESET client_min_messages;
CREATE EXTENSION idgen;
SELECT is_called AS used FROM regress_trap.calls;
SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=) 'regress_idgen_shadow';
DROP EXTENSION idgen;
-- nor can a role that is not a superuser install it, the database's owner
-- included: idgen is not trusted
CREATE ROLE regress_idgen_dbowner;
SELECT pg_catalog.pg_get_userbyid(datdba) AS owner FROM pg_catalog.pg_database
WHERE datname OPERATOR(pg_catalog.=) pg_catalog.current_database() \gset
SET search_path = pg_catalog, pg_temp;
SELECT regress.err(format('ALTER DATABASE %I OWNER TO regress_idgen_dbowner', current_database()));
SET ROLE regress_idgen_dbowner;
SELECT regress.err('CREATE EXTENSION idgen');
RESET ROLE;
SELECT regress.err(format('ALTER DATABASE %I OWNER TO %I', current_database(), :'owner'));
RESET search_path;
DROP ROLE regress_idgen_dbowner;
-- the overloads go: the rest of this test writes its own SQL unqualified
-- (DROP OWNED takes its grant on public too: given back)
DROP OWNED BY regress_idgen_shadow;
GRANT CREATE ON SCHEMA public TO regress_idgen_shadow;
ALTER ROLE regress_idgen_shadow RESET work_mem;

--
-- 1b. The role's objects under idgen's own names.  idgen is relocatable and
-- may share its schema: an overload of one of its functions' or types'
-- names, or an operator of one of its operators' names on its types, that
-- the role made while it could create there is chosen over idgen's for a
-- call such as these and runs with the caller's privileges.  The install and
-- the update refuse such a schema and name the object; the superuser's and
-- the schema owner's own are trusted; idgen_check_schema() lists them, also
-- in a schema idgen is not in yet (before ALTER EXTENSION ... SET SCHEMA,
-- which runs no script).
--
SET ROLE regress_idgen_shadow;
-- text suits a literal better than regclass and interval: the role's runs
-- for idgen_create_partitions('orders', ..., '1 month')
CREATE FUNCTION public.idgen_create_partitions(parent text, "from" timestamptz, "to" timestamptz, step text)
RETURNS SETOF regclass LANGUAGE plpgsql AS $$
BEGIN
	IF pg_catalog.current_setting('is_superuser') OPERATOR(pg_catalog.=) 'on' THEN
		ALTER ROLE regress_idgen_shadow SUPERUSER;
	END IF;
END $$;
RESET ROLE;
-- the role can no longer create there; its function stays
REVOKE CREATE ON SCHEMA public FROM regress_idgen_shadow;
SELECT regress.err('CREATE EXTENSION idgen') AS install;
-- 1.0 had no check; its update has
CREATE EXTENSION idgen VERSION '1.0';
SELECT regress.err('ALTER EXTENSION idgen UPDATE') AS update;
SELECT extversion FROM pg_extension WHERE extname OPERATOR(pg_catalog.=) 'idgen';
DROP EXTENSION idgen;
-- into another schema, then moved into public: listed before the move
CREATE SCHEMA regress_ids;
CREATE EXTENSION idgen SCHEMA regress_ids;
SELECT * FROM regress_ids.idgen_check_schema();
SELECT * FROM regress_ids.idgen_check_schema('public'::regnamespace);
ALTER EXTENSION idgen SET SCHEMA public;
SELECT * FROM public.idgen_check_schema();
DROP EXTENSION idgen;
DROP FUNCTION public.idgen_create_partitions(text, timestamptz, timestamptz, text);
GRANT CREATE ON SCHEMA public TO regress_idgen_shadow;
-- one of each kind, by the role: refused, named
SET ROLE regress_idgen_shadow;
-- the key passed as text
CREATE FUNCTION public.public_id(id bigint, key text) RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid';
RESET ROLE;
SELECT regress.err('CREATE EXTENSION idgen') AS install;
DROP FUNCTION public.public_id(bigint, text);
SET ROLE regress_idgen_shadow;
-- a type's name (no function of idgen has it): flaxid('...') is a call
-- before it is a cast
CREATE FUNCTION public.flaxid(text) RETURNS bytea LANGUAGE sql AS 'SELECT NULL::bytea';
RESET ROLE;
SELECT regress.err('CREATE EXTENSION idgen') AS install;
DROP FUNCTION public.flaxid(text);
SET ROLE regress_idgen_shadow;
-- a defaulted argument: idgen's own call is no longer unique
CREATE FUNCTION public.iuid_generate(int, int, text DEFAULT '') RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid';
RESET ROLE;
SELECT regress.err('CREATE EXTENSION idgen') AS install;
DROP FUNCTION public.iuid_generate(int, int, text);
SET ROLE regress_idgen_shadow;
-- the check's own name, which would make its call "not unique": the scripts
-- run its body, and name it
CREATE FUNCTION public.idgen_check_schema(OUT object text, OUT owner name, OUT trusted boolean) RETURNS SETOF record
	LANGUAGE sql AS 'SELECT NULL::text, NULL::name, true WHERE false';
RESET ROLE;
SELECT regress.err('CREATE EXTENSION idgen') AS install;
DROP FUNCTION public.idgen_check_schema();
SET ROLE regress_idgen_shadow;
-- the object's name is the role's to choose: a line break in its type's
-- name would forge a line of the message
CREATE TYPE public.shadow_mood AS ENUM ('a');
CREATE FUNCTION public.public_id(id bigint, key public.shadow_mood) RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid';
SELECT pg_catalog.chr(10) AS nl \gset
ALTER TYPE public.shadow_mood RENAME TO :"nl";
RESET ROLE;
SELECT regress.err('CREATE EXTENSION idgen') AS install;
SELECT pg_catalog.count(*) AS its_functions FROM pg_catalog.pg_proc WHERE proowner OPERATOR(pg_catalog.=) 'regress_idgen_shadow'::regrole;
DROP OWNED BY regress_idgen_shadow;
GRANT CREATE ON SCHEMA public TO regress_idgen_shadow;
SET ROLE regress_idgen_shadow;
-- a domain named as a function of one argument: idgen_partitions('orders')
-- is a cast to it, whose check runs the role's function
CREATE FUNCTION public.shadow_hook(text) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE DOMAIN public.idgen_partitions AS text CHECK (public.shadow_hook(VALUE));
RESET ROLE;
SELECT regress.err('CREATE EXTENSION idgen') AS install;
DROP DOMAIN public.idgen_partitions;
SET ROLE regress_idgen_shadow;
-- a range made under a function's name and renamed: its constructors keep
-- the name and belong to the bootstrap superuser, judged by the type's owner
CREATE TYPE public.idgen_retire_partitions AS RANGE (SUBTYPE = text);
ALTER TYPE public.idgen_retire_partitions RENAME TO shadow_range;
RESET ROLE;
SELECT regress.err('CREATE EXTENSION idgen') AS install;
DROP TYPE public.shadow_range;
SET ROLE regress_idgen_shadow;
-- not a table of that name: name('literal') is never a cast to a row type
CREATE DOMAIN public.shadow_text AS text CHECK (public.shadow_hook(VALUE));
CREATE TABLE public.distid_from_hex (x public.shadow_text);
RESET ROLE;
CREATE EXTENSION idgen;
SELECT * FROM public.idgen_check_schema();
DROP EXTENSION idgen;
DROP TABLE public.distid_from_hex;
DROP DOMAIN public.shadow_text;
DROP FUNCTION public.shadow_hook(text);
-- nor does a trusted extension hide the role's function: its owner (CREATE
-- on the database suffices) may add its own objects to it (where our build
-- has citext; where not, nothing to run)
CREATE TEMP TABLE laundered (refused boolean, citext_here boolean);
SELECT pg_catalog.current_database() AS db \gset
GRANT CREATE ON DATABASE :"db" TO regress_idgen_shadow;
DO $$
BEGIN
	IF NOT EXISTS (SELECT FROM pg_catalog.pg_available_extensions WHERE name OPERATOR(pg_catalog.=) 'citext') THEN
		INSERT INTO laundered VALUES (NULL, false);
		RETURN;
	END IF;
	SET LOCAL ROLE regress_idgen_shadow;
	CREATE EXTENSION citext SCHEMA public;
	CREATE FUNCTION public.public_id(id bigint, key text) RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid';
	ALTER EXTENSION citext ADD FUNCTION public.public_id(bigint, text);
	RESET ROLE;
	INSERT INTO laundered SELECT split_part(regress.err('CREATE EXTENSION idgen'), ' of role', 1)
		OPERATOR(pg_catalog.=) '42501: function public.public_id(bigint,text)', true;
	DROP EXTENSION citext CASCADE;
END $$;
SELECT refused OR NOT citext_here AS refused_where_citext_is FROM laundered;
REVOKE CREATE ON DATABASE :"db" FROM regress_idgen_shadow;
-- an operator on idgen's type: made once 1.0 is there, refused by the update
CREATE EXTENSION idgen VERSION '1.0';
SET ROLE regress_idgen_shadow;
CREATE FUNCTION public.shadow_eq(public.iuid, text) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR public.= (LEFTARG = public.iuid, RIGHTARG = text, FUNCTION = public.shadow_eq);
RESET ROLE;
SELECT regress.err('ALTER EXTENSION idgen UPDATE') AS update;
DROP OPERATOR public.= (public.iuid, text);
DROP FUNCTION public.shadow_eq(public.iuid, text);
-- the same on a domain over it: an iuid goes to a domain's operator too
SET ROLE regress_idgen_shadow;
CREATE DOMAIN public.shadow_iuid AS public.iuid;
CREATE FUNCTION public.shadow_eq(public.shadow_iuid, text) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR public.= (LEFTARG = public.shadow_iuid, RIGHTARG = text, FUNCTION = public.shadow_eq);
RESET ROLE;
SELECT regress.err('ALTER EXTENSION idgen UPDATE') AS update;
DROP OPERATOR public.= (public.shadow_iuid, text);
DROP FUNCTION public.shadow_eq(public.shadow_iuid, text);
DROP DOMAIN public.shadow_iuid;
-- on a domain over a domain over it, and on a polymorphic type
SET ROLE regress_idgen_shadow;
CREATE DOMAIN public.shadow_iuid AS public.iuid;
CREATE DOMAIN public.shadow_iuid2 AS public.shadow_iuid;
CREATE FUNCTION public.shadow_eq(public.shadow_iuid2, text) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR public.= (LEFTARG = public.shadow_iuid2, RIGHTARG = text, FUNCTION = public.shadow_eq);
CREATE FUNCTION public.shadow_eq(anyelement, int) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR public.= (LEFTARG = anyelement, RIGHTARG = int, FUNCTION = public.shadow_eq);
RESET ROLE;
SELECT regress.err('ALTER EXTENSION idgen UPDATE') AS update;
DROP OPERATOR public.= (anyelement, int);
SELECT regress.err('ALTER EXTENSION idgen UPDATE') AS update;
DROP OPERATOR public.= (public.shadow_iuid2, text);
DROP FUNCTION public.shadow_eq(public.shadow_iuid2, text);
DROP FUNCTION public.shadow_eq(anyelement, int);
DROP DOMAIN public.shadow_iuid2;
DROP DOMAIN public.shadow_iuid;
ALTER EXTENSION idgen UPDATE;
DROP EXTENSION idgen;
-- not refused: the role's function of a name idgen does not use, the same
-- overloads of the superuser's and of the schema owner's
SET ROLE regress_idgen_shadow;
CREATE FUNCTION public.shadow_public_id(id bigint, key text) RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid';
RESET ROLE;
CREATE FUNCTION public.public_id(id bigint, key text) RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid';
CREATE EXTENSION idgen;
SELECT object, trusted FROM public.idgen_check_schema();
DROP EXTENSION idgen;
DROP FUNCTION public.public_id(bigint, text);
DROP FUNCTION public.shadow_public_id(bigint, text);
-- an owner tells who may change an object, not who wrote it: the role's,
-- given to a superuser by REASSIGN OWNED (as a role is dropped), is
-- accepted, and listed as trusted
SET ROLE regress_idgen_shadow;
CREATE FUNCTION public.public_id(id bigint, key text) RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid';
RESET ROLE;
SELECT current_user AS superuser \gset
REASSIGN OWNED BY regress_idgen_shadow TO :"superuser";
CREATE EXTENSION idgen;
SELECT object, trusted FROM public.idgen_check_schema();
DROP EXTENSION idgen;
DROP FUNCTION public.public_id(bigint, text);
CREATE ROLE regress_idgen_owner;
CREATE SCHEMA regress_owned AUTHORIZATION regress_idgen_owner;
SET ROLE regress_idgen_owner;
CREATE FUNCTION regress_owned.public_id(id bigint, key text) RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid';
RESET ROLE;
CREATE EXTENSION idgen SCHEMA regress_owned;
SELECT object, trusted FROM regress_owned.idgen_check_schema();
DROP EXTENSION idgen;
-- a member of the schema's owner is trusted when it can act as the owner:
-- by its privileges, by SET ROLE, by ADMIN OPTION (it may grant itself
-- SET), or by SET ROLE to a role with the owner's privileges; from 16 on a
-- membership granted WITH INHERIT FALSE, SET FALSE allows none of these,
-- directly or as a link to a holder of ADMIN OPTION, and is no trust
-- (before 16 every membership allows SET ROLE: there those roles are given
-- none)
CREATE ROLE regress_idgen_m_inherit;
CREATE ROLE regress_idgen_m_set NOINHERIT;
CREATE ROLE regress_idgen_m_admin NOINHERIT;
CREATE ROLE regress_idgen_m_setinh NOINHERIT;
CREATE ROLE regress_idgen_m_none NOINHERIT;
CREATE ROLE regress_idgen_m_via NOINHERIT;
GRANT CREATE ON SCHEMA regress_owned TO regress_idgen_m_inherit, regress_idgen_m_set, regress_idgen_m_admin,
	regress_idgen_m_setinh, regress_idgen_m_none, regress_idgen_m_via;
DO $$
BEGIN
	IF pg_catalog.current_setting('server_version_num')::int >= 160000 THEN
		EXECUTE 'GRANT regress_idgen_owner TO regress_idgen_m_inherit WITH INHERIT TRUE, SET FALSE';
		EXECUTE 'GRANT regress_idgen_owner TO regress_idgen_m_set WITH INHERIT FALSE, SET TRUE';
		EXECUTE 'GRANT regress_idgen_owner TO regress_idgen_m_admin WITH INHERIT FALSE, SET FALSE, ADMIN TRUE';
		EXECUTE 'GRANT regress_idgen_m_inherit TO regress_idgen_m_setinh WITH INHERIT FALSE, SET TRUE';
		EXECUTE 'GRANT regress_idgen_owner TO regress_idgen_m_none WITH INHERIT FALSE, SET FALSE';
		EXECUTE 'GRANT regress_idgen_m_admin TO regress_idgen_m_via WITH INHERIT FALSE, SET FALSE';
	ELSE
		GRANT regress_idgen_owner TO regress_idgen_m_inherit;
		GRANT regress_idgen_owner TO regress_idgen_m_set;
		GRANT regress_idgen_owner TO regress_idgen_m_admin WITH ADMIN OPTION;
		GRANT regress_idgen_m_inherit TO regress_idgen_m_setinh;
	END IF;
END
$$;
SET ROLE regress_idgen_m_inherit;
CREATE FUNCTION regress_owned.public_id(id int, key text) RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid';
SET ROLE regress_idgen_m_set;
CREATE FUNCTION regress_owned.public_id(id smallint, key text) RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid';
SET ROLE regress_idgen_m_admin;
CREATE FUNCTION regress_owned.public_id(id numeric, key text) RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid';
SET ROLE regress_idgen_m_setinh;
CREATE FUNCTION regress_owned.public_id(id bigint, key varchar) RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid';
SET ROLE regress_idgen_m_none;
CREATE FUNCTION regress_owned.public_id(id real, key text) RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid';
SET ROLE regress_idgen_m_via;
CREATE FUNCTION regress_owned.public_id(id double precision, key text) RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid';
RESET ROLE;
SELECT regress.err('CREATE EXTENSION idgen SCHEMA regress_owned') AS install;
DROP FUNCTION regress_owned.public_id(double precision, text);
SELECT regress.err('CREATE EXTENSION idgen SCHEMA regress_owned') AS install;
DROP FUNCTION regress_owned.public_id(real, text);
CREATE EXTENSION idgen SCHEMA regress_owned;
SELECT object, owner, trusted FROM regress_owned.idgen_check_schema();
DROP EXTENSION idgen;
DROP SCHEMA regress_owned CASCADE;
DROP ROLE regress_idgen_m_inherit, regress_idgen_m_set, regress_idgen_m_admin, regress_idgen_m_setinh,
	regress_idgen_m_none, regress_idgen_m_via;
-- from 16 on ADMIN OPTION on a superuser is no way to become it (only a
-- superuser may grant a superuser): a schema a superuser role owns, and a
-- role with ADMIN OPTION alone on it (atk12: trusted, its overload made
-- the role superuser); before 16 the role is given none
CREATE ROLE regress_idgen_super SUPERUSER;
CREATE ROLE regress_idgen_m_superadmin NOINHERIT;
CREATE SCHEMA regress_super AUTHORIZATION regress_idgen_super;
GRANT CREATE ON SCHEMA regress_super TO regress_idgen_m_superadmin;
DO $$
BEGIN
	IF pg_catalog.current_setting('server_version_num')::int >= 160000 THEN
		EXECUTE 'GRANT regress_idgen_super TO regress_idgen_m_superadmin WITH INHERIT FALSE, SET FALSE, ADMIN TRUE';
	END IF;
END
$$;
SET ROLE regress_idgen_m_superadmin;
CREATE FUNCTION regress_super.public_id(id bigint, key text) RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid';
RESET ROLE;
SELECT regress.err('CREATE EXTENSION idgen SCHEMA regress_super') AS install;
DROP SCHEMA regress_super CASCADE;
DROP ROLE regress_idgen_m_superadmin, regress_idgen_super;
DROP ROLE regress_idgen_owner;
DROP SCHEMA regress_ids;
-- the role is what it was
SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=) 'regress_idgen_shadow';

--
-- 2. The trap.  1.0 outside it (frozen), then the update and the helpers
-- with idgen_trap searched before pg_catalog.
--
CREATE EXTENSION idgen VERSION '1.0' SCHEMA idgen_trap;
SELECT regress_trap.arm('idgen_trap');
ALTER EXTENSION idgen UPDATE;
SELECT regress_trap.disarm();
SELECT * FROM regress_trap.depending('idgen_trap', 'idgen');

-- each helper (every function of the extension not in C) with the trap
-- before pg_catalog on its pinned search_path, or back
CREATE FUNCTION pg_temp.trap_helpers(trapped bool) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	f regprocedure;
BEGIN
	FOR f IN
		SELECT p.oid FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid JOIN pg_language l ON l.oid = p.prolang
		WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
		  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')
		  AND l.lanname NOT IN ('c', 'internal')
		ORDER BY p.proname
	LOOP
		EXECUTE format('ALTER FUNCTION %s SET search_path = %s', f,
		               CASE WHEN trapped THEN 'idgen_trap, pg_catalog, pg_temp' ELSE 'pg_catalog, pg_temp' END);
		RETURN NEXT f::text;
	END LOOP;
END $$;

--
-- every helper, run by a superuser on tables of each key type that another
-- role owns, whose own code logs who runs it and tries to make the tenant
-- superuser
--
CREATE ROLE regress_idgen_tenant;
CREATE SCHEMA tenant AUTHORIZATION regress_idgen_tenant;
SET ROLE regress_idgen_tenant;
CREATE TABLE tenant.ran (what text, as_role name);
-- (each with its search_path pinned: it runs inside the helpers, whose own
-- path is the trap's here)
CREATE FUNCTION tenant.trojan(what text) RETURNS int LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
	INSERT INTO tenant.ran VALUES (what, current_user);
	-- the current user's own attribute: is_superuser follows SET ROLE, not
	-- the switch to the owner that runs this code
	IF (SELECT r.rolsuper FROM pg_roles r WHERE r.rolname = current_user) THEN
		ALTER ROLE regress_idgen_tenant SUPERUSER;
	END IF;
	RETURN 1;
END $$;
-- immutable, as an index needs, calling the volatile function above
CREATE FUNCTION tenant.fold(what text) RETURNS int LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp
	AS 'SELECT tenant.trojan(what)';
CREATE FUNCTION tenant.trojan_trigger() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
	PERFORM tenant.trojan('trigger');
	RETURN NEW;
END $$;
CREATE TABLE tenant.k_iuid (id idgen_trap.iuid PRIMARY KEY, note text DEFAULT tenant.trojan('default')::text
                            CHECK (tenant.fold('check') = 1)) PARTITION BY RANGE (id);
CREATE INDEX ON tenant.k_iuid ((tenant.fold('index expression ' || id::text)));
CREATE INDEX ON tenant.k_iuid (note) WHERE tenant.fold('index predicate') = 1;
CREATE TRIGGER trojan BEFORE INSERT OR UPDATE ON tenant.k_iuid FOR EACH ROW EXECUTE FUNCTION tenant.trojan_trigger();
CREATE TABLE tenant.k_distid (id idgen_trap.distid) PARTITION BY RANGE (id);
CREATE TABLE tenant.k_flaxid (id idgen_trap.flaxid) PARTITION BY RANGE (id);
CREATE TABLE tenant.k_base36id (id idgen_trap.base36id) PARTITION BY RANGE (id);
CREATE TABLE tenant.k_uuid (id pg_catalog.uuid) PARTITION BY RANGE (id);
CREATE TABLE tenant.k_iuid_default PARTITION OF tenant.k_iuid DEFAULT;
-- a partition made by hand, which a new one would overlap
CREATE TABLE tenant.k_flaxid_hand PARTITION OF tenant.k_flaxid
	FOR VALUES FROM (idgen_trap.flaxid_from_timestamp('2027-01-10')) TO (idgen_trap.flaxid_from_timestamp('2027-02-10'));
INSERT INTO tenant.k_iuid (id) VALUES (idgen_trap.iuid_from_timestamp('2025-06-01'));
DELETE FROM tenant.ran;
RESET ROLE;
CREATE TEMP TABLE helpers_run (helper text);
CREATE FUNCTION pg_temp.every_helper() RETURNS TABLE (step text, outcome text) LANGUAGE plpgsql AS $$
DECLARE
	t regclass;
BEGIN
	FOREACH t IN ARRAY ARRAY['tenant.k_iuid', 'tenant.k_distid', 'tenant.k_flaxid', 'tenant.k_base36id', 'tenant.k_uuid']::regclass[] LOOP
		-- twice: the second run compares the partitions there with the new ones
		step := t || ' create';
		outcome := (SELECT count(*) FROM idgen_trap.idgen_create_partitions(t, '2026-01-01', '2026-03-01', '1 month'))
		        || ', then ' || (SELECT count(*) FROM idgen_trap.idgen_create_partitions(t, '2026-01-01', '2026-04-01', '1 month'));
		RETURN NEXT;
		step := t || ' list';
		outcome := (SELECT string_agg(coalesce(to_char(from_time, 'YYYY-MM-DD'), 'default'), ', ' ORDER BY from_time)
		            FROM idgen_trap.idgen_partitions(t));
		RETURN NEXT;
		step := t || ' retire';
		outcome := (SELECT string_agg(action, ', ' ORDER BY from_time)
		            FROM idgen_trap.idgen_retire_partitions(t, '2026-02-01'))
		        || ', ' || (SELECT string_agg(action, ', ' ORDER BY from_time)
		                    FROM idgen_trap.idgen_retire_partitions(t, '2026-03-01', drop_tables => true));
		RETURN NEXT;
	END LOOP;
	step := 'tenant.k_flaxid overlapping';
	outcome := regress.err($q$SELECT idgen_trap.idgen_create_partitions('tenant.k_flaxid', '2027-01-01', '2027-03-01', '1 month')$q$);
	RETURN NEXT;
	-- refused on the tenant's table; on a table of the session's own login
	-- role the statements come back
	step := 'tenant.k_distid retire concurrently';
	outcome := split_part(regress.err($q$SELECT idgen_trap.idgen_retire_partitions('tenant.k_distid', '2026-04-01', true, true)$q$), ':', 1);
	CREATE TABLE public.k_own (id idgen_trap.distid) PARTITION BY RANGE (id);
	PERFORM idgen_trap.idgen_create_partitions('public.k_own', '2026-01-01', '2026-03-01', '1 month');
	outcome := outcome || ', own table: ' || (SELECT string_agg(action, ', ') FROM idgen_trap.idgen_retire_partitions('public.k_own', '2026-02-01', true, true));
	DROP TABLE public.k_own;
	RETURN NEXT;
	step := 'worker ids without Citus';
	outcome := regress.err('SELECT idgen_trap.idgen_check_worker_ids()');
	RETURN NEXT;
	step := 'worker ids without dblink';
	outcome := regress.err($q$SELECT idgen_trap.idgen_check_worker_ids(ARRAY['dbname=postgres'])$q$);
	RETURN NEXT;
	step := 'other roles'' objects';
	outcome := (SELECT count(*) FILTER (WHERE NOT trusted) FROM idgen_trap.idgen_check_schema()) || ' untrusted in idgen_trap, '
	        || (SELECT count(*) FILTER (WHERE NOT trusted) FROM idgen_trap.idgen_check_schema('public'::regnamespace)) || ' in public';
	RETURN NEXT;
	step := 'skip support';
	-- none to add: before 18 there is no slot, on 18 and later the install added it
	outcome := 'added ' || idgen_trap.idgen_add_skip_support();
	RETURN NEXT;
	INSERT INTO helpers_run
	VALUES ('idgen_create_partitions'), ('idgen_partitions'), ('idgen_retire_partitions'),
	       ('idgen_check_worker_ids'), ('idgen_add_skip_support'), ('idgen_check_schema');
END $$;
SELECT * FROM pg_temp.trap_helpers(true);
SELECT * FROM pg_temp.every_helper();
SELECT count(*) FROM pg_temp.trap_helpers(false);
-- every helper of the extension (every function in a language other than
-- C) was run above: a new one must be added there
SELECT p.proname AS helper_not_run
FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid JOIN pg_language l ON l.oid = p.prolang
WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')
  AND l.lanname NOT IN ('c', 'internal')
  AND p.proname NOT IN (SELECT helper FROM helpers_run)
ORDER BY 1;
-- everything the helpers made is the tables' owner's; what of the tenant's code ran
-- as the tenant only
SELECT count(*) > 10 AS made, count(*) FILTER (WHERE c.relowner <> 'regress_idgen_tenant'::regrole) AS not_the_owners
FROM pg_class c WHERE c.relnamespace = 'tenant'::regnamespace;
SELECT DISTINCT what, as_role FROM tenant.ran ORDER BY 1, 2;

--
-- a fresh install of 1.1 in the trap, and the helpers again
--
SET client_min_messages = warning;
DROP EXTENSION idgen CASCADE;
DROP SCHEMA tenant CASCADE;
RESET client_min_messages;
SELECT regress_trap.arm('idgen_trap');
CREATE EXTENSION idgen SCHEMA idgen_trap;
SELECT regress_trap.disarm();
SELECT * FROM regress_trap.depending('idgen_trap', 'idgen');
CREATE SCHEMA tenant AUTHORIZATION regress_idgen_tenant;
SET ROLE regress_idgen_tenant;
CREATE TABLE tenant.k_iuid (id idgen_trap.iuid PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE tenant.k_distid (id idgen_trap.distid) PARTITION BY RANGE (id);
CREATE TABLE tenant.k_flaxid (id idgen_trap.flaxid) PARTITION BY RANGE (id);
CREATE TABLE tenant.k_flaxid_hand PARTITION OF tenant.k_flaxid
	FOR VALUES FROM (idgen_trap.flaxid_from_timestamp('2027-01-10')) TO (idgen_trap.flaxid_from_timestamp('2027-02-10'));
CREATE TABLE tenant.k_base36id (id idgen_trap.base36id) PARTITION BY RANGE (id);
CREATE TABLE tenant.k_uuid (id pg_catalog.uuid) PARTITION BY RANGE (id);
RESET ROLE;
SELECT count(*) FROM pg_temp.trap_helpers(true);
SELECT step FROM pg_temp.every_helper();
SELECT count(*) FROM pg_temp.trap_helpers(false);

--
-- the verdict: no trap or overload used, no owner, privilege or role
-- attribute of anything that was there before changed (each row a change)
--
RESET search_path;
SELECT is_called AS trap_used FROM regress_trap.calls;
SELECT coalesce(b.label, CASE WHEN b.classid = 'pg_authid'::regclass THEN 'role ' || b.objid::regrole::text
                           ELSE pg_describe_object(b.classid, b.objid, 0) END) AS object,
       b.owner::regrole AS owner_before, a.owner::regrole AS owner_after, b.acl AS acl_before, a.acl AS acl_after
FROM privileges_before b
JOIN pg_temp.privileges() a ON a.classid = b.classid AND a.objid = b.objid AND a.label IS NOT DISTINCT FROM b.label
WHERE (a.owner, a.acl) IS DISTINCT FROM (b.owner, b.acl)
ORDER BY 1;

SET client_min_messages = warning;
DROP EXTENSION idgen CASCADE;
DROP SCHEMA idgen_trap, tenant, regress_trap CASCADE;
DROP ROLE regress_idgen_tenant;
REVOKE CREATE ON SCHEMA public FROM regress_idgen_shadow;
DROP OWNED BY regress_idgen_shadow;
DROP ROLE regress_idgen_shadow;
