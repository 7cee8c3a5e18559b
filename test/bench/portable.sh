#!/usr/bin/env bash
# The cost of idgen_portable, the SQL edition, side by side in one server
# and one run with what people use where idgen's C types cannot be loaded:
# the PL/pgSQL uuid_generate_v7() they paste into their schemas (and its
# LANGUAGE sql twin: test/bench/uuidv7.sql), gen_random_uuid() and, on
# PostgreSQL 18 and later, core uuidv7(); the C generators of the same names
# for scale.
#
#   bash test/bench/portable.sh                          # full size, about 10 minutes
#   IDGEN_BENCH_SCALE=tiny bash test/bench/portable.sh   # the harness, in seconds
#
# 1. Cost per id: SELECT count(f()) FROM generate_series(1, N) for every
#    generator in turn, in rounds: a round is a fresh session (a fresh
#    generator: distid_generate() stays within its burst) that runs each
#    generator once, the order rotating from round to round, and the
#    PL/pgSQL uuid_generate_v7() before each of them and after the last,
#    timed by the
#    server (EXPLAIN (ANALYZE, TIMING OFF)'s execution time) and by the
#    backend's CPU time (/proc/PID/schedstat, which waiting for a CPU on a
#    busy machine does not inflate), each net of a bare loop of the same
#    length in the same round; N ten times as large for the C generators
#    and gen_random_uuid() (several times cheaper).  Runs are short (a
#    twentieth of a second for the SQL edition) and many, and a run's
#    ratio to uuid_generate_v7() is to the mean of the two runs of it just
#    before and after, so that it compares runs a moment apart, on the same
#    machine: a shared machine's speed drifts over seconds by more than the
#    generators differ.  Ratios are on the CPU time, reported as the
#    median, the interquartile range and the lowest to highest over the
#    rounds: to the PL/pgSQL uuid_generate_v7() (the question of issue 48:
#    is the SQL edition as cheap as what people paste), to
#    gen_random_uuid(), and, for the SQL edition, to the C generator of the
#    same name.
# 2. Bulk insert: BENCH_PORTABLE_ROWS rows (a million at full size) into a
#    table whose primary key is the generator's column DEFAULT, one
#    INSERT ... SELECT FROM generate_series a fresh session and table,
#    for each SQL-edition generator, gen_random_uuid() and the PL/pgSQL
#    uuid_generate_v7(); rows per second by the wall clock (the insert's
#    whole work: WAL, index, buffers), interleaved rounds, the rate ratio to
#    uuid_generate_v7() and to gen_random_uuid() within each round.
# Written to IDGEN_BENCH_OUT/portable.md (and printed), with what makes it
# comparable: the command, the server (version, build, assertions,
# settings), the machine and its load average before, during and after.
# Nothing here asserts a timing; the harness checks itself: every
# generator's ids are what their type is (the peers' uuids version 7), the
# bulk tables hold every row, and the report has a figure in every row.
#
# Figures are for release builds: at full size the server is the release
# build of IDGEN_PG_VERSION (tools/pgbuild.sh's idgen_pg_release_build:
# 18-release for 18, built on first use, as test/bench/bench.sh does), and
# a server that checks assertions gets a report that says so instead.
#
# Settings (environment):
#   IDGEN_BENCH_SCALE   full (default) or tiny
#   IDGEN_BENCH_OUT     output directory (default test/bench/results/pg<major>
#                       at full size, $TMPDIR/idgen-bench-<scale> otherwise)
#   BENCH_PORTABLE_N, BENCH_PORTABLE_REPEAT   ids per run of the SQL
#                       edition (ten times as many for the C generators and
#                       gen_random_uuid()), rounds (sessions)
#   BENCH_PORTABLE_ROWS, BENCH_PORTABLE_INSERT_REPEAT   rows per bulk insert,
#                       rounds
#   IDGEN_BENCH_PSQL    psql of a running server to use (its PGHOST, PGPORT,
#                       PGUSER from the environment), where idgen and
#                       idgen_portable are installed, as test/bench/bench.sh
#                       has it; unset: a scratch cluster of IDGEN_PG_VERSION

# the command as given, for the report (before tools/lib.sh sets defaults)
BENCH_COMMAND=
for v in IDGEN_PG_VERSION IDGEN_BENCH_SCALE IDGEN_BENCH_OUT $(compgen -v BENCH_PORTABLE_); do
	[ -z "${!v+set}" ] || BENCH_COMMAND+="$v=$(printf '%q' "${!v}") "
done
[ "$(nice)" -eq 0 ] || BENCH_COMMAND+="nice -n $(nice) "
BENCH_COMMAND+="bash test/bench/portable.sh"

source "$(dirname "$0")/../../tools/lib.sh"
BENCH_DIR=$IDGEN_ROOT/test/bench

SCALE=${IDGEN_BENCH_SCALE:-full}
case $SCALE in
	full)
		: "${BENCH_PORTABLE_N:=10000}" "${BENCH_PORTABLE_REPEAT:=21}"
		: "${BENCH_PORTABLE_ROWS:=1000000}" "${BENCH_PORTABLE_INSERT_REPEAT:=3}"
		;;
	tiny)
		: "${BENCH_PORTABLE_N:=2000}" "${BENCH_PORTABLE_REPEAT:=2}"
		: "${BENCH_PORTABLE_ROWS:=2000}" "${BENCH_PORTABLE_INSERT_REPEAT:=1}"
		;;
	*) say "IDGEN_BENCH_SCALE must be full or tiny, not '$SCALE'"; exit 2 ;;
esac
for v in BENCH_PORTABLE_N BENCH_PORTABLE_REPEAT BENCH_PORTABLE_ROWS BENCH_PORTABLE_INSERT_REPEAT; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || { say "$v must be a positive integer, not '${!v}'"; exit 2; }
done
# distid_generate() of both editions, a run in each round's session, within its burst
[ "$BENCH_PORTABLE_N" -le 100000 ] || { say "BENCH_PORTABLE_N must be at most 100000 (distid_generate()'s burst)"; exit 2; }

LOADS=()
load_mark() { LOADS+=("$(cut -d' ' -f1 /proc/loadavg)"); }

if [ -n "${IDGEN_BENCH_PSQL:-}" ]; then
	PSQL=$IDGEN_BENCH_PSQL
	DB=idgen_portable_bench
	"$PSQL" -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
	SERVER_FROM="the cluster of test/bench/bench.sh"
else
	idgen_deps ${IDGEN_SETUP_PACKAGES[@]+"${IDGEN_SETUP_PACKAGES[@]}"}
	idgen_workdir
	BUILD=$IDGEN_PG_VERSION
	[ "$SCALE" = tiny ] || BUILD=$(idgen_pg_release_build "$IDGEN_PG_VERSION")
	idgen_pg_select "$BUILD"
	say "building"
	idgen_build
	idgen_install
	say "starting a throwaway cluster in $IDGEN_WORK"
	idgen_cluster_start
	PSQL=$PG_BIN/psql
	DB=postgres
	SERVER_FROM="build \`$PG_BUILD\`, a scratch cluster (tools/lib.sh: fsync = off)"
fi
load_mark
q() { "$PSQL" -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

ASSERTIONS=$(q -c "SELECT current_setting('debug_assertions')")
VERSION=$(q -c "SHOW server_version")
PG_NUM=$(q -c "SHOW server_version_num")
if [ -z "${IDGEN_BENCH_OUT:-}" ]; then
	if [ "$SCALE" = full ]; then
		IDGEN_BENCH_OUT=$BENCH_DIR/results/pg$(idgen_pg_label "$((PG_NUM / 10000))")
	else
		IDGEN_BENCH_OUT=${TMPDIR:-/tmp}/idgen-bench-$SCALE
	fi
fi
mkdir -p "$IDGEN_BENCH_OUT"
REPORT=$IDGEN_BENCH_OUT/portable.md
if [ "$ASSERTIONS" = on ] && [ "$SCALE" = full ]; then
	printf '## idgen_portable: cost per id\n\nNot measured: PostgreSQL %s checks assertions, so its timings are not a release build'"'"'s.\n' \
		"$VERSION" | tee "$REPORT"
	[ -n "${IDGEN_BENCH_PSQL:-}" ] && "$PSQL" -X -q -d postgres -c "DROP DATABASE $DB"
	exit 0
fi

q <<'SQL'
CREATE EXTENSION IF NOT EXISTS idgen;
CREATE EXTENSION IF NOT EXISTS idgen_portable CASCADE;
CREATE TABLE portable_bench (ord int, key text, rep int, n bigint, ms float8, cpu_ms float8, pos int);
CREATE TABLE portable_insert (ord int, key text, rep int, n bigint, ms float8, cpu_ms float8);
SQL
q -f "$BENCH_DIR/uuidv7.sql"
# the peers make UUIDv7s (version nibble 7, variant 10)
[ "$(q -c "SELECT count(*) FROM (SELECT uuid_generate_v7() a, uuid_generate_v7_sql() b FROM generate_series(1, 100)) x
	WHERE substr(a::text, 15, 1) = '7' AND substr(a::text, 20, 1) IN ('8', '9', 'a', 'b')
	AND substr(b::text, 15, 1) = '7' AND substr(b::text, 20, 1) IN ('8', '9', 'a', 'b')")" = 100 ] ||
	{ say "the pasted uuid_generate_v7() functions do not make UUIDv7s"; exit 1; }

# --- 1. cost per id ------------------------------------------------------------

# key | label | expression | the C generator it is compared with | ids per run
KEY=() LABEL=() EXPR=() PEER=() SIZE=()
N_SQL=$BENCH_PORTABLE_N
N_FAST=$((BENCH_PORTABLE_N * 10))
add() { KEY+=("$1"); LABEL+=("$2"); EXPR+=("$3"); PEER+=("${4:-}"); SIZE+=("${5:-$N_FAST}"); }
add loop "bare loop, \`count(g)\`" "g" "" "$N_SQL"
add loop_fast "bare loop, \`count(g)\`, ten times as long" "g"
add v7plpgsql "pasted UUIDv7, PL/pgSQL \`uuid_generate_v7()\`" "uuid_generate_v7()" "" "$N_SQL"
add v7sql "pasted UUIDv7, SQL function \`uuid_generate_v7_sql()\`" "uuid_generate_v7_sql()" "" "$N_SQL"
add uuid4 "\`gen_random_uuid()\`" "gen_random_uuid()"
[ "$PG_NUM" -ge 180000 ] && add uuidv7 "\`uuidv7()\` (core)" "uuidv7()"
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
for ((V7 = 0; V7 < n; V7++)); do [ "${KEY[$V7]}" = v7plpgsql ] && break; done

sqlq() { sed "s/'/''/g" <<<"$1"; }
# cpu_ns PID: the process's time on a CPU in ns (/proc/PID/schedstat), else
# its user and system time from /proc/PID/stat (clock ticks), in ns
TICK_NS=$((1000000000 / $(getconf CLK_TCK)))
cpu_ns() {
	local s
	if s=$(cut -d' ' -f1 "/proc/$1/schedstat" 2>/dev/null) && [ -n "$s" ]; then
		echo "$s"
	else
		awk -v t="$TICK_NS" '{print ($14 + $15) * t}' "/proc/$1/stat" 2>/dev/null || echo
	fi
}
CPU_SOURCE="/proc/PID/schedstat"
[ -r "/proc/$$/schedstat" ] || CPU_SOURCE="/proc/PID/stat (clock ticks)"

# session TABLE KEY ORD REP N SETUP STATEMENT: one run in a session of its
# own, timed by the server (EXPLAIN ANALYZE's execution time) and by its CPU
# time
session() {
	local table=$1 key=$2 ord=$3 rep=$4 size=$5 setup=$6 statement=$7 out pid t0 t1 ms cpu=NULL said=
	coproc RUN { q -F' ' 2>&1; }
	printf '%s\n' "SET jit = off; SET max_parallel_workers_per_gather = 0;" "$setup" \
		"SELECT 'pid', pg_backend_pid();" >&"${RUN[1]}"
	while read -r out pid <&"${RUN[0]}" && [ "$out" != pid ]; do :; done
	t0=$(cpu_ns "$pid")
	printf '%s\n' "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON, FORMAT JSON) $statement" "SELECT 'done';" >&"${RUN[1]}"
	ms=
	while read -r out <&"${RUN[0]}" && [ "$out" != done ]; do
		said+="$out"$'\n'
		[[ $out =~ \"Execution\ Time\":\ ([0-9.]+) ]] && ms=${BASH_REMATCH[1]}
	done
	t1=$(cpu_ns "$pid")
	# (a session that ended, on an error, took its coprocess's variables along)
	[ -z "${RUN[1]:-}" ] || eval "exec ${RUN[1]}>&-"
	wait "${RUN_PID:-}" 2>/dev/null || true
	[ -n "$ms" ] || { say "no execution time for: $statement"; printf '%s' "$said" | tail -n 5 >&2; exit 1; }
	[ -n "$t0" ] && [ -n "$t1" ] && cpu=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e6 }')
	q -c "INSERT INTO $table VALUES ($ord, '$key', $rep, $size, $ms, $cpu)"
}

# round REP: one session of its own that runs every generator once, in the
# order of the round (rotating), each run timed by the server and by the
# session's CPU time; a warm-up of each first (plans and caches)
round() {
	local rep=$1 k o out pid t0 t1 ms cpu said rows=
	coproc RUN { q -F' ' 2>&1; }
	printf '%s\n' "SET jit = off; SET max_parallel_workers_per_gather = 0;" >&"${RUN[1]}"
	for ((k = 0; k < n; k++)); do
		printf '%s\n' "SELECT count(${EXPR[$k]}) FROM generate_series(1, 10) AS g;" >&"${RUN[1]}"
	done
	printf '%s\n' "SELECT 'pid', pg_backend_pid();" >&"${RUN[1]}"
	while read -r out pid <&"${RUN[0]}" && [ "$out" != pid ]; do said+="$out $pid"$'\n'; done
	[ "$out" = pid ] || { say "round $rep: the session ended"; printf '%s' "$said" | tail -n 5 >&2; exit 1; }
	# the order of the round: the others rotating, the PL/pgSQL
	# uuid_generate_v7() before each and after the last
	local seq=() pos
	for ((k = 0; k < n; k++)); do
		o=$(((k + rep - 1) % n))
		[ "${KEY[$o]}" = v7plpgsql ] || seq+=("$V7" "$o")
	done
	seq+=("$V7")
	for ((pos = 0; pos < ${#seq[@]}; pos++)); do
		o=${seq[$pos]}
		t0=$(cpu_ns "$pid")
		printf '%s\n' "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON, FORMAT JSON) SELECT count(${EXPR[$o]}) FROM generate_series(1, ${SIZE[$o]}) AS g;" \
			"SELECT 'done';" >&"${RUN[1]}"
		ms= said=
		while read -r out <&"${RUN[0]}" && [ "$out" != done ]; do
			said+="$out"$'\n'
			[[ $out =~ \"Execution\ Time\":\ ([0-9.]+) ]] && ms=${BASH_REMATCH[1]}
		done
		t1=$(cpu_ns "$pid")
		[ -n "$ms" ] || { say "no execution time for ${EXPR[$o]}"; printf '%s' "$said" | tail -n 5 >&2; exit 1; }
		cpu=NULL
		[ -n "$t0" ] && [ -n "$t1" ] && cpu=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e6 }')
		rows+="${rows:+, }($o, '${KEY[$o]}', $rep, ${SIZE[$o]}, $ms, $cpu, $pos)"
	done
	# (a session that ended, on an error, took its coprocess's variables along)
	[ -z "${RUN[1]:-}" ] || eval "exec ${RUN[1]}>&-"
	wait "${RUN_PID:-}" 2>/dev/null || true
	q -c "INSERT INTO portable_bench VALUES $rows"
}

say "idgen_portable: 1. cost per id on PostgreSQL $VERSION, $BENCH_PORTABLE_REPEAT rounds of $BENCH_PORTABLE_N ids"
for ((rep = 1; rep <= BENCH_PORTABLE_REPEAT; rep++)); do
	round "$rep"
done
load_mark

# --- 2. bulk insert --------------------------------------------------------------

# key | primary key (label) | column type | default
IKEY=() ILABEL=() ITYPE=() IDEF=()
iadd() { IKEY+=("$1"); ILABEL+=("$2"); ITYPE+=("$3"); IDEF+=("$4"); }
iadd v7plpgsql "\`uuid PRIMARY KEY DEFAULT uuid_generate_v7()\` (pasted, PL/pgSQL)" uuid "uuid_generate_v7()"
iadd uuid4 "\`uuid PRIMARY KEY DEFAULT gen_random_uuid()\`" uuid "gen_random_uuid()"
iadd s_iuid "\`uuid PRIMARY KEY DEFAULT idgen_portable.iuid_generate(1, 1)\`" uuid "idgen_portable.iuid_generate(1, 1)"
iadd s_backfill "\`uuid PRIMARY KEY DEFAULT idgen_portable.iuid_generate(1, 1, at)\`" uuid "idgen_portable.iuid_generate(1, 1, '2025-01-01Z')"
iadd s_distid "\`numeric(28, 0) PRIMARY KEY DEFAULT idgen_portable.distid_generate()\`" "numeric(28, 0)" "idgen_portable.distid_generate()"
iadd s_dense "\`numeric(28, 0) PRIMARY KEY DEFAULT idgen_portable.distid_generate_dense()\`" "numeric(28, 0)" "idgen_portable.distid_generate_dense()"
iadd s_distid128 "\`uuid PRIMARY KEY DEFAULT idgen_portable.distid128_generate()\`" uuid "idgen_portable.distid128_generate()"
iadd s_flaxid "\`text COLLATE \"C\" PRIMARY KEY DEFAULT idgen_portable.flaxid_generate()\`" "text COLLATE \"C\"" "idgen_portable.flaxid_generate()"
ni=${#IKEY[@]}
ROWS=$BENCH_PORTABLE_ROWS

say "idgen_portable: 2. bulk insert, $BENCH_PORTABLE_INSERT_REPEAT rounds of $ROWS rows"
for ((rep = 1; rep <= BENCH_PORTABLE_INSERT_REPEAT; rep++)); do
	for ((k = 0; k < ni; k++)); do
		o=$(((k + rep - 1) % ni))
		q -c "DROP TABLE IF EXISTS bulk" -c "CREATE TABLE bulk (id ${ITYPE[$o]} PRIMARY KEY DEFAULT ${IDEF[$o]}, n int NOT NULL)" -c "CHECKPOINT"
		session portable_insert "${IKEY[$o]}" "$o" "$rep" "$ROWS" "" "INSERT INTO bulk (n) SELECT g FROM generate_series(1, $ROWS) AS g;"
		[ "$(q -c "SELECT count(*) = $ROWS AND count(DISTINCT id) = $ROWS FROM bulk")" = t ] ||
			{ say "bulk insert with ${IDEF[$o]}: not $ROWS distinct rows"; exit 1; }
	done
done
q -c "DROP TABLE bulk"
load_mark

# --- the report --------------------------------------------------------------------

CPU_MODEL=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
MEM_GIB=$(awk '/^MemTotal:/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)
SETTINGS=$(q -c "SELECT string_agg(name || '=' || current_setting(name), ', ' ORDER BY name) FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'shared_buffers', 'wal_level', 'full_page_writes', 'max_wal_size', 'jit')")
CONFIGURE=$(q -c "SELECT setting FROM pg_config WHERE name = 'CONFIGURE'" 2>/dev/null | sed 's/^ *//')
# ratios within each round: v (of pv(key, rep, v, p)) over p, the v of the
# PL/pgSQL uuid_generate_v7() it is paired with, and over the v of
# gen_random_uuid() in the same round: their median, quartiles and spread
ratio_sql() {
	cat <<SQL
SELECT x.key, percentile_cont(0.5) WITHIN GROUP (ORDER BY x.v / x.p) AS med_v7, min(x.v / x.p) AS lo_v7, max(x.v / x.p) AS hi_v7,
	percentile_cont(0.25) WITHIN GROUP (ORDER BY x.v / x.p) AS q1_v7, percentile_cont(0.75) WITHIN GROUP (ORDER BY x.v / x.p) AS q3_v7,
	percentile_cont(0.5) WITHIN GROUP (ORDER BY x.v / u.v) AS med_u, min(x.v / u.v) AS lo_u, max(x.v / u.v) AS hi_u,
	percentile_cont(0.25) WITHIN GROUP (ORDER BY x.v / u.v) AS q1_u, percentile_cont(0.75) WITHIN GROUP (ORDER BY x.v / u.v) AS q3_u
FROM pv x JOIN pv u ON u.rep = x.rep AND u.key = 'uuid4'
WHERE x.p > 0 AND u.v > 0
GROUP BY x.key
SQL
}
# a ratio and its spread as the report shows them
RATIO="to_char(r.med_v7, 'FM9990.00') || ' (' || to_char(r.lo_v7, 'FM9990.00') || '–' || to_char(r.hi_v7, 'FM9990.00') || ')'"
# the same as median (interquartile range), and the lowest to highest
RATIO_Q="to_char(r.med_v7, 'FM9990.00') || ' (' || to_char(r.q1_v7, 'FM9990.00') || '–' || to_char(r.q3_v7, 'FM9990.00') || ')'"
RATIO_UQ="to_char(r.med_u, 'FM9990.00') || ' (' || to_char(r.q1_u, 'FM9990.00') || '–' || to_char(r.q3_u, 'FM9990.00') || ')'"
RANGE="to_char(r.lo_v7, 'FM9990.00') || '–' || to_char(r.hi_v7, 'FM9990.00')"
RATIO_U="to_char(r.med_u, 'FM9990.00') || ' (' || to_char(r.lo_u, 'FM9990.00') || '–' || to_char(r.hi_u, 'FM9990.00') || ')'"
{
	echo "## idgen_portable: cost per id"
	echo
	echo "- Command: \`$BENCH_COMMAND\` (scale $SCALE), $(date -u +%Y-%m-%d)"
	echo "- Server: PostgreSQL $VERSION, assertions: $ASSERTIONS; $SERVER_FROM"
	echo "- Configure: \`${CONFIGURE:-n/a}\`"
	echo "- Settings: $SETTINGS"
	echo "- Machine: $(nproc) CPUs ($CPU_MODEL), $MEM_GIB GiB, Linux $(uname -r)"
	echo "- Load average (1 min): ${LOADS[0]} before, ${LOADS[1]} after part 1, ${LOADS[2]} after part 2"
	echo "- CPU time: $CPU_SOURCE of the session's backend"
	echo
	echo "### 1. Cost per id"
	echo
	echo "$BENCH_PORTABLE_REPEAT rounds of \`SELECT count(f()) FROM generate_series(1, N)\`, N = $N_SQL for the SQL edition, the"
	echo "pasted UUIDv7 functions and C \`distid_generate()\` (its burst), $N_FAST for the others; a round is a fresh"
	echo "session that runs every generator once, the order rotating from round to round, and the PL/pgSQL"
	echo "\`uuid_generate_v7()\` before each and after the last; each run net of a bare loop of the same length in"
	echo "its round. The ratios are on the backend's CPU time: a run's to \`uuid_generate_v7()\` is to the mean of"
	echo "the runs of it just before and after, to \`gen_random_uuid()\` and the C generator to their run in the same"
	echo "round; median (interquartile range), and the lowest to highest of the rounds."
	echo
	echo "| generator | ns per id, median | spread (lowest to highest) | CPU ns per id, median | × PL/pgSQL \`uuid_generate_v7()\`, CPU | × PL/pgSQL \`uuid_generate_v7()\`, lowest to highest | × gen_random_uuid(), CPU | × the C generator |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	q -F'|' <<SQL
WITH labels (ord, key, label, peer) AS (VALUES $(for ((k = 2; k < n; k++)); do
	printf "%s(%d, '%s', '%s', '%s')" "$([ $k -gt 2 ] && echo ,)" "$k" "${KEY[$k]}" "$(sqlq "${LABEL[$k]}")" "${PEER[$k]}"
done)),
b AS (
	SELECT b.key, b.rep, b.pos, (b.ms - l.ms) * 1e6 / b.n AS ns, (b.cpu_ms - l.cpu_ms) * 1e6 / b.n AS cpu_ns
	FROM portable_bench b JOIN portable_bench l ON l.key LIKE 'loop%' AND l.rep = b.rep AND l.n = b.n
	WHERE b.key NOT LIKE 'loop%'),
m AS (SELECT key, percentile_cont(0.5) WITHIN GROUP (ORDER BY ns) AS med, min(ns) AS lo, max(ns) AS hi,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY cpu_ns) AS cpu FROM b GROUP BY key),
-- each run paired with the uuid_generate_v7() runs just before and after it
pv AS (SELECT x.key, x.rep, x.cpu_ns AS v, CASE WHEN x.key = 'v7plpgsql' THEN x.cpu_ns ELSE (a.cpu_ns + c.cpu_ns) / 2 END AS p
	FROM b x LEFT JOIN b a ON a.rep = x.rep AND a.pos = x.pos - 1 AND a.key = 'v7plpgsql'
	LEFT JOIN b c ON c.rep = x.rep AND c.pos = x.pos + 1 AND c.key = 'v7plpgsql'),
r AS ($(ratio_sql)),
c AS (SELECT s.key, percentile_cont(0.5) WITHIN GROUP (ORDER BY s.cpu_ns / p.cpu_ns) AS to_c
	FROM b s JOIN labels l ON l.key = s.key JOIN b p ON p.key = l.peer AND p.rep = s.rep WHERE p.cpu_ns > 0 GROUP BY s.key)
SELECT '| ' || l.label || ' | ' || round(m.med::numeric) || ' | ' || round(m.lo::numeric) || '–' || round(m.hi::numeric)
	|| ' | ' || coalesce(round(m.cpu::numeric)::text, 'n/a')
	|| ' | ' || coalesce($RATIO_Q, 'n/a') || ' | ' || coalesce($RANGE, 'n/a') || ' | ' || coalesce($RATIO_UQ, 'n/a')
	|| ' | ' || CASE WHEN l.peer = '' THEN '—' ELSE coalesce(to_char(c.to_c, 'FM99990'), 'n/a') END || ' |'
FROM labels l JOIN m USING (key) LEFT JOIN r USING (key) LEFT JOIN c USING (key)
ORDER BY l.ord;
SQL
	echo
	echo "### 2. Bulk insert"
	echo
	echo "$BENCH_PORTABLE_INSERT_REPEAT interleaved rounds of \`INSERT INTO t (n) SELECT g FROM generate_series(1, $ROWS) AS g\` into a"
	echo "new table \`t (id … PRIMARY KEY DEFAULT …, n int NOT NULL)\` in a fresh session, after a checkpoint;"
	echo "rows per second by the wall clock (the whole insert: generator, heap, index, WAL). The ratios are"
	echo "taken within each round: median (lowest–highest); above 1.0 the table fills faster than with the peer."
	echo "\`distid_generate()\` keeps its reference's rate (doc/generation.md: a burst, then about 128 ids a millisecond)."
	echo
	echo "| primary key | rows per second, median | spread (lowest to highest) | rate × PL/pgSQL \`uuid_generate_v7()\` | rate × gen_random_uuid() |"
	echo "|---|---:|---:|---:|---:|"
	q -F'|' <<SQL
WITH labels (ord, key, label) AS (VALUES $(for ((k = 0; k < ni; k++)); do
	printf "%s(%d, '%s', '%s')" "$([ $k -gt 0 ] && echo ,)" "$k" "${IKEY[$k]}" "$(sqlq "${ILABEL[$k]}")"
done)),
net AS (SELECT key, rep, n / (ms / 1000) AS v FROM portable_insert),
m AS (SELECT key, percentile_cont(0.5) WITHIN GROUP (ORDER BY v) AS med, min(v) AS lo, max(v) AS hi FROM net GROUP BY key),
pv AS (SELECT x.key, x.rep, x.v, p.v AS p FROM net x JOIN net p ON p.rep = x.rep AND p.key = 'v7plpgsql'),
r AS ($(ratio_sql))
SELECT '| ' || l.label || ' | ' || round(m.med::numeric) || ' | ' || round(m.lo::numeric) || '–' || round(m.hi::numeric)
	|| ' | ' || $RATIO || ' | ' || $RATIO_U || ' |'
FROM labels l JOIN m USING (key) JOIN r USING (key)
ORDER BY l.ord;
SQL
} >"$REPORT"
# the harness checks its own report: a figure in every row of both tables
R='-?[0-9.]+ \(-?[0-9.]+–-?[0-9.]+\)'	# a ratio (spread); below 0 in a tiny run of the cheapest
rows=$(grep -cE "^\\| .+ \\| -?[0-9]+ \\| -?[0-9]+–-?[0-9]+ \\| (-?[0-9]+|n/a) \\| ($R|n/a) \\| (-?[0-9.]+–-?[0-9.]+|n/a) \\| ($R|n/a) \\| (-?[0-9]+|n/a|—) \\|\$" "$REPORT" || true)
irows=$(grep -cE "^\\| \`[^|]+ \\| [0-9]+ \\| [0-9]+–[0-9]+ \\| $R \\| $R \\|\$" "$REPORT" || true)
cat "$REPORT"
[ "$rows" -eq $((n - 2)) ] || { say "portable.md: $rows rows with figures in part 1, expected $((n - 2))"; exit 1; }
[ "$irows" -eq "$ni" ] || { say "portable.md: $irows rows with figures in part 2, expected $ni"; exit 1; }
[ -n "${IDGEN_BENCH_PSQL:-}" ] && "$PSQL" -X -q -d postgres -c "DROP DATABASE $DB"
say "idgen_portable: report in $REPORT"
