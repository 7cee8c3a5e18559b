-- test/portable/try.sql: schema xc and xc.try(query), for crosscheck.sql
-- (002_crosscheck.pl) and 005_trap.pl.

CREATE SCHEMA xc;

-- what a query gives: "ok VALUE", or "error SQLSTATE MESSAGE | DETAIL"
CREATE FUNCTION xc.try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	r text;
	st text;
	m text;
	d text;
BEGIN
	EXECUTE q INTO r;
	RETURN 'ok ' || coalesce(r, 'NULL');
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL;
	RETURN format('error %s %s | %s', st, m, coalesce(d, ''));
END
$$;
