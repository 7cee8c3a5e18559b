#!/usr/bin/env bash
# Parity with the nearest core type, for profiling a change to type I/O or
# sorting: the same ids stored as iuid and uuid, flaxid and text, distid and
# numeric(28,0), base36id and bigint, put through
#
#   copy_to_text copy_to_bin copy_from_text copy_from_bin
#   sort_mem sort_ext create_index any_lookup any_hash
#
#   bash test/bench/parity.sh time     interleaved rounds (the order of the
#                                      two sides alternates) after one to warm
#                                      up: median and
#                                      min..max per statement, and core / idgen
#                                      per round, median (min..max), of the
#                                      wall-clock and of the backend's CPU time
#   bash test/bench/parity.sh instr    instructions per row (callgrind,
#                                      repeatable on a busy machine), each
#                                      statement run twice in a single-user
#                                      backend, the second one counted
#   bash test/bench/parity.sh profile OP PAIR SIDE
#                                      callgrind_annotate of that statement
#                                      (SIDE i: idgen, c: core)
#
# Settings (environment): IDGEN_PG_VERSION (the server: use a release build),
# PARITY_ROWS (1000000; instr and profile: 100000), PARITY_ROUNDS (5),
# PARITY_OPS and PARITY_PAIRS (subsets of the lists above), PARITY_PROBES
# (ids in the = ANY(...) array of an index scan, 10000; any_hash: a constant
# array of the first 1000, looked up in a hash table by a sequential scan).
# Nothing here asserts a timing; the load average before and after is
# printed with the figures, since the machine may be shared.
source "$(dirname "$0")/../../tools/lib.sh"

MODE=${1:-time}
case $MODE in
	time) : "${PARITY_ROWS:=1000000}" ;;
	instr | profile) : "${PARITY_ROWS:=100000}" ;;
	*) say "usage: parity.sh time | instr | profile OP PAIR SIDE"; exit 2 ;;
esac
: "${PARITY_ROUNDS:=5}" "${PARITY_PROBES:=10000}"
ALL_OPS="copy_to_text copy_to_bin copy_from_text copy_from_bin sort_mem sort_ext create_index any_lookup any_hash"
read -r -a OPS <<<"${PARITY_OPS:-$ALL_OPS}"
read -r -a PAIRS <<<"${PARITY_PAIRS:-iuid flaxid distid base36id}"
declare -A CORE=([iuid]=uuid [distid]="numeric(28,0)" [flaxid]=text [base36id]=bigint)
declare -A SRC=(
	# a bulk load: 1000 ids in each millisecond, so the abbreviated keys
	# (time, version, country) tie and whole ids are compared
	[iuid]="SELECT iuid_generate(42, 5, timestamptz '2026-01-01 00:00:00+00' + (g / 1000) * interval '1 ms') AS id FROM generate_series(0, $PARITY_ROWS - 1) AS g"
	[flaxid]="SELECT flaxid_generate() AS id FROM generate_series(1, $PARITY_ROWS)"
	[distid]="SELECT distid_generate() AS id FROM generate_series(1, $PARITY_ROWS)"
	# 1296 a second from worker 0, as base36id_generate() would make them
	[base36id]="SELECT (base36id_from_timestamp(timestamptz '2026-01-01 00:00:00+00' + (g / 1296) * interval '1 second')::bigint + g % 1296)::base36id AS id FROM generate_series(0, $PARITY_ROWS - 1) AS g"
)
for p in "${PAIRS[@]}"; do [ -n "${CORE[$p]:-}" ] || { say "unknown pair $p"; exit 2; }; done

IDGEN_SETUP_PACKAGES=(make)
[ "$MODE" = time ] || IDGEN_SETUP_PACKAGES+=(valgrind)
idgen_setup_cluster
idgen_say_assertions
grep -q '^#define USE_ASSERT_CHECKING 1' "$("$PG_CONFIG" --includedir-server)/pg_config.h" &&
	say "WARNING: this server checks assertions: its timings say nothing about a release build"
DIR=$IDGEN_WORK/copy
as_server mkdir -p "$DIR"

# the statement OP runs on table T (q_T holds the ids, qin_T is empty, qix_T
# is q_T with an index, probe_T one array of ids to look up, LITERAL[T] the
# first 1000 of them as a constant)
op_sql() {
	local t=$2
	case $1 in
		copy_to_text) echo "COPY q_$t TO '$DIR/$t.txt'" ;;
		copy_to_bin) echo "COPY q_$t TO '$DIR/$t.bin' (FORMAT binary)" ;;
		copy_from_text) echo "COPY qin_$t FROM '$DIR/$t.txt'" ;;
		copy_from_bin) echo "COPY qin_$t FROM '$DIR/$t.bin' (FORMAT binary)" ;;
		sort_mem) echo "SELECT count(*) FROM (SELECT id FROM q_$t ORDER BY id OFFSET 0) AS s" ;;
		sort_ext) echo "SELECT count(*) FROM (SELECT id FROM q_$t ORDER BY id OFFSET 0) AS s" ;;
		create_index) echo "CREATE INDEX qi_$t ON q_$t (id)" ;;
		any_lookup) echo "SELECT count(*) FROM probe_$t, qix_$t WHERE id = ANY (a)" ;;
		any_hash) echo "SELECT count(*) FROM q_$t WHERE id = ANY (${LITERAL[$t]})" ;;
	esac
}
# what each statement needs before it, not measured
# (the index create_index leaves on q_T goes first: sorts would read it)
op_pre() {
	case $1 in
		copy_from_*) echo "TRUNCATE qin_$2;" ;;
		create_index | any_hash) echo "DROP INDEX IF EXISTS qi_$2;" ;;
		sort_ext) echo "DROP INDEX IF EXISTS qi_$2; SET work_mem = '$EXT_WORK_MEM';" ;;
		sort_mem) echo "DROP INDEX IF EXISTS qi_$2; SET work_mem = '1GB';" ;;
	esac
}
# an external sort: about 4MB for 1M rows, some ten runs to merge
EXT_WORK_MEM=$((PARITY_ROWS * 4 / 1000 > 64 ? PARITY_ROWS * 4 / 1000 : 64))kB
SETTINGS="SET client_min_messages = warning; SET jit = off; SET synchronize_seqscans = off; SET max_parallel_workers_per_gather = 0; SET max_parallel_maintenance_workers = 0; SET maintenance_work_mem = '1GB'; SET work_mem = '1GB'; SET enable_seqscan = off; SET enable_bitmapscan = off;"

say "$PARITY_ROWS ids of ${PAIRS[*]}"
declare -A LITERAL
for p in "${PAIRS[@]}"; do
	c=${CORE[$p]}
	# the copy of the ids in the same order: no parallel scan (its workers
	# interleave), no scan starting where the last one stopped
	idgen_psql -f - <<SQL
SET client_min_messages = warning;
SET synchronize_seqscans = off;
SET max_parallel_workers_per_gather = 0;
CREATE EXTENSION IF NOT EXISTS idgen;
CREATE TABLE q_${p}_i WITH (autovacuum_enabled = off) AS
	SELECT id FROM (${SRC[$p]}) AS s ORDER BY random();
CREATE TABLE q_${p}_c WITH (autovacuum_enabled = off) AS SELECT id::$c AS id FROM q_${p}_i;
CREATE TABLE qin_${p}_i (LIKE q_${p}_i) WITH (autovacuum_enabled = off);
CREATE TABLE qin_${p}_c (LIKE q_${p}_c) WITH (autovacuum_enabled = off);
CREATE TABLE qix_${p}_i WITH (autovacuum_enabled = off) AS SELECT * FROM q_${p}_i;
CREATE TABLE qix_${p}_c WITH (autovacuum_enabled = off) AS SELECT * FROM q_${p}_c;
CREATE INDEX ON qix_${p}_i (id);
CREATE INDEX ON qix_${p}_c (id);
CREATE TABLE probe_${p}_i AS SELECT array_agg(id) AS a FROM (SELECT id FROM q_${p}_i ORDER BY random() LIMIT $PARITY_PROBES) AS s;
CREATE TABLE probe_${p}_c AS SELECT array_agg(id::$c) AS a FROM (SELECT unnest(a) AS id FROM probe_${p}_i) AS s;
VACUUM ANALYZE;
SQL
	same=$(idgen_psql -At -c "SET synchronize_seqscans = off" -c "SET max_parallel_workers_per_gather = 0" -c "SELECT (SELECT array_agg(id::$c) FROM q_${p}_i) = (SELECT array_agg(id) FROM q_${p}_c)")
	[ "$same" = t ] || { say "q_${p}_i and q_${p}_c differ"; exit 1; }
	# the files COPY FROM reads
	idgen_psql -c "$(op_sql copy_to_text "${p}_i")" -c "$(op_sql copy_to_bin "${p}_i")" \
		-c "$(op_sql copy_to_text "${p}_c")" -c "$(op_sql copy_to_bin "${p}_c")"
	LITERAL[${p}_i]=$(idgen_psql -At -c "SELECT quote_literal(a[1:1000]) || '::' || pg_typeof(a) FROM probe_${p}_i")
	LITERAL[${p}_c]=$(idgen_psql -At -c "SELECT quote_literal(a[1:1000]) || '::' || pg_typeof(a) FROM probe_${p}_c")
done

if [ "$MODE" = time ]; then
	# Each statement runs on its own, and log_statement_stats writes its
	# getrusage() figures to the server log: wall-clock time, and the
	# backend's CPU time (user + system), which waiting for a CPU on a busy
	# machine does not inflate.  A comment names the statement in the log.
	# round 0 warms the caches and is left out of the figures
	LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
	for ((r = 0; r <= PARITY_ROUNDS; r++)); do
		if ((r % 2)); then sides=(i c); else sides=(c i); fi
		args=(-c "$SETTINGS")
		for op in "${OPS[@]}"; do
			for p in "${PAIRS[@]}"; do
				for s in "${sides[@]}"; do
					pre=$(op_pre "$op" "${p}_$s")
					[ -z "$pre" ] || args+=(-c "$pre")
					args+=(-c "SET log_statement_stats = on" -c "/* parity $op $p $s $r */ $(op_sql "$op" "${p}_$s")"
						-c "RESET log_statement_stats")
				done
			done
		done
		nice -n 10 "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -c "SET log_min_error_statement = log" "${args[@]}" >/dev/null
		say "round $r/$PARITY_ROUNDS (load average $(cut -d' ' -f1 /proc/loadavg))"
	done
	LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)
	# QUERY STATISTICS, its "s user, s system, s elapsed" line, then STATEMENT
	awk '/LOG:  QUERY STATISTICS/ { want = 1; t = ""; next }
		want && t == "" && /s user, .* s system, .* s elapsed/ {
			for (i = 1; i <= NF; i++) { if ($(i + 1) == "s") { if ($(i + 2) ~ /^user/) u = $i; if ($(i + 2) ~ /^system/) y = $i; if ($(i + 2) ~ /^elapsed/) e = $i } }
			t = u " " y " " e; next }
		want && /STATEMENT:  \/\* parity / { split($0, a, "/\\* parity "); split(a[2], f, " ");
			split(t, x, " "); printf "%s\t%s\t%s\t%s\t%s\t%s\n", f[1], f[2], f[3], f[4], x[3] * 1000, (x[1] + x[2]) * 1000; want = 0 }' \
		"$IDGEN_WORK/server.log" >"$IDGEN_WORK/parity.tsv"
	[ "$(wc -l <"$IDGEN_WORK/parity.tsv")" -eq $(((PARITY_ROUNDS + 1) * ${#OPS[@]} * ${#PAIRS[@]} * 2)) ] ||
		{ say "the server log does not have every statement's figures"; exit 1; }
	idgen_psql -c "CREATE TABLE parity (op text, pair text, side text, round int, ms float8, cpu_ms float8)" \
		-c "\\copy parity FROM '$IDGEN_WORK/parity.tsv'"
	echo "PostgreSQL $(idgen_psql -At -c 'SHOW server_version'); $PARITY_ROWS rows; $PARITY_ROUNDS interleaved rounds; load average before $LOAD0, after $LOAD1; $(nproc) CPUs, shared machine"
	echo
	echo "| op | pair | core ms | idgen ms | core / idgen, wall-clock | core / idgen, CPU time |"
	echo "|---|---|---:|---:|---:|---:|"
	idgen_psql -At -F' | ' -f - <<SQL
CREATE FUNCTION pg_temp.spread(m float8[]) RETURNS text LANGUAGE sql AS \$\$
	SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY x)::numeric, 2) || '× (' ||
		round(min(x)::numeric, 2) || '..' || round(max(x)::numeric, 2) || ')' ||
		CASE WHEN min(x) < 1 AND max(x) >= 1 THEN ' crosses 1' ELSE '' END
	FROM unnest(m) AS x
\$\$;
WITH r AS (
	SELECT op, pair, round,
		max(ms) FILTER (WHERE side = 'c') AS c, max(ms) FILTER (WHERE side = 'i') AS i,
		max(cpu_ms) FILTER (WHERE side = 'c') AS cc, max(cpu_ms) FILTER (WHERE side = 'i') AS ci
	FROM parity WHERE round > 0 GROUP BY op, pair, round)
SELECT '| ' || op, pair,
	round(percentile_cont(0.5) WITHIN GROUP (ORDER BY c)::numeric) || ' (' || round(min(c)::numeric) || '..' || round(max(c)::numeric) || ')',
	round(percentile_cont(0.5) WITHIN GROUP (ORDER BY i)::numeric) || ' (' || round(min(i)::numeric) || '..' || round(max(i)::numeric) || ')',
	pg_temp.spread(array_agg(c / i)), pg_temp.spread(array_agg(cc / ci)) || ' |'
FROM r
GROUP BY op, pair
ORDER BY array_position(string_to_array('${OPS[*]}', ' '), op), array_position(string_to_array('${PAIRS[*]}', ' '), pair);
SQL
	exit 0
fi

# callgrind: a single-user backend runs the statement twice (the first warms
# the caches), each dumped apart; the second is counted.  What is counted is
# PortalRun (the static exec_simple_query has no symbol in Debian's stripped
# server): execution, without parsing, planning and commit.
idgen_cluster_stop
count() { # count OP TABLE OUTFILE: instructions of the statement's second run
	local op=$1 t=$2 out=$3 pre sql
	pre=$(op_pre "$op" "$t")
	sql=$(op_sql "$op" "$t")
	printf '%s\n' "$SETTINGS $pre" |
		as_server "$PG_BIN/postgres" --single -D "$PGDATA" -c jit=off postgres >/dev/null 2>&1
	rm -f "$out".*
	printf '%s\n' "$SETTINGS" "$sql;" "$pre" "$sql;" |
		(cd "$IDGEN_WORK" && nice -n 10 runuser -u "$SERVER_USER" -- valgrind --tool=callgrind --vgdb=no \
			--collect-atstart=no --toggle-collect=PortalRun --dump-after=PortalRun \
			--callgrind-out-file="$out" "$PG_BIN/postgres" --single -D "$PGDATA" -c jit=off postgres \
			>"$IDGEN_WORK/single.log" 2>"$IDGEN_WORK/vg.log") ||
		{ cat "$IDGEN_WORK/single.log" "$IDGEN_WORK/vg.log" >&2; return 1; }
	! grep -q 'ERROR:' "$IDGEN_WORK/vg.log" || { grep 'ERROR:' "$IDGEN_WORK/vg.log" >&2; return 1; }
	# the last dump is the second run of the statement
	ls -v "$out".* | tail -n 1
}
as_server mkdir -p "$IDGEN_WORK/cg"
if [ "$MODE" = profile ]; then
	f=$(count "$2" "$3_$4" "$IDGEN_WORK/cg/out")
	callgrind_annotate --inclusive=yes "$f" | head -n 60
	exit 0
fi
echo "PostgreSQL $("$PG_CONFIG" --version); $PARITY_ROWS rows; instructions per row (callgrind)"
echo
echo "| op | pair | core | idgen | core / idgen |"
echo "|---|---|---:|---:|---:|"
for op in "${OPS[@]}"; do
	for p in "${PAIRS[@]}"; do
		for s in c i; do
			f=$(count "$op" "${p}_$s" "$IDGEN_WORK/cg/$op-${p}_$s")
			printf -v "n_$s" '%s' "$(grep -m1 -E '^(summary|totals):' "$f" | awk '{print $2}')"
		done
		rows=$PARITY_ROWS
		[ "$op" = any_lookup ] && rows=$PARITY_PROBES
		awk -v op="$op" -v p="$p" -v c="$n_c" -v i="$n_i" -v r="$rows" \
			'BEGIN { printf "| %s | %s | %.0f | %.0f | %.2f× |\n", op, p, c / r, i / r, c / i }'
	done
done
