--
-- The trap: twins of pg_catalog's names, generated from the catalog of the
-- server under test, that report every use (doc/security.md, CONTRIBUTING.md
-- "Privileges and a hostile database").  The project's one generator: the
-- regression tests of the C edition (sql/hostile_setup.sql, sql/hostile.sql)
-- and the SQL edition's trap check (test/portable/005_trap.pl) use it.  Run
-- this file with psql as a superuser (\i), then call the
-- functions below.  It makes schema regress_trap (the tools, a sequence of
-- the calls) and nothing else; every function keeps search_path pinned and
-- names what it uses by schema, so the traps it makes never catch itself.
--
--   regress_trap.make_twins(target name) -> (kind, made)
--     into schema target (which must exist): for every function of
--     pg_catalog one of the same name, arguments, defaults and result; for
--     every operator one of the same name and operand types; for every type
--     one of the same name (a domain over it, a shell type for a pseudo-type,
--     a view over the catalog or view whose row type it is).  A function or
--     operator PL/pgSQL can take records its call and returns NULL; one it
--     cannot take (internal, cstring, "any"...) is LANGUAGE internal
--     shell_in, which fails every call ("cannot accept a value of a shell
--     type"); a domain's check and a view's rows record their use.  Needs a
--     superuser (LANGUAGE internal).  Any object it cannot make is an error:
--     nothing is skipped.
--   regress_trap.make_overloads(target name, payload text, names name[]) -> made
--     better matches than pg_catalog's own: for every function (not an
--     aggregate) and operator of pg_catalog taking a polymorphic or "any"
--     argument, one taking text (text[] for an array) there, and for every
--     one taking text, bigint, double precision or timestamptz, one taking
--     name, integer, integer or timestamp there (the types callers pass that
--     an implicit cast turns into the original's); all these replacements at
--     once, where pg_catalog and target have no such signature yet, and PL/pgSQL
--     can take it.  PL/pgSQL: an ordinary role can make them.  Each
--     records its call, then runs payload (PL/pgSQL statements: what an
--     attacker would do with the caller's rights).  With names, only for
--     functions and operators of those names (regress_trap.names_in(text):
--     the words and operator symbols of a script, which may name them).
--   regress_trap.arm(target name) / regress_trap.disarm()
--     an event trigger that, before every DDL command, sets search_path to
--     target, pg_catalog, pg_temp: an extension script run by CREATE or
--     ALTER EXTENSION ... SCHEMA target then finds the trap before pg_catalog
--     for every unqualified name (CREATE EXTENSION puts pg_catalog first).
--   regress_trap.depending(target name, ext name) -> (object, depends_on)
--     each object of extension ext that depends (pg_depend) on an object of
--     schema target that is not the extension's: a twin it resolved.
--   regress_trap.missing(target name, script text) -> name
--     each name of a pg_catalog function, operator or type that the text
--     mentions and that has no twin in target: the trap must be complete.
--   regress_trap.calls: a sequence, called once per recorded use (no
--     rollback undoes it); every use also raises a WARNING "idgen-trap: ... used"
--     with the caller's context.
--
CREATE SCHEMA regress_trap;
GRANT USAGE ON SCHEMA regress_trap TO PUBLIC;
CREATE SEQUENCE regress_trap.calls;
GRANT USAGE, UPDATE ON SEQUENCE regress_trap.calls TO PUBLIC;

-- one use of a trap: counted, and told with the caller's context (skip: the
-- frames of the recorder and of the twin, not the caller's)
CREATE FUNCTION regress_trap.recorded(label text, skip int) RETURNS bool
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog AS $$
DECLARE
	ctx text;
BEGIN
	GET DIAGNOSTICS ctx = PG_CONTEXT;
	PERFORM pg_catalog.nextval('regress_trap.calls');
	RAISE WARNING 'idgen-trap: % used', label
		USING DETAIL = coalesce(pg_catalog.array_to_string(
			(pg_catalog.string_to_array(ctx, E'\n'))[skip + 1:], E'\n'), '(top level)');
	RETURN true;
END $$;

-- the oid of schema nspname
CREATE FUNCTION regress_trap.nsp(nspname name) RETURNS oid
LANGUAGE sql STABLE STRICT SET search_path = pg_catalog AS $$
	SELECT n.oid FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) $1
$$;

-- types PL/pgSQL takes as arguments (and returns)
CREATE FUNCTION regress_trap.plpgsql_takes(t oid, as_result bool) RETURNS bool
LANGUAGE sql STABLE SET search_path = pg_catalog AS $$
	SELECT y.typtype OPERATOR(pg_catalog.<>) 'p'
	    OR y.typname OPERATOR(pg_catalog.=) ANY ('{record,anyelement,anyarray,anynonarray,anyenum,anyrange,anymultirange,anycompatible,anycompatiblearray,anycompatiblenonarray,anycompatiblerange,anycompatiblemultirange}'::pg_catalog.name[])
	    OR (as_result AND y.typname OPERATOR(pg_catalog.=) ANY ('{void,trigger,event_trigger}'::pg_catalog.name[]))
	FROM pg_catalog.pg_type y WHERE y.oid OPERATOR(pg_catalog.=) t
$$;

-- a function of arguments args (as pg_get_function_arguments prints them)
-- and result ret in target: PL/pgSQL recording label, or shell_in
CREATE FUNCTION regress_trap.twin_function(target name, fname name, args text, ret text,
                                           plpgsql bool, is_set bool, returns_void bool,
                                           label text, payload text DEFAULT '') RETURNS void
-- not compiled now (a catalog function may have an argument and an OUT
-- column of one name, which PL/pgSQL refuses): a call that fails to compile
-- fails as loudly as one that records
LANGUAGE plpgsql SET search_path = pg_catalog SET check_function_bodies = off AS $$
BEGIN
	IF plpgsql THEN
		EXECUTE pg_catalog.format('CREATE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE plpgsql VOLATILE AS %L',
			target, fname, args, ret,
			pg_catalog.format('BEGIN PERFORM regress_trap.recorded(%L, 2); %s RETURN%s; END',
			                  label, payload, CASE WHEN is_set OR returns_void OR ret OPERATOR(pg_catalog.~) '^(TABLE|record)' AND args OPERATOR(pg_catalog.~) '\mOUT\M' THEN '' ELSE ' NULL' END));
	ELSE
		EXECUTE pg_catalog.format('CREATE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE internal VOLATILE AS %L',
			target, fname, args, ret, 'shell_in');
	END IF;
END $$;

CREATE FUNCTION regress_trap.make_twins(target name) RETURNS TABLE (kind text, made int)
LANGUAGE plpgsql SET search_path = pg_catalog AS $$
DECLARE
	r record;
	n int;
BEGIN
	-- types: a view over a catalog or view (its row type and its name), a
	-- domain over any other type, a shell for a pseudo-type; arrays come with
	-- their element's twin
	n := 0;
	FOR r IN
		SELECT t.oid, t.typname, t.typtype, t.typrelid, c.relkind
		FROM pg_catalog.pg_type t LEFT JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) t.typrelid
		WHERE t.typnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace AND t.typisdefined
		  AND NOT EXISTS (SELECT FROM pg_catalog.pg_type e WHERE e.typarray OPERATOR(pg_catalog.=) t.oid)
		ORDER BY t.oid
	LOOP
		IF r.typtype OPERATOR(pg_catalog.=) 'p' THEN
			EXECUTE pg_catalog.format('CREATE TYPE %I.%I', target, r.typname);
		ELSIF r.typrelid OPERATOR(pg_catalog.<>) 0 THEN
			-- its columns (one of a pseudo-type or a row type as text: a view has none of anyarray)
			EXECUTE pg_catalog.format('CREATE VIEW %I.%I AS SELECT %s FROM pg_catalog.%I WHERE regress_trap.recorded(%L, 1)',
			                          target, r.typname,
			                          (SELECT pg_catalog.string_agg(CASE WHEN y.typtype OPERATOR(pg_catalog.=) 'p' OR y.typrelid OPERATOR(pg_catalog.<>) 0
			                                                               OR EXISTS (SELECT FROM pg_catalog.pg_type z WHERE z.oid OPERATOR(pg_catalog.=) y.typelem AND z.typrelid OPERATOR(pg_catalog.<>) 0)
			                                                             THEN pg_catalog.format('%1$I::pg_catalog.text AS %1$I', a.attname)
			                                                             ELSE pg_catalog.quote_ident(a.attname) END, ', ' ORDER BY a.attnum)
			                           FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type y ON y.oid OPERATOR(pg_catalog.=) a.atttypid
			                           WHERE a.attrelid OPERATOR(pg_catalog.=) r.typrelid AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped),
			                          r.typname, 'relation pg_catalog.' || r.typname);
		ELSE
			EXECUTE pg_catalog.format('CREATE DOMAIN %I.%I AS pg_catalog.%I CHECK (regress_trap.recorded(%L, 1))',
			                          target, r.typname, r.typname, 'type pg_catalog.' || r.typname);
		END IF;
		n := n OPERATOR(pg_catalog.+) 1;
	END LOOP;
	kind := 'types';
	made := n;
	RETURN NEXT;

	-- functions, aggregates and window functions (as plain functions: a call
	-- as an aggregate or with OVER fails, a plain call records)
	n := 0;
	FOR r IN
		-- an ordered-set aggregate's "x ORDER BY y": its argument types
		SELECT p.oid, p.proname,
		       CASE WHEN EXISTS (SELECT FROM pg_catalog.pg_aggregate g WHERE g.aggfnoid OPERATOR(pg_catalog.=) p.oid
		                         AND g.aggkind OPERATOR(pg_catalog.<>) 'n')
		            THEN pg_catalog.array_to_string(p.proargtypes::pg_catalog.regtype[]::pg_catalog.text[], ', ')
		            -- a catalog function may be VARIADIC over a type that is no
		            -- array (19's pg_get_*_ddl), which CREATE FUNCTION refuses:
		            -- the same argument types without VARIADIC
		            WHEN p.provariadic OPERATOR(pg_catalog.<>) 0
		             AND p.provariadic OPERATOR(pg_catalog.<>) '"any"'::pg_catalog.regtype
		             AND p.provariadic OPERATOR(pg_catalog.=) p.proargtypes[p.pronargs OPERATOR(pg_catalog.-) 1]
		            THEN pg_catalog.replace(pg_catalog.pg_get_function_arguments(p.oid), 'VARIADIC ', '')
		            ELSE pg_catalog.pg_get_function_arguments(p.oid) END AS args,
		       -- a polymorphic (internal) result needs a polymorphic (internal)
		       -- argument, which the I/O functions of pseudo-types lack: text
		       -- there (the result does not choose a function)
		       CASE WHEN (SELECT pg_catalog.count(*) FROM pg_catalog.unnest(p.proargtypes::pg_catalog.oid[]) a(t)
		                  WHERE pg_catalog.format_type(a.t, NULL) OPERATOR(pg_catalog.~)
		                        CASE WHEN p.prorettype OPERATOR(pg_catalog.=) 'pg_catalog.internal'::pg_catalog.regtype THEN '^internal$' ELSE '^any' END)
		                 OPERATOR(pg_catalog.=) 0
		             AND pg_catalog.format_type(p.prorettype, NULL) OPERATOR(pg_catalog.~) '^(any|internal$)'
		            THEN CASE WHEN p.proretset THEN 'SETOF ' ELSE '' END || 'text'
		            ELSE pg_catalog.pg_get_function_result(p.oid) END AS ret, p.proretset,
		       p.prorettype OPERATOR(pg_catalog.=) 'pg_catalog.void'::pg_catalog.regtype AS returns_void,
		       regress_trap.plpgsql_takes(p.prorettype, true)
		       AND NOT EXISTS (SELECT FROM pg_catalog.unnest(coalesce(p.proallargtypes, p.proargtypes::pg_catalog.oid[])) a(t)
		                       WHERE NOT regress_trap.plpgsql_takes(a.t, false)) AS plpgsql
		FROM pg_catalog.pg_proc p
		WHERE p.pronamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace
		ORDER BY p.oid
	LOOP
		PERFORM regress_trap.twin_function(target, r.proname, r.args, r.ret, r.plpgsql, r.proretset,
		                                   r.returns_void, 'function ' || r.oid::pg_catalog.regprocedure::pg_catalog.text);
		n := n OPERATOR(pg_catalog.+) 1;
	END LOOP;
	kind := 'functions';
	made := n;
	RETURN NEXT;

	-- operators, each on a function of its own
	n := 0;
	FOR r IN
		SELECT o.oid, o.oprname, o.oprleft, o.oprright, o.oprresult
		FROM pg_catalog.pg_operator o
		WHERE o.oprnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace
		ORDER BY o.oid
	LOOP
		PERFORM regress_trap.twin_function(target, 'trap_operator_' || r.oid,
			pg_catalog.concat_ws(', ', CASE WHEN r.oprleft OPERATOR(pg_catalog.<>) 0 THEN r.oprleft::pg_catalog.regtype::pg_catalog.text END,
			                     r.oprright::pg_catalog.regtype::pg_catalog.text),
			r.oprresult::pg_catalog.regtype::pg_catalog.text,
			regress_trap.plpgsql_takes(r.oprresult, true) AND regress_trap.plpgsql_takes(r.oprright, false)
			AND (r.oprleft OPERATOR(pg_catalog.=) 0 OR regress_trap.plpgsql_takes(r.oprleft, false)),
			false, false, 'operator ' || r.oid::pg_catalog.regoperator::pg_catalog.text);
		EXECUTE pg_catalog.format('CREATE OPERATOR %I.%s (%s RIGHTARG = %s, FUNCTION = %I.%I)', target, r.oprname,
			CASE WHEN r.oprleft OPERATOR(pg_catalog.<>) 0 THEN pg_catalog.format('LEFTARG = %s,', r.oprleft::pg_catalog.regtype) ELSE '' END,
			r.oprright::pg_catalog.regtype, target, 'trap_operator_' || r.oid);
		n := n OPERATOR(pg_catalog.+) 1;
	END LOOP;
	kind := 'operators';
	made := n;
	RETURN NEXT;
END $$;

-- the argument types make_overloads replaces, and by what
CREATE FUNCTION regress_trap.substitutions(OUT orig pg_catalog.regtype, OUT repl pg_catalog.regtype) RETURNS SETOF record
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog AS $$
	VALUES ('anyelement'::pg_catalog.regtype, 'text'::pg_catalog.regtype), ('anynonarray', 'text'),
		('anycompatible', 'text'), ('anycompatiblenonarray', 'text'), ('"any"', 'text'),
		('anyarray', 'text[]'), ('anycompatiblearray', 'text[]'),
		('text', 'name'), ('bigint', 'integer'), ('double precision', 'integer'),
		('timestamptz', 'timestamp')
$$;

-- better matches: pg_catalog's argument types replaced by the types a
-- caller passes (polymorphic and "any" by text, or text[] for an array;
-- text by name, bigint and double precision by integer, timestamptz by
-- timestamp: implicit casts), where pg_catalog has no such signature yet
CREATE FUNCTION regress_trap.make_overloads(target name, payload text DEFAULT '', names name[] DEFAULT NULL) RETURNS int
LANGUAGE plpgsql SET search_path = pg_catalog AS $$
DECLARE
	r record;
	n int := 0;
BEGIN
	FOR r IN
		WITH subst AS (SELECT * FROM regress_trap.substitutions()),
		cand AS (
			SELECT p.oid, p.proname, p.prorettype, p.proretset,
			       ARRAY(SELECT coalesce(s.repl, a.t::pg_catalog.regtype)
			             FROM pg_catalog.unnest(p.proargtypes::pg_catalog.oid[]) WITH ORDINALITY a(t, i)
			             LEFT JOIN subst s ON s.orig OPERATOR(pg_catalog.=) a.t
			             ORDER BY a.i) AS args
			FROM pg_catalog.pg_proc p
			WHERE p.pronamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace
			  AND p.prokind OPERATOR(pg_catalog.=) 'f' AND p.proargtypes::pg_catalog.oid[] OPERATOR(pg_catalog.&&) ARRAY(SELECT orig::pg_catalog.oid FROM subst)
			  AND (names IS NULL OR p.proname OPERATOR(pg_catalog.=) ANY (names)))
		SELECT DISTINCT ON (c.proname, c.args) c.*,
		       CASE WHEN t.typtype OPERATOR(pg_catalog.=) 'p' AND t.typname OPERATOR(pg_catalog.<>) 'void' THEN
		                 CASE WHEN t.typname OPERATOR(pg_catalog.~) 'array$' THEN 'text[]' ELSE 'text' END
		            ELSE pg_catalog.format_type(c.prorettype, NULL) END AS ret,
		       c.prorettype OPERATOR(pg_catalog.=) 'pg_catalog.void'::pg_catalog.regtype AS returns_void
		FROM cand c JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) c.prorettype
		WHERE NOT EXISTS (SELECT FROM pg_catalog.unnest(c.args) a(t) WHERE NOT regress_trap.plpgsql_takes(a.t, false))
		  AND (t.typtype OPERATOR(pg_catalog.<>) 'p' OR t.typname OPERATOR(pg_catalog.~) '^(void|record|any.*)$')
		  AND NOT EXISTS (SELECT FROM pg_catalog.pg_proc q
		                  WHERE q.proname OPERATOR(pg_catalog.=) c.proname
		                    AND q.pronamespace OPERATOR(pg_catalog.=) ANY (ARRAY['pg_catalog'::pg_catalog.regnamespace, regress_trap.nsp(target)])
		                    AND q.proargtypes::pg_catalog.oid[] OPERATOR(pg_catalog.=) c.args::pg_catalog.oid[])
		ORDER BY c.proname, c.args, c.oid
	LOOP
		PERFORM regress_trap.twin_function(target, r.proname,
			pg_catalog.array_to_string(r.args::pg_catalog.regtype[]::pg_catalog.text[], ', '),
			CASE WHEN r.proretset THEN 'SETOF ' ELSE '' END || r.ret, true, r.proretset, r.returns_void,
			pg_catalog.format('overload %s(%s)', r.proname, pg_catalog.array_to_string(r.args::pg_catalog.regtype[]::pg_catalog.text[], ', ')),
			payload);
		n := n OPERATOR(pg_catalog.+) 1;
	END LOOP;
	-- operators, with the same replacements, each on a function of its own
	FOR r IN
		WITH subst AS (SELECT * FROM regress_trap.substitutions() WHERE orig OPERATOR(pg_catalog.<>) '"any"'::pg_catalog.regtype),
		cand AS (
			SELECT o.oid, o.oprname, o.oprresult,
			       CASE WHEN o.oprleft OPERATOR(pg_catalog.=) 0 THEN 0 ELSE
			            coalesce((SELECT s.repl FROM subst s WHERE s.orig OPERATOR(pg_catalog.=) o.oprleft), o.oprleft) END AS l,
			       coalesce((SELECT s.repl FROM subst s WHERE s.orig OPERATOR(pg_catalog.=) o.oprright), o.oprright) AS r
			FROM pg_catalog.pg_operator o
			WHERE o.oprnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace
			  AND ARRAY[o.oprleft, o.oprright] OPERATOR(pg_catalog.&&) ARRAY(SELECT orig::pg_catalog.oid FROM subst)
			  AND (names IS NULL OR o.oprname OPERATOR(pg_catalog.=) ANY (names)))
		SELECT DISTINCT ON (c.oprname, c.l, c.r) c.*,
		       CASE WHEN t.typtype OPERATOR(pg_catalog.=) 'p' THEN
		                 CASE WHEN t.typname OPERATOR(pg_catalog.~) 'array$' THEN 'text[]' ELSE 'text' END
		            ELSE pg_catalog.format_type(c.oprresult, NULL) END AS ret
		FROM cand c JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) c.oprresult
		WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_operator q
		                  WHERE q.oprname OPERATOR(pg_catalog.=) c.oprname
		                    AND q.oprnamespace OPERATOR(pg_catalog.=) ANY (ARRAY['pg_catalog'::pg_catalog.regnamespace::pg_catalog.oid, regress_trap.nsp(target)])
		                    AND q.oprleft OPERATOR(pg_catalog.=) c.l AND q.oprright OPERATOR(pg_catalog.=) c.r)
		  AND (c.l OPERATOR(pg_catalog.=) 0 OR regress_trap.plpgsql_takes(c.l, false)) AND regress_trap.plpgsql_takes(c.r, false)
		ORDER BY c.oprname, c.l, c.r, c.oid
	LOOP
		PERFORM regress_trap.twin_function(target, 'overload_operator_' || r.oid,
			pg_catalog.concat_ws(', ', CASE WHEN r.l OPERATOR(pg_catalog.<>) 0 THEN r.l::pg_catalog.regtype::pg_catalog.text END,
			                     r.r::pg_catalog.regtype::pg_catalog.text),
			r.ret, true, false, false,
			pg_catalog.format('overload operator %s(%s, %s)', r.oprname, r.l::pg_catalog.regtype, r.r::pg_catalog.regtype),
			payload);
		EXECUTE pg_catalog.format('CREATE OPERATOR %I.%s (%s RIGHTARG = %s, FUNCTION = %I.%I)', target, r.oprname,
			CASE WHEN r.l OPERATOR(pg_catalog.<>) 0 THEN pg_catalog.format('LEFTARG = %s,', r.l::pg_catalog.regtype) ELSE '' END,
			r.r::pg_catalog.regtype, target, 'overload_operator_' || r.oid);
		n := n OPERATOR(pg_catalog.+) 1;
	END LOOP;
	RETURN n;
END $$;

-- during CREATE or ALTER EXTENSION ... SCHEMA target: target before pg_catalog
CREATE FUNCTION regress_trap.trap_path() RETURNS event_trigger
LANGUAGE plpgsql AS $$
BEGIN
	-- no SET clause: it would undo this on return
	PERFORM pg_catalog.set_config('search_path',
		pg_catalog.current_setting('regress_trap.path'), false);
END $$;
-- (the trigger fires for the CREATE or ALTER EXTENSION itself too, and that
-- outlives the statement: disarm puts the session's search_path back)
CREATE FUNCTION regress_trap.arm(target name) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog AS $$
BEGIN
	PERFORM pg_catalog.set_config('regress_trap.path', pg_catalog.format('%I, pg_catalog, pg_temp', target), false);
	PERFORM pg_catalog.set_config('regress_trap.saved_path', pg_catalog.current_setting('search_path'), false);
	CREATE EVENT TRIGGER regress_trap_path ON ddl_command_start EXECUTE FUNCTION regress_trap.trap_path();
END $$;
CREATE FUNCTION regress_trap.disarm() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	DROP EVENT TRIGGER regress_trap_path;
	-- no SET clause: it would undo this on return
	PERFORM pg_catalog.set_config('search_path', pg_catalog.current_setting('regress_trap.saved_path'), false);
END $$;

-- objects of extension ext that depend on an object of target that is not
-- the extension's
CREATE FUNCTION regress_trap.depending(target name, ext name) RETURNS TABLE (object text, depends_on text)
LANGUAGE sql STABLE SET search_path = pg_catalog AS $$
	WITH members AS MATERIALIZED (
		SELECT d.classid, d.objid FROM pg_catalog.pg_depend d
		WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
		  AND d.deptype OPERATOR(pg_catalog.=) 'e'
		  AND d.refobjid OPERATOR(pg_catalog.=) (SELECT e.oid FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) ext)),
	objs AS MATERIALIZED (   -- the members and what belongs to them (a view's rule, an array type)
		SELECT classid, objid FROM members
		UNION SELECT d.classid, d.objid FROM pg_catalog.pg_depend d JOIN members m
		      ON d.refclassid OPERATOR(pg_catalog.=) m.classid AND d.refobjid OPERATOR(pg_catalog.=) m.objid
		     AND d.deptype OPERATOR(pg_catalog.=) ANY ('{i,a}'::"char"[])),
	refs AS MATERIALIZED (   -- what they depend on, outside themselves
		SELECT d.* FROM objs o JOIN pg_catalog.pg_depend d
		       ON d.classid OPERATOR(pg_catalog.=) o.classid AND d.objid OPERATOR(pg_catalog.=) o.objid
		WHERE NOT EXISTS (SELECT FROM objs x WHERE x.classid OPERATOR(pg_catalog.=) d.refclassid
		                                       AND x.objid OPERATOR(pg_catalog.=) d.refobjid))
	SELECT DISTINCT pg_catalog.pg_describe_object(r.classid, r.objid, r.objsubid),
	       pg_catalog.pg_describe_object(r.refclassid, r.refobjid, 0)
	FROM refs r
	WHERE regress_trap.nsp(target) OPERATOR(pg_catalog.=) CASE
		WHEN r.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
		THEN (SELECT p.pronamespace FROM pg_catalog.pg_proc p WHERE p.oid OPERATOR(pg_catalog.=) r.refobjid)
		WHEN r.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass
		THEN (SELECT t.typnamespace FROM pg_catalog.pg_type t WHERE t.oid OPERATOR(pg_catalog.=) r.refobjid)
		WHEN r.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass
		THEN (SELECT o.oprnamespace FROM pg_catalog.pg_operator o WHERE o.oid OPERATOR(pg_catalog.=) r.refobjid)
		WHEN r.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
		THEN (SELECT c.relnamespace FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) r.refobjid) END
	ORDER BY 1, 2
$$;

-- the words and operator symbols of a text (code, strings and comments
-- alike): every name it may resolve
CREATE FUNCTION regress_trap.names_in(script text) RETURNS SETOF name
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog AS $$
	SELECT DISTINCT pg_catalog.lower(m[1])::pg_catalog.name
	FROM pg_catalog.regexp_matches(script, '([A-Za-z_][A-Za-z0-9_$]*)', 'g') m
	UNION
	SELECT DISTINCT m[1]::pg_catalog.name
	FROM pg_catalog.regexp_matches(script, '([-+*/<>=~!@#%^&|`?]+)', 'g') m
$$;

-- the names of pg_catalog's functions, operators and types that script
-- mentions and target has no twin of
CREATE FUNCTION regress_trap.missing(target name, script text) RETURNS SETOF name
LANGUAGE sql STABLE SET search_path = pg_catalog AS $$
	WITH catalog(w) AS (
		SELECT proname FROM pg_catalog.pg_proc WHERE pronamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace
		UNION SELECT typname FROM pg_catalog.pg_type WHERE typnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace
		UNION SELECT oprname FROM pg_catalog.pg_operator WHERE oprnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace),
	twins(w) AS (
		SELECT proname FROM pg_catalog.pg_proc WHERE pronamespace OPERATOR(pg_catalog.=) regress_trap.nsp(target)
		UNION SELECT typname FROM pg_catalog.pg_type WHERE typnamespace OPERATOR(pg_catalog.=) regress_trap.nsp(target)
		UNION SELECT oprname FROM pg_catalog.pg_operator WHERE oprnamespace OPERATOR(pg_catalog.=) regress_trap.nsp(target))
	SELECT w FROM regress_trap.names_in(script) n(w) WHERE w OPERATOR(pg_catalog.=) ANY (SELECT w FROM catalog)
	EXCEPT SELECT w FROM twins
	ORDER BY 1
$$;
