--
-- no idgen function raises an internal error (XX000) for anything a user
-- can type: every function, called with odd values of each argument type
-- (NULLs, bounds, infinities, empty and oversized text, keys of every
-- length), in a select list, in FROM, under an aggregate and in a CASE.
-- Each row would be a call that raised XX000, XX001, XX002 or a 58xxx
-- system error; errors with the right SQLSTATE (22P02, 22003, 55000 ...)
-- are the expected outcome and are not shown.
--
CREATE EXTENSION idgen;
CREATE TEMP TABLE probe_values (t regtype, v text);
INSERT INTO probe_values VALUES
	('bigint', '0'), ('bigint', '-1'), ('bigint', '9223372036854775807'),
	('bigint', '(-9223372036854775808)::bigint'), ('bigint', '1296'), ('bigint', 'NULL'),
	('integer', '0'), ('integer', '-1'), ('integer', '255'), ('integer', '256'),
	('integer', '2147483647'), ('integer', '(-2147483648)::integer'), ('integer', 'NULL'),
	('text', $$''$$), ('text', $$'x'$$), ('text', $$repeat('z', 100)$$),
	('text', $$'zzzzzzzzzzzzzzzzzzzzzz'$$), ('text', $$'ZZZZZZZZZZZZZZZZ'$$), ('text', $$'ZZZZZZZZZZZ'$$),
	('text', $$'ffffffffffffffffffffffffff'$$), ('text', $$' 0 '$$), ('text', $$'é'$$), ('text', 'NULL'),
	('cstring', $$''$$), ('cstring', $$'x'$$), ('cstring', $$'-1'$$),
	('cstring', $$'99999999999999999999999999999'$$), ('cstring', $$'ZZZZZZZZZZZZZ'$$),
	('cstring', $$'00000000-0000-0000-0000-000000000000'$$),
	('cstring', $$'017f22e2-79b0-802a-8141-23456789abcd'$$), ('cstring', 'NULL'),
	('uuid', $$'00000000-0000-0000-0000-000000000000'$$), ('uuid', $$'ffffffff-ffff-ffff-ffff-ffffffffffff'$$),
	('uuid', $$'017f22e2-79b0-802a-8141-23456789abcd'$$), ('uuid', 'NULL'),
	('timestamptz', $$'infinity'$$), ('timestamptz', $$'-infinity'$$),
	('timestamptz', $$'4714-11-24 00:00:00+00 BC'$$), ('timestamptz', $$'294276-12-31 23:59:59+00'$$),
	('timestamptz', $$'1969-12-31 23:59:59.999+00'$$), ('timestamptz', $$'10889-08-02 05:31:50.655+00'$$),
	('timestamptz', 'NULL'),
	('bytea', $$''$$), ('bytea', $$'\x00'$$), ('bytea', $$'\x000102030405060708090a0b0c0d0e0f'$$),
	('bytea', $$'\x000102030405060708090a0b0c0d0e0f10'$$), ('bytea', $$decode(repeat('ab', 32), 'hex')$$),
	('bytea', $$decode(repeat('ab', 33), 'hex')$$), ('bytea', 'NULL'),
	('numeric', $$'NaN'$$), ('numeric', $$'Infinity'$$), ('numeric', '-1'), ('numeric', '1e28'),
	('numeric', $$'9999999999999999999999999999'$$), ('numeric', '1.5'), ('numeric', $$'1e-1000'$$),
	('numeric', 'NULL'),
	('iuid', $$'017f22e2-79b0-802a-8141-23456789abcd'$$), ('iuid', 'NULL'),
	('distid', $$'0'$$), ('distid', $$'9999999999999999999999999999'$$), ('distid', 'NULL'),
	('flaxid', $$flaxid_from_timestamp('1970-01-01 00:00:00+00')$$), ('flaxid', 'NULL'),
	('base36id', $$0::base36id$$), ('base36id', $$9223372036854775807::base36id$$), ('base36id', 'NULL'),
	('regclass', $$'pg_class'$$), ('regclass', '0'), ('regclass', 'NULL'),
	('regrole', $$'pg_database_owner'$$), ('regrole', '0'), ('regrole', 'NULL'),
	('regnamespace', $$'public'$$), ('regnamespace', '0'), ('regnamespace', 'NULL'),
	('interval', $$'1 day'$$), ('interval', $$'0'$$), ('interval', $$'-1 day'$$), ('interval', 'NULL'),
	('boolean', 'true'), ('boolean', 'NULL'),
	('text[]', $${}$$), ('text[]', $$'{{a},{b}}'$$), ('text[]', 'NULL'),
	('internal', 'NULL');
CREATE TEMP TABLE probe_calls (fn regprocedure, call text, state text, message text);
DO $probe$
DECLARE
	f record;
	args text[];
	form text;
	stmt text;
	st text;
	msg text;
BEGIN
	FOR f IN SELECT p.oid, p.proname, p.proargtypes::regtype[] AS types
	         FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
	         JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idgen'
	         WHERE d.deptype = 'e' AND p.prokind = 'f'
	           -- connects to other nodes
	           AND p.proname <> 'idgen_check_worker_ids'
	           -- the monitoring functions' select-list call is tested in
	           -- monitoring, where it is being fixed
	           AND p.proname !~ '^idgen_stat_'
	LOOP
		-- every combination of the values of the argument types, at most 300
		FOR args IN
			WITH RECURSIVE c(i, parts) AS (
				SELECT 0, ARRAY[]::text[]
				UNION ALL
				SELECT c.i + 1, c.parts || (v.v || '::' || v.t::text)
				FROM c JOIN probe_values v ON v.t = f.types[array_lower(f.types, 1) + c.i]
				WHERE c.i < coalesce(array_length(f.types, 1), 0))
			SELECT parts FROM c WHERE i = coalesce(array_length(f.types, 1), 0) LIMIT 300
		LOOP
			FOREACH form IN ARRAY ARRAY['SELECT %s', 'SELECT * FROM %s',
				'SELECT count(*) FROM (SELECT %s FROM generate_series(1, 2)) s',
				'SELECT CASE WHEN random() < 2 THEN %s END']
			LOOP
				stmt := format(form, format('%I(%s)', f.proname, array_to_string(args, ', ')));
				BEGIN
					EXECUTE stmt;
					st := '00000';
					msg := NULL;
				EXCEPTION WHEN OTHERS THEN
					GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
				END;
				INSERT INTO probe_calls VALUES (f.oid, stmt, st, msg);
			END LOOP;
		END LOOP;
	END LOOP;
END $probe$;
-- every function was called, most of them many times
SELECT count(DISTINCT fn) = (SELECT count(*) FILTER (WHERE p.proname <> 'idgen_check_worker_ids'
                                                           AND p.proname !~ '^idgen_stat_')
                             FROM pg_proc p
                             JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
                             JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idgen'
                             WHERE d.deptype = 'e' AND p.prokind = 'f') AS every_function,
       count(*) > 5000 AS many_calls,
       count(*) FILTER (WHERE state <> '00000') > 1000 AS many_errors
FROM probe_calls;
-- none of them an internal or system error
SELECT fn, state, message, min(call) AS first_call, count(*) AS calls
FROM probe_calls
WHERE state ~ '^(XX|58)'
GROUP BY 1, 2, 3
ORDER BY 1, 2, 3;

--
-- binary input (COPY FROM ... FORMAT binary) of a field with too few or
-- too many bytes: a protocol error, not an internal one
--
CREATE TEMP TABLE probe_bin (i iuid, d distid, f flaxid, b base36id);
DO $$
BEGIN
	EXECUTE format('COPY (SELECT 1::int2, 2::int2, 3::int2, 4::int2) TO %L WITH (FORMAT binary)',
	               regress.binfile('probe_'));
END $$;
SELECT regress.err(format('COPY probe_bin FROM %L WITH (FORMAT binary)', regress.binfile('probe_')));
DO $$
BEGIN
	EXECUTE format('COPY (SELECT %L::bytea, %L::bytea, %L::bytea, %L::bytea) TO %L WITH (FORMAT binary)',
	               '\x' || repeat('00', 17), '\x' || repeat('00', 13), '\x' || repeat('00', 17),
	               '\x' || repeat('00', 9), regress.binfile('probe_'));
END $$;
SELECT regress.err(format('COPY probe_bin FROM %L WITH (FORMAT binary)', regress.binfile('probe_')));
SELECT regress.err(format('COPY probe_bin (d, i, f, b) FROM %L WITH (FORMAT binary)', regress.binfile('probe_')));
-- each type on its own (its binary input reads the field inline): too short
DO $$
BEGIN
	EXECUTE format('COPY (SELECT 1::int2) TO %L WITH (FORMAT binary)', regress.binfile('probe_'));
END $$;
SELECT c, regress.err(format('COPY probe_bin (%s) FROM %L WITH (FORMAT binary)', c, regress.binfile('probe_')))
FROM unnest(ARRAY['i', 'd', 'f', 'b']) AS c;
SELECT regress.rm(regress.binfile('probe_'));
DROP TABLE probe_bin;
DROP EXTENSION idgen;
