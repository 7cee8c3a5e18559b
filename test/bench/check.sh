#!/usr/bin/env bash
# Checks what test/bench/bench.sh wrote, never its timings:
#   bash test/bench/check.sh DIR
# passes when DIR/bench.md holds the report's tables, each well formed (a
# header, a separator row, at least one data row, the same number of cells
# in every row, no empty cell), and DIR/bench.svg is an SVG document that an
# XML parser accepts and that draws something.
set -euo pipefail

dir=${1:?usage: check.sh DIR}
md=$dir/bench.md
svg=$dir/bench.svg
fail() { printf 'bench check: %s\n' "$*" >&2; exit 1; }

[ -s "$md" ] || fail "$md is missing or empty"
[ -s "$svg" ] || fail "$svg is missing or empty"

# every table: header, separator, rows; the count of tables is the report's
tables=$(awk '
	function cells(line,   n) { n = split(line, c, "|"); for (i = 2; i < n; i++) if (c[i] ~ /^[ \t]*$/) return -1; return n - 2 }
	function done() {
		if (state == 0) return
		if (rows < 1) { printf "table at line %d has no data row\n", start > "/dev/stderr"; bad = 1 }
		state = 0
	}
	/^\|.*\|$/ {
		if (state == 0) { state = 1; start = NR; width = cells($0); rows = 0
			if (width < 2) { printf "line %d: table header with fewer than 2 cells or an empty cell\n", NR > "/dev/stderr"; bad = 1 }
			next }
		if (state == 1) {
			if ($0 !~ /^\|( *:?-+:? *\|)+$/ || cells($0) != width) { printf "line %d: bad separator row\n", NR > "/dev/stderr"; bad = 1 }
			state = 2; tables++; next }
		if (cells($0) != width) { printf "line %d: %d cells, the header has %d (or an empty cell)\n", NR, cells($0), width > "/dev/stderr"; bad = 1 }
		rows++; next
	}
	/^\|/ { printf "line %d: a table row must end with |\n", NR > "/dev/stderr"; bad = 1 }
	{ done() }
	END { done(); if (bad) exit 1; print tables + 0 }
' "$md") || fail "$md: malformed table"
[ "$tables" -eq 6 ] ||
	fail "$md: $tables tables, expected 6 (cost per id, bulk insert, concurrent inserts and their two summaries, COPY/ORDER BY)"
grep -q 'NaN\|| *|' "$md" && fail "$md: a NaN or an empty cell"

# the SVG: well-formed XML, an <svg> root, and some drawing in it
if command -v python3 >/dev/null; then
	python3 - "$svg" <<'PY' || fail "$svg is not a usable SVG document"
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag in ("svg", "{http://www.w3.org/2000/svg}svg"), root.tag
shapes = [e for e in root.iter() if e.tag.split("}")[-1] in ("path", "rect", "polygon", "polyline")]
assert len(shapes) > 20, "only %d shapes" % len(shapes)
PY
elif command -v xmllint >/dev/null; then
	xmllint --noout "$svg" || fail "$svg is not well-formed XML"
	grep -q '<svg' "$svg" || fail "$svg has no <svg> element"
else
	fail "neither python3 nor xmllint is available to parse $svg"
fi
echo "bench check: $tables well-formed tables in $md, $svg parses"
