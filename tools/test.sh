#!/usr/bin/env bash
# Every test: core unit tests (cmocka), a bounded fuzz run of the core
# (libFuzzer), pg_regress against a scratch cluster, the TAP tests
# (PostgreSQL::Test::Cluster), the client programs (test/clients/run.sh) and
# the packaging (test/package/run.sh).  Ends with one line
# "idgen: N passed, M failed" (", K skipped" added when something was skipped).
source "$(dirname "$0")/lib.sh"
source "$IDGEN_ROOT/test/clients/run.sh"
source "$IDGEN_ROOT/test/package/run.sh"

PASSED=0
FAILED=0
SKIPPED=0
FAILED_SUITES=()

# record SUITE PASSED FAILED
record() {
	PASSED=$((PASSED + $2))
	FAILED=$((FAILED + $3))
	[ "$3" -eq 0 ] || FAILED_SUITES+=("$1")
	say "$1: $2 passed, $3 failed"
}

# record_log SUITE LOG EXIT: the last "NAME: N passed, M failed" line a
# program wrote to LOG; a failure if it is missing or the program exited
# non-zero without counting a failure.
record_log() {
	local line p f
	line=$(grep -E "^[a-z-]+: [0-9]+ passed, [0-9]+ failed$" "$2" | tail -n 1 || true)
	p=$(echo "$line" | sed -n 's/.*: \([0-9]*\) passed.*/\1/p')
	f=$(echo "$line" | sed -n 's/.*, \([0-9]*\) failed$/\1/p')
	p=${p:-0} f=${f:-0}
	[ "$3" -eq 0 ] || [ "$f" -gt 0 ] || f=1
	grep -v '^ok - ' "$2" || true
	record "$1" "$p" "$f"
}

# skip SUITE N WHY
skip() {
	SKIPPED=$((SKIPPED + $2))
	say "$1: $2 skipped: $3"
}

run_unit() {
	local log=$IDGEN_WORK/unit.log p f
	make -s -C "$IDGEN_BUILD/test/unit" PG_CONFIG="$PG_CONFIG" check >"$log" 2>&1 || true
	cat "$log"
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
	# a build failure or crash prints no summary: count it as a failure
	grep -q '^\[  PASSED  \]' "$log" || f=$((f + 1))
	record unit "$p" "$f"
}

run_fuzz() {
	local log=$IDGEN_WORK/fuzz.log
	if make -s -C "$IDGEN_BUILD/test/fuzz" run FUZZ_SECONDS="${IDGEN_FUZZ_SECONDS:-30}" >"$log" 2>&1; then
		tail -n 2 "$log"
		record fuzz 1 0
	else
		tail -n 40 "$log"
		record fuzz 0 1
	fi
}

# regress_installcheck SUITE: pg_regress against the running cluster
regress_installcheck() {
	local out=$IDGEN_WORK/$1 p f
	mkdir -p "$out"
	if make -s -C "$IDGEN_BUILD" PG_CONFIG="$PG_CONFIG" installcheck \
		EXTRA_REGRESS_OPTS="--outputdir=$out" >"$out/make.log" 2>&1; then :; fi
	cat "$out/make.log"
	[ -f "$out/regression.diffs" ] && cat "$out/regression.diffs"
	p=$(grep -cE '^(ok|test) .* ok( |$)|^ok [0-9]+ ' "$out/make.log" || true)
	f=$(grep -cE 'FAILED|failed \(' "$out/make.log" || true)
	[ "$p" -gt 0 ] || [ "$f" -gt 0 ] || f=1
	record "$1" "$p" "$f"
}

run_regress() {
	idgen_cluster_start
	regress_installcheck regress
	idgen_cluster_stop
}

run_tap() {
	local dir=$IDGEN_WORK/tap log p f
	# the server user must be able to read the tests and write its logs
	mkdir -p "$dir"
	cp -r "$IDGEN_BUILD/test/t" "$dir/"
	[ "$(id -u)" -eq 0 ] && chown -R "$SERVER_USER" "$dir"
	log=$dir/prove.log
	(cd "$dir" && as_server env PATH="$PG_BIN:$PATH" TESTDIR="$dir" \
		PG_REGRESS="$PGXS_DIR/src/test/regress/pg_regress" \
		prove -I "$PGXS_DIR/src/test/perl" t/*.pl) >"$log" 2>&1 || true
	cat "$log"
	p=$(sed -n 's/^Files=[0-9]*, Tests=\([0-9]*\),.*/\1/p' "$log")
	p=${p:-0}
	f=$(sed -n 's/^Failed [0-9]*\/\([0-9]*\) subtests.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
	if ! grep -q '^Result: PASS' "$log"; then
		[ "$f" -gt 0 ] || f=1
		for t in "$dir"/tmp_check/log/regress_log_*; do
			[ -f "$t" ] && { echo "== $t"; tail -n 60 "$t"; }
		done
	fi
	record tap $((p - f)) "$f"
}

idgen_deps
idgen_workdir
say "building with -Werror"
idgen_build -Werror
run_unit
run_fuzz
idgen_install
say "regression tests on a scratch cluster"
run_regress
say "TAP tests"
run_tap
say "client programs (psycopg, node-postgres, pgjdbc)"
run_clients
say "packaging: META.json, the Debian package"
run_package

[ ${#FAILED_SUITES[@]} -eq 0 ] || say "failing suites: ${FAILED_SUITES[*]}"
echo "idgen: $PASSED passed, $FAILED failed$([ "$SKIPPED" -eq 0 ] || echo ", $SKIPPED skipped")"
[ "$FAILED" -eq 0 ]
