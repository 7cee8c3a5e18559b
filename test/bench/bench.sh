#!/usr/bin/env bash
# idgen benchmark: what one id of each generator costs, how dense a
# primary-key index stays after a bulk insert, and what storing distids as
# numeric (the usual DECIMAL(28) column) costs in queries -- side by side with
# gen_random_uuid() and bigserial.
#
#   bash test/bench/bench.sh
#
# Settings (environment):
#   BENCH_N              ids per generation measurement        (default 5000000)
#   BENCH_REPEAT         repetitions of each generation run    (default 5)
#   BENCH_BURST_N        ids per distid_generate() run inside its burst
#                        window, at most 120000                (default 100000)
#   BENCH_BURST_REPEAT   repetitions of that run               (default 15)
#   BENCH_DISTID_N       ids per sustained (rate-limited)
#                        distid_generate() run                 (default 1000000)
#   BENCH_DISTID_REPEAT  repetitions of that run               (default 3)
#   BENCH_ROWS           rows per bulk insert                  (default 1000000)
#   BENCH_INSERT_REPEAT  repetitions of each bulk insert       (default 3)
#   BENCH_QUERY_REPEAT   repetitions of each distid/numeric query (default 5)
#   IDGEN_KEEP=1         keep the scratch cluster (see tools/lib.sh)
#
# Generation: SELECT count(<expr>) FROM generate_series(1, N), timed inside the
# server (clock_timestamp() around EXECUTE in a plpgsql function), so neither
# the client nor the network is measured.  The bare loop (count(g)) is
# subtracted to get the cost of the generator alone.  Repetitions are
# interleaved (the order rotates each round) and the median is reported.
#
# distid_generate() follows the reference's rate limit: ids are stamped 1 s in
# the past, a session may borrow that second (a burst of about 128,000 ids),
# then it sleeps 1 ms per ~128 ids.  At BENCH_N ids it would spend ~39 s
# asleep per run, so it is measured twice, each run in a fresh session (a
# fresh generator, so a full burst window):
#   - BENCH_BURST_N ids, next to a bare loop of BENCH_BURST_N in the same
#     session: the cost of the generator itself.  Right after, one more id is
#     drawn and its timestamp compared with the clock; the run stayed clear
#     of the rate limit if that headroom is well above 0 (it starts at 1000 ms).
#   - BENCH_DISTID_N ids: the sustained cost, sleeps included.
#
# Index density: one INSERT ... SELECT of BENCH_ROWS rows per table, in one
# session, into a fresh table after a CHECKPOINT; pgstatindex() on the primary
# key afterwards.  The insert time is the median over the repetitions.  The
# distid and numeric keys come from distid_generate(), so their insert time
# includes its rate limit.
#
# distid vs numeric: the distids of the last bulk insert, copied into a distid
# table and a numeric table in the same random order; a sort, a CREATE INDEX
# and an index-only range count on each, alternating, median of
# BENCH_QUERY_REPEAT.
#
# The result tables at the end are markdown, ready for README.md.
source "$(dirname "$0")/../../tools/lib.sh"

BENCH_N=${BENCH_N:-5000000}
BENCH_REPEAT=${BENCH_REPEAT:-5}
BENCH_BURST_N=${BENCH_BURST_N:-100000}
BENCH_BURST_REPEAT=${BENCH_BURST_REPEAT:-15}
BENCH_DISTID_N=${BENCH_DISTID_N:-1000000}
BENCH_DISTID_REPEAT=${BENCH_DISTID_REPEAT:-3}
BENCH_ROWS=${BENCH_ROWS:-1000000}
BENCH_INSERT_REPEAT=${BENCH_INSERT_REPEAT:-3}
BENCH_QUERY_REPEAT=${BENCH_QUERY_REPEAT:-5}

for v in BENCH_N BENCH_REPEAT BENCH_BURST_N BENCH_BURST_REPEAT BENCH_DISTID_N BENCH_DISTID_REPEAT \
	BENCH_ROWS BENCH_INSERT_REPEAT BENCH_QUERY_REPEAT; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || { say "$v must be a positive integer, not '${!v}'"; exit 2; }
done
[ "$BENCH_BURST_N" -le 120000 ] ||
	{ say "BENCH_BURST_N must stay inside distid's burst window (about 128,000 ids): at most 120000"; exit 2; }

# distid_generate()'s limits, as the reference has them (README, "How
# generation works"): ~128 ids per millisecond, borrowed up to 1000 ms ahead.
DISTID_PER_MS=128
DISTID_BURST=$((DISTID_PER_MS * 1000))

# Every benchmark session runs with these: no JIT (its compile time would be
# counted in some queries and not others), no parallel workers (the loop must
# run in one process), and enough work_mem for generate_series' tuplestore to
# stay in memory (and for the sorts of part 3 to be in-memory quicksorts).
SESSION_SETTINGS="SET jit = off; SET max_parallel_workers_per_gather = 0; SET work_mem = '1GB';"
SESSION_SETTINGS+=" SET max_parallel_maintenance_workers = 0; SET maintenance_work_mem = '1GB';"

bench_psql() {
	idgen_psql -At -F'|' -c "$SESSION_SETTINGS" "$@"
}

sqlq() { # text quoted for a SQL string literal, without the quotes
	sed "s/'/''/g" <<<"$1"
}

# generator label and SQL expression, in report order; the first is the loop.
# All of these run BENCH_N ids per run; distid_generate() is measured apart.
# Public ids use the SPEC's 32-byte key (AES-256); pgcrypto's encrypt() of the
# same plaintext block is the obvious alternative, and expands the key per call.
BENCH_KEY="'\x93b7c10c97106a6d3686c07268e58f78fd82a9e0de197beb3d490401006d0057'::bytea"
GEN_LABELS=("bare loop" "gen_random_uuid()" "iuid_generate(1, 1)" "nextval('bench_seq')" "distid128_generate()"
	"public_id(g::bigint, key)" "public_id(g::bigint), key from the key file"
	"pgcrypto encrypt(block, key, 'aes-ecb/pad:none')" "flaxid_generate()")
GEN_EXPRS=("g" "gen_random_uuid()" "iuid_generate(1, 1)" "nextval('bench_seq')" "distid128_generate()"
	"public_id(g::bigint, $BENCH_KEY)" "public_id(g::bigint)"
	"encrypt('\\x0000000000000000'::bytea || int8send(g::bigint), $BENCH_KEY, 'aes-ecb/pad:none')"
	"flaxid_generate()")
ngen=${#GEN_EXPRS[@]}
# report positions (ord) of distid_generate()'s rows
ORD_BURST_LOOP=$ngen
ORD_BURST=$((ngen + 1))
ORD_SUSTAINED=$((ngen + 2))

# primary-key kinds for the insert benchmark, in report order
PK_KINDS=(iuid uuid bigserial distid numeric distid128)
declare -A PK_DDL=(
	[iuid]="iuid PRIMARY KEY DEFAULT iuid_generate(1, 1)"
	[uuid]="uuid PRIMARY KEY DEFAULT gen_random_uuid()"
	[bigserial]="bigserial PRIMARY KEY"
	[distid]="distid PRIMARY KEY DEFAULT distid_generate()"
	[numeric]="numeric PRIMARY KEY DEFAULT distid_generate()::numeric"
	[distid128]="uuid PRIMARY KEY DEFAULT distid128_generate()"
)

START=$SECONDS
idgen_setup_cluster

# the keyless public_id() reads the SPEC key from a key file (README, Keys)
as_server sh -c "umask 077 && echo 'k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=' > '$PGDATA/bench.keys'"
idgen_psql -c "ALTER SYSTEM SET idgen.public_id_key_file = 'bench.keys'" -c "SELECT pg_reload_conf()" >/dev/null

idgen_psql <<'SQL'
CREATE EXTENSION idgen;
CREATE EXTENSION pgstattuple;
CREATE EXTENSION pgcrypto;
CREATE SEQUENCE bench_seq;
-- loop_ord: the bare loop whose per-row time is subtracted (NULL for a loop)
CREATE TABLE bench_gen (ord int, label text, rep int, n bigint, loop_ord int, ms float8);
-- how far distid_generate() was from its rate limit right after a run
CREATE TABLE bench_headroom (kind text, rep int, ms float8);
CREATE TABLE bench_ins (kind text, rep int, ms float8);
CREATE TABLE bench_q (op int, label text, kind text, rep int, ms float8);

-- milliseconds one statement takes, measured in the server
CREATE FUNCTION bench_ms(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
BEGIN
	t0 := clock_timestamp();
	EXECUTE q;
	RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END $$;
SQL

gen_query() { # gen_query EXPR N
	printf 'SELECT count(%s) FROM generate_series(1, %d) AS g' "$1" "$2"
}

# SQL that times EXPR over N ids and records it
gen_record() { # gen_record ORD LABEL REP N LOOP_ORD EXPR
	printf "INSERT INTO bench_gen VALUES (%d, '%s', %d, %d, %s, bench_ms('%s'));" \
		"$1" "$(sqlq "$2")" "$3" "$4" "$5" "$(sqlq "$(gen_query "$6" "$4")")"
}

# SQL that records how many ms distid_generate()'s next id lags the clock:
# 1000 for a fresh generator, ~1 once it is at the rate limit
headroom_record() { # headroom_record KIND REP
	printf "INSERT INTO bench_headroom SELECT '%s', %d, extract(epoch FROM clock_timestamp() - distid_timestamp(distid_generate())) * 1000;" "$1" "$2"
}

# --- 1. generation cost ------------------------------------------------------

say "generation: warming up"
warm=$((BENCH_N / 10 > 0 ? BENCH_N / 10 : 1))
for i in "${!GEN_EXPRS[@]}"; do
	bench_psql -c "SELECT bench_ms('$(sqlq "$(gen_query "${GEN_EXPRS[$i]}" "$warm")")')" >/dev/null
done

for ((rep = 1; rep <= BENCH_REPEAT; rep++)); do
	sql=
	for ((k = 0; k < ngen; k++)); do
		i=$(((k + rep - 1) % ngen))	# rotate the order every round
		loop=0; [ "$i" -eq 0 ] && loop=NULL
		sql+=$(gen_record "$i" "${GEN_LABELS[$i]}" "$rep" "$BENCH_N" "$loop" "${GEN_EXPRS[$i]}")
	done
	bench_psql -c "$sql"
	say "generation round $rep/$BENCH_REPEAT: $(bench_psql -c "SELECT string_agg(format('%s %s ms', label, round(ms::numeric)), ', ' ORDER BY ord) FROM bench_gen WHERE rep = $rep")"
done

# distid_generate() inside its burst window: a fresh session per run; a bare
# loop of the same length in the same session, in alternating order
for ((rep = 1; rep <= BENCH_BURST_REPEAT; rep++)); do
	loop_sql=$(gen_record "$ORD_BURST_LOOP" "bare loop" "$rep" "$BENCH_BURST_N" NULL g)
	gen_sql=$(gen_record "$ORD_BURST" "distid_generate()" "$rep" "$BENCH_BURST_N" "$ORD_BURST_LOOP" "distid_generate()")
	gen_sql+=$(headroom_record burst "$rep")
	if ((rep % 2)); then sql="$loop_sql$gen_sql"; else sql="$gen_sql$loop_sql"; fi
	# warm up: plan and run both once on a handful of rows (one id drawn)
	bench_psql -c "SELECT bench_ms('$(sqlq "$(gen_query g 10)")'), bench_ms('$(sqlq "$(gen_query "distid_generate()" 1)")')" \
		-c "$sql" >/dev/null
done
say "distid_generate() burst: $(bench_psql -c "SELECT format('%s runs of %s ids: median %s ms (bare loop %s ms), least headroom %s ms of 1000', count(*) / 2, $BENCH_BURST_N, round((percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FILTER (WHERE ord = $ORD_BURST))::numeric, 2), round((percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FILTER (WHERE ord = $ORD_BURST_LOOP))::numeric, 2), (SELECT round(min(ms)::numeric) FROM bench_headroom WHERE kind = 'burst')) FROM bench_gen WHERE ord IN ($ORD_BURST, $ORD_BURST_LOOP)")"

# distid_generate() sustained: BENCH_DISTID_N ids in one statement, rate limit
# and all, each run in a fresh session
for ((rep = 1; rep <= BENCH_DISTID_REPEAT; rep++)); do
	sql=$(gen_record "$ORD_SUSTAINED" "distid_generate()" "$rep" "$BENCH_DISTID_N" 0 "distid_generate()")
	sql+=$(headroom_record sustained "$rep")
	bench_psql -c "SELECT bench_ms('$(sqlq "$(gen_query "distid_generate()" 1)")')" -c "$sql" >/dev/null
	say "distid_generate() sustained round $rep/$BENCH_DISTID_REPEAT: $BENCH_DISTID_N ids $(bench_psql -c "SELECT round(ms::numeric) FROM bench_gen WHERE ord = $ORD_SUSTAINED AND rep = $rep") ms"
done

# --- 2. bulk insert and index density -----------------------------------------

for ((rep = 1; rep <= BENCH_INSERT_REPEAT; rep++)); do
	for kind in "${PK_KINDS[@]}"; do
		t=bench_$kind
		idgen_psql -c "SET client_min_messages = warning" -c "DROP TABLE IF EXISTS $t" -c "CREATE TABLE $t (id ${PK_DDL[$kind]}, n int NOT NULL)" -c "CHECKPOINT"
		ms=$(bench_psql -c "SELECT bench_ms('INSERT INTO $t (n) SELECT g FROM generate_series(1, $BENCH_ROWS) AS g')")
		idgen_psql -c "INSERT INTO bench_ins VALUES ('$kind', $rep, $ms)"
		say "insert round $rep/$BENCH_INSERT_REPEAT: $kind $(printf '%.0f' "$ms") ms"
	done
done

# --- 3. distid vs numeric storage ---------------------------------------------

say "distid vs numeric: copying $BENCH_ROWS distids into both, in one random order"
idgen_psql <<'SQL'
SET client_min_messages = warning;
CREATE TABLE q_src AS SELECT id, random() AS r FROM bench_distid;
CREATE TABLE q_distid AS SELECT id FROM q_src ORDER BY r;
CREATE TABLE q_numeric AS SELECT id::numeric AS id FROM q_src ORDER BY r;
DROP TABLE q_src;
VACUUM ANALYZE q_distid;
VACUUM ANALYZE q_numeric;
SQL
same=$(bench_psql -c "SELECT (SELECT count(*) FROM q_distid) = (SELECT count(*) FROM q_numeric) AND (SELECT sum(id::numeric) FROM q_distid) = (SELECT sum(id) FROM q_numeric)")
[ "$same" = t ] || { say "q_distid and q_numeric do not hold the same values"; exit 1; }
# the median value: the range count below reads half the index
QV=$(bench_psql -c "SELECT id FROM q_distid ORDER BY id OFFSET (SELECT count(*) / 2 FROM q_distid) LIMIT 1")
[[ $QV =~ ^[0-9]+$ ]] || { say "unexpected median distid '$QV'"; exit 1; }

Q_LABELS=("sort: \`SELECT count(*) FROM (SELECT id FROM t ORDER BY id OFFSET 0) s\`"
	"\`CREATE INDEX ON t (id)\`"
	"index-only range count: \`SELECT count(*) FROM t WHERE id >= <median>\`")
Q_SHORT=(sort "create index" "range count")
q_sql() { # q_sql OP KIND: the statement op OP runs on table q_KIND
	case $1 in
		0) printf 'SELECT count(*) FROM (SELECT id FROM q_%s ORDER BY id OFFSET 0) AS s' "$2" ;;
		1) printf 'CREATE INDEX q_%s_id ON q_%s (id)' "$2" "$2" ;;
		2) printf "SELECT count(*) FROM q_%s WHERE id >= '%s'::%s" "$2" "$QV" "$2" ;;
	esac
}
q_record() { # q_record OP KIND REP
	printf "INSERT INTO bench_q VALUES (%d, '%s', '%s', %d, bench_ms('%s'));" \
		"$1" "$(sqlq "${Q_LABELS[$1]}")" "$2" "$3" "$(sqlq "$(q_sql "$1" "$2")")"
}

# warm up: read both tables into shared buffers / the page cache
bench_psql -c "SELECT count(*) FROM q_distid" -c "SELECT count(*) FROM q_numeric" >/dev/null
for ((rep = 1; rep <= BENCH_QUERY_REPEAT; rep++)); do
	if ((rep % 2)); then kinds=(distid numeric); else kinds=(numeric distid); fi
	args=(-c "SET client_min_messages = warning; DROP INDEX IF EXISTS q_distid_id, q_numeric_id")
	for op in 0 1; do
		for kind in "${kinds[@]}"; do args+=(-c "$(q_record "$op" "$kind" "$rep")"); done
	done
	# the range count must go through the index just built
	args+=(-c "SET enable_seqscan = off; SET enable_bitmapscan = off")
	for kind in "${kinds[@]}"; do args+=(-c "$(q_record 2 "$kind" "$rep")"); done
	bench_psql "${args[@]}" >/dev/null
	say "distid vs numeric round $rep/$BENCH_QUERY_REPEAT: $(bench_psql -c "SELECT string_agg(format('%s %s %s ms', (ARRAY['$(sqlq "${Q_SHORT[0]}")', '$(sqlq "${Q_SHORT[1]}")', '$(sqlq "${Q_SHORT[2]}")'])[op + 1], kind, round(ms::numeric)), ', ' ORDER BY op, kind) FROM bench_q WHERE rep = $rep")"
done

# the plans, to show what was measured (indexes exist now)
plan_notes() { # plan_notes KIND
	local sort range
	sort=$(bench_psql -c "SET enable_indexscan = off; SET enable_indexonlyscan = off" \
		-c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) $(q_sql 0 "$1")" |
		sed -n 's/^ *Sort Method: \(.*\)$/\1/p' | tr -s ' ' | head -n 1)
	range=$(bench_psql -c "SET enable_seqscan = off; SET enable_bitmapscan = off" \
		-c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) $(q_sql 2 "$1")" |
		sed -n 's/^.*\(Index Only Scan\|Index Scan\|Seq Scan\|Bitmap Heap Scan\) .*(actual rows=\([0-9]*\).*$/\1 (\2 rows)/p; s/^ *\(Heap Fetches: [0-9]*\)$/\1/p' | paste -sd, - | sed 's/,/, /g')
	printf '%s: sort — %s; range count — %s' "$1" "${sort:-?}" "${range:-?}"
}
Q_PLANS="$(plan_notes distid); $(plan_notes numeric)"

# --- report -------------------------------------------------------------------

GEN_ROWS=$(bench_psql -f - <<SQL
WITH m AS (
	SELECT ord, label, n, loop_ord, count(*) AS runs,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS med,
		min(ms) AS lo, max(ms) AS hi
	FROM bench_gen GROUP BY ord, label, n, loop_ord
), c AS (
	SELECT m.*, m.med * 1e6 / m.n AS ns,
		m.med * 1e6 / m.n - coalesce(l.med * 1e6 / l.n, 0) AS net
	FROM m LEFT JOIN m AS l ON l.ord = m.loop_ord
), uuid AS (SELECT net FROM c WHERE ord = 1)
SELECT c.ord, c.label, c.n, c.runs,
	round(c.med::numeric, CASE WHEN c.med < 100 THEN 1 ELSE 0 END),
	round(c.lo::numeric, CASE WHEN c.hi < 100 THEN 1 ELSE 0 END) || '–' ||
		round(c.hi::numeric, CASE WHEN c.hi < 100 THEN 1 ELSE 0 END),
	CASE WHEN c.loop_ord IS NULL THEN round(c.ns::numeric, 1) || ' (loop)'
		ELSE round(c.net::numeric, 1)::text END,
	CASE WHEN c.loop_ord IS NULL THEN '–'
		WHEN c.net <= 0 THEN 'n/a'
		ELSE round((uuid.net / c.net)::numeric, 2)::text || 'x' END
FROM c, uuid ORDER BY c.ord;
SQL
)

# net ns/id and gen_random_uuid ratio of one generator row, by ord
gen_field() { # gen_field ORD FIELD(7 = ns/id net, 8 = ratio)
	awk -F'|' -v o="$1" -v f="$2" '$1 == o { sub(/x$/, "", $f); print $f }' <<<"$GEN_ROWS"
}
IUID_RATIO=$(gen_field 2 8)
D128_NS=$(gen_field 4 7); D128_RATIO=$(gen_field 4 8)
PUB_NS=$(gen_field 5 7); PUB_FILE_NS=$(gen_field 6 7); PGCRYPTO_NS=$(gen_field 7 7)
FLAX_NS=$(gen_field 8 7); FLAX_RATIO=$(gen_field 8 8)
BURST_NS=$(gen_field "$ORD_BURST" 7); BURST_RATIO=$(gen_field "$ORD_BURST" 8)

HEADROOM=$(bench_psql -c "SELECT round(min(ms) FILTER (WHERE kind = 'burst')::numeric), round(max(ms) FILTER (WHERE kind = 'sustained')::numeric, 1) FROM bench_headroom")
BURST_HEADROOM=${HEADROOM%%|*}
SUSTAINED_HEADROOM=${HEADROOM##*|}

SUSTAINED=$(bench_psql -c "SELECT round(med::numeric), round(($BENCH_DISTID_N / med)::numeric, 1), round((greatest($BENCH_DISTID_N - $DISTID_BURST, 0) / med)::numeric, 1) FROM (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS med FROM bench_gen WHERE ord = $ORD_SUSTAINED) AS m")
IFS='|' read -r SUST_MS SUST_RATE SUST_RATE_AFTER <<<"$SUSTAINED"
SUST_PREDICT=$(((BENCH_DISTID_N > DISTID_BURST ? BENCH_DISTID_N - DISTID_BURST : 0) / DISTID_PER_MS))

INS_VALUES=
for i in "${!PK_KINDS[@]}"; do
	k=${PK_KINDS[$i]}
	INS_VALUES+="${INS_VALUES:+, }($i, '$k', '$(sqlq "${PK_DDL[$k]}")')"
done
INS_ROWS=$(bench_psql -f - <<SQL
WITH m AS (
	SELECT kind, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS med,
		min(ms) AS lo, max(ms) AS hi
	FROM bench_ins GROUP BY kind
), s AS (SELECT med FROM m WHERE kind = 'bigserial')
SELECT k.kind, k.ddl,
	round(m.med::numeric), round(m.lo::numeric) || '–' || round(m.hi::numeric),
	round((m.med / s.med)::numeric, 2) || 'x',
	round((m.med * 1e6 / $BENCH_ROWS)::numeric) ,
	round(st.avg_leaf_density::numeric, 1),
	st.leaf_pages,
	pg_size_pretty(pg_relation_size(format('bench_%s_pkey', k.kind)::regclass)),
	pg_size_pretty(pg_relation_size(format('bench_%s', k.kind)::regclass))
FROM (VALUES $INS_VALUES) AS k(ord, kind, ddl)
	JOIN m USING (kind) CROSS JOIN s
	CROSS JOIN LATERAL pgstatindex(format('bench_%s_pkey', k.kind)) AS st
ORDER BY k.ord;
SQL
)

ins_field() { # ins_field KIND FIELD(3 = median ms, 7 = density, 9 = index size)
	awk -F'|' -v k="$1" -v f="$2" '$1 == k { print $f }' <<<"$INS_ROWS"
}
IUID_DENSITY=$(ins_field iuid 7)

Q_ROWS=$(bench_psql -f - <<SQL
WITH m AS (
	SELECT op, label, kind, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS med
	FROM bench_q GROUP BY op, label, kind
)
SELECT d.op, d.label, round(d.med::numeric, 1), round(n.med::numeric, 1),
	round((n.med / d.med)::numeric, 2) || 'x'
FROM m AS d JOIN m AS n USING (op, label)
WHERE d.kind = 'distid' AND n.kind = 'numeric'
ORDER BY d.op;
SQL
)
Q_SIZES=$(bench_psql -c "SELECT format('table %s vs %s, index %s vs %s (%s index-size ratio)', pg_size_pretty(pg_relation_size('q_distid')), pg_size_pretty(pg_relation_size('q_numeric')), pg_size_pretty(pg_relation_size('q_distid_id')), pg_size_pretty(pg_relation_size('q_numeric_id')), round(pg_relation_size('q_numeric_id')::numeric / pg_relation_size('q_distid_id'), 2) || 'x')")
q_field() { # q_field OP FIELD(5 = ratio)
	awk -F'|' -v o="$1" -v f="$2" '$1 == o { print $f }' <<<"$Q_ROWS"
}

PG_VERSION=$(bench_psql -c "SHOW server_version")
PG_SETTINGS=$(bench_psql -c "SELECT string_agg(name || '=' || current_setting(name), ', ' ORDER BY name) FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'shared_buffers', 'work_mem', 'maintenance_work_mem', 'jit', 'max_parallel_workers_per_gather', 'max_parallel_maintenance_workers', 'wal_level', 'full_page_writes')")
CPU=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
CLOCK=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown)
REV=$(git -C "$IDGEN_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$IDGEN_ROOT" diff --quiet HEAD -- src sql 2>/dev/null || REV+=" (src/sql modified)"

idgen_cluster_stop

pass() { # pass CONDITION-as-awk-expression
	awk "BEGIN { exit !($1) }" && echo "met" || echo "NOT met"
}

{
	echo
	echo "## idgen benchmark"
	echo
	echo "Machine: $(nproc) CPUs, $CPU, clocksource $CLOCK, Linux $(uname -r)."
	echo "PostgreSQL $PG_VERSION; idgen $REV, built with PostgreSQL's CFLAGS."
	echo "Settings: $PG_SETTINGS (bench cluster: fsync off, rest default)."
	echo
	echo "### Cost per id: \`SELECT count(<expr>) FROM generate_series(1, <ids>)\`"
	echo
	echo "Server-side time, median of the runs; \"net\" subtracts the bare loop's time per row."
	echo "The first $ngen rows: $BENCH_REPEAT interleaved runs in one session each round."
	echo "\`distid_generate()\` sleeps 1 ms per ~$DISTID_PER_MS ids once a session has used its"
	echo "burst of ~$DISTID_BURST (the reference's rate limit), so it is measured apart, each run in a fresh session:"
	echo "within the burst window ($BENCH_BURST_N ids, net of a bare loop of $BENCH_BURST_N in the same session),"
	if [ "$BENCH_DISTID_N" = "$BENCH_N" ]; then
		echo "and sustained ($BENCH_DISTID_N ids)."
	else
		echo "and sustained ($BENCH_DISTID_N ids, not $BENCH_N: at ~$DISTID_PER_MS ids/ms $BENCH_N would take ~$(((BENCH_N > DISTID_BURST ? BENCH_N - DISTID_BURST : 0) / DISTID_PER_MS / 1000)) s a run)."
	fi
	echo
	echo "| generator | ids | runs | median ms | min–max ms | ns/id net | gen_random_uuid / this |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	while IFS='|' read -r ord label n runs med range ns ratio; do
		case $ord in
			0) label="$label, \`count(g)\`" ;;
			"$ORD_BURST_LOOP") label="$label, \`count(g)\`, fresh session" ;;
			"$ORD_BURST") label="\`$label\`, within the burst window" ;;
			"$ORD_SUSTAINED") label="\`$label\`, sustained: **includes the reference's rate limit**" ;;
			*) label="\`$label\`" ;;
		esac
		echo "| $label | $n | $runs | $med | $range | $ns | $ratio |"
	done <<<"$GEN_ROWS"
	echo
	echo "Burst runs: right after each, the next id lagged the clock by at least ${BURST_HEADROOM} ms of the 1000 ms leeway"
	echo "(0 would mean the generator had reached its rate limit) — $(pass "$BURST_HEADROOM >= 50" | sed 's/^met$/no burst run slept/; s/^NOT met$/WARNING: some burst runs may include sleeps/')."
	echo "Sustained runs: $BENCH_DISTID_N ids in $SUST_MS ms = $SUST_RATE ids/ms overall, ≈ $SUST_RATE_AFTER ids/ms beyond the ~$DISTID_BURST burst;"
	echo "the limit predicts ≈ $SUST_PREDICT ms of waiting (($BENCH_DISTID_N − $DISTID_BURST) ÷ $DISTID_PER_MS ids/ms); next id's lag afterwards at most ${SUSTAINED_HEADROOM} ms (at the limit)."
	echo
	echo "### Bulk insert of $BENCH_ROWS rows in one session, then \`pgstatindex()\` on the primary key"
	echo
	echo "Insert time: median of $BENCH_INSERT_REPEAT runs into a fresh table (\`id <pk>, n int\`); index figures from the last run."
	echo
	echo "| primary key | insert ms | min–max ms | vs bigserial | ns/row | avg leaf density % | leaf pages | index size | table size |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	while IFS='|' read -r kind ddl med range ratio nsrow dens leaves isize tsize; do
		echo "| \`$ddl\` | $med | $range | $ratio | $nsrow | $dens | $leaves | $isize | $tsize |"
	done <<<"$INS_ROWS"
	echo
	echo "The \`distid\` and \`numeric\` rows' insert times are \`distid_generate()\`'s rate limit, not storage: $BENCH_ROWS ids"
	echo "in one session cannot be drawn faster than the clock allows, ≈ $(((BENCH_ROWS > DISTID_BURST ? BENCH_ROWS - DISTID_BURST : 0) / DISTID_PER_MS)) ms by the reference's rule"
	echo "(the insert work runs within that time, the generator sleeps the rest).$(
		[ "$BENCH_ROWS" = "$BENCH_DISTID_N" ] && echo " Generating them alone took $SUST_MS ms (sustained row above).")"
	echo "For what the storage type costs, see the next section."
	echo
	echo "### distid vs numeric storage of the same $BENCH_ROWS values"
	echo
	echo "The distids of the last bulk insert, copied into \`q_distid (id distid)\` and \`q_numeric (id numeric)\` in the same"
	echo "random order; median of $BENCH_QUERY_REPEAT runs, alternating which goes first; range count from \`<median>\` = $QV."
	echo
	echo "| operation | distid ms | numeric ms | numeric / distid |"
	echo "|---|---:|---:|---:|"
	while IFS='|' read -r op label dms nms ratio; do
		echo "| $label | $dms | $nms | $ratio |"
	done <<<"$Q_ROWS"
	echo
	echo "Sizes: $Q_SIZES."
	echo "Plans: $Q_PLANS."
	echo
	echo "### Goals"
	echo
	echo "- iuid_generate at least 5x cheaper per id than gen_random_uuid(): measured ${IUID_RATIO}x — $(pass "$IUID_RATIO >= 5")"
	echo "- iuid primary key leaf density at least 88%: measured ${IUID_DENSITY}% — $(pass "$IUID_DENSITY >= 88")"
	echo "- (info) distid_generate within its burst: ${BURST_NS} ns/id, ${BURST_RATIO}x cheaper than gen_random_uuid(); sustained ${SUST_RATE_AFTER} ids/ms beyond the burst (reference: ~$DISTID_PER_MS)"
	echo "- (info) distid128_generate: ${D128_NS} ns/id, ${D128_RATIO}x cheaper than gen_random_uuid()"
	echo "- (info) flaxid_generate: ${FLAX_NS} ns/id, ${FLAX_RATIO}x cheaper than gen_random_uuid()"
	echo "- (info) public_id: ${PUB_NS} ns/call with the key as argument, ${PUB_FILE_NS} ns with the key from the key file; pgcrypto encrypt() of the same block ${PGCRYPTO_NS} ns ($(awk "BEGIN { printf \"%.1f\", $PGCRYPTO_NS / $PUB_NS }")x)"
	echo "- (info) distid primary key leaf density $(ins_field distid 7)% (index $(ins_field distid 9)); as numeric $(ins_field numeric 7)% (index $(ins_field numeric 9)); distid128 $(ins_field distid128 7)%"
	echo "- (info) numeric instead of distid: sort $(q_field 0 5), CREATE INDEX $(q_field 1 5), index-only range count $(q_field 2 5) the time"
	echo
	echo "(total run time $((SECONDS - START)) s)"
}
