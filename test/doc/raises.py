"""What the pages say a function raises, against what its code can raise.

Used by errcodes.py.  A sentence, list item or table row of a user page
(not troubleshooting.md, which errcodes.py checks site by site, nor
CHANGELOG.md, which also says what no longer holds) that names
an idgen function (`name(`) and a SQLSTATE must name only codes that one of
the functions it names can raise: the codes of every ereport/elog reachable
from the function's C entry point through the calls of src/ (a function or
macro of src/ calling another), or of its SQL body's RAISE EXCEPTIONs and
the functions the body calls.  Codes the server raises around any call
(CORE below: a missing privilege, a unique violation, a cancel, ...) are
always possible.
"""
import glob
import os
import re

# raised by PostgreSQL itself around a call, whatever the function
CORE = {"42501", "23505", "23514", "57014", "57P01", "40001", "25006", "42883", "0A000", "54000", "53200"}
FILE_ACCESS = ("58P01", "42501", "53100", "58030")
IDENT_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def c_bodies(root):
    """{name: body text} of every function and function-like macro of src/"""
    out = {}
    for path in sorted(glob.glob(os.path.join(root, "src", "**", "*.[ch]"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        # PostgreSQL style: the name at the start of a line, the body from a
        # "{" at the start of a line to the next "}" at the start of a line
        for m in re.finditer(r"^([A-Za-z_]\w*)\(([^;{]*?)\)\s*\n\{\n(.*?)^\}", text, re.S | re.M):
            out[m.group(1)] = out.get(m.group(1), "") + m.group(3)
        for m in re.finditer(r"^#define\s+([A-Za-z_]\w*)\((.*?)(?<!\\)\n", text, re.S | re.M):
            out[m.group(1)] = out.get(m.group(1), "") + m.group(2)
    return out


def c_codes(bodies, by_macro):
    """{name: set of SQLSTATEs reachable from it}"""
    direct, calls = {}, {}
    for name, body in bodies.items():
        codes = {by_macro.get(m, m) for m in re.findall(r"errcode\((ERRCODE_\w+)\)", body)}
        if "errcode_for_file_access()" in body:
            codes |= set(FILE_ACCESS)
        if re.search(r"elog\(\s*ERROR", body):
            codes.add("XX000")
        direct[name] = codes
        calls[name] = {c for c in IDENT_CALL.findall(body) if c in bodies and c != name}
    memo = {}

    def reach(name, seen):
        if name in memo:
            return memo[name]
        seen.add(name)
        codes = set(direct[name])
        for c in calls[name]:
            if c not in seen:
                codes |= reach(c, seen)
        return codes

    for name in bodies:
        memo[name] = reach(name, set())
    return memo


def sql_functions(root):
    """{sql name: (C symbol or None, SQL body or None)} from the install script"""
    out = {}
    path = os.path.join(root, "sql", "idgen--1.1.sql")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    starts = [m.start() for m in re.finditer(r"^(?:CREATE|COMMENT|GRANT|REVOKE|ALTER|DO|SELECT|INSERT)\b", text, re.M)]
    for m in re.finditer(r"^CREATE(?: OR REPLACE)? FUNCTION\s+(\w+)\s*\(", text, re.M):
        end = min([s for s in starts if s > m.start()] or [len(text)])
        name, rest = m.group(1), text[m.end():end]
        sym = re.search(r"AS\s+'MODULE_PATHNAME'(?:\s*,\s*'(\w+)')?", rest)
        if sym:
            out.setdefault(name, []).append((sym.group(1) or name, None))
        else:
            body = re.search(r"AS\s+(\$\w*\$)(.*?)\1", rest, re.S)
            out.setdefault(name, []).append((None, body.group(2) if body else rest))
    return out


def function_codes(root, by_macro, by_name):
    """{sql function name: SQLSTATEs it can raise}"""
    bodies = c_bodies(root)
    reach = c_codes(bodies, by_macro)
    funcs = sql_functions(root)
    out = {}
    for name, defs in funcs.items():
        codes = set()
        for sym, body in defs:
            if sym:
                codes |= reach.get(sym, set())
            else:
                codes |= {by_name.get(n, n) for n in re.findall(r"ERRCODE\s*=\s*'(\w+)'", body)}
                codes |= {"body:" + c for c in IDENT_CALL.findall(body) if c in funcs and c != name}
        out[name] = codes
    # SQL bodies: the codes of the idgen functions they call
    for _ in range(3):
        for name, codes in out.items():
            for c in [c for c in codes if c.startswith("body:")]:
                codes |= {x for x in out.get(c[5:], ()) if not x.startswith("body:")}
    return {n: {c for c in cs if not c.startswith("body:")} for n, cs in out.items()}


def statements(text):
    """sentences, list items and table rows of a page, code blocks left out"""
    text = re.sub(r"^(```|~~~).*?^\1[ \t]*$", "\n", text, flags=re.M | re.S)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    for block in re.split(r"\n\s*\n|\n(?=\s*(?:[-*+]|\d+\.)\s)|\n(?=\|)", text):
        block = " ".join(block.split())
        if block.startswith("|"):
            yield block
            continue
        for s in re.split(r"(?<=[.])\s+(?=[A-Z`(*])|;\s+", block):
            yield s


def check_pages(root, pages, known_codes, by_macro, by_name, check):
    codes_of = function_codes(root, by_macro, by_name)
    for page in pages:
        if page.endswith("troubleshooting.md") or page == "CHANGELOG.md":
            continue   # checked site by site; a change log tells what no longer holds too
        with open(os.path.join(root, page), encoding="utf-8") as f:
            text = f.read()
        for s in statements(text):
            names = {n for n in re.findall(r"`([a-z_0-9]+)\(", s) if n in codes_of}
            codes = {c for c in re.findall(r"(?<![\w.])([0-9]{2}[0-9A-Z]{3})(?![\w.])", s) if c in known_codes}
            if not names or not codes:
                continue
            possible = set(CORE).union(*(codes_of[n] for n in names))
            wrong = sorted(codes - possible)
            check(f"{page}: {', '.join(sorted(names))} can raise {', '.join(sorted(codes))}"
                  + (f" — not {', '.join(wrong)}: …{s[:160]}…" if wrong else ""), not wrong)
