--
-- A hostile database (doc/security.md): the trap test hostile (the last)
-- installs and updates idgen into.  The tools come from
-- test/hostile/trap.sql (shared with other suites; its head says what each
-- does).  Schema idgen_trap holds a twin of every function, operator and
-- type of pg_catalog, generated from the catalog of the server under test,
-- each recording its use; hostile installs idgen there with idgen_trap
-- searched before pg_catalog, so that any name a script or helper leaves
-- unqualified finds a twin.  An ordinary role, allowed to create in public as
-- every role was before PostgreSQL 15, is the attacker of hostile's
-- writable-public install.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set trap_sql :abs_srcdir '/test/hostile/trap.sql'
\set ECHO none
\i :trap_sql
\set ECHO all
CREATE ROLE regress_idgen_shadow;
GRANT CREATE ON SCHEMA public TO regress_idgen_shadow;
CREATE SCHEMA idgen_trap;
GRANT USAGE ON SCHEMA idgen_trap TO PUBLIC;
-- every twin made, or an error here: nothing is skipped
SELECT kind, made > CASE kind WHEN 'types' THEN 200 WHEN 'functions' THEN 3000 ELSE 700 END AS all_there
FROM regress_trap.make_twins('idgen_trap');
-- complete: every name of pg_catalog that the scripts and helpers of the
-- current version mention (idgen--1.0.sql is released and frozen: hostile
-- runs it as it is, outside the trap) has a twin
\set script_11 :abs_srcdir '/sql/idgen--1.1.sql'
\set script_1011 :abs_srcdir '/sql/idgen--1.0--1.1.sql'
\set scripts `cat :script_11 :script_1011`
-- (the scripts' text is not echoed)
\set ECHO none
SELECT count(*) AS names_without_twin, string_agg(m, ' ') AS which FROM regress_trap.missing('idgen_trap', :'scripts') m;
\set ECHO all
