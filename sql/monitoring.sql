--
-- monitoring views (doc/monitoring.md): their shape and who may read them.
-- What they count (clock events, waits, reservations, the cap) and the wait
-- events are tested on servers configured for it: test/t/030_monitoring.pl.
--
CREATE EXTENSION idgen;
-- The server under test may or may not preload idgen (see base36id.sql):
-- without it the views refuse; with it, one row per generator and one for
-- base36id, the cap being 36^2.
SELECT CASE
	WHEN current_setting('shared_preload_libraries') !~ '(^|[\s,/"])idgen($|[\s,"])'
	THEN regress.err($$SELECT * FROM idgen_stat_clock$$)
	     = '55000: idgen_stat_clock requires idgen to be loaded via shared_preload_libraries'
	       ' | HINT: Add idgen to shared_preload_libraries in postgresql.conf and restart the server.'
	ELSE (SELECT string_agg(generator, ',' ORDER BY generator COLLATE "C") = 'distid,distid128,distid_dense,flaxid,iuid'
	      FROM idgen_stat_clock)
END AS clock_view_agrees_with_settings;
SELECT CASE
	WHEN current_setting('shared_preload_libraries') !~ '(^|[\s,/"])idgen($|[\s,"])'
	THEN regress.err($$SELECT * FROM idgen_stat_base36id$$)
	     = '55000: idgen_stat_base36id requires idgen to be loaded via shared_preload_libraries'
	       ' | HINT: Add idgen to shared_preload_libraries in postgresql.conf and restart the server.'
	ELSE (SELECT count(*) = 1 AND bool_and(ids_per_second = 1296) FROM idgen_stat_base36id)
END AS base36id_view_agrees_with_settings;
-- the columns, as documented in doc/reference.md
SELECT c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod)
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
WHERE c.relname IN ('idgen_stat_base36id', 'idgen_stat_clock') AND a.attnum > 0
ORDER BY 1, 2;
-- readable by pg_read_all_stats (and so pg_monitor), not by PUBLIC
CREATE ROLE regress_idgen_nobody;
CREATE ROLE regress_idgen_monitor IN ROLE pg_monitor;
SET ROLE regress_idgen_nobody;
SELECT regress.err($$SELECT * FROM idgen_stat_clock$$);
SELECT regress.err($$SELECT * FROM idgen_stat_base36id$$);
SELECT regress.err($$SELECT * FROM idgen_stat_clock() AS s(generator text, ids_ahead bigint,
	ahead_max_ms bigint, borrowed_ms bigint, steps_back_absorbed bigint,
	steps_back_followed bigint, step_back_max_ms bigint)$$);
SET ROLE regress_idgen_monitor;
SELECT regress.err($$SELECT * FROM idgen_stat_clock$$) IN ('no error',
	'55000: idgen_stat_clock requires idgen to be loaded via shared_preload_libraries'
	' | HINT: Add idgen to shared_preload_libraries in postgresql.conf and restart the server.')
	AS monitor_may_read;
-- the functions need the views' column lists
SELECT regress.err($$SELECT * FROM idgen_stat_clock() AS s(generator text, ids_ahead int)$$);
SELECT regress.err($$SELECT * FROM idgen_stat_base36id() AS s(worker_id int)$$);
-- and have none in a select list: refused there, not an internal error
SELECT regress.err($$SELECT idgen_stat_clock()$$);
SELECT regress.err($$SELECT idgen_stat_base36id()$$);
RESET ROLE;
DROP ROLE regress_idgen_nobody, regress_idgen_monitor;
DROP EXTENSION idgen;
