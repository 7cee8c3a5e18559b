#!/usr/bin/env python3
"""Checks the form of a report of test/bench/bench.sh, never its timings.

Usage: check.py REPORT.md
       check.py --mutants REPORT.md   (the check itself: every mutant of a good
                                       report must fail it)

The header states what makes the figures comparable (the command, the
server's version, configure flags and assertions, idgen's version, the
machine, the load average), and a server that checks assertions is marked
as such.  The sections of the report's scale are there with their tables;
every table is well formed; every median lies within its min–max; every
ratio's verdict follows from its spread (a winner only when the whole
spread is on one side of 1.0, "no winner" when it crosses 1.0); part 4 has
every pair and operation.  Nothing in it is test narrative or a commit.
Prints what it found; exits 1 on the first class of failure found.
"""
import re
import sys

WIN = {"cheaper", "faster", "idgen faster"}
LOSE = {"costlier", "slower", "core faster"}
CROSS = "no winner: spread crosses 1.0"
PAIRS = ["iuid vs uuid", "flaxid vs text", "distid vs numeric(28,0)", "base36id vs bigint"]
OPERATIONS = 8
# tables per section, by scale
SECTIONS = {"full": {"1": 1, "2": 1, "3": 3, "4": 1}, "tiny": {"1": 1, "2": 1, "3": 3, "4": 1},
            "quick": {"4": 1}}
NUM = r"-?[0-9]+(?:\.[0-9]+)?"

errors = []


def fail(msg):
    errors.append(msg)


def cells(line):
    return [c.strip() for c in line.strip()[1:-1].split("|")]


def tables(lines):
    """(section, header cells, [(line number, row cells)]) of every table."""
    out, section, i = [], None, 0
    while i < len(lines):
        m = re.match(r"### ([0-9]+)\.", lines[i])
        if m:
            section = m.group(1)
        if lines[i].startswith("|"):
            start = i
            block = []
            while i < len(lines) and lines[i].startswith("|"):
                if not lines[i].rstrip().endswith("|"):
                    fail("line %d: a table row must end with |" % (i + 1))
                block.append((i + 1, lines[i].rstrip()))
                i += 1
            head = cells(block[0][1])
            if len(block) < 3:
                fail("line %d: table without a data row" % (start + 1))
                continue
            if not re.fullmatch(r"\|( *:?-+:? *\|)+", block[1][1]) or len(cells(block[1][1])) != len(head):
                fail("line %d: bad separator row" % block[1][0])
            rows = []
            for n, line in block[2:]:
                c = cells(line)
                if len(c) != len(head):
                    fail("line %d: %d cells, the header has %d" % (n, len(c), len(head)))
                elif any(x == "" for x in c):
                    fail("line %d: an empty cell" % n)
                else:
                    rows.append((n, c))
            if any(x == "" for x in head) or len(head) < 2:
                fail("line %d: table header with an empty cell or fewer than 2 cells" % (start + 1))
            out.append((section, head, rows))
            continue
        i += 1
    return out


def rnd(x):
    return round(float(x) + 0.0, 2)


def check_verdict(n, spread, verdict, median=None):
    if spread == "–":
        if verdict != "–":
            fail("line %d: the reference row's verdict is %r, not –" % (n, verdict))
        return
    if spread == "n/a":
        if not verdict.startswith("n/a"):
            fail("line %d: no spread, but a verdict %r" % (n, verdict))
        return
    m = re.fullmatch(r"(%s)–(%s)" % (NUM, NUM), spread)
    if not m:
        fail("line %d: spread %r is not lowest–highest" % (n, spread))
        return
    lo, hi = float(m.group(1)), float(m.group(2))
    if lo > hi:
        fail("line %d: spread %r runs backwards" % (n, spread))
    if median is not None:
        mm = re.fullmatch(r"(%s)×" % NUM, median)
        if not mm:
            fail("line %d: median ratio %r is not N×" % (n, median))
        elif not lo <= float(mm.group(1)) <= hi:
            fail("line %d: median ratio %s outside its spread %s" % (n, median, spread))
    want = "win" if lo > 1 else "lose" if hi < 1 else "cross"
    got = "win" if verdict in WIN else "lose" if verdict in LOSE else "cross" if verdict == CROSS else None
    if got != want:
        fail("line %d: spread %s, verdict %r (the spread says %s)" % (n, spread, verdict,
             {"win": "above 1.0", "lose": "below 1.0", "cross": "it crosses 1.0"}[want]))


def check_within(n, what, med, lo, hi):
    try:
        med, lo, hi = float(med), float(lo), float(hi)
    except ValueError:
        fail("line %d: %s: median or min–max not a number" % (n, what))
        return
    if not lo <= med <= hi:
        fail("line %d: %s: median %s outside %s–%s" % (n, what, med, lo, hi))


def check(text):
    """the failures of a report's text (none: it is well formed), and what it holds"""
    del errors[:]
    lines = text.splitlines()

    # --- the header
    m = re.match(r"## idgen benchmark: PostgreSQL (\S+).*, (release build|assertion-enabled build)$", lines[0] if lines else "")
    if not m:
        fail("line 1 is not '## idgen benchmark: PostgreSQL <version>, release build' (or assertion-enabled build)")
    title_asserts = bool(m and m.group(2) == "assertion-enabled build")

    def field(name, pattern):
        for line in lines[:40]:
            if line.startswith("- %s" % name):
                f = re.match(pattern, line)
                if not f:
                    fail("header line %r does not read as expected" % line[:80])
                return f
        fail("no header line '- %s'" % name)
        return None

    cmd = field("Command:", r"- Command: `([^`]*bash test/bench/bench\.sh[^`]*)` \(scale (full|quick|tiny)\)$")
    scale = cmd.group(2) if cmd else "full"
    srv = field("Server:", r"- Server: PostgreSQL \S+.*, build `[^`]+`; debug_assertions = (on|off)$")
    conf = field("Configure", r"- Configure \(`pg_config --configure`\): `([^`]*)`$")
    field("Compiler flags", r"- Compiler flags \(`pg_config --cflags`\): `[^`]+`$")
    field("idgen ", r"- idgen [0-9]+\.[0-9]+(\.[0-9]+)?, built with the server's compiler flags$")
    field("Machine:", r"- Machine: [1-9][0-9]* CPUs, .+$")
    field("Load average", r"- Load average \(1 minute[^)]*\): %s before, %s after; .+$" % (NUM, NUM))
    field("Run time:", r"- Run time: [0-9]+ s; CPU time: [0-9]+ s in the server, [0-9]+ s in .+$")
    asserts = bool(srv and srv.group(1) == "on")
    warned = "**WARNING: this server checks assertions" in text
    if asserts != title_asserts or asserts != warned:
        fail("assertions: the server line says %s, the title %s, the warning is %s" %
             ("on" if asserts else "off", "on" if title_asserts else "off", "there" if warned else "missing"))
    if conf and "--enable-cassert" in conf.group(1) and not asserts:
        fail("configured with --enable-cassert but debug_assertions = off")
    if asserts and scale != "tiny" and cmd and "IDGEN_BENCH_ALLOW_ASSERT=1" not in cmd.group(1):
        fail("a %s run on a server with assertions, without IDGEN_BENCH_ALLOW_ASSERT=1" % scale)

    # --- nothing that is not a measurement or its conditions
    for i, line in enumerate(lines, 1):
        if re.search(r"\bissue [0-9]|\bNOT met\b|\bTargets of\b", line, re.I):
            fail("line %d: test narrative: %s" % (i, line[:80]))
        for h in re.findall(r"\b[0-9a-f]{7,40}\b", line):
            if re.search(r"[a-f]", h) and re.search(r"[0-9]", h):
                fail("line %d: %r looks like a commit hash" % (i, h))

    # --- tables
    ts = tables(lines)
    per = {}
    for section, head, rows in ts:
        per[section] = per.get(section, 0) + 1
    for section, want in SECTIONS[scale].items():
        if per.get(section, 0) != want:
            fail("section %s: %d tables, expected %d" % (section, per.get(section, 0), want))
    for section in SECTIONS[scale]:
        if not re.search(r"^### %s\. " % section, text, re.M):
            fail("no section '### %s.'" % section)
    if "NaN" in text:
        fail("a NaN in the report")

    parity = None
    for section, head, rows in ts:
        low = [h.lower() for h in head]
        if "spread" in low or "verdict" in low:
            if not ("spread" in low and "verdict" in low):
                fail("section %s: a table with a spread but no verdict, or the reverse: %s" % (section, head))
                continue
            s, v = low.index("spread"), low.index("verdict")
            if "median" not in low[s - 1]:
                fail("section %s: the column before the spread is not a median: %s" % (section, head[s - 1]))
            for n, c in rows:
                check_verdict(n, c[s], c[v], None if c[s] in ("–", "n/a") else c[s - 1])
        # a ratio cell with its spread, "≈ " first when the spread crosses 1.0;
        # in a table without verdicts every ratio but the reference's is one
        verdicts = "spread" in low
        for n, c in rows:
            for x in c[1:]:
                mm = re.fullmatch(r"(≈ )?(%s)× \((%s)–(%s)\)" % (NUM, NUM, NUM), x)
                if not mm:
                    if not verdicts and "×" in x and x != "1.00×":
                        fail("line %d: ratio cell %r is not 'N× (lo–hi)'" % (n, x))
                    continue
                r, lo, hi = float(mm.group(2)), float(mm.group(3)), float(mm.group(4))
                if not lo <= r <= hi:
                    fail("line %d: %r: median outside its spread" % (n, x))
                if bool(mm.group(1)) != (lo <= 1 <= hi):
                    fail("line %d: %r: ≈ must mark exactly the spreads that cross 1.0" % (n, x))
        # a median with its min–max, side by side or as "m (lo–hi)"
        for j, h in enumerate(low):
            if (h == "median ms" or h.endswith(", median")) and j + 1 < len(low) and low[j + 1].startswith("min–max"):
                for n, c in rows:
                    mm = re.fullmatch(r"(%s)–(%s)" % (NUM, NUM), c[j + 1])
                    if mm:
                        check_within(n, head[j], c[j], mm.group(1), mm.group(2))
                    else:
                        fail("line %d: min–max %r" % (n, c[j + 1]))
            if h.endswith("ms, median (min–max)"):
                for n, c in rows:
                    mm = re.fullmatch(r"(%s) \((%s)–(%s)\)" % (NUM, NUM, NUM), c[j])
                    if mm:
                        check_within(n, head[j], mm.group(1), mm.group(2), mm.group(3))
                    else:
                        fail("line %d: %r is not 'median (min–max)'" % (n, c[j]))
        if section == "4" and head[0].startswith("idgen type vs core type"):
            parity = rows
    if parity is None:
        fail("no parity table (section 4)")
    else:
        seen = {}
        for n, c in parity:
            seen.setdefault(c[0], set()).add(c[1])
        for p in PAIRS:
            if len(seen.get(p, ())) != OPERATIONS:
                fail("parity: %s has %d operations, expected %d" % (p, len(seen.get(p, ())), OPERATIONS))
        if set(seen) != set(PAIRS):
            fail("parity: pairs %s, expected %s" % (sorted(seen), PAIRS))

    return list(errors), "scale %s, %d well-formed tables, every verdict follows from its spread, assertions %s" % (
        scale, len(ts), "on (marked)" if asserts else "off")


def mutants(text):
    """(what, text) pairs: a good report with one fault each"""
    out = []

    def sub(what, pattern, repl, flags=0):
        new, n = re.subn(pattern, repl, text, count=1, flags=flags)
        if n:
            out.append((what, new))

    sub("a winner claimed on a spread that crosses 1.0", r"\| no winner: spread crosses 1\.0 \|", "| idgen faster |")
    sub("a winner claimed on a spread that crosses 1.0", r"\| no winner: spread crosses 1\.0 \|", "| faster |")
    sub("the loser named the winner", r"\| (core faster|slower|costlier) \|", "| idgen faster |")
    sub("a spread without a verdict", r"\| (idgen faster|faster|cheaper) \|", "| no winner: spread crosses 1.0 |")
    sub("a median outside its spread", r"\| ([0-9.]+)× \| ([0-9.]+)–([0-9.]+) \|", r"| 99.00× | \2–\3 |")
    sub("a median outside its min–max", r"\| ([0-9.]+) \(([0-9.]+)–([0-9.]+)\) \|", r"| 99999 (\2–\3) |")
    sub("an ≈ dropped", r"\| ≈ ", "| ")
    sub("the assertion warning removed", r"\*\*WARNING: this server checks assertions.*?\*\*\n\n", "", re.S)
    sub("assertions on, the report calling it a release build", r"debug_assertions = off", "debug_assertions = on")
    sub("the configure flags left out", r"^- Configure .*\n", "", re.M)
    sub("the load average left out", r"^- Load average .*\n", "", re.M)
    sub("the command left out", r"^- Command: .*\n", "", re.M)
    sub("test narrative", r"\n### 4\.", "\nTargets of issue 9: NOT met\n\n### 4.")
    sub("a commit hash", r"\n### 4\.", "\nidgen built from a9becb6.\n\n### 4.")
    sub("a parity operation missing", r"^\| iuid vs uuid \| `COPY t TO file` \(text\) .*\n", "", re.M)
    sub("a table row with a cell too few", r"^(\| base36id vs bigint \|[^\n]*?) \|[^|\n]*\|$", r"\1 |", re.M)
    sub("a NaN", r"\| ([0-9.]+) \|", "| NaN |")
    return out


def main(argv):
    if len(argv) == 2 and argv[0] == "--mutants":
        text = open(argv[1], encoding="utf-8").read()
        errs, _ = check(text)
        if errs:
            print("bench check: %s must pass before its mutants are tried: %s" % (argv[1], errs[0]), file=sys.stderr)
            return 1
        caught = missed = 0
        for what, mutant in mutants(text):
            errs, _ = check(mutant)
            if errs:
                caught += 1
            else:
                missed += 1
                print("bench check: a mutant passed: %s" % what, file=sys.stderr)
        if caught + missed < 10:
            print("bench check: only %d mutants could be made of %s" % (caught + missed, argv[1]), file=sys.stderr)
            return 1
        print("bench check: the check failed all %d mutants of %s" % (caught, argv[1]))
        return 1 if missed else 0
    if len(argv) != 1:
        print("usage: check.py [--mutants] REPORT.md", file=sys.stderr)
        return 2
    errs, what = check(open(argv[0], encoding="utf-8").read())
    for e in errs:
        print("bench check: %s: %s" % (argv[0], e), file=sys.stderr)
    if errs:
        return 1
    print("bench check: %s: %s" % (argv[0], what))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
