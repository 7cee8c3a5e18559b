#!/usr/bin/python3
"""Qualifies the PL/pgSQL of idgen_portable.sql.in: the rewriter that wrote
its qualified names, kept for the next large edit of the source (it leaves
qualified text as it is: run on the source, it changes nothing).

Usage: qualify.py FILE > NEW

Inside every dollar-quoted body, SQL-standard body (RETURN ...;) and
template of the source, and in the signatures of CREATE FUNCTION and
COMMENT ON FUNCTION, it writes
  - a core function call f(...) as pg_catalog.f(...) (the edition's own
    functions, named by CREATE FUNCTION in the file, are left alone in the
    bodies of functions that pin search_path and in the script's DO blocks:
    they are found through that search_path, whose only schema besides
    pg_catalog belongs to the installer alone; elsewhere, in templates,
    SQL-standard bodies and the generators' workers, which pin nothing,
    an own function without its schema is written pg_catalog.f too, and
    the check fails);
  - a binary operator a + b as a OPERATOR(pg_catalog.+) b, with the
    parentheses that keep the original grouping (every OPERATOR() has the
    same precedence);
  - x BETWEEN a AND b, x IN (...), CASE x WHEN v as comparisons through
    qualified operators (the grammar writes unqualified ones for them);
  - a type that is no SQL keyword (text, uuid, bytea, ...) as pg_catalog.T,
    in casts, declarations and signatures.
The result is checked by test/portable/005_trap.pl, not trusted.
"""
import re
import sys

TYPES = {"text", "uuid", "bytea", "bool", "int2", "int4", "int8", "float4", "float8", "timestamptz",
         "void", "name", "regclass", "regrole", "regtype", "oid", "jsonb", "json", "date", "varbit",
         "anyelement", "anyarray", "anynonarray", "anycompatible"}
# keywords that are expression atoms or special forms (the grammar names
# pg_catalog's function itself, or compares by the type's operator class)
SPECIAL = {"coalesce", "greatest", "least", "extract", "substring", "position", "overlay", "trim",
           "exists", "array", "row", "cast", "not", "case", "null", "true", "false", "current_user",
           "session_user", "interval", "current_schema", "localtimestamp", "current_timestamp"}
NOARG_FUNCS = {"current_user", "session_user", "current_schema", "localtimestamp", "current_timestamp"}

TOKEN = re.compile(r"""
    (?P<ws>(?:\s+|--(?!@)[^\n]*|/\*.*?\*/)+)
  | (?P<tpl>--@\w+\([^\n]*\))
  | (?P<dollar>\$(?P<tag>[A-Za-z_]\w*)?\$)
  | (?P<str>'(?:[^']|'')*')
  | (?P<num>\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)
  | (?P<param>\$\d+)
  | (?P<qident>"(?:[^"]|"")*")
  | (?P<qop>OPERATOR\(\w+\.[^)\s]+\))
  | (?P<ident>[A-Za-z_@][\w@]*)
  | (?P<punct>::|:=|\.\.|=>|[()\[\],;.:])
  | (?P<op>[-+*/<>=~!@\#%^&|`?]+)
""", re.X | re.S)


def tokenize(s):
    out, i = [], 0
    while i < len(s):
        m = TOKEN.match(s, i)
        if not m:
            sys.exit(f"qualify: cannot read at {s[i:i+40]!r}")
        kind = m.lastgroup if m.lastgroup != "tag" else "dollar"
        if kind == "dollar":
            end = s.index(m.group(0), m.end())
            out.append(("dollarstr", s[i:end + len(m.group(0))]))
            i = end + len(m.group(0))
            continue
        out.append((kind, m.group(0)))
        i = m.end()
    return out


# binary operators: precedence as PostgreSQL's grammar gives it
def precedence(tok):
    k, t = tok
    lt = t.lower()
    if k == "ident":
        return {"or": 1, "and": 2, "is": 4, "between": 6, "in": 6, "like": 6, "not": 6}.get(lt)
    if k == "qop":
        return 7
    if k == "op":
        if t in ("<", ">", "=", "<=", ">=", "<>", "!="):
            return 5
        if t in ("+", "-"):
            return 8
        if t in ("*", "/", "%"):
            return 9
        if t == "^":
            return 10
        return 7
    return None


class Parser:
    def __init__(self, toks, own):
        self.t = toks
        self.i = 0
        self.own = own

    # the next significant token (index), skipping whitespace
    def peek(self, n=0):
        j = self.i
        while True:
            while j < len(self.t) and self.t[j][0] == "ws":
                j += 1
            if n == 0:
                return (self.t[j] if j < len(self.t) else ("eof", ""), j)
            n -= 1
            j += 1

    def take(self):
        """The next significant token with the whitespace before it."""
        ws = ""
        while self.i < len(self.t) and self.t[self.i][0] == "ws":
            ws += self.t[self.i][1]
            self.i += 1
        tok = self.t[self.i]
        self.i += 1
        return ws, tok

    def ws(self):
        ws = ""
        while self.i < len(self.t) and self.t[self.i][0] == "ws":
            ws += self.t[self.i][1]
            self.i += 1
        return ws

    def qualify_type(self):
        """Type name after :: or in a declaration: returns its text."""
        ws, (k, t) = self.take()
        out = ws
        if k == "ident" and t.lower() in TYPES:
            out += "pg_catalog." + t
        elif k == "ident" and self.i < len(self.t) and self.t[self.i][1] == "." and self.peek(1)[0][0] == "ident":
            # schema.type, as written
            self.i += 1
            _, (_, t2) = self.take()
            out += t + "." + t2
        else:
            out += t
            if k == "ident" and t.lower() == "double":
                w2, (_, t2) = self.take()
                out += w2 + t2
        # (n) and []
        while True:
            (k, t), _ = self.peek()
            if t == "(":
                out += self.raw_group()
            elif t == "[":
                w1, _ = self.take()
                w2, _ = self.take()
                out += w1 + "[" + w2 + "]"
            else:
                break
        return out

    def raw_group(self):
        """( ... ) taken as is (type modifiers)."""
        depth, out = 0, ""
        while True:
            ws, (k, t) = self.take()
            out += ws + t
            if t == "(":
                depth += 1
            elif t == ")":
                depth -= 1
                if depth == 0:
                    return out

    def args(self, close=")"):
        """Arguments up to close; separators , FROM FOR AS kept."""
        out = ""
        while True:
            (k, t), _ = self.peek()
            if t == close:
                ws, _ = self.take()
                return out + ws + close
            if t == "," or (k == "ident" and t.lower() in ("from", "for", "variadic")):
                ws, _ = self.take()
                out += ws + t
                continue
            if k == "ident" and t.lower() == "select":
                out += self.statements(stop=close)
                continue
            text, _ = self.expr(0)
            out += text

    def primary(self):
        ws, (k, t) = self.take()
        lt = t.lower()
        if k == "op" and t == "-":
            (k2, t2), _ = self.peek()
            if k2 == "num":
                w2, _ = self.take()
                return ws + "-" + w2 + t2, "atom"
            text, kind = self.expr(13)
            return ws + "OPERATOR(pg_catalog.-) " + (f"({text.strip()})" if kind == "binop" else text.strip()), "binop"
        if t == "(":
            (k2, t2), _ = self.peek()
            if k2 == "ident" and t2.lower() == "select":
                return ws + "(" + self.statements(stop=")") + self.take_close(), "atom"
            inner = self.args(")")
            return ws + "(" + inner, "atom"
        if k == "ident" and lt == "not":
            text, kind = self.expr(3)
            return ws + t + text, "not"
        if k == "ident" and lt == "case":
            return ws + t + self.case(), "atom"
        if k == "ident" and lt in ("exists", "array") and self.peek()[0][1] in ("(", "["):
            w2, (_, o) = self.take()
            close = ")" if o == "(" else "]"
            (k3, t3), _ = self.peek()
            if k3 == "ident" and t3.lower() == "select":
                return ws + t + w2 + o + self.statements(stop=close) + self.take_close(), "atom"
            return ws + t + w2 + o + self.args(close), "atom"
        if k == "tpl":
            # a template's lines (generate.py), checked where it is written
            return ws + t, "atom"
        if k == "ident" and lt == "interval":
            w2, (_, s) = self.take()
            return ws + t + w2 + s, "atom"
        if k in ("ident", "qident"):
            name = t
            # a.b.c
            while self.peek()[0][1] == "." and self.t[self.i][1] == ".":
                self.i += 1
                _, (_, part) = self.take()
                name += "." + part
            (k2, t2), j = self.peek()
            if t2 == "(" and j == self.i and lt not in NOARG_FUNCS:
                self.i += 1
                if "." not in name and lt not in SPECIAL and lt not in self.own and not lt.startswith("@"):
                    name = "pg_catalog." + name
                return ws + name + "(" + self.args(")"), "atom"
            return ws + name, "atom"
        return ws + t, "atom"

    def take_close(self):
        ws, (k, t) = self.take()
        return ws + t

    def case(self):
        out = ""
        (k, t), _ = self.peek()
        subject = None
        if not (k == "ident" and t.lower() == "when"):
            subject, skind = self.expr(0)
            if skind == "binop":
                subject = " (" + subject.strip() + ")"
        while True:
            (k, t), _ = self.peek()
            lt = t.lower()
            if lt == "when":
                ws, _ = self.take()
                text, kind = self.expr(0)
                if subject is not None:
                    text = subject + " OPERATOR(pg_catalog.=)" + (f" ({text.strip()})" if kind == "binop" else text)
                out += ws + t + text
            elif lt in ("then", "else"):
                ws, _ = self.take()
                text, _ = self.expr(0)
                out += ws + t + text
            elif lt == "end":
                ws, _ = self.take()
                return out + ws + t
            else:
                sys.exit(f"qualify: CASE: {t!r}")

    def expr(self, minprec):
        left, kind = self.primary()
        while True:
            (k, t), j = self.peek()
            lt = t.lower()
            if t == "::":
                ws, _ = self.take()
                left, kind = left + ws + "::" + self.qualify_type(), ("atom" if kind == "atom" else kind)
                if kind != "atom":
                    sys.exit("qualify: a cast of an operator expression without parentheses")
                continue
            if t == "[":
                ws, _ = self.take()
                left += ws + "[" + self.args("]")
                continue
            if k == "ident" and lt == "collate":
                # x COLLATE name binds tighter than any operator; the
                # collation is looked up by schema like any name
                ws, _ = self.take()
                w2, (_, name) = self.take()
                while self.peek()[0][1] == "." and self.t[self.i][1] == ".":
                    self.i += 1
                    _, (_, part) = self.take()
                    name += "." + part
                if "." not in name:
                    name = "pg_catalog." + name
                left += ws + t + w2 + name
                continue
            p = precedence((k, t))
            if p is None or p < minprec:
                return left, kind
            if k == "ident" and lt == "not":
                # NOT IN / NOT BETWEEN / NOT LIKE
                (k2, t2), _ = self.peek(1)
                if t2.lower() not in ("in", "between", "like"):
                    return left, kind
                ws, _ = self.take()
                left, kind = self.postfix_keyword(left, kind, negate=ws + t)
                continue
            if k == "ident" and lt in ("in", "between", "like"):
                if lt == "in" and self.peek(1)[0][1] != "(":
                    return left, kind
                left, kind = self.postfix_keyword(left, kind, negate=None)
                continue
            if k == "ident" and lt == "is":
                ws, _ = self.take()
                out = ws + t
                while True:
                    w2, (k2, t2) = self.take()
                    out += w2 + t2
                    if t2.lower() in ("null", "true", "false"):
                        break
                left, kind = left + out, "is"
                continue
            if k == "ident" and lt in ("and", "or"):
                ws, _ = self.take()
                right, rkind = self.expr(p + 1)
                left, kind = left + ws + t + right, "bool"
                continue
            if k in ("op", "qop"):
                ws, _ = self.take()
                (k2, t2), _ = self.peek()
                if k == "qop" and t2.lower() in ("any", "all", "some"):
                    # a OPERATOR(s.op) ANY (array): as written
                    w2, _ = self.take()
                    w3, _ = self.take()
                    left, kind = left + ws + t + w2 + t2 + w3 + "(" + self.args(")"), "not"
                    continue
                right, rkind = self.expr(p + 1)
                if rkind != "atom":
                    right = " (" + right.strip() + ")"
                left, kind = left + ws + (t if k == "qop" else f"OPERATOR(pg_catalog.{t})") + right, "binop"
                continue
            return left, kind

    def postfix_keyword(self, left, kind, negate):
        ws, (_, t) = self.take()
        lt = t.lower()
        l = left.strip()
        lead = left[:len(left) - len(left.lstrip())]
        if kind != "atom":
            l = "(" + l + ")"
        if lt == "between":
            lo, lk = self.expr(7)
            w_and, _ = self.take()
            hi, hk = self.expr(7)
            lo = lo.strip() if lk == "atom" else "(" + lo.strip() + ")"
            hi = hi.strip() if hk == "atom" else "(" + hi.strip() + ")"
            text = f"({l} OPERATOR(pg_catalog.>=) {lo} AND {l} OPERATOR(pg_catalog.<=) {hi})"
        elif lt == "in":
            w2, _ = self.take()
            inner = self.args(")")
            text = f"{l} OPERATOR(pg_catalog.=) ANY (ARRAY[{inner[:-1].strip()}])"
        else:  # like
            right, rk = self.expr(7)
            right = right.strip() if rk == "atom" else "(" + right.strip() + ")"
            text = f"{l} OPERATOR(pg_catalog.~~) {right}"
        if negate:
            return lead + "NOT (" + text + ")", "not"
        return lead + text, "not" if lt != "like" else "binop"

    def statements(self, stop=None):
        """Statements (PL/pgSQL or SQL) until the token stop (not taken) or the end."""
        out = ""
        in_declare = False
        decl_start = False
        in_raise = False
        while True:
            (k, t), j = self.peek()
            lt = t.lower()
            if k == "eof" or (stop and t == stop):
                return out + self.ws() if k == "eof" else out
            if k == "ident" and lt == "declare":
                in_declare, decl_start = True, True
                ws, _ = self.take()
                out += ws + t
                continue
            if k == "ident" and lt == "begin":
                in_declare = False
            if in_declare and decl_start and k == "ident":
                ws, _ = self.take()
                out += ws + t
                (k2, t2), _ = self.peek()
                if t2.lower() == "constant":
                    w2, _ = self.take()
                    out += w2 + t2
                out += self.qualify_type()
                decl_start = False
                continue
            if t == ";":
                ws, _ = self.take()
                out += ws + t
                decl_start = in_declare
                in_raise = False
                continue
            if k == "ident" and lt == "raise":
                in_raise = True
            if in_raise and k == "ident" and lt in ("errcode", "message", "detail", "hint") and self.peek(1)[0][1] == "=":
                ws, _ = self.take()
                w2, _ = self.take()
                out += ws + t + w2 + "="
                continue
            if k == "ident" and lt in ("then", "loop", "else", "end", "if", "elsif", "while", "return",
                                       "perform", "begin", "raise", "exception", "using", "select", "from",
                                       "where", "in", "for", "notice", "warning", "as", "on", "strict",
                                       "into", "exit", "continue", "when", "and", "or", "reverse", "by", "join",
                                       "execute", "foreach", "array", "language", "plpgsql", "sql", "immutable", "volatile",
                                       "stable", "parallel", "safe", "unsafe", "restricted", "set",
                                       "current", "returns", "create", "function",
                                       "order", "group", "limit", "having", "union", "lateral"):
                ws, _ = self.take()
                out += ws + t
                continue
            if k in ("ident", "qident", "num", "str", "param") or t in ("(", "-") or (k == "ident"):
                text, _ = self.expr(0)
                out += text
                continue
            ws, _ = self.take()
            out += ws + t


def qualify_body(body, own):
    p = Parser(tokenize(body), own)
    return p.statements()


SIG_TYPES = re.compile(r"\b(" + "|".join(sorted(TYPES)) + r")\b")


def qualify_signature(line):
    # parameter list and RETURNS of CREATE FUNCTION / COMMENT ON FUNCTION
    m = re.match(r"^(CREATE OR REPLACE FUNCTION|COMMENT ON FUNCTION) (\S+?)\((.*?)\)(.*)$", line)
    if not m:
        return line
    params = ", ".join(
        re.sub(r"^((?:\w+ )?)(\w+)", lambda n: n.group(1) + ("pg_catalog." + n.group(2) if n.group(2) in TYPES else n.group(2)),
               p.strip()) if p.strip() else "" for p in m.group(3).split(","))
    rest = m.group(4)
    rest = re.sub(r"RETURNS (\w+)", lambda n: "RETURNS " + ("pg_catalog." + n.group(1) if n.group(1) in TYPES else n.group(1)), rest)
    return f"{m.group(1)} {m.group(2)}({params}){rest}"


def main():
    src = open(sys.argv[1], encoding="utf-8").read()
    # the edition's own functions: reached through the pinned search_path
    own = {m.lower() for m in re.findall(r"FUNCTION (?:@extschema@|%1\$I)\.(\w+)\(", src)}
    # bodies ($$ ... $$, DO $tag$ ... $tag$, SQL-standard RETURN ...;) and
    # templates; signatures between.  The edition's own functions may be
    # written without their schema only where search_path finds them: in a
    # body whose function pins it, and in the script's DO blocks.
    body = re.compile(r"AS \$\$\n?|^DO \$(\w+)\$\n|^--@template [^\n]*\n|\$\$SELECT|^\tRETURN ", re.M)
    text = src
    res = ""
    i = 0
    while i < len(text):
        m = body.search(text, i)
        if not m:
            res += sig_lines(text[i:])
            break
        res += sig_lines(text[i:m.start()])
        g = m.group(0)
        if g.startswith("AS $$") or g == "$$SELECT":
            start = m.end() if not g == "$$SELECT" else m.start() + 2
            res += g if g != "$$SELECT" else "$$"
            end = text.index("$$", start)
            header = text[text.rindex("CREATE OR REPLACE FUNCTION", 0, m.start()):m.start()]
            res += qualify_body(text[start:end], own if "SET search_path FROM CURRENT" in header else set())
            i = end
        elif g.startswith("DO"):
            tag = "$" + m.group(1) + "$"
            res += g
            end = text.index(tag, m.end())
            res += qualify_body(text[m.end():end], own)
            i = end
        elif g == "\tRETURN ":
            res += g
            end = text.index(";\n", m.end())
            res += qualify_body(text[m.end():end], set())
            i = end
        else:
            res += g
            end = text.index("--@end\n", m.end())
            res += qualify_body(text[m.end():end], set())
            i = end
    sys.stdout.write(res)


def sig_lines(s):
    return "\n".join(qualify_signature(l) for l in s.split("\n"))


if __name__ == "__main__":
    main()
