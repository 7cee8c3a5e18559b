#!/usr/bin/python3
"""Every plpgsql_check finding is explained, and every explanation is used.

Usage: allowed.py ALLOW_FILE < FINDINGS

FINDINGS: one line per finding, "function, level, sqlstate, line, message,
source line" separated by tabs, as test/plpgsqlcheck/run.sh selects them
from plpgsql_check_function_tb.
ALLOW_FILE: entries of the form

    function | level | sqlstate | the message's start
        why: the reason the finding stays (indented lines continue it)

("#" lines are comments).  An entry explains every finding of its function
with that level and SQLSTATE whose message starts so (whatever its line:
the code moves).  Prints one "ok"/"not ok" line per finding and per entry;
an entry without a reason, or one that explains nothing any more, fails.
"""
import sys


def entries(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line[0].isspace():
                if not out:
                    raise SystemExit(f"{path}:{n}: a reason before any entry")
                out[-1]["why"] += " " + line.strip().removeprefix("why:").strip()
                continue
            parts = [p.strip() for p in line.split("|", 3)]
            if len(parts) != 4:
                raise SystemExit(f"{path}:{n}: not 'function | level | sqlstate | message'")
            out.append({"key": parts, "line": n, "why": "", "used": 0})
    return out


def main(path):
    allow = entries(path)
    passed = failed = 0

    def check(name, ok):
        nonlocal passed, failed
        passed, failed = passed + ok, failed + (not ok)
        print(f"{'ok' if ok else 'not ok'} - {name}")

    findings = [line.rstrip("\n").split("\t") for line in sys.stdin if line.strip()]
    for fn, level, state, lineno, message, _ in findings:
        hit = [e for e in allow
               if e["key"][:3] == [fn, level, state] and message.startswith(e["key"][3])]
        for e in hit:
            e["used"] += 1
        check(f"{fn} line {lineno}: {level} {state} {message!r} is explained in {path}", bool(hit))
    if not findings:
        check("plpgsql_check finds nothing in either edition", True)
    for e in allow:
        check(f"{path}:{e['line']}: the entry for {e['key'][0]} ({e['key'][3]!r}) gives a reason",
              bool(e["why"].strip()))
        check(f"{path}:{e['line']}: the entry for {e['key'][0]} ({e['key'][3]!r}) still explains a finding",
              e["used"] > 0)


if __name__ == "__main__":
    main(sys.argv[1])
