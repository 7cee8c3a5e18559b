#!/usr/bin/env bash
# What marking the keyless public id functions PARALLEL RESTRICTED costs: the
# same queries with the functions marked SAFE (computed in the workers) and
# RESTRICTED (computed in the leader, above the Gather), and serial for
# reference; the median of ROUNDS runs of each, in ms of EXPLAIN ANALYZE's
# execution time.
#
#   bash test/bench/public_id_parallel.sh            2,000,000 rows, 2 workers, 3 rounds
#   ROWS=3000000 WORKERS=2 ROUNDS=5 bash test/bench/public_id_parallel.sh
#
# The server is the one tools/lib.sh selects (IDGEN_PG_VERSION), JIT off.
source "$(dirname "$0")/../../tools/lib.sh"

ROWS=${ROWS:-2000000}
WORKERS=${WORKERS:-2}
ROUNDS=${ROUNDS:-3}
KEYLESS=("public_id(bigint)" "public_id(distid)" "public_id(uuid)" "public_id(iuid)"
	"public_id_to_bigint(uuid)" "public_id_to_distid(uuid)" "public_id_to_uuid(uuid)")
QUERIES=("encode|SELECT count(*) FROM big WHERE public_id(id) < '80000000-0000-0000-0000-000000000000'"
	"decode|SELECT count(*) FROM big WHERE public_id_to_bigint(pub) = id"
	"encode 1 % of the rows|SELECT count(public_id(id)) FROM big WHERE id % 100 = 7"
	"GROUP BY a public id|SELECT public_id(42 + id % 1), count(*) FROM big GROUP BY 1"
	"scan only|SELECT count(*) FROM big WHERE id % 7 = 3")

idgen_deps
idgen_workdir
idgen_build
idgen_install
head -c 32 /dev/urandom | base64 | as_server tee "$IDGEN_WORK/public_id.keys" >/dev/null
chmod 0600 "$IDGEN_WORK/public_id.keys"
idgen_cluster_start "jit = off" "shared_buffers = 512MB" \
	"idgen.public_id_key_file = '$IDGEN_WORK/public_id.keys'"
idgen_psql -c "CREATE EXTENSION idgen" \
	-c "CREATE TABLE big AS SELECT g::bigint AS id, public_id(g::bigint) AS pub FROM generate_series(1, $ROWS) g" \
	-c "VACUUM ANALYZE big"
# the table in shared buffers before the first timing
idgen_psql -c "SELECT count(*) FROM big" >/dev/null

# mark SAFE|RESTRICTED
mark() {
	local f
	for f in "${KEYLESS[@]}"; do idgen_psql -c "ALTER FUNCTION $f PARALLEL $1"; done
}

# ms WORKERS SQL: execution time of one run, in ms
ms() {
	idgen_psql -At -c "SET max_parallel_workers_per_gather = $1" \
		-c "EXPLAIN (ANALYZE, FORMAT JSON) $2" |
		sed -n 's/.*"Execution Time": \([0-9.]*\).*/\1/p'
}

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

echo "| query | serial | parallel, SAFE | parallel, RESTRICTED | plan with RESTRICTED |"
echo "|---|---|---|---|---|"
for q in "${QUERIES[@]}"; do
	name=${q%%|*} sql=${q#*|}
	declare -A t=()
	for round in $(seq 1 "$ROUNDS"); do
		t[serial]+="$(ms 0 "$sql") "
		mark SAFE
		t[safe]+="$(ms "$WORKERS" "$sql") "
		mark RESTRICTED
		t[restricted]+="$(ms "$WORKERS" "$sql") "
	done
	plan=$(idgen_psql -At -c "SET max_parallel_workers_per_gather = $WORKERS" \
		-c "EXPLAIN (COSTS OFF) $sql" | sed -n 's/^ *\(->  \)\{0,1\}\([A-Z][A-Za-z ]*\).*/\2/p' |
		paste -sd '<' | sed 's/ *</ < /g')
	echo "| $name | $(tr ' ' '\n' <<<"${t[serial]}" | grep . | median) ms" \
		"| $(tr ' ' '\n' <<<"${t[safe]}" | grep . | median) ms" \
		"| $(tr ' ' '\n' <<<"${t[restricted]}" | grep . | median) ms | $plan |"
	unset t
done
say "PostgreSQL $PG_MAJOR, $ROWS rows, $WORKERS workers, median of $ROUNDS, $(nproc) cores"
idgen_cluster_stop
