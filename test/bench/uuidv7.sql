-- test/bench/uuidv7.sql: the UUIDv7 functions people paste into their
-- schemas where the server has no uuidv7() (before PostgreSQL 18) or no
-- extension of their choice (hosted services), peers of idgen in
-- test/bench/bench.sh and of its SQL edition in test/bench/portable.sh.
-- The widely copied PL/pgSQL version: a v4 uuid with the millisecond time
-- laid over its first 6 bytes by overlay() and int8send(), and set_bit()
-- turning version 4 into 7.
CREATE FUNCTION uuid_generate_v7() RETURNS uuid LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	RETURN encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
		PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
		FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid;
END $$;
-- and its plain SQL twin, one expression, which the planner inlines
CREATE FUNCTION uuid_generate_v7_sql() RETURNS uuid LANGUAGE sql VOLATILE AS $$
	SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
		PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
		FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
$$;
