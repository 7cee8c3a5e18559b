#!/usr/bin/python3
"""Every rule the documentation states has one home page; other pages link to it.

Usage: homes.py ROOT [--list]   (README.md, CHANGELOG.md, CONTRIBUTING.md, doc/*.md)

RULES below names each rule, its home and a pattern that finds a statement
of it, however worded.  Outside its home, a paragraph, list item or table
row (or its table's header) that matches must link to the home page; the
rules in STRICT may not be restated outside their home at all.
figures.py does the same for every number with a unit without a list;
these are the rules a number alone does not show.  --list prints the rules
and their homes (the map the documentation is kept to).
Prints one line per unlinked statement and "docs-homes: N passed, M failed".
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Tally, user_pages   # noqa: E402
from figures import resolve, units   # noqa: E402

# (rule, home page, anchor, pattern, pages where the pattern is not the rule)
RULES = [
    ("base36id's rate: 1296 ids per second per server, then a wait",
     "doc/base36id.md", "how-it-generates", r"\b1,?296\b", ()),
    ("at most 36 servers generate base36ids into one id space (worker ids)",
     "doc/configuration.md", "worker-ids", r"\b36 (?:servers|nodes|workers)\b", ()),
    ("distid_generate() back-dates its ids by 1 s",
     "doc/generation.md", "distid",
     r"(?:stamp\w*|back-dat\w*|in the past)[^.]{0,40}?\b(?:1 s|1000 ms|one second|a second)\b"
     r"|\b(?:1|one)-second (?:leeway|lag)|clock (?:minus|less) (?:1 s|1000 ms)", ()),
    ("distid_generate()'s rate and burst: about 128 ids per ms per session after a burst of 128,000",
     "doc/generation.md", "distid", r"\b128,?000\b|\b128 ids\b|~128\b", ()),
    ("what needs idgen preloaded (base36id_generate, the monitoring views)",
     "doc/configuration.md", "preloading",
     r"\bneeds? (?:idgen )?(?:in )?`?shared_preload_libraries|\bneeds? (?:idgen )?preload|"
     r"\brequires? (?:idgen )?(?:to be )?preload|\bneed idgen preloaded\b", ()),
    ("keep idgen preloaded while any of its WAL may be replayed or read",
     "doc/base36id.md", "dropping-the-library",
     r"\b(?:keep|stay|remain)s? (?:it |idgen )?preloaded|\bleave `?shared_preload_libraries"
     r"|\bpreloaded on every (?:server|standby) that replays", ()),
    ("the supported PostgreSQL majors",
     "doc/install.md", "supported-postgresql-versions",
     r"PostgreSQL 15, 17,? (?:and|or) 18|\b15 \(15\.\d+\), 17|\bsupports PostgreSQL 1\d", ()),
    ("how to update idgen: new files on every server, standbys first, restart, ALTER EXTENSION UPDATE",
     "doc/upgrading.md", "updating-idgen", r"ALTER EXTENSION idgen UPDATE", ()),
    ("generators are PARALLEL RESTRICTED: functions that call them must be too",
     "doc/generation.md", "parallel-queries",
     r"^(?=.*\bgenerators?\b)(?=.*PARALLEL RESTRICTED)", ("doc/reference.md",)),
    ("keyless public-id functions are PARALLEL RESTRICTED",
     "doc/public-ids.md", "",
     r"^(?=.*(?:keyless|without a key|key argument))(?=.*PARALLEL RESTRICTED)", ("doc/reference.md",)),
    ("the key file's owner and mode",
     "doc/public-ids.md", "the-key-file",
     r"\b0600\b|\b0640\b|\bgroup[- ]readable\b|\bmode 0?6", ()),
    ("comparisons with core types compare and never validate",
     "doc/reference.md", "comparisons-with-core-types",
     r"never validate|matches nothing|matches no `?(?:iuid|distid)|`?iuid = uuid`?.{0,80}`?distid = numeric", ()),
    ("each type's time span",
     "doc/formats.md", "", r"\b(?:10889|3025|10619|2049|2092)\b", ()),
    ("order across sessions: real time to one clock step, per stream",
     "doc/generation.md", "order-across-sessions-is-per-stream",
     r"\bfollows? real time\b|\breal-time order\b", ()),
    ("DistributedId128 is not an RFC 9562 UUIDv7",
     "doc/formats.md", "distributedid128", r"\bnot an? (?:RFC 9562 )?UUIDv7\b", ()),
    ("the time-ordered generators absorb a clock step back of up to 1 s",
     "doc/generation.md", "the-rules",
     r"(?:up to|at most|within) (?:1 s|1000 ms|a second|one second)\b[^.]{0,60}?(?:absorb|keep increasing)"
     r"|step\w* (?:back )?of up to (?:1 s|1000 ms|a second|one second)"
     r"|(?:went|goes|steps?) back by (?:up to |at most )?(?:1 s|1000 ms|a second|one second)", ()),
    ("idgen.base36id_synchronous_commit is a floor: a session's higher level waits for its own, nothing lowers it",
     "doc/base36id.md", "synchronous-standbys",
     r"waits? for its own level|nothing a session, role or database sets lowers|\bthe floor\b[^.]{0,80}synchronous"
     r"|synchronous_commit`?[^.]{0,80}\bthe floor\b", ()),
    ("base36id's WAL resource manager id 190, not reserved",
     "doc/base36id.md", "the-wal-resource-manager-id", r"\b(?:id|manager) \**190\b|\bcustom190\b", ()),
]


# rules that stand in their home only: another page names the rule with a
# link instead of restating it, so a restatement fails even when linked
STRICT = {
    "the time-ordered generators absorb a clock step back of up to 1 s",
    "idgen.base36id_synchronous_commit is a floor: a session's higher level waits for its own, nothing lowers it",
}


# claims no test shows, in no page: (the claim, what holds instead, pattern)
UNSHOWN = [
    ("the formats' reference libraries read idgen's ids",
     "the published examples and values computed apart from idgen are checked (formats.md)",
     r"\bread back there\b|\band ours there\b|\breads? (?:its|our|idgen's) ids back\b"
     r"|\bstill a valid \w+ there\b"),
    ("a distid is a 93-bit number",
     "a distid is 0 … 10²⁸−1, which takes 94 bits; generated ids use 93 (SPEC.md)",
     r"\b93-bit (?:whole number|decimal|DistributedId|distid)\b"),
    ("every function of idgen is granted to PUBLIC",
     "the install script revokes the keyless public-id functions, public_id_keys() and the monitoring "
     "functions from PUBLIC (security.md)",
     r"\bevery function of the (?:four )?types\b(?![^.]*\bexcept\b)"),
    ("base36id handed out more than 1296 ids in a second",
     "a server hands out at most 1296 base36id a second; a run over N clock seconds gets up to 1296 × N (base36id.md)",
     r"\b1,?426 ids\b"),
]


def main(root, listing=False):
    root = os.path.realpath(root)
    if listing:
        for rule, home, anchor, _, _ in RULES:
            print(f"- {rule}: {home}{'#' + anchor if anchor else ''}")
        return 0
    tally = Tally("docs-homes")
    found = {}
    for page in user_pages(root):
        with open(os.path.join(root, page), encoding="utf-8") as f:
            found[page] = [(" ".join(prose.split()), {resolve(page, t, root) for t in targets})
                           for prose, targets in units(f.read(), keep_code=True)]
    for rule, home, anchor, pattern, exempt in RULES:
        rx = re.compile(pattern, re.S | re.I)
        bad = [] if os.path.exists(os.path.join(root, home)) else [f"home {home} does not exist"]
        for page, paragraphs in found.items():
            if page == home or page in exempt:
                continue
            bad += [f"{page}: …{prose[:150]}…" for prose, linked in paragraphs
                    if rx.search(prose) and (home not in linked or rule in STRICT)]
        tally.findings([f"{rule} (home {home}) stated outside it{' (restated: the rule stands in its home only)' if rule in STRICT else ' without a link'} in {b}" for b in bad],
                       f"{rule}: one home, {home}")
    for claim, instead, pattern in UNSHOWN:
        rx = re.compile(pattern, re.S | re.I)
        tally.findings([f"{page}: claims that {claim}; {instead}: …{prose[:150]}…"
                        for page, paragraphs in found.items() for prose, _ in paragraphs if rx.search(prose)],
                       f"no page claims that {claim}")
    return tally.done()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1], "--list" in sys.argv[2:]))
