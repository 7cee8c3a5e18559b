# test/sqlsmith/run.sh: the suite "sqlsmith" of tools/test.sh (sourced by
# it): a short random-SQL run against every idgen type (test/sqlsmith/
# common.sh), bounded by a query count and a time, whichever comes first.
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
	say "${SUITE_PREFIX}sqlsmith: seed ${IDGEN_SQLSMITH_SEED:-1}, at most ${IDGEN_SQLSMITH_QUERIES:-3000} queries or ${IDGEN_SQLSMITH_SECONDS:-45} s"
	sqlsmith_run "${IDGEN_SQLSMITH_SECONDS:-45}" "${IDGEN_SQLSMITH_QUERIES:-3000}" \
		"${IDGEN_SQLSMITH_SEED:-1}" "$out/run" || rc=$?
	# 124: the time bound ended it, which is fine
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; then
		say "sqlsmith exited with $rc:"
		tail -n 20 "$out/run.err" >&2
		f=1
	fi
	sqlsmith_verdict "$out/run" 500 100 || f=1
	idgen_cluster_stop || f=1
	if [ "$f" -eq 0 ]; then record sqlsmith 1 0; else record sqlsmith 0 1; fi
}
