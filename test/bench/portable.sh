#!/usr/bin/env bash
# The cost of idgen_portable, the SQL edition, per id, side by side with the
# C generators, gen_random_uuid() and (PostgreSQL 18 and later) uuidv7(), in
# one server and one run.
#
#   bash test/bench/portable.sh                          # full size, a few minutes
#   IDGEN_BENCH_SCALE=tiny bash test/bench/portable.sh   # the harness, in seconds
#
# Each generator runs SELECT count(f()) FROM generate_series(1, N), timed in
# the server (EXPLAIN (ANALYZE, TIMING OFF)'s execution time), N ten times
# as large for the C and core generators (a hundred times cheaper); the
# time per id is net of a bare loop of the same length in the same round;
# rounds are interleaved (the order rotates) and each run is a fresh session
# (a fresh generator: distid_generate() stays within its burst).  Reported:
# the median over the rounds and the spread (lowest to highest), the median
# of the server process's CPU time per id (user and system, from /proc, net
# of the loop's: a busy machine inflates it far less than the time), the ratio to
# gen_random_uuid() of the same rounds and, for the SQL edition, to the C
# generator of the same name.  Written to IDGEN_BENCH_OUT/portable.md (and
# printed).  Nothing here asserts a timing.
#
# Figures are for release builds: at full size a server built with
# assertions (tools/pgbuild.sh builds 18 with them) gets a report that says
# so instead.
#
# Settings (environment):
#   IDGEN_BENCH_SCALE   full (default) or tiny
#   IDGEN_BENCH_OUT     output directory (default test/bench/results at full
#                       size, $TMPDIR/idgen-bench-<scale> otherwise)
#   BENCH_PORTABLE_N, BENCH_PORTABLE_REPEAT   ids per run of the SQL edition
#                       (ten times as many for the others), rounds
#   IDGEN_BENCH_PSQL    psql of a running server to use (its PGHOST, PGPORT,
#                       PGUSER from the environment), where idgen and
#                       idgen_portable are installed, as test/bench/bench.sh
#                       has it; unset: a scratch cluster of IDGEN_PG_VERSION
source "$(dirname "$0")/../../tools/lib.sh"

SCALE=${IDGEN_BENCH_SCALE:-full}
case $SCALE in
	full) : "${BENCH_PORTABLE_N:=100000}" "${BENCH_PORTABLE_REPEAT:=7}" "${IDGEN_BENCH_OUT:=$IDGEN_ROOT/test/bench/results}" ;;
	tiny) : "${BENCH_PORTABLE_N:=2000}" "${BENCH_PORTABLE_REPEAT:=2}" ;;
	*) say "IDGEN_BENCH_SCALE must be full or tiny, not '$SCALE'"; exit 2 ;;
esac
: "${IDGEN_BENCH_OUT:=${TMPDIR:-/tmp}/idgen-bench-$SCALE}"
for v in BENCH_PORTABLE_N BENCH_PORTABLE_REPEAT; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || { say "$v must be a positive integer, not '${!v}'"; exit 2; }
done
# distid_generate() of both editions, in a fresh session, within its burst
[ "$BENCH_PORTABLE_N" -le 120000 ] || { say "BENCH_PORTABLE_N must be at most 120000 (distid_generate()'s burst)"; exit 2; }

if [ -n "${IDGEN_BENCH_PSQL:-}" ]; then
	PSQL=$IDGEN_BENCH_PSQL
	DB=idgen_portable_bench
	"$PSQL" -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
else
	idgen_setup_cluster
	PSQL=$PG_BIN/psql
	DB=postgres
fi
q() { "$PSQL" -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

ASSERTIONS=$(q -c "SELECT current_setting('debug_assertions')")
VERSION=$(q -c "SHOW server_version")
mkdir -p "$IDGEN_BENCH_OUT"
REPORT=$IDGEN_BENCH_OUT/portable.md
if [ "$ASSERTIONS" = on ] && [ "$SCALE" = full ]; then
	printf '## idgen_portable: cost per id\n\nNot measured: PostgreSQL %s checks assertions, so its timings are not a release build'"'"'s (run on 15, 17 or 19beta1).\n' \
		"$VERSION" | tee "$REPORT"
	[ -n "${IDGEN_BENCH_PSQL:-}" ] && "$PSQL" -X -q -d postgres -c "DROP DATABASE $DB"
	exit 0
fi

q <<'SQL'
CREATE EXTENSION IF NOT EXISTS idgen;
CREATE EXTENSION IF NOT EXISTS idgen_portable CASCADE;
CREATE TABLE portable_bench (ord int, key text, rep int, n bigint, ms float8, cpu_ms float8);
SQL

# key | label | expression | the C generator it is compared with | ids per run
KEY=() LABEL=() EXPR=() PEER=() SIZE=()
N_SQL=$BENCH_PORTABLE_N
N_FAST=$((BENCH_PORTABLE_N * 10))
add() { KEY+=("$1"); LABEL+=("$2"); EXPR+=("$3"); PEER+=("${4:-}"); SIZE+=("${5:-$N_FAST}"); }
add loop "bare loop, \`count(g)\`" "g" "" "$N_SQL"
add loop_fast "bare loop, \`count(g)\`, ten times as long" "g"
add uuid4 "\`gen_random_uuid()\`" "gen_random_uuid()"
[ "$(q -c "SELECT count(*) FROM pg_proc WHERE proname = 'uuidv7'")" -gt 0 ] &&
	add uuidv7 "\`uuidv7()\` (core)" "uuidv7()"
add c_iuid "C \`iuid_generate(1, 1)\`" "public.iuid_generate(1, 1)"
add c_backfill "C \`iuid_generate(1, 1, at)\`" "public.iuid_generate(1, 1, '2025-01-01Z')"
add c_distid "C \`distid_generate()\`" "public.distid_generate()" "" "$N_SQL"
add c_dense "C \`distid_generate_dense()\`" "public.distid_generate_dense()"
add c_distid128 "C \`distid128_generate()\`" "public.distid128_generate()"
add c_flaxid "C \`flaxid_generate()\`" "public.flaxid_generate()"
add c_public_id "C \`public_id(g::bigint, key)\`" "public.public_id(g::bigint, '\\x93b7c10c97106a6d3686c07268e58f78fd82a9e0de197beb3d490401006d0057'::bytea)"
add s_iuid "SQL \`iuid_generate(1, 1)\`" "idgen_portable.iuid_generate(1, 1)" c_iuid "$N_SQL"
add s_backfill "SQL \`iuid_generate(1, 1, at)\`" "idgen_portable.iuid_generate(1, 1, '2025-01-01Z')" c_backfill "$N_SQL"
add s_distid "SQL \`distid_generate()\`" "idgen_portable.distid_generate()" c_distid "$N_SQL"
add s_dense "SQL \`distid_generate_dense()\`" "idgen_portable.distid_generate_dense()" c_dense "$N_SQL"
add s_distid128 "SQL \`distid128_generate()\`" "idgen_portable.distid128_generate()" c_distid128 "$N_SQL"
add s_flaxid "SQL \`flaxid_generate()\`" "idgen_portable.flaxid_generate()" c_flaxid "$N_SQL"
add s_public_id "SQL \`public_id(g::bigint, key)\` (pgcrypto)" "idgen_portable.public_id(g::bigint, '\\x93b7c10c97106a6d3686c07268e58f78fd82a9e0de197beb3d490401006d0057'::bytea)" c_public_id "$N_SQL"
n=${#KEY[@]}

sqlq() { sed "s/'/''/g" <<<"$1"; }
# cpu_ticks PID: the process's user and system time, in clock ticks
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo; }
TICK_MS=$((1000 / $(getconf CLK_TCK)))
run() { # run ORD REP: one run, in a session of its own, timed by the server (EXPLAIN ANALYZE) and by its CPU time
	local out pid t0 t1 ms cpu=NULL
	coproc RUN { q -F' ' 2>&1; }
	printf '%s\n' "SET jit = off; SET max_parallel_workers_per_gather = 0;" \
		"SELECT count(${EXPR[$1]}) FROM generate_series(1, 10) AS g;" "SELECT 'pid', pg_backend_pid();" >&"${RUN[1]}"
	while read -r out pid <&"${RUN[0]}" && [ "$out" != pid ]; do :; done
	t0=$(cpu_ticks "$pid")
	printf '%s\n' "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON, FORMAT JSON) SELECT count(${EXPR[$1]}) FROM generate_series(1, ${SIZE[$1]}) AS g;" \
		"SELECT 'done';" >&"${RUN[1]}"
	ms=
	while read -r out <&"${RUN[0]}" && [ "$out" != done ]; do
		[[ $out =~ \"Execution\ Time\":\ ([0-9.]+) ]] && ms=${BASH_REMATCH[1]}
	done
	t1=$(cpu_ticks "$pid")
	eval "exec ${RUN[1]}>&-"
	wait "$RUN_PID" 2>/dev/null || true
	[ -n "$ms" ] || { say "no execution time for ${EXPR[$1]}"; exit 1; }
	[ -n "$t0" ] && [ -n "$t1" ] && cpu=$(((t1 - t0) * TICK_MS))
	q -c "INSERT INTO portable_bench VALUES ($1, '${KEY[$1]}', $2, ${SIZE[$1]}, $ms, $cpu)"
}
say "idgen_portable: cost per id on PostgreSQL $VERSION, $BENCH_PORTABLE_REPEAT rounds of $BENCH_PORTABLE_N ids"
for ((rep = 1; rep <= BENCH_PORTABLE_REPEAT; rep++)); do
	for ((k = 0; k < n; k++)); do
		run $(((k + rep - 1) % n)) "$rep"
	done
done

{
	echo "## idgen_portable: cost per id"
	echo
	echo "PostgreSQL $VERSION (assertions: $ASSERTIONS), $(nproc) CPUs, $BENCH_PORTABLE_REPEAT interleaved rounds of"
	echo "\`SELECT count(f()) FROM generate_series(1, N)\`, N = $N_SQL for the SQL edition and $N_FAST for the"
	echo "others (but C \`distid_generate()\`: $N_SQL, its burst), each run in a fresh session, net of a bare"
	echo "loop of the same length in its round; \`bash test/bench/portable.sh\`, $(date -u +%Y-%m-%d)."
	echo
	echo "| generator | ns per id, median | spread (lowest to highest) | CPU ns per id, median | × gen_random_uuid() | × the C generator |"
	echo "|---|---:|---:|---:|---:|---:|"
	q -F'|' <<SQL
WITH net AS (
	SELECT b.key, b.rep, (b.ms - l.ms) * 1e6 / b.n AS ns, (b.cpu_ms - l.cpu_ms) * 1e6 / b.n AS cpu_ns
	FROM portable_bench b JOIN portable_bench l ON l.key LIKE 'loop%' AND l.rep = b.rep AND l.n = b.n
	WHERE b.key NOT LIKE 'loop%'),
m AS (SELECT key, percentile_cont(0.5) WITHIN GROUP (ORDER BY ns) AS med, min(ns) AS lo, max(ns) AS hi,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY cpu_ns) AS cpu FROM net GROUP BY key),
labels (ord, key, label, peer) AS (VALUES $(for ((k = 2; k < n; k++)); do
	printf "%s(%d, '%s', '%s', '%s')" "$([ $k -gt 2 ] && echo ,)" "$k" "${KEY[$k]}" "$(sqlq "${LABEL[$k]}")" "${PEER[$k]}"
done))
SELECT '| ' || l.label || ' | ' || round(m.med::numeric) || ' | ' || round(m.lo::numeric) || '–' || round(m.hi::numeric)
	|| ' | ' || coalesce(round(m.cpu::numeric)::text, 'n/a') || ' | ' || CASE WHEN u.med > 0 THEN to_char(m.med / u.med, 'FM9990.00') ELSE 'n/a' END || ' | '
	|| CASE WHEN p.med > 0 THEN to_char(m.med / p.med, 'FM99990') WHEN p.key IS NOT NULL THEN 'n/a' ELSE '—' END || ' |'
FROM labels l JOIN m USING (key) CROSS JOIN (SELECT med FROM m WHERE key = 'uuid4') u
	LEFT JOIN m p ON p.key = l.peer
ORDER BY l.ord;
SQL
} >"$REPORT"
# the harness checks its own report: a table whose every generator has a figure
rows=$(grep -cE '^\| .+ \| -?[0-9]+ \| -?[0-9]+–-?[0-9]+ \| (-?[0-9]+|n/a) \| (-?[0-9.]+|n/a) \| ([0-9]+|n/a|—) \|$' "$REPORT" || true)
cat "$REPORT"
[ "$rows" -eq $((n - 2)) ] || { say "portable.md: $rows rows with figures, expected $((n - 2))"; exit 1; }
[ -n "${IDGEN_BENCH_PSQL:-}" ] && "$PSQL" -X -q -d postgres -c "DROP DATABASE $DB"
say "idgen_portable: report in $REPORT"
