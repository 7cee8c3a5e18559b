#!/usr/bin/python3
"""Finds, in every expression of the SQL edition's script, a part the
planner may drop without evaluating it while the part calls a function or
casts (which is where the edition's state is checked and written: a
domain's check, set_config()).  PostgreSQL 19 folds a NULL test of an
expression that cannot be NULL to a constant (expr_is_nonnullable() in
src/backend/optimizer/util/clauses.c: a NULL test, a boolean test, IS
DISTINCT FROM, a constant, COALESCE or GREATEST/LEAST with such an
argument, CASE whose results and ELSE all are, ARRAY[], a binary-coercible
cast of one), and every version folds AND with false and OR with true, and
COALESCE after its first argument that is such an expression.  On 19 the
fast paths of distid_generate() and iuid_generate(c, e, at) read
"(state::domain IS NULL) IS NOT NULL", which 19 folds to true: the check
never ran.

It also finds a string constant with a backslash: with
standard_conforming_strings off, which any role may set, the session that
parses it reads the backslash as an escape (and warns, with
escape_string_warning), and PL/pgSQL bodies are parsed by the calling
session, the first time it runs them; the SQL-standard bodies and the
rest by the installing session.  '[}]' and '[[:ascii:]]' say in a regular
expression what '\}' and '[\x01-\x7f]' do, in either.

Usage: folding.py SCRIPT    (portable/idgen_portable--1.1.sql)

It parses the script with PostgreSQL's parser (pglast): the SQL-standard
bodies, domains' checks, defaults and every statement, and each expression
and statement of the PL/pgSQL bodies.  A query it cannot parse is a
failure too (the check sees every expression, run or not).  The SQL a
function builds with format() for EXECUTE is not seen.
"""
import re
import sys

import pglast
import pglast.stream
import pglast.visitors
from pglast import ast, enums


def has_call(node):
    """Whether NODE calls a function or casts (a domain's check runs)."""
    found = []

    class V(pglast.visitors.Visitor):
        def visit_FuncCall(self, ancestors, n):
            found.append(n)

        def visit_TypeCast(self, ancestors, n):
            found.append(n)

    V()(node)
    return bool(found)


def is_const(n, value=None):
    if not isinstance(n, ast.A_Const) or n.isnull:
        return False
    if value is None:
        return True
    return isinstance(n.val, ast.Boolean) and n.val.boolval == value


def nonnullable(n):
    """PostgreSQL 19's expr_is_nonnullable(), on the raw parse tree."""
    if isinstance(n, ast.TypeCast) and is_const(n.arg):
        return True
    if isinstance(n, (ast.NullTest, ast.BooleanTest, ast.A_ArrayExpr)):
        return True
    if isinstance(n, ast.A_Const):
        return not n.isnull
    if isinstance(n, ast.A_Expr) and n.kind in (enums.A_Expr_Kind.AEXPR_DISTINCT,
                                                enums.A_Expr_Kind.AEXPR_NOT_DISTINCT):
        return True
    if isinstance(n, (ast.CoalesceExpr, ast.MinMaxExpr)):
        return any(nonnullable(a) for a in n.args)
    if isinstance(n, ast.CaseExpr):
        return n.defresult is not None and nonnullable(n.defresult) and all(nonnullable(w.result) for w in n.args)
    return False


def findings(tree, where):
    out = []

    class V(pglast.visitors.Visitor):
        def visit_NullTest(self, ancestors, n):
            if nonnullable(n.arg) and has_call(n.arg):
                out.append(f"{where}: a NULL test of an expression that cannot be NULL, which calls: "
                           f"{pglast.stream.RawStream()(n)}")

        def visit_BoolExpr(self, ancestors, n):
            const = {enums.BoolExprType.AND_EXPR: False, enums.BoolExprType.OR_EXPR: True}.get(n.boolop)
            if const is not None and any(is_const(a, const) for a in n.args) and any(has_call(a) for a in n.args):
                out.append(f"{where}: {'AND false' if const is False else 'OR true'} beside a call: "
                           f"{pglast.stream.RawStream()(n)}")

        def visit_A_Const(self, ancestors, n):
            if not n.isnull and isinstance(n.val, ast.String) and '\\' in n.val.sval:
                out.append(f"{where}: a string constant with a backslash, which standard_conforming_strings off "
                           f"reads as an escape: {pglast.stream.RawStream()(n)}")

        def visit_CoalesceExpr(self, ancestors, n):
            for i, a in enumerate(n.args[:-1]):
                if nonnullable(a) and any(has_call(b) for b in n.args[i + 1:]):
                    out.append(f"{where}: COALESCE after an argument that cannot be NULL, a call: "
                               f"{pglast.stream.RawStream()(n)}")
                    break

    V()(tree)
    return out


def plpgsql_queries(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == 'PLpgSQL_expr':
                yield v['query']
            else:
                yield from plpgsql_queries(v)
    elif isinstance(node, list):
        for v in node:
            yield from plpgsql_queries(v)


def parse_query(q):
    """A PL/pgSQL expression or statement as SQL (an assignment's target cut)."""
    for text in (q, 'SELECT ' + re.sub(r'^\s*[\w.]+(\[[^]]*\])?\s*:=', '', q)):
        try:
            return pglast.parse_sql(text)
        except pglast.parser.ParseError:
            continue
    return None


def main(path):
    sql = open(path).read().replace('@extschema@', 'idgen_portable')
    sql = re.sub(r'(?m)^\\.*$', '', sql)		# psql's \echo ... \quit
    problems, exprs = [], 0
    for raw in pglast.parse_sql(sql):
        st = raw.stmt
        text = sql[raw.stmt_location:raw.stmt_location + raw.stmt_len]
        name = re.sub(r'\s+', ' ', re.sub(r'(?m)^\s*--.*$', '', text).strip())[:70]
        problems += findings(st, name)
        exprs += 1
        if isinstance(st, (ast.CreateFunctionStmt, ast.DoStmt)):
            opts = st.options if isinstance(st, ast.CreateFunctionStmt) else st.args
            lang = [o.arg.sval for o in opts if o.defname == 'language']
            if lang == ['plpgsql'] or (isinstance(st, ast.DoStmt) and not lang):
                if isinstance(st, ast.DoStmt):
                    body = [o.arg.sval for o in st.args if o.defname == 'as'][0]
                    text = 'CREATE FUNCTION do_block() RETURNS void LANGUAGE plpgsql AS $do_block$' + body + '$do_block$'
                for q in plpgsql_queries(pglast.parse_plpgsql(text)):
                    tree = parse_query(q)
                    if tree is None:
                        problems.append(f"{name}: a PL/pgSQL query this check cannot parse: {q[:80]}")
                        continue
                    exprs += 1
                    problems += findings(tree, name)
    for p in problems:
        print(p)
    print(f"folding.py: {exprs} statements and PL/pgSQL queries read, {len(problems)} problems", file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1]))
