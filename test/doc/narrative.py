#!/usr/bin/python3
"""User pages state guarantees; test evidence and narrative live in CONTRIBUTING.md and the tests.

Usage: narrative.py ROOT [FILE...]   (default: README.md, CHANGELOG.md, doc/*.md
                                      and every file of the repository they link to
                                      under test/, such as benchmark reports)

Fails on what belongs to the project's own history or harness, not to a
user: "a test saw", "by hand", "not tried", "Tested:", "what was checked",
the test machine and its limits ("reachable here", "skipped"), issue
numbers, commit hashes, and targets "NOT met"; how a figure was obtained
("a second run gave", "measured on/with/by", "on this machine", "shared
with other work", "were run on", the test machine's cache paths), which
script made a figure ("prints this table", "on a simulated clock", "the
modes tested", "quoted from the programs").  The
install and update scripts' comments hold no issue numbers either.  Code blocks are left out;
inline code is left out of the word patterns (a value such as `skipped` is
fine) but not of the hash and issue patterns.
Prints one line per finding and "docs-narrative: N passed, M failed".
"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Tally, user_pages   # noqa: E402

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.M | re.S)
CODE = re.compile(r"`[^`\n]*`")
COMMENT = re.compile(r"<!--.*?-->", re.S)
LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]*)\)|!\[[^\]]*\]\(([^)\s]*)\)")

WORDS = [
    (r"\ba test\b", "a test (say what holds instead)"),
    (r"\bin (?:the|one|each) tests?\b", "in the test"),
    (r"\btests? (?:saw|showed|shows|found|set|used|ran)\b", "what a test did"),
    (r"\b(?:tested|checked|tried|measured)\s*[:(]", "\"Tested:\" narrative"),
    (r"\((?:all (?:\w+ )?)?(?:tested|checked)\b", "\"(tested …)\" narrative"),
    (r"\b(?:all )?(?:of )?(?:these|three|both) (?:were )?(?:tested|checked)\b", "\"all tested\" narrative"),
    (r"\bwhat was (?:checked|tested|tried)\b", "\"what was checked\""),
    (r"\b(?:was|were) (?:checked|tried) (?:once|by)\b", "how it was checked"),
    (r"\bnot tried\b", "\"not tried\""),
    (r"\bby hand\b", "\"by hand\""),
    (r"\bchecked once\b", "\"checked once\""),
    (r"\bthe test (?:machine|suite|command|set|harness|run|cluster)s?\b", "the test harness"),
    (r"\btest (?:suite|harness|machine)\b", "the test harness"),
    (r"\b(?:reachable|available|installed) here\b", "what this machine reaches"),
    (r"\b(?:no|without) internet\b", "the test machine's network"),
    (r"\bskipped\b", "a suite skipped"),
    (r"\bNOT met\b", "a development target"),
    # how a figure was obtained (evidence: CONTRIBUTING.md), not what holds
    (r"\b(?:a|the) (?:second|first|last|other|earlier) run (?:gave|showed|found|saw)\b", "a run narrated"),
    (r"\b(?:in|from|of) the run above\b", "a run narrated"),
    (r"\bmeasured (?:on|with|by) (?!the\b)", "how a figure was measured"),
    (r"\bon this machine\b", "the test machine"),
    (r"\bshared with other work\b", "the test machine's load"),
    (r"\b(?:were|was) run on\b", "how it was run"),
    (r"/var/cache/", "a path of the test machine"),
    (r"\bthe tests (?:use|run|build)\b", "the test harness"),
    # which script made a figure (CONTRIBUTING.md says), not the conditions it holds under
    (r"\b(?:makes|made|prints|printed|gave) this (?:table|figure)\b", "which script made a figure"),
    (r"\bon a simulated clock\b", "how a figure was obtained"),
    (r"\bthe modes tested\b", "what was tested"),
    (r"\btested recipe\b", "what was tested"),
    (r"\bquoted from the programs\b", "where the code comes from"),
]
IDS = [
    (r"\bissues?\s+#?\d+", "an issue number"),
    (r"(?<![\w/&(])#\d+\b", "an issue number"),
    (r"\bcommit\s+[0-9a-f]{7,40}\b", "a commit"),
    (r"(?<![\w-])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w-])", "a commit hash"),
]


def linked_files(root, page, text):
    out = []
    for m in LINK.finditer(CODE.sub("", FENCE.sub("", text))):
        target = (m.group(1) or m.group(2) or "").partition("#")[0]
        if not target or re.match(r"[a-z]+:", target):
            continue
        dest = os.path.realpath(os.path.join(os.path.dirname(page), target))
        rel = os.path.relpath(dest, root)
        if rel.startswith("test" + os.sep) and rel.endswith(".md") and os.path.isfile(dest):
            out.append(rel)
    return out


def findings(text):
    text = COMMENT.sub("", FENCE.sub("", text))
    prose = CODE.sub("", text)
    lines = text.splitlines()
    plines = prose.splitlines()
    for rx, what in WORDS:
        for n, line in enumerate(plines, 1):
            for m in re.finditer(rx, line, re.I if rx != r"\bNOT met\b" else 0):
                yield n, what, line.strip()
    for rx, what in IDS:
        for n, line in enumerate(lines, 1):
            for m in re.finditer(rx, line, re.I):
                yield n, what, line.strip()


def sql_findings(text):
    """issue numbers in the comments of an install or update script"""
    for n, line in enumerate(text.splitlines(), 1):
        m = re.search(r"--(.*)$", line)
        if m:
            for rx, what in IDS[:1]:
                if re.search(rx, m.group(1), re.I):
                    yield n, what, line.strip()


def main(root, files=None):
    root = os.path.realpath(root)
    if not files:
        files = user_pages(root, contributing=False)
        for page in list(files):
            with open(os.path.join(root, page), encoding="utf-8") as f:
                files += [rel for rel in linked_files(root, os.path.join(root, page), f.read())
                          if rel not in files]
    tally = Tally("docs-narrative")
    for path in sorted(glob.glob(os.path.join(root, "sql", "idgen--*.sql"))):
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8") as f:
            found = sorted(set(sql_findings(f.read())))
        tally.findings([f"{rel}:{n}: {what} in a comment: {line[:140]}" for n, what, line in found],
                       f"{rel}: no issue number in its comments")
    for rel in files:
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            found = sorted(set(findings(f.read())))
        tally.findings([f"{rel}:{n}: {what}: {line[:140]}" for n, what, line in found],
                       f"{rel} states guarantees, no test narrative")
    return tally.done()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
