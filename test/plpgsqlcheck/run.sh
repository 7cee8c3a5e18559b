# test/plpgsqlcheck/run.sh — sourced by tools/test.sh after tools/lib.sh and
# test/ops/common.sh.
#
# run_plpgsql_check (per major): plpgsql_check (Debian's
# postgresql-15-plpgsql-check) over every PL/pgSQL function of both
# editions: those of the extension idgen (sql/idgen--1.1.sql) and of
# idgen_portable (portable/), both created in one scratch database, each
# checked by plpgsql_check_function_tb with its extra, performance, security
# and compatibility warnings on, and fatal_errors off (a function's check
# goes on past its first error, so none hides another).  Every finding must
# be explained by a comment of its own right above the line it is on ("--
# plpgsql_check: LEVEL SQLSTATE [the message's start] why it stays",
# allowed.py), and every such comment must match as many findings as it
# says (one unless it says "(N findings)"), so an explanation neither covers
# others nor outlives what it explains.  The records the partition functions
# fill by dynamic SQL are typed by pragmas in their bodies; mutants.py
# misspells each field reference in a copy and plpgsql_check must find
# each typo.  Debian packages
# plpgsql_check for PostgreSQL 15 only: on other majors the suite is
# skipped.

run_plpgsql_check() {
	local log=$IDGEN_WORK/plpgsql-check.log rc=0
	if [ ! -f "$("$PG_BIN/pg_config" --pkglibdir)/plpgsql_check.so" ]; then
		skip "${SUITE_PREFIX}plpgsql-check" 1 "no plpgsql_check for PostgreSQL $PG_LABEL (Debian packages it for 15 only: postgresql-15-plpgsql-check)"
		return 0
	fi
	OPS_PASS=0 OPS_FAIL=0
	plpgsql_check_checks >"$log" 2>&1 || rc=$?
	ops_record plpgsql-check "$log" "$rc"
}

plpgsql_check_checks() {
	# a cluster of its own, beside the regress suite's
	local IDGEN_WORK=$IDGEN_WORK/plpgsql-check
	local findings functions n comments
	mkdir -p "$IDGEN_WORK"
	[ "$(id -u)" -eq 0 ] && chown "$SERVER_USER" "$IDGEN_WORK"
	idgen_cluster_start || return 1
	{
		"$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION idgen' \
			-c 'CREATE EXTENSION idgen_portable CASCADE' -c 'CREATE EXTENSION plpgsql_check' &&
			# the PL/pgSQL functions that belong to either extension
			functions=$("$PG_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 <<'SQL'
SELECT e.extname || ' ' || p.oid::regprocedure
FROM pg_catalog.pg_proc p
JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname IN ('idgen', 'idgen_portable')
WHERE p.prolang = (SELECT oid FROM pg_catalog.pg_language WHERE lanname = 'plpgsql')
ORDER BY 1
SQL
			) &&
			# one line per finding, tab-separated: function, level, sqlstate,
			# line, message (with its detail), the source line it is on
			findings=$("$PG_BIN/psql" -X -q -At -F $'\t' -v ON_ERROR_STOP=1 <<'SQL'
SELECT p.oid::regprocedure, c.level, c.sqlstate, c.lineno,
       pg_catalog.regexp_replace(c.message || coalesce(': ' || c.detail, ''), '\s+', ' ', 'g'),
       CASE WHEN c.lineno > 0 THEN pg_catalog.btrim(pg_catalog.regexp_replace(
           pg_catalog.split_part(p.prosrc, E'\n', c.lineno), '\s+', ' ', 'g')) END
FROM pg_catalog.pg_proc p
JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname IN ('idgen', 'idgen_portable')
CROSS JOIN LATERAL plpgsql_check_function_tb(p.oid, fatal_errors => false, performance_warnings => true,
                                             security_warnings => true, extra_warnings => true,
                                             compatibility_warnings => true) c
WHERE p.prolang = (SELECT oid FROM pg_catalog.pg_language WHERE lanname = 'plpgsql')
ORDER BY 1, 4, 5
SQL
			) &&
			# the comment lines of the same functions' bodies, tab-separated:
			# function, line, text (the explanations)
			comments=$("$PG_BIN/psql" -X -q -At -F $'\t' -v ON_ERROR_STOP=1 <<'SQL'
SELECT p.oid::regprocedure, l.n, l.line
FROM pg_catalog.pg_proc p
JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname IN ('idgen', 'idgen_portable')
CROSS JOIN LATERAL pg_catalog.regexp_split_to_table(p.prosrc, E'\n') WITH ORDINALITY l(line, n)
WHERE p.prolang = (SELECT oid FROM pg_catalog.pg_language WHERE lanname = 'plpgsql')
  AND l.line ~ '^\s*--'
ORDER BY 1, 2
SQL
			)
	} || { idgen_cluster_stop; return 1; }
	# a typo in each record field of the partition functions, found
	/usr/bin/python3 "$IDGEN_BUILD/test/plpgsqlcheck/mutants.py" ||
		echo "not ok - mutants.py ran to its end"
	idgen_cluster_stop
	as_server rm -rf "$IDGEN_WORK/data"

	echo "# PL/pgSQL functions checked: $(grep -c '^idgen ' <<<"$functions" || true) of idgen," \
		"$(grep -c '^idgen_portable ' <<<"$functions" || true) of idgen_portable"
	check "idgen has PL/pgSQL functions to check" grep -q '^idgen ' <<<"$functions"
	check "idgen_portable has PL/pgSQL functions to check" grep -q '^idgen_portable ' <<<"$functions"
	n=$(grep -c . <<<"$findings" || true)
	echo "# plpgsql_check findings: $n"
	[ -z "$findings" ] || sed 's/^/#   /' <<<"$findings"
	printf '%s\n' "$comments" >"$IDGEN_WORK/comments.tsv"
	/usr/bin/python3 "$IDGEN_BUILD/test/plpgsqlcheck/allowed.py" "$IDGEN_WORK/comments.tsv" <<<"$findings"
}
