# test/sqlsmith/run.sh: the suite "sqlsmith" of tools/test.sh (sourced by
# it): a short random-SQL run against every idgen type (test/sqlsmith/
# common.sh), bounded by a query count; a time bound far beyond what the
# count takes is only a safety net (a run it cuts short of the count fails),
# so a loaded machine makes the run slower, not smaller.
# test/sqlsmith/long.sh is the same for long runs.
source "$IDGEN_ROOT/test/sqlsmith/common.sh"

# IDGEN_SQLSMITH_QUERIES, IDGEN_SQLSMITH_SECONDS: the bounds; IDGEN_SQLSMITH_SEED:
# sqlsmith's seed (fixed, so every run makes much the same choices; the
# catalog's order and the ids and times differ)
run_sqlsmith() {
	local out=$IDGEN_WORK/sqlsmith rc=0 f=0
	if ! command -v sqlsmith >/dev/null; then
		say "sqlsmith is not installed"
		record sqlsmith 0 1
		return 0
	fi
	mkdir -p "$out"
	if ! sqlsmith_cluster_start; then
		# why: a crash while the rows were made, most likely
		grep -E 'TRAP:|\(PID [0-9]+\) (was terminated|exited)|ERROR:' "$IDGEN_WORK/server.log" | head -n 5 >&2 || true
		[ ! -f "$PGDATA/postmaster.pid" ] || idgen_cluster_stop || true
		record sqlsmith 0 1
		return 0
	fi
	local queries=${IDGEN_SQLSMITH_QUERIES:-2000} t0=$SECONDS
	say "${SUITE_PREFIX}sqlsmith: seed ${IDGEN_SQLSMITH_SEED:-1}, $queries queries (or ${IDGEN_SQLSMITH_SECONDS:-900} s)"
	sqlsmith_run "${IDGEN_SQLSMITH_SECONDS:-900}" "$queries" "${IDGEN_SQLSMITH_SEED:-1}" "$out/run" || rc=$?
	say "${SUITE_PREFIX}sqlsmith: $(sed -n 's/^queries //p' "$out/run.stats" 2>/dev/null) queries in $((SECONDS - t0)) s"
	# 124: the time bound ended it; fewer queries than asked then fail below
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; then
		say "sqlsmith exited with $rc:"
		tail -n 20 "$out/run.err" >&2
		f=1
	fi
	# all the queries asked (when the time bound ended it early, fewer: a failure)
	sqlsmith_verdict "$out/run" "$queries" 100 || f=1
	idgen_cluster_stop || f=1
	if [ "$f" -eq 0 ]; then record sqlsmith 1 0; else record sqlsmith 0 1; fi
}
