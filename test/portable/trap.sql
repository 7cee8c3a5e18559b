-- test/portable/trap.sql: a trap schema, generated from the catalog, for
-- the check that no name in idgen_portable's scripts and functions is
-- resolved through the search_path (test/portable/005_trap.pl; issue 38).
--
--   psql -v ON_ERROR_STOP=1 [-v trap=NAME] -f test/portable/trap.sql   (as a superuser)
--
-- creates schema NAME (default trap) holding a twin of every object of
-- pg_catalog that a name can reach, so that with
--   SET search_path = NAME, pg_catalog, ...
-- any unqualified name finds the twin, and the twin reports it:
--   - every function of pg_catalog (prokind f), same name and argument
--     types: a PL/pgSQL function that raises "idgen-trap: pg_catalog.F(ARGS)
--     reached by an unqualified name" (SQLSTATE 39P99) after a WARNING of
--     the same text, so that a handler that swallows errors still shows it;
--     where PL/pgSQL cannot take the argument or result types (cstring,
--     internal, "any", ...), a LANGUAGE internal function whose C symbol
--     refuses every call (any_in: "cannot accept a value of type any");
--   - every plain aggregate, same arguments, whose transition function is
--     such a refusing function;
--   - every operator (prefix and binary), same name and argument types,
--     through such a PL/pgSQL function;
--   - every type: a shell type of the same name ("type T is only a shell"
--     wherever a name reaches it), except the row types of relations;
--   - every table and view: a view of the same name that raises when read.
-- Left out, by rule and counted in NAME.idgen_trap_left_out: window
-- functions, ordered-set and hypothetical-set aggregates, functions a
-- CREATE FUNCTION cannot declare (a polymorphic or internal result without
-- an argument of its kind; on 19beta1 a VARIADIC of no array type).  Any other object that fails to be created fails the script.
--
-- NAME.idgen_trap_census() returns (kind, made, left_out) for the report.

\set ON_ERROR_STOP on
\if :{?trap}
\else
\set trap trap
\endif
SELECT pg_catalog.set_config('idgen_trap.schema', :'trap', false);

DO $trap$
DECLARE
	t pg_catalog.text := pg_catalog.current_setting('idgen_trap.schema');
	r record;
	n pg_catalog.int4 := 0;
	sig pg_catalog.text;
	msg pg_catalog.text;
	poly pg_catalog.oid[] := ARRAY(SELECT pg_catalog.to_regtype(x) FROM pg_catalog.unnest(ARRAY['anyelement', 'anyarray',
		'anynonarray', 'anyenum', 'anyrange', 'anymultirange']) x WHERE pg_catalog.to_regtype(x) IS NOT NULL);
	compat pg_catalog.oid[] := ARRAY(SELECT pg_catalog.to_regtype(x) FROM pg_catalog.unnest(ARRAY['anycompatible',
		'anycompatiblearray', 'anycompatiblenonarray', 'anycompatiblerange', 'anycompatiblemultirange']) x
		WHERE pg_catalog.to_regtype(x) IS NOT NULL);
BEGIN
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog', true);
	-- a twin is compiled when it is called (some of pg_catalog's names
	-- repeat a parameter's name, which PL/pgSQL refuses: called, it fails too)
	PERFORM pg_catalog.set_config('check_function_bodies', 'off', true);
	EXECUTE format('CREATE SCHEMA %I', t);
	EXECUTE format('GRANT USAGE ON SCHEMA %I TO PUBLIC', t);
	EXECUTE format('CREATE TABLE %I.idgen_trap_left_out (kind text, name text, reason text)', t);
	EXECUTE format('GRANT SELECT ON %I.idgen_trap_left_out TO PUBLIC', t);
	EXECUTE format('CREATE TABLE %I.idgen_trap_made (kind text, name text)', t);
	EXECUTE format('GRANT SELECT ON %I.idgen_trap_made TO PUBLIC', t);
	EXECUTE format($f$CREATE FUNCTION %I.idgen_trap_hit(what text) RETURNS bool LANGUAGE plpgsql AS $b$
		BEGIN
			RAISE WARNING 'idgen-trap: %% reached by an unqualified name', what;
			RAISE EXCEPTION 'idgen-trap: %% reached by an unqualified name', what USING ERRCODE = '39P99';
		END $b$$f$, t);

	-- functions
	FOR r IN
		SELECT p.oid, p.proname, p.proretset, p.prorettype, p.proargtypes::oid[] AS args,
			pg_catalog.pg_get_function_identity_arguments(p.oid) AS ident,
			pg_catalog.pg_get_function_arguments(p.oid) AS fargs,
			pg_catalog.pg_get_function_result(p.oid) AS fresult
		FROM pg_catalog.pg_proc p
		WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.prokind = 'f'
		ORDER BY p.oid
	LOOP
		sig := format('pg_catalog.%s(%s)', r.proname, r.ident);
		IF r.prorettype = ANY (poly) AND NOT (r.args && poly) OR r.prorettype = ANY (compat) AND NOT (r.args && compat)
			OR r.prorettype = 'internal'::regtype AND NOT 'internal'::regtype = ANY (r.args) THEN
			EXECUTE format('INSERT INTO %I.idgen_trap_left_out VALUES (%L, %L, %L)', t, 'function', sig,
						   'polymorphic or internal result without such an argument');
			CONTINUE;
		END IF;
		-- fargs: with OUT parameters and defaults, as pg_catalog declares them;
		-- PL/pgSQL where it takes the types, else the refusing C symbol (if
		-- that fails too, the script fails)
		BEGIN
			EXECUTE format('CREATE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE plpgsql AS $b$BEGIN PERFORM %I.idgen_trap_hit(%L); END$b$',
						   t, r.proname, r.fargs, r.fresult, t, sig);
		EXCEPTION
			WHEN feature_not_supported THEN
				EXECUTE format('CREATE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE internal AS %L',
							   t, r.proname, r.fargs, r.fresult, 'any_in');
			WHEN invalid_function_definition THEN
				-- a declaration of pg_catalog that CREATE FUNCTION refuses
				-- (19beta1: pg_get_tablespace_ddl(oid, VARIADIC text))
				EXECUTE format('INSERT INTO %I.idgen_trap_left_out VALUES (%L, %L, %L)', t, 'function', sig,
							   'a declaration CREATE FUNCTION refuses');
				CONTINUE;
		END;
		EXECUTE format('INSERT INTO %I.idgen_trap_made VALUES (%L, %L)', t, 'function', sig);
	END LOOP;

	-- aggregates
	FOR r IN
		SELECT p.oid, p.proname, a.aggkind, p.prokind, pg_catalog.pg_get_function_identity_arguments(p.oid) AS ident,
			p.pronargs
		FROM pg_catalog.pg_proc p LEFT JOIN pg_catalog.pg_aggregate a ON a.aggfnoid = p.oid
		WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.prokind IN ('a', 'w')
		ORDER BY p.oid
	LOOP
		sig := format('pg_catalog.%s(%s)', r.proname, r.ident);
		IF r.prokind = 'w' OR r.aggkind <> 'n' THEN
			EXECUTE format('INSERT INTO %I.idgen_trap_left_out VALUES (%L, %L, %L)', t, 'aggregate', sig,
						   CASE WHEN r.prokind = 'w' THEN 'window function' ELSE 'ordered-set or hypothetical-set aggregate' END);
			CONTINUE;
		END IF;
		n := n + 1;
		EXECUTE format('CREATE FUNCTION %I.idgen_trap_agg_%s(int4%s) RETURNS int4 LANGUAGE internal AS %L',
					   t, n, CASE WHEN r.pronargs > 0 THEN ', ' || r.ident ELSE '' END, 'any_in');
		EXECUTE format('CREATE AGGREGATE %I.%I(%s) (SFUNC = %I.idgen_trap_agg_%s, STYPE = int4)',
					   t, r.proname, CASE WHEN r.pronargs > 0 THEN r.ident ELSE '*' END, t, n);
		EXECUTE format('INSERT INTO %I.idgen_trap_made VALUES (%L, %L)', t, 'aggregate', sig);
	END LOOP;

	-- operators
	n := 0;
	FOR r IN
		SELECT o.oid, o.oprname, o.oprkind, o.oprleft, o.oprright, o.oprresult
		FROM pg_catalog.pg_operator o
		WHERE o.oprnamespace = 'pg_catalog'::regnamespace AND o.oprkind IN ('b', 'l') AND o.oprcode <> 0
		ORDER BY o.oid
	LOOP
		sig := format('OPERATOR(pg_catalog.%s)(%s, %s)', r.oprname,
					  CASE WHEN r.oprleft = 0 THEN 'NONE' ELSE r.oprleft::regtype::text END, r.oprright::regtype::text);
		n := n + 1;
		BEGIN
			EXECUTE format('CREATE FUNCTION %I.idgen_trap_op_%s(%s) RETURNS %s LANGUAGE plpgsql AS $b$BEGIN PERFORM %I.idgen_trap_hit(%L); END$b$',
						   t, n, CASE WHEN r.oprleft = 0 THEN r.oprright::regtype::text
									  ELSE r.oprleft::regtype::text || ', ' || r.oprright::regtype::text END,
						   r.oprresult::regtype::text, t, sig);
		EXCEPTION WHEN feature_not_supported THEN
			EXECUTE format('CREATE FUNCTION %I.idgen_trap_op_%s(%s) RETURNS %s LANGUAGE internal AS %L', t, n,
						   CASE WHEN r.oprleft = 0 THEN r.oprright::regtype::text
								ELSE r.oprleft::regtype::text || ', ' || r.oprright::regtype::text END,
						   r.oprresult::regtype::text, 'any_in');
		END;
		EXECUTE format('CREATE OPERATOR %I.%s (%s RIGHTARG = %s, FUNCTION = %I.idgen_trap_op_%s)', t, r.oprname,
					   CASE WHEN r.oprleft = 0 THEN '' ELSE 'LEFTARG = ' || r.oprleft::regtype::text || ',' END,
					   r.oprright::regtype::text, t, n);
		EXECUTE format('INSERT INTO %I.idgen_trap_made VALUES (%L, %L)', t, 'operator', sig);
	END LOOP;

	-- tables and views
	FOR r IN
		-- (the columns as text: some hold pseudo-type anyarray)
		SELECT c.relname, (SELECT string_agg(format('%I::text AS %I', a.attname, a.attname), ', ' ORDER BY a.attnum)
			FROM pg_catalog.pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS cols
		FROM pg_catalog.pg_class c
		WHERE c.relnamespace = 'pg_catalog'::regnamespace AND c.relkind IN ('r', 'v', 'm', 'p')
		ORDER BY c.relname
	LOOP
		EXECUTE format('CREATE VIEW %I.%I AS SELECT %s FROM pg_catalog.%I WHERE %I.idgen_trap_hit(%L)',
					   t, r.relname, r.cols, r.relname, t, 'relation pg_catalog.' || r.relname);
		EXECUTE format('INSERT INTO %I.idgen_trap_made VALUES (%L, %L)', t, 'relation', 'pg_catalog.' || r.relname);
	END LOOP;

	-- types, last (a shell type stops every later use of its name in
	-- this schema): every type but the row types of relations (their
	-- names are the views above)
	FOR r IN
		SELECT y.typname FROM pg_catalog.pg_type y
		WHERE y.typnamespace = 'pg_catalog'::regnamespace AND y.typrelid = 0
		ORDER BY y.typname
	LOOP
		EXECUTE format('CREATE TYPE %I.%I', t, r.typname);
		EXECUTE format('INSERT INTO %I.idgen_trap_made VALUES (%L, %L)', t, 'type', 'pg_catalog.' || r.typname);
	END LOOP;

	EXECUTE format($f$CREATE FUNCTION %1$I.idgen_trap_census(OUT kind text, OUT made bigint, OUT left_out bigint)
		RETURNS SETOF record LANGUAGE sql AS $b$
		SELECT k, (SELECT count(*) FROM %1$I.idgen_trap_made m WHERE m.kind = k),
			(SELECT count(*) FROM %1$I.idgen_trap_left_out l WHERE l.kind = k)
		FROM unnest(ARRAY['function', 'aggregate', 'operator', 'relation', 'type']) k $b$$f$, t);
END
$trap$;
