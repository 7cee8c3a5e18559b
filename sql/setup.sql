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
\getenv abs_srcdir PG_ABS_SRCDIR
\set program_sql :abs_srcdir '/test/program.sql'
\set ECHO none
\i :program_sql
\set ECHO all
-- a program that fails once is run again; one that always fails still fails
SELECT regress.program('{}', 'if test -e idgen_regress_once; then rm idgen_regress_once; else touch idgen_regress_once; exit 1; fi');
SELECT regress.program('{}', 'test ! -e idgen_regress_once');
SELECT regress.err($$SELECT regress.program('{}', 'exit 3')$$);
-- a scratch file for binary COPY in the server's own data directory (never a
-- shared place), and its removal
CREATE FUNCTION regress.binfile(tag text) RETURNS text LANGUAGE sql AS
$$ SELECT current_setting('data_directory') || '/idgen_regress_' || tag || pg_backend_pid() || '.bin' $$;
CREATE FUNCTION regress.rm(path text) RETURNS void LANGUAGE sql AS
$$ SELECT regress.program('{}', 'rm -f ' || quote_literal(path)) $$;
SELECT regress.err('SELECT 1/0');
-- ids made just after a sleep (so each is the first of its millisecond)
-- whose sub-millisecond clock bits (12, in 1/4096 ms) are not between the
-- clock read before and after generating; only ids whose two readings share
-- their millisecond are checked, until n are (or 25 n tries: a slow server,
-- a sanitizer build, spans many boundaries).  generate: SQL giving an id as
-- text; fraction and stamp: SQL of $1 (that text) giving its clock bits and
-- time.
CREATE FUNCTION regress.fraction_off_clock(generate text, fraction text, stamp text, n int,
	OUT checked int, OUT off_clock int) LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
	t1 timestamptz;
	id text;
	f int;
	ts timestamptz;
	us0 bigint;
	us1 bigint;
BEGIN
	checked := 0;
	off_clock := 0;
	FOR i IN 1..n * 25 LOOP
		EXIT WHEN checked >= n;
		PERFORM pg_sleep(0.002);
		t0 := clock_timestamp();
		EXECUTE generate INTO id;
		t1 := clock_timestamp();
		EXECUTE fraction INTO f USING id;
		EXECUTE stamp INTO ts USING id;
		CONTINUE WHEN date_trunc('milliseconds', t0) <> date_trunc('milliseconds', t1)
			OR ts <> date_trunc('milliseconds', t0);
		checked := checked + 1;
		us0 := extract(microseconds FROM t0)::bigint % 1000;
		us1 := extract(microseconds FROM t1)::bigint % 1000;
		-- t0 <= the clock read in the generator < t1 + 1 us
		IF f < us0 * 4096 / 1000 OR f > ((us1 + 1) * 1000 - 1) * 4096 / 1000000 THEN
			off_clock := off_clock + 1;
		END IF;
	END LOOP;
END $$;
-- its queries in the leader even where every query is forced into a
-- parallel worker (tools/test.sh's regress-parallel): a worker's start would
-- make most tries span a millisecond boundary, and this measures the clock
DO $$
BEGIN
	EXECUTE format('ALTER FUNCTION regress.fraction_off_clock(text, text, text, int) SET %s = off',
		CASE WHEN current_setting('server_version_num')::int >= 160000
			THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END);
END $$;
