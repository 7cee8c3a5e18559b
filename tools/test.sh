#!/usr/bin/env bash
# Every test: a bounded fuzz run of the core (libFuzzer) and the simulation
# of base36id's protocol (test/sim) once, since the core does not depend on
# PostgreSQL; then, for every PostgreSQL major in
# IDGEN_PG_VERSIONS (default: all supported), the extension built with
# -Werror, the unit tests (cmocka; src/random.c against the server's
# headers), its exported symbols, pg_regress against a scratch cluster (and
# again with every query forced into a parallel worker), the isolation specs
# (specs/, test/isolation/run.sh), the TAP tests (PostgreSQL::Test::Cluster),
# the standby tests again with idgen built against older server headers
# (test/oldheaders/run.sh; on 15),
# the client programs, the ORM programs (test/orm/run.sh)
# (test/clients/run.sh), the packaging (test/package/run.sh; a Debian
# package only for the majors pg_buildext builds for: 15 on Debian 12), the
# benchmark harness at tiny sizes, a Citus cluster (test/citus; on the
# majors Citus supports), and idgen under the operations tools where they
# support the major (test/ops: Patroni, pgBackRest), a short run of random
# SQL from sqlsmith (test/sqlsmith); after every major,
# pg_upgrade between the majors tested (test/ops/pgupgrade.sh); then the
# suites on server builds of their own (test/checked: a sanitizer run, an
# EXEC_BACKEND server).  18 is built with assertions; 19 is 19beta1.
# Ends with one line "idgen: N passed, M failed" (", K skipped" added when
# something was skipped).
#
#   IDGEN_PG_VERSIONS=15 bash tools/test.sh      only against PostgreSQL 15
#   IDGEN_SUITES="regress" bash tools/test.sh    only those suites (the build always)
#   IDGEN_SIM_SCHEDULES=10000000 IDGEN_SUITES=sim bash tools/test.sh   a longer simulation of base36id
#   IDGEN_SUITES=tap IDGEN_TAP=t/030_monitoring.pl bash tools/test.sh   one TAP file
#   IDGEN_TAP_JOBS=1 bash tools/test.sh          the TAP files one at a time (default: 2)
#
# A new suite is a function run_<name> that calls `record`, added to
# ONCE_SUITES or VERSION_SUITES below.  A version suite finds the build in
# $IDGEN_BUILD, the installed tree in $PG_BIN/$PGXS_DIR and its own scratch
# space in $IDGEN_WORK (per major); it starts and stops any cluster it needs.
source "$(dirname "$0")/lib.sh"
source "$IDGEN_ROOT/test/clients/run.sh"
source "$IDGEN_ROOT/test/clients/java/run.sh"
source "$IDGEN_ROOT/test/doc/run.sh"
source "$IDGEN_ROOT/test/isolation/run.sh"
source "$IDGEN_ROOT/test/oldheaders/run.sh"
source "$IDGEN_ROOT/test/orm/run.sh"
source "$IDGEN_ROOT/test/package/run.sh"
source "$IDGEN_ROOT/test/pgbuild/run.sh"
source "$IDGEN_ROOT/test/ops/common.sh"
source "$IDGEN_ROOT/test/ops/pgbackrest.sh"
source "$IDGEN_ROOT/test/ops/pgupgrade.sh"
source "$IDGEN_ROOT/test/ops/patroni.sh"
source "$IDGEN_ROOT/test/ops/autofailover.sh"
source "$IDGEN_ROOT/test/pgcron/run.sh"
source "$IDGEN_ROOT/test/checked/run.sh"
source "$IDGEN_ROOT/test/sqlsmith/run.sh"
source "$IDGEN_ROOT/test/portable/run.sh"
source "$IDGEN_ROOT/test/cdc/run.sh"
source "$IDGEN_ROOT/test/maintenance/run.sh"
source "$IDGEN_ROOT/test/plpgsqlcheck/run.sh"
source "$IDGEN_ROOT/test/sqlnames/run.sh"
source "$IDGEN_ROOT/test/monitoring/run.sh"
source "$IDGEN_ROOT/test/ops/runbooks.sh"

# docs: links, SQLSTATEs and repeats of the user pages (test/doc/run.sh)
# sim: the seeded simulation of base36id's protocol with synchronous standbys and its mutants (test/sim)
# sqlnames: every name the scripts of both editions look up, schema-qualified, by PostgreSQL's parser (test/sqlnames)
# mutate: a seeded sample of the mutants of src/core, each killed by the unit or regression tests (tools/mutate.sh)
ONCE_SUITES=(fuzz sim pgbuild docs sqlnames mutate)
# unit: test_random and test_fixedid build against the server's headers
# patroni, pgbackrest: the operations tools (test/ops/), where they support the major
# pgautofailover: base36id under pg_auto_failover (test/ops/autofailover.sh), where Debian packages it
# regress-parallel: the regression tests again, every query forced through a parallel worker
# isolation: the specs/ of pg_isolation_regress (test/isolation/run.sh)
# oldheaders: idgen built against the older layout of a server header, the standby tests with it (test/oldheaders/run.sh)
# doc-sql: the SQL of every user page, with and without preloading (test/doc/run.sh)
# sqlsmith: random SQL against every idgen type (test/sqlsmith/run.sh)
# pgcron: partition upkeep scheduled by pg_cron (test/pgcron), where Debian packages it
# java: the Maven build of clients/java, offline, its tests against a server (test/clients/java/run.sh)
# portable: idgen_portable, the SQL edition, against the C types (test/portable/run.sh)
# cdc: ids streamed by logical decoding to a psycopg2 consumer and a subscriber without idgen (test/cdc/run.sh)
# maintenance: pg_repack, REINDEX CONCURRENTLY and CLUSTER of id-keyed tables while rows are inserted, updated and deleted (test/maintenance/run.sh)
# plpgsql-check: plpgsql_check over the PL/pgSQL of both editions (test/plpgsqlcheck/run.sh), where Debian packages it
# runbooks: doc/runbooks.md's commands as written: failover, switchover (manual and Patroni), the public-id key (test/ops/runbooks.sh)
# exporter: monitoring/'s alerting rules through promtool, its queries file through the real postgres_exporter against the views (test/monitoring/run.sh)
VERSION_SUITES=(unit symbols regress regress-parallel isolation tap patroni oldheaders clients java orm doc-sql package bench citus pgautofailover pgbackrest pgcron sqlsmith portable cdc maintenance plpgsql-check exporter runbooks)

# wanted SUITE: is it in IDGEN_SUITES (all when unset)?
wanted() {
	[ -z "${IDGEN_SUITES:-}" ] || [[ " $IDGEN_SUITES " == *" $1 "* ]]
}

PASSED=0
FAILED=0
SKIPPED=0
FAILED_SUITES=()
# the failed assertions of failed TAP tests, repeated at the end of the
# output (CI may keep only its end)
FAILURE_NOTES=()
SUMMARY=()
# "N s pgNN/SUITE" per version suite, the slowest listed at the end
SUITE_TIMES=()
# the PostgreSQL major the running suite tests, as a prefix of its name
SUITE_PREFIX=

# record SUITE PASSED FAILED
record() {
	local name=$SUITE_PREFIX$1
	PASSED=$((PASSED + $2))
	FAILED=$((FAILED + $3))
	[ "$3" -eq 0 ] || FAILED_SUITES+=("$name")
	SUMMARY+=("$name: $2 passed, $3 failed")
	say "$name: $2 passed, $3 failed"
}

# record_log SUITE LOG EXIT: the last "NAME: N passed, M failed" line a
# program wrote to LOG; a failure if it is missing or the program exited
# non-zero without counting a failure.
record_log() {
	local line p f
	line=$(grep -E "^[a-z0-9-]+: [0-9]+ passed, [0-9]+ failed$" "$2" | tail -n 1 || true)
	p=$(echo "$line" | sed -n 's/.*: \([0-9]*\) passed.*/\1/p')
	f=$(echo "$line" | sed -n 's/.*, \([0-9]*\) failed$/\1/p')
	p=${p:-0} f=${f:-0}
	[ "$3" -eq 0 ] || [ "$f" -gt 0 ] || f=1
	grep -v '^ok - ' "$2" || true
	record "$1" "$p" "$f"
}

# skip SUITE N WHY: N checks of SUITE not run, and why (listed in the
# results and counted in the last line)
skip() {
	SKIPPED=$((SKIPPED + $2))
	SUMMARY+=("$1: $2 skipped: $3")
	say "$1: $2 skipped: $3"
}

# The unit binaries (test/unit/Makefile's check runs each): make's exit
# status decides, the counts come from cmocka's summaries.  A binary that
# dies after another's PASSED line (a sanitizer report, LeakSanitizer's
# exit status) fails make, so the step fails with no FAILED line of its own.
# Every binary the check recipe runs must announce its tests ("Running N
# test(s)") and end them ("N test(s) run."): one that is missing or stops
# short is a failure, named.
run_unit() {
	local log=$IDGEN_WORK/unit.log p f rc=0 binaries announced ran
	make -s -C "$IDGEN_BUILD/test/unit" PG_CONFIG="$PG_CONFIG" check >"$log" 2>&1 || rc=$?
	cat "$log"
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
	binaries=$(grep -cE '^\s+\./test_' "$IDGEN_BUILD/test/unit/Makefile")
	announced=$(grep -cE '^\[==========\] Running [0-9]+ test' "$log" || true)
	ran=$(grep -cE '^\[==========\] [0-9]+ test\(s\) run\.' "$log" || true)
	if [ "$announced" -ne "$binaries" ] || [ "$ran" -ne "$binaries" ]; then
		say "unit: $binaries test binaries to run, $announced started, $ran ended their tests"
		f=$((f + 1))
	fi
	if [ "$p" -lt "$(sed -n 's/^\[==========\] Running \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')" ] && [ "$f" -eq 0 ]; then
		say "unit: fewer tests passed than the binaries announced"
		f=1
	fi
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		say "unit: make check exited with status $rc"
		f=1
	fi
	[ "$p" -gt 0 ] || [ "$f" -gt 0 ] || f=1
	record unit "$p" "$f"
}

# make_suite SUITE LOG MAKE-ARGS...: one make run as a suite, passed if it
# succeeds; the end of its output either way
make_suite() {
	local suite=$1 log=$2
	shift 2
	if make -s "$@" >"$log" 2>&1; then
		tail -n 2 "$log"
		record "$suite" 1 0
	else
		tail -n 60 "$log"
		record "$suite" 0 1
	fi
}

run_fuzz() {
	make_suite fuzz "$IDGEN_WORK/fuzz.log" -C "$IDGEN_BUILD/test/fuzz" run FUZZ_SECONDS="${IDGEN_FUZZ_SECONDS:-30}"
}

# The simulation of base36id's generation path (test/sim): IDGEN_SIM_SCHEDULES
# schedules (100000) from seed 1, then each planted mistake, which must be
# found within MUTANT_SCHEDULES (mutants.sh); the same run on any machine.
# Every mutant of mutants.sh's list is counted: one missing from the output
# is a failure.
run_sim() {
	local log=$IDGEN_WORK/sim.log p f n
	make_suite sim "$log" -C "$IDGEN_BUILD/test/sim" run SIM_SCHEDULES="${IDGEN_SIM_SCHEDULES:-100000}"
	bash "$IDGEN_BUILD/test/sim/mutants.sh" >"$log.mutants" 2>&1 || true
	cat "$log.mutants"
	n=$(bash "$IDGEN_BUILD/test/sim/mutants.sh" --list | wc -l)
	p=$(grep -c '^mutant .*: found after' "$log.mutants" || true)
	f=$((n - p))
	record sim-mutants "$p" "$f"
}

# A seeded sample of tools/mutate.sh's mutants (IDGEN_MUTATE_SAMPLE of
# them, seed IDGEN_MUTATE_SEED), leaving out those CONTRIBUTING.md lists as
# equivalent, each a test: killed, timed out or refused by the compiler
# passes, survived fails.  Against Debian's PostgreSQL (its own build and
# cluster).  The files: src/core, every survivor of which is killed or
# listed (CONTRIBUTING.md, Scores).
IDGEN_MUTATE_FILES=${IDGEN_MUTATE_FILES:-$(cd "$IDGEN_ROOT" && ls src/core/*.c src/core/*.h | tr '\n' ' ')}
run_mutate() {
	local log=$IDGEN_TOP/mutate.log rc=0
	IDGEN_PG_VERSION=$IDGEN_PG_DEBIAN IDGEN_MUTATE_SAMPLE=${IDGEN_MUTATE_SAMPLE:-8} IDGEN_MUTATE_SEED=${IDGEN_MUTATE_SEED:-1} \
		bash "$IDGEN_ROOT/tools/mutate.sh" $IDGEN_MUTATE_FILES >"$log" 2>&1 || rc=$?
	record_log mutate "$log" "$rc"
}

# Two TAP files at a time (IDGEN_TAP_JOBS); the files spend most of their
# time waiting (pg19beta1, one at a time: 347 s wall, 73 s CPU), so the
# suite runs beside the major's other suites (IDGEN_BESIDE).  Every prove of
# the run takes its clusters' ports through PostgreSQL::Test::Cluster's
# reservations in one directory (PG_TEST_PORT_DIR); the other suites'
# servers listen on Unix sockets of their own or on ports the kernel picks
# (its ephemeral range, above the 10200-32767 Cluster takes from); nothing
# else is shared.
run_tap() {
	PROVE_JOBS=${IDGEN_TAP_JOBS:-2} prove_suite tap t "${IDGEN_TAP:-}"
}
beside_run_tap() { PROVE_JOBS=${IDGEN_TAP_JOBS:-2} prove_run tap t "${IDGEN_TAP:-}"; }
beside_count_tap() { prove_count tap t "${IDGEN_TAP:-}"; }

# The suites of a major that run beside its other suites, started in their
# turn and counted after the major's last suite: they mostly wait (TAP's
# clusters, Patroni's failovers).  IDGEN_BESIDE="" runs each in its turn.
# A suite S here has beside_run_S (in the background: no counting) and
# beside_count_S, and may have S_wanted (in the foreground: false, having
# counted why, where S does not run on this major).
IDGEN_BESIDE=${IDGEN_BESIDE-tap patroni}
declare -A BESIDE_PID=() BESIDE_T0=()
BESIDE_STARTED=()

# beside_start SUITE: SUITE started in the background, in a process group
# of its own (idgen_cleanup stops it), its end time written to a file:
# beside_finish comes only after the other suites
beside_start() {
	BESIDE_T0[$1]=$(date +%s)
	rm -f "$IDGEN_WORK/$1.end"
	# (set -m: a background job is a process group of its own)
	set -m
	{
		"beside_run_$1"
		date +%s >"$IDGEN_WORK/$1.end"
	} </dev/null >"$IDGEN_WORK/$1.beside.out" 2>&1 &
	BESIDE_PID[$1]=$!
	set +m
	IDGEN_BACKGROUND_PGIDS+=("${BESIDE_PID[$1]}")
	BESIDE_STARTED+=("$1")
}

# beside_finish: waits for each suite beside_start started, counts it
beside_finish() {
	local suite end g
	local -a left
	for suite in ${BESIDE_STARTED[@]+"${BESIDE_STARTED[@]}"}; do
		SUITE_NOW=$SUITE_PREFIX$suite
		say "PostgreSQL $PG_LABEL: $suite (started beside the suites above)"
		wait "${BESIDE_PID[$suite]}" || true
		# ended: idgen_cleanup must not signal its group id, which the
		# system may give to another process group later
		left=()
		for g in ${IDGEN_BACKGROUND_PGIDS[@]+"${IDGEN_BACKGROUND_PGIDS[@]}"}; do
			[ "$g" = "${BESIDE_PID[$suite]}" ] || left+=("$g")
		done
		IDGEN_BACKGROUND_PGIDS=(${left[@]+"${left[@]}"})
		cat "$IDGEN_WORK/$suite.beside.out"
		"beside_count_$suite"
		end=$(cat "$IDGEN_WORK/$suite.end" 2>/dev/null || date +%s)
		SUITE_TIMES+=("$((end - BESIDE_T0[$suite])) s pg$PG_LABEL/$suite (beside)")
	done
	BESIDE_STARTED=()
}

# prove_suite SUITE DIR [FILES]: the TAP tests test/DIR/*.pl (or FILES, as
# t/NAME.pl) with prove, as the server user, counted under SUITE; PROVE_JOBS
# of them at a time (1)
prove_suite() {
	prove_run "$@"
	prove_count "$@"
}

# prove_run SUITE DIR [FILES]: prove's run; its log is $IDGEN_WORK/SUITE/prove.log
prove_run() {
	local dir=$IDGEN_WORK/$1 log
	# the server user must be able to read the tests and write its logs
	mkdir -p "$dir/t"
	cp -r "$IDGEN_BUILD/test/$2/." "$dir/t/"
	[ "$(id -u)" -eq 0 ] && chown -R "$SERVER_USER" "$dir"
	log=$dir/prove.log
	# TESTDIR places tmp_check up to 15; from 16 on TESTDATADIR and TESTLOGDIR
	# do, and without them the node directories are relative to the test
	# directory, which paths handed to a server (archive and restore commands,
	# a preloaded library, files it reads) must not be: it runs in its data
	# directory.  Absolute, as PGXS's prove_installcheck sets them.  TMPDIR:
	# the nodes' socket directories, which a failing test keeps, stay in the
	# scratch directory.  PG_TEST_PORT_DIR: the port reservations of every
	# prove of the run (run_tap).
	mkdir -p "$IDGEN_TOP/portlock"
	[ "$(id -u)" -eq 0 ] && chown "$SERVER_USER" "$IDGEN_TOP/portlock"
	# Each file under a bound (IDGEN_TAP_FILE_SECONDS): a test that hangs
	# is stopped (TERM, on which test/t/IdgenBound.pm dies, so the nodes are
	# stopped as at any end), fails, and is named by prove_count.
	(cd "$dir" && as_server env PATH="$PG_BIN:$PATH" TMPDIR="$dir" TESTDIR="$dir" \
		TESTDATADIR="$dir/tmp_check" TESTLOGDIR="$dir/tmp_check/log" \
		PG_REGRESS="$PGXS_DIR/src/test/regress/pg_regress" PG_TEST_PORT_DIR="$IDGEN_TOP/portlock" \
		PERL5LIB="$PGXS_DIR/src/test/perl:$IDGEN_BUILD/test/t${PERL5LIB:+:$PERL5LIB}" PERL5OPT=-MIdgenBound \
		prove -v -j "${PROVE_JOBS:-1}" --exec "timeout -k 30 $IDGEN_TAP_FILE_SECONDS perl" \
		${3:-t/*.pl}) >"$log" 2>&1 || true
}
IDGEN_TAP_FILE_SECONDS=${IDGEN_TAP_FILE_SECONDS:-1200}

# prove_count SUITE DIR: the counts of prove_run's log
prove_count() {
	local dir=$IDGEN_WORK/$1 log p f t
	log=$dir/prove.log
	# prove -v: every assertion's line, kept in the log; shown are the
	# failed ones with their diagnostics, the skipped ones and prove's own
	# lines (not the passed ones, nor the notes of passing tests)
	awk '/^ *not ok / { diag = 1; print; next }
		/^ *#/ { if (diag || tolower($0) ~ /^ *# *(skip|looks like|failed test)/) print; next }
		{ diag = 0 }
		/^ *ok [0-9]+( - |$)/ { next }
		{ print }' "$log"
	p=$(sed -n 's/^Files=[0-9]*, Tests=\([0-9]*\),.*/\1/p' "$log")
	p=${p:-0}
	f=$(sed -n 's/^Failed \([0-9]*\)\/[0-9]* subtests.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
	# a file stopped by its bound (timeout's status 124: Wstat 31744), named
	for t in $(sed -n 's|^\(t/[^ ]*\.pl\) *(Wstat: 31744 .*|\1|p' "$log"); do
		say "$SUITE_PREFIX$1: $t did not end within $IDGEN_TAP_FILE_SECONDS s (IDGEN_TAP_FILE_SECONDS): stopped"
		f=$((f + 1))
	done
	# every file asked for was run (prove's Files=)
	local files asked
	files=$(sed -n 's/^Files=\([0-9]*\),.*/\1/p' "$log")
	asked=$(cd "$dir" && ls ${3:-t/*.pl} 2>/dev/null | wc -l)
	if [ -n "$files" ] && [ "$files" -lt "$asked" ]; then
		say "$SUITE_PREFIX$1: prove ran $files of the $asked files asked for"
		f=$((f + asked - files))
	fi
	# skips: prove's Tests= counts a SKIP subtest ("ok N # skip WHY") as
	# run; a file's "plan skip_all" ("t/F.pl .. skipped: WHY") counts none
	tap_skips "$SUITE_PREFIX$1" "$log"
	p=$((p - TAP_SKIPPED))
	# a bail-out stops prove, which may still print "Result: PASS" over
	# the files that ended before it; NOTESTS: every file skipped
	if ! grep -qE '^Result: (PASS|NOTESTS)$' "$log" || grep -q '^FAILED--Further testing stopped' "$log"; then
		[ "$f" -gt 0 ] || f=1
		# a test that dies before its first assertion counts no subtest
		[ "$p" -ge "$f" ] || p=$f
		# the failed files of prove's summary (all when it has none), their
		# logs' ends, and their failed assertions with prove's diagnostics
		# kept for the end of the output
		local failed_files
		failed_files=$(sed -n 's|^\(t/[^ ]*\.pl\) *(Wstat.*|\1|p' "$log")
		[ -n "$failed_files" ] || failed_files=$(cd "$dir" && ls t/*.pl)
		for t in $failed_files; do
			t=$dir/tmp_check/log/regress_log_$(basename "$t" .pl)
			[ -f "$t" ] || continue
			echo "== $t"
			tail -n 60 "$t"
			FAILURE_NOTES+=("$SUITE_PREFIX$1 $(basename "$t"):"$'\n'"$(grep -A 8 -E '^(\[[0-9:.]*\]\([0-9.]*s\) )?(not ok|# Looks like)' "$t" | head -n 40 || true)")
		done
	fi
	record "$1" $((p - f)) "$f"
}

# tap_skips SUITE LOG: the skipped subtests and files of a prove -v LOG,
# counted as skipped with their files and reasons; TAP_SKIPPED is the
# number of skipped subtests (which prove's Tests= includes)
tap_skips() {
	local line n
	TAP_SKIPPED=$(grep -ciE '^ok [0-9]+ # skip' "$2" || true)
	while IFS= read -r line; do
		n=${line%% *}
		skip "$1" "$n" "${line#* }"
	done < <(awk '
		match($0, /^(t\/[^ ]+\.pl) \.+ skipped: /) { split($0, a, / \.+ skipped: /); print "1 " a[1] ": " a[2]; next }
		match($0, /^(t\/[^ ]+\.pl) \.+ *$/) { file = $1; next }
		tolower($0) ~ /^ok [0-9]+ # skip/ { sub(/^ok [0-9]+ # [sS][kK][iI][pP] */, ""); n[file ": " $0]++ }
		END { for (k in n) print n[k] " " k }' "$2")
	[ "$TAP_SKIPPED" -gt 0 ] || TAP_SKIPPED=0
}

# A coordinator and two workers with Citus (test/citus), on the majors
# Citus 14 supports; Citus is built once per major (tools/citusbuild.sh)
# and copied into this run's install tree.
run_citus() {
	local t0 why
	case " $IDGEN_CITUS_MAJORS " in
	*" $PG_MAJOR "*) ;;
	*) skip "${SUITE_PREFIX}citus" 1 "Citus $IDGEN_CITUS_VERSION does not support PostgreSQL $PG_LABEL (tested on $IDGEN_CITUS_MAJORS)"; return 0 ;;
	esac
	if why=$(idgen_citus_absent "$PG_MAJOR"); then
		skip "${SUITE_PREFIX}citus" 1 "$why"
		return 0
	fi
	if ! { idgen_deps "${IDGEN_CITUS_BUILD_PACKAGES[@]}" && idgen_citus_install; }; then
		record citus 0 1
		return 0
	fi
	t0=$(date +%s)
	prove_suite citus citus
	say "${SUITE_PREFIX}citus: the cluster tests took $(($(date +%s) - t0)) s"
}

# Only what PostgreSQL must find is exported: the SQL-callable functions
# (each has its pg_finfo_ record), _PG_init and the module magic.  Anything
# else, loaded with RTLD_GLOBAL as PostgreSQL 15 does, could clash with
# another library's symbol of the same name.
run_symbols() {
	local so=$IDGEN_BUILD/idgen.so syms extra s p f
	syms=$(nm -D --defined-only "$so" | awk '$2 ~ /^[A-Z]$/ {print $3}' | sort)
	# here-strings, not pipes: grep -q closing a pipe early fails it under pipefail
	extra=$(grep -vE '^(_PG_init|Pg_magic_func|pg_finfo_.+)$' <<<"$syms" |
		while read -r s; do grep -qx "pg_finfo_$s" <<<"$syms" || echo "$s"; done)
	p=$(grep -c '^pg_finfo_' <<<"$syms" || true)
	f=0
	if [ -n "$extra" ]; then
		say "idgen.so exports symbols PostgreSQL does not need:" $extra
		f=1
	fi
	grep -qx _PG_init <<<"$syms" || { say "idgen.so does not export _PG_init"; f=$((f + 1)); }
	grep -qx Pg_magic_func <<<"$syms" || { say "idgen.so does not export Pg_magic_func"; f=$((f + 1)); }
	[ "$p" -gt 0 ] || { say "idgen.so exports no SQL-callable function"; f=$((f + 1)); }
	say "idgen.so exports _PG_init, the magic block and $p SQL-callable functions"
	# one check, however many symbols it looked at
	if [ "$f" -eq 0 ]; then record symbols 1 0; else record symbols 0 1; fi
}

# The benchmark suite at tiny sizes against this major (the tests' build of
# it), so the harness keeps working; its output is checked for form (tables,
# chart), never for timings; doc/performance.md quotes the committed reports.
run_bench() {
	local out=$IDGEN_WORK/bench log=$IDGEN_WORK/bench.log
	if IDGEN_PG_VERSION=$PG_MAJOR IDGEN_BENCH_SCALE=tiny IDGEN_BENCH_OUT=$out IDGEN_KEEP=0 \
		bash "$IDGEN_ROOT/test/bench/bench.sh" >"$log" 2>&1 &&
		bash "$IDGEN_ROOT/test/bench/check.sh" "$out" >>"$log" 2>&1 &&
		python3 "$IDGEN_ROOT/test/bench/quote.py" --check "$IDGEN_ROOT" >>"$log" 2>&1; then
		tail -n 1 "$log"
		record bench 1 0
	else
		tail -n 40 "$log"
		record bench 0 1
	fi
}

# build_step: idgen built with -Werror for the selected server, counted
# as the suite "build"
build_step() {
	say "building against PostgreSQL $PG_LABEL with -Werror"
	if ! idgen_build -Werror >"$IDGEN_WORK/build.log" 2>&1; then
		cat "$IDGEN_WORK/build.log"
		record build 0 1
		return 1
	fi
	cat "$IDGEN_WORK/build.log"
	idgen_say_assertions
	record build 1 0
}

# Build and install for the selected major, then its suites.  A build
# failure counts once and skips the suites that need the build.
run_version() {
	local suite t
	build_step || return 0
	idgen_install
	OPS_BIN[$PG_MAJOR]=$PG_BIN
	BESIDE_STARTED=()
	for suite in "${VERSION_SUITES[@]}"; do
		wanted "$suite" || continue
		if [[ " $IDGEN_BESIDE " == *" $suite "* ]]; then
			SUITE_NOW=$SUITE_PREFIX$suite
			if ! declare -F "${suite}_wanted" >/dev/null || "${suite}_wanted"; then
				say "PostgreSQL $PG_LABEL: $suite, beside the suites that follow"
				beside_start "$suite"
			fi
			continue
		fi
		say "PostgreSQL $PG_LABEL: $suite"
		t=$(date +%s)
		SUITE_NOW=$SUITE_PREFIX$suite
		"run_${suite//-/_}"
		SUITE_TIMES+=("$(($(date +%s) - t)) s pg$PG_LABEL/$suite")
	done
	beside_finish
}

# Every statement of the SQL suites runs under a statement_timeout (the
# sessions' PGOPTIONS), so a call that never returns fails its test, named
# in the diff, instead of holding the run; the longest statement of the
# regression tests takes a few seconds.  A pg_regress run as a whole is
# bounded too (IDGEN_REGRESS_SECONDS): stopped, it counts the tests it did
# not reach as failed.
# (IDGEN_STATEMENT_TIMEOUT and IDGEN_REGRESS_CONF: tools/lib.sh)
IDGEN_REGRESS_SECONDS=${IDGEN_REGRESS_SECONDS:-1800}

# regress_installcheck SUITE [MAKE ARGS]: pg_regress against the running
# cluster (which has IDGEN_REGRESS_CONF), counted against the tests the
# Makefile's REGRESS names for those MAKE ARGS
regress_installcheck() {
	local out=$IDGEN_WORK/$1 rc=0 expected
	mkdir -p "$out"
	expected=$(regress_list WORKER=yes "${@:2}")
	PGOPTIONS="${PGOPTIONS:-} -c statement_timeout=$IDGEN_STATEMENT_TIMEOUT" \
		timeout -k 10 "$IDGEN_REGRESS_SECONDS" make -s -C "$IDGEN_BUILD" PG_CONFIG="$PG_CONFIG" installcheck \
		WORKER=yes "${@:2}" EXTRA_REGRESS_OPTS="--outputdir=$out" >"$out/make.log" 2>&1 || rc=$?
	[ "$rc" -ne 124 ] || echo "pg_regress stopped after $IDGEN_REGRESS_SECONDS s (IDGEN_REGRESS_SECONDS)" >>"$out/make.log"
	record_pg_regress "$1" "$out/make.log" "$out" "$rc" "$expected"
}

# regress_list [MAKE ARGS]: the names in the Makefile's REGRESS for those arguments
regress_list() {
	make -s --no-print-directory -C "$IDGEN_BUILD" PG_CONFIG="$PG_CONFIG" "$@" \
		--eval 'idgen-regress-list: ; @echo $(REGRESS)' idgen-regress-list
}

# record_pg_regress SUITE LOG OUTDIR RC EXPECTED: counts the tests of a
# pg_regress (or pg_isolation_regress) run from its LOG, shows its diffs in
# OUTDIR and, on a failure, the end of the scratch cluster's log.  RC is the
# run's exit status, EXPECTED the names of the tests it was to run: a
# non-zero status fails the suite even when every test read ok, and each
# expected test with no result line in LOG is a failure, named (a run
# killed partway, a test left out).
record_pg_regress() {
	local p f rc=$4 expected=$5 seen missing=() t
	cat "$2"
	[ -f "$3/regression.diffs" ] && cat "$3/regression.diffs"
	# pg_regress 15 prints "test name ... ok", 16 and later "ok 1 - name"
	p=$(grep -cE '^(ok|test) .* ok( |$)|^ok [0-9]+ ' "$2" || true)
	f=$(grep -cE '^not ok [0-9]+ |\.\.\. FAILED|failed \(' "$2" || true)
	seen=" $(sed -nE 's/^(test|     ) *([^ ]+) +\.\.\. +(ok|FAILED|failed).*/\2/p; s/^(not )?ok +[0-9]+ +[-+] +([^ ]+).*/\2/p' "$2" | tr '\n' ' ') "
	for t in $expected; do
		[[ "$seen" == *" $t "* ]] || missing+=("$t")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		say "${SUITE_PREFIX}$1: $(($(wc -w <<<"$expected") - ${#missing[@]})) of $(wc -w <<<"$expected") tests ran; no result for: ${missing[*]}"
		f=$((f + ${#missing[@]}))
	fi
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		say "${SUITE_PREFIX}$1: exited with status $rc"
		f=1
	fi
	[ "$p" -gt 0 ] || [ "$f" -gt 0 ] || f=1
	[ "$f" -eq 0 ] || { echo "== server log"; tail -n 40 "$IDGEN_WORK/server.log"; }
	record "$1" "$p" "$f"
}

run_regress() {
	idgen_cluster_start "${IDGEN_REGRESS_CONF[@]}" || { record regress 0 1; return 0; }
	regress_installcheck regress
	idgen_cluster_stop || record regress-stop 0 1
}

# The same regression tests with every query that can run in a parallel
# worker run in one (the leader only gathers; messages read as without it),
# so a function marked PARALLEL SAFE that depends on its process's state
# gives other results.  The setting is force_parallel_mode up to 15.  The
# hostile database's tests (names and privileges, not plans; the slowest)
# and sqlstates (each SQLSTATE of bad input, which a worker hands back as
# it is; a worker started for each of its thousands of statements) run in
# regress only.
run_regress_parallel() {
	local setting=debug_parallel_query
	[ "$PG_MAJOR" -ge 16 ] || setting=force_parallel_mode
	# a fresh cluster in the same place: the regress suite's stopped one goes
	rm -rf "$IDGEN_WORK/data"
	idgen_cluster_start "${IDGEN_REGRESS_CONF[@]}" "$setting = regress" || { record regress-parallel 0 1; return 0; }
	regress_installcheck regress-parallel HOSTILE= SQLSTATES=
	idgen_cluster_stop || record regress-parallel-stop 0 1
}

# the run's end, however it ends: a run that stops early (set -e, a
# signal) still ends with the summary line, counting the stop as a failure
SUMMARY_DONE=0
# summary [EXIT STATUS]
summary() {
	local rc=${1:-0}
	[ "$SUMMARY_DONE" = 0 ] || return "$rc"
	SUMMARY_DONE=1
	if [ "$rc" -ne 0 ]; then
		say "the run stopped early (exit status $rc${SUITE_NOW:+, in $SUITE_NOW})"
		SUITE_PREFIX= record "${SUITE_NOW:-run}-stopped" 0 1
	fi
	# (a prebuild that only found its servers built by another run writes no such line)
	[ -z "${IDGEN_TOP:-}" ] || [ ! -f "$IDGEN_TOP/prebuild.log" ] || grep '^idgen:' "$IDGEN_TOP/prebuild.log" >&2 || true
	say "results:"
	printf '  %s\n' "${SUMMARY[@]}" >&2
	say "times: ${TIMES[*]}"
	[ ${#SUITE_TIMES[@]} -eq 0 ] || say "slowest suites: $(printf '%s\n' "${SUITE_TIMES[@]}" | sort -rn | head -n 30 | paste -sd, - | sed 's/,/, /g')"
	for n in "${FAILURE_NOTES[@]}"; do say "failed: $n"; done
	[ ${#FAILED_SUITES[@]} -eq 0 ] || say "failing suites: ${FAILED_SUITES[*]}"
	echo "idgen: $PASSED passed, $FAILED failed$([ "$SKIPPED" -eq 0 ] || echo ", $SKIPPED skipped")"
	[ "$FAILED" -eq 0 ]
}
TIMES=()
T0=$(date +%s)
idgen_deps
idgen_locale || true	# portable/002 then fails, saying so
idgen_workdir
IDGEN_AT_EXIT=summary
# libfaketime's shared objects: one pair for the whole run (tools/lib.sh),
# and what /dev/shm had before, which the run must leave as it found it
FAKETIME_BEFORE=$(ls /dev/shm 2>/dev/null | grep faketime_ | sort || true)
DSM_BEFORE=$(ls /dev/shm 2>/dev/null | grep '^PostgreSQL\.' | sort || true)
idgen_faketime_share
TIMES+=("packages: $(($(date +%s) - T0)) s")
T0=$(date +%s)
for v in $IDGEN_PG_VERSIONS; do
	case " $IDGEN_PG_SUPPORTED " in
	*" $v "*) ;;
	*) say "IDGEN_PG_VERSIONS: PostgreSQL $v is not supported (supported: $IDGEN_PG_SUPPORTED)"; exit 2 ;;
	esac
done

declare -A PG_ABSENT=()
# the servers not in the cache yet build while the core's and the first
# major's suites run (most of a TAP test's time is spent waiting), then
# those of the checked suites, which run last
idgen_pg_prebuild $IDGEN_PG_VERSIONS $(checked_servers)

# the core does not depend on PostgreSQL: once, in a build of its own
IDGEN_BUILD=$IDGEN_TOP/core
idgen_copy_tree "$IDGEN_BUILD"
for suite in "${ONCE_SUITES[@]}"; do
	wanted "$suite" || continue
	SUITE_NOW=$suite
	"run_$suite"
done
TIMES+=("core: $(($(date +%s) - T0)) s")

for v in $IDGEN_PG_VERSIONS; do
	t0=$(date +%s)
	SUITE_PREFIX=
	# a major built from a vendored source absent here (a plain clone): its
	# suites are skipped with the reason, as pg_upgrade to it (PG_ABSENT)
	if PG_ABSENT[$v]=$(idgen_pg_absent "$v"); then
		for suite in "${VERSION_SUITES[@]}"; do
			wanted "$suite" && skip "pg$(idgen_pg_label "$v")/$suite" 1 "${PG_ABSENT[$v]}"
		done
		continue
	fi
	unset "PG_ABSENT[$v]"
	if ! idgen_pg_select "$v"; then
		# no server for this major: every suite it would have run fails, so none vanishes
		SUITE_PREFIX=pg$(idgen_pg_label "$v")/
		record server 0 1
		record build 0 1
		for suite in "${VERSION_SUITES[@]}"; do
			wanted "$suite" && record "$suite" 0 1
		done
		TIMES+=("pg$(idgen_pg_label "$v"): $(($(date +%s) - t0)) s")
		continue
	fi
	SUITE_PREFIX=pg$PG_LABEL/
	t1=$(date +%s)
	run_version
	# the server's own build (or its reuse from the cache), then the suites
	TIMES+=("pg$PG_LABEL: $((t1 - t0)) s server + $(($(date +%s) - t1)) s suites")
done

# after every major: pg_upgrade between them (test/ops/pgupgrade.sh)
SUITE_PREFIX=
if wanted pgupgrade; then
	t0=$(date +%s)
	SUITE_NOW=pgupgrade
	run_pgupgrade
	TIMES+=("pgupgrade: $(($(date +%s) - t0)) s")
fi

# last: the suites on server builds of their own (test/checked/run.sh)
run_checked

# Nothing left in /dev/shm.  libfaketime's: every process that preloaded it
# shared the run's pair, which goes now.  PostgreSQL's dynamic shared memory
# segments (PostgreSQL.N): a server removes its own as it stops, even in
# immediate mode, but not when it is killed (the crash tests' SIGKILL of a
# postmaster, Patroni's of a node); those the run made that no process maps
# any more are removed here, and counted.
SUITE_PREFIX= SUITE_NOW=leftovers
idgen_faketime_unshare
left=$(comm -13 <(printf '%s\n' "$FAKETIME_BEFORE") <(ls /dev/shm 2>/dev/null | grep faketime_ | sort || true) | grep . || true)
mapped=$(cat /proc/[0-9]*/maps 2>/dev/null | grep -o '/dev/shm/PostgreSQL\.[0-9]*' | sed 's|^/dev/shm/||' | sort -u || true)
dsm=0
for f in $(comm -13 <(printf '%s\n' "$DSM_BEFORE") <(ls /dev/shm 2>/dev/null | grep '^PostgreSQL\.' | sort || true)); do
	grep -qxF "$f" <<<"$mapped" && continue
	rm -f "/dev/shm/$f" && dsm=$((dsm + 1))
done
[ "$dsm" -eq 0 ] || say "leftovers: removed $dsm dynamic shared memory segments of servers killed during the run"
if [ -z "$left" ]; then
	record leftovers 1 0
else
	record leftovers 0 1
	FAILURE_NOTES+=("leftovers: libfaketime's objects the run left in /dev/shm: $(echo $left)")
fi

summary
