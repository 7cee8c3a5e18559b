#!/usr/bin/python3
"""Every plpgsql_check finding is explained beside its code, and every
explanation is used.

Usage: allowed.py COMMENTS < FINDINGS

FINDINGS: one line per finding, "function, level, sqlstate, line, message,
source line" separated by tabs, as test/plpgsqlcheck/run.sh selects them
from plpgsql_check_function_tb.
COMMENTS: the comment lines of the same functions' bodies, "function, line,
text" separated by tabs (run.sh selects them from prosrc).  A finding that
stays is explained in the body of its function (sql/idgen--1.1.sql and
sql/idgen--1.0--1.1.sql alike, or portable/idgen_portable.sql.in), beside
the code it is about, by a comment of the form

    -- plpgsql_check: LEVEL SQLSTATE [the message's start] the reason,
    -- which the comment lines right below continue

It explains every finding of its function with that level and SQLSTATE
whose message starts so (whatever its line: the code moves).  Prints one
"ok"/"not ok" line per finding and per explanation; an explanation without
a reason, or one that explains nothing any more, fails.
"""
import re
import sys

HEAD = re.compile(r"^\s*--\s*plpgsql_check:\s*(warning extra|warning|error|performance|security)"
                  r"\s+([0-9A-Z]{5})\s+\[([^\]]+)\]\s*(.*)$")


def explanations(path):
    out = []
    last = None   # (function, line) of the comment line before
    with open(path, encoding="utf-8") as f:
        for row in f:
            if not row.strip():
                continue
            fn, n, text = row.rstrip("\n").split("\t", 2)
            n = int(n)
            m = HEAD.match(text)
            if m:
                out.append({"fn": fn, "key": [m[1], m[2], m[3].strip()], "line": n,
                            "why": m[4].strip(), "used": 0})
            elif out and last == (fn, n - 1) and out[-1]["fn"] == fn:
                out[-1]["why"] += " " + text.strip().removeprefix("--").strip()
            else:
                last = None
                continue
            last = (fn, n)
    return out


def main(path):
    allow = explanations(path)
    passed = failed = 0

    def check(name, ok):
        nonlocal passed, failed
        passed, failed = passed + ok, failed + (not ok)
        print(f"{'ok' if ok else 'not ok'} - {name}")

    findings = [line.rstrip("\n").split("\t") for line in sys.stdin if line.strip()]
    for fn, level, state, lineno, message, _ in findings:
        hit = [e for e in allow
               if e["fn"] == fn and e["key"][:2] == [level, state] and message.startswith(e["key"][2])]
        for e in hit:
            e["used"] += 1
        check(f"{fn} line {lineno}: {level} {state} {message!r} is explained beside its code", bool(hit))
    if not findings:
        check("plpgsql_check finds nothing in either edition", True)
    for e in allow:
        where = f"{e['fn']} line {e['line']}: the plpgsql_check comment [{e['key'][2]}]"
        check(f"{where} gives a reason", bool(e["why"].strip()))
        check(f"{where} still explains a finding", e["used"] > 0)


if __name__ == "__main__":
    main(sys.argv[1])
