#!/usr/bin/env bash
# idgen benchmark suite: every generator and every id type side by side with
# the obvious core alternative, in one server and one run, as ratios.
#
#   bash test/bench/bench.sh                          # full size: ~10 minutes on 2 CPUs
#   IDGEN_BENCH_SCALE=tiny bash test/bench/bench.sh   # the whole harness in under a minute
#
# It builds idgen, starts a scratch cluster of the server tools/lib.sh
# provides (PG_BIN/PG_CONFIG), and measures:
#   1. cost per id: SELECT count(f()) FROM generate_series(1, N), timed in
#      the server, net of the bare loop, median of interleaved runs, as a
#      ratio to gen_random_uuid();
#   2. a single-session bulk insert into a table with each kind of primary
#      key: time, WAL bytes, index size, leaf density and fragmentation
#      (pgstattuple's pgstatindex);
#   3. the same with 2, 4 and 8 concurrent pgbench clients, 100-row batch
#      transactions and single-row inserts: throughput, density,
#      fragmentation, index size;
#   4. COPY out and in (text and binary) and ORDER BY of the same ids stored
#      in an idgen type and in the nearest core type.
# Core uuidv7() is included when the server is PostgreSQL 18 or later.
#
# It writes a markdown report (also printed to stdout) and an SVG chart
# (gnuplot) of leaf density and insert throughput per key type and client
# count into IDGEN_BENCH_OUT: bench.md and bench.svg.
#
# Settings (environment):
#   IDGEN_BENCH_SCALE   full (default) or tiny: sets the defaults below
#   IDGEN_BENCH_OUT     output directory (default test/bench/results at full
#                       size, $TMPDIR/idgen-bench-<scale> otherwise)
#   BENCH_N, BENCH_REPEAT                  ids per cost run, interleaved rounds
#   BENCH_BURST_N, BENCH_BURST_REPEAT      distid_generate() within its burst
#   BENCH_DISTID_N, BENCH_DISTID_REPEAT    distid_generate() sustained
#   BENCH_B36_N, BENCH_B36_REPEAT          base36id_generate() within a second
#   BENCH_B36_SUSTAINED_N                  base36id_generate() sustained (whole
#                                          seconds: a multiple of 1296)
#   BENCH_ROWS, BENCH_INSERT_REPEAT        single-session bulk insert (and the
#                                          ids of part 4)
#   BENCH_B36_ROWS                         base36id's bulk insert (rate limited)
#   BENCH_CLIENTS                          client counts of part 3 ("2 4 8")
#   BENCH_BATCH_ROWS, BENCH_SINGLE_ROWS    rows per part 3 run, batch / single-row
#   BENCH_COPY_REPEAT                      rounds of part 4
#   IDGEN_KEEP=1        keep the scratch cluster (see tools/lib.sh)
#
# Nothing here asserts a timing: the report states what was measured, and the
# targets of issue 9 as "met" or "NOT met" for information.
source "$(dirname "$0")/../../tools/lib.sh"

IDGEN_PACKAGES+=(gnuplot-nox)

SCALE=${IDGEN_BENCH_SCALE:-full}
case $SCALE in
	full)
		: "${BENCH_N:=500000}" "${BENCH_REPEAT:=5}"
		: "${BENCH_BURST_N:=100000}" "${BENCH_BURST_REPEAT:=9}"
		: "${BENCH_DISTID_N:=1000000}" "${BENCH_DISTID_REPEAT:=3}"
		: "${BENCH_B36_N:=1200}" "${BENCH_B36_REPEAT:=11}" "${BENCH_B36_SUSTAINED_N:=3888}"
		: "${BENCH_ROWS:=1000000}" "${BENCH_INSERT_REPEAT:=3}" "${BENCH_B36_ROWS:=6480}"
		: "${BENCH_BATCH_ROWS:=1000000}" "${BENCH_SINGLE_ROWS:=200000}"
		: "${BENCH_COPY_REPEAT:=3}"
		: "${IDGEN_BENCH_OUT:=$IDGEN_ROOT/test/bench/results}"
		;;
	tiny)
		: "${BENCH_N:=20000}" "${BENCH_REPEAT:=2}"
		: "${BENCH_BURST_N:=10000}" "${BENCH_BURST_REPEAT:=2}"
		: "${BENCH_DISTID_N:=140000}" "${BENCH_DISTID_REPEAT:=1}"
		: "${BENCH_B36_N:=1200}" "${BENCH_B36_REPEAT:=2}" "${BENCH_B36_SUSTAINED_N:=2592}"
		: "${BENCH_ROWS:=20000}" "${BENCH_INSERT_REPEAT:=1}" "${BENCH_B36_ROWS:=1296}"
		: "${BENCH_BATCH_ROWS:=4000}" "${BENCH_SINGLE_ROWS:=800}"
		: "${BENCH_COPY_REPEAT:=1}"
		;;
	*) say "IDGEN_BENCH_SCALE must be full or tiny, not '$SCALE'"; exit 2 ;;
esac
: "${BENCH_CLIENTS:=2 4 8}"
: "${IDGEN_BENCH_OUT:=${TMPDIR:-/tmp}/idgen-bench-$SCALE}"

for v in BENCH_N BENCH_REPEAT BENCH_BURST_N BENCH_BURST_REPEAT BENCH_DISTID_N BENCH_DISTID_REPEAT \
	BENCH_B36_N BENCH_B36_REPEAT BENCH_B36_SUSTAINED_N BENCH_ROWS BENCH_INSERT_REPEAT \
	BENCH_B36_ROWS BENCH_BATCH_ROWS BENCH_SINGLE_ROWS BENCH_COPY_REPEAT; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || { say "$v must be a positive integer, not '${!v}'"; exit 2; }
done
[[ $BENCH_CLIENTS =~ ^[1-9][0-9]*( [1-9][0-9]*)*$ ]] ||
	{ say "BENCH_CLIENTS must be client counts separated by spaces, not '$BENCH_CLIENTS'"; exit 2; }
read -r -a CLIENTS <<<"$(tr ' ' '\n' <<<"$BENCH_CLIENTS" | sort -n -u | tr '\n' ' ')"

# distid_generate()'s limits, as the reference has them (README, "How
# generation works"): ~128 ids per millisecond, borrowed up to 1000 ms ahead.
DISTID_PER_MS=128
DISTID_BURST=$((DISTID_PER_MS * 1000))
# base36id_generate(): 1296 ids per second per worker, server-wide
B36_PER_S=1296
[ "$BENCH_BURST_N" -le 120000 ] ||
	{ say "BENCH_BURST_N must stay inside distid's burst window (about $DISTID_BURST ids): at most 120000"; exit 2; }
[ "$BENCH_B36_N" -lt "$B36_PER_S" ] ||
	{ say "BENCH_B36_N must fit in one second of base36id's counter: less than $B36_PER_S"; exit 2; }
# whole seconds of ids, at least two: the rate is that of the seconds after the first
[ $((BENCH_B36_SUSTAINED_N % B36_PER_S)) -eq 0 ] && [ "$BENCH_B36_SUSTAINED_N" -ge $((2 * B36_PER_S)) ] ||
	{ say "BENCH_B36_SUSTAINED_N must be a multiple of $B36_PER_S, at least $((2 * B36_PER_S))"; exit 2; }
BATCH=100	# rows per batch transaction in part 3

# Every benchmark session runs with these: no JIT (its compile time would be
# counted in some queries and not others), no parallel workers (the loop must
# run in one process), and enough work_mem for generate_series' tuplestore and
# the sorts of part 4 to stay in memory.
SESSION_SETTINGS="SET jit = off; SET max_parallel_workers_per_gather = 0; SET work_mem = '1GB';"

bench_psql() {
	idgen_psql -At -F'|' -c "$SESSION_SETTINGS" "$@"
}

sqlq() { # text quoted for a SQL string literal, without the quotes
	sed "s/'/''/g" <<<"$1"
}

START=$SECONDS
mkdir -p "$IDGEN_BENCH_OUT"
REPORT=$IDGEN_BENCH_OUT/bench.md
CHART=$IDGEN_BENCH_OUT/bench.svg
rm -f "$REPORT" "$CHART"

# worker 0 for base36id_generate(); the rest as the scratch cluster has it
idgen_setup_cluster "idgen.worker_id = 0"
command -v gnuplot >/dev/null || { say "gnuplot is missing (Debian package gnuplot-nox)"; exit 1; }

PG_NUM=$(idgen_psql -At -c "SHOW server_version_num")
PG_VERSION=$(idgen_psql -At -c "SHOW server_version")
HAVE_UUIDV7=0; [ "$PG_NUM" -ge 180000 ] && HAVE_UUIDV7=1
say "PostgreSQL $PG_VERSION; core uuidv7(): $([ $HAVE_UUIDV7 = 1 ] && echo yes || echo no)"

idgen_psql <<'SQL'
CREATE EXTENSION idgen;
CREATE EXTENSION pgstattuple;
CREATE SEQUENCE bench_seq;
-- loop_ord: the bare loop whose per-row time is subtracted (NULL for a loop)
CREATE TABLE bench_gen (ord int, key text, label text, rep int, n bigint, loop_ord int, ms float8);
-- how far distid_generate() was from its rate limit right after a run
CREATE TABLE bench_headroom (kind text, rep int, ms float8);
CREATE TABLE bench_ins (kind text, rep int, n bigint, ms float8, wal numeric);
CREATE TABLE bench_conc (kind text, mode text, clients int, n bigint, rows_s float8,
	density float8, frag float8, leaf_pages bigint, index_bytes bigint, wal numeric);
CREATE TABLE bench_q (pair text, op int, kind text, rep int, ms float8);

-- milliseconds one statement takes, measured in the server
CREATE FUNCTION bench_ms(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
BEGIN
	t0 := clock_timestamp();
	EXECUTE q;
	RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END $$;

-- the same, with the WAL it wrote (insert position: the transaction is open)
CREATE FUNCTION bench_ms_wal(q text, OUT ms float8, OUT wal numeric) LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
	l0 pg_lsn;
BEGIN
	l0 := pg_current_wal_insert_lsn();
	t0 := clock_timestamp();
	EXECUTE q;
	ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
	wal := pg_current_wal_insert_lsn() - l0;
END $$;

-- A UUIDv7 function of the kind users paste into their schemas (the widely
-- copied plpgsql version: a v4 uuid with the millisecond time laid over it).
CREATE FUNCTION uuid_generate_v7() RETURNS uuid LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	RETURN encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
		PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
		FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid;
END $$;
-- and its plain SQL twin, which the planner can inline
CREATE FUNCTION uuid_generate_v7_sql() RETURNS uuid LANGUAGE sql VOLATILE AS $$
	SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
		PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
		FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
$$;
SQL

# pgcrypto is the alternative to public ids; a server built without OpenSSL
# lacks it, and the row is left out
HAVE_PGCRYPTO=0
if [ "$(idgen_psql -At -c "SELECT count(*) FROM pg_available_extensions WHERE name = 'pgcrypto'")" = 1 ]; then
	idgen_psql -c "CREATE EXTENSION pgcrypto"
	HAVE_PGCRYPTO=1
fi

# (a secret's setting is not in pg_settings: ask for it by name)
has_setting() {
	[ "$(idgen_psql -At -c "SELECT current_setting('$1', true) IS NOT NULL")" = t ]
}

# Public ids use the SPEC's 32-byte key (AES-256); pgcrypto's encrypt() of the
# same plaintext block is the obvious alternative.  The key also goes where
# this version of idgen reads its default key from, if it has one: the
# setting idgen.public_id_key (1.0) or the key file named by
# idgen.public_id_key_file (1.1).
KEY_B64='k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc='
BENCH_KEY="'\x93b7c10c97106a6d3686c07268e58f78fd82a9e0de197beb3d490401006d0057'::bytea"
KEY_SOURCE=
if has_setting idgen.public_id_key; then
	SESSION_SETTINGS+=" SET idgen.public_id_key = '$KEY_B64';"
	KEY_SOURCE="the setting idgen.public_id_key"
elif has_setting idgen.public_id_key_file; then
	echo "$KEY_B64" | as_server tee "$PGDATA/bench_public_id.keys" >/dev/null
	as_server chmod 600 "$PGDATA/bench_public_id.keys"
	idgen_psql -c "ALTER SYSTEM SET idgen.public_id_key_file = '$PGDATA/bench_public_id.keys'" \
		-c "SELECT pg_reload_conf()" >/dev/null
	KEY_SOURCE="the key file (idgen.public_id_key_file)"
fi

# --- 1. cost per id -----------------------------------------------------------

# Generators measured in the interleaved rounds, in report order; the first
# is the bare loop.  ord = position in GEN_KEYS.
GEN_KEYS=()
declare -A GEN_LABEL GEN_EXPR
gen_add() { # gen_add KEY LABEL EXPR
	GEN_KEYS+=("$1"); GEN_LABEL[$1]=$2; GEN_EXPR[$1]=$3
}
gen_add loop "bare loop, \`count(g)\`" "g"
gen_add uuid4 "\`gen_random_uuid()\`" "gen_random_uuid()"
[ $HAVE_UUIDV7 = 1 ] && gen_add uuidv7 "\`uuidv7()\` (core, PostgreSQL 18)" "uuidv7()"
gen_add v7plpgsql "pasted UUIDv7, plpgsql \`uuid_generate_v7()\`" "uuid_generate_v7()"
gen_add v7sql "pasted UUIDv7, SQL function" "uuid_generate_v7_sql()"
gen_add seq "\`nextval('bench_seq')\` (bigserial)" "nextval('bench_seq')"
gen_add iuid "\`iuid_generate(1, 1)\`" "iuid_generate(1, 1)"
gen_add flaxid "\`flaxid_generate()\`" "flaxid_generate()"
gen_add distid128 "\`distid128_generate()\`" "distid128_generate()"
gen_add distid_dense "\`distid_generate_dense()\` (not rate limited)" "distid_generate_dense()"
gen_add publicid "\`public_id(g::bigint, key)\`" "public_id(g::bigint, $BENCH_KEY)"
[ -n "$KEY_SOURCE" ] && gen_add publicid_default "\`public_id(g::bigint)\`, key from $KEY_SOURCE" "public_id(g::bigint)"
[ $HAVE_PGCRYPTO = 1 ] && gen_add pgcrypto "pgcrypto \`encrypt(block, key, 'aes-ecb/pad:none')\`, the same AES block" \
	"encrypt('\\x0000000000000000'::bytea || int8send(g::bigint), $BENCH_KEY, 'aes-ecb/pad:none')"
ngen=${#GEN_KEYS[@]}
# the rate-limited generators, measured apart, after those
ORD_BURST_LOOP=$ngen
ORD_BURST=$((ngen + 1))
ORD_SUSTAINED=$((ngen + 2))
ORD_B36_LOOP=$((ngen + 3))
ORD_B36=$((ngen + 4))
ORD_B36_SUSTAINED=$((ngen + 5))

gen_query() { # gen_query EXPR N
	printf 'SELECT count(%s) FROM generate_series(1, %d) AS g' "$1" "$2"
}

# SQL that times EXPR over N ids and records it
gen_record() { # gen_record ORD KEY LABEL REP N LOOP_ORD EXPR
	printf "INSERT INTO bench_gen VALUES (%d, '%s', '%s', %d, %d, %s, bench_ms('%s'));" \
		"$1" "$2" "$(sqlq "$3")" "$4" "$5" "$6" "$(sqlq "$(gen_query "$7" "$5")")"
}

# SQL that records how many ms distid_generate()'s next id lags the clock:
# 1000 for a fresh generator, ~1 once it is at the rate limit
headroom_record() { # headroom_record KIND REP
	printf "INSERT INTO bench_headroom SELECT '%s', %d, extract(epoch FROM clock_timestamp() - distid_timestamp(distid_generate())) * 1000;" "$1" "$2"
}

# SQL that sleeps until just after the next second: base36id_generate()'s
# counter then has all of its 1296 ids
NEXT_SECOND="SELECT pg_sleep(1.002 - extract(epoch FROM clock_timestamp())::numeric % 1);"

say "1. cost per id: warming up"
warm=$((BENCH_N / 10 > 0 ? BENCH_N / 10 : 1))
for key in "${GEN_KEYS[@]}"; do
	bench_psql -c "$(gen_query "${GEN_EXPR[$key]}" "$warm")" >/dev/null
done

for ((rep = 1; rep <= BENCH_REPEAT; rep++)); do
	sql=
	for ((k = 0; k < ngen; k++)); do
		i=$(((k + rep - 1) % ngen))	# rotate the order every round
		key=${GEN_KEYS[$i]}
		loop=0; [ "$i" -eq 0 ] && loop=NULL
		sql+=$(gen_record "$i" "$key" "${GEN_LABEL[$key]}" "$rep" "$BENCH_N" "$loop" "${GEN_EXPR[$key]}")
	done
	bench_psql -c "$sql"
	say "cost round $rep/$BENCH_REPEAT: $(bench_psql -c "SELECT string_agg(format('%s %s ms', key, round(ms::numeric)), ', ' ORDER BY ord) FROM bench_gen WHERE rep = $rep")"
done

# distid_generate() sleeps 1 ms per ~128 ids once a session has used its
# burst of ~128,000, so it is measured apart, each run in a fresh session (a
# fresh generator): within the burst window next to a bare loop of the same
# length (alternating which goes first), then sustained.
for ((rep = 1; rep <= BENCH_BURST_REPEAT; rep++)); do
	loop_sql=$(gen_record "$ORD_BURST_LOOP" burst_loop "bare loop, \`count(g)\`, fresh session" "$rep" "$BENCH_BURST_N" NULL g)
	gen_sql=$(gen_record "$ORD_BURST" distid_burst "\`distid_generate()\`, within its burst window, fresh session" "$rep" "$BENCH_BURST_N" "$ORD_BURST_LOOP" "distid_generate()")
	gen_sql+=$(headroom_record burst "$rep")
	if ((rep % 2)); then sql="$loop_sql$gen_sql"; else sql="$gen_sql$loop_sql"; fi
	# warm up: plan and run both once on a handful of rows (one id drawn)
	bench_psql -c "$(gen_query g 10)" -c "$(gen_query "distid_generate()" 1)" -c "$sql" >/dev/null
done
for ((rep = 1; rep <= BENCH_DISTID_REPEAT; rep++)); do
	sql=$(gen_record "$ORD_SUSTAINED" distid_sustained "\`distid_generate()\`, sustained: **includes the reference's rate limit**" "$rep" "$BENCH_DISTID_N" 0 "distid_generate()")
	sql+=$(headroom_record sustained "$rep")
	bench_psql -c "$(gen_query "distid_generate()" 1)" -c "$sql" >/dev/null
done
say "distid_generate(): $BENCH_BURST_REPEAT burst runs, $BENCH_DISTID_REPEAT sustained runs done"

# base36id_generate() shares 1296 ids per second among all backends: each run
# starts just after a second begins, within it (BENCH_B36_N < 1296 ids, then
# a bare loop of the same length) and sustained (waits included).
for ((rep = 1; rep <= BENCH_B36_REPEAT; rep++)); do
	bench_psql -c "$(gen_query "base36id_generate()" 1)" -c "$(gen_query g 10)" -c "$NEXT_SECOND" \
		-c "$(gen_record "$ORD_B36" base36id_burst "\`base36id_generate()\`, within one second's 1296 ids" "$rep" "$BENCH_B36_N" "$ORD_B36_LOOP" "base36id_generate()")" \
		-c "$(gen_record "$ORD_B36_LOOP" b36_loop "bare loop, \`count(g)\`, same length" "$rep" "$BENCH_B36_N" NULL g)" >/dev/null
done
bench_psql -c "$NEXT_SECOND" \
	-c "$(gen_record "$ORD_B36_SUSTAINED" base36id_sustained "\`base36id_generate()\`, sustained: **includes its 1296/s limit**" 1 "$BENCH_B36_SUSTAINED_N" 0 "base36id_generate()")" >/dev/null
say "base36id_generate(): $BENCH_B36_REPEAT runs within a second, 1 sustained run done"

# --- 2. single-session bulk insert --------------------------------------------

# Primary-key kinds, in report order: key, DDL of the id column, chart label.
PK_KINDS=()
declare -A PK_DDL PK_SHORT
pk_add() { PK_KINDS+=("$1"); PK_DDL[$1]=$2; PK_SHORT[$1]=$3; }
pk_add bigserial "bigserial PRIMARY KEY" "bigserial"
pk_add uuid4 "uuid PRIMARY KEY DEFAULT gen_random_uuid()" "uuid v4"
[ $HAVE_UUIDV7 = 1 ] && pk_add uuidv7 "uuid PRIMARY KEY DEFAULT uuidv7()" "uuidv7()"
pk_add v7plpgsql "uuid PRIMARY KEY DEFAULT uuid_generate_v7()" "pasted v7"
pk_add iuid "iuid PRIMARY KEY DEFAULT iuid_generate(1, 1)" "iuid"
pk_add flaxid "flaxid PRIMARY KEY DEFAULT flaxid_generate()" "flaxid"
pk_add flaxtext "text PRIMARY KEY DEFAULT flaxid_generate()::text" "flaxid as text"
pk_add distid128 "uuid PRIMARY KEY DEFAULT distid128_generate()" "distid128"
pk_add distid "distid PRIMARY KEY DEFAULT distid_generate()" "distid"
pk_add distid_dense "distid PRIMARY KEY DEFAULT distid_generate_dense()" "distid dense"
pk_add numeric "numeric(28,0) PRIMARY KEY DEFAULT distid_generate()::numeric" "distid as numeric"
pk_add base36id "base36id PRIMARY KEY DEFAULT base36id_generate()" "base36id"
# base36id makes 1296 ids a second on a server: 1M rows would take 13 minutes
pk_rows() { [ "$1" = base36id ] && echo "$BENCH_B36_ROWS" || echo "$BENCH_ROWS"; }

# fresh_table NAME KIND: an empty table with that primary key, after a
# checkpoint (so every run starts from the same WAL state).  Autovacuum is
# off for it: a vacuum running during some runs and not others is noise.
fresh_table() {
	idgen_psql -c "SET client_min_messages = warning" -c "DROP TABLE IF EXISTS $1" \
		-c "CREATE TABLE $1 (id ${PK_DDL[$2]}, pad int NOT NULL) WITH (autovacuum_enabled = off)" \
		-c "CHECKPOINT"
}

for ((rep = 1; rep <= BENCH_INSERT_REPEAT; rep++)); do
	nk=${#PK_KINDS[@]}
	for ((k = 0; k < nk; k++)); do
		kind=${PK_KINDS[$(((k + rep - 1) % nk))]}	# rotate the order every round
		t=bench_$kind
		rows=$(pk_rows "$kind")
		fresh_table "$t" "$kind"
		bench_psql -c "INSERT INTO bench_ins SELECT '$kind', $rep, $rows, ms, wal FROM bench_ms_wal('INSERT INTO $t (pad) SELECT g FROM generate_series(1, $rows) AS g')"
	done
	say "2. insert round $rep/$BENCH_INSERT_REPEAT: $(bench_psql -c "SELECT string_agg(format('%s %s ms', kind, round(ms::numeric)), ', ') FROM bench_ins WHERE rep = $rep")"
done

# --- 3. concurrent inserts with pgbench ---------------------------------------

# base36id is left out: its shared 1296/s limit would be the whole result
CONC_KINDS=()
for kind in "${PK_KINDS[@]}"; do [ "$kind" = base36id ] || CONC_KINDS+=("$kind"); done

declare -A MODE_SQL=(
	[batch]="INSERT INTO %s (pad) SELECT g FROM generate_series(1, $BATCH) AS g"
	[single]="INSERT INTO %s (pad) VALUES (1)"
)
declare -A MODE_ROWS=([batch]=$BENCH_BATCH_ROWS [single]=$BENCH_SINGLE_ROWS)
declare -A MODE_PER_TX=([batch]=$BATCH [single]=1)

for c in "${CLIENTS[@]}"; do
	for mode in batch single; do
		per_tx=${MODE_PER_TX[$mode]}
		tx=$((MODE_ROWS[$mode] / per_tx / c)); [ "$tx" -ge 1 ] || tx=1
		n=$((tx * c * per_tx))
		for kind in "${CONC_KINDS[@]}"; do
			t=conc_$kind
			script=$IDGEN_WORK/pgbench_${mode}_$kind.sql
			# shellcheck disable=SC2059
			printf "${MODE_SQL[$mode]}\n" "$t" >"$script"
			fresh_table "$t" "$kind"
			lsn=$(idgen_psql -At -c "SELECT pg_current_wal_lsn()")
			out=$("$PG_BIN/pgbench" -n -M prepared -f "$script" -c "$c" -j "$c" -t "$tx" 2>&1) ||
				{ echo "$out" >&2; say "pgbench failed: $kind $mode $c clients"; exit 1; }
			tps=$(sed -n 's/^tps = \([0-9.]*\) (without initial connection time)$/\1/p' <<<"$out")
			[[ $tps =~ ^[0-9.]+$ ]] || { echo "$out" >&2; say "no tps in pgbench's output"; exit 1; }
			idgen_psql -c "INSERT INTO bench_conc SELECT '$kind', '$mode', $c, count(*), $tps * $per_tx,
				st.avg_leaf_density, st.leaf_fragmentation, st.leaf_pages, pg_relation_size('${t}_pkey'),
				pg_current_wal_lsn() - '$lsn'
				FROM $t, pgstatindex('${t}_pkey') AS st
				GROUP BY st.avg_leaf_density, st.leaf_fragmentation, st.leaf_pages"
			got=$(idgen_psql -At -c "SELECT n FROM bench_conc WHERE kind = '$kind' AND mode = '$mode' AND clients = $c")
			[ "$got" = "$n" ] || { say "$kind $mode $c clients: $got rows, expected $n"; exit 1; }
			idgen_psql -c "DROP TABLE $t"
		done
		say "3. $c clients, $mode: $(bench_psql -c "SELECT string_agg(format('%s %s%%', kind, round(density::numeric)), ', ') FROM bench_conc WHERE mode = '$mode' AND clients = $c")"
	done
done

# --- 4. COPY and ORDER BY, idgen type vs nearest core type --------------------

# pair: idgen type, core type, the SQL that makes the idgen ids (in a random
# order), and the cast to the core type.  The ids are those of part 2's bulk
# inserts; base36id's are made up (1296 per second from worker 0, as its
# generator would in BENCH_ROWS/1296 seconds), since generating them takes that long.
PAIRS=(iuid distid flaxid base36id)
declare -A PAIR_CORE=([iuid]=uuid [distid]="numeric(28,0)" [flaxid]=text [base36id]=bigint)
declare -A PAIR_SRC=(
	[iuid]="SELECT id FROM bench_iuid"
	[distid]="SELECT id FROM bench_distid"
	[flaxid]="SELECT id FROM bench_flaxid"
	[base36id]="SELECT (base36id_from_timestamp(timestamptz '2026-01-01 00:00:00+00' + (g / $B36_PER_S) * interval '1 second')::bigint + g % $B36_PER_S)::base36id AS id FROM generate_series(0, $BENCH_ROWS - 1) AS g"
)
Q_LABELS=("\`COPY t TO file\` (text)" "\`COPY t TO file (FORMAT binary)\`"
	"\`COPY t FROM file\` (text)" "\`COPY t FROM file (FORMAT binary)\`"
	"\`SELECT id FROM t ORDER BY id\` (sort, in memory)")
nq=${#Q_LABELS[@]}
COPY_DIR=$IDGEN_WORK/copy
as_server mkdir -p "$COPY_DIR"

say "4. COPY and ORDER BY: $BENCH_ROWS ids of each type"
for p in "${PAIRS[@]}"; do
	c=${PAIR_CORE[$p]}
	bench_psql -f - <<SQL
SET client_min_messages = warning;
CREATE TABLE q_${p}_i WITH (autovacuum_enabled = off) AS
	SELECT id FROM (${PAIR_SRC[$p]}) AS s ORDER BY random();
CREATE TABLE q_${p}_c WITH (autovacuum_enabled = off) AS SELECT id::$c AS id FROM q_${p}_i;
CREATE TABLE qin_${p}_i (LIKE q_${p}_i) WITH (autovacuum_enabled = off);
CREATE TABLE qin_${p}_c (LIKE q_${p}_c) WITH (autovacuum_enabled = off);
VACUUM ANALYZE q_${p}_i;
VACUUM ANALYZE q_${p}_c;
SQL
	same=$(bench_psql -c "SELECT (SELECT count(*) FROM q_${p}_i) = $BENCH_ROWS AND (SELECT array_agg(id::$c) FROM q_${p}_i) = (SELECT array_agg(id) FROM q_${p}_c)")
	[ "$same" = t ] || { say "q_${p}_i and q_${p}_c do not hold the same $BENCH_ROWS values in the same order"; exit 1; }
done

q_sql() { # q_sql OP TABLE: the statement op OP runs on table TABLE
	local f=$COPY_DIR/$2
	case $1 in
		0) printf "COPY q_%s TO '%s.txt'" "$2" "$f" ;;
		1) printf "COPY q_%s TO '%s.bin' (FORMAT binary)" "$2" "$f" ;;
		2) printf "COPY qin_%s FROM '%s.txt'" "$2" "$f" ;;
		3) printf "COPY qin_%s FROM '%s.bin' (FORMAT binary)" "$2" "$f" ;;
		4) printf 'SELECT count(*) FROM (SELECT id FROM q_%s ORDER BY id OFFSET 0) AS s' "$2" ;;
	esac
}

# warm up: read every table into shared buffers / the page cache
for p in "${PAIRS[@]}"; do bench_psql -c "SELECT count(*) FROM q_${p}_i" -c "SELECT count(*) FROM q_${p}_c" >/dev/null; done
for ((rep = 1; rep <= BENCH_COPY_REPEAT; rep++)); do
	if ((rep % 2)); then sides=(i c); else sides=(c i); fi
	args=()
	for ((op = 0; op < nq; op++)); do
		for p in "${PAIRS[@]}"; do
			for s in "${sides[@]}"; do
				# COPY FROM goes into an empty table
				((op == 2 || op == 3)) && args+=(-c "TRUNCATE qin_${p}_$s")
				args+=(-c "INSERT INTO bench_q VALUES ('$p', $op, '$s', $rep, bench_ms('$(sqlq "$(q_sql "$op" "${p}_$s")")'))")
			done
		done
	done
	bench_psql "${args[@]}"
	say "4. round $rep/$BENCH_COPY_REPEAT done"
done
for p in "${PAIRS[@]}"; do
	for s in i c; do
		same=$(bench_psql -c "SELECT (SELECT count(*) FROM qin_${p}_$s) = $BENCH_ROWS")
		[ "$same" = t ] || { say "COPY FROM into qin_${p}_$s did not load $BENCH_ROWS rows"; exit 1; }
	done
done

# --- results ------------------------------------------------------------------

GEN_ROWS=$(bench_psql -f - <<SQL
WITH m AS (
	SELECT ord, key, label, n, loop_ord, count(*) AS runs,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS med,
		min(ms) AS lo, max(ms) AS hi
	FROM bench_gen GROUP BY ord, key, label, n, loop_ord
), c AS (
	SELECT m.*, m.med * 1e6 / m.n AS ns,
		m.med * 1e6 / m.n - coalesce(l.med * 1e6 / l.n, 0) AS net
	FROM m LEFT JOIN m AS l ON l.ord = m.loop_ord
), uuid AS (SELECT net FROM c WHERE key = 'uuid4')
SELECT c.key, c.label, c.n, c.runs,
	round(c.med::numeric, CASE WHEN c.med < 100 THEN 2 ELSE 0 END),
	round(c.lo::numeric, CASE WHEN c.hi < 100 THEN 2 ELSE 0 END) || '–' ||
		round(c.hi::numeric, CASE WHEN c.hi < 100 THEN 2 ELSE 0 END),
	CASE WHEN c.loop_ord IS NULL THEN round(c.ns::numeric, 1) || ' (loop)'
		ELSE round(c.net::numeric, 1)::text END,
	CASE WHEN c.loop_ord IS NULL THEN '–'
		WHEN c.net <= 0 THEN 'n/a'
		ELSE round((uuid.net / c.net)::numeric, 2)::text || '×' END,
	CASE WHEN c.loop_ord IS NULL OR c.net <= 0 THEN '' ELSE round((uuid.net / c.net)::numeric, 2)::text END
FROM c, uuid ORDER BY c.ord;
SQL
)
gen_field() { # gen_field KEY FIELD(7 = ns/id net, 9 = gen_random_uuid ratio as a number)
	awk -F'|' -v k="$1" -v f="$2" '$1 == k { print $f }' <<<"$GEN_ROWS"
}

HEADROOM=$(bench_psql -c "SELECT round(min(ms) FILTER (WHERE kind = 'burst')::numeric), round(max(ms) FILTER (WHERE kind = 'sustained')::numeric, 1) FROM bench_headroom")
BURST_HEADROOM=${HEADROOM%%|*}
SUSTAINED=$(bench_psql -c "SELECT round(($BENCH_DISTID_N / med)::numeric, 1), round((greatest($BENCH_DISTID_N - $DISTID_BURST, 0) / med)::numeric, 1) FROM (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS med FROM bench_gen WHERE key = 'distid_sustained') AS m")
IFS='|' read -r SUST_RATE SUST_RATE_AFTER <<<"$SUSTAINED"
# it starts just after a second begins: the first second's ids come at once,
# the others at the limit's pace
B36_RATE=$(bench_psql -c "SELECT round((n - $B36_PER_S) * 1000 / ms) FROM bench_gen WHERE key = 'base36id_sustained'")

pk_values() { # (ord, kind, ddl, short) rows for the kinds given
	local i=0 v= k
	for k in "$@"; do
		v+="${v:+, }($i, '$k', '$(sqlq "${PK_DDL[$k]}")', '$(sqlq "${PK_SHORT[$k]}")')"
		i=$((i + 1))
	done
	echo "$v"
}

INS_ROWS=$(bench_psql -f - <<SQL
WITH m AS (
	SELECT kind, max(n) AS n, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS med,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY wal) AS wal
	FROM bench_ins GROUP BY kind
), r AS (SELECT kind, n * 1000 / med AS rows_s, n, med, wal FROM m),
s AS (SELECT rows_s FROM r WHERE kind = 'bigserial')
SELECT k.kind, k.ddl, r.n, round(r.med::numeric), round(r.rows_s::numeric),
	round((r.rows_s / s.rows_s)::numeric, 2) || '×',
	round(r.wal::numeric / 1048576, 1), round(r.wal::numeric / r.n),
	coalesce(round(st.avg_leaf_density::numeric, 1)::text, 'n/a'),
	coalesce(round(st.leaf_fragmentation::numeric, 1)::text, 'n/a'),
	st.leaf_pages,
	round(pg_relation_size(format('bench_%s_pkey', k.kind)::regclass) / 1048576.0, 1)
FROM (VALUES $(pk_values "${PK_KINDS[@]}")) AS k(ord, kind, ddl, short)
	JOIN r USING (kind) CROSS JOIN s
	CROSS JOIN LATERAL pgstatindex(format('bench_%s_pkey', k.kind)) AS st
ORDER BY k.ord;
SQL
)

CONC_ROWS=$(bench_psql -f - <<SQL
WITH s AS (SELECT mode, clients, rows_s FROM bench_conc WHERE kind = 'bigserial')
SELECT b.mode, b.clients, k.kind, k.ddl, b.n, round(b.rows_s::numeric),
	round((b.rows_s / s.rows_s)::numeric, 2) || '×',
	coalesce(round(b.density::numeric, 1)::text, 'n/a'),
	coalesce(round(b.frag::numeric, 1)::text, 'n/a'),
	b.leaf_pages, round(b.index_bytes / 1048576.0, 1), round(b.wal / b.n)
FROM (VALUES $(pk_values "${CONC_KINDS[@]}")) AS k(ord, kind, ddl, short)
	JOIN bench_conc AS b USING (kind) JOIN s USING (mode, clients)
ORDER BY b.mode, b.clients, k.ord;
SQL
)
conc_field() { # conc_field KIND MODE CLIENTS FIELD (7 = vs bigserial, 8 = density, 9 = fragmentation)
	awk -F'|' -v k="$1" -v m="$2" -v c="$3" -v f="$4" '$1 == m && $2 == c && $3 == k { sub(/×$/, "", $f); print $f }' <<<"$CONC_ROWS"
}

# The same, one row per key type, one column per run (1 session, then each
# client count for batch, then for single-row): leaf density (fragmentation),
# and throughput as a ratio to bigserial's in the same run.
SUMMARY_ROWS=$(bench_psql -f - <<SQL
WITH one AS (
	SELECT kind, max(n) * 1000 / percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS rows_s
	FROM bench_ins GROUP BY kind
)
SELECT k.ddl,
	coalesce(round(st.avg_leaf_density::numeric, 1)::text, 'n/a') || ' (' || coalesce(round(st.leaf_fragmentation::numeric, 1)::text, 'n/a') || ')',
	(SELECT string_agg(coalesce(round(b.density::numeric, 1)::text, 'n/a') || ' (' || coalesce(round(b.frag::numeric, 1)::text, 'n/a') || ')',
		'|' ORDER BY b.mode, b.clients) FROM bench_conc AS b WHERE b.kind = k.kind),
	round((o.rows_s / s1.rows_s)::numeric, 2) || '×',
	(SELECT string_agg(round((b.rows_s / s.rows_s)::numeric, 2) || '×', '|' ORDER BY b.mode, b.clients)
		FROM bench_conc AS b JOIN bench_conc AS s USING (mode, clients)
		WHERE b.kind = k.kind AND s.kind = 'bigserial')
FROM (VALUES $(pk_values "${CONC_KINDS[@]}")) AS k(ord, kind, ddl, short)
	JOIN one AS o USING (kind) CROSS JOIN (SELECT rows_s FROM one WHERE kind = 'bigserial') AS s1
	CROSS JOIN LATERAL pgstatindex(format('bench_%s_pkey', k.kind)) AS st
ORDER BY k.ord;
SQL
)

Q_ROWS=$(bench_psql -f - <<SQL
WITH m AS (
	SELECT pair, op, kind, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS med
	FROM bench_q GROUP BY pair, op, kind
)
SELECT i.pair, i.op, round(i.med::numeric, 1), round(c.med::numeric, 1),
	round((c.med / i.med)::numeric, 2) || '×'
FROM m AS i JOIN m AS c USING (pair, op)
WHERE i.kind = 'i' AND c.kind = 'c'
ORDER BY array_position(ARRAY['iuid', 'distid', 'flaxid', 'base36id'], i.pair), i.op;
SQL
)
Q_SIZES=$(bench_psql -c "SELECT string_agg(format('%s %s vs %s %s', p, pg_size_pretty(pg_relation_size('q_' || p || '_i')), c, pg_size_pretty(pg_relation_size('q_' || p || '_c'))), '; ') FROM (VALUES ('iuid', 'uuid'), ('distid', 'numeric(28,0)'), ('flaxid', 'text'), ('base36id', 'bigint')) AS v(p, c)")

PG_SETTINGS=$(bench_psql -c "SELECT string_agg(name || '=' || current_setting(name), ', ' ORDER BY name) FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'shared_buffers', 'work_mem', 'jit', 'max_parallel_workers_per_gather', 'wal_level', 'full_page_writes', 'max_wal_size')")
CPU=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
CLOCK=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown)
REV=$(git -C "$IDGEN_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$IDGEN_ROOT" diff --quiet HEAD -- src sql 2>/dev/null || REV+=" (src/sql modified)"

# Chart data, one row per key type of part 3: short label, then leaf density
# for 1 session and for each client count (batch, then single-row), then
# throughput (thousand rows/s) in the same order.
DAT=$IDGEN_WORK/bench.dat
bench_psql -f - >"$DAT" <<SQL
SELECT concat_ws(E'\t', k.short,
	coalesce(round(st.avg_leaf_density::numeric, 1)::text, 'NaN'),
	(SELECT string_agg(coalesce(round(b.density::numeric, 1)::text, 'NaN'), E'\t' ORDER BY b.mode, b.clients)
		FROM bench_conc AS b WHERE b.kind = k.kind),
	(SELECT round((max(n) * 1000 / percentile_cont(0.5) WITHIN GROUP (ORDER BY ms))::numeric / 1000, 1)
		FROM bench_ins AS i WHERE i.kind = k.kind),
	(SELECT string_agg(round(b.rows_s::numeric / 1000, 1)::text, E'\t' ORDER BY b.mode, b.clients)
		FROM bench_conc AS b WHERE b.kind = k.kind))
FROM (VALUES $(pk_values "${CONC_KINDS[@]}")) AS k(ord, kind, ddl, short)
	CROSS JOIN LATERAL pgstatindex(format('bench_%s_pkey', k.kind)) AS st
ORDER BY k.ord;
SQL

IDGEN_BENCH_PSQL=$PG_BIN/psql IDGEN_BENCH_SCALE=$SCALE IDGEN_BENCH_OUT=$IDGEN_BENCH_OUT bash "$IDGEN_ROOT/test/bench/portable.sh"	# idgen_portable's cost (portable.md)
idgen_cluster_stop

# --- chart --------------------------------------------------------------------

nc=${#CLIENTS[@]}
# panel TITLE SESSION_COLUMN FIRST_CLIENT_COLUMN: one histogram of the chart,
# the single session's bar (if SESSION_COLUMN is not empty), then one per
# client count; a client count has the same colour in every panel
panel() {
	local plot= xtic j
	echo "set title '$1'"
	[ -z "$2" ] || plot="'$DAT' using $2:xtic(1) lc 1 title '1 session (one INSERT ... SELECT)'"
	for ((j = 0; j < nc; j++)); do
		xtic=; [ -n "$plot" ] || xtic=':xtic(1)'
		plot+="${plot:+, }'$DAT' using $(($3 + j))$xtic lc $((j + 2)) title '${CLIENTS[$j]} clients'"
	done
	echo "plot $plot"
}
{
	cat <<GP
set terminal svg size 1400,980 dynamic noenhanced font 'sans,12' background '#ffffff'
set output '$CHART'
set encoding utf8
set datafile separator '\t'
set datafile missing 'NaN'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.9 border -1
set boxwidth 0.9
set xtics rotate by -30 scale 0 nomirror
set ytics nomirror
set grid ytics
set key outside top center horizontal samplen 1.5 font ',10'
set multiplot layout 2,2 title 'idgen: primary-key leaf density and insert throughput; PostgreSQL ${PG_VERSION%% *}, $(nproc) CPUs; $BENCH_BATCH_ROWS rows in 100-row batches, $BENCH_SINGLE_ROWS single-row inserts'
GP
	for metric in density throughput; do
		if [ $metric = density ]; then
			base=2 what="leaf density"
			echo "set yrange [0:100]"; echo "set ylabel 'avg leaf density (%)'"
		else
			base=$((2 + 1 + 2 * nc)) what=throughput
			echo "set yrange [0:*]"; echo "set ylabel 'thousand rows per second'"
		fi
		panel "$what, 100-row INSERT ... SELECT transactions" "$base" $((base + 1))
		panel "$what, single-row INSERT transactions" "" $((base + 1 + nc))
	done
	echo "unset multiplot"
} >"$IDGEN_WORK/bench.gp"
gnuplot "$IDGEN_WORK/bench.gp"

# --- report -------------------------------------------------------------------

pass() { # pass CONDITION-as-awk-expression
	awk "BEGIN { exit !($1) }" 2>/dev/null && echo "met" || echo "NOT met"
}

report() {
	echo "## idgen benchmark"
	echo
	echo "Machine: $(nproc) CPUs, $CPU, clocksource $CLOCK, Linux $(uname -r)."
	echo "PostgreSQL $PG_VERSION; idgen $REV, built with PostgreSQL's CFLAGS; scale $SCALE."
	echo "Settings: $PG_SETTINGS (scratch cluster: fsync off, the rest default)."
	echo
	echo "### 1. Cost per id: \`SELECT count(<expr>) FROM generate_series(1, <ids>)\`"
	echo
	echo "Server-side time, median of the runs; \"net\" subtracts the bare loop's time per row."
	echo "The first $ngen rows: $BENCH_REPEAT interleaved rounds (the order rotates each round)."
	echo "\`distid_generate()\` sleeps 1 ms per ~$DISTID_PER_MS ids once a session has used its burst of ~$DISTID_BURST"
	echo "(the reference's rate limit), and \`base36id_generate()\` hands out $B36_PER_S ids per second per server,"
	echo "so both are measured apart, within their budget next to a bare loop of the same length, and sustained."
	echo
	echo "| generator | ids per run | runs | median ms | min–max ms | ns/id net | gen_random_uuid() ÷ this |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	while IFS='|' read -r key label n runs med range ns ratio _; do
		echo "| $label | $n | $runs | $med | $range | $ns | $ratio |"
	done <<<"$GEN_ROWS"
	echo
	echo "distid burst runs: the next id afterwards lagged the clock by at least ${BURST_HEADROOM} ms of the 1000 ms"
	echo "leeway ($(pass "$BURST_HEADROOM >= 50" | sed 's/^met$/no burst run reached the rate limit/; s/^NOT met$/WARNING: some burst runs may include sleeps/'))."
	echo "distid sustained: $SUST_RATE ids/ms overall, ≈ $SUST_RATE_AFTER ids/ms beyond the burst (limit: ~$DISTID_PER_MS)."
	echo "base36id sustained: $B36_RATE ids/s after the first second's $B36_PER_S (limit: $B36_PER_S per second per server)."
	echo
	echo "### 2. Bulk insert in one session, then \`pgstatindex()\` on the primary key"
	echo
	echo "\`INSERT INTO t (pad) SELECT g FROM generate_series(1, <rows>) AS g\` into a fresh table \`t (id <pk>, pad int)\`"
	echo "after a checkpoint; time and WAL (insert position before and after) are medians of $BENCH_INSERT_REPEAT interleaved runs,"
	echo "index figures from the last run. base36id inserts $BENCH_B36_ROWS rows: it makes $B36_PER_S ids a second, so its"
	echo "throughput is that limit; distid and numeric are bound by distid_generate()'s rate limit in one session."
	echo
	echo "| primary key | rows | ms | rows/s | vs bigserial | WAL MB | WAL bytes/row | avg leaf density % | leaf fragmentation % | leaf pages | index MB |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	while IFS='|' read -r kind ddl n med rs ratio walmb walrow dens frag leaves isize _; do
		echo "| \`$ddl\` | $n | $med | $rs | $ratio | $walmb | $walrow | $dens | $frag | $leaves | $isize |"
	done <<<"$INS_ROWS"
	echo
	echo "### 3. Concurrent inserts: \`pgbench -n -M prepared -c N -j N -t ...\`"
	echo
	echo "batch: \`INSERT INTO t (pad) SELECT g FROM generate_series(1, $BATCH) AS g\` per transaction, $BENCH_BATCH_ROWS rows in all;"
	echo "single: \`INSERT INTO t (pad) VALUES (1)\` per transaction, $BENCH_SINGLE_ROWS rows in all. One run each, into a fresh table"
	echo "after a checkpoint; rows/s from pgbench's tps (without connection time). base36id is left out: its server-wide"
	echo "$B36_PER_S ids/s would be the whole result (and a shared counter appends in order, like a sequence)."
	echo
	echo "| mode | clients | primary key | rows | rows/s | vs bigserial | avg leaf density % | leaf fragmentation % | leaf pages | index MB | WAL bytes/row |"
	echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	while IFS='|' read -r mode c kind ddl n rs ratio dens frag leaves isize walrow; do
		echo "| $mode | $c | \`$ddl\` | $n | $rs | $ratio | $dens | $frag | $leaves | $isize | $walrow |"
	done <<<"$CONC_ROWS"
	echo
	local head="| primary key | 1 session, bulk" sep="|---|---:" c
	for c in "${CLIENTS[@]}"; do head+=" | batch, $c clients"; sep+="|---:"; done
	for c in "${CLIENTS[@]}"; do head+=" | single-row, $c clients"; sep+="|---:"; done
	echo "Summary: avg leaf density % (leaf fragmentation %) of the primary key"
	echo
	echo "$head |"; echo "$sep|"
	awk -F'|' -v n=$((1 + 2 * ${#CLIENTS[@]})) '{ printf "| `%s`", $1; for (i = 2; i <= n + 1; i++) printf " | %s", $i; print " |" }' <<<"$SUMMARY_ROWS"
	echo
	echo "Summary: insert throughput (rows/s) as a ratio to bigserial's in the same setting"
	echo
	echo "$head |"; echo "$sep|"
	awk -F'|' -v n=$((1 + 2 * ${#CLIENTS[@]})) '{ printf "| `%s`", $1; for (i = n + 2; i <= 2 * n + 1; i++) printf " | %s", $i; print " |" }' <<<"$SUMMARY_ROWS"
	echo
	echo "![leaf density and insert throughput per key type and client count](bench.svg)"
	echo
	echo "### 4. COPY and ORDER BY: the same $BENCH_ROWS ids in an idgen type and the nearest core type"
	echo
	echo "The ids of part 2 (base36id: made up, $B36_PER_S a second from worker 0), in one random order in both tables;"
	echo "COPY to and from a file on the server, into an empty table without indexes; median of $BENCH_COPY_REPEAT rounds, alternating"
	echo "which type goes first. Collation C. Table sizes: $Q_SIZES."
	echo
	echo "| idgen type vs core type | operation | idgen ms | core ms | core ÷ idgen |"
	echo "|---|---|---:|---:|---:|"
	while IFS='|' read -r p op ims cms ratio; do
		echo "| $p vs ${PAIR_CORE[$p]} | ${Q_LABELS[$op]} | $ims | $cms | $ratio |"
	done <<<"$Q_ROWS"
	echo
	echo "### Targets of issue 9 (information, from this one run)"
	echo
	local k c m d f
	for k in iuid flaxid distid128; do
		for c in 4 8; do
			for m in batch single; do
				d=$(conc_field "$k" "$m" "$c" 8); f=$(conc_field "$k" "$m" "$c" 9)
				[ -n "$d" ] || continue
				echo "- $k, $c clients, $m: leaf density ${d}% (≥ 88), fragmentation ${f}% (≤ 5) — $(pass "$d >= 88 && $f <= 5")"
			done
		done
	done
	for k in iuid flaxid distid128; do
		d=$(conc_field "$k" batch 4 7)
		[ -n "$d" ] && echo "- $k, 4 clients, batch: throughput ${d}× bigserial's (≥ 1) — $(pass "$d >= 1")"
	done
	for k in iuid flaxid distid128 distid_burst base36id_burst; do
		d=$(gen_field "$k" 9)
		echo "- $k: ${d:-n/a}× cheaper per id than gen_random_uuid() (≥ 10) — $(pass "${d:-0} >= 10")"
	done
	echo
	echo "(total run time $((SECONDS - START)) s)"
}

report | tee "$REPORT"
say "wrote $REPORT and $CHART"
