# test/checked/run.sh — sourced by tools/test.sh after tools/lib.sh.
#
# Suites on server builds of their own (tools/pgbuild.sh's variants of a
# major), run once after every major's suites:
#
#   sanitizer     PostgreSQL 17 and idgen built with AddressSanitizer and
#                 UndefinedBehaviorSanitizer (-fsanitize=address,undefined
#                 -fno-sanitize-recover=all) and assertions: the regression
#                 suite and the TAP tests of base36id, concurrency and key
#                 files; any sanitizer report fails it.
#   exec-backend  PostgreSQL 17 built with EXEC_BACKEND (every child process
#                 re-executes the server binary and attaches shared memory
#                 anew, as on Windows) and assertions: the regression suite
#                 with idgen preloaded.
#
# A suite runs when its server's major is in IDGEN_PG_VERSIONS.

# in the order their servers are built: the cheaper first
CHECKED_SUITES=(exec-backend sanitizer)
declare -A CHECKED_SERVER=([sanitizer]=17-asan [exec-backend]=17-exec)
# the TAP tests of the sanitizer run: iuid under concurrent backends,
# base36id (its generator, a clock going back, a restart, its state file,
# callers in line for the budget, cancelled and exiting; its judgement of
# synchronous standbys from the walsenders' shared state; a statement that
# began with no synchronous standby named, held at an injection point: the
# only server where idgen's points compile as 17 names them),
# public ids from key files.  Not 007 (distid): its bound on how far an id's
# time may lag the clock (1 s + 100 ms) failed once at the sanitizers'
# speed on a loaded machine, a timing check and not what this run is for.
IDGEN_SANITIZER_TAP=${IDGEN_SANITIZER_TAP:-t/001_iuid_concurrency.pl t/004_base36id.pl t/005_base36id_clock_back.pl t/006_base36id_restart.pl t/012_public_id_keys.pl t/017_base36id_state_file.pl t/036_base36id_sync_now.pl t/044_base36id_line.pl t/045_base36id_inject_names.pl t/049_base36id_mixed_reload.pl t/050_base36id_apply_reply.pl t/052_base36id_wait_alone.pl}

# checked_servers: the servers the wanted checked suites need
checked_servers() {
	local s
	for s in "${CHECKED_SUITES[@]}"; do
		wanted "$s" && [[ " $IDGEN_PG_VERSIONS " == *" ${CHECKED_SERVER[$s]%%-*} "* ]] &&
			echo "${CHECKED_SERVER[$s]}"
	done
	return 0
}

# run_checked: every wanted checked suite on its server, with idgen built
# and installed for it
run_checked() {
	local s server t0 reason
	for s in "${CHECKED_SUITES[@]}"; do
		wanted "$s" || continue
		server=${CHECKED_SERVER[$s]}
		SUITE_PREFIX=
		if [[ " $IDGEN_PG_VERSIONS " != *" ${server%%-*} "* ]]; then
			skip "$s" 1 "its server is PostgreSQL ${server%%-*}, not in IDGEN_PG_VERSIONS"
			continue
		fi
		t0=$(date +%s)
		SUITE_NOW=$s
		if reason=$(idgen_pg_absent "$server"); then
			skip "$s" 1 "$reason"
			continue
		fi
		if ! idgen_pg_select "$server"; then
			SUITE_PREFIX=pg$server/
			record server 0 1
			record "$s" 0 1
			continue
		fi
		SUITE_PREFIX=pg$server/
		if checked_build; then
			say "PostgreSQL $server: $s"
			"run_${s//-/_}"
		else
			record "$s" 0 1
		fi
		TIMES+=("$s: $(($(date +%s) - t0)) s")
	done
	SUITE_PREFIX=
}

# checked_build: idgen built (with the server's own CFLAGS, so with its
# sanitizers) and installed for the selected server
checked_build() {
	build_step && idgen_install
}

# The sanitizers' options: reports into files of $1 (any process: server,
# psql, initdb), and in the output too (the server's log).  detect_leaks=0:
# PostgreSQL leaves memory to process exit by design (PostgreSQL's CI runs so
# too); verify_asan_link_order=0: the base36id tests preload libfaketime.
sanitizer_env() {
	export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:print_stacktrace=1:disable_coredump=1:verify_asan_link_order=0:log_path=$1/asan"
	export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1:log_path=$1/ubsan"
}

SANITIZER_REPORT='ERROR: AddressSanitizer|runtime error:|ERROR: LeakSanitizer|detected write past chunk end|problem in alloc set|TRAP:'
run_sanitizer() {
	local reports=$IDGEN_WORK/sanitizer-reports n p=0 f=0 logs r
	as_server mkdir -p "$reports"
	sanitizer_env "$reports"
	if idgen_cluster_start "${IDGEN_REGRESS_CONF[@]}"; then
		regress_installcheck sanitizer-regress
		idgen_cluster_stop || true
	else
		record sanitizer-regress 0 1
	fi
	prove_suite sanitizer-tap t "$IDGEN_SANITIZER_TAP"
	export ASAN_OPTIONS=detect_leaks=0
	unset UBSAN_OPTIONS
	# every report: the report files, and any that reached a log
	logs=$(find "$IDGEN_WORK" -name '*.log' -o -name 'regression.diffs' -o -name 'regress_log_*' | sort)
	n=$(find "$reports" -type f | wc -l)
	if [ "$n" -gt 0 ]; then
		f=1
		for r in "$reports"/*; do echo "== $r"; head -n 60 "$r"; done
	fi
	# ASan does not see inside palloc's chunks; assertions' memory-context
	# checks do, and warn of a write past a chunk's end
	if [ -n "$logs" ] && grep -l -E "$SANITIZER_REPORT" $logs; then
		f=1
		grep -h -A 20 -E "$SANITIZER_REPORT" $logs | head -n 80
	fi
	say "${SUITE_PREFIX}sanitizer: $n sanitizer report file(s)"
	if [ "$f" -eq 0 ]; then p=1; fi
	record sanitizer "$p" "$f"
}

# exec-backend: a regression run with idgen preloaded; the server must also
# have stayed up (no child crashed in its shared-memory start-up).  First a
# control: idgen not preloaded, CREATE EXTENSION and a call work.
run_exec_backend() {
	local f=0
	# the control: the server alone starts and answers (else the build is at fault)
	if idgen_cluster_start "shared_preload_libraries = ''" &&
		idgen_psql -c "CREATE EXTENSION idgen" -c "SELECT distid_timestamp('1088824355131185736905670087')" >/dev/null; then
		idgen_cluster_stop
		record exec-backend-control 1 0
	else
		tail -n 20 "$IDGEN_WORK/server.log"
		record exec-backend-control 0 1
	fi
	[ ! -f "$PGDATA/postmaster.pid" ] || as_server "$PG_BIN/pg_ctl" -D "$PGDATA" -m immediate stop >/dev/null 2>&1 || true
	as_server rm -rf "$PGDATA"
	mv "$IDGEN_WORK/server.log" "$IDGEN_WORK/server-control.log"
	if ! idgen_cluster_start "${IDGEN_REGRESS_CONF[@]}"; then
		record exec-backend 0 1
		return 0
	fi
	regress_installcheck exec-backend-regress
	if grep -E 'terminated by signal|was terminated|ShmemIndex entry size is wrong|TRAP:' "$IDGEN_WORK/server.log"; then
		f=1
	fi
	idgen_cluster_stop || f=1
	if [ "$f" -eq 0 ]; then record exec-backend 1 0; else record exec-backend 0 1; fi
}
