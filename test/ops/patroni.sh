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

# patroni_wanted: false, counted as skipped, on a major not in
# IDGEN_PATRONI_MAJORS
patroni_wanted() {
	if [[ " $IDGEN_PATRONI_MAJORS " != *" $PG_MAJOR "* ]]; then
		skip "${SUITE_PREFIX}patroni" 1 "not in IDGEN_PATRONI_MAJORS ($IDGEN_PATRONI_MAJORS)"
		return 1
	fi
}

# beside_run_patroni: the test, its exit status in patroni.rc (tools/test.sh
# runs it beside the major's other suites: it mostly waits for failovers);
# beside_count_patroni counts it
beside_run_patroni() {
	local dir=$IDGEN_WORK/patroni rc=0 args
	args=${IDGEN_PATRONI_ARGS:-}
	if [ -z "$args" ] && [[ " $IDGEN_PATRONI_FULL " != *" $PG_MAJOR "* ]]; then
		args="--switchovers 2 --failovers 2"
	fi
	as_server rm -rf "$dir"
	as_server mkdir -p "$dir"
	# shellcheck disable=SC2086
	/usr/bin/python3 "$IDGEN_ROOT/test/ops/patroni_test.py" "$PG_BIN" "$dir" $args \
		>"$dir/test.log" 2>&1 || rc=$?
	echo "$rc" >"$IDGEN_WORK/patroni.rc"
}
beside_count_patroni() {
	local dir=$IDGEN_WORK/patroni f
	ops_record patroni "$dir/test.log" "$(cat "$IDGEN_WORK/patroni.rc" 2>/dev/null || echo 1)"
	if [ "$OPS_FAIL_LAST" -gt 0 ]; then
		# (none where it failed before starting a node)
		for f in "$dir"/node*.log; do if [ -f "$f" ]; then echo "== $f"; tail -n 40 "$f"; fi; done
	elif [ "${IDGEN_KEEP:-0}" != 1 ]; then
		as_server rm -rf "$dir"
	fi
	return 0
}

run_patroni() {
	patroni_wanted || return 0
	rm -f "$IDGEN_WORK/patroni.rc"
	beside_run_patroni
	beside_count_patroni
}
