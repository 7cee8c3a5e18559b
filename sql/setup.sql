--
-- shared by the regression tests that follow (REGRESS order in the Makefile)
--
CREATE SCHEMA regress;
GRANT USAGE ON SCHEMA regress TO PUBLIC;
-- SQLSTATE, message, detail and hint of the error a statement raises
CREATE FUNCTION regress.err(stmt text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	detail text;
	hint text;
BEGIN
	EXECUTE stmt;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
	RETURN SQLSTATE || ': ' || SQLERRM || coalesce(' | ' || nullif(detail, ''), '')
	       || coalesce(' | HINT: ' || nullif(hint, ''), '');
END $$;
SELECT regress.err('SELECT 1/0');
