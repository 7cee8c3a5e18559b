#!/usr/bin/python3
"""Every plpgsql_check finding is explained beside its code, one comment per
finding, and every explanation is used.

Usage: allowed.py COMMENTS < FINDINGS

FINDINGS: one line per finding, "function, level, sqlstate, line, message,
source line" separated by tabs, as test/plpgsqlcheck/run.sh selects them
from plpgsql_check_function_tb (line empty for a finding about the whole
function: its volatility, its parameters' names).
COMMENTS: the comment lines of the same functions' bodies, "function, line,
text" separated by tabs (run.sh selects them from prosrc).  A finding that
stays is explained in the body of its function (sql/idgen--1.1.sql and
sql/idgen--1.0--1.1.sql alike, or portable/idgen_portable.sql.in) by a
comment of the form

    -- plpgsql_check: LEVEL SQLSTATE [the message's start] the reason,
    -- which the comment lines right below continue

right above the line the finding is on (the first line after the comment
block); a finding about the whole function is explained anywhere in its
body.  A comment explains ONE finding of its function with that level and
SQLSTATE whose message starts so, or N of them when its reason starts with
"(N findings)".  Prints one "ok"/"not ok" line per finding and per
explanation; an explanation without a reason, or one that explains fewer or
more findings than it says, fails.
"""
import re
import sys

HEAD = re.compile(r"^\s*--\s*plpgsql_check:\s*(warning extra|warning|error|performance|security|compatibility)"
                  r"\s+([0-9A-Z]{5})\s+\[([^\]]+)\]\s*(.*)$")
COUNT = re.compile(r"^\((\d+) findings\)\s*")


def explanations(path):
    out = []
    lines = set()   # (function, line) of every comment line
    with open(path, encoding="utf-8") as f:
        for row in f:
            if not row.strip():
                continue
            fn, n, text = row.rstrip("\n").split("\t", 2)
            n = int(n)
            lines.add((fn, n))
            m = HEAD.match(text)
            if m:
                out.append({"fn": fn, "key": [m[1], m[2], m[3].strip()], "line": n, "end": n,
                            "why": m[4].strip(), "used": 0})
            elif out and out[-1]["fn"] == fn and out[-1]["end"] == n - 1:
                # the comment lines right below continue the reason
                out[-1]["why"] += " " + text.strip().removeprefix("--").strip()
                out[-1]["end"] = n
    for e in out:
        c = COUNT.match(e["why"])
        e["count"] = int(c[1]) if c else 1
        if c:
            e["why"] = e["why"][c.end():]
        # the line below the comment block it is in
        e["target"] = e["line"] + 1
        while (e["fn"], e["target"]) in lines:
            e["target"] += 1
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
               if e["fn"] == fn and e["key"][:2] == [level, state] and message.startswith(e["key"][2])
               and (lineno == "" or str(e["target"]) == lineno) and e["used"] < e["count"]]
        if hit:
            hit[0]["used"] += 1
        where = f"line {lineno}" if lineno else "the whole function"
        check(f"{fn} {where}: {level} {state} {message!r} is explained by a comment of its own"
              + (f" (line {hit[0]['line']})" if hit else ""), bool(hit))
    if not findings:
        check("plpgsql_check finds nothing in either edition", True)
    for e in allow:
        where = f"{e['fn']} line {e['line']}: the plpgsql_check comment [{e['key'][2]}]"
        check(f"{where} gives a reason", bool(e["why"].strip()))
        check(f"{where} explains {e['count']} finding{'s' if e['count'] > 1 else ''} "
              f"(of line {e['target']} or of the whole function), as it says",
              e["used"] == e["count"])


if __name__ == "__main__":
    main(sys.argv[1])
