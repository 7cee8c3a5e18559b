# test/ops/patroni.sh — sourced by tools/test.sh.
#
# run_patroni: idgen under Patroni (Debian 12's patroni 3.0.2 with its
# built-in Raft store, python3-pysyncobj): test/ops/patroni_test.py, three
# nodes on loopback, 10 switchovers and 10 failovers under clients of every
# type.  Patroni 3.0.2 came out before PostgreSQL 16 and knows the settings of
# 15 and older, and the loop takes minutes: it runs on 15 only
# (IDGEN_PATRONI_MAJORS), skipped elsewhere.  IDGEN_PATRONI_ARGS passes
# options (e.g. "--switchovers 2 --failovers 2").

IDGEN_PATRONI_MAJORS=${IDGEN_PATRONI_MAJORS:-15}

run_patroni() {
	local dir=$IDGEN_WORK/patroni rc=0
	if [[ " $IDGEN_PATRONI_MAJORS " != *" $PG_MAJOR "* ]]; then
		skip "${SUITE_PREFIX}patroni" 1 "Patroni $(patroni --version 2>/dev/null | sed 's/^patroni //') runs on PostgreSQL $IDGEN_PATRONI_MAJORS here (IDGEN_PATRONI_MAJORS)"
		return 0
	fi
	as_server rm -rf "$dir"
	as_server mkdir -p "$dir"
	# shellcheck disable=SC2086
	/usr/bin/python3 "$IDGEN_ROOT/test/ops/patroni_test.py" "$PG_BIN" "$dir" \
		${IDGEN_PATRONI_ARGS:-} >"$dir/test.log" 2>&1 || rc=$?
	ops_record patroni "$dir/test.log" "$rc"
	if [ "$OPS_FAIL_LAST" -gt 0 ]; then
		for f in "$dir"/node*.log; do echo "== $f"; tail -n 40 "$f"; done
	elif [ "${IDGEN_KEEP:-0}" != 1 ]; then
		as_server rm -rf "$dir"
	fi
	return 0
}
