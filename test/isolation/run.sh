# The isolation suite of tools/test.sh (sourced by it): the specs in specs/
# (isolationtester, as PostgreSQL and Citus use it: steps of several sessions
# in a fixed order, expected output in expected/<spec>.out), run with
# pg_isolation_regress against a scratch cluster with idgen preloaded and a
# worker id.  Kept out of the Makefile's ISOLATION so that `make installcheck`
# (the regress suite, the Debian autopkgtest) runs the regression tests only.
#
# base36id_sync*.spec set synchronous_standby_names, under which every
# commit would wait: they run last.
#
# The server runs under libfaketime, its clock read from the file
# faketime.rc of its data directory (absent: the true time): a spec that
# needs a second's 1,296 ids within one second of the clock holds the clock
# still there, however slow the machine (COPY TO PROGRAM from SQL: the file
# written whole, then renamed into place).  The specs run programs through
# regress.program (test/program.sql), loaded into their database first.

run_isolation() {
	local out=$IDGEN_WORK/isolation log specs=() last=() s rc=0
	for s in "$IDGEN_BUILD"/specs/*.spec; do
		s=$(basename "$s" .spec)
		case $s in base36id_sync*) last+=("$s") ;; *) specs+=("$s") ;; esac
	done
	specs+=(${last[@]+"${last[@]}"})
	mkdir -p "$out"
	log=$out/isolation.log
	# a cluster of its own: the regress suite's may still be there
	as_server rm -rf "$IDGEN_WORK/data"
	local IDGEN_SERVER_ENV=(TZ=UTC "LD_PRELOAD=$(ls /usr/lib/*/faketime/libfaketime.so.1 | head -n 1)"
		"FAKETIME_TIMESTAMP_FILE=$IDGEN_WORK/data/faketime.rc" FAKETIME_NO_CACHE=1 FAKETIME_DONT_FAKE_MONOTONIC=1)
	if ! idgen_cluster_start "idgen.worker_id = 7"; then
		record isolation 0 1
		return 0
	fi
	# pg_regress and isolationtester connect through PGHOST/PGPORT/PGUSER
	if idgen_psql -d postgres -c 'CREATE DATABASE idgen_isolation' &&
		idgen_psql -d idgen_isolation -c 'CREATE SCHEMA regress' \
			-f "$IDGEN_BUILD/test/program.sql" >/dev/null; then
		# every statement under the suites' statement_timeout, the run
		# under the bound of a pg_regress run (tools/test.sh)
		PGOPTIONS="${PGOPTIONS:-} -c statement_timeout=$IDGEN_STATEMENT_TIMEOUT" \
			timeout -k 10 "$IDGEN_REGRESS_SECONDS" "$PGXS_DIR/src/test/isolation/pg_isolation_regress" \
			--bindir="$PG_BIN" --inputdir="$IDGEN_BUILD" --outputdir="$out" \
			--use-existing --dbname=idgen_isolation "${specs[@]}" >"$log" 2>&1 || rc=$?
	else
		echo "could not make database idgen_isolation" >"$log"
		rc=1
	fi
	idgen_cluster_stop
	as_server rm -rf "$IDGEN_WORK/data"
	record_pg_regress isolation "$log" "$out" "$rc" "${specs[*]}"
}
