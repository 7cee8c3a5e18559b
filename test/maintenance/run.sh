# test/maintenance/run.sh — sourced by tools/test.sh after tools/lib.sh and
# test/ops/common.sh: online maintenance of tables keyed by idgen's types
# (doc/production.md#online-maintenance).
#
# run_maintenance (per major): a scratch cluster (idgen preloaded,
# idgen.worker_id = 1, Unix socket only) and test/maintenance/maintenance.py
# (its docstring says what it checks): pg_repack, where the server has it
# (Debian packages the extension and its client for 15 only:
# postgresql-15-repack), REINDEX TABLE CONCURRENTLY and CLUSTER, each while
# two sessions insert, update (the key included) and delete rows.  The
# server stops on every way out of the suite.

run_maintenance() {
	ops_subshell_suite maintenance maintenance_checks
}

# in a subshell of its own: its trap stops the server however it ends
maintenance_checks() {
	local IDGEN_WORK=$IDGEN_WORK/maintenance repack=0
	# expanded now: IDGEN_WORK is local, gone when the trap runs
	trap "ops_stop_running '$IDGEN_WORK/data'" EXIT
	as_server rm -rf "$IDGEN_WORK"
	mkdir -p "$IDGEN_WORK"
	[ "$(id -u)" -eq 0 ] && chown "$SERVER_USER" "$IDGEN_WORK"
	[ -f "$("$PG_BIN/pg_config" --pkglibdir)/pg_repack.so" ] && [ -x "$PG_BIN/pg_repack" ] && repack=1
	idgen_cluster_start "idgen.worker_id = 1" || return 1
	MAINT_REPACK=$repack PG_BIN=$PG_BIN /usr/bin/python3 "$IDGEN_BUILD/test/maintenance/maintenance.py"
}
