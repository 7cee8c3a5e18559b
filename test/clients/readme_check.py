#!/usr/bin/python3
"""The client code of the documentation is quoted from the tested programs.

Every region a program marks with "README begin: NAME" ... "README end: NAME"
must appear in the page (doc/clients.md, "From applications") as a fenced code
block, dedented, tabs as 4 spaces; and every python/js/java block of the page
must be one of those regions (ruby and go blocks too).  Usage: readme_check.py PAGE PROGRAM...
Prints one line per check and "readme: N passed, M failed"; exits 1 on failure.
"""
import re
import sys
import textwrap

BEGIN = re.compile(r"^\s*(#|//) README begin: (\S+)\s*$")
END = re.compile(r"^\s*(#|//) README end: (\S+)\s*$")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)


def regions(path):
    found, name, lines = {}, None, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if BEGIN.match(line):
                name, lines = BEGIN.match(line).group(2), []
            elif END.match(line):
                if END.match(line).group(2) != name:
                    raise SystemExit(f"{path}: README end without its begin: {line.strip()}")
                found[name] = textwrap.dedent("".join(lines).expandtabs(4))
                name = None
            elif name:
                lines.append(line)
    if name:
        raise SystemExit(f"{path}: README region {name} has no end")
    return found


def main(page_path, programs):
    passed = failed = 0

    def check(what, ok):
        nonlocal passed, failed
        passed, failed = passed + ok, failed + (not ok)
        print(f"{'ok' if ok else 'not ok'} - {what}")

    with open(page_path, encoding="utf-8") as f:
        page = f.read()
    blocks = [body for _, body in FENCE.findall(page)]
    quoted = {}
    for program in programs:
        for name, text in regions(program).items():
            quoted[name] = text
            check(f"{page_path} quotes {name} from {program}", text in blocks)
    check(f"{page_path} is the page \"From applications\"",
          re.search(r"^# From applications$", page, re.M) is not None)
    for lang, body in FENCE.findall(page):
        if lang in ("python", "js", "javascript", "java", "ruby", "go"):
            first = body.strip().splitlines()[0] if body.strip() else ""
            check(f"{page_path} {lang} block is a tested region: {first[:60]}",
                  body in quoted.values())
    print(f"readme: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
