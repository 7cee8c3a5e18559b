#!/usr/bin/python3
"""The release status is the same everywhere it is written.

Usage: release.py ROOT

CHANGELOG.md's first version heading is "## X.Y (unreleased)" while X.Y is
in development, "## X.Y (YYYY-MM-DD)" once released.  Then:
- idgen.control's default_version is X.Y;
- META.json's version (and provides.idgen.version) is X.Y.0, and its
  release_status is "stable" only for a released version ("unstable" or
  "testing" before);
- debian/changelog's first entry is version X.Y, its distribution
  UNRELEASED exactly while X.Y is unreleased;
- every package file name, PGXN zip name and "idgen X.Y" the user pages
  (README.md, doc/*.md) name is of version X.Y, and while it is
  unreleased doc/install.md says that X.Y is in development;
- the install script sql/idgen--X.Y.sql exists, and an update script
  sql/idgen--V--X.Y.sql from every earlier version V CHANGELOG.md names;
- the SQL edition (portable/idgen_portable.control and its install
  script) and the client packages (clients/node/package.json,
  clients/python/pyproject.toml, clients/java/pom.xml) are of version X.Y;
- once X.Y is released: debian/changelog's entry is dated CHANGELOG's
  date, and no file of the repository calls X.Y unreleased or in
  development (nor says UNRELEASED), this file's rules aside.
Prints one line per check and "docs-release: N passed, M failed".
"""
import datetime
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Tally, user_pages   # noqa: E402


def main(root):
    tally = Tally("docs-release")
    check = tally.check

    def read(rel):
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            return f.read()

    head = re.search(r"^## (\d+\.\d+) \((unreleased|\d{4}-\d{2}-\d{2})\)", read("CHANGELOG.md"), re.M)
    if not check("CHANGELOG.md's first version heading is \"## X.Y (unreleased)\" or "
                 "\"## X.Y (YYYY-MM-DD)\"", head):
        return tally.done()
    version, released = head.group(1), head.group(2) != "unreleased"
    status = "released" if released else "unreleased"
    semver = version + ".0"

    control = re.search(r"^default_version\s*=\s*'([^']+)'", read("idgen.control"), re.M)
    check(f"idgen.control's default_version {control and control.group(1)} is CHANGELOG's {version}",
          control and control.group(1) == version)

    meta = json.loads(read("META.json"))
    check(f"META.json's version {meta.get('version')} is {semver}", meta.get("version") == semver)
    check(f"META.json provides idgen {meta.get('provides', {}).get('idgen', {}).get('version')} "
          f"is {semver}", meta.get("provides", {}).get("idgen", {}).get("version") == semver)
    rs = meta.get("release_status", "stable")
    check(f"META.json's release_status {rs!r} fits {version} {status}",
          rs == "stable" if released else rs in ("unstable", "testing"))

    deb = re.match(r"^\S+ \(([^)]+)\) ([\w-]+);", read("debian/changelog"))
    check(f"debian/changelog's first entry is version {deb and deb.group(1)}, CHANGELOG's {version}",
          deb and deb.group(1).split("-")[0] == version)
    check(f"debian/changelog's distribution {deb and deb.group(2)} fits {version} {status}",
          deb and (deb.group(2) != "UNRELEASED") == released)

    for page in [p for p in user_pages(root, contributing=False) if p != "CHANGELOG.md"]:
        text = read(page)
        for m in re.finditer(r"postgresql-\d+-idgen_([\w.~+]+?)_\w+\.deb|idgen-(\d+\.\d+\.\d+)\.zip"
                             r"|\bidgen (\d+\.\d+)\b(?! (?:to|and|→))", text):
            named = m.group(1) or m.group(2) or m.group(3)
            if m.group(3) and named != version and re.match(r"\d+\.\d+$", named):
                continue   # an older version, named as such ("idgen 1.0")
            want = semver if m.group(2) else version
            check(f"{page}: {m.group(0)} is version {want}", named.split("-")[0] == want)
    if not released:
        check(f"doc/install.md says that {version} is in development",
              re.search(rf"\b{re.escape(version)} is in development\b", read("doc/install.md")))

    exists = lambda rel: os.path.isfile(os.path.join(root, rel))   # noqa: E731
    check(f"the install script sql/idgen--{version}.sql exists", exists(f"sql/idgen--{version}.sql"))
    changelog = read("CHANGELOG.md")
    for old in re.findall(r"^## (\d+\.\d+)\b", changelog, re.M):
        if old != version:
            check(f"the update script sql/idgen--{old}--{version}.sql exists",
                  exists(f"sql/idgen--{old}--{version}.sql"))
    portable = re.search(r"^default_version\s*=\s*'([^']+)'", read("portable/idgen_portable.control"), re.M)
    check(f"the SQL edition's default_version {portable and portable.group(1)} is {version}",
          portable and portable.group(1) == version)
    check(f"the SQL edition's install script portable/idgen_portable--{version}.sql exists",
          exists(f"portable/idgen_portable--{version}.sql"))
    node = json.loads(read("clients/node/package.json")).get("version")
    check(f"clients/node/package.json's version {node} is {semver}", node == semver)
    py = re.search(r'^version\s*=\s*"([^"]+)"', read("clients/python/pyproject.toml"), re.M)
    check(f"clients/python/pyproject.toml's version {py and py.group(1)} is {semver}",
          py and py.group(1) == semver)
    pom = re.search(r"</parent>|<artifactId>[^<]*</artifactId>\s*<version>([^<]+)</version>",
                    read("clients/java/pom.xml"))
    check(f"clients/java/pom.xml's version {pom and pom.group(1)} is {version}",
          pom and pom.group(1) in (version, semver))

    if released:
        date = head.group(2)
        deb_date = re.search(r"^ -- .*>  (.*)$", read("debian/changelog"), re.M)
        when = deb_date and datetime.datetime.strptime(deb_date.group(1), "%a, %d %b %Y %H:%M:%S %z")
        check(f"debian/changelog's entry is dated CHANGELOG's {date} ({deb_date and deb_date.group(1)})",
              when and when.strftime("%Y-%m-%d") == date)
        talk = re.compile(rf"\bUNRELEASED\b|\b{re.escape(version)}\b[^.\n]{{0,40}}\b(?i:unreleased|in development)\b"
                          rf"|\b(?i:unreleased|in development)\b[^.\n]{{0,40}}\b{re.escape(version)}\b")
        files = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True).stdout.split()
        if not files:   # not a checkout: the tree's text files
            files = [os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root)
                     if "/.git" not in d for f in fs]
        said = []
        for rel in files:
            if rel == "test/doc/release.py" or not os.path.isfile(os.path.join(root, rel)):
                continue
            try:
                with open(os.path.join(root, rel), encoding="utf-8") as f:
                    for n, line in enumerate(f, 1):
                        if talk.search(line):
                            said.append(f"{rel}:{n}: {line.strip()[:100]}")
            except (UnicodeDecodeError, OSError):
                continue
        check(f"no file calls {version} unreleased or in development{': ' + '; '.join(said[:5]) if said else ''}",
              not said)
    return tally.done()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1]))
