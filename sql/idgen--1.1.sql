/* idgen--1.1.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION idgen" to load this file. \quit

--
-- iuid: UUIDv8 with millisecond timestamp, country and service entity
--

CREATE TYPE iuid;

CREATE FUNCTION iuid_in(pg_catalog.cstring) RETURNS iuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_out(iuid) RETURNS pg_catalog.cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_recv(pg_catalog.internal) RETURNS iuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_send(iuid) RETURNS pg_catalog.bytea
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

COMMENT ON FUNCTION iuid_in(pg_catalog.cstring) IS 'I/O';
COMMENT ON FUNCTION iuid_out(iuid) IS 'I/O';
COMMENT ON FUNCTION iuid_recv(pg_catalog.internal) IS 'I/O';
COMMENT ON FUNCTION iuid_send(iuid) IS 'I/O';

-- comparison

CREATE FUNCTION iuid_eq(iuid, iuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_ne(iuid, iuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_lt(iuid, iuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_le(iuid, iuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_gt(iuid, iuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_ge(iuid, iuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_cmp(iuid, iuid) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_sortsupport(pg_catalog.internal) RETURNS pg_catalog.void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_hash(iuid) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_hash_extended(iuid, pg_catalog.int8) RETURNS pg_catalog.int8
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
COMMENT ON FUNCTION iuid_sortsupport(pg_catalog.internal) IS 'sort support';
COMMENT ON FUNCTION iuid_hash(iuid) IS 'hash';
COMMENT ON FUNCTION iuid_hash_extended(iuid, pg_catalog.int8) IS 'hash';
COMMENT ON FUNCTION iuid_smaller(iuid, iuid) IS 'smaller of two';
COMMENT ON FUNCTION iuid_larger(iuid, iuid) IS 'larger of two';

CREATE OPERATOR = (
	LEFTARG = iuid, RIGHTARG = iuid, PROCEDURE = iuid_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = iuid, RIGHTARG = iuid, PROCEDURE = iuid_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
	LEFTARG = iuid, RIGHTARG = iuid, PROCEDURE = iuid_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = iuid, RIGHTARG = iuid, PROCEDURE = iuid_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = iuid, RIGHTARG = iuid, PROCEDURE = iuid_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = iuid, RIGHTARG = iuid, PROCEDURE = iuid_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
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
		FUNCTION 2 iuid_sortsupport(pg_catalog.internal),
		FUNCTION 4 pg_catalog.btequalimage(pg_catalog.oid);
COMMENT ON OPERATOR CLASS iuid_ops USING btree IS 'default btree operator class for iuid';
COMMENT ON OPERATOR FAMILY iuid_ops USING btree IS 'btree operator family for iuid';

CREATE OPERATOR CLASS iuid_ops
	DEFAULT FOR TYPE iuid USING hash AS
		OPERATOR 1 =,
		FUNCTION 1 iuid_hash(iuid),
		FUNCTION 2 iuid_hash_extended(iuid, pg_catalog.int8);
COMMENT ON OPERATOR CLASS iuid_ops USING hash IS 'default hash operator class for iuid';
COMMENT ON OPERATOR FAMILY iuid_ops USING hash IS 'hash operator family for iuid';

CREATE OPERATOR CLASS iuid_minmax_ops
	DEFAULT FOR TYPE iuid USING brin AS
		OPERATOR 1 <,
		OPERATOR 2 <=,
		OPERATOR 3 =,
		OPERATOR 4 >=,
		OPERATOR 5 >,
		FUNCTION 1 pg_catalog.brin_minmax_opcinfo(pg_catalog.internal),
		FUNCTION 2 pg_catalog.brin_minmax_add_value(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 3 pg_catalog.brin_minmax_consistent(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 4 pg_catalog.brin_minmax_union(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal);
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

CREATE FUNCTION iuid(pg_catalog.uuid) RETURNS iuid
	AS 'MODULE_PATHNAME', 'iuid_from_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION iuid(pg_catalog.uuid) IS 'convert uuid to iuid, checking version and variant';

CREATE CAST (iuid AS pg_catalog.uuid) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (pg_catalog.uuid AS iuid) WITH FUNCTION iuid(pg_catalog.uuid) AS ASSIGNMENT;
COMMENT ON CAST (iuid AS pg_catalog.uuid) IS 'same 16 bytes';
COMMENT ON CAST (pg_catalog.uuid AS iuid) IS 'validates version 8 and variant 10';

-- generation and extraction

CREATE FUNCTION iuid_generate(country pg_catalog.int4, entity pg_catalog.int4) RETURNS iuid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION iuid_generate(country pg_catalog.int4, entity pg_catalog.int4, at pg_catalog.timestamptz) RETURNS iuid
	AS 'MODULE_PATHNAME', 'iuid_generate_at' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION iuid_from_timestamp(pg_catalog.timestamptz) RETURNS iuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_max_for_timestamp(pg_catalog.timestamptz) RETURNS iuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_timestamp(iuid) RETURNS pg_catalog.timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_country(iuid) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_entity(iuid) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION iuid_format_version(iuid) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION iuid_generate(pg_catalog.int4, pg_catalog.int4) IS 'new iuid for country and entity (0-255), increasing within the session';
COMMENT ON FUNCTION iuid_generate(pg_catalog.int4, pg_catalog.int4, pg_catalog.timestamptz) IS 'new iuid carrying the given time, for backfills';
COMMENT ON FUNCTION iuid_from_timestamp(pg_catalog.timestamptz) IS 'least iuid of the millisecond, for range bounds';
COMMENT ON FUNCTION iuid_max_for_timestamp(pg_catalog.timestamptz) IS 'greatest iuid of the millisecond, the inclusive upper bound for range shards and BETWEEN';
COMMENT ON FUNCTION iuid_timestamp(iuid) IS 'creation time of an iuid';
COMMENT ON FUNCTION iuid_country(iuid) IS 'country field of an iuid';
COMMENT ON FUNCTION iuid_entity(iuid) IS 'service entity field of an iuid';
COMMENT ON FUNCTION iuid_format_version(iuid) IS 'format version field of an iuid (0 today)';

--
-- base36id: 9 upper-case Base36 characters, seconds since 2024 / worker / counter
--

CREATE TYPE base36id;

CREATE FUNCTION base36id_in(pg_catalog.cstring) RETURNS base36id
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION base36id_out(base36id) RETURNS pg_catalog.cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION base36id_recv(pg_catalog.internal) RETURNS base36id
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- the value is an int8: core's int8 functions serve it unchanged
CREATE FUNCTION base36id_send(base36id) RETURNS pg_catalog.bytea
	AS 'int8send' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE base36id (
	INTERNALLENGTH = 8,
	PASSEDBYVALUE,
	ALIGNMENT = double,
	INPUT = base36id_in,
	OUTPUT = base36id_out,
	RECEIVE = base36id_recv,
	SEND = base36id_send,
	STORAGE = plain,
	CATEGORY = 'U'
);
COMMENT ON TYPE base36id IS 'ADR 13 id: 9 upper-case Base36 characters of seconds since 2024, worker and per-second counter';

COMMENT ON FUNCTION base36id_in(pg_catalog.cstring) IS 'I/O';
COMMENT ON FUNCTION base36id_out(base36id) IS 'I/O';
COMMENT ON FUNCTION base36id_recv(pg_catalog.internal) IS 'I/O';
COMMENT ON FUNCTION base36id_send(base36id) IS 'I/O';

CREATE FUNCTION base36id_eq(base36id, base36id) RETURNS pg_catalog.bool
	AS 'int8eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION base36id_ne(base36id, base36id) RETURNS pg_catalog.bool
	AS 'int8ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION base36id_lt(base36id, base36id) RETURNS pg_catalog.bool
	AS 'int8lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION base36id_le(base36id, base36id) RETURNS pg_catalog.bool
	AS 'int8le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION base36id_gt(base36id, base36id) RETURNS pg_catalog.bool
	AS 'int8gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION base36id_ge(base36id, base36id) RETURNS pg_catalog.bool
	AS 'int8ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION base36id_cmp(base36id, base36id) RETURNS pg_catalog.int4
	AS 'btint8cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION base36id_sortsupport(pg_catalog.internal) RETURNS pg_catalog.void
	AS 'btint8sortsupport' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION base36id_hash(base36id) RETURNS pg_catalog.int4
	AS 'hashint8' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION base36id_hash_extended(base36id, pg_catalog.int8) RETURNS pg_catalog.int8
	AS 'hashint8extended' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION base36id_smaller(base36id, base36id) RETURNS base36id
	AS 'int8smaller' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION base36id_larger(base36id, base36id) RETURNS base36id
	AS 'int8larger' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION base36id_eq(base36id, base36id) IS 'implementation of = operator';
COMMENT ON FUNCTION base36id_ne(base36id, base36id) IS 'implementation of <> operator';
COMMENT ON FUNCTION base36id_lt(base36id, base36id) IS 'implementation of < operator';
COMMENT ON FUNCTION base36id_le(base36id, base36id) IS 'implementation of <= operator';
COMMENT ON FUNCTION base36id_gt(base36id, base36id) IS 'implementation of > operator';
COMMENT ON FUNCTION base36id_ge(base36id, base36id) IS 'implementation of >= operator';
COMMENT ON FUNCTION base36id_cmp(base36id, base36id) IS 'less-equal-greater';
COMMENT ON FUNCTION base36id_sortsupport(pg_catalog.internal) IS 'sort support';
COMMENT ON FUNCTION base36id_hash(base36id) IS 'hash';
COMMENT ON FUNCTION base36id_hash_extended(base36id, pg_catalog.int8) IS 'hash';
COMMENT ON FUNCTION base36id_smaller(base36id, base36id) IS 'smaller of two';
COMMENT ON FUNCTION base36id_larger(base36id, base36id) IS 'larger of two';

CREATE OPERATOR = (
	LEFTARG = base36id, RIGHTARG = base36id, PROCEDURE = base36id_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = base36id, RIGHTARG = base36id, PROCEDURE = base36id_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
	LEFTARG = base36id, RIGHTARG = base36id, PROCEDURE = base36id_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = base36id, RIGHTARG = base36id, PROCEDURE = base36id_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = base36id, RIGHTARG = base36id, PROCEDURE = base36id_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = base36id, RIGHTARG = base36id, PROCEDURE = base36id_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

COMMENT ON OPERATOR = (base36id, base36id) IS 'equal';
COMMENT ON OPERATOR <> (base36id, base36id) IS 'not equal';
COMMENT ON OPERATOR < (base36id, base36id) IS 'less than';
COMMENT ON OPERATOR <= (base36id, base36id) IS 'less than or equal';
COMMENT ON OPERATOR > (base36id, base36id) IS 'greater than';
COMMENT ON OPERATOR >= (base36id, base36id) IS 'greater than or equal';

CREATE OPERATOR CLASS base36id_ops
	DEFAULT FOR TYPE base36id USING btree AS
		OPERATOR 1 <,
		OPERATOR 2 <=,
		OPERATOR 3 =,
		OPERATOR 4 >=,
		OPERATOR 5 >,
		FUNCTION 1 base36id_cmp(base36id, base36id),
		FUNCTION 2 base36id_sortsupport(pg_catalog.internal),
		FUNCTION 4 pg_catalog.btequalimage(pg_catalog.oid);
COMMENT ON OPERATOR CLASS base36id_ops USING btree IS 'default btree operator class for base36id';
COMMENT ON OPERATOR FAMILY base36id_ops USING btree IS 'btree operator family for base36id';

CREATE OPERATOR CLASS base36id_ops
	DEFAULT FOR TYPE base36id USING hash AS
		OPERATOR 1 =,
		FUNCTION 1 base36id_hash(base36id),
		FUNCTION 2 base36id_hash_extended(base36id, pg_catalog.int8);
COMMENT ON OPERATOR CLASS base36id_ops USING hash IS 'default hash operator class for base36id';
COMMENT ON OPERATOR FAMILY base36id_ops USING hash IS 'hash operator family for base36id';

CREATE OPERATOR CLASS base36id_minmax_ops
	DEFAULT FOR TYPE base36id USING brin AS
		OPERATOR 1 <,
		OPERATOR 2 <=,
		OPERATOR 3 =,
		OPERATOR 4 >=,
		OPERATOR 5 >,
		FUNCTION 1 pg_catalog.brin_minmax_opcinfo(pg_catalog.internal),
		FUNCTION 2 pg_catalog.brin_minmax_add_value(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 3 pg_catalog.brin_minmax_consistent(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 4 pg_catalog.brin_minmax_union(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal);
COMMENT ON OPERATOR CLASS base36id_minmax_ops USING brin IS 'default BRIN minmax operator class for base36id';
COMMENT ON OPERATOR FAMILY base36id_minmax_ops USING brin IS 'BRIN minmax operator family for base36id';

CREATE AGGREGATE min(base36id) (
	SFUNC = base36id_smaller, STYPE = base36id, COMBINEFUNC = base36id_smaller,
	SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(base36id) (
	SFUNC = base36id_larger, STYPE = base36id, COMBINEFUNC = base36id_larger,
	SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(base36id) IS 'minimum value of all base36id input values';
COMMENT ON AGGREGATE max(base36id) IS 'maximum value of all base36id input values';

-- casts: a base36id is its number; a bigint is a base36id if in 0 .. 36^9-1

CREATE FUNCTION base36id(bigint) RETURNS base36id
	AS 'MODULE_PATHNAME', 'base36id_from_bigint' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION base36id(bigint) IS 'convert bigint to base36id, checking the range';

CREATE CAST (base36id AS bigint) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (bigint AS base36id) WITH FUNCTION base36id(bigint) AS ASSIGNMENT;
COMMENT ON CAST (base36id AS bigint) IS 'the base-36 number';
COMMENT ON CAST (bigint AS base36id) IS 'validates 0 to 36^9-1';

-- generation and extraction

CREATE FUNCTION base36id_generate() RETURNS base36id
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION base36id_from_timestamp(pg_catalog.timestamptz) RETURNS base36id
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION base36id_max_for_timestamp(pg_catalog.timestamptz) RETURNS base36id
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION base36id_timestamp(base36id) RETURNS pg_catalog.timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION base36id_worker(base36id) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION base36id_counter(base36id) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION base36id_generate() IS 'new base36id from the server-wide counter of worker idgen.worker_id; waits when 1296 ids were used in a second; WAL-logs each second before its first id, so promoted standbys and restored backups do not reissue ids; refused during recovery';
COMMENT ON FUNCTION base36id_from_timestamp(pg_catalog.timestamptz) IS 'least base36id of the second, for range bounds';
COMMENT ON FUNCTION base36id_max_for_timestamp(pg_catalog.timestamptz) IS 'greatest base36id of the second, the inclusive upper bound for range shards and BETWEEN';
COMMENT ON FUNCTION base36id_timestamp(base36id) IS 'creation time of a base36id, to the second';
COMMENT ON FUNCTION base36id_worker(base36id) IS 'worker field of a base36id';
COMMENT ON FUNCTION base36id_counter(base36id) IS 'per-second counter field of a base36id';

--
-- distid: DistributedId of Architect.Identities 2.x in 12 bytes: generated ids use 93 bits until 3014-12-13 (94 after), input accepts 0 .. 10^28-1
--

CREATE TYPE distid;

CREATE FUNCTION distid_in(pg_catalog.cstring) RETURNS distid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid_out(distid) RETURNS pg_catalog.cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid_recv(pg_catalog.internal) RETURNS distid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid_send(distid) RETURNS pg_catalog.bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE distid (
	INTERNALLENGTH = 12,
	INPUT = distid_in,
	OUTPUT = distid_out,
	RECEIVE = distid_recv,
	SEND = distid_send,
	ALIGNMENT = char,
	STORAGE = plain,
	CATEGORY = 'U'
);
COMMENT ON TYPE distid IS 'DistributedId (Architect.Identities 2.x): milliseconds since 1900 and 48 random bits, a decimal of up to 28 digits';

COMMENT ON FUNCTION distid_in(pg_catalog.cstring) IS 'I/O';
COMMENT ON FUNCTION distid_out(distid) IS 'I/O';
COMMENT ON FUNCTION distid_recv(pg_catalog.internal) IS 'I/O';
COMMENT ON FUNCTION distid_send(distid) IS 'I/O';

CREATE FUNCTION distid_eq(distid, distid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION distid_ne(distid, distid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION distid_lt(distid, distid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION distid_le(distid, distid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION distid_gt(distid, distid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION distid_ge(distid, distid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION distid_cmp(distid, distid) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION distid_sortsupport(pg_catalog.internal) RETURNS pg_catalog.void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid_hash(distid) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid_hash_extended(distid, pg_catalog.int8) RETURNS pg_catalog.int8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid_smaller(distid, distid) RETURNS distid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid_larger(distid, distid) RETURNS distid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION distid_eq(distid, distid) IS 'implementation of = operator';
COMMENT ON FUNCTION distid_ne(distid, distid) IS 'implementation of <> operator';
COMMENT ON FUNCTION distid_lt(distid, distid) IS 'implementation of < operator';
COMMENT ON FUNCTION distid_le(distid, distid) IS 'implementation of <= operator';
COMMENT ON FUNCTION distid_gt(distid, distid) IS 'implementation of > operator';
COMMENT ON FUNCTION distid_ge(distid, distid) IS 'implementation of >= operator';
COMMENT ON FUNCTION distid_cmp(distid, distid) IS 'less-equal-greater';
COMMENT ON FUNCTION distid_sortsupport(pg_catalog.internal) IS 'sort support';
COMMENT ON FUNCTION distid_hash(distid) IS 'hash';
COMMENT ON FUNCTION distid_hash_extended(distid, pg_catalog.int8) IS 'hash';
COMMENT ON FUNCTION distid_smaller(distid, distid) IS 'smaller of two';
COMMENT ON FUNCTION distid_larger(distid, distid) IS 'larger of two';

CREATE OPERATOR = (
	LEFTARG = distid, RIGHTARG = distid, PROCEDURE = distid_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = distid, RIGHTARG = distid, PROCEDURE = distid_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
	LEFTARG = distid, RIGHTARG = distid, PROCEDURE = distid_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = distid, RIGHTARG = distid, PROCEDURE = distid_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = distid, RIGHTARG = distid, PROCEDURE = distid_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = distid, RIGHTARG = distid, PROCEDURE = distid_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

COMMENT ON OPERATOR = (distid, distid) IS 'equal';
COMMENT ON OPERATOR <> (distid, distid) IS 'not equal';
COMMENT ON OPERATOR < (distid, distid) IS 'less than';
COMMENT ON OPERATOR <= (distid, distid) IS 'less than or equal';
COMMENT ON OPERATOR > (distid, distid) IS 'greater than';
COMMENT ON OPERATOR >= (distid, distid) IS 'greater than or equal';

CREATE OPERATOR CLASS distid_ops
	DEFAULT FOR TYPE distid USING btree AS
		OPERATOR 1 <,
		OPERATOR 2 <=,
		OPERATOR 3 =,
		OPERATOR 4 >=,
		OPERATOR 5 >,
		FUNCTION 1 distid_cmp(distid, distid),
		FUNCTION 2 distid_sortsupport(pg_catalog.internal),
		FUNCTION 4 pg_catalog.btequalimage(pg_catalog.oid);
COMMENT ON OPERATOR CLASS distid_ops USING btree IS 'default btree operator class for distid';
COMMENT ON OPERATOR FAMILY distid_ops USING btree IS 'btree operator family for distid';

CREATE OPERATOR CLASS distid_ops
	DEFAULT FOR TYPE distid USING hash AS
		OPERATOR 1 =,
		FUNCTION 1 distid_hash(distid),
		FUNCTION 2 distid_hash_extended(distid, pg_catalog.int8);
COMMENT ON OPERATOR CLASS distid_ops USING hash IS 'default hash operator class for distid';
COMMENT ON OPERATOR FAMILY distid_ops USING hash IS 'hash operator family for distid';

CREATE OPERATOR CLASS distid_minmax_ops
	DEFAULT FOR TYPE distid USING brin AS
		OPERATOR 1 <,
		OPERATOR 2 <=,
		OPERATOR 3 =,
		OPERATOR 4 >=,
		OPERATOR 5 >,
		FUNCTION 1 pg_catalog.brin_minmax_opcinfo(pg_catalog.internal),
		FUNCTION 2 pg_catalog.brin_minmax_add_value(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 3 pg_catalog.brin_minmax_consistent(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 4 pg_catalog.brin_minmax_union(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal);
COMMENT ON OPERATOR CLASS distid_minmax_ops USING brin IS 'default BRIN minmax operator class for distid';
COMMENT ON OPERATOR FAMILY distid_minmax_ops USING brin IS 'BRIN minmax operator family for distid';

CREATE AGGREGATE min(distid) (
	SFUNC = distid_smaller, STYPE = distid, COMBINEFUNC = distid_smaller,
	SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(distid) (
	SFUNC = distid_larger, STYPE = distid, COMBINEFUNC = distid_larger,
	SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(distid) IS 'minimum value of all distid input values';
COMMENT ON AGGREGATE max(distid) IS 'maximum value of all distid input values';

-- casts: a distid is a whole number from 0 to 10^28-1

CREATE FUNCTION distid(numeric) RETURNS distid
	AS 'MODULE_PATHNAME', 'distid_from_numeric' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid_numeric(distid) RETURNS numeric
	AS 'MODULE_PATHNAME', 'distid_to_numeric' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION distid(numeric) IS 'convert numeric to distid: whole numbers from 0 to 10^28-1';
COMMENT ON FUNCTION distid_numeric(distid) IS 'convert distid to numeric';

CREATE CAST (numeric AS distid) WITH FUNCTION distid(numeric) AS ASSIGNMENT;
CREATE CAST (distid AS numeric) WITH FUNCTION distid_numeric(distid) AS ASSIGNMENT;
COMMENT ON CAST (numeric AS distid) IS 'rejects fractions, negatives and values above 10^28-1';
COMMENT ON CAST (distid AS numeric) IS 'the same number';

-- generation, extraction and encodings

CREATE FUNCTION distid_generate() RETURNS distid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION distid_generate_dense() RETURNS distid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION distid_timestamp(distid) RETURNS pg_catalog.timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid_from_timestamp(pg_catalog.timestamptz) RETURNS distid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid_max_for_timestamp(pg_catalog.timestamptz) RETURNS distid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid_to_alphanumeric(distid) RETURNS pg_catalog.text
	AS 'MODULE_PATHNAME', 'distid_to_alphanumeric_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid_from_alphanumeric(pg_catalog.text) RETURNS distid
	AS 'MODULE_PATHNAME', 'distid_from_alphanumeric_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid_to_hex(distid) RETURNS pg_catalog.text
	AS 'MODULE_PATHNAME', 'distid_to_hex_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid_from_hex(pg_catalog.text) RETURNS distid
	AS 'MODULE_PATHNAME', 'distid_from_hex_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION distid_generate() IS 'new DistributedId, stamped 1 s in the past as the reference does; increasing within the session';
COMMENT ON FUNCTION distid_generate_dense() IS 'new DistributedId, not rate limited, in real-time order across sessions (dense keys); 36 fresh random bits; stamped 1 s in the past; increasing within the session';
COMMENT ON FUNCTION distid_timestamp(distid) IS 'creation time of a distid, to the millisecond';
COMMENT ON FUNCTION distid_from_timestamp(pg_catalog.timestamptz) IS 'least distid of the millisecond, for range bounds';
COMMENT ON FUNCTION distid_max_for_timestamp(pg_catalog.timestamptz) IS 'greatest distid of the millisecond, the inclusive upper bound for range shards and BETWEEN';
COMMENT ON FUNCTION distid_to_alphanumeric(distid) IS '16-character base62 form';
COMMENT ON FUNCTION distid_from_alphanumeric(pg_catalog.text) IS 'distid from its 16-character base62 form';
COMMENT ON FUNCTION distid_to_hex(distid) IS '26-character upper-case hexadecimal form';
COMMENT ON FUNCTION distid_from_hex(pg_catalog.text) IS 'distid from its 26-character hexadecimal form (either case)';

--
-- DistributedId128 (as core uuid) and the alphanumeric forms of uuid and bigint
--

CREATE FUNCTION distid128_generate() RETURNS pg_catalog.uuid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION distid128_timestamp(pg_catalog.uuid) RETURNS pg_catalog.timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid128_from_timestamp(pg_catalog.timestamptz) RETURNS pg_catalog.uuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid128_max_for_timestamp(pg_catalog.timestamptz) RETURNS pg_catalog.uuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_to_alphanumeric(pg_catalog.uuid) RETURNS pg_catalog.text
	AS 'MODULE_PATHNAME', 'uuid_to_alphanumeric_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_from_alphanumeric(pg_catalog.text) RETURNS pg_catalog.uuid
	AS 'MODULE_PATHNAME', 'uuid_from_alphanumeric_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bigint_to_alphanumeric(bigint) RETURNS pg_catalog.text
	AS 'MODULE_PATHNAME', 'bigint_to_alphanumeric_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bigint_from_alphanumeric(pg_catalog.text) RETURNS bigint
	AS 'MODULE_PATHNAME', 'bigint_from_alphanumeric_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION distid128_generate() IS 'new DistributedId128 (UUIDv7-like, milliseconds since 1700), increasing within the session';
COMMENT ON FUNCTION distid128_timestamp(pg_catalog.uuid) IS 'creation time of a DistributedId128';
COMMENT ON FUNCTION distid128_from_timestamp(pg_catalog.timestamptz) IS 'least DistributedId128 of the millisecond, for range bounds';
COMMENT ON FUNCTION distid128_max_for_timestamp(pg_catalog.timestamptz) IS 'greatest DistributedId128 of the millisecond, the inclusive upper bound for range shards and BETWEEN';
COMMENT ON FUNCTION uuid_to_alphanumeric(pg_catalog.uuid) IS '22-character base62 form of a uuid';
COMMENT ON FUNCTION uuid_from_alphanumeric(pg_catalog.text) IS 'uuid from its 22-character base62 form';
COMMENT ON FUNCTION bigint_to_alphanumeric(bigint) IS '11-character base62 form of a non-negative bigint';
COMMENT ON FUNCTION bigint_from_alphanumeric(pg_catalog.text) IS 'bigint from its 11-character base62 form';

--
-- public identities: ids encrypted with AES into uuids (Architect.Identities)
-- With a key argument they are IMMUTABLE; without, they use the keys of the
-- file named by idgen.public_id_key_file and are STABLE.
--

CREATE FUNCTION public_id(id bigint, key pg_catalog.bytea) RETURNS pg_catalog.uuid
	AS 'MODULE_PATHNAME', 'public_id_bigint' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id(id distid, key pg_catalog.bytea) RETURNS pg_catalog.uuid
	AS 'MODULE_PATHNAME', 'public_id_distid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id(id pg_catalog.uuid, key pg_catalog.bytea) RETURNS pg_catalog.uuid
	AS 'MODULE_PATHNAME', 'public_id_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- iuid -> uuid is an assignment cast, which function calls do not apply
CREATE FUNCTION public_id(id iuid, key pg_catalog.bytea) RETURNS pg_catalog.uuid
	AS 'MODULE_PATHNAME', 'public_id_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id_to_bigint(public_id pg_catalog.uuid, key pg_catalog.bytea) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id_to_distid(public_id pg_catalog.uuid, key pg_catalog.bytea) RETURNS distid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id_to_uuid(public_id pg_catalog.uuid, key pg_catalog.bytea) RETURNS pg_catalog.uuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION public_id(id bigint) RETURNS pg_catalog.uuid
	AS 'MODULE_PATHNAME', 'public_id_bigint' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id(id distid) RETURNS pg_catalog.uuid
	AS 'MODULE_PATHNAME', 'public_id_distid' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id(id pg_catalog.uuid) RETURNS pg_catalog.uuid
	AS 'MODULE_PATHNAME', 'public_id_uuid' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id(id iuid) RETURNS pg_catalog.uuid
	AS 'MODULE_PATHNAME', 'public_id_uuid' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id_to_bigint(public_id pg_catalog.uuid) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id_to_distid(public_id pg_catalog.uuid) RETURNS distid
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id_to_uuid(public_id pg_catalog.uuid) RETURNS pg_catalog.uuid
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id_keys(OUT line pg_catalog.int4, OUT active pg_catalog.bool, OUT fingerprint pg_catalog.text)
	RETURNS SETOF pg_catalog.record
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE ROWS 2;
-- operators only: the C function checks too, so a GRANT cannot widen it
REVOKE ALL ON FUNCTION public_id_keys() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public_id_keys() TO pg_read_all_settings;
-- The server's key encodes and decodes for whoever may call these: only the
-- roles the administrator grants EXECUTE to (doc/security.md).  Installs
-- updated from 1.0 keep 1.0's grant to PUBLIC (idgen--1.0--1.1.sql).
REVOKE EXECUTE ON FUNCTION public_id(bigint), public_id(distid), public_id(pg_catalog.uuid), public_id(iuid),
	public_id_to_bigint(pg_catalog.uuid), public_id_to_distid(pg_catalog.uuid), public_id_to_uuid(pg_catalog.uuid) FROM PUBLIC;

COMMENT ON FUNCTION public_id(bigint, pg_catalog.bytea) IS 'public id of a non-negative bigint: AES with the given key, as a uuid';
COMMENT ON FUNCTION public_id(distid, pg_catalog.bytea) IS 'public id of a distid: AES with the given key, as a uuid';
COMMENT ON FUNCTION public_id(pg_catalog.uuid, pg_catalog.bytea) IS 'public id of a uuid: AES with the given key, as a uuid';
COMMENT ON FUNCTION public_id(iuid, pg_catalog.bytea) IS 'public id of an iuid (the same as of its uuid): AES with the given key, as a uuid';
COMMENT ON FUNCTION public_id_to_bigint(pg_catalog.uuid, pg_catalog.bytea) IS 'bigint behind a public id, or NULL if it is not one made with this key';
COMMENT ON FUNCTION public_id_to_distid(pg_catalog.uuid, pg_catalog.bytea) IS 'distid behind a public id, or NULL if it is not one made with this key';
COMMENT ON FUNCTION public_id_to_uuid(pg_catalog.uuid, pg_catalog.bytea) IS 'uuid behind a public id (every block decrypts to some uuid)';
COMMENT ON FUNCTION public_id(bigint) IS 'public id of a non-negative bigint with the active key of idgen.public_id_key_file';
COMMENT ON FUNCTION public_id(distid) IS 'public id of a distid with the active key of idgen.public_id_key_file';
COMMENT ON FUNCTION public_id(pg_catalog.uuid) IS 'public id of a uuid with the active key of idgen.public_id_key_file';
COMMENT ON FUNCTION public_id(iuid) IS 'public id of an iuid (the same as of its uuid) with the active key of idgen.public_id_key_file';
COMMENT ON FUNCTION public_id_to_bigint(pg_catalog.uuid) IS 'bigint behind a public id made with any key of idgen.public_id_key_file, or NULL';
COMMENT ON FUNCTION public_id_to_distid(pg_catalog.uuid) IS 'distid behind a public id made with any key of idgen.public_id_key_file, or NULL';
COMMENT ON FUNCTION public_id_to_uuid(pg_catalog.uuid) IS 'uuid behind a public id made with the active key of idgen.public_id_key_file';
COMMENT ON FUNCTION public_id_keys() IS 'keys of idgen.public_id_key_file: line, whether active, SHA-256 fingerprint (superusers and pg_read_all_settings)';

--
-- flaxid: Flax ID, 96 bits in 12 bytes, 16 sortable characters
--

CREATE TYPE flaxid;

CREATE FUNCTION flaxid_in(pg_catalog.cstring) RETURNS flaxid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION flaxid_out(flaxid) RETURNS pg_catalog.cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION flaxid_recv(pg_catalog.internal) RETURNS flaxid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION flaxid_send(flaxid) RETURNS pg_catalog.bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE flaxid (
	INTERNALLENGTH = 12,
	INPUT = flaxid_in,
	OUTPUT = flaxid_out,
	RECEIVE = flaxid_recv,
	SEND = flaxid_send,
	ALIGNMENT = char,
	STORAGE = plain,
	CATEGORY = 'U'
);
COMMENT ON TYPE flaxid IS 'Flax ID: milliseconds since 2015 and 56 random bits, 16 sortable characters';

COMMENT ON FUNCTION flaxid_in(pg_catalog.cstring) IS 'I/O';
COMMENT ON FUNCTION flaxid_out(flaxid) IS 'I/O';
COMMENT ON FUNCTION flaxid_recv(pg_catalog.internal) IS 'I/O';
COMMENT ON FUNCTION flaxid_send(flaxid) IS 'I/O';

CREATE FUNCTION flaxid_eq(flaxid, flaxid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION flaxid_ne(flaxid, flaxid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION flaxid_lt(flaxid, flaxid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION flaxid_le(flaxid, flaxid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION flaxid_gt(flaxid, flaxid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION flaxid_ge(flaxid, flaxid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION flaxid_cmp(flaxid, flaxid) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION flaxid_sortsupport(pg_catalog.internal) RETURNS pg_catalog.void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION flaxid_hash(flaxid) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION flaxid_hash_extended(flaxid, pg_catalog.int8) RETURNS pg_catalog.int8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION flaxid_smaller(flaxid, flaxid) RETURNS flaxid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION flaxid_larger(flaxid, flaxid) RETURNS flaxid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION flaxid_eq(flaxid, flaxid) IS 'implementation of = operator';
COMMENT ON FUNCTION flaxid_ne(flaxid, flaxid) IS 'implementation of <> operator';
COMMENT ON FUNCTION flaxid_lt(flaxid, flaxid) IS 'implementation of < operator';
COMMENT ON FUNCTION flaxid_le(flaxid, flaxid) IS 'implementation of <= operator';
COMMENT ON FUNCTION flaxid_gt(flaxid, flaxid) IS 'implementation of > operator';
COMMENT ON FUNCTION flaxid_ge(flaxid, flaxid) IS 'implementation of >= operator';
COMMENT ON FUNCTION flaxid_cmp(flaxid, flaxid) IS 'less-equal-greater';
COMMENT ON FUNCTION flaxid_sortsupport(pg_catalog.internal) IS 'sort support';
COMMENT ON FUNCTION flaxid_hash(flaxid) IS 'hash';
COMMENT ON FUNCTION flaxid_hash_extended(flaxid, pg_catalog.int8) IS 'hash';
COMMENT ON FUNCTION flaxid_smaller(flaxid, flaxid) IS 'smaller of two';
COMMENT ON FUNCTION flaxid_larger(flaxid, flaxid) IS 'larger of two';

CREATE OPERATOR = (
	LEFTARG = flaxid, RIGHTARG = flaxid, PROCEDURE = flaxid_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = flaxid, RIGHTARG = flaxid, PROCEDURE = flaxid_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
	LEFTARG = flaxid, RIGHTARG = flaxid, PROCEDURE = flaxid_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = flaxid, RIGHTARG = flaxid, PROCEDURE = flaxid_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = flaxid, RIGHTARG = flaxid, PROCEDURE = flaxid_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = flaxid, RIGHTARG = flaxid, PROCEDURE = flaxid_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

COMMENT ON OPERATOR = (flaxid, flaxid) IS 'equal';
COMMENT ON OPERATOR <> (flaxid, flaxid) IS 'not equal';
COMMENT ON OPERATOR < (flaxid, flaxid) IS 'less than';
COMMENT ON OPERATOR <= (flaxid, flaxid) IS 'less than or equal';
COMMENT ON OPERATOR > (flaxid, flaxid) IS 'greater than';
COMMENT ON OPERATOR >= (flaxid, flaxid) IS 'greater than or equal';

CREATE OPERATOR CLASS flaxid_ops
	DEFAULT FOR TYPE flaxid USING btree AS
		OPERATOR 1 <,
		OPERATOR 2 <=,
		OPERATOR 3 =,
		OPERATOR 4 >=,
		OPERATOR 5 >,
		FUNCTION 1 flaxid_cmp(flaxid, flaxid),
		FUNCTION 2 flaxid_sortsupport(pg_catalog.internal),
		FUNCTION 4 pg_catalog.btequalimage(pg_catalog.oid);
COMMENT ON OPERATOR CLASS flaxid_ops USING btree IS 'default btree operator class for flaxid';
COMMENT ON OPERATOR FAMILY flaxid_ops USING btree IS 'btree operator family for flaxid';

CREATE OPERATOR CLASS flaxid_ops
	DEFAULT FOR TYPE flaxid USING hash AS
		OPERATOR 1 =,
		FUNCTION 1 flaxid_hash(flaxid),
		FUNCTION 2 flaxid_hash_extended(flaxid, pg_catalog.int8);
COMMENT ON OPERATOR CLASS flaxid_ops USING hash IS 'default hash operator class for flaxid';
COMMENT ON OPERATOR FAMILY flaxid_ops USING hash IS 'hash operator family for flaxid';

CREATE OPERATOR CLASS flaxid_minmax_ops
	DEFAULT FOR TYPE flaxid USING brin AS
		OPERATOR 1 <,
		OPERATOR 2 <=,
		OPERATOR 3 =,
		OPERATOR 4 >=,
		OPERATOR 5 >,
		FUNCTION 1 pg_catalog.brin_minmax_opcinfo(pg_catalog.internal),
		FUNCTION 2 pg_catalog.brin_minmax_add_value(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 3 pg_catalog.brin_minmax_consistent(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 4 pg_catalog.brin_minmax_union(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal);
COMMENT ON OPERATOR CLASS flaxid_minmax_ops USING brin IS 'default BRIN minmax operator class for flaxid';
COMMENT ON OPERATOR FAMILY flaxid_minmax_ops USING brin IS 'BRIN minmax operator family for flaxid';

CREATE AGGREGATE min(flaxid) (
	SFUNC = flaxid_smaller, STYPE = flaxid, COMBINEFUNC = flaxid_smaller,
	SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(flaxid) (
	SFUNC = flaxid_larger, STYPE = flaxid, COMBINEFUNC = flaxid_larger,
	SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(flaxid) IS 'minimum value of all flaxid input values';
COMMENT ON AGGREGATE max(flaxid) IS 'maximum value of all flaxid input values';

-- generation and extraction (text casts are the automatic I/O ones)

CREATE FUNCTION flaxid_generate() RETURNS flaxid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION flaxid_timestamp(flaxid) RETURNS pg_catalog.timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION flaxid_from_timestamp(pg_catalog.timestamptz) RETURNS flaxid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION flaxid_max_for_timestamp(pg_catalog.timestamptz) RETURNS flaxid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION flaxid_generate() IS 'new Flax ID, increasing within the session';
COMMENT ON FUNCTION flaxid_timestamp(flaxid) IS 'creation time of a flaxid, to the millisecond';
COMMENT ON FUNCTION flaxid_from_timestamp(pg_catalog.timestamptz) IS 'least flaxid of the millisecond, for range bounds';
COMMENT ON FUNCTION flaxid_max_for_timestamp(pg_catalog.timestamptz) IS 'greatest flaxid of the millisecond, the inclusive upper bound for range shards and BETWEEN';

--
-- partition upkeep
--

-- plpgsql, as pg_partman.  search_path is pinned, idgen's own functions are
-- called in the schema the extension is in now (it is relocatable, so that
-- is looked up at run time), and the one operator put into SQL is the key's
-- operator class's "less", never an operator found by its name.  Partitions
-- are created as the table's owner, through idgen_ddl_as_owner below: they
-- are the owner's, and whatever the owner's table makes the server run while
-- one is created (the expressions and predicates of its indexes, folded as
-- they are cloned; the constraints of a default partition) runs as the owner
-- in a security-restricted operation, never as the caller.
--
-- One statement as a role, as core runs maintenance on another role's table
-- (REFRESH MATERIALIZED VIEW, CREATE INDEX, VACUUM): that role as the current
-- user in a security-restricted operation (the owner's code cannot SET ROLE
-- back to the session's user), with search_path = pg_catalog, pg_temp.  It
-- grants nothing: the caller must have the privileges of that role already.
CREATE FUNCTION idgen_ddl_as_owner(owner pg_catalog.regrole, statement pg_catalog.text) RETURNS pg_catalog.void
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION idgen_ddl_as_owner(pg_catalog.regrole, pg_catalog.text) IS 'run one statement as a role whose privileges the caller has, in a security-restricted operation (used by the partition helpers)';
CREATE FUNCTION idgen_create_partitions(parent pg_catalog.regclass, "from" pg_catalog.timestamptz,
                                        "to" pg_catalog.timestamptz, step interval)
RETURNS SETOF pg_catalog.regclass
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	ext_schema pg_catalog.name;
	parent_schema pg_catalog.name;
	parent_name pg_catalog.name;
	parent_owner pg_catalog.name;
	owner_id pg_catalog.regrole;
	key_type pg_catalog.oid;
	bound_fn pg_catalog.text;
	less pg_catalog.text;
	step_months int;
	step_days int;
	step_time interval;
	name_format pg_catalog.text;
	origin timestamp;
	k int := 0;
	part_start timestamp;
	part_end timestamp;
	lo pg_catalog.text;
	hi pg_catalog.text;
	part_name pg_catalog.text;
	part pg_catalog.regclass;
	hit pg_catalog.record;
	present pg_catalog.bool;
BEGIN
	-- plpgsql_check: warning 00000 [name of parameter "from" is reserved keyword] "from" and "to"
	-- are the parameters' names since idgen 1.0 (sql/idgen--1.0.sql is released and frozen);
	-- callers pass them by name ("from" => ...), so renaming them would break those calls.
	-- Here they are always written quoted.
	-- plpgsql_check: warning 00000 [name of parameter "to" is reserved keyword] as "from" above.
	-- plpgsql_check: performance 00000 [routine is marked as VOLATILE, should be STABLE] it
	-- creates partitions (CREATE TABLE ... PARTITION OF, through idgen_ddl_as_owner) and locks
	-- the table through EXECUTE: VOLATILE is right.
	IF parent IS NULL OR "from" IS NULL OR "to" IS NULL OR step IS NULL THEN
		RAISE EXCEPTION 'idgen_create_partitions arguments must not be null'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;

	SELECT n.nspname INTO ext_schema
	FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
	WHERE e.extname OPERATOR(pg_catalog.=) 'idgen';

	SELECT n.nspname, c.relname, pg_catalog.pg_get_userbyid(c.relowner), c.relowner::pg_catalog.regrole
	INTO parent_schema, parent_name, parent_owner, owner_id
	FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
	WHERE c.oid OPERATOR(pg_catalog.=) parent;
	-- refuses what it cannot serve (not partitioned by range on one id)
	EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM %I.idgen_partitions($1)', ext_schema) USING parent;
	-- one upkeep at a time per table, without blocking its readers and writers
	EXECUTE pg_catalog.format('LOCK TABLE ONLY %I.%I IN SHARE UPDATE EXCLUSIVE MODE', parent_schema, parent_name);

	SELECT a.atttypid INTO key_type
	FROM pg_catalog.pg_partitioned_table p
	JOIN pg_catalog.pg_attribute a ON a.attrelid OPERATOR(pg_catalog.=) p.partrelid AND a.attnum OPERATOR(pg_catalog.=) p.partattrs[0]
	WHERE p.partrelid OPERATOR(pg_catalog.=) parent;
	SELECT CASE WHEN t.oid OPERATOR(pg_catalog.=) 'pg_catalog.uuid'::pg_catalog.regtype THEN 'distid128' ELSE t.typname END
	       OPERATOR(pg_catalog.||) '_from_timestamp'
	INTO bound_fn
	FROM pg_catalog.pg_type t WHERE t.oid OPERATOR(pg_catalog.=) key_type;
	-- "less" (btree strategy 1) of the key's operator class, schema and all:
	-- the order the bounds are in (idgen_partitions refused any other class)
	SELECT pg_catalog.format('%I.%s', n.nspname, o.oprname) INTO less
	FROM pg_catalog.pg_partitioned_table p
	JOIN pg_catalog.pg_opclass c ON c.oid OPERATOR(pg_catalog.=) p.partclass[0]
	JOIN pg_catalog.pg_amop a ON a.amopfamily OPERATOR(pg_catalog.=) c.opcfamily AND a.amopmethod OPERATOR(pg_catalog.=) c.opcmethod
	     AND a.amoplefttype OPERATOR(pg_catalog.=) c.opcintype AND a.amoprighttype OPERATOR(pg_catalog.=) c.opcintype AND a.amopstrategy OPERATOR(pg_catalog.=) 1
	JOIN pg_catalog.pg_operator o ON o.oid OPERATOR(pg_catalog.=) a.amopopr
	JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) o.oprnamespace
	WHERE p.partrelid OPERATOR(pg_catalog.=) parent;

	-- a step is whole months, or a fixed length (days and time, all in UTC)
	step_months := ((extract(year FROM step) OPERATOR(pg_catalog.*) 12) OPERATOR(pg_catalog.+) extract(month FROM step))::int;
	step_days := extract(day FROM step)::int;
	step_time := step OPERATOR(pg_catalog.-) pg_catalog.make_interval(months => step_months, days => step_days);
	IF step_months OPERATOR(pg_catalog.<) 0 OR step_days OPERATOR(pg_catalog.<) 0 OR step_time OPERATOR(pg_catalog.<) interval '0'
	   OR (step_months OPERATOR(pg_catalog.=) 0 AND step_days OPERATOR(pg_catalog.=) 0 AND step_time OPERATOR(pg_catalog.=) interval '0') THEN
		RAISE EXCEPTION 'step "%" is not positive', step
			USING ERRCODE = 'invalid_parameter_value',
			      DETAIL = 'Its months, days and time must each be zero or more, and one of them more.';
	END IF;
	IF step_months OPERATOR(pg_catalog.>) 0 AND (step_days OPERATOR(pg_catalog.>) 0 OR step_time OPERATOR(pg_catalog.>) interval '0') THEN
		RAISE EXCEPTION 'step "%" mixes months with days or time', step
			USING ERRCODE = 'invalid_parameter_value',
			      DETAIL = 'A step is either whole months or a fixed length of days and time.';
	END IF;
	IF (extract(microseconds FROM step_time)::bigint OPERATOR(pg_catalog.%) 1000000) OPERATOR(pg_catalog.<>) 0 THEN
		RAISE EXCEPTION 'step "%" is not a whole number of seconds', step
			USING ERRCODE = 'invalid_parameter_value',
			      DETAIL = 'Partition names carry their start to the second.';
	END IF;
	IF NOT (pg_catalog.isfinite("from") AND pg_catalog.isfinite("to")) THEN
		RAISE EXCEPTION 'partitions cannot start or end at infinity'
			USING ERRCODE = 'datetime_field_overflow';
	END IF;
	IF "from" OPERATOR(pg_catalog.>) "to" THEN
		RAISE EXCEPTION '"from" (%) is later than "to" (%)', "from", "to"
			USING ERRCODE = 'invalid_parameter_value';
	END IF;

	-- names: <parent>_YYYYMMDD, with _HH24MISS when the step has a time part
	name_format := CASE WHEN step_time OPERATOR(pg_catalog.=) interval '0' THEN 'YYYYMMDD' ELSE 'YYYYMMDD"_"HH24MISS' END;
	origin := "from" AT TIME ZONE 'UTC';
	LOOP
		-- from the origin each time, so that month ends do not drift
		part_start := origin OPERATOR(pg_catalog.+) (step OPERATOR(pg_catalog.*) k);
		EXIT WHEN part_start OPERATOR(pg_catalog.>=) "to" AT TIME ZONE 'UTC';
		part_end := origin OPERATOR(pg_catalog.+) (step OPERATOR(pg_catalog.*) (k OPERATOR(pg_catalog.+) 1));
		k := k OPERATOR(pg_catalog.+) 1;

		EXECUTE pg_catalog.format('SELECT %1$I.%2$I($1)::pg_catalog.text, %1$I.%2$I($2)::pg_catalog.text', ext_schema, bound_fn)
			INTO lo, hi USING part_start AT TIME ZONE 'UTC', part_end AT TIME ZONE 'UTC';

		-- existing partitions whose range meets [lo, hi)
		present := false;
		-- the query names the key's type and its "less" operator (schema-qualified, from the
		-- operator class), known only at run time; every value goes in through USING.  Its
		-- columns, for plpgsql_check, which then checks every use of hit (a constant: no effect):
		PERFORM 'PRAGMA:TYPE:hit (rel pg_catalog.name, lo pg_catalog.text, hi pg_catalog.text)';
		FOR hit IN EXECUTE pg_catalog.format($q$
			SELECT c.relname AS rel, b[1] AS lo, b[2] AS hi
			FROM pg_catalog.pg_inherits i
			JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) i.inhrelid,
			LATERAL pg_catalog.regexp_match(pg_catalog.pg_get_expr(c.relpartbound, c.oid),
			          '^FOR VALUES FROM [(](MINVALUE|''[^'']*'')[)] TO [(](MAXVALUE|''[^'']*'')[)]$') b
			WHERE i.inhparent OPERATOR(pg_catalog.=) $1
			  AND CASE WHEN b[1] OPERATOR(pg_catalog.=) 'MINVALUE' THEN true
			           ELSE pg_catalog.btrim(b[1], '''')::%1$s OPERATOR(%2$s) $3::%1$s END
			  AND CASE WHEN b[2] OPERATOR(pg_catalog.=) 'MAXVALUE' THEN true
			           ELSE $2::%1$s OPERATOR(%2$s) pg_catalog.btrim(b[2], '''')::%1$s END
			ORDER BY c.relname$q$, key_type::pg_catalog.regtype, less)
			USING parent, lo, hi
		LOOP
			IF hit.lo OPERATOR(pg_catalog.=) pg_catalog.quote_literal(lo) AND hit.hi OPERATOR(pg_catalog.=) pg_catalog.quote_literal(hi) THEN
				present := true;	-- already there
				EXIT;
			END IF;
			RAISE EXCEPTION 'partition "%" of table "%" overlaps the range of a new partition',
				hit.rel, parent_name
				USING ERRCODE = 'invalid_object_definition',
				      DETAIL = pg_catalog.format('"%s" holds FROM (%s) TO (%s); the new one, starting %s UTC, would hold FROM (%L) TO (%L).',
				                      hit.rel, hit.lo, hit.hi, part_start, lo, hi),
				      HINT = 'Detach or drop the overlapping partition, or choose "from" and step to match it.';
		END LOOP;
		CONTINUE WHEN present;

		part_name := parent_name OPERATOR(pg_catalog.||) '_' OPERATOR(pg_catalog.||) pg_catalog.to_char(part_start, name_format);
		IF pg_catalog.octet_length(part_name) OPERATOR(pg_catalog.>) 63 THEN
			RAISE EXCEPTION 'partition name "%" is too long', part_name
				USING ERRCODE = 'name_too_long',
				      DETAIL = 'Names are limited to 63 bytes; rename the table or create the partitions by hand.';
		END IF;
		IF pg_catalog.to_regclass(pg_catalog.format('%I.%I', parent_schema, part_name)) IS NOT NULL THEN
			RAISE EXCEPTION 'relation "%" already exists', part_name
				USING ERRCODE = 'duplicate_table',
				      DETAIL = pg_catalog.format('It is not a partition of "%s" FROM (%L) TO (%L).', parent_name, lo, hi);
		END IF;
		-- as CREATE TABLE ... PARTITION OF checks it of the caller
		IF NOT pg_catalog.pg_has_role(current_user, parent_owner, 'USAGE') THEN
			RAISE EXCEPTION 'must be owner of table %', parent_name
				USING ERRCODE = 'insufficient_privilege';
		END IF;
		-- as the owner, in a security-restricted operation
		EXECUTE pg_catalog.format('SELECT %I.idgen_ddl_as_owner($1, $2)', ext_schema)
			USING owner_id,
			      pg_catalog.format('CREATE TABLE %I.%I PARTITION OF %I.%I FOR VALUES FROM (%L) TO (%L)',
			                        parent_schema, part_name, parent_schema, parent_name, lo, hi);
		part := pg_catalog.format('%I.%I', parent_schema, part_name)::pg_catalog.regclass;
		RETURN NEXT part;
	END LOOP;
END
$fn$;
COMMENT ON FUNCTION idgen_create_partitions(pg_catalog.regclass, pg_catalog.timestamptz, pg_catalog.timestamptz, interval) IS 'create the missing range partitions of a table partitioned by an idgen id, covering [from, to) in steps; returns those created';

-- B-tree skip support (support function 6), as core has for uuid and int8:
-- skip scans of multi-column indexes led by an id.  PostgreSQL 18 brought
-- the support slot; the functions exist on every server (so the catalog is
-- the same), but join the operator families only where the slot exists.
CREATE FUNCTION iuid_skipsupport(pg_catalog.internal) RETURNS pg_catalog.void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION base36id_skipsupport(pg_catalog.internal) RETURNS pg_catalog.void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid_skipsupport(pg_catalog.internal) RETURNS pg_catalog.void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION flaxid_skipsupport(pg_catalog.internal) RETURNS pg_catalog.void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION iuid_skipsupport(pg_catalog.internal) IS 'skip support';
COMMENT ON FUNCTION base36id_skipsupport(pg_catalog.internal) IS 'skip support';
COMMENT ON FUNCTION distid_skipsupport(pg_catalog.internal) IS 'skip support';
COMMENT ON FUNCTION flaxid_skipsupport(pg_catalog.internal) IS 'skip support';

DO $$
BEGIN
	IF pg_catalog.current_setting('server_version_num')::int OPERATOR(pg_catalog.>=) 180000 THEN
		ALTER OPERATOR FAMILY iuid_ops USING btree
			ADD FUNCTION 6 (iuid, iuid) iuid_skipsupport(pg_catalog.internal);
		ALTER OPERATOR FAMILY base36id_ops USING btree
			ADD FUNCTION 6 (base36id, base36id) base36id_skipsupport(pg_catalog.internal);
		ALTER OPERATOR FAMILY distid_ops USING btree
			ADD FUNCTION 6 (distid, distid) distid_skipsupport(pg_catalog.internal);
		ALTER OPERATOR FAMILY flaxid_ops USING btree
			ADD FUNCTION 6 (flaxid, flaxid) flaxid_skipsupport(pg_catalog.internal);
	END IF;
END
$$;

--
-- cluster check of worker ids
--

-- Every node that generates base36ids needs its own idgen.worker_id.  On
-- Citus the nodes are asked through run_command_on_all_nodes (Citus's own
-- facility, looked up at run time so idgen does not depend on Citus);
-- otherwise through dblink, optional too, for the connection strings given.
-- A password in a connection string is masked in the node column.
CREATE FUNCTION idgen_check_worker_ids(conninfos pg_catalog.text[] DEFAULT NULL,
                                       OUT node pg_catalog.text, OUT worker_id int, OUT problem pg_catalog.text)
RETURNS SETOF pg_catalog.record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	probe constant pg_catalog.text := 'SELECT coalesce(pg_catalog.current_setting(''idgen.worker_id'', true), '''')';
	names pg_catalog.text[] := '{}'::pg_catalog.text[];
	vals pg_catalog.text[] := '{}'::pg_catalog.text[];
	errs pg_catalog.text[] := '{}'::pg_catalog.text[];
	dblink_schema pg_catalog.name;
	-- plpgsql_check: warning 00000 [unused variable "r"] the record of the Citus-only loop below,
	-- whose body plpgsql_check leaves unchecked after the error it finds on the loop's query.
	r pg_catalog.record;
	c pg_catalog.text;
	v pg_catalog.text;
	others pg_catalog.text;
BEGIN
	-- plpgsql_check: performance 00000 [routine is marked as VOLATILE, should be STABLE] it
	-- connects to other servers (through Citus or dblink, in dynamic SQL) and reports what they
	-- answer at the time of the call: VOLATILE is right.
	IF conninfos IS NULL THEN
		IF pg_catalog.to_regprocedure('pg_catalog.run_command_on_all_nodes(text,boolean,boolean)') IS NULL THEN
			RAISE EXCEPTION 'idgen_check_worker_ids() without connection strings needs Citus'
				USING ERRCODE = 'object_not_in_prerequisite_state',
					  HINT = 'Pass the nodes'' connection strings: idgen_check_worker_ids(ARRAY[''host=... dbname=...'', ...]).';
		END IF;
		-- plpgsql_check: error 42883 [function pg_catalog.run_command_on_all_nodes(text) does not exist]
		-- Citus's function; this runs only after to_regprocedure has found it (the citus suite runs
		-- this branch on a coordinator with two workers).
		FOR r IN EXECUTE
			'SELECT coalesce(n.nodename OPERATOR(pg_catalog.||) '':'' OPERATOR(pg_catalog.||) n.nodeport,
			                 pg_catalog.current_setting(''citus.local_hostname'') OPERATOR(pg_catalog.||) '':'' OPERATOR(pg_catalog.||) pg_catalog.current_setting(''port'')) AS name,
			        a.success, a.result
			 FROM pg_catalog.run_command_on_all_nodes($1) a
			 LEFT JOIN pg_catalog.pg_dist_node n ON n.nodeid OPERATOR(pg_catalog.=) a.nodeid
			 ORDER BY 1' USING probe
		LOOP
			names := names OPERATOR(pg_catalog.||) r.name;
			vals := vals OPERATOR(pg_catalog.||) CASE WHEN r.success THEN r.result END;
			errs := errs OPERATOR(pg_catalog.||) CASE WHEN NOT r.success THEN r.result END;
		END LOOP;
	ELSE
		IF pg_catalog.array_ndims(conninfos) IS NULL OR pg_catalog.array_ndims(conninfos) OPERATOR(pg_catalog.<>) 1 THEN
			RAISE EXCEPTION 'idgen_check_worker_ids needs a one-dimensional array of at least one connection string'
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
		IF pg_catalog.array_position(conninfos, NULL) IS NOT NULL THEN
			RAISE EXCEPTION 'connection string % is null', pg_catalog.array_position(conninfos, NULL)
				USING ERRCODE = 'null_value_not_allowed';
		END IF;
		FOR i IN 1 .. pg_catalog.array_length(conninfos, 1) LOOP
			IF pg_catalog.array_position(conninfos, conninfos[i]) OPERATOR(pg_catalog.<) i THEN
				RAISE EXCEPTION 'connection string % is the same as connection string %',
					i, pg_catalog.array_position(conninfos, conninfos[i])
					USING ERRCODE = 'invalid_parameter_value';
			END IF;
		END LOOP;
		SELECT n.nspname INTO dblink_schema
		FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
		WHERE e.extname OPERATOR(pg_catalog.=) 'dblink';
		IF dblink_schema IS NULL THEN
			RAISE EXCEPTION 'idgen_check_worker_ids() with connection strings needs the dblink extension'
				USING ERRCODE = 'object_not_in_prerequisite_state',
					  HINT = 'CREATE EXTENSION dblink; (PostgreSQL''s contrib) in this database, or run the check on a Citus coordinator without arguments.';
		END IF;
		FOR i IN 1 .. pg_catalog.array_length(conninfos, 1) LOOP
			c := conninfos[i];
			-- a URI's parameters but host, hostaddr, port, dbname and user are
			-- masked whole: libpq decodes %-escapes in their names too
			-- (pass%77ord=), which no pattern of the word would see
			names := names OPERATOR(pg_catalog.||) (i OPERATOR(pg_catalog.||) ': ' OPERATOR(pg_catalog.||) pg_catalog.regexp_replace(pg_catalog.regexp_replace(pg_catalog.regexp_replace(c,
				E'(password\\s*=\\s*)(''([^''\\\\]|\\\\.)*''|\\S+)', E'\\1***', 'gi'),
				'^(postgres(ql)?://[^:@/]*):[^@/]*@', E'\\1:***@', 'i'),
				'([?&])(?!(host|hostaddr|port|dbname|user)=)([^&=#]*)=[^&#]*', E'\\1\\3=***', 'g'));
			BEGIN
				EXECUTE pg_catalog.format('SELECT w FROM %I.dblink($1, $2) AS t(w pg_catalog.text)', dblink_schema)
					INTO v USING c, probe;
				vals := vals OPERATOR(pg_catalog.||) v;
				errs := errs OPERATOR(pg_catalog.||) NULL::pg_catalog.text;
			EXCEPTION WHEN OTHERS THEN
				vals := vals OPERATOR(pg_catalog.||) NULL::pg_catalog.text;
				errs := errs OPERATOR(pg_catalog.||) SQLERRM;
			END;
		END LOOP;
	END IF;

	FOR i IN 1 .. coalesce(pg_catalog.array_length(names, 1), 0) LOOP
		node := names[i];
		worker_id := NULL;
		problem := NULL;
		IF errs[i] IS NOT NULL THEN
			problem := 'not reached: ' OPERATOR(pg_catalog.||) errs[i];
		ELSIF vals[i] OPERATOR(pg_catalog.=) '' THEN
			problem := 'idgen is not loaded (add it to shared_preload_libraries)';
		ELSIF vals[i] OPERATOR(pg_catalog.=) '-1' THEN
			worker_id := -1;
			problem := 'idgen.worker_id is not set';
		ELSE
			worker_id := vals[i]::int;
			others := NULL;
			FOR j IN 1 .. pg_catalog.array_length(names, 1) LOOP
				IF j OPERATOR(pg_catalog.<>) i AND vals[j] OPERATOR(pg_catalog.=) vals[i] THEN
					others := coalesce(others OPERATOR(pg_catalog.||) ', ', '') OPERATOR(pg_catalog.||) names[j];
				END IF;
			END LOOP;
			IF others IS NOT NULL THEN
				problem := 'idgen.worker_id ' OPERATOR(pg_catalog.||) worker_id OPERATOR(pg_catalog.||) ' is also the one of ' OPERATOR(pg_catalog.||) others;
			END IF;
		END IF;
		RETURN NEXT;
	END LOOP;
END
$fn$;
COMMENT ON FUNCTION idgen_check_worker_ids(pg_catalog.text[]) IS 'one row per node with its idgen.worker_id and, when it has none, is not reached or shares it, the problem; all Citus nodes when called without arguments, else the nodes of the connection strings (through dblink)';


-- Skip support after pg_upgrade.  pg_upgrade into 18 carries the
-- operator families over as the old server had them, without support
-- function 6; creating or updating the extension on 18 is what adds it
-- (above), and an upgraded cluster does neither.  This adds it where the
-- server has the slot and a family lacks it, and is a no-op elsewhere, so
-- operators can run it after every pg_upgrade.  DDL as the caller (a
-- superuser: ALTER OPERATOR FAMILY requires it), search_path pinned,
-- idgen's schema looked up at run time (it is relocatable).
CREATE FUNCTION idgen_add_skip_support() RETURNS int
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	ext_schema pg_catalog.name;
	t pg_catalog.text;
	added int := 0;
BEGIN
	-- plpgsql_check: performance 00000 [routine is marked as VOLATILE, should be STABLE] it adds
	-- support functions to operator families through EXECUTE (ALTER OPERATOR FAMILY ... ADD),
	-- which changes the catalog: VOLATILE is right; plpgsql_check cannot see into dynamic SQL.
	IF pg_catalog.current_setting('server_version_num')::int OPERATOR(pg_catalog.<) 180000 THEN
		RETURN 0;
	END IF;
	SELECT n.nspname INTO ext_schema
	FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
	WHERE e.extname OPERATOR(pg_catalog.=) 'idgen';
	FOREACH t IN ARRAY ARRAY['iuid', 'base36id', 'distid', 'flaxid'] LOOP
		IF NOT EXISTS (SELECT FROM pg_catalog.pg_amproc p
		               JOIN pg_catalog.pg_opfamily f ON f.oid OPERATOR(pg_catalog.=) p.amprocfamily
		               JOIN pg_catalog.pg_am a ON a.oid OPERATOR(pg_catalog.=) f.opfmethod
		               JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) f.opfnamespace
		               WHERE a.amname OPERATOR(pg_catalog.=) 'btree' AND f.opfname OPERATOR(pg_catalog.=) (t OPERATOR(pg_catalog.||) '_ops')
		                 AND n.nspname OPERATOR(pg_catalog.=) ext_schema AND p.amprocnum OPERATOR(pg_catalog.=) 6) THEN
			EXECUTE pg_catalog.format('ALTER OPERATOR FAMILY %1$I.%2$I USING btree ADD FUNCTION 6 (%1$I.%3$I, %1$I.%3$I) %1$I.%4$I(pg_catalog.internal)',
			               ext_schema, t OPERATOR(pg_catalog.||) '_ops', t, t OPERATOR(pg_catalog.||) '_skipsupport');
			added := added OPERATOR(pg_catalog.+) 1;
		END IF;
	END LOOP;
	RETURN added;
END
$fn$;
COMMENT ON FUNCTION idgen_add_skip_support() IS 'on PostgreSQL 18 and later, add B-tree skip support to the operator families that lack it (after pg_upgrade); returns how many it changed';


--
-- Monitoring: base36id's server-wide state and the generators'
-- clock events, summed over all backends.  The views are the interface; the
-- functions behind them return bare records (no OUT parameters, so their
-- identity stays "()").  Readable by pg_read_all_stats (and so pg_monitor),
-- as core's statistics about other sessions; a view's user needs EXECUTE on
-- its function as well.
--
CREATE FUNCTION idgen_stat_base36id() RETURNS SETOF pg_catalog.record
	AS 'MODULE_PATHNAME', 'idgen_stat_base36id' LANGUAGE C VOLATILE PARALLEL SAFE ROWS 1;
CREATE FUNCTION idgen_stat_clock() RETURNS SETOF pg_catalog.record
	AS 'MODULE_PATHNAME', 'idgen_stat_clock' LANGUAGE C VOLATILE PARALLEL SAFE ROWS 5;
CREATE VIEW idgen_stat_base36id AS
	SELECT * FROM idgen_stat_base36id() AS s(
		worker_id integer,
		counter_second pg_catalog.timestamptz,
		ids_used integer,
		ids_this_second integer,
		ids_per_second integer,
		reserved_second pg_catalog.timestamptz,
		state_file_second pg_catalog.timestamptz,
		floor_second pg_catalog.timestamptz,
		last_reservation_second pg_catalog.timestamptz,
		last_reservation_lsn pg_catalog.pg_lsn,
		last_reservation_at pg_catalog.timestamptz,
		last_reservation_time double precision,
		reservations bigint,
		reservation_time double precision,
		state_file_syncs bigint,
		state_file_sync_time double precision,
		reservation_waits bigint,
		reservation_wait_time double precision,
		next_second_waits bigint,
		next_second_wait_time double precision,
		state_file pg_catalog.text,
		state_file_failures bigint,
		last_state_file_failure pg_catalog.timestamptz);
CREATE VIEW idgen_stat_clock AS
	SELECT * FROM idgen_stat_clock() AS s(
		generator pg_catalog.text,
		ids_ahead bigint,
		ahead_max_ms bigint,
		borrowed_ms bigint,
		steps_back_absorbed bigint,
		steps_back_followed bigint,
		step_back_max_ms bigint);
COMMENT ON FUNCTION idgen_stat_base36id() IS 'the row of view idgen_stat_base36id; requires shared_preload_libraries';
COMMENT ON FUNCTION idgen_stat_clock() IS 'the rows of view idgen_stat_clock; requires shared_preload_libraries';
COMMENT ON VIEW idgen_stat_base36id IS 'base36id''s server-wide state: the worker''s counter against the per-second cap, the reserved second and how it was made durable, reservations, waits, the state file';
COMMENT ON VIEW idgen_stat_clock IS 'clock events of the iuid, flaxid, distid, DistributedId128 and dense distid generators (ids ahead of the clock, borrowed milliseconds, clock steps back), summed over all backends since the server started';
REVOKE ALL ON FUNCTION idgen_stat_base36id() FROM PUBLIC;
REVOKE ALL ON FUNCTION idgen_stat_clock() FROM PUBLIC;
REVOKE ALL ON idgen_stat_base36id FROM PUBLIC;
REVOKE ALL ON idgen_stat_clock FROM PUBLIC;
GRANT EXECUTE ON FUNCTION idgen_stat_base36id() TO pg_read_all_stats;
GRANT EXECUTE ON FUNCTION idgen_stat_clock() TO pg_read_all_stats;
GRANT SELECT ON idgen_stat_base36id TO pg_read_all_stats;
GRANT SELECT ON idgen_stat_clock TO pg_read_all_stats;


--
-- partitions by id through their life: listed as times, retired
--

-- The partitions of a table partitioned by an id, each with the time span its
-- bounds decode to.  Bounds are read back with the type's *_timestamp and
-- checked against *_from_timestamp of that time: a bound that is not the
-- least id of its time unit (a hand-made partition) is "uneven", and its span
-- is widened to the whole units it touches, so that retirement never takes a
-- partition that may hold a newer id.  STABLE: it only reads the catalogs
-- (no lock; a snapshot of the partitions as of the statement).
CREATE FUNCTION idgen_partitions(parent pg_catalog.regclass)
RETURNS TABLE (partition pg_catalog.regclass, from_time pg_catalog.timestamptz, to_time pg_catalog.timestamptz,
               is_default boolean, uneven boolean, detach_pending boolean, bounds pg_catalog.text)
LANGUAGE plpgsql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	ext_schema pg_catalog.name;
	ext_nsp pg_catalog.oid;
	rel_kind pg_catalog."char";
	parent_name pg_catalog.name;
	strategy pg_catalog."char";
	key_natts pg_catalog.int2;
	key_attnum pg_catalog.int2;
	key_opclass pg_catalog.oid;
	key_column pg_catalog.name;
	key_type pg_catalog.oid;
	type_prefix pg_catalog.text;
	unit interval;
	decode pg_catalog.text;
	r pg_catalog.record;
	lo_time pg_catalog.timestamptz;
	lo_whole pg_catalog.bool;
	hi_time pg_catalog.timestamptz;
	hi_whole pg_catalog.bool;
BEGIN
	IF parent IS NULL THEN
		RAISE EXCEPTION 'idgen_partitions argument must not be null'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;

	SELECT n.oid, n.nspname INTO ext_nsp, ext_schema
	FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
	WHERE e.extname OPERATOR(pg_catalog.=) 'idgen';

	SELECT c.relkind, c.relname INTO rel_kind, parent_name
	FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) parent;
	IF rel_kind IS NULL OR rel_kind OPERATOR(pg_catalog.<>) 'p' THEN
		RAISE EXCEPTION '"%" is not a partitioned table', coalesce(parent_name, parent::pg_catalog.text)
			USING ERRCODE = 'wrong_object_type';
	END IF;
	SELECT p.partstrat, p.partnatts, p.partattrs[0], p.partclass[0]
	INTO strategy, key_natts, key_attnum, key_opclass
	FROM pg_catalog.pg_partitioned_table p WHERE p.partrelid OPERATOR(pg_catalog.=) parent;
	IF strategy OPERATOR(pg_catalog.<>) 'r' THEN
		RAISE EXCEPTION 'table "%" is not partitioned by range', parent_name
			USING ERRCODE = 'feature_not_supported',
			      DETAIL = pg_catalog.format('It is partitioned by %s.',
			                      CASE WHEN strategy OPERATOR(pg_catalog.=) 'l' THEN 'list' ELSE 'hash' END);
	END IF;
	IF key_natts OPERATOR(pg_catalog.<>) 1 OR key_attnum OPERATOR(pg_catalog.=) 0 THEN
		RAISE EXCEPTION 'partition key of table "%" is not one column', parent_name
			USING ERRCODE = 'feature_not_supported',
			      DETAIL = pg_catalog.format('The key is %s.', pg_catalog.pg_get_partkeydef(parent));
	END IF;
	SELECT a.attname, a.atttypid INTO key_column, key_type
	FROM pg_catalog.pg_attribute a WHERE a.attrelid OPERATOR(pg_catalog.=) parent AND a.attnum OPERATOR(pg_catalog.=) key_attnum;
	SELECT CASE WHEN t.oid OPERATOR(pg_catalog.=) 'pg_catalog.uuid'::pg_catalog.regtype THEN 'distid128' ELSE t.typname::pg_catalog.text END
	INTO type_prefix
	FROM pg_catalog.pg_type t
	WHERE t.oid OPERATOR(pg_catalog.=) key_type
	  AND (t.oid OPERATOR(pg_catalog.=) 'pg_catalog.uuid'::pg_catalog.regtype
	       OR (t.typname OPERATOR(pg_catalog.=) ANY ('{iuid,distid,flaxid,base36id}'::pg_catalog.name[]) AND t.typnamespace OPERATOR(pg_catalog.=) ext_nsp));
	IF type_prefix IS NULL THEN
		RAISE EXCEPTION 'partition key column "%" of table "%" has type %, not an idgen type',
			key_column, parent_name, key_type::pg_catalog.regtype
			USING ERRCODE = 'datatype_mismatch',
			      HINT = 'The key must be of type iuid, distid, flaxid or base36id, or uuid holding DistributedId128s.';
	END IF;
	IF NOT (SELECT o.opcdefault FROM pg_catalog.pg_opclass o WHERE o.oid OPERATOR(pg_catalog.=) key_opclass) THEN
		RAISE EXCEPTION 'partition key of table "%" uses operator class %, not the default one',
			parent_name, (SELECT o.opcname FROM pg_catalog.pg_opclass o WHERE o.oid OPERATOR(pg_catalog.=) key_opclass)
			USING ERRCODE = 'feature_not_supported',
			      DETAIL = 'Bounds follow the order of the type''s default operator class.';
	END IF;
	unit := CASE WHEN type_prefix OPERATOR(pg_catalog.=) 'base36id' THEN interval '1 second' ELSE interval '1 millisecond' END;

	-- a bound's time, and whether the bound is the least id of that time; the
	-- bound as pg_get_expr prints it is the type's output, which ::text gives too
	decode := pg_catalog.format('SELECT t, %1$I.%2$I(t)::pg_catalog.text OPERATOR(pg_catalog.=) $1 FROM (SELECT %1$I.%3$I($1::%4$s) AS t) s',
	                 ext_schema, type_prefix OPERATOR(pg_catalog.||) '_from_timestamp', type_prefix OPERATOR(pg_catalog.||) '_timestamp',
	                 key_type::pg_catalog.regtype);

	-- in the order of their lower bounds, the default partition last
	-- the query casts the bounds to the key's type, known only at run time (%s of a regtype,
	-- values through USING).  Its columns, for plpgsql_check, which then checks every use of r
	-- (a constant: no effect):
	PERFORM 'PRAGMA:TYPE:r (part pg_catalog.regclass, pending pg_catalog.bool, expr pg_catalog.text, b pg_catalog.text[])';
	FOR r IN EXECUTE pg_catalog.format($q$
		SELECT c.oid::pg_catalog.regclass AS part, i.inhdetachpending AS pending, e.expr,
		       pg_catalog.regexp_match(e.expr, '^FOR VALUES FROM [(](MINVALUE|''([^'']*)'')[)] TO [(](MAXVALUE|''([^'']*)'')[)]$') AS b
		FROM pg_catalog.pg_inherits i
		JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) i.inhrelid,
		LATERAL (SELECT pg_catalog.pg_get_expr(c.relpartbound, c.oid) AS expr) e
		WHERE i.inhparent OPERATOR(pg_catalog.=) $1
		ORDER BY e.expr OPERATOR(pg_catalog.=) 'DEFAULT', e.expr OPERATOR(pg_catalog.~~) 'FOR VALUES FROM (MINVALUE)%%' DESC,
		         (pg_catalog.regexp_match(e.expr, '^FOR VALUES FROM [(]''([^'']*)''[)]'))[1]::%s, c.relname$q$,
		key_type::pg_catalog.regtype) USING parent
	LOOP
		lo_time := NULL; lo_whole := false;
		hi_time := NULL; hi_whole := false;
		IF r.b[1] OPERATOR(pg_catalog.=) 'MINVALUE' THEN
			lo_time := '-infinity'; lo_whole := true;
		ELSIF r.b[2] IS NOT NULL AND (type_prefix OPERATOR(pg_catalog.<>) 'distid128'
		      OR r.b[2] OPERATOR(pg_catalog.~) '^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-7]') THEN
			-- plpgsql_check: security 00000 [text type variable is not sanitized] decode is made by
			-- format() above from %I of the extension's schema and of function names and %s of a
			-- regtype (whose output quotes the name); the bound goes in through USING.
			EXECUTE decode INTO lo_time, lo_whole USING r.b[2];
		END IF;
		IF r.b[3] OPERATOR(pg_catalog.=) 'MAXVALUE' THEN
			hi_time := 'infinity'; hi_whole := true;
		ELSIF r.b[4] IS NOT NULL AND (type_prefix OPERATOR(pg_catalog.<>) 'distid128'
		      OR r.b[4] OPERATOR(pg_catalog.~) '^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-7]') THEN
			-- plpgsql_check: security 00000 [text type variable is not sanitized] decode, as above.
			EXECUTE decode INTO hi_time, hi_whole USING r.b[4];
			-- the partition holds part of the unit its upper bound is in
			IF NOT hi_whole THEN
				hi_time := hi_time OPERATOR(pg_catalog.+) unit;
			END IF;
		END IF;
		partition := r.part;
		is_default := r.expr OPERATOR(pg_catalog.=) 'DEFAULT';
		from_time := lo_time;
		to_time := hi_time;
		uneven := NOT is_default AND NOT (lo_whole AND hi_whole);
		detach_pending := r.pending;
		bounds := r.expr;
		RETURN NEXT;
	END LOOP;
END
$fn$;
COMMENT ON FUNCTION idgen_partitions(pg_catalog.regclass) IS 'the partitions of a table range-partitioned by an idgen id, each with the time span [from_time, to_time) its bounds decode to; flags the default partition and bounds that are not whole time units';

-- Retirement: detach (or drop) the partitions whose whole span ends at or
-- before older_than.  A partition another session is writing to (a lock
-- stronger than a reader's, as an insert takes) is skipped, so a backfill
-- into an old range is neither blocked nor cut off mid-transaction; the next
-- run takes it.  DETACH ... CONCURRENTLY cannot run in a function (nor in a
-- transaction block), so with concurrent => true nothing is run: the
-- statements come back for the client to run at top level (psql's \gexec).
-- There they run with the client's rights, outside any security-restricted
-- operation, and DETACH ... CONCURRENTLY runs the partition's CHECK
-- constraints (the owner's code): so only a session logged in as the owner
-- of the table and its partitions (its login role, as pg_stat_activity
-- keeps it, its session user and its current user) gets them.  SET ROLE and
-- SET SESSION AUTHORIZATION are no fence (the owner's code could undo them),
-- and a member of the owner, or a superuser, may have rights the owner has
-- not; an owner's session that did SET ROLE would run them as that role.
CREATE FUNCTION idgen_retire_partitions(parent pg_catalog.regclass, older_than pg_catalog.timestamptz,
                                        drop_tables boolean DEFAULT false,
                                        concurrent boolean DEFAULT false)
RETURNS TABLE (partition pg_catalog.text, from_time pg_catalog.timestamptz, to_time pg_catalog.timestamptz,
               action pg_catalog.text, statement pg_catalog.text)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	ext_schema pg_catalog.name;
	parent_name pg_catalog.name;
	parent_ident pg_catalog.text;
	parent_owner pg_catalog.regrole;
	run_as pg_catalog.regrole;
	target pg_catalog.name;
	r pg_catalog.record;
	defaults int;
	writer int;
BEGIN
	IF parent IS NULL OR older_than IS NULL OR drop_tables IS NULL OR concurrent IS NULL THEN
		RAISE EXCEPTION 'idgen_retire_partitions arguments must not be null'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	SELECT n.nspname INTO ext_schema
	FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
	WHERE e.extname OPERATOR(pg_catalog.=) 'idgen';

	-- checks the layout (and refuses others) before anything is locked
	EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FILTER (WHERE is_default) FROM %I.idgen_partitions($1)', ext_schema)
		INTO defaults USING parent;
	SELECT c.relname, pg_catalog.format('%I.%I', n.nspname, c.relname), c.relowner::pg_catalog.regrole INTO parent_name, parent_ident, parent_owner
	FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace WHERE c.oid OPERATOR(pg_catalog.=) parent;
	IF concurrent AND defaults OPERATOR(pg_catalog.>) 0 THEN
		RAISE EXCEPTION 'cannot detach partitions of table "%" concurrently: it has a default partition', parent_name
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      DETAIL = 'The server refuses DETACH PARTITION ... CONCURRENTLY when a default partition exists.',
			      HINT = 'Retire without concurrent => true.';
	END IF;
	IF concurrent AND EXISTS (
		SELECT FROM pg_catalog.pg_class c
		WHERE (c.oid OPERATOR(pg_catalog.=) parent
		       OR c.oid OPERATOR(pg_catalog.=) ANY (SELECT i.inhrelid FROM pg_catalog.pg_inherits i WHERE i.inhparent OPERATOR(pg_catalog.=) parent))
		  AND (c.relowner OPERATOR(pg_catalog.<>) ALL (SELECT a.oid FROM pg_catalog.pg_roles a WHERE a.rolname OPERATOR(pg_catalog.=) SESSION_USER)
		       OR c.relowner OPERATOR(pg_catalog.<>) ALL (SELECT a.oid FROM pg_catalog.pg_roles a WHERE a.rolname OPERATOR(pg_catalog.=) CURRENT_USER)
		       OR c.relowner OPERATOR(pg_catalog.<>) ALL (SELECT s.usesysid FROM pg_catalog.pg_stat_activity s
		                                                  WHERE s.pid OPERATOR(pg_catalog.=) pg_catalog.pg_backend_pid()))) THEN
		RAISE EXCEPTION 'permission denied to detach partitions of table "%" concurrently', parent_name
			USING ERRCODE = 'insufficient_privilege',
			      DETAIL = 'The statements run the partitions'' CHECK constraints with the rights of whoever runs them, outside any security-restricted operation; only a session logged in as the owner of the table and its partitions may have them.',
			      HINT = 'Connect as the table''s owner, or use concurrent => false.';
	END IF;
	IF NOT concurrent THEN
		-- one upkeep at a time per table, as idgen_create_partitions
		-- plpgsql_check: security 00000 [text type variable is not sanitized] parent_ident is made
		-- by format('%I.%I', schema, table) from pg_class and pg_namespace above, so it is quoted;
		-- plpgsql_check does not follow a variable through SELECT ... INTO.
		EXECUTE pg_catalog.format('LOCK TABLE ONLY %s IN SHARE UPDATE EXCLUSIVE MODE', parent_ident);
	END IF;

	-- the query names the schema idgen is installed in (%I of the extension's schema, from
	-- pg_extension), known only at run time; values through USING.  Its columns, for
	-- plpgsql_check, which then checks every use of r (a constant: no effect):
	PERFORM 'PRAGMA:TYPE:r (part pg_catalog.regclass, lo pg_catalog.timestamptz, hi pg_catalog.timestamptz, pending pg_catalog.bool, ident pg_catalog.text, name pg_catalog.name, owner pg_catalog.oid)';
	FOR r IN EXECUTE pg_catalog.format($q$
		SELECT p.partition AS part, p.from_time AS lo, p.to_time AS hi, p.detach_pending AS pending,
		       pg_catalog.format('%%I.%%I', n.nspname, c.relname) AS ident, c.relname AS name, c.relowner AS owner
		FROM %I.idgen_partitions($1) p
		JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) p.partition
		JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
		WHERE NOT p.is_default AND pg_catalog.isfinite(p.to_time) AND p.to_time OPERATOR(pg_catalog.<=) $2
		ORDER BY p.to_time, c.relname$q$, ext_schema)
		USING parent, older_than
	LOOP
		partition := r.ident;
		from_time := r.lo;
		to_time := r.hi;
		IF concurrent THEN
			action := 'to run';
			statement := pg_catalog.format('ALTER TABLE %s DETACH PARTITION %s %s', parent_ident, r.ident,
			                    CASE WHEN r.pending THEN 'FINALIZE' ELSE 'CONCURRENTLY' END);
			RETURN NEXT;
			IF drop_tables THEN
				statement := pg_catalog.format('DROP TABLE %s', r.ident);
				RETURN NEXT;
			END IF;
			CONTINUE;
		END IF;

		-- a session writing to it (an insert's ROW EXCLUSIVE, or stronger)
		SELECT l.pid INTO writer
		FROM pg_catalog.pg_locks l
		WHERE l.locktype OPERATOR(pg_catalog.=) 'relation' AND l.relation OPERATOR(pg_catalog.=) r.part
		  AND l.database OPERATOR(pg_catalog.=) (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())
		  AND l.pid OPERATOR(pg_catalog.<>) pg_catalog.pg_backend_pid()
		  AND l.mode OPERATOR(pg_catalog.<>) ALL ('{AccessShareLock,RowShareLock}'::pg_catalog.text[])
		LIMIT 1;
		IF FOUND THEN
			action := 'skipped';
			statement := NULL;
			RAISE NOTICE 'partition "%" is not retired: process % is writing to it', r.part::pg_catalog.text, writer;
			RETURN NEXT;
			CONTINUE;
		END IF;

		-- run as the owner of the table it changes (the partition for a drop,
		-- the parent for a detach), in a security-restricted operation; the
		-- caller needs that owner's privileges, as the statement would ask
		IF drop_tables THEN
			action := 'dropped';
			statement := pg_catalog.format('DROP TABLE %s', r.ident);
			run_as := r.owner;
			target := r.name;
		ELSE
			action := 'detached';
			statement := pg_catalog.format('ALTER TABLE %s DETACH PARTITION %s%s', parent_ident, r.ident,
			                    CASE WHEN r.pending THEN ' FINALIZE' ELSE '' END);
			run_as := parent_owner;
			target := parent_name;
		END IF;
		IF NOT pg_catalog.pg_has_role(current_user, run_as::pg_catalog.oid, 'USAGE') THEN
			RAISE EXCEPTION 'must be owner of table %', target
				USING ERRCODE = 'insufficient_privilege';
		END IF;
		EXECUTE pg_catalog.format('SELECT %I.idgen_ddl_as_owner($1, $2)', ext_schema) USING run_as, statement;
		RETURN NEXT;
	END LOOP;
END
$fn$;
COMMENT ON FUNCTION idgen_retire_partitions(pg_catalog.regclass, pg_catalog.timestamptz, boolean, boolean) IS 'detach (or, with drop_tables, drop) the partitions of a table range-partitioned by an idgen id whose whole span ends by older_than, skipping those another session is writing to; with concurrent, return the DETACH ... CONCURRENTLY statements to run at top level instead';
--
-- public ids with the key file: PARALLEL RESTRICTED.  A session keeps the
-- keys it read until the next reload, a parallel worker would read the file
-- as it is now: after the active key changed, one query would make two
-- public ids of one id.  Restricted, they run in the session's own process
-- (the scan below them still runs in parallel).  With a key argument they
-- stay PARALLEL SAFE; public_id_keys() reads the file afresh in any process.
--
ALTER FUNCTION public_id(bigint) PARALLEL RESTRICTED;
ALTER FUNCTION public_id(distid) PARALLEL RESTRICTED;
ALTER FUNCTION public_id(pg_catalog.uuid) PARALLEL RESTRICTED;
ALTER FUNCTION public_id(iuid) PARALLEL RESTRICTED;
ALTER FUNCTION public_id_to_bigint(pg_catalog.uuid) PARALLEL RESTRICTED;
ALTER FUNCTION public_id_to_distid(pg_catalog.uuid) PARALLEL RESTRICTED;
ALTER FUNCTION public_id_to_uuid(pg_catalog.uuid) PARALLEL RESTRICTED;
--
-- Comparisons with the nearest core types, for the parameters drivers send
-- (a uuid for an iuid; a numeric or an integer for a distid), as members of
-- the types' operator families so that an index on the idgen column serves
-- them.  They compare values and never validate.  An integer (bigint,
-- integer, smallint) reaches distid = numeric through its implicit cast to
-- numeric: operators of their own would make distid's btree family
-- incomplete (core has no numeric = bigint to complete it with), and the
-- cast is exact.  iuid and uuid are the same
-- 16 bytes in the same order and hash alike, so they share the btree and the
-- hash family (with core's uuid operators and support functions added, for
-- merge and hash joins).  distid shares its btree family with numeric (and
-- numeric's own operators, for merge joins and = ANY(array)); not its hash
-- family: distid's hash is that of its 12 bytes, not numeric's, and changing
-- it would re-place every row of an existing hash index or hash partition.
--
CREATE FUNCTION iuid_uuid_eq(iuid, pg_catalog.uuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'iuid_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_uuid_ne(iuid, pg_catalog.uuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'iuid_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_uuid_lt(iuid, pg_catalog.uuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'iuid_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_uuid_le(iuid, pg_catalog.uuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'iuid_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_uuid_gt(iuid, pg_catalog.uuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'iuid_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_uuid_ge(iuid, pg_catalog.uuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'iuid_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION iuid_uuid_cmp(iuid, pg_catalog.uuid) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME', 'iuid_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION iuid_uuid_eq(iuid, pg_catalog.uuid) IS 'implementation of = operator';
COMMENT ON FUNCTION iuid_uuid_ne(iuid, pg_catalog.uuid) IS 'implementation of <> operator';
COMMENT ON FUNCTION iuid_uuid_lt(iuid, pg_catalog.uuid) IS 'implementation of < operator';
COMMENT ON FUNCTION iuid_uuid_le(iuid, pg_catalog.uuid) IS 'implementation of <= operator';
COMMENT ON FUNCTION iuid_uuid_gt(iuid, pg_catalog.uuid) IS 'implementation of > operator';
COMMENT ON FUNCTION iuid_uuid_ge(iuid, pg_catalog.uuid) IS 'implementation of >= operator';
COMMENT ON FUNCTION iuid_uuid_cmp(iuid, pg_catalog.uuid) IS 'less-equal-greater';
CREATE OPERATOR = (
	LEFTARG = iuid, RIGHTARG = pg_catalog.uuid, PROCEDURE = iuid_uuid_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = iuid, RIGHTARG = pg_catalog.uuid, PROCEDURE = iuid_uuid_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
	LEFTARG = iuid, RIGHTARG = pg_catalog.uuid, PROCEDURE = iuid_uuid_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = iuid, RIGHTARG = pg_catalog.uuid, PROCEDURE = iuid_uuid_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = iuid, RIGHTARG = pg_catalog.uuid, PROCEDURE = iuid_uuid_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = iuid, RIGHTARG = pg_catalog.uuid, PROCEDURE = iuid_uuid_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
COMMENT ON OPERATOR = (iuid, pg_catalog.uuid) IS 'equal, iuid and uuid by their bytes';
COMMENT ON OPERATOR <> (iuid, pg_catalog.uuid) IS 'not equal, iuid and uuid by their bytes';
COMMENT ON OPERATOR < (iuid, pg_catalog.uuid) IS 'less than, iuid and uuid by their bytes';
COMMENT ON OPERATOR <= (iuid, pg_catalog.uuid) IS 'less than or equal, iuid and uuid by their bytes';
COMMENT ON OPERATOR > (iuid, pg_catalog.uuid) IS 'greater than, iuid and uuid by their bytes';
COMMENT ON OPERATOR >= (iuid, pg_catalog.uuid) IS 'greater than or equal, iuid and uuid by their bytes';
CREATE FUNCTION uuid_iuid_eq(pg_catalog.uuid, iuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'iuid_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_iuid_ne(pg_catalog.uuid, iuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'iuid_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_iuid_lt(pg_catalog.uuid, iuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'iuid_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_iuid_le(pg_catalog.uuid, iuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'iuid_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_iuid_gt(pg_catalog.uuid, iuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'iuid_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_iuid_ge(pg_catalog.uuid, iuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'iuid_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_iuid_cmp(pg_catalog.uuid, iuid) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME', 'iuid_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_iuid_eq(pg_catalog.uuid, iuid) IS 'implementation of = operator';
COMMENT ON FUNCTION uuid_iuid_ne(pg_catalog.uuid, iuid) IS 'implementation of <> operator';
COMMENT ON FUNCTION uuid_iuid_lt(pg_catalog.uuid, iuid) IS 'implementation of < operator';
COMMENT ON FUNCTION uuid_iuid_le(pg_catalog.uuid, iuid) IS 'implementation of <= operator';
COMMENT ON FUNCTION uuid_iuid_gt(pg_catalog.uuid, iuid) IS 'implementation of > operator';
COMMENT ON FUNCTION uuid_iuid_ge(pg_catalog.uuid, iuid) IS 'implementation of >= operator';
COMMENT ON FUNCTION uuid_iuid_cmp(pg_catalog.uuid, iuid) IS 'less-equal-greater';
CREATE OPERATOR = (
	LEFTARG = pg_catalog.uuid, RIGHTARG = iuid, PROCEDURE = uuid_iuid_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = pg_catalog.uuid, RIGHTARG = iuid, PROCEDURE = uuid_iuid_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
	LEFTARG = pg_catalog.uuid, RIGHTARG = iuid, PROCEDURE = uuid_iuid_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = pg_catalog.uuid, RIGHTARG = iuid, PROCEDURE = uuid_iuid_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = pg_catalog.uuid, RIGHTARG = iuid, PROCEDURE = uuid_iuid_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = pg_catalog.uuid, RIGHTARG = iuid, PROCEDURE = uuid_iuid_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
COMMENT ON OPERATOR = (pg_catalog.uuid, iuid) IS 'equal, uuid and iuid by their bytes';
COMMENT ON OPERATOR <> (pg_catalog.uuid, iuid) IS 'not equal, uuid and iuid by their bytes';
COMMENT ON OPERATOR < (pg_catalog.uuid, iuid) IS 'less than, uuid and iuid by their bytes';
COMMENT ON OPERATOR <= (pg_catalog.uuid, iuid) IS 'less than or equal, uuid and iuid by their bytes';
COMMENT ON OPERATOR > (pg_catalog.uuid, iuid) IS 'greater than, uuid and iuid by their bytes';
COMMENT ON OPERATOR >= (pg_catalog.uuid, iuid) IS 'greater than or equal, uuid and iuid by their bytes';
ALTER OPERATOR FAMILY iuid_ops USING btree ADD
		OPERATOR 1 < (iuid, pg_catalog.uuid),
		OPERATOR 2 <= (iuid, pg_catalog.uuid),
		OPERATOR 3 = (iuid, pg_catalog.uuid),
		OPERATOR 4 >= (iuid, pg_catalog.uuid),
		OPERATOR 5 > (iuid, pg_catalog.uuid),
		FUNCTION 1 (iuid, pg_catalog.uuid) iuid_uuid_cmp(iuid, pg_catalog.uuid),
		OPERATOR 1 < (pg_catalog.uuid, iuid),
		OPERATOR 2 <= (pg_catalog.uuid, iuid),
		OPERATOR 3 = (pg_catalog.uuid, iuid),
		OPERATOR 4 >= (pg_catalog.uuid, iuid),
		OPERATOR 5 > (pg_catalog.uuid, iuid),
		FUNCTION 1 (pg_catalog.uuid, iuid) uuid_iuid_cmp(pg_catalog.uuid, iuid),
		OPERATOR 1 pg_catalog.< (pg_catalog.uuid, pg_catalog.uuid),
		OPERATOR 2 pg_catalog.<= (pg_catalog.uuid, pg_catalog.uuid),
		OPERATOR 3 pg_catalog.= (pg_catalog.uuid, pg_catalog.uuid),
		OPERATOR 4 pg_catalog.>= (pg_catalog.uuid, pg_catalog.uuid),
		OPERATOR 5 pg_catalog.> (pg_catalog.uuid, pg_catalog.uuid),
		FUNCTION 1 (pg_catalog.uuid, pg_catalog.uuid) pg_catalog.uuid_cmp(pg_catalog.uuid, pg_catalog.uuid),
		FUNCTION 2 (pg_catalog.uuid, pg_catalog.uuid) pg_catalog.uuid_sortsupport(pg_catalog.internal);
ALTER OPERATOR FAMILY iuid_ops USING hash ADD
		OPERATOR 1 = (iuid, pg_catalog.uuid),
		OPERATOR 1 = (pg_catalog.uuid, iuid),
		OPERATOR 1 pg_catalog.= (pg_catalog.uuid, pg_catalog.uuid),
		FUNCTION 1 (pg_catalog.uuid, pg_catalog.uuid) pg_catalog.uuid_hash(pg_catalog.uuid),
		FUNCTION 2 (pg_catalog.uuid, pg_catalog.uuid) pg_catalog.uuid_hash_extended(pg_catalog.uuid, pg_catalog.int8);
CREATE FUNCTION distid_numeric_eq(distid, numeric) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION distid_numeric_ne(distid, numeric) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION distid_numeric_lt(distid, numeric) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION distid_numeric_le(distid, numeric) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION distid_numeric_gt(distid, numeric) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION distid_numeric_ge(distid, numeric) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION distid_numeric_cmp(distid, numeric) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION distid_numeric_eq(distid, numeric) IS 'implementation of = operator';
COMMENT ON FUNCTION distid_numeric_ne(distid, numeric) IS 'implementation of <> operator';
COMMENT ON FUNCTION distid_numeric_lt(distid, numeric) IS 'implementation of < operator';
COMMENT ON FUNCTION distid_numeric_le(distid, numeric) IS 'implementation of <= operator';
COMMENT ON FUNCTION distid_numeric_gt(distid, numeric) IS 'implementation of > operator';
COMMENT ON FUNCTION distid_numeric_ge(distid, numeric) IS 'implementation of >= operator';
COMMENT ON FUNCTION distid_numeric_cmp(distid, numeric) IS 'less-equal-greater';
CREATE OPERATOR = (
	LEFTARG = distid, RIGHTARG = numeric, PROCEDURE = distid_numeric_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = distid, RIGHTARG = numeric, PROCEDURE = distid_numeric_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
	LEFTARG = distid, RIGHTARG = numeric, PROCEDURE = distid_numeric_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = distid, RIGHTARG = numeric, PROCEDURE = distid_numeric_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = distid, RIGHTARG = numeric, PROCEDURE = distid_numeric_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = distid, RIGHTARG = numeric, PROCEDURE = distid_numeric_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
COMMENT ON OPERATOR = (distid, numeric) IS 'equal, distid and numeric by value';
COMMENT ON OPERATOR <> (distid, numeric) IS 'not equal, distid and numeric by value';
COMMENT ON OPERATOR < (distid, numeric) IS 'less than, distid and numeric by value';
COMMENT ON OPERATOR <= (distid, numeric) IS 'less than or equal, distid and numeric by value';
COMMENT ON OPERATOR > (distid, numeric) IS 'greater than, distid and numeric by value';
COMMENT ON OPERATOR >= (distid, numeric) IS 'greater than or equal, distid and numeric by value';
CREATE FUNCTION numeric_distid_eq(numeric, distid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION numeric_distid_ne(numeric, distid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION numeric_distid_lt(numeric, distid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION numeric_distid_le(numeric, distid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION numeric_distid_gt(numeric, distid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION numeric_distid_ge(numeric, distid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION numeric_distid_cmp(numeric, distid) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION numeric_distid_eq(numeric, distid) IS 'implementation of = operator';
COMMENT ON FUNCTION numeric_distid_ne(numeric, distid) IS 'implementation of <> operator';
COMMENT ON FUNCTION numeric_distid_lt(numeric, distid) IS 'implementation of < operator';
COMMENT ON FUNCTION numeric_distid_le(numeric, distid) IS 'implementation of <= operator';
COMMENT ON FUNCTION numeric_distid_gt(numeric, distid) IS 'implementation of > operator';
COMMENT ON FUNCTION numeric_distid_ge(numeric, distid) IS 'implementation of >= operator';
COMMENT ON FUNCTION numeric_distid_cmp(numeric, distid) IS 'less-equal-greater';
CREATE OPERATOR = (
	LEFTARG = numeric, RIGHTARG = distid, PROCEDURE = numeric_distid_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = numeric, RIGHTARG = distid, PROCEDURE = numeric_distid_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
	LEFTARG = numeric, RIGHTARG = distid, PROCEDURE = numeric_distid_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = numeric, RIGHTARG = distid, PROCEDURE = numeric_distid_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = numeric, RIGHTARG = distid, PROCEDURE = numeric_distid_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = numeric, RIGHTARG = distid, PROCEDURE = numeric_distid_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
COMMENT ON OPERATOR = (numeric, distid) IS 'equal, numeric and distid by value';
COMMENT ON OPERATOR <> (numeric, distid) IS 'not equal, numeric and distid by value';
COMMENT ON OPERATOR < (numeric, distid) IS 'less than, numeric and distid by value';
COMMENT ON OPERATOR <= (numeric, distid) IS 'less than or equal, numeric and distid by value';
COMMENT ON OPERATOR > (numeric, distid) IS 'greater than, numeric and distid by value';
COMMENT ON OPERATOR >= (numeric, distid) IS 'greater than or equal, numeric and distid by value';
ALTER OPERATOR FAMILY distid_ops USING btree ADD
		OPERATOR 1 < (distid, numeric),
		OPERATOR 2 <= (distid, numeric),
		OPERATOR 3 = (distid, numeric),
		OPERATOR 4 >= (distid, numeric),
		OPERATOR 5 > (distid, numeric),
		FUNCTION 1 (distid, numeric) distid_numeric_cmp(distid, numeric),
		OPERATOR 1 < (numeric, distid),
		OPERATOR 2 <= (numeric, distid),
		OPERATOR 3 = (numeric, distid),
		OPERATOR 4 >= (numeric, distid),
		OPERATOR 5 > (numeric, distid),
		FUNCTION 1 (numeric, distid) numeric_distid_cmp(numeric, distid),
		OPERATOR 1 pg_catalog.< (numeric, numeric),
		OPERATOR 2 pg_catalog.<= (numeric, numeric),
		OPERATOR 3 pg_catalog.= (numeric, numeric),
		OPERATOR 4 pg_catalog.>= (numeric, numeric),
		OPERATOR 5 pg_catalog.> (numeric, numeric),
		FUNCTION 1 (numeric, numeric) pg_catalog.numeric_cmp(numeric, numeric),
		FUNCTION 2 (numeric, numeric) pg_catalog.numeric_sortsupport(pg_catalog.internal);
CREATE FUNCTION distid_numeric_hash(numeric) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION distid_numeric_hash_extended(numeric, pg_catalog.int8) RETURNS pg_catalog.int8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION distid_numeric_hash(numeric) IS 'hash of a numeric in distid''s hash family: as the distid it equals, else as numeric';
COMMENT ON FUNCTION distid_numeric_hash_extended(numeric, pg_catalog.int8) IS 'hash of a numeric in distid''s hash family: as the distid it equals, else as numeric';
ALTER OPERATOR FAMILY distid_ops USING hash ADD
		OPERATOR 1 = (distid, numeric),
		OPERATOR 1 = (numeric, distid),
		OPERATOR 1 pg_catalog.= (numeric, numeric),
		FUNCTION 1 (numeric, numeric) distid_numeric_hash(numeric),
		FUNCTION 2 (numeric, numeric) distid_numeric_hash_extended(numeric, pg_catalog.int8);

--
-- other roles' objects in idgen's schema
--

-- idgen is relocatable and may share its schema.  What another role made
-- there under one of idgen's names (while it could create in the schema, as
-- every role could in public before PostgreSQL 15) can be chosen over
-- idgen's for a call, even with the schema named, and runs with the
-- caller's privileges: an overload of a function's name (a literal suits a
-- text argument better); a type or domain named as a function
-- (name('literal') is a cast to a type of that name when no function
-- matches exactly, which a literal never does); an operator of one of its
-- operators' names on one of its types, an array of one, a domain over one,
-- or a polymorphic type.  Listed here with trusted: whether the owner is a
-- superuser or a role that can act as the schema's owner (who may create
-- in it), as core trusts them; an owner tells who may change an object,
-- not who wrote it (REASSIGN OWNED, a restore without owners).  Members of
-- other extensions are listed too: the owner of a trusted extension may
-- add its own objects to it.  The install and the update refuse a schema holding an
-- untrusted one; ALTER EXTENSION ... SET SCHEMA runs no script, so $1 (the
-- body reads it so: the scripts run the body itself) names a schema to look
-- at first.
CREATE FUNCTION idgen_check_schema(target pg_catalog.regnamespace DEFAULT NULL,
                                   OUT object pg_catalog.text, OUT owner pg_catalog.name, OUT trusted pg_catalog.bool)
RETURNS SETOF pg_catalog.record
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
WITH ours AS (
	SELECT d.classid, d.objid, coalesce($1::pg_catalog.oid, e.extnamespace) AS nsp
	FROM pg_catalog.pg_extension e
		JOIN pg_catalog.pg_depend d ON d.refobjid OPERATOR(pg_catalog.=) e.oid
			AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
			AND d.deptype OPERATOR(pg_catalog.=) 'e'
	WHERE e.extname OPERATOR(pg_catalog.=) 'idgen'
), our_names AS (
	SELECT p.proname AS name FROM ours JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) ours.objid
	WHERE ours.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
	UNION
	SELECT t.typname FROM ours JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) ours.objid
	WHERE ours.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass
), our_types AS (
	-- idgen's types, their arrays and domains over them, at any depth
	WITH RECURSIVE d(oid) AS (
		SELECT t.oid FROM ours JOIN pg_catalog.pg_type t
			ON t.oid OPERATOR(pg_catalog.=) ours.objid OR t.typelem OPERATOR(pg_catalog.=) ours.objid
		WHERE ours.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass
		UNION
		SELECT t.oid FROM d JOIN pg_catalog.pg_type t
			ON t.typbasetype OPERATOR(pg_catalog.=) d.oid OR t.typelem OPERATOR(pg_catalog.=) d.oid
	)
	SELECT d.oid FROM d
	UNION
	SELECT t.oid FROM pg_catalog.pg_type t WHERE t.typtype OPERATOR(pg_catalog.=) 'p'
), candidates AS (
	-- a range's or multirange's constructor belongs to the bootstrap
	-- superuser: judged by its type's owner
	SELECT 'pg_catalog.pg_proc'::pg_catalog.regclass AS classid, p.oid AS objid, p.pronamespace AS nsp,
		   coalesce((SELECT t.typowner FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) d.refobjid
					 WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass AND d.objid OPERATOR(pg_catalog.=) p.oid
						AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass
						AND d.deptype OPERATOR(pg_catalog.=) 'i' LIMIT 1), p.proowner) AS owner
	FROM pg_catalog.pg_proc p
	WHERE p.pronamespace OPERATOR(pg_catalog.=) (SELECT ours.nsp FROM ours LIMIT 1)
		AND EXISTS (SELECT FROM our_names WHERE our_names.name OPERATOR(pg_catalog.=) p.proname)
	UNION ALL
	-- (not a relation's or composite type's row type: name('literal') is
	-- never a cast to one)
	SELECT 'pg_catalog.pg_type'::pg_catalog.regclass, t.oid, t.typnamespace, t.typowner
	FROM pg_catalog.pg_type t
	WHERE t.typnamespace OPERATOR(pg_catalog.=) (SELECT ours.nsp FROM ours LIMIT 1)
		AND t.typrelid OPERATOR(pg_catalog.=) 0
		AND EXISTS (SELECT FROM our_names WHERE our_names.name OPERATOR(pg_catalog.=) t.typname)
	UNION ALL
	SELECT 'pg_catalog.pg_operator'::pg_catalog.regclass, o.oid, o.oprnamespace, o.oprowner
	FROM pg_catalog.pg_operator o
	WHERE o.oprnamespace OPERATOR(pg_catalog.=) (SELECT ours.nsp FROM ours LIMIT 1)
		AND EXISTS (SELECT FROM ours JOIN pg_catalog.pg_operator q ON q.oid OPERATOR(pg_catalog.=) ours.objid
					WHERE ours.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass
						AND q.oprname OPERATOR(pg_catalog.=) o.oprname)
		AND EXISTS (SELECT FROM our_types
					WHERE our_types.oid OPERATOR(pg_catalog.=) o.oprleft OR our_types.oid OPERATOR(pg_catalog.=) o.oprright)
)
SELECT pg_catalog.pg_describe_object(c.classid, c.objid, 0), r.rolname,
	   -- a role that can act as the schema's owner.  Before 16 every member
	   -- may SET ROLE to it.  From 16 on a membership may allow nothing
	   -- (WITH INHERIT FALSE, SET FALSE), at any link of a chain: the role
	   -- must be able to SET ROLE (to itself, at least) to a superuser, to a
	   -- role with the owner's privileges, or to one with the privileges of
	   -- a holder of ADMIN OPTION on the owner, which may grant itself the
	   -- rest (for public, owned by pg_database_owner: on the database's
	   -- owner), unless the owner is a superuser, which only a superuser may
	   -- grant
	   r.rolsuper OR CASE WHEN pg_catalog.current_setting('server_version_num')::pg_catalog.int4 OPERATOR(pg_catalog.<) 160000
			THEN pg_catalog.pg_has_role(r.oid, n.nspowner, 'MEMBER')
			ELSE EXISTS (SELECT FROM pg_catalog.pg_roles b
				WHERE pg_catalog.pg_has_role(r.oid, b.oid, 'SET')
					AND (b.rolsuper OR pg_catalog.pg_has_role(b.oid, n.nspowner, 'USAGE')
						OR EXISTS (SELECT FROM pg_catalog.pg_auth_members m
							WHERE m.admin_option
								AND NOT EXISTS (SELECT FROM pg_catalog.pg_roles s
									WHERE s.oid OPERATOR(pg_catalog.=) m.roleid AND s.rolsuper)
								AND (m.roleid OPERATOR(pg_catalog.=) n.nspowner
									OR (n.nspowner OPERATOR(pg_catalog.=) 'pg_database_owner'::pg_catalog.regrole
										AND m.roleid OPERATOR(pg_catalog.=) (SELECT d.datdba FROM pg_catalog.pg_database d
											WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())))
								AND pg_catalog.pg_has_role(b.oid, m.member, 'USAGE')))) END
FROM candidates c
	JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.nsp
	JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) c.owner
WHERE NOT EXISTS (SELECT FROM ours WHERE ours.classid OPERATOR(pg_catalog.=) c.classid AND ours.objid OPERATOR(pg_catalog.=) c.objid)
ORDER BY 3, 1, 2
$fn$;
COMMENT ON FUNCTION idgen_check_schema(pg_catalog.regnamespace) IS 'objects of other roles in idgen''s schema (or in target) that a call of idgen''s could resolve to, and whether their owners are trusted';

-- The install and the update refuse a schema holding an untrusted one.  The
-- function's body is run, not called: no overload of its name can stand in.
-- Its rows come untrusted first.
DO $$
DECLARE
	what pg_catalog.text;
	who pg_catalog.name;
	ok pg_catalog.bool;
BEGIN
	-- the function's search_path, so that objects are named by schema (until
	-- the script's end, when CREATE EXTENSION restores its own)
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	EXECUTE (SELECT p.prosrc FROM pg_catalog.pg_proc p
			 JOIN pg_catalog.pg_depend d ON d.objid OPERATOR(pg_catalog.=) p.oid
				AND d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
				AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
				AND d.deptype OPERATOR(pg_catalog.=) 'e'
			 JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
			 WHERE e.extname OPERATOR(pg_catalog.=) 'idgen' AND p.proname OPERATOR(pg_catalog.=) 'idgen_check_schema')
		INTO what, who, ok USING NULL::pg_catalog.regnamespace;
	IF NOT ok THEN
		-- (the names in it are the role's, which may hold line breaks: each
		-- control character shown as ?)
		RAISE EXCEPTION '% of role % is in idgen''s schema',
			pg_catalog.regexp_replace(what, '[[:cntrl:]]', '?', 'g'), pg_catalog.quote_ident(who)
			USING ERRCODE = '42501',
				DETAIL = 'A call of idgen''s function or operator of its name could run it with the caller''s privileges.',
				HINT = 'Drop it, or install idgen into a schema no other role can create objects in.';
	END IF;
END
$$;
