/* idgen--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION idgen UPDATE TO '1.1'" to load this file. \quit

-- Generators keep their state in the backend that runs them: a parallel
-- worker would start a sequence of its own, so they run in the leader only.
ALTER FUNCTION iuid_generate(int4, int4) PARALLEL RESTRICTED;
ALTER FUNCTION iuid_generate(int4, int4, timestamptz) PARALLEL RESTRICTED;
ALTER FUNCTION base36id_generate() PARALLEL RESTRICTED;
ALTER FUNCTION distid_generate() PARALLEL RESTRICTED;
ALTER FUNCTION distid128_generate() PARALLEL RESTRICTED;
ALTER FUNCTION flaxid_generate() PARALLEL RESTRICTED;

-- Keyless public ids take their keys from the file named by the setting
-- idgen.public_id_key_file; the setting idgen.public_id_key is gone (a key
-- in a setting is visible in catalogs and logs).
CREATE FUNCTION public_id_keys(OUT line int4, OUT active bool, OUT fingerprint text)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE ROWS 2;
-- operators only: the C function checks too, so a GRANT cannot widen it
REVOKE ALL ON FUNCTION public_id_keys() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public_id_keys() TO pg_read_all_settings;
COMMENT ON FUNCTION public_id_keys() IS 'keys of idgen.public_id_key_file: line, whether active, SHA-256 fingerprint (superusers and pg_read_all_settings)';
COMMENT ON FUNCTION public_id(bigint) IS 'public id of a non-negative bigint with the active key of idgen.public_id_key_file';
COMMENT ON FUNCTION public_id(distid) IS 'public id of a distid with the active key of idgen.public_id_key_file';
COMMENT ON FUNCTION public_id(uuid) IS 'public id of a uuid with the active key of idgen.public_id_key_file';
COMMENT ON FUNCTION public_id_to_bigint(uuid) IS 'bigint behind a public id made with any key of idgen.public_id_key_file, or NULL';
COMMENT ON FUNCTION public_id_to_distid(uuid) IS 'distid behind a public id made with any key of idgen.public_id_key_file, or NULL';
COMMENT ON FUNCTION public_id_to_uuid(uuid) IS 'uuid behind a public id made with the active key of idgen.public_id_key_file';

-- Where 1.0's setting still holds a key, say so (never what it is).
DO $$
DECLARE
	r record;
BEGIN
	FOR r IN
		SELECT coalesce(ro.rolname, '(all roles)') AS role, coalesce(d.datname, '(all databases)') AS db
		FROM pg_db_role_setting s
		LEFT JOIN pg_roles ro ON ro.oid = s.setrole
		LEFT JOIN pg_database d ON d.oid = s.setdatabase
		WHERE EXISTS (SELECT FROM unnest(s.setconfig) c WHERE c LIKE 'idgen.public\_id\_key=%')
	LOOP
		RAISE WARNING 'idgen.public_id_key is still set for role % in database %', r.role, r.db
			USING DETAIL = 'The setting no longer exists; the key it holds is readable by every role in pg_db_role_setting.',
				  HINT = 'Put the key in the file named by idgen.public_id_key_file, then remove it with ALTER ROLE ... RESET or ALTER DATABASE ... RESET idgen.public_id_key.';
	END LOOP;
END
$$;
