--
-- A hostile database (doc/security.md): before the tests that follow run,
-- an ordinary role fills public, as every role could before PostgreSQL 15,
-- and a schema of its own with shadows of every function, operator and type
-- name of pg_catalog, generated from the catalog.  Each shadow counts its
-- call (a sequence: no rollback undoes it) and warns, saying whether idgen
-- or the caller's own SQL called it; test hostile, the last, adds shadows of
-- idgen's own names and gives the verdict.  Shadows have the signatures of
-- the objects they shadow, so name resolution by search_path (pg_catalog is
-- searched first) never picks them: only a lookup by name that ignores the
-- schema, or a search_path that puts them first, can reach one.
--
CREATE ROLE regress_idgen_shadow;
GRANT CREATE ON SCHEMA public TO regress_idgen_shadow;
CREATE SCHEMA regress_trap AUTHORIZATION regress_idgen_shadow;
GRANT USAGE ON SCHEMA regress_trap TO PUBLIC;
SET ROLE regress_idgen_shadow;
CREATE SEQUENCE regress_trap.shadow_calls;
GRANT USAGE, UPDATE ON SEQUENCE regress_trap.shadow_calls TO PUBLIC;
-- the call of a shadow: counted, and told with the caller's context.  A
-- call is idgen's when it comes from an extension script (CREATE or ALTER
-- EXTENSION) or from inside one of idgen's functions; the frames of the
-- recorder and of the shadow itself (skip of them) are not the caller's.
CREATE FUNCTION regress_trap.shadow_called(label text, skip int) RETURNS bool
LANGUAGE plpgsql SET search_path = pg_catalog AS $$
DECLARE
	ctx text;
	callers text;
	by_idgen bool;
BEGIN
	GET DIAGNOSTICS ctx = PG_CONTEXT;
	PERFORM nextval('regress_trap.shadow_calls');
	callers := array_to_string((string_to_array(ctx, E'\n'))[skip + 1:], E'\n');
	by_idgen := callers ~ 'extension script'
		OR current_query() ~* '^\s*(create|alter)\s+extension'
		OR EXISTS (SELECT FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
		           JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idgen'
		           WHERE d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
		             AND strpos(callers, p.proname || '(') > 0);
	RAISE WARNING 'shadow % called by %', label,
		CASE WHEN by_idgen THEN 'idgen' ELSE 'the caller''s own SQL' END
		USING DETAIL = coalesce(nullif(callers, ''), '(top level)');
	RETURN true;
END $$;
-- a shadow of every function of namespace source in target: same name and
-- argument types
CREATE FUNCTION regress_trap.shadow_functions(target name, source oid) RETURNS int
LANGUAGE plpgsql SET search_path = pg_catalog AS $$
DECLARE
	r record;
	made int := 0;
BEGIN
	FOR r IN
		SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS args,
		       CASE WHEN p.proretset THEN 'SETOF ' ELSE '' END || format_type(p.prorettype, NULL) AS ret,
		       p.proretset OR p.prorettype = 'void'::regtype AS bare_return,
		       format('function %s', p.oid::regprocedure) AS label
		FROM pg_proc p
		WHERE p.pronamespace = source
		  -- a PL/pgSQL function takes and returns no other pseudo-type
		  AND NOT EXISTS (SELECT FROM pg_type t
		                  WHERE t.oid = ANY (p.proargtypes::oid[] || p.prorettype) AND t.typtype = 'p'
		                    AND t.typname NOT IN ('record', 'void') AND t.typname !~ '^any(element|array|nonarray|enum|range|multirange|compatible)')
		  AND NOT EXISTS (SELECT FROM pg_proc q
		                  WHERE q.pronamespace = (SELECT oid FROM pg_namespace WHERE nspname = target)
		                    AND q.proname = p.proname AND q.proargtypes = p.proargtypes)
		ORDER BY p.oid
	LOOP
		BEGIN
			EXECUTE format('CREATE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE plpgsql AS %L',
			               target, r.proname, r.args, r.ret,
			               format('BEGIN PERFORM regress_trap.shadow_called(%L, 2); RETURN%s; END',
			                      r.label, CASE WHEN r.bare_return THEN '' ELSE ' NULL' END));
			made := made + 1;
		EXCEPTION WHEN OTHERS THEN
			NULL;	-- an argument list PL/pgSQL cannot take
		END;
	END LOOP;
	RETURN made;
END $$;
-- a shadow of every operator of namespace source in target, and of every
-- binary operator name of pg_catalog for each of the types given
CREATE FUNCTION regress_trap.shadow_operators(target name, source oid, types regtype[]) RETURNS int
LANGUAGE plpgsql SET search_path = pg_catalog AS $$
DECLARE
	r record;
	made int := 0;
	fn text;
BEGIN
	-- one query (a query per operator would start a parallel worker each
	-- under debug_parallel_query)
	FOR r IN
		SELECT DISTINCT ON (c.oprname, c.oprleft, c.oprright) c.*
		FROM (SELECT o.oprname, o.oprleft, o.oprright, o.oprresult,
		             format('operator %s', o.oid::regoperator) AS label
		      FROM pg_operator o WHERE o.oprnamespace = source AND o.oprcode <> 0
		      UNION ALL
		      SELECT o.oprname, t.t::oid, t.t::oid, 'bool'::regtype::oid,
		             format('operator %s(%s,%s)', o.oprname, t.t, t.t)
		      FROM pg_operator o, unnest(types) t(t)
		      WHERE o.oprnamespace = 'pg_catalog'::regnamespace AND o.oprleft <> 0) c
		WHERE NOT EXISTS (SELECT FROM pg_operator q
		                  WHERE q.oprnamespace = (SELECT oid FROM pg_namespace WHERE nspname = target)
		                    AND q.oprname = c.oprname AND q.oprleft = c.oprleft AND q.oprright = c.oprright)
		ORDER BY c.oprname, c.oprleft, c.oprright, c.label
	LOOP
		fn := format('%I.%I', target, 'shadow_operator_' || left(md5(r.label), 12));
		BEGIN
			EXECUTE format('CREATE FUNCTION %s(%s) RETURNS %s LANGUAGE plpgsql AS %L', fn,
			               concat_ws(', ', CASE WHEN r.oprleft <> 0 THEN r.oprleft::regtype::text END,
			                         r.oprright::regtype::text),
			               r.oprresult::regtype,
			               format('BEGIN PERFORM regress_trap.shadow_called(%L, 2); RETURN NULL; END', r.label));
			EXECUTE format('CREATE OPERATOR %I.%s (%s RIGHTARG = %s, FUNCTION = %s)', target, r.oprname,
			               CASE WHEN r.oprleft <> 0 THEN format('LEFTARG = %s,', r.oprleft::regtype) ELSE '' END,
			               r.oprright::regtype, fn);
			made := made + 1;
		EXCEPTION WHEN OTHERS THEN
			NULL;	-- an operator a shadow cannot have
		END;
	END LOOP;
	RETURN made;
END $$;
-- a shadow of every type of namespace source in target: a domain over it
-- whose check counts each value made into it
CREATE FUNCTION regress_trap.shadow_types(target name, source oid) RETURNS int
LANGUAGE plpgsql SET search_path = pg_catalog AS $$
DECLARE
	r record;
	made int := 0;
BEGIN
	FOR r IN
		SELECT t.oid::regtype AS type, t.typname FROM pg_type t
		WHERE t.typnamespace = source AND t.typtype <> 'p' AND t.typname !~ '^_'
		  AND NOT EXISTS (SELECT FROM pg_type q
		                  WHERE q.typnamespace = (SELECT oid FROM pg_namespace WHERE nspname = target)
		                    AND q.typname = t.typname)
		ORDER BY t.oid
	LOOP
		BEGIN
			EXECUTE format('CREATE DOMAIN %I.%I AS %s CHECK (regress_trap.shadow_called(%L, 1))',
			               target, r.typname, r.type, 'type ' || r.type);
			made := made + 1;
		EXCEPTION WHEN OTHERS THEN
			NULL;	-- a type a domain cannot be over
		END;
	END LOOP;
	RETURN made;
END $$;
-- pg_catalog's names in public and in the role's schema
SELECT regress_trap.shadow_functions(s, 'pg_catalog'::regnamespace) > 2000 AS functions,
       regress_trap.shadow_operators(s, 'pg_catalog'::regnamespace, '{}') > 500 AS operators,
       regress_trap.shadow_types(s, 'pg_catalog'::regnamespace) > 100 AS types
FROM unnest(ARRAY['public', 'regress_trap']::name[]) s;
RESET ROLE;
