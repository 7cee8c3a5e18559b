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

-- B-tree skip support (support function 6), as core has for uuid and int8:
-- skip scans of multi-column indexes led by an id.  PostgreSQL 18 brought
-- the support slot; the functions exist on every server (so the catalog is
-- the same), but join the operator families only where the slot exists.
CREATE FUNCTION iuid_skipsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION base36id_skipsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid_skipsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION flaxid_skipsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION iuid_skipsupport(internal) IS 'skip support';
COMMENT ON FUNCTION base36id_skipsupport(internal) IS 'skip support';
COMMENT ON FUNCTION distid_skipsupport(internal) IS 'skip support';
COMMENT ON FUNCTION flaxid_skipsupport(internal) IS 'skip support';

DO $$
BEGIN
	IF current_setting('server_version_num')::int >= 180000 THEN
		ALTER OPERATOR FAMILY iuid_ops USING btree
			ADD FUNCTION 6 (iuid, iuid) iuid_skipsupport(internal);
		ALTER OPERATOR FAMILY base36id_ops USING btree
			ADD FUNCTION 6 (base36id, base36id) base36id_skipsupport(internal);
		ALTER OPERATOR FAMILY distid_ops USING btree
			ADD FUNCTION 6 (distid, distid) distid_skipsupport(internal);
		ALTER OPERATOR FAMILY flaxid_ops USING btree
			ADD FUNCTION 6 (flaxid, flaxid) flaxid_skipsupport(internal);
	END IF;
END
$$;
