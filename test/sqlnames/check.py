#!/usr/bin/python3
"""Every name idgen's SQL looks up is schema-qualified, as PostgreSQL's own
parser reads it (libpg_query, through python3-pglast), whether the code runs
in a test or not: under a version gate, in an error branch, in a template of
dynamic SQL.

Usage: check.py [--bki FILE] ROOT [FILE...]

--bki: the postgres.bki of a PostgreSQL install (default: Debian's 15), for
the names pg_catalog has (an own name that is also pg_catalog's gets no rule).

Read (default; FILEs replace the list):
  - every install and update script, sql/idgen--*.sql;
  - the SQL edition's source, portable/idgen_portable.sql.in (its templates
    expanded as portable/generate.py expands them; reported at the source's
    lines), and the code generate.py wraps it in for pg_tle
    (portable/install_pg_tle.sql: the install block and the creator check;
    the extension script it carries is the source above);
  - in them, every LANGUAGE sql body, every PL/pgSQL body (functions and DO
    blocks: declarations, expressions, statements), and the templates of
    dynamic SQL: the constant first argument of format() (its %I, %L and %s
    stand for what the caller supplies) and the constant query of EXECUTE.

Reported, with file and line: every reference to a function, operator, type
(in declarations and casts) or collation whose name is not schema-qualified.
The parser's own unqualified lookups count too: x IN (...) and x NOT IN
(...), CASE x WHEN, BETWEEN, LIKE, IS DISTINCT FROM and NULLIF compare with
an operator found by name.  Not reported: a name the grammar qualifies
itself (int, bigint, numeric, interval, extract(...), ...: pg_catalog's by
construction) and what ALLOWED (below, printed on every run) lets through.
A template that should be SQL and does not parse is a failure too.

Prints one line per finding and "sqlnames: N passed, M failed".
"""
import fnmatch
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "doc"))
from common import Tally   # noqa: E402

try:
    from pglast import parser
except ImportError:
    sys.exit("sqlnames: python3-pglast is missing (Debian package python3-pglast; run with /usr/bin/python3)")

# The only escape.  Each entry: the editions (or files) it covers, what it
# lets through, and why that cannot be hijacked.  A rule that matches
# nothing fails the check (no stale entries).
ALLOWED = [
    ({"own-type"}, "sql/idgen--*.sql",
     "a type the extension scripts create (iuid, base36id, distid, flaxid), named bare at the top "
     "level of a script or in its DO blocks (not in a function's body): CREATE EXTENSION looks it up in the extension's schema, and no object "
     "of that name can exist there before the script's own transaction creates it"),
    ({"own-function"}, "sql/idgen--*.sql",
     "a function the extension scripts create, named bare at the top level of a script where it "
     "is created, commented on, granted or attached (names pg_catalog does not have, or with an "
     "argument of the extension's own types): found in the extension's schema, as above"),
    ({"own-operator"}, "sql/idgen--*.sql",
     "an operator on the extension's own types (=, <, ... in CREATE OPERATOR's COMMUTATOR and "
     "NEGATOR, an aggregate's SORTOP, an operator class or family, COMMENT ON OPERATOR): an "
     "operator taking a type the script creates cannot exist before it"),
    ({"own-function", "own-function@body"}, "portable/idgen_portable.sql.in",
     "a function of the SQL edition itself (names pg_catalog does not have), called bare from "
     "its own bodies: every function pins search_path to pg_catalog, the edition's schema and "
     "pg_temp, and the install refuses a schema any other role can create objects in"),
    ({"type", "function-signature"}, "sql/idgen--1.0.sql",
     "the released 1.0 script, which never changes (CONTRIBUTING): its bare names are core types "
     "and support functions named with their exact arguments (RESTRICT, JOIN, an operator "
     "class's FUNCTION), which CREATE EXTENSION finds in pg_catalog, searched before the "
     "extension's schema (a type also in the installing session's own temporary schema); it has "
     "no bare call, operator, cast or collation; 1.1 and the update to it qualify every one"),
]
RULE_USED = [0] * len(ALLOWED)

COMMAND = re.compile(r"\s*\(?\s*(SELECT|WITH|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|LOCK|COMMENT|GRANT|"
                     r"REVOKE|TRUNCATE|VALUES|TABLE|SET|REINDEX|CLUSTER|VACUUM|ANALYZE|COPY)\b", re.I)
OPCHARS = set("+-*/<>=~!@#%^&|`?")

# DefineStmt / CreateRangeStmt options that name a function, an operator or a type
FUNC_SLOTS = {"procedure", "function", "sfunc", "finalfunc", "combinefunc", "serialfunc", "deserialfunc",
              "msfunc", "minvfunc", "mfinalfunc", "input", "output", "receive", "send", "typmod_in",
              "typmod_out", "analyze", "subscript", "restrict", "join", "canonical", "subtype_diff"}
OPER_SLOTS = {"commutator", "negator", "sortop"}
TYPE_SLOTS = {"leftarg", "rightarg", "stype", "mstype", "basetype", "element", "subtype", "like"}


def pg_catalog_names(bki):
    """The names of pg_catalog's functions, types, operators and collations (postgres.bki)."""
    names = {"function": set(), "type": set(), "operator": set(), "collation": set()}
    table = None
    which = {"pg_proc": "function", "pg_type": "type", "pg_operator": "operator", "pg_collation": "collation"}
    with open(bki, encoding="utf-8") as f:
        for line in f:
            if line.startswith("create "):
                table = which.get(line.split()[1])
            elif table and line.startswith("insert ("):
                name = line.split()[3]
                names[table].add(name.strip("'\""))
    return names


class Unit:
    """One text the parser reads as a whole: its bytes, and where each of its
    lines comes from (file, line, note)."""

    def __init__(self, label, text, origin=None):
        self.label = label
        self.data = text.encode("utf-8")
        self.origin = origin   # list: line index -> (file, line, note)

    def where(self, line):
        if self.origin is None:
            return self.label, line, ""
        return self.origin[min(line, len(self.origin)) - 1]


class Src:
    """A text inside a unit (the unit itself, a body, an expression, a
    template) starting at a line of the unit; a parse location (bytes) in it
    is a line of the unit."""

    def __init__(self, unit, data, line):
        self.unit, self.data, self.line = unit, data, line

    def line_at(self, loc):
        return self.line + self.data[:max(loc, 0)].count(b"\n")

    def child(self, data, loc):
        return Src(self.unit, data, self.line_at(loc))


def sval(node):
    return node["String"]["sval"] if isinstance(node, dict) and "String" in node else None


def names_of(lst):
    return [sval(n) if sval(n) is not None else "*" for n in (lst or [])]


def typename(node):
    """The names of a TypeName node (with its type's name or without), or None."""
    if isinstance(node, dict) and "TypeName" in node:
        node = node["TypeName"]
    if isinstance(node, dict) and "names" in node:
        return names_of(node.get("names"))
    return None


# fields of a node type that the JSON writes bare (a struct pointer, not a Node)
UNWRAPPED = {
    ("TypeCast", "typeName"): "TypeName", ("ColumnDef", "typeName"): "TypeName",
    ("ColumnDef", "collClause"): "CollateClause", ("FunctionParameter", "argType"): "TypeName",
    ("CreateFunctionStmt", "returnType"): "TypeName", ("CreateDomainStmt", "typeName"): "TypeName",
    ("CreateDomainStmt", "collClause"): "CollateClause", ("CreateOpClassStmt", "datatype"): "TypeName",
    ("CreateOpClassItem", "name"): "ObjectWithArgs", ("CreateOpClassItem", "storedtype"): "TypeName",
    ("CreateCastStmt", "sourcetype"): "TypeName", ("CreateCastStmt", "targettype"): "TypeName",
    ("CreateCastStmt", "func"): "ObjectWithArgs", ("CreateTransformStmt", "type_name"): "TypeName",
    ("CreateTransformStmt", "fromsql"): "ObjectWithArgs", ("CreateTransformStmt", "tosql"): "ObjectWithArgs",
    ("AlterFunctionStmt", "func"): "ObjectWithArgs", ("AlterOperatorStmt", "opername"): "ObjectWithArgs",
    ("XmlSerialize", "typeName"): "TypeName", ("RangeTableFuncCol", "typeName"): "TypeName",
}


class Checker:
    def __init__(self, root, catalog):
        self.root = root
        self.cat = catalog
        self.findings = []
        self.errors = []
        self.refs = 0
        self.collecting = False
        self.own = {}   # edition -> {"type": set, "function": set}

    # -- what counts as the edition's own -----------------------------------
    def collect_own(self, edition, units):
        """A first walk of the edition, reporting nothing: the types and
        functions its scripts create (also through dynamic SQL)."""
        self.own.setdefault(edition, {"type": set(), "function": set()})
        self.collecting = True
        for unit in units:
            self.check_unit(unit, edition)
        self.collecting = False
        self.findings, self.errors, self.refs = [], [], 0

    def created(self, ctx, kind, names):
        if self.collecting and names:
            self.own[ctx.edition][kind].add(names[-1])

    def is_own_type(self, edition, names):
        return (names is not None and len(names) == 1 and names[0] in self.own[edition]["type"]
                and names[0] not in self.cat["type"])

    def any_own_type(self, edition, types):
        return any(self.is_own_type(edition, t) for t in types if t)

    # -- reporting ----------------------------------------------------------
    def allowed(self, kinds, file):
        for i, (rule, glob_, _why) in enumerate(ALLOWED):
            if rule & kinds and fnmatch.fnmatch(file, glob_):
                RULE_USED[i] += 1
                return True
        return False

    def ref(self, ctx, src, loc, kind, names, what, own=None, signature=False):
        """A reference to a KIND (function, operator, type, collation) by
        NAMES: counted, and reported when the name is bare and no rule of
        ALLOWED lets it through."""
        if placeholder(names):
            return
        self.refs += 1
        if len(names) != 1 or self.collecting:
            return
        file, line, note = src.unit.where(src.line_at(loc))
        # an own object named inside a body or a template: a rule of its own
        kinds = {own + ("" if ctx.top else "@body")} if own else set()
        kinds.add("function-signature" if kind == "function" and signature else kind)
        if self.allowed(kinds, file):
            return
        self.findings.append((file, line, f"{kind} {names[0]} is not schema-qualified ({what}){note}"))

    def error(self, src, loc, what):
        if self.collecting:
            return
        file, line, note = src.unit.where(src.line_at(loc))
        self.errors.append((file, line, what + note))

    # -- parsing ------------------------------------------------------------
    def parse(self, src, quiet=False):
        try:
            return json.loads(parser.parse_sql_json(src.data.decode("utf-8")))["stmts"]
        except parser.ParseError as e:
            if not quiet:
                self.error(src, getattr(e, "location", 0) or 0, f"does not parse: {e}")
            return None

    def check_unit(self, unit, edition):
        src = Src(unit, unit.data, 1)
        for stmt in self.parse(src) or []:
            self.visit(stmt["stmt"], src, Ctx(edition, top=True).at_stmt(stmt, src))

    # -- the walk -----------------------------------------------------------
    def visit(self, node, src, ctx):
        if isinstance(node, list):
            for n in node:
                self.visit(n, src, ctx)
            return
        if not isinstance(node, dict):
            return
        for kind, body in node.items():
            if isinstance(body, dict):
                self.visit_node(kind, body, src, ctx)
            else:
                self.visit(body, src, ctx)

    def visit_node(self, kind, body, src, ctx):
        """A node of type kind; its fields of a node type the JSON writes
        without the type's name (TypeName*, ObjectWithArgs*, ...) by UNWRAPPED."""
        handler = getattr(self, "on_" + kind, None)
        if handler is not None and handler(body, src, ctx) is False:
            return
        for field, val in body.items():
            inner = UNWRAPPED.get((kind, field))
            if inner and isinstance(val, dict):
                self.visit_node(inner, val, src, ctx)
            elif isinstance(val, (dict, list)):
                self.visit(val, src, ctx)

    def loc(self, body, ctx):
        return body.get("location", ctx.loc)

    def own_function(self, ctx, name, types=()):
        """own-function when name is one the edition creates and pg_catalog
        has not (or, named with its arguments, one of them is an own type)."""
        if name in self.own[ctx.edition]["function"] and (
                name not in self.cat["function"] or self.any_own_type(ctx.edition, types)):
            return "own-function"
        return None

    def on_FuncCall(self, n, src, ctx):
        names = names_of(n.get("funcname"))
        loc = self.loc(n, ctx)
        self.ref(ctx, src, loc, "function", names, "call", self.own_function(ctx, names[-1]))
        if names[-1] == "format" and n.get("args"):
            first = n["args"][0]
            if "A_Const" in first and "sval" in first["A_Const"]:
                self.template(first["A_Const"]["sval"]["sval"], src, first["A_Const"].get("location", loc), ctx,
                              formatted=True)

    def on_A_Expr(self, n, src, ctx):
        kind = n.get("kind", "")
        names = names_of(n.get("name"))
        loc = self.loc(n, ctx)
        if "BETWEEN" in kind:
            self.ref(ctx, src, loc, "operator", [">= and <="], "BETWEEN compares with operators found by name")
            return
        what = {"AEXPR_IN": "IN compares with it", "AEXPR_DISTINCT": "IS DISTINCT FROM compares with it",
                "AEXPR_NOT_DISTINCT": "IS NOT DISTINCT FROM compares with it",
                "AEXPR_NULLIF": "NULLIF compares with it", "AEXPR_LIKE": "LIKE is this operator",
                "AEXPR_ILIKE": "ILIKE is this operator", "AEXPR_SIMILAR": "SIMILAR TO is this operator",
                }.get(kind, "expression")
        self.ref(ctx, src, loc, "operator", names, what)

    def on_SubLink(self, n, src, ctx):
        names = names_of(n.get("operName"))
        if names:
            self.ref(ctx, src, self.loc(n, ctx), "operator", names,
                     "IN (subquery) compares with it" if names == ["="] else "subquery comparison")

    def on_CaseExpr(self, n, src, ctx):
        if n.get("arg"):
            self.ref(ctx, src, self.loc(n, ctx), "operator", ["="], "CASE x WHEN compares with it")

    def on_SortBy(self, n, src, ctx):
        names = names_of(n.get("useOp"))
        if names:
            self.ref(ctx, src, self.loc(n, ctx), "operator", names, "ORDER BY ... USING")

    def on_TypeCast(self, n, src, ctx):
        self.visit(n.get("arg"), src, ctx)
        self.type_ref(n.get("typeName"), src, ctx, "cast")
        return False

    def on_TypeName(self, n, src, ctx):
        self.type_ref(n, src, ctx, "type")
        return False

    def type_ref(self, n, src, ctx, what):
        if not n or n.get("pct_type"):
            return
        names = names_of(n.get("names"))
        own = "own-type" if self.is_own_type(ctx.edition, names) else None
        self.ref(ctx, src, n.get("location", ctx.loc), "type", names, what, own)
        self.visit(n.get("typmods"), src, ctx)

    def on_CollateClause(self, n, src, ctx):
        self.ref(ctx, src, self.loc(n, ctx), "collation", names_of(n.get("collname")), "COLLATE")

    def on_IndexElem(self, n, src, ctx):
        if n.get("collation"):
            self.ref(ctx, src, ctx.loc, "collation", names_of(n.get("collation")), "index column")

    def on_ObjectWithArgs(self, n, src, ctx, implied=()):
        names = names_of(n.get("objname"))
        args = [typename(a) for a in n.get("objargs") or []]
        self.visit(n.get("objargs"), src, ctx)
        # no location of its own: its first argument's (on the name's line as written here)
        loc = ctx.loc
        for a in n.get("objargs") or []:
            loc = a.get("TypeName", {}).get("location", loc)
            break
        types = args or list(implied)
        if set(names[-1]) <= OPCHARS:
            own = "own-operator" if self.any_own_type(ctx.edition, types) else None
            self.ref(ctx, src, loc, "operator", names, "named with its arguments", own)
        else:
            self.ref(ctx, src, loc, "function", names, "named with its arguments",
                     self.own_function(ctx, names[-1], types), signature=True)
        return False

    def on_CreateTrigStmt(self, n, src, ctx):
        self.ref(ctx, src, ctx.loc, "function", names_of(n.get("funcname")), "trigger function")

    on_CreateEventTrigStmt = on_CreateTrigStmt

    def on_CreateDomainStmt(self, n, src, ctx):
        self.created(ctx, "type", names_of(n.get("domainname")))

    def on_CompositeTypeStmt(self, n, src, ctx):
        self.created(ctx, "type", [n.get("typevar", {}).get("relname")])

    def on_CreateEnumStmt(self, n, src, ctx):
        self.created(ctx, "type", names_of(n.get("typeName")))

    def on_DefineStmt(self, n, src, ctx):
        # the name it creates is no reference; its options name functions, operators, types
        kind = n.get("kind")
        if kind == "OBJECT_TYPE":
            self.created(ctx, "type", names_of(n.get("defnames")))
        elif kind == "OBJECT_AGGREGATE":
            self.created(ctx, "function", names_of(n.get("defnames")))
        types = []
        defs = n.get("definition") or []
        for d in defs:
            d = d.get("DefElem", {})
            if d.get("defname") in ("leftarg", "rightarg", "basetype"):
                types.append(typename(d.get("arg")))
        if kind == "OBJECT_AGGREGATE":
            for a in n.get("args") or []:
                for p in a.get("List", {}).get("items", []) if isinstance(a, dict) else []:
                    types.append(typename(p.get("FunctionParameter", {}).get("argType")))
        if kind == "OBJECT_TYPE":
            types.append(names_of(n.get("defnames"))[-1:])
        self.visit(n.get("args"), src, ctx)
        self.options(defs, src, ctx, types)
        return False

    def on_CreateRangeStmt(self, n, src, ctx):
        self.created(ctx, "type", names_of(n.get("typeName")))
        self.options(n.get("params") or [], src, ctx, [names_of(n.get("typeName"))[-1:]])
        return False

    def options(self, defs, src, ctx, types):
        """The options of CREATE OPERATOR, AGGREGATE, TYPE, a range type."""
        for d in defs:
            d = d.get("DefElem", {})
            name, arg = d.get("defname", "").lower(), d.get("arg")
            loc = d.get("location", ctx.loc)
            if name in FUNC_SLOTS and typename(arg):
                fn = typename(arg)
                # looked up by its exact arguments, which the slot fixes
                self.ref(ctx, src, loc, "function", fn, name.upper(), self.own_function(ctx, fn[-1], types),
                         signature=True)
            elif name in OPER_SLOTS and isinstance(arg, dict) and "List" in arg:
                own = "own-operator" if self.any_own_type(ctx.edition, types) else None
                self.ref(ctx, src, loc, "operator", names_of(arg["List"].get("items")), name.upper(), own)
            elif name in TYPE_SLOTS:
                self.visit(arg, src, ctx)
            elif name == "collation" and isinstance(arg, dict) and "List" in arg:
                self.ref(ctx, src, loc, "collation", names_of(arg["List"].get("items")), "COLLATION")

    def on_CreateOpClassStmt(self, n, src, ctx):
        dtype = typename(n.get("datatype"))
        if n.get("datatype"):
            self.visit_node("TypeName", n["datatype"], src, ctx)
        self.opclass_items(n.get("items") or [], src, ctx, [dtype, dtype] if dtype else [])
        return False

    def on_AlterOpFamilyStmt(self, n, src, ctx):
        self.opclass_items(n.get("items") or [], src, ctx, [])
        return False

    def opclass_items(self, items, src, ctx, implied):
        for it in items:
            it = it.get("CreateOpClassItem", {})
            class_args = [typename(a) for a in it.get("class_args") or []]
            self.visit(it.get("class_args"), src, ctx)
            if it.get("storedtype"):
                self.visit_node("TypeName", it["storedtype"], src, ctx)
            if it.get("name"):
                self.on_ObjectWithArgs(it["name"], src, ctx, implied=class_args or implied)

    def on_CreateFunctionStmt(self, n, src, ctx):
        self.created(ctx, "function", names_of(n.get("funcname")))
        self.visit(n.get("parameters"), src, ctx)
        if n.get("returnType"):
            self.visit_node("TypeName", n["returnType"], src, ctx)
        self.visit(n.get("sql_body"), src, ctx.inner())
        lang, body = None, None
        for o in n.get("options") or []:
            d = o.get("DefElem", {})
            if d.get("defname") == "language":
                lang = sval(d.get("arg"))
            elif d.get("defname") == "as":
                items = d.get("arg", {}).get("List", {}).get("items", [])
                if len(items) == 1:
                    body = sval(items[0])
        if body is not None and lang in ("sql", "plpgsql"):
            self.body(lang, body, src, ctx, n)
        return False

    def on_DoStmt(self, n, src, ctx):
        body, lang = None, "plpgsql"
        for o in n.get("args") or []:
            d = o.get("DefElem", {})
            if d.get("defname") == "as":
                body = sval(d.get("arg"))
            elif d.get("defname") == "language":
                lang = sval(d.get("arg"))
        if body is not None and lang == "plpgsql":
            self.body(lang, body, src, ctx, None)
        return False

    def body(self, lang, body, src, ctx, fn):
        """A function's or DO block's body: where it stands in the statement's text."""
        stmt = src.data[ctx.stmt_start:ctx.stmt_end]
        enc = body.encode("utf-8")
        at = stmt.find(enc)
        if at < 0:
            at = stmt.find(body.replace("'", "''").encode("utf-8"))
        if at < 0:
            self.error(src, ctx.stmt_start, "cannot find a function body in its statement")
            return
        bsrc = src.child(enc, ctx.stmt_start + at)
        # a DO block runs where it stands, under the script's search_path;
        # a function's body later, under the one it pins
        inner = ctx.inner() if fn is not None else ctx.copy(in_body=True)
        if lang == "sql":
            for stmt in self.parse(bsrc) or []:
                self.visit(stmt["stmt"], bsrc, inner.at_stmt(stmt, bsrc))
            return
        if fn is not None:
            # libpg_query compiles the body without the function's OUT
            # parameters, so a bare RETURN NEXT (which returns them) reads
            # as missing its expression: given one that names nothing
            text = re.sub(r"(?i)\bRETURN\s+NEXT\s*;", "RETURN NEXT NULL;", stmt.decode("utf-8"))
        else:
            tag = "$idgen_sqlnames$"
            text = f"CREATE FUNCTION idgen_sqlnames_do() RETURNS void LANGUAGE plpgsql AS {tag}{body}{tag}"
        try:
            tree = json.loads(parser.parse_plpgsql_json(text))
        except parser.ParseError as e:
            self.error(bsrc, 0, f"PL/pgSQL does not parse: {e}")
            return
        PlWalk(self, bsrc, inner).walk(tree)

    # -- dynamic SQL --------------------------------------------------------
    def template(self, text, src, loc, ctx, formatted):
        """A string constant that is SQL run by EXECUTE (or by a remote server):
        parsed with format()'s placeholders standing for what the caller supplies."""
        if not COMMAND.match(text):
            return
        tsrc_line = src.line_at(loc)
        for candidate in substitutions(text) if formatted else [text]:
            try:
                stmts = json.loads(parser.parse_sql_json(candidate))["stmts"]
            except parser.ParseError:
                continue
            tsrc = Src(src.unit, candidate.encode("utf-8"), tsrc_line)
            for stmt in stmts:
                self.visit(stmt["stmt"], tsrc, ctx.inner().at_stmt(stmt, tsrc))
            return
        if ctx.dynamic or formatted:
            self.error(src, loc, "a template of dynamic SQL does not parse: "
                       + text.strip().splitlines()[0][:60])

    def on_A_Const(self, n, src, ctx):
        if ctx.in_body and "sval" in n and not ctx.dynamic:
            self.template(n["sval"]["sval"], src, n.get("location", ctx.loc), ctx, formatted=False)


def placeholder(names):
    return any(p.startswith("<%") for p in names)


FORMAT = re.compile(r"%(?:(\d+)\$)?-?(?:\d+|\*(?:\d+\$)?)?([sIL%])")


def substitutions(text):
    """text with format()'s placeholders replaced by what parses in their
    place and is marked as supplied: %I an identifier, %L a literal, %s a
    qualified operator inside OPERATOR(), elsewhere an identifier or nothing
    (a fragment such as CONCURRENTLY); one choice per argument, all
    identifiers first."""
    parts = FORMAT.split(text)
    # parts: text, position, kind, text, position, kind, ...
    pieces = [(parts[i], parts[i + 1]) for i in range(1, len(parts) - 1, 3)]
    texts = parts[0::3]
    keys, n = [], 0
    for pos, kind in pieces:
        if kind == "%":
            keys.append(None)
            continue
        n = int(pos) if pos else n + 1
        keys.append(n)
    s_keys = sorted({k for k, (_p, kind) in zip(keys, pieces) if kind == "s"})
    out = []
    for mask in range(min(2 ** len(s_keys), 64)):
        res = [texts[0]]
        for i, ((_pos, kind), key) in enumerate(zip(pieces, keys)):
            before = res[-1]
            if kind == "%":
                res.append("%")
            elif kind == "I":
                res.append('"<%I>"')
            elif kind == "L":
                res.append("'<%L>'")
            elif re.search(r"OPERATOR\(\s*$", before, re.I):
                res.append('"<%s>".=')
            else:
                res.append("" if mask >> s_keys.index(key) & 1 else '"<%s>"')
            res.append(texts[i + 1])
        out.append("".join(res))
    return out


class Ctx:
    def __init__(self, edition, top=False, in_body=False, loc=0, stmt_start=0, stmt_end=None, dynamic=False):
        self.edition, self.top, self.in_body, self.loc = edition, top, in_body, loc
        self.stmt_start, self.stmt_end, self.dynamic = stmt_start, stmt_end, dynamic

    def copy(self, **kw):
        c = Ctx(self.edition, self.top, self.in_body, self.loc, self.stmt_start, self.stmt_end, self.dynamic)
        for k, v in kw.items():
            setattr(c, k, v)
        return c

    def inner(self):
        return self.copy(top=False, in_body=True)

    def at_stmt(self, stmt, src):
        start = stmt.get("stmt_location", 0)
        length = stmt.get("stmt_len") or len(src.data) - start
        return self.copy(loc=start, stmt_start=start, stmt_end=start + length)

    def at(self, loc):
        return self.copy(loc=loc)


class PlWalk:
    """The PL/pgSQL tree of one body: every expression and statement parsed
    as SQL, every declared type parsed as a type."""

    def __init__(self, checker, bsrc, ctx):
        self.c, self.bsrc, self.ctx = checker, bsrc, ctx
        self.lines = bsrc.data.split(b"\n")
        self.line_offsets = [0]
        for l in self.lines:
            self.line_offsets.append(self.line_offsets[-1] + len(l) + 1)

    def walk(self, node, lineno=1, dynamic=False):
        if isinstance(node, list):
            for n in node:
                self.walk(n, lineno, dynamic)
            return
        if not isinstance(node, dict):
            return
        lineno = node.get("lineno", lineno)
        for key, val in node.items():
            if key == "PLpgSQL_expr":
                self.expr(val.get("query", ""), lineno, dynamic)
            elif key == "PLpgSQL_type":
                self.decl_type(val.get("typname", ""), lineno)
            elif key.startswith("PLpgSQL_stmt_dyn") or key in ("PLpgSQL_stmt_return_query", "PLpgSQL_stmt_open"):
                self.dyn(val, lineno)
            elif isinstance(val, (dict, list)):
                self.walk(val, lineno, dynamic)

    def dyn(self, stmt, lineno):
        lineno = stmt.get("lineno", lineno)
        for key, val in stmt.items():
            if key in ("query", "dynquery"):
                self.walk(val, lineno, True)
            elif isinstance(val, (dict, list)):
                self.walk(val, lineno)

    def offset(self, text, lineno):
        """Where text begins in the body, at or after line lineno (its
        longest prefix found there when the parser rewrote the rest)."""
        start = self.line_offsets[max(0, min(lineno - 1, len(self.line_offsets) - 1))]
        enc = text.encode("utf-8")
        for cut in (len(enc), 40, 20, 8):
            at = self.bsrc.data.find(enc[:cut], start)
            if at >= 0 and cut > 0:
                return at
        return start

    def expr(self, query, lineno, dynamic):
        if not query.strip():
            return
        at = self.offset(query, lineno)
        esrc = self.bsrc.child(query.encode("utf-8"), at)
        ctx = self.ctx.copy(dynamic=False)
        for prefix, text in self.readings(query):
            try:
                stmts = json.loads(parser.parse_sql_json(prefix + text))["stmts"]
            except parser.ParseError:
                continue
            src = Src(esrc.unit, (prefix + text).encode("utf-8"), esrc.line)
            for stmt in stmts:
                sctx = ctx.at_stmt(stmt, src)
                if dynamic:
                    self.dynamic_query(stmt["stmt"], src, sctx)
                self.c.visit(stmt["stmt"], src, sctx)
            return
        self.c.error(esrc, 0, f"PL/pgSQL expression does not parse: {query.strip()[:60]}")

    def dynamic_query(self, stmt, src, ctx):
        """EXECUTE 'constant': the constant is the template."""
        try:
            val = stmt["SelectStmt"]["targetList"][0]["ResTarget"]["val"]
        except (KeyError, IndexError, TypeError):
            return
        if "A_Const" in val and "sval" in val["A_Const"]:
            self.c.template(val["A_Const"]["sval"]["sval"], src, val["A_Const"].get("location", 0),
                            ctx.copy(dynamic=True), formatted=False)

    @staticmethod
    def readings(query):
        """A PL/pgSQL expression or statement as SQL the parser reads: as it
        is (a statement), as a SELECT list (an expression), or the right side
        of an assignment."""
        yield "", query
        yield "SELECT ", query
        depth = 0
        for tok in parser.scan(query):
            if tok.name in ("ASCII_40", "ASCII_91"):
                depth += 1
            elif tok.name in ("ASCII_41", "ASCII_93"):
                depth -= 1
            elif depth == 0 and tok.name in ("COLON_EQUALS", "ASCII_61"):
                rest = query.encode("utf-8")[tok.end + 1:].decode("utf-8")
                lead = query.encode("utf-8")[:tok.end + 1].decode("utf-8")
                yield "SELECT " + re.sub(r"[^\n]", " ", lead)[7:] if len(lead) >= 7 else "SELECT ", rest
                return

    def decl_type(self, typname, lineno):
        t = typname.strip()
        if not t or t == "UNKNOWN" or "%" in t:
            return
        at = self.offset(t, lineno)
        tsrc = self.bsrc.child(t.encode("utf-8"), at)
        try:
            stmts = json.loads(parser.parse_sql_json("SELECT NULL::" + t))["stmts"]
        except parser.ParseError:
            self.c.error(tsrc, 0, f"declared type does not parse: {t}")
            return
        src = Src(tsrc.unit, ("SELECT NULL::" + t).encode("utf-8"), tsrc.line)
        val = stmts[0]["stmt"]["SelectStmt"]["targetList"][0]["ResTarget"]["val"]
        self.c.type_ref(val["TypeCast"]["typeName"], src, self.ctx, "declaration")


# -- the files ------------------------------------------------------------

def blank_psql(text):
    """psql's backslash lines blanked (the scripts' \\echo ... \\quit guard)."""
    return re.sub(r"(?m)^\\.*$", "", text)


def portable_unit(root, path):
    """idgen_portable.sql.in expanded as generate.py expands it, each line
    knowing its source line (and, inside a template, where it is used)."""
    rel = os.path.relpath(path, root)
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    templates, out, origin = {}, [], []
    i = 0
    while i < len(lines):
        m = re.match(r"^--@template (\w+)\(([^)]*)\)$", lines[i])
        if m:
            params = [p.strip() for p in m.group(2).split(",")]
            j = i + 1
            body = []
            while lines[j] != "--@end":
                body.append((j + 1, lines[j]))
                j += 1
            templates[m.group(1)] = (params, body)
            # the template's lines stay blank in place (the parser skips them)
            for k in range(i, j + 1):
                out.append("")
                origin.append((rel, k + 1, ""))
            i = j + 1
            continue
        m = re.match(r"^--@(\w+)\((.*)\)$", lines[i])
        if m and m.group(1) in templates:
            params, body = templates[m.group(1)]
            args = [a.strip() for a in m.group(2).split(",")]
            for ln, text in body:
                for p, a in zip(params, args):
                    text = re.sub(rf"\b{p}\b", a, text)
                out.append(text)
                origin.append((rel, ln, f" [template {m.group(1)}, used at line {i + 1}]"))
            i += 1
            continue
        out.append(lines[i])
        origin.append((rel, i + 1, ""))
        i += 1
    text = "\n".join(out).replace("@extschema@", '"@extschema@"').replace("@VERSION@", "0")
    return Unit(rel, text, origin)


def pg_tle_units(root, path):
    """install_pg_tle.sql: its install block with the extension script it
    carries blanked, and the creator check inside that script."""
    rel = os.path.relpath(path, root)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    units = []
    m = re.search(r"\$_pgtle_\$(.*?)\$_pgtle_\$", text, re.S)
    if m:
        inner = m.group(1)
        c = re.search(r"^DO \$creator\$.*?^\$creator\$;", inner, re.M | re.S)
        if c:
            before = text[:m.start(1)] + inner[:c.start()]
            pad = re.sub(r"[^\n]", "", before)
            units.append(Unit(rel, pad + c.group(0)))
        text = text[:m.start(1)] + re.sub(r"[^\n]", "", inner) + text[m.end(1):]
    units.insert(0, Unit(rel, blank_psql(text)))
    return units


def main(root, files, bki):
    checker = Checker(root, pg_catalog_names(bki))
    tally = Tally("sqlnames")
    print("allowed (the only escape; each rule with its reason):")
    for kinds, where, why in ALLOWED:
        print(f"  {' and '.join(sorted(kinds))} in {where}: {why}")
    if not files:
        files = sorted(glob.glob(os.path.join(root, "sql", "idgen--*.sql")))
        files += [os.path.join(root, "portable", "idgen_portable.sql.in"),
                  os.path.join(root, "portable", "install_pg_tle.sql")]
    editions = {}
    for path in files:
        path = os.path.abspath(path)
        rel = os.path.relpath(path, root)
        if rel.startswith("portable/"):
            edition = "portable"
            units = [portable_unit(root, path)] if path.endswith(".sql.in") else pg_tle_units(root, path)
        else:
            edition = "idgen"
            with open(path, encoding="utf-8") as f:
                units = [Unit(rel, blank_psql(f.read()))]
        editions.setdefault(edition, []).append((rel, units))
    for edition, entries in editions.items():
        checker.collect_own(edition, [u for _rel, units in entries for u in units])
    for edition, entries in editions.items():
        for rel, units in entries:
            before = len(checker.findings) + len(checker.errors)
            refs = checker.refs
            for unit in units:
                checker.check_unit(unit, edition)
            if len(checker.findings) + len(checker.errors) == before:
                tally.check(f"{rel}: {checker.refs - refs} references looked up by name, "
                            "every one schema-qualified or allowed", True)
    for file, line, what in sorted(set(checker.findings)) + sorted(set(checker.errors)):
        tally.check(f"{file}:{line}: {what}", False)
    if not files or set(os.path.relpath(os.path.abspath(p), root) for p in files) >= {
            "sql/idgen--1.1.sql", "portable/idgen_portable.sql.in"}:
        for (kinds, where, _why), used in zip(ALLOWED, RULE_USED):
            tally.check(f"allowed rule {' and '.join(sorted(kinds))} in {where} lets through {used} references (a rule that "
                        "lets nothing through goes)", used > 0)
    return tally.done()


if __name__ == "__main__":
    args = sys.argv[1:]
    bki = "/usr/share/postgresql/15/postgres.bki"
    if args[:1] == ["--bki"]:
        bki, args = args[1], args[2:]
    if not args:
        sys.exit(__doc__)
    sys.exit(main(os.path.abspath(args[0]), args[1:], bki))
