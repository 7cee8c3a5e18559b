--
-- idgen_ddl_as_owner runs a statement as a role: it asks what SET ROLE asks.
-- Since PostgreSQL 16 a membership can carry a role's privileges without
-- the right to act as it (GRANT ... WITH INHERIT TRUE, SET FALSE): such a
-- member must not get the role's attributes (here CREATEROLE) through it.
-- 15 has no SET option: every member with the privileges may SET ROLE
-- (expected/ownerddl_1.out).
--
CREATE EXTENSION idgen;
SELECT current_setting('server_version_num')::int >= 160000 AS set_option \gset
\if :set_option
CREATE ROLE regress_idgen_admin CREATEROLE NOLOGIN;
CREATE ROLE regress_idgen_eve;
GRANT CREATE ON SCHEMA public TO regress_idgen_admin;
GRANT regress_idgen_admin TO regress_idgen_eve WITH INHERIT TRUE, SET FALSE;
SET SESSION AUTHORIZATION regress_idgen_eve;
-- the server's own refusals
SELECT split_part(regress.err('SET ROLE regress_idgen_admin'), ' | ', 1) AS set_role;
SELECT split_part(regress.err('CREATE ROLE regress_idgen_eve2'), ' | ', 1) AS create_role;
-- and idgen's
SELECT regress.err($$SELECT idgen_ddl_as_owner('regress_idgen_admin', 'CREATE ROLE regress_idgen_eve2')$$) AS as_admin;
RESET SESSION AUTHORIZATION;
SELECT count(*) AS eve2 FROM pg_roles WHERE rolname = 'regress_idgen_eve2';
-- with SET, it runs as the role
GRANT regress_idgen_admin TO regress_idgen_eve WITH SET TRUE;
SET SESSION AUTHORIZATION regress_idgen_eve;
SELECT idgen_ddl_as_owner('regress_idgen_admin', 'CREATE TABLE public.ownerddl_t ()');
RESET SESSION AUTHORIZATION;
SELECT relowner::regrole AS owner FROM pg_class WHERE oid = 'public.ownerddl_t'::regclass;
DROP TABLE public.ownerddl_t;
REVOKE CREATE ON SCHEMA public FROM regress_idgen_admin;
DROP ROLE regress_idgen_eve, regress_idgen_admin;
\endif
DROP EXTENSION idgen;
