#!/usr/bin/python3
"""Every relative link and #anchor of the user pages resolves, and none leaves the repository.

Usage: links.py ROOT   (checks README.md, CHANGELOG.md, CONTRIBUTING.md and doc/*.md)

Anchors follow GitHub's rules: a heading's text, lower-cased, with everything
but letters, digits, spaces, '-' and '_' removed, spaces turned into '-';
the second heading with the same anchor gets "-1", the third "-2".  Links to
http(s) addresses, to files outside the repository and to ../shared are
errors in user pages: the pages must stand on their own.  A page that opens
with a contents list (three or more links to its own anchors before its
first "## " heading) lists every "## " section of the page.
Prints one line per check and "docs-links: N passed, M failed".
"""
import glob
import os
import re
import sys

LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]*)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1\s*$", re.M | re.S)
CODE = re.compile(r"`[^`\n]*`")


def strip_code(text):
    return CODE.sub("", FENCE.sub("", text))


def anchors(path):
    with open(path, encoding="utf-8") as f:
        text = FENCE.sub("", f.read())
    seen, out = {}, set()
    for m in re.finditer(r"^#{1,6}\s+(.*?)\s*#*\s*$", text, re.M):
        title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(1))   # links keep their text
        a = re.sub(r"[^\w\- ]", "", title.lower().replace("`", "")).replace(" ", "-")
        n = seen.get(a, 0)
        seen[a] = n + 1
        out.add(a if n == 0 else f"{a}-{n}")
    for m in re.finditer(r'<a (?:name|id)="([^"]+)"', text):
        out.add(m.group(1))
    return out


def main(root):
    root = os.path.realpath(root)
    pages = [os.path.join(root, p) for p in ("README.md", "CHANGELOG.md", "CONTRIBUTING.md")]
    pages += sorted(glob.glob(os.path.join(root, "doc", "*.md")))
    passed = failed = 0

    def check(what, ok):
        nonlocal passed, failed
        passed, failed = passed + ok, failed + (not ok)
        print(f"{'ok' if ok else 'not ok'} - {what}")

    for page in pages:
        rel = os.path.relpath(page, root)
        with open(page, encoding="utf-8") as f:
            text = f.read()
        # CONTRIBUTING may say where the harness finds vendored tarballs
        outside = text.replace("../shared/vendor/", "") if rel == "CONTRIBUTING.md" else text
        check(f"{rel}: names no file outside the repository (../shared, SPEC.md)",
              "../shared" not in outside and "/work/" not in outside and "SPEC.md" not in text)
        for m in LINK.finditer(strip_code(text)):
            target = m.group(1)
            if re.match(r"[a-z]+:", target):
                check(f"{rel}: link {target} stays inside the repository", False)
                continue
            path, _, anchor = target.partition("#")
            dest = os.path.realpath(os.path.join(os.path.dirname(page), path)) if path else page
            inside = dest == root or dest.startswith(root + os.sep)
            ok = inside and os.path.exists(dest) and target != ""
            if ok and anchor:
                ok = dest.endswith(".md") and anchor in anchors(dest)
            check(f"{rel}: link ({target}) resolves", ok)
        # a contents list names every section
        body = FENCE.sub("", text)
        first = re.search(r"^## ", body, re.M)
        toc = re.findall(r"^\s*[-*] \[[^\]]*\]\(#([^)]+)\)", body[:first.start()] if first else "", re.M)
        if len(toc) >= 3:
            seen = {}
            for m in re.finditer(r"^(#{1,6})\s+(.*?)\s*#*\s*$", body, re.M):
                title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(2))
                a = re.sub(r"[^\w\- ]", "", title.lower().replace("`", "")).replace(" ", "-")
                n = seen.get(a, 0)
                seen[a] = n + 1
                if m.group(1) == "##":
                    anchor = a if n == 0 else f"{a}-{n}"
                    check(f"{rel}: its contents list names the section {anchor}", anchor in toc)
    print(f"docs-links: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1]))
