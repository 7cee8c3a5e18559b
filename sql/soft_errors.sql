--
-- Soft input errors (PostgreSQL 16 and later): every input function reports
-- a bad value to pg_input_is_valid() and pg_input_error_info() instead of
-- raising, with the same SQLSTATE, message and detail as the error it raises
-- in a cast.  PostgreSQL 15 has neither function (expected/soft_errors_1.out).
--
SELECT current_setting('server_version_num')::int >= 160000 AS soft_errors \gset
\if :soft_errors
CREATE EXTENSION idgen;

-- the error a cast of the text raises, in pg_input_error_info()'s columns
CREATE FUNCTION pg_temp.hard_error(input text, typ text,
	OUT message text, OUT detail text, OUT hint text, OUT sql_error_code text)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('SELECT %L::%s', input, typ);
	message := 'no error';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL,
		hint = PG_EXCEPTION_HINT, sql_error_code = RETURNED_SQLSTATE;
	detail := nullif(detail, '');
	hint := nullif(hint, '');
END $$;

CREATE TEMP TABLE bad (typ text, input text);
INSERT INTO bad VALUES
	('iuid', ''), ('iuid', '{'), ('iuid', '017f22e2-79b0-802a-8141-23456789abc'),
	('iuid', '017g22e2-79b0-802a-8141-23456789abcd'),
	('iuid', '017f22e2-79b0-402a-8141-23456789abcd'),	-- version 4
	('iuid', '017f22e2-79b0-802a-c141-23456789abcd'),	-- variant 11
	('iuid', 'nonsense'),
	('distid', ''), ('distid', '12a4'), ('distid', '-1'),
	('distid', '10000000000000000000000000000'),		-- 10^28: out of range
	('base36id', ''), ('base36id', '0ITS0030'), ('base36id', '0its0030z'),
	('base36id', '0ITS-030Z'),
	('flaxid', ''), ('flaxid', '0RdKJcxqVBiAiQr'), ('flaxid', '0RdKJcxq+BiAiQr0'),
	('flaxid', '0RdKJcxqVBiAiQré');

-- not valid, and the soft error is the hard one, field by field
SELECT b.typ, b.input, pg_input_is_valid(b.input, b.typ) AS valid,
       (s.message, s.detail, s.hint, s.sql_error_code)
         IS NOT DISTINCT FROM (h.message, h.detail, h.hint, h.sql_error_code) AS soft_is_hard,
       s.sql_error_code, s.message, s.detail
FROM bad b,
     LATERAL pg_input_error_info(b.input, b.typ) s,
     LATERAL pg_temp.hard_error(b.input, b.typ) h
ORDER BY b.typ, b.input;

-- good values stay valid and give no error
SELECT typ, input, pg_input_is_valid(input, typ) AS valid,
       (pg_input_error_info(input, typ)).message IS NULL AS no_error
FROM (VALUES ('iuid', '017f22e2-79b0-802a-8141-23456789abcd'),
             ('distid', '1088824355131185736905670087'),
             ('distid', '9999999999999999999999999999'),
             ('base36id', '0ITS0030Z'),
             ('flaxid', '0RdKJcxqVBiAiQr0')) v(typ, input);

-- the function users reach for first
SELECT pg_input_is_valid('nonsense', 'iuid') AS nonsense_is_iuid;

SET client_min_messages = warning;
DROP EXTENSION idgen CASCADE;
RESET client_min_messages;
\else
\echo PostgreSQL 15 has no soft input errors
\endif
