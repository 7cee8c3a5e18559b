#!/usr/bin/env python3
"""Quotes the benchmark reports of every major in doc/performance.md, and
PostgreSQL 18's in doc/choosing.md.

Usage: quote.py [--check] [ROOT]

doc/performance.md holds blocks between "<!-- quote NAME -->" and
"<!-- /quote -->"; each is a table made from the reports
test/bench/results/pg<major>/bench.md (15, 17, 18, 19beta1), one column per
major (doc/choosing.md's blocks from PostgreSQL 18's report, whose run
has uuidv7() too: "choosing", the cost per id at the precision its spread
allows, one session's bulk insert and 4 clients' single-row inserts as
ratios to bigserial, and key density; "choosing-settings", the report's
server, machine and settings; doc/portable.md's blocks from the portable.md
that test/bench/portable.sh writes beside each bench.md: "portable", the
SQL edition's and its peers' cost per id as ratios to the PL/pgSQL
uuid_generate_v7(), "portable-bulk", the bulk insert's rates as such
ratios, "portable-runs", the reports' server, machine and load).  Without --check the blocks are rewritten from the reports (run it
after regenerating them); with --check it exits 1 when a block differs from
what the reports give, so the page never quotes other figures than theirs,
or when a report is not a well-formed full-scale report of a release build
(test/bench/check.py).  Prints "bench-quote: N passed, M failed".
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check  # noqa: E402  (test/bench/check.py)

MAJORS = ["15", "17", "18", "19beta1"]
PAGE = "doc/performance.md"
# other pages with quote blocks of their own (BLOCKS); each must have one
OTHER_PAGES = ["doc/choosing.md", "doc/portable.md"]
# choosing.md's table: one major's report, the newest with uuidv7() and a release build
CHOOSING_MAJOR = "18"
# its rows: the name, part 1's row (cost; None: the text instead), part 3's
# row (density and throughput; a text instead when it does not start with a backquote)
CHOOSING_ROWS = [
    ("`iuid`", "`iuid_generate(", "`iuid PRIMARY"),
    ("`distid_generate()`", "`distid_generate()`, within", "`distid PRIMARY KEY DEFAULT distid_generate()`"),
    ("`distid_generate_dense()`", "`distid_generate_dense()`", "`distid PRIMARY KEY DEFAULT distid_generate_dense()`"),
    ("DistributedId128", "`distid128_generate()`", "`uuid PRIMARY KEY DEFAULT distid128_generate()`"),
    ("`flaxid`", "`flaxid_generate()`", "`flaxid PRIMARY"),
    ("`base36id`", "`base36id_generate()`, within", "bound by [its rate](base36id.md#how-it-generates)"),
    ("`uuidv7()`", "`uuidv7()`", "`uuid PRIMARY KEY DEFAULT uuidv7()`"),
    ("UUIDv7 as a SQL function", "pasted UUIDv7, SQL function", "`uuid PRIMARY KEY DEFAULT uuid_generate_v7()`"),
    ("`gen_random_uuid()`", "`gen_random_uuid()`", "`uuid PRIMARY KEY DEFAULT gen_random_uuid()`"),
    ("`bigserial`", "`nextval(", "`bigserial PRIMARY"),
]
# part 1's rows quoted, by the start of their label
COST_ROWS = ["`gen_random_uuid()`", "`uuidv7()`", "pasted UUIDv7, plpgsql", "`nextval(",
             "`iuid_generate(", "`flaxid_generate()`", "`distid128_generate()`",
             "`distid_generate()`, within", "`distid_generate_dense()`", "`base36id_generate()`, within",
             "`public_id(g::bigint, key)`", "pgcrypto"]


def cells(line):
    return [c.strip() for c in line.strip()[1:-1].split("|")]


def read_report(path):
    """{'header': {name: value}, 'tables': {section: [(head, rows)]}}"""
    rep = {"header": {}, "tables": {}, "title": ""}
    section = None
    lines = open(path, encoding="utf-8").read().splitlines()
    rep["title"] = lines[0] if lines else ""
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"- ([A-Za-z][A-Za-z ]*?)(?: \([^)]*\))?: (.*)$", line)
        if m and section is None:
            rep["header"][m.group(1)] = m.group(2)
        m = re.match(r"### ([0-9]+)\.", line)
        if m:
            section = m.group(1)
        if line.startswith("|"):
            block = []
            while i < len(lines) and lines[i].startswith("|"):
                block.append(cells(lines[i]))
                i += 1
            rep["tables"].setdefault(section, []).append((block[0], block[2:]))
            continue
        i += 1
    return rep


def col(head, name):
    for j, h in enumerate(head):
        if h.lower().startswith(name.lower()):
            return j
    raise KeyError(name)


def cell(ratio, spread):
    """a ratio with its spread, "≈ " first when the spread crosses 1.0"""
    m = re.fullmatch(r"([0-9.]+)–([0-9.]+)", spread)
    if not m:
        return ratio
    cross = float(m.group(1)) <= 1 <= float(m.group(2))
    return "%s%s (%s)" % ("≈ " if cross else "", ratio, spread)


def pivot(reps, source, key, value, first):
    """A table with one row per key and one column per major: key(row) and
    value(head, row) of the table source(report) of each major's report;
    first: the headers of the key's columns."""
    keys, data = [], {}
    # the newest major first: its rows (uuidv7() on 18 and later) come in their place
    for m in reversed(MAJORS):
        if m not in reps:
            continue
        head, body = source(reps[m])
        for r in body:
            k, v = key(r), value(head, r)
            if v is None:
                continue
            if k not in keys:
                keys.append(k)
            data[(m, k)] = v
    head = first + ["PostgreSQL %s" % m for m in MAJORS if m in reps]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(first) + "---:|" * (len(head) - len(first))]
    for k in keys:
        out.append("| " + " | ".join(list(k) + [data.get((m, k), "–") for m in MAJORS if m in reps]) + " |")
    return "\n".join(out)


def block_runs(reps):
    rows = []
    for m in MAJORS:
        if m not in reps:
            continue
        h = reps[m]["header"]
        server = re.sub(r", build .*", "", h.get("Server", "?"))
        asserts = "assertions on" if "debug_assertions = on" in h.get("Server", "") else "release build"
        load = re.match(r"([0-9.]+) before, ([0-9.]+) after", h.get("Load average", ""))
        run = re.match(r"([0-9]+) s", h.get("Run time", ""))
        cmd = re.match(r"`([^`]*)`", h.get("Command", ""))
        rows.append(["[%s](../test/bench/results/pg%s/bench.md)" % (server, m), asserts,
                     "`%s`" % (cmd.group(1) if cmd else "?"),
                     "%s → %s" % (load.group(1), load.group(2)) if load else "?",
                     "%s s" % run.group(1) if run else "?"])
    return "\n".join(["| report | server | command | load average before → after | run time |",
                      "|---|---|---|---:|---:|"] + ["| " + " | ".join(r) + " |" for r in rows])


def cost_cell(head, r):
    """part 1's time per id and ratio, for the rows quoted"""
    if not any(r[0].startswith(label) for label in COST_ROWS):
        return None
    ratio, spread = r[col(head, "gen_random_uuid() ÷ this")], r[col(head, "spread")]
    if ratio == "–":
        ratio = "1.00×"
    elif spread == "n/a":
        ratio += " (spread n/a)"
    else:
        ratio = cell(ratio, spread)
    return "%s ns; %s" % (grouped(r[col(head, "ns/id net")]), ratio)


def grouped(number):
    """a figure with its thousands grouped (1,397.6), as the user pages write them"""
    m = re.fullmatch(r"(-?)([0-9]+)(\.[0-9]+)?", number)
    return "%s%s%s" % (m.group(1), "{:,}".format(int(m.group(2))), m.group(3) or "") if m else number


def ratio_cell(name):
    """the ratio of column NAME with the spread that follows it"""
    def value(head, r):
        spread = r[col(head, "spread")]
        return r[col(head, name)] if spread == "–" else cell(r[col(head, name)], spread)
    return value


def summary_cell(name):
    """the cell of column NAME of a summary table (none: no such column)"""
    def value(head, r):
        try:
            return r[col(head, name)]
        except KeyError:
            return None
    return value


def about(ns, spread):
    """a cost per id at the precision its spread allows: two significant
    digits when the ratio's spread stays within a factor of 2 (or the row is
    the reference), one otherwise ("about 50 ns", not 47.4)"""
    m = re.fullmatch(r"([0-9.]+)–([0-9.]+)", spread)
    wide = spread == "n/a" or (m and float(m.group(2)) > 2 * float(m.group(1)))
    v = float(ns)
    digits = 1 if wide else 2
    rounded = float("%.*g" % (digits, v))
    return "about %s ns" % "{:,}".format(int(rounded)) if rounded >= 1 else "about %s ns" % rounded


def block_choosing(reps):
    """choosing.md's table from one report: cost per id (at the precision of
    its spread), one session's bulk insert and 4 clients' single-row inserts
    against bigserial, and the key's leaf density after 4 clients' batches"""
    rep = reps[CHOOSING_MAJOR]
    head1, cost = rep["tables"]["1"][0]
    head3d, dens = rep["tables"]["3"][1]
    head3t, thr = rep["tables"]["3"][2]

    def find(rows, prefix):
        hits = [r for r in rows if r[0].startswith(prefix)]
        if len(hits) != 1:
            raise KeyError("%d rows start with %s" % (len(hits), prefix))
        return hits[0]

    out = ["| | cost per id ([performance.md](performance.md#cost-per-id)) "
           "| one session's `INSERT … SELECT`, × bigserial's rows/s ([performance.md](performance.md#inserts)) "
           "| 4 clients' single-row inserts, × bigserial's rows/s ([performance.md](performance.md#inserts)) "
           "| leaf density of the key after 4 clients' 100-row batches, % ([performance.md](performance.md#inserts)) |",
           "|---|---|---|---|---|"]
    for name, c, d in CHOOSING_ROWS:
        r = find(cost, c)
        spread = r[col(head1, "spread")]
        text = about(r[col(head1, "ns/id net")], "–" if spread == "–" else spread)
        if c.startswith("`distid_generate()`"):
            text += " within its burst; beyond it, [its rate](generation.md#distid)"
        elif c.startswith("`base36id"):
            text += ", within [its rate](base36id.md#how-it-generates)"
        if d.startswith("`"):
            cells_ = [find(thr, d)[col(head3t, "1 session, bulk")],
                      find(thr, d)[col(head3t, "single-row, 4 clients")],
                      find(dens, d)[col(head3d, "batch, 4 clients")].split(" ")[0]]
        else:
            cells_ = [d, d, "(one counter appends in order)"]
        out.append("| %s | %s | %s |" % (name, text, " | ".join(cells_)))
    return "\n".join(out)


def block_settings(reps):
    """the server, machine and settings of choosing.md's report, one line each"""
    h = reps[CHOOSING_MAJOR]["header"]
    return "\n".join("- %s: %s" % (k, h[k]) for k in ("Server", "Machine", "Settings"))


BLOCKS = {
    "choosing": block_choosing,
    "choosing-settings": block_settings,
    "portable": lambda r: block_portable(r),
    "portable-bulk": lambda r: block_portable_bulk(r),
    "portable-runs": lambda r: block_portable_runs(r),
    "runs": block_runs,
    "cost": lambda r: pivot(r, lambda p: p["tables"]["1"][0], lambda row: (row[0],), cost_cell,
                            ["ns per id net; gen_random_uuid() ÷ this, median (spread); the rates: "
                             "[distid](generation.md#distid), [base36id](base36id.md#how-it-generates)"]),
    "parity": lambda r: pivot(r, lambda p: p["tables"]["4"][0], lambda row: (row[0], row[1]),
                              ratio_cell("core ÷ idgen, median"), ["idgen vs core type", "operation"]),
    "bulk": lambda r: pivot(r, lambda p: p["tables"]["2"][0], lambda row: (row[0],),
                            ratio_cell("vs bigserial"), ["primary key"]),
    # part 3's summaries: leaf density, then throughput
    "density-batch-4": lambda r: pivot(r, lambda p: p["tables"]["3"][1], lambda row: (row[0],),
                                       summary_cell("batch, 4 clients"),
                                       ["primary key: leaf density % (fragmentation %)"]),
    "throughput-batch-4": lambda r: pivot(r, lambda p: p["tables"]["3"][2], lambda row: (row[0],),
                                          summary_cell("batch, 4 clients"), ["primary key"]),
    "throughput-single-4": lambda r: pivot(r, lambda p: p["tables"]["3"][2], lambda row: (row[0],),
                                           summary_cell("single-row, 4 clients"), ["primary key"]),
}


def read_portable(path, root, checking):
    """the SQL edition's report beside a bench.md (test/bench/portable.sh):
    {'header': {name: value}, 'cost': (head, rows), 'bulk': (head, rows)};
    None when missing, not a release build's or not a full-scale report
    with both tables (printed with --check)"""
    def refuse(why):
        if checking:
            print("%s: %s" % (os.path.relpath(path, root), why))
        return None
    if not os.path.exists(path):
        return refuse("missing (test/bench/bench.sh writes it beside bench.md)")
    rep = read_report(path)
    for part, section in (("cost", "1"), ("bulk", "2")):
        if rep["tables"].get(section):
            rep[part] = rep["tables"][section][0]
    server = rep["header"].get("Server", "")
    if "assertions: off" not in server:
        return refuse("not a release build's report")
    if "(scale full)" not in rep["header"].get("Command", ""):
        return refuse("not a full-scale report")
    if "cost" not in rep or "bulk" not in rep:
        return refuse("without its two tables (cost per id, bulk insert)")
    return rep


# the rows of doc/portable.md's tables: the peers and the SQL edition
PORTABLE_PEERS = ("pasted UUIDv7", "`gen_random_uuid()`", "`uuidv7()`")


def portable_pivot(reps, part, first, keep, value):
    """one row per generator of a portable.md's table, one column per major"""
    keys, data = [], {}
    majors = [m for m in MAJORS if m in reps]
    for m in reversed(majors):
        rep = reps[m].get("portable")
        if rep is None:
            raise KeyError("no full-scale release-build portable.md for %s" % m)
        head, rows = rep[part]
        for r in rows:
            if not keep(r[0]):
                continue
            if r[0] not in keys:
                keys.append(r[0])
            data[(m, r[0])] = value(head, r)
    keys.sort(key=lambda k: (not k.startswith(PORTABLE_PEERS), 0))
    out = ["| %s | %s |" % (first, " | ".join(majors)), "|---|" + "---:|" * len(majors)]
    for k in keys:
        out.append("| %s | %s |" % (k, " | ".join(data.get((m, k), "–") for m in majors)))
    return "\n".join(out)


def times(ratio):
    """a ratio such as 1.52 (1.41–1.63), written 1.52× (1.41–1.63)"""
    return re.sub(r"^([0-9.]+)", r"\1×", ratio)


def block_portable(reps):
    """doc/portable.md's cost table: each generator's cost per id as a ratio
    to the PL/pgSQL uuid_generate_v7() of the same rounds, with its spread,
    and its CPU time per id"""
    return portable_pivot(
        reps, "cost",
        "per id: × the PL/pgSQL `uuid_generate_v7()` of the same rounds, median (interquartile range); CPU ns per id; × the C generator of the same name, on PostgreSQL",
        lambda label: label.startswith(("SQL ",) + PORTABLE_PEERS),
        lambda head, r: "%s; %s ns%s" % (times(r[col(head, "× PL/pgSQL")]), grouped(r[col(head, "CPU ns")]),
                                         "" if r[col(head, "× the C")] in ("—", "n/a") else "; %s× C" % r[col(head, "× the C")]))


def block_portable_bulk(reps):
    """doc/portable.md's bulk insert table: rows per second as a ratio to
    the table keyed by the PL/pgSQL uuid_generate_v7(), with its spread"""
    return portable_pivot(
        reps, "bulk", "bulk insert: rows per second × those of `uuid_generate_v7()`, median (spread), on PostgreSQL",
        lambda label: True, lambda head, r: times(r[col(head, "rate × PL/pgSQL")]))


def block_portable_runs(reps):
    """the conditions of the SQL edition's reports: server, machine, load"""
    out = ["| report | server | machine | load average (1 min): before, after part 1, after part 2 |", "|---|---|---|---|"]
    for m in MAJORS:
        rep = reps.get(m, {}).get("portable")
        if rep is None:
            raise KeyError("no full-scale release-build portable.md for %s" % m)
        h = rep["header"]
        server = re.match(r"(PostgreSQL [^ ,]+)", h.get("Server", "?"))
        load = re.findall(r"([0-9.]+) (?:before|after)", h.get("Load average", ""))
        out.append("| [pg%s/portable.md](../test/bench/results/pg%s/portable.md) | %s, release build | %s | %s |"
                   % (m, m, server.group(1) if server else "?", h.get("Machine", "?"), ", ".join(load) or "?"))
    return "\n".join(out)


def main(argv):
    checking = "--check" in argv
    args = [a for a in argv if a != "--check"]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    reps = {}
    passed = failed = 0
    for m in MAJORS:
        p = os.path.join(root, "test", "bench", "results", "pg%s" % m, "bench.md")
        if os.path.exists(p):
            reps[m] = read_report(p)
            reps[m]["portable"] = read_portable(os.path.join(os.path.dirname(p), "portable.md"), root, checking)
            if checking:
                failed += 1 if reps[m]["portable"] is None else 0
                passed += 0 if reps[m]["portable"] is None else 1
            if checking:
                errs, what = check.check(open(p, encoding="utf-8").read())
                if not errs and not what.startswith("scale full,"):
                    errs = ["not a full-scale report"]
                if not errs and not what.endswith("assertions off"):
                    errs = ["made on a server with assertions"]
                for e in errs:
                    print("%s: %s" % (os.path.relpath(p, root), e))
                failed += 1 if errs else 0
                passed += 0 if errs else 1
    for name in [PAGE] + OTHER_PAGES:
        p, f = quote_page(root, name, reps, checking)
        passed += p
        failed += f
    if len(reps) != len(MAJORS):
        print("reports missing for: %s" % ", ".join(m for m in MAJORS if m not in reps))
        failed += 1
    print("bench-quote: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def quote_page(root, name, reps, checking):
    """rewrites (or checks) the quote blocks of one page: (passed, failed)"""
    passed = failed = 0
    page = os.path.join(root, name)
    text = open(page, encoding="utf-8").read()

    def redo(m):
        nonlocal passed, failed
        block = m.group(1)
        if block not in BLOCKS:
            print("%s: unknown quote block %r" % (name, block))
            failed += 1
            return m.group(0)
        try:
            new = "<!-- quote %s -->\n%s\n<!-- /quote -->" % (block, BLOCKS[block](reps))
        except KeyError as e:
            print("%s: the block %r cannot be made from the reports: %s" % (name, block, e))
            failed += 1
            return m.group(0)
        if not checking:
            passed += 1
        else:
            if new == m.group(0):
                passed += 1
            else:
                print("%s: the block %r does not quote the reports (run: python3 test/bench/quote.py)" % (name, block))
                failed += 1
        return new

    new = re.sub(r"<!-- quote ([a-z0-9-]+) -->\n.*?<!-- /quote -->", redo, text, flags=re.S)
    if not re.search(r"<!-- quote ", text):
        print("%s: no quote block" % name)
        failed += 1
    if not checking and new != text:
        open(page, "w", encoding="utf-8").write(new)
    return passed, failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
