# test/ops/autofailover.sh — sourced by tools/test.sh.
#
# run_pgautofailover: base36id under pg_auto_failover (Debian 12's
# pg_autoctl 2.0, postgresql-15-auto-failover): test/ops/autofailover_test.py,
# a monitor, a primary and a standby on loopback, a switchover and a failover
# (kill -9 of the primary's pg_autoctl and postgres) under clients generating
# base36ids; IDGEN_AUTOFAILOVER_ARGS replaces the counts (e.g.
# "--switchovers 2 --failovers 2").  The monitor needs the pgautofailover
# extension in the run's tree: Debian packages it for PostgreSQL 15 only, so
# the suite is skipped on other majors.

run_pgautofailover() {
	local dir=$IDGEN_WORK/pgautofailover rc=0 f
	if [ ! -f "$("$PG_BIN/pg_config" --pkglibdir)/pgautofailover.so" ] || ! command -v pg_autoctl >/dev/null; then
		skip "${SUITE_PREFIX}pgautofailover" 1 "no pg_auto_failover for PostgreSQL $PG_LABEL (Debian packages it for 15 only: postgresql-15-auto-failover)"
		return 0
	fi
	as_server rm -rf "$dir"
	as_server mkdir -p "$dir"
	# shellcheck disable=SC2086
	/usr/bin/python3 "$IDGEN_ROOT/test/ops/autofailover_test.py" "$PG_BIN" "$dir" ${IDGEN_AUTOFAILOVER_ARGS:-} \
		>"$dir/test.log" 2>&1 || rc=$?
	ops_record pgautofailover "$dir/test.log" "$rc"
	if [ "$OPS_FAIL_LAST" -gt 0 ]; then
		for f in "$dir"/*.log; do [ "$f" = "$dir/test.log" ] || { echo "== $f"; tail -n 40 "$f"; }; done
	elif [ "${IDGEN_KEEP:-0}" != 1 ]; then
		as_server rm -rf "$dir"
	fi
	return 0
}
