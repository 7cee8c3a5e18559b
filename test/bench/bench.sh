#!/usr/bin/env bash
# iuid benchmark: what one id costs to generate, and how dense a primary-key
# index stays after a bulk insert, next to gen_random_uuid() and bigserial.
#
#   bash test/bench/iuid_bench.sh
#
# Settings (environment):
#   BENCH_N             ids per generation measurement        (default 5000000)
#   BENCH_REPEAT        repetitions of each generation run    (default 5)
#   BENCH_ROWS          rows per bulk insert                  (default 1000000)
#   BENCH_INSERT_REPEAT repetitions of each bulk insert       (default 3)
#   IDGEN_KEEP=1        keep the scratch cluster (see tools/lib.sh)
#
# Generation: SELECT count(<expr>) FROM generate_series(1, N), timed inside the
# server (clock_timestamp() around EXECUTE in a plpgsql function), so neither
# the client nor the network is measured.  The bare loop (count(g)) is
# subtracted to get the cost of the generator alone.  Repetitions are
# interleaved (the order rotates each round) and the median is reported.
#
# Index density: one INSERT ... SELECT of BENCH_ROWS rows per table, in one
# session, into a fresh table after a CHECKPOINT; pgstatindex() on the primary
# key afterwards.  The insert time is the median over the repetitions.
#
# The result table at the end is markdown, ready for README.md.
source "$(dirname "$0")/../../tools/lib.sh"

BENCH_N=${BENCH_N:-5000000}
BENCH_REPEAT=${BENCH_REPEAT:-5}
BENCH_ROWS=${BENCH_ROWS:-1000000}
BENCH_INSERT_REPEAT=${BENCH_INSERT_REPEAT:-3}

for v in BENCH_N BENCH_REPEAT BENCH_ROWS BENCH_INSERT_REPEAT; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || { say "$v must be a positive integer, not '${!v}'"; exit 2; }
done

# Every benchmark session runs with these: no JIT (its compile time would be
# counted in some queries and not others), no parallel workers (the loop must
# run in one process), and enough work_mem for generate_series' tuplestore to
# stay in memory.
SESSION_SETTINGS="SET jit = off; SET max_parallel_workers_per_gather = 0; SET work_mem = '1GB';"

bench_psql() {
	idgen_psql -At -F'|' -c "$SESSION_SETTINGS" "$@"
}

# generator label and SQL expression, in report order; the first is the loop
GEN_LABELS=("bare loop" "gen_random_uuid()" "iuid_generate(1, 1)" "nextval('bench_seq')")
GEN_EXPRS=("g" "gen_random_uuid()" "iuid_generate(1, 1)" "nextval('bench_seq')")

# primary-key kinds for the insert benchmark
PK_KINDS=(iuid uuid bigserial)
declare -A PK_DDL=(
	[iuid]="iuid PRIMARY KEY DEFAULT iuid_generate(1, 1)"
	[uuid]="uuid PRIMARY KEY DEFAULT gen_random_uuid()"
	[bigserial]="bigserial PRIMARY KEY"
)

START=$SECONDS
idgen_setup_cluster

idgen_psql <<'SQL'
CREATE EXTENSION idgen;
CREATE EXTENSION pgstattuple;
CREATE SEQUENCE bench_seq;
CREATE TABLE bench_gen (ord int, label text, rep int, ms float8);
CREATE TABLE bench_ins (kind text, rep int, ms float8);

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

# --- 1. generation cost ------------------------------------------------------

say "generation: warming up"
warm=$((BENCH_N / 10 > 0 ? BENCH_N / 10 : 1))
for i in "${!GEN_EXPRS[@]}"; do
	bench_psql -c "SELECT bench_ms('$(gen_query "${GEN_EXPRS[$i]}" "$warm" | sed "s/'/''/g")')" >/dev/null
done

ngen=${#GEN_EXPRS[@]}
for ((rep = 1; rep <= BENCH_REPEAT; rep++)); do
	sql=
	for ((k = 0; k < ngen; k++)); do
		i=$(((k + rep - 1) % ngen))	# rotate the order every round
		q=$(gen_query "${GEN_EXPRS[$i]}" "$BENCH_N" | sed "s/'/''/g")
		sql+="INSERT INTO bench_gen VALUES ($i, '$(sed "s/'/''/g" <<<"${GEN_LABELS[$i]}")', $rep, bench_ms('$q'));"
	done
	bench_psql -c "$sql"
	say "generation round $rep/$BENCH_REPEAT: $(bench_psql -c "SELECT string_agg(format('%s %s ms', label, round(ms::numeric)), ', ' ORDER BY ord) FROM bench_gen WHERE rep = $rep")"
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

# --- report -------------------------------------------------------------------

GEN_ROWS=$(bench_psql -f - <<SQL
WITH m AS (
	SELECT ord, label,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS med,
		min(ms) AS lo, max(ms) AS hi
	FROM bench_gen GROUP BY ord, label
), base AS (SELECT med FROM m WHERE ord = 0),
uuid AS (SELECT m.med - base.med AS net FROM m, base WHERE ord = 1)
SELECT m.label,
	round(m.med::numeric),
	round(m.lo::numeric) || '–' || round(m.hi::numeric),
	CASE WHEN m.ord = 0 THEN round((m.med * 1e6 / $BENCH_N)::numeric, 1) || ' (loop)'
		ELSE round(((m.med - base.med) * 1e6 / $BENCH_N)::numeric, 1)::text END,
	CASE WHEN m.ord = 0 THEN '–'
		WHEN m.med - base.med <= 0 THEN 'n/a'
		ELSE round((uuid.net / (m.med - base.med))::numeric, 2)::text || 'x' END
FROM m, base, uuid ORDER BY m.ord;
SQL
)

IUID_RATIO=$(bench_psql -f - <<SQL
WITH m AS (
	SELECT ord, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS med
	FROM bench_gen GROUP BY ord
)
SELECT round(((u.med - b.med) / NULLIF(i.med - b.med, 0))::numeric, 2)
FROM m b, m u, m i WHERE b.ord = 0 AND u.ord = 1 AND i.ord = 2;
SQL
)

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
FROM (VALUES (1, 'iuid', '${PK_DDL[iuid]}'),
             (2, 'uuid', '${PK_DDL[uuid]}'),
             (3, 'bigserial', '${PK_DDL[bigserial]}')) AS k(ord, kind, ddl)
	JOIN m USING (kind) CROSS JOIN s
	CROSS JOIN LATERAL pgstatindex(format('bench_%s_pkey', k.kind)) AS st
ORDER BY k.ord;
SQL
)

IUID_DENSITY=$(bench_psql -c "SELECT round(avg_leaf_density::numeric, 1) FROM pgstatindex('bench_iuid_pkey')")

PG_VERSION=$(bench_psql -c "SHOW server_version")
PG_SETTINGS=$(bench_psql -c "SELECT string_agg(name || '=' || current_setting(name), ', ' ORDER BY name) FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'shared_buffers', 'work_mem', 'jit', 'max_parallel_workers_per_gather', 'wal_level', 'full_page_writes')")
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
	echo "## iuid benchmark"
	echo
	echo "Machine: $(nproc) CPUs, $CPU, clocksource $CLOCK, Linux $(uname -r)."
	echo "PostgreSQL $PG_VERSION; idgen $REV, built with PostgreSQL's CFLAGS."
	echo "Settings: $PG_SETTINGS (bench cluster: fsync off, rest default)."
	echo
	echo "### Cost per id: \`SELECT count(<expr>) FROM generate_series(1, $BENCH_N)\`"
	echo
	echo "Server-side time, median of $BENCH_REPEAT interleaved runs; \"net\" subtracts the bare loop."
	echo
	echo "| generator | median ms | min–max ms | ns/id net | gen_random_uuid / this |"
	echo "|---|---:|---:|---:|---:|"
	while IFS='|' read -r label med range ns ratio; do
		[ "$label" = "${GEN_LABELS[0]}" ] && label="$label, \`count(g)\`" || label="\`$label\`"
		echo "| $label | $med | $range | $ns | $ratio |"
	done <<<"$GEN_ROWS"
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
	echo "### Goals"
	echo
	echo "- iuid_generate at least 5x cheaper per id than gen_random_uuid(): measured ${IUID_RATIO}x — $(pass "$IUID_RATIO >= 5")"
	echo "- iuid primary key leaf density at least 88%: measured ${IUID_DENSITY}% — $(pass "$IUID_DENSITY >= 88")"
	echo
	echo "(total run time $((SECONDS - START)) s)"
}
