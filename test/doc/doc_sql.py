#!/usr/bin/python3
"""Every SQL example of the user pages runs, and gives the value its comment shows.

Usage: doc_sql.py SERVER PSQL PAGE...   (SERVER: plain or preloaded)

A page declares the server its examples need in an HTML comment of its own:
    <!-- doc-sql: server preloaded -->
(idgen in shared_preload_libraries, idgen.worker_id set, and the key file
public_id.keys in the data directory holding the formats' published AES-256
key, see doc/formats.md); without one a page runs on a server WITHOUT
preloading.  Only the pages of the SERVER given run; each in a database of
its own, after `CREATE EXTENSION idgen`, through psql with TimeZone UTC.

Every ```sql block runs, in order, unless the line before it is
    <!-- doc-sql: skip REASON -->
(a standby, Citus, pg_cron, PL/Proxy, another server: REASON is printed), or
    <!-- doc-sql: since 18 -->
and the server is an older major (the block uses what that major added).

A statement whose line ends in a comment after its ";" is checked (a SELECT or
a SHOW against the value it shows, any statement against an ERROR):
    SELECT base36id_worker('0ITS0030Z');     -- 3         that one value
    SELECT iuid_country('nonsense');         -- ERROR 22P02   fails so
    SELECT base36id_generate();              -- e.g. 1IAMO000A   not checked
An EXPLAIN followed directly by comment lines is checked against them, one
plan line a comment line ("-- " and the line as psql prints it, indented);
a comment line ending in "…" stands for every line that starts with what
precedes it:
    EXPLAIN (COSTS OFF) SELECT * FROM t WHERE id = 1;
    -- Index Only Scan using t_pkey on t
    --   Index Cond: (id = …
Every other statement must succeed.  Prints one line per check and
"doc-sql: N passed, M failed"; exits 1 on failure.
"""
import os
import re
import subprocess
import sys

FENCE = re.compile(r"^```([^`\n]*)\n(.*?)^```$", re.M | re.S)
SERVER = re.compile(r"<!-- doc-sql: server (\w+) -->")
SKIP = re.compile(r"<!-- doc-sql: skip (.+?) -->\s*$")
SINCE = re.compile(r"<!-- doc-sql: since (\d+) -->\s*$")
MARK = "@@doc-sql "


def statements(block):
    """(text, comment, plan) per statement; comment is what follows its ';' on
    that line, plan the comment lines right after an EXPLAIN (None without)."""
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
            m = re.match(r"\s*--\s*(.*?)\s*$", block[i + 1:end])
            plan = None
            if not m and re.match(r"(?:\s*--[^\n]*\n)*\s*EXPLAIN\b", text, re.I):
                lines = re.match(r"(?:\n--(?: [^\n]*)?(?=\n|$))*", block[end:]).group(0)
                plan = [l[3:].rstrip() for l in lines.split("\n")[1:]] or None
                end += len(lines)
            out.append((text, m.group(1) if m else None, plan))
            start = i = end
        else:
            i += 1
    rest = block[start:]
    if any(l.strip() and not l.strip().startswith("--") for l in rest.splitlines()):
        raise SystemExit(f"statement without ';': {rest.strip()[:80]}")
    return out


def page_blocks(text, major):
    """(runs, reason, sql) for every sql block of a page, on a server of that major."""
    for m in FENCE.finditer(text):
        if m.group(1) != "sql":
            continue
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        skip, since = SKIP.search(before), SINCE.search(before)
        if skip:
            yield (False, skip.group(1), m.group(2))
        elif since and major < int(since.group(1)):
            yield (False, f"needs PostgreSQL {since.group(1)}, the server is {major}", m.group(2))
        else:
            yield (True, None, m.group(2))


def server_major(psql):
    got = subprocess.run([psql, "-X", "-A", "-t", "-d", "postgres", "-c", "SHOW server_version_num"],
                         capture_output=True, text=True)
    if got.returncode != 0:
        raise SystemExit(f"cannot ask the server its version: {got.stderr.strip()[-300:]}")
    return int(got.stdout.strip()) // 10000


def run_page(path, psql, check, major):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    name = os.path.relpath(path)
    stmts = []
    for runs, reason, block in page_blocks(text, major):
        if not runs:
            print(f"ok - {name}: block skipped ({reason}): {' '.join(block.split())[:50]}")
            continue
        stmts += statements(block)
    if not stmts:
        return
    db = "doc_" + re.sub(r"\W", "_", name.lower())
    env = dict(os.environ, PGTZ="UTC")
    made = subprocess.run([psql, "-X", "-q", "-d", "postgres", "-c", f"DROP DATABASE IF EXISTS {db}",
                           "-c", f"CREATE DATABASE {db}"], env=env, capture_output=True, text=True)
    if made.returncode != 0:
        check(f"{name}: a database for its examples", False, made.stderr.strip()[-300:])
        return
    # as the page's reader has: the extension (unless the page creates it)
    script = [] if any(t == "CREATE EXTENSION idgen;" for t, _, _ in stmts) else ["CREATE EXTENSION idgen;"]
    for k, (sql, _, _) in enumerate(stmts):
        script += [f"\\echo {MARK}{k}", sql, f"\\echo {MARK}state :SQLSTATE"]
    run = subprocess.run([psql, "-X", "-q", "-A", "-t", "-d", db, "-v", "VERBOSITY=terse"],
                         input="\n".join(script) + "\n", capture_output=True, text=True,
                         env=env)
    rows, states, cur = {}, {}, None
    for line in run.stdout.splitlines():
        if line.startswith(MARK + "state "):
            states[cur] = line.split()[-1]
        elif line.startswith(MARK):
            cur = int(line[len(MARK):])
            rows[cur] = []
        elif cur is not None:
            rows[cur].append(line)
    errors = [l for l in run.stderr.splitlines() if l.startswith("psql:")]
    for k, (sql, comment, plan) in enumerate(stmts):
        first = " ".join(sql.split())[:60]
        state = states.get(k)
        body = "\n".join(l for l in sql.splitlines() if not l.lstrip().startswith("--"))
        want_error = re.match(r"ERROR\s+([0-9A-Z]{5})\b", comment or "")
        if want_error:
            check(f"{name}: {first} fails with {want_error.group(1)}",
                  state == want_error.group(1), f"SQLSTATE {state}")
            continue
        # no SQLSTATE at all: the connection was lost (the server crashed)
        check(f"{name}: {first} runs", state == "00000",
              f"SQLSTATE {state}; " + ("; ".join(errors)[:400] if state else run.stderr.strip()[-400:]))
        if plan is not None and state == "00000":
            got = [l.rstrip() for l in rows.get(k, [])]
            check(f"{name}: {first} shows the plan of its comment lines",
                  len(got) == len(plan) and all(
                      g.startswith(w[:-1]) if w.endswith("\u2026") else g == w for g, w in zip(got, plan)),
                  "got\n" + "\n".join(got))
        if (comment is not None and state == "00000" and re.match(r"\s*(SELECT|SHOW)\b", body, re.I)
                and not comment.startswith("e.g.")):
            check(f"{name}: {first} gives {comment}", rows.get(k) == [comment],
                  f"got {rows.get(k)}")
    subprocess.run([psql, "-X", "-q", "-d", "postgres", "-c", f"DROP DATABASE {db}"],
                   env=env, capture_output=True)


def main(server, psql, pages):
    passed = failed = 0

    def check(what, ok, detail=""):
        nonlocal passed, failed
        passed, failed = passed + ok, failed + (not ok)
        print(f"{'ok' if ok else 'not ok'} - {what}{'' if ok or not detail else ': ' + detail}")

    major = server_major(psql)
    for page in pages:
        with open(page, encoding="utf-8") as f:
            m = SERVER.search(f.read())
        if (m.group(1) if m else "plain") == server:
            run_page(page, psql, check, major)
    print(f"doc-sql: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[1] not in ("plain", "preloaded"):
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
