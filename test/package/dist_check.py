#!/usr/bin/python3
"""The PGXN zip `make dist` makes holds what a build needs and nothing of the tests' scratch.

Usage: dist_check.py ZIP ROOT   (ROOT: the git checkout the zip was made from)

- every file under the zip's one top directory: none is a file the
  checkout's .gitignore ignores (build output, pg_regress's results and
  diffs, TAP's tmp_check, Debian's build tree, node_modules, __pycache__,
  an earlier zip: git check-ignore --no-index);
- what PGXS needs to build and install idgen is there: Makefile,
  idgen.control (its default_version's install script and the update
  scripts from every earlier version CHANGELOG.md names), META.json, the
  C source of every object the Makefile lists (OBJS, CORE_OBJS) with the
  headers, LICENSE and README.md.
run.sh then builds and installs the unpacked zip with PGXS.
Prints one line per check and "dist: N passed, M failed"; exits 1 on failure.
"""
import os
import re
import subprocess
import sys
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "doc"))
from common import Tally   # noqa: E402


def main(path, root):
    tally = Tally("dist")
    check = tally.check

    names = [n for n in zipfile.ZipFile(path).namelist() if not n.endswith("/")]
    tops = {n.split("/", 1)[0] for n in names}
    if not check(f"the zip holds one top directory ({sorted(tops)[:3]})", len(tops) == 1):
        return tally.done()
    files = {n.split("/", 1)[1] for n in names}
    ignored = subprocess.run(["git", "-C", root, "check-ignore", "--no-index", "--stdin"],
                             input="\n".join(sorted(files)) + "\n", capture_output=True, text=True).stdout.split()
    check(f"no file of the tests' scratch or of a build (.gitignore's patterns){': ' + ', '.join(ignored[:10]) if ignored else ''}",
          not ignored)

    def read(name):
        return zipfile.ZipFile(path).read(f"{next(iter(tops))}/{name}").decode()

    need = ["Makefile", "idgen.control", "META.json", "LICENSE", "README.md"]
    for n in need:
        check(f"the zip holds {n}", n in files)
    if "idgen.control" in files and "Makefile" in files and "CHANGELOG.md" in files:
        version = re.search(r"^default_version\s*=\s*'([^']+)'", read("idgen.control"), re.M).group(1)
        check(f"the zip holds the install script sql/idgen--{version}.sql", f"sql/idgen--{version}.sql" in files)
        earlier = [v for v in re.findall(r"^## (\d+\.\d+)\b", read("CHANGELOG.md"), re.M) if v != version]
        for v in earlier:
            check(f"the zip holds the update script from {v}, sql/idgen--{v}--{version}.sql",
                  f"sql/idgen--{v}--{version}.sql" in files)
        make = read("Makefile").replace("\\\n", " ")
        objs = []
        for var in ("CORE_OBJS", "OBJS"):
            m = re.search(rf"^{var}\s*=(.*)$", make, re.M)
            objs += m.group(1).split() if m else []
        sources = [o[:-2] + ".c" for o in objs if o.endswith(".o")]
        check(f"the Makefile lists the objects it builds ({len(sources)})", len(sources) > 10)
        missing = [s for s in sources if s not in files]
        check(f"the zip holds the C source of every object{': missing ' + ', '.join(missing) if missing else ''}",
              not missing)
        check("the zip holds the headers (src/*.h, src/core/*.h)",
              any(f.startswith("src/core/") and f.endswith(".h") for f in files)
              and any(re.match(r"src/[^/]+\.h$", f) for f in files))
    else:
        check("the zip holds the Makefile, idgen.control and CHANGELOG.md", False)
    return tally.done()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
