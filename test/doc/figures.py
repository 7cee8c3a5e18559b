#!/usr/bin/python3
"""One home per figure: a number with a unit, a percentage or a rate stands
unlinked in one page only, however it is worded.

Usage: figures.py ROOT [PAGE...]   (default: README.md, CHANGELOG.md and
                                    doc/*.md; CONTRIBUTING.md's figures are
                                    test timings, not facts users read)

The lexical duplicate check (duplicates.py) sees a sentence copied; this one
sees a figure restated in other words ("1296 ids per second" and "1,296 ids
a second", "1000 ms" and "1 s").  Outside code, every figure is read and
normalised:

    time        1000 ms, 1 s, 1-second, 244 ns, 1.95 µs, 34 minutes -> seconds
    size        16 B, 16 bytes, 4 KiB, 64 kB, 1 GB                     -> bytes
    bits        54-bit, 42 fresh random bits                           -> bits
    text        9 characters, 36-char, 28-digit                        -> characters
    percentage  90 %, 67.6%, 65–67 % (both ends)                       -> %
    ratio       15.3×                                                  -> ×
    rate        1296 ids per second, 128 ids/ms, 1M ids/s, 1296/s             -> ids per second
    count       128,000 ids, 4 to 8 million ids                        -> ids

A table cell that holds a bare number takes the unit its column's header
names ("fresh random bits": 42 -> 42 bits; "leaf density %" in the first
header holds for the whole table), so a unit moved into a header hides no
figure.  Tables between "<!-- quote NAME -->" markers quote the benchmark
reports (test/bench/quote.py --check keeps them equal to the reports, their
home) and are left out, but their figures are still found rounded elsewhere.

A figure may stand in many pages, but only one of them may state it
unlinked: everywhere else the paragraph (or table row, or the header of its
table) that quotes it links to a page that states it too, its home.  A page
may repeat its own figures.  Three more checks:
- a figure in two pages or more where every page links another (each
  linked, none the home) has no home: it fails;
- the figures of HOMES stand in their home page only: elsewhere, even
  linked, they fail (link to the home instead of restating them);
- a figure written rounded to two significant digits ("1.4 µs", "1,400 ns",
  "0.50 s") that rounds another page's more precise time, rate or size
  ("1,441.4 ns") is the same figure: one of the two must link the other's
  page.
Prints one line per figure stated in more than one page and
"docs-figures: N passed, M failed".
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Tally, user_pages   # noqa: E402

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.M | re.S)
CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"(?<!!)\[((?:[^\]\[]|\[[^\]]*\])*)\]\(([^)\s]*)\)")
COMMENT = re.compile(r"<!--.*?-->", re.S)
# a table quoted from the benchmark reports (test/bench/quote.py --check keeps it equal to them)
QUOTE = re.compile(r"^<!-- quote [a-z0-9-]+ -->\n.*?^<!-- /quote -->", re.S | re.M)

NUM = (r"(?<![\w.,/^⁰¹²³⁴⁵⁶⁷⁸⁹−-])"
       r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])|\d+(?:\.\d+)?)"
       r"(?:\s*(million|thousand|[KM](?=\s*ids)))?")
RANGE = r"(?:\s*(?:–|-|to|…)\s*(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?))?"
TIME = {"ns": 1e-9, "nanosecond": 1e-9, "nanoseconds": 1e-9,
        "µs": 1e-6, "us": 1e-6, "microsecond": 1e-6, "microseconds": 1e-6,
        "ms": 1e-3, "millisecond": 1e-3, "milliseconds": 1e-3,
        "s": 1, "sec": 1, "second": 1, "seconds": 1,
        "min": 60, "minute": 60, "minutes": 60,
        "h": 3600, "hour": 3600, "hours": 3600,
        "day": 86400, "days": 86400, "year": 31557600, "years": 31557600}
SIZE = {"b": 1, "byte": 1, "bytes": 1, "kib": 1024, "kb": 1024, "mib": 1 << 20,
        "mb": 1 << 20, "gib": 1 << 30, "gb": 1 << 30}
RATE_UNIT = {"s": 1, "second": 1, "sec": 1, "ms": 1000, "millisecond": 1000,
             "minute": 1 / 60, "min": 1 / 60}
PATTERNS = [
    # rates: "1296 ids per second", "128 ids/ms", "1,296 base36ids a second", "1M ids/s"
    ("rate", re.compile(NUM + r"\s+(?:[\w-]+\s+){0,2}?(?:ids|base36ids|rows|calls)\s*"
                        r"(?:per|a|/|an)\s*(s|second|sec|ms|millisecond|minute|min)\b", re.I)),
    ("rate", re.compile(NUM + r"\s*/\s*(s|ms)\b")),
    ("percentage", re.compile(NUM + RANGE + r"\s*%")),
    ("ratio", re.compile(NUM + r"\s*×")),
    ("time", re.compile(NUM + RANGE + r"[\s-]*(" + "|".join(sorted(TIME, key=len, reverse=True))
                        + r")(?![\w/%])(?!-?(?:bit|byte|char|digit))")),
    ("size", re.compile(NUM + r"[\s-]*(KiB|kB|KB|MiB|MB|GiB|GB|B|bytes?)\b")),
    ("bits", re.compile(NUM + r"(?:[\s-](?:[a-z-]+\s+){0,2}?)?[\s-]*bits?\b", re.I)),
    ("text", re.compile(NUM + r"[\s-](?:[a-z-]+\s+){0,1}?(?:char|chars|characters?|digits?)\b", re.I)),
    ("count", re.compile(NUM + RANGE + r"\s+(?:\w+\s+)?(?:ids|base36ids)\b(?!\s*(?:per|a|/)\s)",
                         re.I)),
]


# figures whose home is one page: stated anywhere else, even with a link,
# they fail (the other page links to the home instead of restating them);
# outside these, a figure may stand in other pages that link to a page
# stating it
HOMES = {
    ("rate", "128000 ids/s"): "doc/generation.md",     # distid_generate()'s rate after its burst
    ("rate", "1296 ids/s"): "doc/base36id.md",         # base36id's rate per server
    ("percentage", "70 %"): "doc/generation.md",       # density of several streams (65–70 %)
}
for _bits in (36, 42, 44, 62, 63, 74, 122):           # fresh random bits per id
    HOMES[("bits", "%d bits" % _bits)] = "doc/generation.md"


def value(num, mult):
    v = float(num.replace(",", ""))
    if mult:
        v *= {"million": 1e6, "thousand": 1e3, "K": 1e3, "M": 1e6}[mult if mult in "KM" else mult.lower()]
    return v


def fmt(v):
    return ("%.6g" % v)


def written(num):
    """(significant digits, possibly rounded) of a number as written: "1,400"
    (2, trailing zeros), "1.4" (2, a fraction), "1441.4" (5)"""
    digits = num.replace(",", "")
    whole, _, frac = digits.partition(".")
    sig = len((whole + frac).lstrip("0")) if frac else len(whole.lstrip("0").rstrip("0"))
    return max(sig, 1), bool(frac) or whole.endswith("0")


def figures(text, detail=None):
    """Normalised figures of a piece of prose (code already removed); with
    detail (a list), (kind, value in the canonical unit, significant digits,
    possibly rounded) of each time, rate and size is appended to it."""
    found, taken = set(), []
    for kind, rx in PATTERNS:
        for m in rx.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            num, mult = m.group(1), m.group(2)
            v = value(num, mult)
            ends = [v]
            if kind in ("percentage", "time", "count") and m.group(3):
                ends.append(value(m.group(3), mult))
            sig, rounded = written(num)
            if kind == "time":
                unit = m.group(4)
                scale = TIME[unit] if unit in TIME else TIME[unit.lower()]
                for e in ends:
                    found.add(("time", fmt(e * scale) + " s"))
                if detail is not None and not mult:
                    detail.append(("time", v * scale, sig, rounded and len(ends) == 1))
            elif kind == "rate":
                found.add(("rate", fmt(v * RATE_UNIT[m.group(3).lower()]) + " ids/s"))
                if detail is not None and not mult:
                    detail.append(("rate", v * RATE_UNIT[m.group(3).lower()], sig, rounded))
            elif kind == "size":
                found.add(("size", fmt(v * SIZE[m.group(3).lower()]) + " bytes"))
                if detail is not None and not mult:
                    detail.append(("size", v * SIZE[m.group(3).lower()], sig, rounded))
            elif kind == "percentage":
                for e in ends:
                    found.add(("percentage", fmt(e) + " %"))
            elif kind == "ratio":
                found.add(("ratio", fmt(v) + "×"))
            elif kind == "count":
                for e in ends:
                    found.add(("count", fmt(e) + " ids"))
            else:
                found.add((kind, fmt(v) + " " + kind))
            taken.append((m.start(), m.end()))
    return found


def units(text, keep_code=False):
    """(unit text, link targets) per paragraph, list item or table row
    (inline code left out, or kept without its backticks); a
    link in a table's header row counts for every row of that table (a
    column headed "size ([formats](formats.md))" quotes its figures)."""
    text = COMMENT.sub("", FENCE.sub("\n", text))
    out, para = [], []
    header, prev = [], ""

    def flush():
        if para:
            out.append(("\n".join(para), []))
            para.clear()

    cols = []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("|"):
            flush()
            if re.fullmatch(r"\|[-:| ]+\|?", s):
                header = [t for _, t in LINK.findall(prev)]   # the row above was the header
                cols = [header_unit(c) for c in cells(prev)]
                # a unit in the first column's header ("primary key: leaf density %") holds for the table
                cols = [u or (cols[0] if i else None) for i, u in enumerate(cols)]
            elif not prev.strip().startswith("|"):
                header, cols = [], []
            out.append((with_units(line, cols), header))
        elif not s or s.startswith("#"):
            flush()
            if s:
                out.append((line, []))
        elif re.match(r"([-*+]|\d+\.)\s", s):
            flush()
            para.append(line)
        else:
            para.append(line)
        prev = line
    flush()
    for u, inherited in out:
        targets = [t for _, t in LINK.findall(u)] + inherited
        prose = LINK.sub(lambda m: m.group(1), u)
        prose = prose.replace("`", "") if keep_code else CODE.sub(" ", prose)
        yield prose, targets


def cells(row):
    return [c.strip() for c in row.strip().strip("|").split("|")]


# the unit a column's header gives its bare numbers ("fresh random bits",
# "leaf density, %", "ns per id"): a cell holding only a number is read as
# that number with that unit, so a table does not hide a figure by putting
# its unit in the header
HEADER_UNITS = [(re.compile(r"\bbits?\b"), "bits"), (re.compile(r"%"), "%"),
                (re.compile(r"\bns\b"), "ns"), (re.compile(r"\bµs\b"), "µs"),
                (re.compile(r"\bms\b(?! time)"), "ms"),
                (re.compile(r"\bids? per second\b|\bids/s\b"), "ids per second")]
BARE = re.compile(r"(?:about |~)?\d{1,3}(?:,\d{3})+|(?:about |~)?\d+(?:\.\d+)?")


def header_unit(cell):
    cell = LINK.sub(lambda m: m.group(1), cell)
    for rx, unit in HEADER_UNITS:
        if rx.search(cell):
            return unit
    return None


def with_units(row, cols):
    if not cols:
        return row
    out = []
    for i, c in enumerate(cells(row)):
        unit = cols[i] if i < len(cols) else None
        m = BARE.match(c)
        bare = m and re.match(r"$| \(| [a-z]", c[m.end():])
        out.append(c[:m.end()] + " " + unit + c[m.end():] if unit and bare else c)
    return "| " + " | ".join(out) + " |"


def resolve(page, target, root):
    path = target.partition("#")[0]
    if re.match(r"[a-z]+:", target):
        return None
    dest = os.path.normpath(os.path.join(root, os.path.dirname(page), path)) if path else \
        os.path.join(root, page)
    return os.path.relpath(dest, root)


def main(root, pages=None):
    root = os.path.realpath(root)
    pages = pages or user_pages(root, contributing=False)
    per_page, occurrences, precise = {}, [], []
    for page in pages:
        with open(os.path.join(root, page), encoding="utf-8") as f:
            text = f.read()
        per_page[page] = set()
        for prose, targets in units(QUOTE.sub("\n", text)):
            det = []
            figs = figures(prose, det)
            precise.extend((d, page, {resolve(page, t, root) for t in targets} - {None, page},
                            " ".join(prose.split()), False) for d in det)
            per_page[page] |= figs
            linked = {resolve(page, t, root) for t in targets} - {None, page}
            for fig in figs:
                occurrences.append((fig, page, linked, " ".join(prose.split())))
        # the quoted reports' figures, precise, to find them rounded elsewhere
        for block in QUOTE.findall(text):
            for prose, targets in units(block):
                det = []
                figures(prose, det)
                precise.extend((d, page, {resolve(page, t, root) for t in targets} - {None, page},
                                " ".join(prose.split()), True) for d in det)
    # a figure is stated (unlinked) in a page unless its paragraph links to a page stating it
    stated = {}
    for fig, page, linked, prose in occurrences:
        if not any(fig in per_page.get(l, ()) for l in linked):
            stated.setdefault(fig, {}).setdefault(page, prose)
    tally = Tally("docs-figures")
    # a figure with a declared home stands in that page only
    for fig, home in sorted(HOMES.items()):
        away = sorted({(page, prose) for f, page, _, prose in occurrences if f == fig and page != home})
        tally.check(f"{fig[1]} ({fig[0]}) stands in its home {home} only"
                    + "".join(f"; also in {p}: …{excerpt(s, fig)}…" for p, s in away), not away)
    # a figure in two pages or more needs a home: one page stating it unlinked
    pages_of = {}
    for fig, page, _, _ in occurrences:
        pages_of.setdefault(fig, set()).add(page)
    for fig in sorted(f for f, ps in pages_of.items() if len(ps) > 1 and f not in stated):
        tally.check(f"{fig[1]} ({fig[0]}) in {', '.join(sorted(pages_of[fig]))}: each links another, "
                    "none states it as its home", False)
    # a rounded figure ("1.4 µs", "about 50 ns") that another page states more
    # precisely ("1,441.4 ns") is the same figure: one of the two paragraphs
    # must link the other's page
    for (kind, v, sig, rounded), page, linked, prose, quoted in precise:
        if quoted or not rounded or sig != 2:
            continue
        for (kind2, v2, sig2, _), page2, linked2, prose2, _ in precise:
            if kind2 == kind and page2 != page and sig2 > sig and "%.*g" % (sig, v2) == "%.*g" % (sig, v) \
                    and page2 not in linked and page not in linked2:
                tally.check(f"{page}: …{prose[:70]}… rounds {page2}'s figure unlinked: …{prose2[:70]}…", False)
    quoted_pages(root, tally)
    for fig in sorted(stated):
        homes = stated[fig]
        where = "; ".join(f"{p}: …{excerpt(s, fig)}…" for p, s in sorted(homes.items()))
        tally.check(f"{fig[1]} ({fig[0]}) stated unlinked in {len(homes)} pages: {where}",
                    len(homes) == 1, quiet=True)
    return tally.done()

def quoted_pages(root, tally):
    """The pages that quote the benchmark reports quote them exactly
    (test/bench/quote.py's blocks, made again from the committed reports),
    and doc/performance.md, which says every figure of it is quoted from
    them, has no table outside a quote block."""
    bench = os.path.join(root, "test", "bench")
    if not os.path.exists(os.path.join(bench, "quote.py")):
        return
    sys.path.insert(0, bench)
    import quote   # noqa: E402  (test/bench/quote.py)
    reps = {}
    for m in quote.MAJORS:
        path = os.path.join(bench, "results", "pg%s" % m, "bench.md")
        if os.path.exists(path):
            reps[m] = quote.read_report(path)
            reps[m]["portable"] = quote.read_portable(os.path.join(os.path.dirname(path), "portable.md"),
                                                      root, False)
    for page in [quote.PAGE] + quote.OTHER_PAGES:
        passed, failed = quote.quote_page(root, page, reps, True)
        tally.check(f"{page}: its quote blocks are the reports' figures ({passed} blocks)", not failed)
    with open(os.path.join(root, quote.PAGE), encoding="utf-8") as f:
        rest = QUOTE.sub("\n", FENCE.sub("\n", f.read()))
    tables = [line for line in rest.splitlines() if line.startswith("|")]
    tally.check(f"{quote.PAGE}: every table is quoted from the reports"
                + (f"; not: {tables[0][:100]}" if tables else ""), not tables)


def excerpt(prose, fig):
    for m in re.finditer(r"\d[\d,.]*", prose):
        window = prose[max(0, m.start() - 40):m.end() + 30]
        if fig in figures(window):
            return window
    return prose[:70]


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
