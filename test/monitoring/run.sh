# test/monitoring/run.sh — sourced by tools/test.sh after tools/lib.sh.
#
# run_exporter (per major): monitoring/ where operators look.  promtool
# (Debian's prometheus package) checks the alerting rules
# (monitoring/idgen-alerts.yml) and runs their unit tests
# (idgen-alerts.test.yml); then Debian's prometheus-postgres-exporter runs
# with monitoring/postgres_exporter.yml against a scratch server with idgen
# preloaded and its clock under libfaketime, and exporter_test.py compares
# every metric it serves on loopback with the views (its docstring says
# what it checks).

run_exporter() {
	local dir=$IDGEN_WORK/exporter rc offset
	mkdir -p "$dir"
	rc=0
	promtool check rules "$IDGEN_BUILD/monitoring/idgen-alerts.yml" >"$dir/promtool-check.log" 2>&1 || rc=$?
	cat "$dir/promtool-check.log"
	if [ $rc -eq 0 ]; then record promtool-check 1 0; else record promtool-check 0 1; fi
	rc=0
	(cd "$IDGEN_BUILD/monitoring" && promtool test rules idgen-alerts.test.yml) >"$dir/promtool-test.log" 2>&1 || rc=$?
	cat "$dir/promtool-test.log"
	if [ $rc -eq 0 ]; then record promtool-test 1 0; else record promtool-test 0 1; fi

	# the server's clock is the offset file's (libfaketime), moved by the test
	chown "$SERVER_USER" "$dir"
	offset=$dir/clock_offset
	as_server sh -c "echo +0 >'$offset'"
	as_server rm -rf "$IDGEN_WORK/data"
	local IDGEN_SERVER_ENV=("LD_PRELOAD=$(ls /usr/lib/*/faketime/libfaketime.so.1 | head -n 1)"
		"FAKETIME_TIMESTAMP_FILE=$offset" FAKETIME_NO_CACHE=1 FAKETIME_DONT_FAKE_MONOTONIC=1)
	if ! idgen_cluster_start "idgen.worker_id = 4"; then
		record exporter 0 1
		return 0
	fi
	rc=0
	/usr/bin/python3 "$IDGEN_BUILD/test/monitoring/exporter_test.py" /usr/bin/prometheus-postgres-exporter \
		"$IDGEN_BUILD/monitoring/postgres_exporter.yml" "$IDGEN_BUILD/monitoring/idgen-alerts.yml" \
		"host=$PGHOST port=$PGPORT user=postgres dbname=postgres" \
		"host=$PGHOST port=$PGPORT user=idgen_monitor dbname=postgres sslmode=disable" \
		"$offset" >"$dir/test.log" 2>&1 || rc=$?
	record_log exporter "$dir/test.log" $rc
	if grep -q '^not ok' "$dir/test.log"; then echo "== the exporter's log"; tail -n 20 "$dir/exporter.log"; fi
	idgen_cluster_stop
	as_server rm -rf "$IDGEN_WORK/data"
}
