#!/usr/bin/python3
"""README gives the project's two commands, and CI runs the test command.

Usage: frontdoor.py ROOT

- README.md has, in a sh block, the demo command (`bash tools/demo.sh`) and
  the test command (`bash tools/test.sh`), each on one line of its own;
- .ci/run ends by running exactly that test command (nothing else runs the
  tests in CI);
- README.md gives the quick check (`make installcheck`) too.
Prints one line per check and "docs-frontdoor: N passed, M failed".
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Tally   # noqa: E402

DEMO = "bash tools/demo.sh"
TEST = "bash tools/test.sh"


def main(root):
    tally = Tally("docs-frontdoor")
    check = tally.check
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    lines = [l.split("#")[0].strip()
             for block in re.findall(r"^```sh\n(.*?)^```", readme, re.M | re.S)
             for l in block.splitlines()]
    check(f"README.md gives the demo command on a line of its own: {DEMO}", DEMO in lines)
    check(f"README.md gives the test command on a line of its own: {TEST}", TEST in lines)
    check("README.md gives the quick check: make installcheck", "make installcheck" in lines)
    with open(os.path.join(root, ".ci", "run"), encoding="utf-8") as f:
        ci = [l.strip() for l in f.read().splitlines() if l.strip() and not l.lstrip().startswith("#")]
    run = [l for l in ci if "tools/" in l or "test" in l]
    check(f".ci/run runs README's test command and no other test command: {run}",
          run == [f"exec {TEST}"] or run == [TEST])
    return tally.done()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
