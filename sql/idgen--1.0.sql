/* idgen--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION idgen" to load this file. \quit

--
-- iuid: UUIDv8 with millisecond timestamp, country and service entity
--

CREATE TYPE iuid;

CREATE FUNCTION iuid_in(cstring) RETURNS iuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_out(iuid) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_recv(internal) RETURNS iuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_send(iuid) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE iuid (
	INTERNALLENGTH = 16,
	INPUT = iuid_in,
	OUTPUT = iuid_out,
	RECEIVE = iuid_recv,
	SEND = iuid_send,
	ALIGNMENT = char,
	STORAGE = plain,
	CATEGORY = 'U'
);
COMMENT ON TYPE iuid IS 'inDrive universal entity id: UUIDv8 with millisecond timestamp, country and service entity';

COMMENT ON FUNCTION iuid_in(cstring) IS 'I/O';
COMMENT ON FUNCTION iuid_out(iuid) IS 'I/O';
COMMENT ON FUNCTION iuid_recv(internal) IS 'I/O';
COMMENT ON FUNCTION iuid_send(iuid) IS 'I/O';

-- comparison

CREATE FUNCTION iuid_eq(iuid, iuid) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_ne(iuid, iuid) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_lt(iuid, iuid) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_le(iuid, iuid) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_gt(iuid, iuid) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_ge(iuid, iuid) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_cmp(iuid, iuid) RETURNS int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_sortsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_hash(iuid) RETURNS int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_hash_extended(iuid, int8) RETURNS int8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_smaller(iuid, iuid) RETURNS iuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_larger(iuid, iuid) RETURNS iuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION iuid_eq(iuid, iuid) IS 'implementation of = operator';
COMMENT ON FUNCTION iuid_ne(iuid, iuid) IS 'implementation of <> operator';
COMMENT ON FUNCTION iuid_lt(iuid, iuid) IS 'implementation of < operator';
COMMENT ON FUNCTION iuid_le(iuid, iuid) IS 'implementation of <= operator';
COMMENT ON FUNCTION iuid_gt(iuid, iuid) IS 'implementation of > operator';
COMMENT ON FUNCTION iuid_ge(iuid, iuid) IS 'implementation of >= operator';
COMMENT ON FUNCTION iuid_cmp(iuid, iuid) IS 'less-equal-greater';
COMMENT ON FUNCTION iuid_sortsupport(internal) IS 'sort support';
COMMENT ON FUNCTION iuid_hash(iuid) IS 'hash';
COMMENT ON FUNCTION iuid_hash_extended(iuid, int8) IS 'hash';
COMMENT ON FUNCTION iuid_smaller(iuid, iuid) IS 'smaller of two';
COMMENT ON FUNCTION iuid_larger(iuid, iuid) IS 'larger of two';

CREATE OPERATOR = (
	LEFTARG = iuid, RIGHTARG = iuid, PROCEDURE = iuid_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = iuid, RIGHTARG = iuid, PROCEDURE = iuid_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
	LEFTARG = iuid, RIGHTARG = iuid, PROCEDURE = iuid_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = iuid, RIGHTARG = iuid, PROCEDURE = iuid_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = iuid, RIGHTARG = iuid, PROCEDURE = iuid_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = iuid, RIGHTARG = iuid, PROCEDURE = iuid_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);

COMMENT ON OPERATOR = (iuid, iuid) IS 'equal';
COMMENT ON OPERATOR <> (iuid, iuid) IS 'not equal';
COMMENT ON OPERATOR < (iuid, iuid) IS 'less than';
COMMENT ON OPERATOR <= (iuid, iuid) IS 'less than or equal';
COMMENT ON OPERATOR > (iuid, iuid) IS 'greater than';
COMMENT ON OPERATOR >= (iuid, iuid) IS 'greater than or equal';

CREATE OPERATOR CLASS iuid_ops
	DEFAULT FOR TYPE iuid USING btree AS
		OPERATOR 1 <,
		OPERATOR 2 <=,
		OPERATOR 3 =,
		OPERATOR 4 >=,
		OPERATOR 5 >,
		FUNCTION 1 iuid_cmp(iuid, iuid),
		FUNCTION 2 iuid_sortsupport(internal),
		FUNCTION 4 btequalimage(oid);
COMMENT ON OPERATOR CLASS iuid_ops USING btree IS 'default btree operator class for iuid';
COMMENT ON OPERATOR FAMILY iuid_ops USING btree IS 'btree operator family for iuid';

CREATE OPERATOR CLASS iuid_ops
	DEFAULT FOR TYPE iuid USING hash AS
		OPERATOR 1 =,
		FUNCTION 1 iuid_hash(iuid),
		FUNCTION 2 iuid_hash_extended(iuid, int8);
COMMENT ON OPERATOR CLASS iuid_ops USING hash IS 'default hash operator class for iuid';
COMMENT ON OPERATOR FAMILY iuid_ops USING hash IS 'hash operator family for iuid';

CREATE OPERATOR CLASS iuid_minmax_ops
	DEFAULT FOR TYPE iuid USING brin AS
		OPERATOR 1 <,
		OPERATOR 2 <=,
		OPERATOR 3 =,
		OPERATOR 4 >=,
		OPERATOR 5 >,
		FUNCTION 1 brin_minmax_opcinfo(internal),
		FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
		FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
		FUNCTION 4 brin_minmax_union(internal, internal, internal);
COMMENT ON OPERATOR CLASS iuid_minmax_ops USING brin IS 'default BRIN minmax operator class for iuid';
COMMENT ON OPERATOR FAMILY iuid_minmax_ops USING brin IS 'BRIN minmax operator family for iuid';

CREATE AGGREGATE min(iuid) (
	SFUNC = iuid_smaller, STYPE = iuid, COMBINEFUNC = iuid_smaller,
	SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(iuid) (
	SFUNC = iuid_larger, STYPE = iuid, COMBINEFUNC = iuid_larger,
	SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(iuid) IS 'minimum value of all iuid input values';
COMMENT ON AGGREGATE max(iuid) IS 'maximum value of all iuid input values';

-- casts: iuid is a uuid; a uuid is an iuid only with version 8 and variant 10

CREATE FUNCTION iuid(uuid) RETURNS iuid
	AS 'MODULE_PATHNAME', 'iuid_from_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION iuid(uuid) IS 'convert uuid to iuid, checking version and variant';

CREATE CAST (iuid AS uuid) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (uuid AS iuid) WITH FUNCTION iuid(uuid) AS ASSIGNMENT;
COMMENT ON CAST (iuid AS uuid) IS 'same 16 bytes';
COMMENT ON CAST (uuid AS iuid) IS 'validates version 8 and variant 10';

-- generation and extraction

CREATE FUNCTION iuid_generate(country int4, entity int4) RETURNS iuid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_generate(country int4, entity int4, at timestamptz) RETURNS iuid
	AS 'MODULE_PATHNAME', 'iuid_generate_at' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_from_timestamp(timestamptz) RETURNS iuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_timestamp(iuid) RETURNS timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_country(iuid) RETURNS int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_entity(iuid) RETURNS int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_format_version(iuid) RETURNS int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION iuid_generate(int4, int4) IS 'new iuid for country and entity (0-255), increasing within the session';
COMMENT ON FUNCTION iuid_generate(int4, int4, timestamptz) IS 'new iuid carrying the given time, for backfills';
COMMENT ON FUNCTION iuid_from_timestamp(timestamptz) IS 'least iuid of the millisecond, for range bounds';
COMMENT ON FUNCTION iuid_timestamp(iuid) IS 'creation time of an iuid';
COMMENT ON FUNCTION iuid_country(iuid) IS 'country field of an iuid';
COMMENT ON FUNCTION iuid_entity(iuid) IS 'service entity field of an iuid';
COMMENT ON FUNCTION iuid_format_version(iuid) IS 'format version field of an iuid (0 today)';
