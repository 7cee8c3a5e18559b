#!/usr/bin/python3
"""plpgsql_check finds a typo in a record field filled by dynamic SQL
(test/plpgsqlcheck/run.sh runs this against its scratch database, where
idgen and plpgsql_check are installed; PGHOST and PGPORT name the server).

idgen's partition functions read records filled by FOR ... IN EXECUTE,
whose columns plpgsql_check cannot know; a type pragma in the body,
PERFORM 'PRAGMA:TYPE:r (col type, ...)', tells it.  For every PL/pgSQL
function of idgen with such a pragma (idgen_create_partitions,
idgen_partitions and idgen_retire_partitions must have one), each reference
to a field of the record after the pragma is misspelt in turn (r.ident ->
r.idetn) in a copy of the function made in a schema of its own; the
copy must have a finding the original has not: 42703 'record "r" has
no field "idetn"', on the line of the statement the reference is in (its
first line: that line or one above).  Prints "ok - ..." /
"not ok - ..." lines; exits non-zero only when it cannot run to its end.
"""
import collections
import os
import re

import psycopg2

MUST = ("idgen_create_partitions", "idgen_partitions", "idgen_retire_partitions")
PRAGMA = re.compile(r"PRAGMA:TYPE:(\w+) \(([^)]*)\)")
CHECK = ("SELECT lineno, sqlstate, message FROM plpgsql_check_function_tb(%s::regprocedure, fatal_errors => false, "
         "performance_warnings => true, security_warnings => true, extra_warnings => true, "
         "compatibility_warnings => true)")
PASSED = FAILED = 0


def check(name, ok, detail=None):
    global PASSED, FAILED
    PASSED, FAILED = PASSED + bool(ok), FAILED + (not ok)
    print(f"{'ok' if ok else 'not ok'} - {name}", flush=True)
    if not ok and detail:
        print(f"#   {detail}", flush=True)


def typo(field, fields):
    """a misspelling of field that is none of the record's fields"""
    t = field[:-2] + field[-1] + field[-2] if len(field) > 1 and field[-1] != field[-2] else field + field[-1]
    return t if t not in fields else field + "x"


def findings(cur, fn):
    cur.execute(CHECK, (fn,))
    return collections.Counter(cur.fetchall())


def main():
    conn = psycopg2.connect(host=os.environ["PGHOST"], port=os.environ["PGPORT"], user="postgres",
                            dbname="postgres")
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("""
        SELECT p.oid, p.proname, p.oid::regprocedure::text, p.prosrc, pg_catalog.pg_get_functiondef(p.oid)
        FROM pg_catalog.pg_proc p
        JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
        JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'idgen'
        WHERE p.prolang = (SELECT oid FROM pg_catalog.pg_language WHERE lanname = 'plpgsql')
          AND p.prosrc LIKE '%PRAGMA:TYPE:%'
        ORDER BY 2""")
    functions = cur.fetchall()
    names = [f[1] for f in functions]
    check("the partition functions declare the records of their dynamic SQL with type pragmas (%s)"
          % ", ".join(names), all(n in names for n in MUST), "missing: %s" % [n for n in MUST if n not in names])
    cur.execute("DROP SCHEMA IF EXISTS plpgsql_check_mutant CASCADE; CREATE SCHEMA plpgsql_check_mutant")
    serial = 0
    for oid, name, signature, src, definition in functions:
        base = findings(cur, oid)
        head = definition.index(src)   # the body, verbatim in the definition
        refs = []
        for m in PRAGMA.finditer(src):
            var = m[1]
            fields = {f.split()[0] for f in m[2].split(",")}
            refs += [(r, var, fields) for r in re.finditer(r"\b%s\.(\w+)" % re.escape(var), src)
                     if r.start() > m.end()]
        missed = []
        for r, var, fields in refs:
            wrong = typo(r[1], fields)
            body = src[:r.start(1)] + wrong + src[r.end(1):]
            serial += 1
            mutant = "plpgsql_check_mutant.m%d" % serial
            sql = definition[:head] + body + definition[head + len(src):]
            sql = re.sub(r"^CREATE OR REPLACE FUNCTION [^(]+\(", "CREATE FUNCTION %s(" % mutant, sql, count=1)
            cur.execute(sql)
            cur.execute("SELECT %s::regproc::oid", (mutant,))
            got = findings(cur, cur.fetchone()[0])
            extra = got - base
            line = src.count("\n", 0, r.start()) + 1
            message = 'record "%s" has no field "%s"' % (var, wrong)
            # on the line of the statement the reference is in: that line or one above
            if [f for f in extra if f[1:] == ("42703", message) and f[0] <= line] == []:
                missed.append("%s.%s -> %s.%s on line %d: new findings %s" % (var, r[1], var, wrong, line, list(extra)))
        check("%s: plpgsql_check finds each of %d typos planted one at a time in its record fields (%s)"
              % (signature, len(refs), ", ".join(sorted({"%s.%s" % (v, r[1]) for r, v, _ in refs}))),
              refs and not missed, "; ".join(missed) or "no field reference after the pragma")
    cur.execute("DROP SCHEMA plpgsql_check_mutant CASCADE")
    conn.close()


if __name__ == "__main__":
    main()
