#!/usr/bin/python3
"""No sentence or table row of the user pages stands in two places.

Usage: duplicates.py ROOT   (README.md, CHANGELOG.md, CONTRIBUTING.md, doc/*.md)

Outside code blocks, every sentence of at least 60 characters and every
table row of at least 40 (markup, case and spacing ignored) must occur in
one page only, and no run of 12 words may stand in two pages or twice in the
prose of one (which catches a paragraph copied and lightly edited): a fact has one home, and other pages
link to it.
Prints one line per repeat and "docs-duplicates: N passed, M failed".
"""
import glob
import os
import re
import sys

FENCE = re.compile(r"^(```|~~~).*?^\1\s*$", re.M | re.S)
RUN = 12


def norm(s):
    s = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", s)
    s = re.sub(r"[`*_>#|]", " ", s.lower())
    return " ".join(s.split())


def units(text):
    text = FENCE.sub("", text)
    out = []
    for line in text.splitlines():
        if line.lstrip().startswith("|"):
            n = norm(line)
            if len(n) >= 40 and not re.fullmatch(r"[-: ]*", n):
                out.append(("row", n))
    prose = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("|"))
    for para in re.split(r"\n\s*\n", prose):
        for sent in re.split(r"(?<=[.!?:;])\s+(?=[A-Z`*(])", " ".join(para.split())):
            n = norm(sent)
            if len(n) >= 60:
                out.append(("sentence", n))
    return out


def main(root):
    pages = [os.path.join(root, p) for p in ("README.md", "CHANGELOG.md", "CONTRIBUTING.md")]
    pages += sorted(glob.glob(os.path.join(root, "doc", "*.md")))
    where = {}
    for page in pages:
        with open(page, encoding="utf-8") as f:
            for kind, u in units(f.read()):
                where.setdefault((kind, u), []).append(os.path.relpath(page, root))
    runs = {}
    for page in pages:
        with open(page, encoding="utf-8") as f:
            words = norm(FENCE.sub("", f.read())).split()
        for i in range(len(words) - RUN + 1):
            runs.setdefault(" ".join(words[i:i + RUN]), set()).add(os.path.relpath(page, root))
    # within one page: its prose (tables repeat their column patterns)
    for page in pages:
        with open(page, encoding="utf-8") as f:
            prose = "\n".join(l for l in FENCE.sub("", f.read()).splitlines()
                              if not l.lstrip().startswith("|"))
        words, first = norm(prose).split(), {}
        for i in range(len(words) - RUN + 1):
            run = " ".join(words[i:i + RUN])
            if run in first and i - first[run] >= RUN:
                runs.setdefault(run, set()).add(os.path.relpath(page, root) + " (twice)")
            first.setdefault(run, i)
    shared = {}
    for run, places in runs.items():
        if len(places) > 1:
            shared.setdefault(tuple(sorted(places)), []).append(run)
    passed = failed = 0
    for places, found in sorted(shared.items()):
        failed += 1
        print(f"not ok - {len(found)} runs of {RUN} words in {', '.join(places)}, e.g.: {found[0]}")
    for (kind, u), places in sorted(where.items()):
        if len(set(places)) > 1:
            failed += 1
            print(f"not ok - {kind} in {', '.join(places)}: {u[:110]}")
        else:
            passed += 1
    print(f"docs-duplicates: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1]))
