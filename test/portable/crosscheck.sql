-- Helpers of test/portable/t/002_crosscheck.pl, in a database with both
-- editions: idgen (C) in schema public, idgen_portable in its own.

\ir try.sql

-- Malformed text, generated from valid seeds: every prefix, every
-- character deleted, and at every position each character of a set
-- (alphabet neighbours, separators, braces, space, non-ASCII) put in place
-- of the one there or inserted before it; plus the seeds themselves.
CREATE FUNCTION xc.mutations(seeds text[], chars text[]) RETURNS SETOF text LANGUAGE sql AS $$
	SELECT DISTINCT m FROM unnest(seeds) AS s,
		LATERAL (
			SELECT s
			UNION ALL SELECT left(s, p) FROM generate_series(0, length(s) - 1) p
			UNION ALL SELECT overlay(s PLACING '' FROM p FOR 1) FROM generate_series(1, length(s)) p
			UNION ALL SELECT overlay(s PLACING c FROM p FOR 1)
				FROM generate_series(1, length(s)) p, unnest(chars) c
			UNION ALL SELECT overlay(s PLACING c FROM p FOR 0)
				FROM generate_series(1, length(s) + 1) p, unnest(chars) c
		) AS x(m)
$$;

-- decoder, the C expression and the SQL edition's, %L the input
CREATE TABLE xc.decoders (decoder text PRIMARY KEY, c_expr text, sql_expr text);
INSERT INTO xc.decoders VALUES
	('iuid', 'SELECT %L::public.iuid', 'SELECT idgen_portable.iuid(%L::text)'),
	('distid', 'SELECT %L::public.distid', 'SELECT idgen_portable.distid(%L::text)'),
	('flaxid', 'SELECT %L::public.flaxid', 'SELECT idgen_portable.flaxid(%L::text)'),
	('distid_alnum', 'SELECT public.distid_from_alphanumeric(%L)', 'SELECT idgen_portable.distid_from_alphanumeric(%L)'),
	('distid_hex', 'SELECT public.distid_from_hex(%L)', 'SELECT idgen_portable.distid_from_hex(%L)'),
	('uuid_alnum', 'SELECT public.uuid_from_alphanumeric(%L)', 'SELECT idgen_portable.uuid_from_alphanumeric(%L)'),
	('bigint_alnum', 'SELECT public.bigint_from_alphanumeric(%L)', 'SELECT idgen_portable.bigint_from_alphanumeric(%L)'),
	-- numbers as distids (the cast numeric to distid)
	('distid_numeric', 'SELECT %L::numeric::public.distid', 'SELECT idgen_portable.distid(%L::numeric)'),
	('distid_timestamp', 'SELECT public.distid_timestamp(%L::numeric::public.distid)', 'SELECT idgen_portable.distid_timestamp(%L::numeric)'),
	('distid_to_alnum', 'SELECT public.distid_to_alphanumeric(%L::numeric::public.distid)', 'SELECT idgen_portable.distid_to_alphanumeric(%L::numeric)'),
	('distid_to_hex', 'SELECT public.distid_to_hex(%L::numeric::public.distid)', 'SELECT idgen_portable.distid_to_hex(%L::numeric)'),
	-- uuids as iuids and DistributedId128s
	('iuid_uuid', 'SELECT %L::uuid::public.iuid', 'SELECT idgen_portable.iuid(%L::uuid)'),
	('iuid_timestamp', 'SELECT public.iuid_timestamp(%L::uuid::public.iuid)', 'SELECT idgen_portable.iuid_timestamp(%L::uuid)'),
	('iuid_country', 'SELECT public.iuid_country(%L::uuid::public.iuid)', 'SELECT idgen_portable.iuid_country(%L::uuid)'),
	('iuid_entity', 'SELECT public.iuid_entity(%L::uuid::public.iuid)', 'SELECT idgen_portable.iuid_entity(%L::uuid)'),
	('iuid_format_version', 'SELECT public.iuid_format_version(%L::uuid::public.iuid)', 'SELECT idgen_portable.iuid_format_version(%L::uuid)'),
	('distid128_timestamp', 'SELECT public.distid128_timestamp(%L::uuid)', 'SELECT idgen_portable.distid128_timestamp(%L::uuid)'),
	('flaxid_timestamp', 'SELECT public.flaxid_timestamp(%L::public.flaxid)', 'SELECT idgen_portable.flaxid_timestamp(%L)'),
	-- bigints: alphanumeric form, public id (key: the formats' published key)
	('bigint_to_alnum', 'SELECT public.bigint_to_alphanumeric(%L::bigint)', 'SELECT idgen_portable.bigint_to_alphanumeric(%L::bigint)'),
	('public_id_bigint', 'SELECT public.public_id(%L::bigint, xc.key())', 'SELECT idgen_portable.public_id(%L::bigint, xc.key())'),
	('public_id_distid', 'SELECT public.public_id(%L::numeric::public.distid, xc.key())', 'SELECT idgen_portable.public_id(%L::numeric, xc.key())'),
	-- keys of every length (hex): 16, 24 and 32 bytes only
	('public_id_key', 'SELECT public.public_id(42::bigint, %L::bytea)', 'SELECT idgen_portable.public_id(42::bigint, %L::bytea)'),
	('public_id_key_decode', 'SELECT public.public_id_to_uuid(''30322474-a954-ffa9-941c-6f038afe4ff1'', %L::bytea)',
	 'SELECT idgen_portable.public_id_to_uuid(''30322474-a954-ffa9-941c-6f038afe4ff1'', %L::bytea)'),
	-- public ids to decode: made with the key or not, of any kind
	('public_id_to_bigint', 'SELECT public.public_id_to_bigint(%L::uuid, xc.key())', 'SELECT idgen_portable.public_id_to_bigint(%L::uuid, xc.key())'),
	('public_id_to_distid', 'SELECT public.public_id_to_distid(%L::uuid, xc.key())', 'SELECT idgen_portable.public_id_to_distid(%L::uuid, xc.key())'),
	('public_id_to_uuid', 'SELECT public.public_id_to_uuid(%L::uuid, xc.key())', 'SELECT idgen_portable.public_id_to_uuid(%L::uuid, xc.key())'),
	-- generator arguments: a country and an entity ("c,e"), the result's fields
	('iuid_generate_args', 'SELECT public.iuid_country(x) || '','' || public.iuid_entity(x) FROM public.iuid_generate(split_part(%1$L, '','', 1)::int, split_part(%1$L, '','', 2)::int) x',
	 'SELECT idgen_portable.iuid_country(x) || '','' || idgen_portable.iuid_entity(x) FROM idgen_portable.iuid_generate(split_part(%1$L, '','', 1)::int, split_part(%1$L, '','', 2)::int) x'),
	-- times: the bounds of every type, and backfill
	('iuid_from_timestamp', 'SELECT public.iuid_from_timestamp(%L::timestamptz)', 'SELECT idgen_portable.iuid_from_timestamp(%L::timestamptz)'),
	('iuid_max_for_timestamp', 'SELECT public.iuid_max_for_timestamp(%L::timestamptz)', 'SELECT idgen_portable.iuid_max_for_timestamp(%L::timestamptz)'),
	('distid_from_timestamp', 'SELECT public.distid_from_timestamp(%L::timestamptz)', 'SELECT idgen_portable.distid_from_timestamp(%L::timestamptz)'),
	('distid_max_for_timestamp', 'SELECT public.distid_max_for_timestamp(%L::timestamptz)', 'SELECT idgen_portable.distid_max_for_timestamp(%L::timestamptz)'),
	('distid128_from_timestamp', 'SELECT public.distid128_from_timestamp(%L::timestamptz)', 'SELECT idgen_portable.distid128_from_timestamp(%L::timestamptz)'),
	('distid128_max_for_timestamp', 'SELECT public.distid128_max_for_timestamp(%L::timestamptz)', 'SELECT idgen_portable.distid128_max_for_timestamp(%L::timestamptz)'),
	('flaxid_from_timestamp', 'SELECT public.flaxid_from_timestamp(%L::timestamptz)', 'SELECT idgen_portable.flaxid_from_timestamp(%L::timestamptz)'),
	('flaxid_max_for_timestamp', 'SELECT public.flaxid_max_for_timestamp(%L::timestamptz)', 'SELECT idgen_portable.flaxid_max_for_timestamp(%L::timestamptz)'),
	('iuid_backfill', 'SELECT public.iuid_timestamp(public.iuid_generate(1, 2, %L::timestamptz))', 'SELECT idgen_portable.iuid_timestamp(idgen_portable.iuid_generate(1, 2, %L::timestamptz))');

-- the formats' published AES-256 key (SPEC.md, public identities)
CREATE FUNCTION xc.key() RETURNS bytea LANGUAGE sql IMMUTABLE AS
	$$SELECT decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')$$;

CREATE TABLE xc.inputs (decoder text REFERENCES xc.decoders, input text, UNIQUE (decoder, input));

-- the characters put into text
CREATE FUNCTION xc.chars() RETURNS text[] LANGUAGE sql IMMUTABLE AS
	$$SELECT ARRAY['0', 'a', 'g', 'F', 'Z', 'z', '-', '_', '{', '}', ' ', 'é', '€']$$;

INSERT INTO xc.inputs SELECT 'iuid', m FROM xc.mutations(ARRAY[
	'017f22e2-79b0-802a-8141-23456789abcd', '{017F22E279B0802A814123456789ABCD}'], xc.chars()) m;
INSERT INTO xc.inputs SELECT 'iuid', m FROM xc.mutations(ARRAY['017f-22e2-79b0-80ff-bfff-ffff-ffff-ffff'],
	ARRAY['0', 'g', '-', '}']) m ON CONFLICT DO NOTHING;
INSERT INTO xc.inputs SELECT 'iuid', i FROM unnest(ARRAY['', '{', '}', '{}', ' ', '-', '--', '{-}',
	'017f22e2-79b0-802a-8141-23456789abcd ', ' 017f22e2-79b0-802a-8141-23456789abcd',
	'017f22e2-79b0-802a-8141-23456789abcd}', '{017f22e2-79b0-802a-8141-23456789abcd',
	'017f22e2-79b0-802a-8141-23456789abcd-', '017f22e2-79b0-802a-8141-23456789abcd00',
	'017f22e279b0802a814123456789abcd0', '017f22e2--79b0-802a-8141-23456789abcd',
	'{{017f22e2-79b0-802a-8141-23456789abcd}}']) i ON CONFLICT DO NOTHING;
INSERT INTO xc.inputs SELECT 'distid', m FROM xc.mutations(ARRAY[
	'1088824355131185736905670087', '0'], xc.chars()) m;
INSERT INTO xc.inputs SELECT 'distid', i FROM unnest(ARRAY['', ' ', '+1', '-1', '1.0', '1e3', '0x10',
	'10000000000000000000000000000', '99999999999999999999999999999999999', '00000000000000000000000000000000042',
	'9999999999999999999999999999x', repeat('9', 60),
	-- beyond the 131072 digits numeric reads (atk6: core's "value overflows
	-- numeric format" then, not distid's error), and zeros before a digit
	repeat('9', 131072), repeat('9', 131073), repeat('0', 131073) || '7']) i ON CONFLICT DO NOTHING;
INSERT INTO xc.inputs SELECT 'flaxid', m FROM xc.mutations(ARRAY['0RdKJcxqVBiAiQr0', 'zzzzzzzzzzzzzzzz'], xc.chars()) m;
INSERT INTO xc.inputs SELECT 'distid_alnum', m FROM xc.mutations(ARRAY['3zfAkCP7ZtzfeQYp', 'BzzzzLygxsJmLzzz'], xc.chars()) m;
INSERT INTO xc.inputs SELECT 'distid_alnum', i FROM unnest(ARRAY['AzL8n0Y58m7LzzzZ', 'AzL8n0Y58m7Lzzz0',
	'AzL8n0Y58m7M0000', 'zzzzzzzzzzzzzzzz', '0000000000000000', '00000LygHa16AHYF', '00000LygHa16AHYG',
	'00000zzzzzzzzzzz']) i ON CONFLICT DO NOTHING;
INSERT INTO xc.inputs SELECT 'distid_hex', m FROM xc.mutations(ARRAY['000384A786907DB2AD82883DC7',
	'204fce5e3e25026110000000ff'], xc.chars()) m;
INSERT INTO xc.inputs SELECT 'distid_hex', i FROM unnest(ARRAY['204FCE5E3E25026110000000000', '204FCE5E3E25026110000000',
	'204FCE5E3E25026110000000', '204FCE5E3E2502610FFFFFFFFF', '204FCE5E3E25026110000000', 'FFFFFFFFFFFFFFFFFFFFFFFFFF',
	'00000000000000000000000000']) i ON CONFLICT DO NOTHING;
INSERT INTO xc.inputs SELECT 'uuid_alnum', m FROM xc.mutations(ARRAY['48XoooHHCe1CiOHrghM7Dl',
	'LygHa16AHYG00000000000'], xc.chars()) m;
INSERT INTO xc.inputs SELECT 'uuid_alnum', i FROM unnest(ARRAY['LygHa16AHYFLygHa16AHYF', 'LygHa16AHYFLygHa16AHYG',
	'zzzzzzzzzzzzzzzzzzzzzz', '0000000000000000000000']) i ON CONFLICT DO NOTHING;
INSERT INTO xc.inputs SELECT 'bigint_alnum', m FROM xc.mutations(ARRAY['AzL8n0Y58m7', 'LygHa16AHYF'], xc.chars()) m;
INSERT INTO xc.inputs SELECT 'bigint_alnum', i FROM unnest(ARRAY['AzL8n0Y58m8', '00000000000', 'zzzzzzzzzzz',
	'LygHa16AHYG']) i ON CONFLICT DO NOTHING;
INSERT INTO xc.inputs SELECT 'distid_numeric', i FROM unnest(ARRAY['0', '1', '-1', '-0', '0.5', '-0.5', '1.5', '12.000',
	'12.0001', '1e27', '1e28', '1e28.0', '9999999999999999999999999999', '9999999999999999999999999999.0',
	'9999999999999999999999999999.5', '10000000000000000000000000000', '1e100', 'NaN', 'Infinity', '-Infinity',
	'1088824355131185736905670087', '-1088824355131185736905670087', '0.0000000000000000000001', '281474976710656']) i;
INSERT INTO xc.inputs SELECT d, input FROM xc.inputs, unnest(ARRAY['distid_timestamp', 'distid_to_alnum',
	'distid_to_hex', 'public_id_distid']) d WHERE decoder = 'distid_numeric';
-- uuids: every version nibble with every variant nibble
INSERT INTO xc.inputs SELECT d, format('017f22e2-79b0-%s02a-%s141-23456789abcd', to_hex(v), to_hex(r))
	FROM generate_series(0, 15) v, generate_series(0, 15) r,
		 unnest(ARRAY['iuid_uuid', 'iuid_timestamp', 'iuid_country', 'iuid_entity', 'iuid_format_version',
					  'distid128_timestamp', 'public_id_to_uuid']) d;
INSERT INTO xc.inputs SELECT 'flaxid_timestamp', input FROM xc.inputs WHERE decoder = 'flaxid';
INSERT INTO xc.inputs SELECT d, i FROM unnest(ARRAY['0', '1', '-1', '61', '62', '9223372036854775807',
	'-9223372036854775808', '1088824355131185736905670087', '42']) i, unnest(ARRAY['bigint_to_alnum', 'public_id_bigint']) d;
INSERT INTO xc.inputs SELECT d, '\x' || repeat('a5', n) FROM generate_series(0, 40) n,
	unnest(ARRAY['public_id_key', 'public_id_key_decode']) d;
-- public ids: of bigints, distids and uuids made with the key, and ones that are none
INSERT INTO xc.inputs SELECT d, i FROM unnest(ARRAY[
	'30322474-a954-ffa9-941c-6f038afe4ff1', '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff']
	|| ARRAY(SELECT public.public_id(g, xc.key())::text FROM unnest(ARRAY[0, 1, 42, 9223372036854775807]::bigint[]) g)
	|| ARRAY(SELECT public.public_id(g::public.distid, xc.key())::text FROM unnest(ARRAY[0, 42, 9999999999999999999999999999]::numeric[]) g)
	|| ARRAY(SELECT public.public_id(gen_random_uuid(), xc.key())::text FROM generate_series(1, 5))) i,
	unnest(ARRAY['public_id_to_bigint', 'public_id_to_distid', 'public_id_to_uuid']) d ON CONFLICT DO NOTHING;
INSERT INTO xc.inputs SELECT 'iuid_generate_args', c || ',' || e
	FROM unnest(ARRAY[-2147483648, -1, 0, 1, 254, 255, 256, 2147483647]) c,
		 unnest(ARRAY[-1, 0, 255, 256]) e;
-- Times: each type's first and last millisecond and those beside them, the
-- infinities, and a spread over every span (microseconds included)
CREATE TABLE xc.times (t text PRIMARY KEY);
INSERT INTO xc.times SELECT DISTINCT t FROM unnest(ARRAY[
	'infinity', '-infinity',
	'1970-01-01 00:00:00Z', '1969-12-31 23:59:59.999999Z', '1970-01-01 00:00:00.000999Z',
	'10889-08-02 05:31:50.655Z', '10889-08-02 05:31:50.655999Z', '10889-08-02 05:31:50.656Z',
	'1900-01-01 00:00:00Z', '1899-12-31 23:59:59.999999Z',
	'3025-10-23 17:06:28.005Z', '3025-10-23 17:06:28.005999Z', '3025-10-23 17:06:28.006Z',
	'1700-01-01 00:00:00Z', '1699-12-31 23:59:59.999999Z',
	'10619-08-04 05:31:50.655Z', '10619-08-04 05:31:50.656Z',
	'2015-01-01 00:00:00Z', '2014-12-31 23:59:59.999999Z',
	'2049-11-03 19:53:47.775Z', '2049-11-03 19:53:47.775999Z', '2049-11-03 19:53:47.776Z',
	'2000-01-01 00:00:00Z', '1999-12-31 23:59:59.9995Z', '2022-02-22 19:22:22Z', '2022-07-31 18:33:00.285Z',
	'2023-07-24 17:59:43.916Z', '2015-10-15 20:10:25.807Z']) t;
-- about every 30 years from 1650 to 10900, and every 4 months from 2014 to 2054
INSERT INTO xc.times SELECT to_char(timestamptz '1650-01-01Z' + g * interval '1 day' * 11111.1111111
		+ (g * 7919 % 1000000) * interval '1 microsecond', 'YYYY-MM-DD HH24:MI:SS.USOF')
	FROM generate_series(0, 300) g ON CONFLICT DO NOTHING;
INSERT INTO xc.times SELECT to_char(timestamptz '2014-01-01Z' + g * interval '1 day' * 121.7
		+ (g * 7919 % 1000000) * interval '1 microsecond', 'YYYY-MM-DD HH24:MI:SS.USOF')
	FROM generate_series(0, 120) g ON CONFLICT DO NOTHING;
INSERT INTO xc.inputs SELECT d.decoder, t FROM xc.times, xc.decoders d
	WHERE d.decoder LIKE '%timestamp' AND d.decoder NOT IN ('distid_timestamp', 'iuid_timestamp', 'distid128_timestamp', 'flaxid_timestamp')
	   OR d.decoder = 'iuid_backfill';

-- every input tried with both editions
CREATE TABLE xc.tried AS
	SELECT i.decoder, i.input, xc.try(format(d.c_expr, i.input)) AS c, xc.try(format(d.sql_expr, i.input)) AS s
	FROM xc.inputs i JOIN xc.decoders d USING (decoder);
