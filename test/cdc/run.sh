# test/cdc/run.sh — sourced by tools/test.sh after tools/lib.sh and
# test/ops/common.sh: change data capture of idgen's ids (doc/cdc.md).
#
# run_cdc (per major): a publisher (wal_level = logical, idgen preloaded,
# idgen.worker_id = 1) and a subscriber without idgen, both on Unix sockets
# of the scratch directory only; test/cdc/cdc.py, a consumer written with
# psycopg2's logical replication support, streams a table keyed by each
# idgen type and by each core-type column of the SQL edition through
# wal2json (format-version 1 and 2; Debian packages it for 15 only:
# postgresql-15-wal2json) and pgoutput in text and binary mode, and
# decodes every id by the formats' own rules (its docstring says what it
# checks); then a text and a binary subscription of the subscriber; then
# test/cdc/cases.py (its docstring): ids in core-typed columns read by a
# consumer of core types only, REPLICA IDENTITY USING INDEX, a composite
# key, publish_via_partition_root, TRUNCATE, pgoutput's streaming protocols
# (the publisher's logical_decoding_work_mem at its least, 64kB).  What the
# server or the machine lacks is counted as skipped ("skip: N WHY" lines).
# Both servers stop on every way out of the suite.

run_cdc() {
	local n why
	ops_subshell_suite cdc cdc_checks
	# what the server or the machine lacks (cdc.py's "skip: N WHY" lines), counted as skipped
	while read -r n why; do
		skip "${SUITE_PREFIX}cdc" "$n" "$why"
	done < <(sed -n 's/^skip: //p' "$IDGEN_WORK/cdc.log")
}

# in a subshell of its own: its trap stops the servers however it ends
cdc_checks() {
	local IDGEN_WORK=$IDGEN_WORK/cdc wal2json=0 plugins=()
	# expanded now: IDGEN_WORK is local, gone when the trap runs
	trap "ops_stop_running '$IDGEN_WORK/data' '$IDGEN_WORK/sub/data'" EXIT
	as_server rm -rf "$IDGEN_WORK"
	mkdir -p "$IDGEN_WORK/sub"
	[ "$(id -u)" -eq 0 ] && chown -R "$SERVER_USER" "$IDGEN_WORK"
	[ -f "$("$PG_BIN/pg_config" --pkglibdir)/wal2json.so" ] && wal2json=1
	# a server that has output_plugin_libraries (15.20, 17.11 and later
	# minors) refuses other plugins than pgoutput and test_decoding unless listed
	if [ "$wal2json" = 1 ] &&
		grep -q '^output_plugin_libraries' <<<"$(as_server "$PG_BIN/postgres" --describe-config 2>/dev/null)"; then
		plugins=("output_plugin_libraries = 'pgoutput, wal2json'")
	fi
	# the subscriber: idgen not loaded, not created
	(IDGEN_WORK=$IDGEN_WORK/sub idgen_cluster_start "shared_preload_libraries = ''" \
		"port = 5440" "max_logical_replication_workers = 8" "wal_retrieve_retry_interval = '200ms'") || return 1
	# logical_decoding_work_mem at its least: cases.py's large transactions are streamed
	idgen_cluster_start "wal_level = logical" "idgen.worker_id = 1" "max_replication_slots = 16" \
		"max_wal_senders = 16" "logical_decoding_work_mem = 64kB" ${plugins[@]+"${plugins[@]}"} || return 1
	CDC_WAL2JSON=$wal2json CDC_PG_LABEL=$PG_LABEL CDC_SUB_HOST=$IDGEN_WORK/sub/sock CDC_SUB_PORT=5440 \
		CDC_SUB_LOG=$IDGEN_WORK/sub/server.log /usr/bin/python3 "$IDGEN_BUILD/test/cdc/cdc.py"
}
