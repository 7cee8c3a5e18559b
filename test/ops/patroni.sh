# test/ops/patroni.sh — sourced by tools/test.sh.
#
# run_patroni: idgen under Patroni (Debian 12's patroni 3.0.2 with its
# built-in Raft store, python3-pysyncobj): test/ops/patroni_test.py, three
# nodes on loopback, switchovers and failovers under clients of every type.
# The full loop (10 switchovers, 10 failovers: minutes) runs on the majors in
# IDGEN_PATRONI_FULL (15, Debian's own), a short one (2 and 2) on the other
# majors of IDGEN_PATRONI_MAJORS; IDGEN_PATRONI_ARGS replaces both (e.g.
# "--switchovers 2 --failovers 2").

IDGEN_PATRONI_MAJORS=${IDGEN_PATRONI_MAJORS:-15 17 18 19}
IDGEN_PATRONI_FULL=${IDGEN_PATRONI_FULL:-15}

run_patroni() {
	local dir=$IDGEN_WORK/patroni rc=0 args f
	if [[ " $IDGEN_PATRONI_MAJORS " != *" $PG_MAJOR "* ]]; then
		skip "${SUITE_PREFIX}patroni" 1 "not in IDGEN_PATRONI_MAJORS ($IDGEN_PATRONI_MAJORS)"
		return 0
	fi
	args=${IDGEN_PATRONI_ARGS:-}
	if [ -z "$args" ] && [[ " $IDGEN_PATRONI_FULL " != *" $PG_MAJOR "* ]]; then
		args="--switchovers 2 --failovers 2"
	fi
	as_server rm -rf "$dir"
	as_server mkdir -p "$dir"
	# shellcheck disable=SC2086
	/usr/bin/python3 "$IDGEN_ROOT/test/ops/patroni_test.py" "$PG_BIN" "$dir" $args \
		>"$dir/test.log" 2>&1 || rc=$?
	ops_record patroni "$dir/test.log" "$rc"
	if [ "$OPS_FAIL_LAST" -gt 0 ]; then
		for f in "$dir"/node*.log; do echo "== $f"; tail -n 40 "$f"; done
	elif [ "${IDGEN_KEEP:-0}" != 1 ]; then
		as_server rm -rf "$dir"
	fi
	return 0
}
