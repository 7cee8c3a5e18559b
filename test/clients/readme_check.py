#!/usr/bin/python3
"""README's "From applications" code is quoted from the tested client programs.

Every region a program marks with "README begin: NAME" ... "README end: NAME"
must appear in README.md as a fenced code block, dedented, tabs as 4 spaces;
and every python/js/java block of README's "From applications" section must be
one of those regions.  Usage: readme_check.py README.md PROGRAM...
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


def main(readme_path, programs):
    passed = failed = 0

    def check(what, ok):
        nonlocal passed, failed
        passed, failed = passed + ok, failed + (not ok)
        print(f"{'ok' if ok else 'not ok'} - {what}")

    with open(readme_path, encoding="utf-8") as f:
        readme = f.read()
    blocks = [body for _, body in FENCE.findall(readme)]
    quoted = {}
    for program in programs:
        for name, text in regions(program).items():
            quoted[name] = text
            check(f"README quotes {name} from {program}", text in blocks)
    section = re.search(r"^## From applications\n(.*?)(?=^## )", readme, re.M | re.S)
    check("README has a section \"From applications\"", section is not None)
    if section:
        for lang, body in FENCE.findall(section.group(1)):
            if lang in ("python", "js", "javascript", "java"):
                first = body.strip().splitlines()[0] if body.strip() else ""
                check(f"README {lang} block is a tested region: {first[:60]}",
                      body in quoted.values())
    print(f"readme: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
