#!/usr/bin/python3
"""Every SQLSTATE idgen raises is explained in doc/troubleshooting.md.

Usage: errcodes.py ROOT ERRCODES_TXT
Collects ERRCODE_* names from src/ (C) and `USING ERRCODE = 'name'` from
sql/*.sql (the install scripts), maps them to their five-character codes with
PostgreSQL's errcodes.txt, and checks that each code heads a section of the
page ("### 22P02 ...").  Prints "docs-errcodes: N passed, M failed".
"""
import glob
import os
import re
import sys


def main(root, errcodes_txt):
    by_macro, by_name = {}, {}
    with open(errcodes_txt, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^([0-9A-Z]{5})\s+[EWS]\s+(ERRCODE_\w+)(?:\s+(\w+))?", line)
            if m:
                by_macro[m.group(2)] = m.group(1)
                if m.group(3):
                    # PL/pgSQL takes the first code of a name (22004, not 39004)
                    by_name.setdefault(m.group(3), m.group(1))
    used = {}
    for path in glob.glob(os.path.join(root, "src", "**", "*.[ch]"), recursive=True):
        with open(path, encoding="utf-8") as f:
            text = f.read()
            for macro in re.findall(r"\b(ERRCODE_[A-Z_]+)\b", text):
                used.setdefault(by_macro.get(macro, macro), set()).add(os.path.relpath(path, root))
            # errcode_for_file_access(): 58P01 for a missing file, 58030 for other I/O
            if "errcode_for_file_access()" in text:
                for code in ("58P01", "58030"):
                    used.setdefault(code, set()).add(os.path.relpath(path, root))
    for path in glob.glob(os.path.join(root, "sql", "idgen--*.sql")):
        with open(path, encoding="utf-8") as f:
            for name in re.findall(r"ERRCODE\s*=\s*'(\w+)'", f.read()):
                used.setdefault(by_name.get(name, name), set()).add(os.path.relpath(path, root))
    with open(os.path.join(root, "doc", "troubleshooting.md"), encoding="utf-8") as f:
        page = f.read()
    listed = set(re.findall(r"^#{2,4} `?([0-9A-Z]{5})\b", page, re.M))
    passed = failed = 0
    for code in sorted(used):
        ok = code in listed
        passed, failed = passed + ok, failed + (not ok)
        print(f"{'ok' if ok else 'not ok'} - SQLSTATE {code} ({', '.join(sorted(used[code]))}) "
              f"is on doc/troubleshooting.md")
    print(f"docs-errcodes: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
