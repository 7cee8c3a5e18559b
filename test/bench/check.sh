#!/usr/bin/env bash
# Checks what test/bench/bench.sh wrote, never its timings:
#   bash test/bench/check.sh DIR
# passes when DIR/bench.md is a well-formed report (test/bench/check.py: the
# header with the command, the server's configure flags and assertions, the
# machine and the load; the tables of its scale, each with medians and
# spreads, every verdict following from its spread) and, at full and tiny
# scale, DIR/bench.svg is an SVG document that an XML parser accepts and
# that draws something.  The check must also fail on every mutant of the
# report (check.py --mutants: a wrong verdict, a missing header line, ...).
set -euo pipefail

dir=${1:?usage: check.sh DIR}
md=$dir/bench.md
svg=$dir/bench.svg
fail() { printf 'bench check: %s\n' "$*" >&2; exit 1; }

[ -s "$md" ] || fail "$md is missing or empty"
command -v python3 >/dev/null || fail "python3 is needed to check $md"
python3 "$(dirname "$0")/check.py" "$md" || fail "$md: not a well-formed report"
# and the check itself: it must fail every mutant of this good report
python3 "$(dirname "$0")/check.py" --mutants "$md" || fail "the check let a faulty report pass"
grep -q '^- Command: .*(scale quick)$' "$md" && exit 0

# the SVG: well-formed XML, an <svg> root, and some drawing in it
[ -s "$svg" ] || fail "$svg is missing or empty"
python3 - "$svg" <<'PY' || fail "$svg is not a usable SVG document"
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag in ("svg", "{http://www.w3.org/2000/svg}svg"), root.tag
shapes = [e for e in root.iter() if e.tag.split("}")[-1] in ("path", "rect", "polygon", "polyline")]
assert len(shapes) > 20, "only %d shapes" % len(shapes)
PY
echo "bench check: $svg parses and draws"
