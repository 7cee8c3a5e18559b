#!/usr/bin/python3
"""Every error idgen raises is explained in doc/troubleshooting.md, under the SQLSTATE it raises.

Usage: errcodes.py ROOT ERRCODES_TXT

Collects every site that raises an error: in src/ (C) each
`errcode(ERRCODE_*)` or `errcode_for_file_access()` with the `errmsg` that
follows it, and each `elog(ERROR, ...)` (XX000); in sql/idgen--*.sql and
the SQL edition's portable/*.sql.in each
`RAISE EXCEPTION '...' USING ERRCODE = 'name'`.  The codes come from
PostgreSQL's errcodes.txt (a name in PL/pgSQL takes its first code: 22004,
not 39004).  errcode_for_file_access() raises the code of the operating
system's error: 58P01 (no such file), 42501 (permission denied), 53100 (no
space left), 58030 (other I/O errors).

Checks:
- every code heads a section of the page ("## 22P02 ...");
- every site's message is quoted on the page (in `backticks`: a quoted
  message matches the site's format, each %s, %d, ... standing for any text,
  so `iuid country 256 is out of range` quotes "iuid %s %d is out of range"),
  and every section quoting it is headed by a code the site raises: a message
  filed under another code than the one raised fails;
- every RAISE EXCEPTION names its ERRCODE (without one it would be P0001);
- a sentence, list item or table row of another page that names an idgen
  function and SQLSTATEs names only codes that function's code can raise
  (raises.py: the raise sites reachable from its C entry point or SQL body).
Prints "docs-errcodes: N passed, M failed".
"""
import glob
import os
import re
import sys

FILE_ACCESS = ("58P01", "42501", "53100", "58030")
C_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
FORMAT_MACRO = re.compile(r"\b(?:U?INT64_FORMAT|INT64_MODIFIER|LSN_FORMAT_ARGS)\b")


def c_sites(text):
    """(codes macro or 'file', format, line) per ereport site of a C file."""
    out = []
    for m in re.finditer(r"errcode\((ERRCODE_\w+)\)|errcode_for_file_access\(\)", text):
        rest = text[m.end():m.end() + 600]
        nxt = re.search(r"errcode(?:_for_file_access)?\(", rest)
        msg = re.search(r"errmsg(?:_internal)?\(\s*", rest)
        line = text.count("\n", 0, m.start()) + 1
        if not msg or (nxt and nxt.start() < msg.start()):
            out.append((m.group(1) or "file", None, line))
            continue
        # the format: string literals, possibly joined by format macros
        i, parts = m.end() + msg.end(), []
        while True:
            lit = re.match(r'\s*"((?:[^"\\]|\\.)*)"', text[i:])
            mac = re.match(r"\s*(U?INT64_FORMAT)\b", text[i:])
            if lit:
                parts.append(lit.group(1))
                i += lit.end()
            elif mac:
                parts.append("%lld")
                i += mac.end()
            else:
                break
        fmt = bytes("".join(parts), "utf-8").decode("unicode_escape") if parts else None
        out.append((m.group(1) or "file", fmt, line))
    for m in re.finditer(r'elog\(\s*ERROR\s*,\s*"((?:[^"\\]|\\.)*)"', text):
        out.append(("ERRCODE_INTERNAL_ERROR", m.group(1), text.count("\n", 0, m.start()) + 1))
    return out


def sql_sites(text):
    """(errcode name or None, format, line) per RAISE EXCEPTION."""
    out = []
    for m in re.finditer(r"RAISE\s+EXCEPTION\s+'((?:[^']|'')*)'(.*?);", text, re.S):
        code = re.search(r"ERRCODE\s*=\s*'(\w+)'", m.group(2))
        out.append((code.group(1) if code else None, m.group(1).replace("''", "'"),
                    text.count("\n", 0, m.start()) + 1))
    return out


def pattern(fmt, sql):
    """A regex that a quotation of a message made from fmt matches."""
    spec = r"%" if sql else r"%(?:%|[-+ #0]*\d*(?:\.\d+)?(?:ll|l|z|h)?[sdiuxXmcfg])"
    out, pos = "", 0
    for m in re.finditer(spec, fmt):
        out += re.escape(fmt[pos:m.start()])
        out += "%" if m.group(0) == "%%" else ".*?"
        pos = m.end()
    return re.compile(out + re.escape(fmt[pos:]) + r"\Z", re.S)


def sections(page):
    """{code: [quoted texts]} of the page's sections."""
    out, code = {}, None
    for line in page.splitlines():
        h = re.match(r"^#{2,4} `?([0-9A-Z]{5})\b", line)
        if h:
            code = h.group(1)
            out.setdefault(code, [])
            continue
        if re.match(r"^#{1,4} ", line):
            code = None
        if code:
            out[code] += re.findall(r"`([^`\n]+)`", line)
    return out


def main(root, errcodes_txt):
    by_macro, by_name = {}, {}
    with open(errcodes_txt, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^([0-9A-Z]{5})\s+[EWS]\s+(ERRCODE_\w+)(?:\s+(\w+))?", line)
            if m:
                by_macro[m.group(2)] = m.group(1)
                if m.group(3):
                    by_name.setdefault(m.group(3), m.group(1))
    sites = []   # (codes, fmt, where, sql)
    for path in sorted(glob.glob(os.path.join(root, "src", "**", "*.[ch]"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            for macro, fmt, line in c_sites(f.read()):
                codes = FILE_ACCESS if macro == "file" else (by_macro.get(macro, macro),)
                sites.append((codes, fmt, f"{os.path.relpath(path, root)}:{line}", False))
    for path in sorted(glob.glob(os.path.join(root, "sql", "idgen--*.sql")) +
                       glob.glob(os.path.join(root, "portable", "*.sql.in"))):
        with open(path, encoding="utf-8") as f:
            for name, fmt, line in sql_sites(f.read()):
                codes = (by_name.get(name, name),) if name else ()
                sites.append((codes, fmt, f"{os.path.relpath(path, root)}:{line}", True))
    with open(os.path.join(root, "doc", "troubleshooting.md"), encoding="utf-8") as f:
        page = sections(f.read())
    passed = failed = 0

    def check(what, ok):
        nonlocal passed, failed
        passed, failed = passed + ok, failed + (not ok)
        print(f"{'ok' if ok else 'not ok'} - {what}")

    used = {}
    for codes, fmt, where, _ in sites:
        for code in codes:
            used.setdefault(code, set()).add(where.split(":")[0])
    for code in sorted(used):
        check(f"SQLSTATE {code} ({', '.join(sorted(used[code]))}) heads a section of "
              f"doc/troubleshooting.md", code in page)
    seen = set()
    for codes, fmt, where, sql in sites:
        if not codes:
            check(f"{where}: RAISE EXCEPTION '{fmt}' names its ERRCODE", False)
            continue
        if fmt is None:
            check(f"{where}: an errcode without an errmsg the check can read", False)
            continue
        if (codes, fmt) in seen:      # the update script repeats the install script's functions
            continue
        seen.add((codes, fmt))
        rx = pattern(fmt, sql)
        under = sorted({code for code, quotes in page.items() for q in quotes if rx.match(q)})
        wrong = [c for c in under if c not in codes]
        check(f"{where}: \"{fmt}\" ({'/'.join(codes)}) is quoted on doc/troubleshooting.md"
              + (f" under {', '.join(under)}" if under else "")
              + (f", not only under {'/'.join(codes)}" if wrong else ""),
              bool(under) and not wrong)
    # what the other pages say a function raises, against its code
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import raises
    from common import user_pages
    raises.check_pages(root, user_pages(root, contributing=False), set(by_macro.values()),
                       by_macro, by_name, check)
    print(f"docs-errcodes: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
