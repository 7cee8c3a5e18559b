#!/usr/bin/python3
"""Every SQL example of README.md runs, and gives the value its comment names.

The ```sql blocks of the page run in order, in one database, after
`CREATE EXTENSION idgen` (as README's Install section says), through psql with
ON_ERROR_STOP and TimeZone UTC.  A SELECT followed on its last line by a
comment, as in `SELECT base36id_worker('0ITS0030Z');   -- 3`, must return that
one value.  Usage: readme_sql.py PAGE PSQL, connecting with libpq's
environment (PGHOST, PGPORT, PGUSER, PGDATABASE) to a database made for it.
Prints one line per check and "readme-sql: N passed, M failed"; exits 1 on
failure.
"""
import os
import re
import subprocess
import sys

FENCE = re.compile(r"^```sql\n(.*?)^```$", re.M | re.S)
MARK = "@@readme-sql "


def statements(block):
    """(text, expected) per statement; expected is the comment after its ';'."""
    out, start, i, n = [], 0, 0, len(block)
    while i < n:
        c = block[i]
        if block.startswith("--", i):
            i = block.find("\n", i)
            i = n if i < 0 else i
        elif c in "'\"":
            i = block.find(c, i + 1)
            if i < 0:
                raise SystemExit(f"unterminated quote in: {block[start:][:80]}")
            i += 1
        elif c == "$" and re.match(r"\$\w*\$", block[i:]):
            tag = re.match(r"\$\w*\$", block[i:]).group(0)
            i = block.find(tag, i + len(tag))
            if i < 0:
                raise SystemExit(f"unterminated {tag} in: {block[start:][:80]}")
            i += len(tag)
        elif c == ";":
            end = block.find("\n", i)
            end = n if end < 0 else end
            text = block[start:i + 1].strip()
            comment = re.match(r"\s*--\s*(.*?)\s*$", block[i + 1:end])
            expected = None
            # the statement proper, without the comment lines above it
            body = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("--"))
            if comment and re.match(r"\s*SELECT\b", body, re.I):
                expected = comment.group(1)
            out.append((text, expected))
            start = i = end
        else:
            i += 1
    if block[start:].strip() and not all(l.strip().startswith("--") or not l.strip()
                                         for l in block[start:].splitlines()):
        raise SystemExit(f"statement without ';': {block[start:].strip()[:80]}")
    return out


def main(page, psql):
    with open(page, encoding="utf-8") as f:
        stmts = [s for block in FENCE.findall(f.read()) for s in statements(block)]
    name = os.path.basename(page)
    script = ["CREATE EXTENSION idgen;"]
    for k, (text, _) in enumerate(stmts):
        script += [f"\\echo {MARK}{k}", text]
    env = dict(os.environ, PGTZ="UTC")
    run = subprocess.run([psql, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"],
                         input="\n".join(script) + "\n", capture_output=True, text=True,
                         env=env)
    results, current = {}, None
    for line in run.stdout.splitlines():
        if line.startswith(MARK):
            current = int(line[len(MARK):])
            results[current] = []
        elif current is not None:
            results[current].append(line)

    passed = failed = 0

    def check(what, ok, detail=""):
        nonlocal passed, failed
        passed, failed = passed + ok, failed + (not ok)
        print(f"{'ok' if ok else 'not ok'} - {what}{'' if ok or not detail else ': ' + detail}")

    last = max(results) if results else -1
    for k, (text, expected) in enumerate(stmts):
        first = " ".join(text.split())[:70]
        # a statement ran if psql went on to the next one, or ended well
        ran = k < last or (k == last and run.returncode == 0)
        check(f"{name} statement runs: {first}", ran,
              run.stderr.strip() if k == last else "not reached")
        if ran and expected is not None:
            got = results.get(k, [])
            check(f"{name} {first} gives {expected}", got == [expected], f"got {got}")
    check(f"psql ran every statement of {name}", run.returncode == 0 and last == len(stmts) - 1,
          run.stderr.strip())
    print(f"readme-sql: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
