#!/usr/bin/env bash
# Mutation testing of src/: the standard mutations of tools/mutants.py
# (relational and equality operators flipped, integer constants +1 and -1,
# && and || swapped, expression statements deleted, return values negated)
# planted one at a time in a copy of the tree; for each, the fast suites:
# the unit tests (test/unit, built with WERROR= so that a mutant which only
# warns still counts), for a file the simulation links (test/sim: b36gen,
# b36sync, waitline, base36) IDGEN_MUTATE_SIM_SCHEDULES of its schedules
# (default 20000, from seed 1), and when they pass, idgen built, installed and the
# regression tests run against a scratch cluster with idgen preloaded and a
# worker id (tools/lib.sh's IDGEN_REGRESS_CONF, make installcheck
# WORKER=yes; without the hostile database's two tests, which check SQL
# names, not C), every statement under IDGEN_STATEMENT_TIMEOUT.
#
#   bash tools/mutate.sh [FILE...]     every mutant of FILEs (default: src/core/*.[ch] and src/*.[ch])
#   IDGEN_MUTATE_SAMPLE=N IDGEN_MUTATE_SEED=S bash tools/mutate.sh [FILE...]
#                                      N of them, drawn with seed S (default 1), leaving out
#                                      the mutants CONTRIBUTING.md lists as equivalent
#   IDGEN_PG_VERSION=17 bash tools/mutate.sh ...   the regression tests on that major (default 15)
#   IDGEN_MUTATE_OUT=FILE              the results (one line per mutant, tab-separated) kept in FILE
#   IDGEN_MUTATE_ONLY=FILE             only the mutants FILE (such results) says survived
#                                      (with IDGEN_MUTATE_OUT: again after new tests)
#
# Each mutant ends as one of: killed (by unit, by sim, by regress, or the server
# not starting), timed out (its unit run past IDGEN_MUTATE_UNIT_SECONDS or
# its simulation past IDGEN_MUTATE_SIM_SECONDS or
# its regression run past IDGEN_MUTATE_REGRESS_SECONDS: counted as killed),
# survived, not built (the compiler refuses it: not counted).  Prints a
# line per mutant, then per file and per folder: killed, survived, timed
# out, not built, equivalent (survivors CONTRIBUTING.md explains) and the
# score, killed and timed out over all built (and over those not listed as
# equivalent); then the survivors.  With a sample, the last line is
# "mutate: N passed, M failed" (tools/test.sh's mutate suite): a sampled
# mutant passes when killed, timed out or not built, fails when it
# survives.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

IDGEN_MUTATE_UNIT_SECONDS=${IDGEN_MUTATE_UNIT_SECONDS:-120}
IDGEN_MUTATE_REGRESS_SECONDS=${IDGEN_MUTATE_REGRESS_SECONDS:-600}
IDGEN_MUTATE_SIM_SECONDS=${IDGEN_MUTATE_SIM_SECONDS:-300}
IDGEN_MUTATE_SIM_SCHEDULES=${IDGEN_MUTATE_SIM_SCHEDULES:-20000}
MUTANTS="/usr/bin/python3 $IDGEN_ROOT/tools/mutants.py"

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
	files=($(cd "$IDGEN_ROOT" && ls src/core/*.c src/core/*.h src/*.c src/*.h))
fi
for f in "${files[@]}"; do
	[ -f "$IDGEN_ROOT/$f" ] || { say "mutate: no file $f (give paths relative to the checkout)"; exit 2; }
done

idgen_deps make gcc libcmocka-dev postgresql-server-dev-$IDGEN_PG_DEBIAN libssl-dev
idgen_workdir
idgen_pg_select "$IDGEN_PG_VERSION"
T0=$(date +%s)

# the mutants: all, or a sample leaving out the listed equivalents
(cd "$IDGEN_ROOT" && IDGEN_MUTATE_ONLY= $MUTANTS plan CONTRIBUTING.md 0 0 "${files[@]}") >"$IDGEN_TOP/all.tsv"
(cd "$IDGEN_ROOT" && $MUTANTS plan CONTRIBUTING.md "${IDGEN_MUTATE_SAMPLE:-0}" "${IDGEN_MUTATE_SEED:-1}" "${files[@]}") \
	>"$IDGEN_TOP/run.tsv"
say "mutate: $(grep -c . "$IDGEN_TOP/run.tsv" || true) of $(wc -l <"$IDGEN_TOP/all.tsv") mutants of ${#files[@]} files (${IDGEN_MUTATE_SAMPLE:+a sample, seed ${IDGEN_MUTATE_SEED:-1}; }$(grep -c $'\t1$' "$IDGEN_TOP/all.tsv" || true) listed as equivalent in CONTRIBUTING.md)"

# the baseline: the tree as it is must pass both
say "mutate: building the tree as it is against PostgreSQL $PG_LABEL"
idgen_build >"$IDGEN_WORK/build.log" 2>&1 || { cat "$IDGEN_WORK/build.log"; say "mutate: the tree does not build"; exit 1; }
idgen_install
B=$IDGEN_BUILD
SO_DEST=$IDGEN_WORK/install$("$PG_CONFIG" --pkglibdir)/idgen.so
UNIT_BINS=(test_core test_random test_fixedid)

unit_build() {
	make -s -C "$B/test/unit" PG_CONFIG="$PG_CONFIG" WERROR= "${UNIT_BINS[@]}" >"$IDGEN_WORK/unit-build.log" 2>&1
}
# unit_run: 0 passed, 1 failed, 124 timed out
unit_run() {
	local b rc
	for b in "${UNIT_BINS[@]}"; do
		rc=0
		# CMOCKA_TEST_ABORT: a failed assertion ends the binary (a killed
		# mutant needs no more); the braces keep bash's word of the abort
		# out of the output
		{ (cd "$B/test/unit" && CMOCKA_TEST_ABORT=1 exec timeout -k 5 "$IDGEN_MUTATE_UNIT_SECONDS" "./$b") \
			>"$IDGEN_WORK/unit.log" 2>&1; } 2>/dev/null || rc=$?
		[ "$rc" -eq 0 ] || { [ "$rc" -eq 124 ] && return 124; return 1; }
	done
	return 0
}
# the sources the simulation links (test/sim/Makefile's SRCS and HDRS)
SIM_SRCS=(src/core/b36gen.c src/core/b36sync.c src/core/waitline.c src/core/base36.c)
sim_links() {
	case " ${SIM_SRCS[*]} ${SIM_SRCS[*]//.c/.h} " in *" $1 "*) return 0 ;; esac
	return 1
}
# sim_run: 0 passed, 1 failed (or not built: the unit tests built the same
# code, without -Werror, so only a sim-only error is left), 124 timed out
sim_run() {
	local rc=0
	(cd "$B/test/sim" && ${CC:-cc} -O2 -std=c99 -D_POSIX_C_SOURCE=200809L -I../../src/core \
		-o "$IDGEN_WORK/sim_b36gen" sim_b36gen.c "${SIM_SRCS[@]/#/../../}") >"$IDGEN_WORK/sim.log" 2>&1 || return 1
	timeout -k 5 "$IDGEN_MUTATE_SIM_SECONDS" "$IDGEN_WORK/sim_b36gen" -n "$IDGEN_MUTATE_SIM_SCHEDULES" \
		>>"$IDGEN_WORK/sim.log" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] && return 0
	[ "$rc" -eq 124 ] && return 124
	return 1
}
ext_build() {
	make -s -C "$B" PG_CONFIG="$PG_CONFIG" >"$IDGEN_WORK/ext-build.log" 2>&1 && cp "$B/idgen.so" "$SO_DEST"
}
server_restart() {
	[ ! -f "$IDGEN_WORK/data/postmaster.pid" ] ||
		as_server "$PG_BIN/pg_ctl" -D "$IDGEN_WORK/data" -m immediate -w stop >/dev/null 2>&1 || true
	as_server "$PG_BIN/pg_ctl" -D "$IDGEN_WORK/data" -l "$IDGEN_WORK/server.log" -w -t 60 start >/dev/null 2>&1
}
# regress_run: 0 passed, 1 failed, 124 timed out.  The first failed test
# decides: the run is stopped there (a killed mutant needs no more).
regress_run() {
	local rc=0 pid t0=$SECONDS
	rm -rf "$IDGEN_WORK/regress"
	mkdir -p "$IDGEN_WORK/regress"
	set -m
	PGOPTIONS="-c statement_timeout=$IDGEN_STATEMENT_TIMEOUT" \
		make -s -C "$B" PG_CONFIG="$PG_CONFIG" installcheck WORKER=yes HOSTILE= \
		EXTRA_REGRESS_OPTS="--outputdir=$IDGEN_WORK/regress" >"$IDGEN_WORK/regress.log" 2>&1 &
	pid=$!
	set +m
	while kill -0 "$pid" 2>/dev/null; do
		if grep -qE '\.\.\. FAILED|^not ok |failed \(' "$IDGEN_WORK/regress.log"; then
			kill -- -"$pid" 2>/dev/null || true
			wait "$pid" 2>/dev/null || true
			return 1
		fi
		if [ $((SECONDS - t0)) -ge "$IDGEN_MUTATE_REGRESS_SECONDS" ]; then
			kill -- -"$pid" 2>/dev/null || true
			wait "$pid" 2>/dev/null || true
			return 124
		fi
		sleep 0.2
	done
	wait "$pid" || rc=$?
	[ "$rc" -eq 0 ] && return 0
	return 1
}

unit_build || { cat "$IDGEN_WORK/unit-build.log"; say "mutate: the unit tests do not build"; exit 1; }
unit_run || { cat "$IDGEN_WORK/unit.log"; say "mutate: the unit tests fail on the tree as it is"; exit 1; }
sim_run || { cat "$IDGEN_WORK/sim.log"; say "mutate: the simulation fails on the tree as it is"; exit 1; }
idgen_cluster_start "${IDGEN_REGRESS_CONF[@]}" || { say "mutate: no cluster"; exit 1; }
t=$(date +%s)
regress_run || { cat "$IDGEN_WORK/regress.log"; cat "$IDGEN_WORK/regress/regression.diffs" 2>/dev/null || true
	say "mutate: the regression tests fail on the tree as it is"; exit 1; }
say "mutate: the tree as it is passes (regression tests in $(($(date +%s) - t)) s)"

# one line per mutant: VERDICT<TAB>ID<TAB>FILE<TAB>LINE<TAB>FUNCTION<TAB>KIND<TAB>DESCRIPTION<TAB>EQUIVALENT
RESULTS=$IDGEN_TOP/results.tsv
: >"$RESULTS"
n=0 total=$(wc -l <"$IDGEN_TOP/run.tsv")
# (the list on fd 3: what the loop runs may read stdin)
while IFS=$'\t' read -r -u 3 id file line fn kind desc eq; do
	n=$((n + 1))
	m0=$SECONDS
	cp "$B/$file" "$IDGEN_TOP/original"
	$MUTANTS apply "$id" "$B/$file"
	verdict=
	if ! unit_build; then
		verdict="not built"
	else
		unit_run && rc=0 || rc=$?
		case $rc in
		0) ;;
		124) verdict="timed out (unit)" ;;
		*) verdict="killed (unit)" ;;
		esac
		if [ -z "$verdict" ] && sim_links "$file"; then
			sim_run && rc=0 || rc=$?
			case $rc in
			0) ;;
			124) verdict="timed out (sim)" ;;
			*) verdict="killed (sim)" ;;
			esac
		fi
		if [ -z "$verdict" ]; then
			if ! ext_build; then
				verdict="not built"
			elif ! server_restart; then
				verdict="killed (server start)"
			else
				regress_run && rc=0 || rc=$?
				case $rc in
				0) verdict=survived ;;
				124) verdict="timed out (regress)" ;;
				*) verdict="killed (regress)" ;;
				esac
			fi
		fi
	fi
	# the file as it was, with a new time, so that make rebuilds it
	cp "$IDGEN_TOP/original" "$B/$file"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$verdict" "$id" "$file" "$line" "$fn" "$kind" "$desc" "$eq" >>"$RESULTS"
	printf 'mutant %d/%d %s: %s:%s (%s) %s %s%s (%d s)\n' "$n" "$total" "$verdict" "$file" "$line" "$fn" "$kind" "$desc" \
		"$([ "$eq" = 1 ] && echo ' [listed as equivalent]')" $((SECONDS - m0))
done 3<"$IDGEN_TOP/run.tsv"
# a mutant of the regression run may have left the server down or changed
ext_build >/dev/null 2>&1 || true
[ ! -f "$IDGEN_WORK/data/postmaster.pid" ] || idgen_cluster_stop || true

[ -z "${IDGEN_MUTATE_OUT:-}" ] || cp "$RESULTS" "$IDGEN_MUTATE_OUT"
# the tally: per file, per folder, in all
$MUTANTS tally "$RESULTS" $(($(date +%s) - T0))
if grep -q $'^survived\t' "$RESULTS"; then
	echo "== survivors"
	awk -F'\t' '$1 == "survived" { printf "%s:%s (%s) %s %s%s\n", $3, $4, $5, $6, $7, ($8 == 1 ? " [listed as equivalent]" : "") }' "$RESULTS"
fi
if [ -n "${IDGEN_MUTATE_SAMPLE:-}" ]; then
	p=$(grep -cv $'^survived\t' "$RESULTS" || true)
	f=$(grep -c $'^survived\t' "$RESULTS" || true)
	echo "mutate: $p passed, $f failed"
	[ "$f" -eq 0 ]
fi
