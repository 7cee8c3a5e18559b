--
-- regress.program(lines, command): runs COMMAND in the server's working
-- directory (its data directory) through COPY TO PROGRAM, LINES on its
-- standard input.  Shared by the regression tests (sql/setup.sql) and the
-- isolation specs (test/isolation/run.sh loads it into their database);
-- schema regress is made first.
--
-- A program that fails is run again, up to five times, and its last failure
-- raised: a shell that failed once, for a reason its exit status did not
-- keep, cost a CI run (publicid_key_reload on 18); each failure is logged.  So every command given
-- is one that may run twice (write a file whole, rename, chmod, rm -f,
-- kill -HUP); one that fails for good still fails.
--
CREATE FUNCTION regress.program(lines text[], command text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	detail text;
BEGIN
	FOR attempt IN 1..5 LOOP
		BEGIN
			EXECUTE pg_catalog.format('COPY (SELECT pg_catalog.unnest(%L::text[])) TO PROGRAM %L',
			                          lines, command);
			RETURN;
		EXCEPTION WHEN external_routine_exception THEN
			IF attempt = 5 THEN
				RAISE;
			END IF;
			-- in the server's log, so that a failing run shows why; and no
			-- pause before the next try: a spec may hold the clock still,
			-- and pg_sleep() would then never end
			GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
			RAISE LOG 'regress.program: % (%), run again', SQLERRM, detail;
		END;
	END LOOP;
END $$;
