#!/usr/bin/env bash
# idgen benchmark suite: every generator and every id type side by side with
# the obvious core alternative, in one server and one run, as ratios with
# their spread over interleaved rounds.
#
#   IDGEN_PG_VERSION=18 nice -n 10 bash test/bench/bench.sh   # the report of one major
#   nice -n 10 bash test/bench/bench.sh --quick      # parity ratios only, under 2 minutes
#   IDGEN_BENCH_SCALE=tiny bash test/bench/bench.sh  # the whole harness at toy sizes
#
# The server is a release build of the major IDGEN_PG_VERSION (15, 17, 18,
# 19; default 15): tools/pgbuild.sh's idgen_pg_release_build, which for 18
# (built with assertions for the tests) is the variant 18-release, built into
# the cache on first use (several minutes, once).  A server that checks
# assertions is refused at full and quick scale; at tiny scale (the test
# command's, which builds no server of its own) the build the tests use is
# taken and the report says so in its first lines.
#
# It builds idgen, starts a scratch cluster and measures:
#   1. cost per id: SELECT count(f()) FROM generate_series(1, N), timed in
#      the server, net of the bare loop, as a ratio to gen_random_uuid();
#   2. a single-session bulk insert into a table with each kind of primary
#      key: time, WAL bytes, index size, leaf density and fragmentation
#      (pgstattuple's pgstatindex);
#   3. the same with concurrent pgbench clients, 100-row batch transactions
#      and single-row inserts: throughput, density, fragmentation;
#   4. parity of each idgen type with the nearest core type holding the
#      same ids (iuid/uuid, flaxid/text, distid/numeric(28,0),
#      base36id/bigint): COPY TO and FROM, text and binary; a sort in memory
#      and one that spills to disk; CREATE INDEX; WHERE id = ANY(array)
#      lookups through the index;
#   5. idgen_portable's cost, by test/bench/portable.sh on the same cluster
#      (its own report, portable.md), except in a quick run.
# Core uuidv7() is included when the server is PostgreSQL 18 or later.
# Every figure is a median over interleaved rounds (each round runs every
# contender once, in a rotating order), with its spread (lowest–highest); a
# ratio is taken within each round and its verdict says "no winner" when
# the spread crosses 1.0.  Statements one session runs (parts 1 and 4) are
# timed by the backend's CPU time (/proc/self/schedstat), which waiting for
# a CPU on a busy machine does not inflate; the rate-limited generators'
# sustained runs and the inserts by the wall clock.  --quick runs part 4
# only, at a smaller size.
#
# The report (markdown, also printed to stdout) starts with what makes it
# comparable: the command, the server's version, configure flags and
# whether it checks assertions, idgen's version, the machine, and the load
# average before, during and after.  At full scale it goes with an SVG chart
# (gnuplot) of leaf density and insert throughput into
# test/bench/results/pg<major>/ (bench.md, bench.svg).
#
# Settings (environment):
#   IDGEN_PG_VERSION    the major (default 15)
#   IDGEN_BENCH_SCALE   full (default), quick (as --quick) or tiny
#   IDGEN_BENCH_BUILD   another server build of tools/pgbuild.sh (e.g. 18)
#   IDGEN_BENCH_ALLOW_ASSERT=1  run at full or quick scale on a server that
#                       checks assertions (the report is marked)
#   IDGEN_BENCH_OUT     output directory (default: test/bench/results/pg<major>
#                       at full scale on the release build; else
#                       $TMPDIR/idgen-bench-<scale> for tiny, none for quick)
#   BENCH_N, BENCH_REPEAT                  ids per cost run, interleaved rounds
#   BENCH_BURST_N, BENCH_BURST_REPEAT      distid_generate() within its burst
#   BENCH_DISTID_N, BENCH_DISTID_REPEAT    distid_generate() sustained
#   BENCH_B36_N, BENCH_B36_REPEAT          base36id_generate() within a second
#   BENCH_B36_SUSTAINED_N                  base36id_generate() sustained (whole
#                                          seconds: a multiple of 1296)
#   BENCH_ROWS, BENCH_INSERT_REPEAT        single-session bulk insert
#   BENCH_B36_ROWS                         base36id's bulk insert (rate limited)
#   BENCH_CLIENTS                          client counts of part 3 ("2 4 8")
#   BENCH_BATCH_ROWS, BENCH_SINGLE_ROWS    rows per part 3 run, batch / single-row
#   BENCH_CONC_REPEAT                      rounds of part 3
#   BENCH_PARITY_ROWS, BENCH_PARITY_REPEAT ids per table and rounds of part 4
#   BENCH_LOOKUP_N                         ids per = ANY(array) lookup
#   IDGEN_KEEP=1        keep the scratch cluster (see tools/lib.sh)
#
# Nothing here asserts a timing: the report states what was measured.
# The harness does check itself: the same ids in both tables of a pair,
# every COPY loading them all, the spilling sort spilling and the other not,
# every lookup finding its ids through the index.

# the command as given, for the report (before tools/lib.sh sets defaults)
BENCH_COMMAND=
for v in IDGEN_PG_VERSION IDGEN_BENCH_SCALE IDGEN_BENCH_BUILD IDGEN_BENCH_ALLOW_ASSERT IDGEN_BENCH_OUT \
	$(compgen -v BENCH_ | grep -v '^BENCH_COMMAND$'); do
	[ -z "${!v+set}" ] || BENCH_COMMAND+="$v=$(printf '%q' "${!v}") "
done
[ "$(nice)" -eq 0 ] || BENCH_COMMAND+="nice -n $(nice) "
BENCH_COMMAND+="bash test/bench/bench.sh${*:+ $*}"

for a in "$@"; do
	case $a in
		--quick) IDGEN_BENCH_SCALE=quick ;;
		-h | --help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
		*) echo "bench.sh: unknown argument '$a' (--quick, --help)" >&2; exit 2 ;;
	esac
done

source "$(dirname "$0")/../../tools/lib.sh"
BENCH_DIR=$IDGEN_ROOT/test/bench

IDGEN_PACKAGES+=(gnuplot-nox)

SCALE=${IDGEN_BENCH_SCALE:-full}
case $SCALE in
	full)
		: "${BENCH_N:=500000}" "${BENCH_REPEAT:=5}"
		: "${BENCH_BURST_N:=100000}" "${BENCH_BURST_REPEAT:=9}"
		: "${BENCH_DISTID_N:=500000}" "${BENCH_DISTID_REPEAT:=3}"
		: "${BENCH_B36_N:=1200}" "${BENCH_B36_REPEAT:=11}" "${BENCH_B36_SUSTAINED_N:=3888}"
		: "${BENCH_ROWS:=500000}" "${BENCH_INSERT_REPEAT:=3}" "${BENCH_B36_ROWS:=3888}"
		: "${BENCH_BATCH_ROWS:=200000}" "${BENCH_SINGLE_ROWS:=20000}" "${BENCH_CONC_REPEAT:=3}"
		: "${BENCH_PARITY_ROWS:=500000}" "${BENCH_PARITY_REPEAT:=5}"
		;;
	quick)
		: "${BENCH_PARITY_ROWS:=200000}" "${BENCH_PARITY_REPEAT:=5}"
		;;
	tiny)
		: "${BENCH_N:=20000}" "${BENCH_REPEAT:=2}"
		: "${BENCH_BURST_N:=10000}" "${BENCH_BURST_REPEAT:=2}"
		: "${BENCH_DISTID_N:=140000}" "${BENCH_DISTID_REPEAT:=1}"
		: "${BENCH_B36_N:=1200}" "${BENCH_B36_REPEAT:=2}" "${BENCH_B36_SUSTAINED_N:=2592}"
		: "${BENCH_ROWS:=20000}" "${BENCH_INSERT_REPEAT:=2}" "${BENCH_B36_ROWS:=1296}"
		: "${BENCH_BATCH_ROWS:=4000}" "${BENCH_SINGLE_ROWS:=800}" "${BENCH_CONC_REPEAT:=2}"
		: "${BENCH_CLIENTS:=2 8}"
		: "${BENCH_PARITY_ROWS:=20000}" "${BENCH_PARITY_REPEAT:=2}"
		;;
	*) say "IDGEN_BENCH_SCALE must be full, quick or tiny, not '$SCALE'"; exit 2 ;;
esac
# quick: part 4 only; the others' settings are not used
: "${BENCH_N:=1}" "${BENCH_REPEAT:=1}" "${BENCH_BURST_N:=1}" "${BENCH_BURST_REPEAT:=1}"
: "${BENCH_DISTID_N:=1}" "${BENCH_DISTID_REPEAT:=1}" "${BENCH_B36_N:=1}" "${BENCH_B36_REPEAT:=1}"
: "${BENCH_B36_SUSTAINED_N:=2592}" "${BENCH_ROWS:=1}" "${BENCH_INSERT_REPEAT:=1}" "${BENCH_B36_ROWS:=1}"
: "${BENCH_BATCH_ROWS:=1}" "${BENCH_SINGLE_ROWS:=1}" "${BENCH_CONC_REPEAT:=1}"
: "${BENCH_CLIENTS:=2 4 8}"
: "${BENCH_LOOKUP_N:=$((BENCH_PARITY_ROWS / 10 > 0 ? BENCH_PARITY_ROWS / 10 : 1))}"
FULL_PARTS=1; [ "$SCALE" != quick ] || FULL_PARTS=0

for v in BENCH_N BENCH_REPEAT BENCH_BURST_N BENCH_BURST_REPEAT BENCH_DISTID_N BENCH_DISTID_REPEAT \
	BENCH_B36_N BENCH_B36_REPEAT BENCH_B36_SUSTAINED_N BENCH_ROWS BENCH_INSERT_REPEAT \
	BENCH_B36_ROWS BENCH_BATCH_ROWS BENCH_SINGLE_ROWS BENCH_CONC_REPEAT \
	BENCH_PARITY_ROWS BENCH_PARITY_REPEAT BENCH_LOOKUP_N; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || { say "$v must be a positive integer, not '${!v}'"; exit 2; }
done
[[ $BENCH_CLIENTS =~ ^[1-9][0-9]*( [1-9][0-9]*)*$ ]] ||
	{ say "BENCH_CLIENTS must be client counts separated by spaces, not '$BENCH_CLIENTS'"; exit 2; }
read -r -a CLIENTS <<<"$(tr ' ' '\n' <<<"$BENCH_CLIENTS" | sort -n -u | tr '\n' ' ')"
[ "$BENCH_LOOKUP_N" -le "$BENCH_PARITY_ROWS" ] ||
	{ say "BENCH_LOOKUP_N must not exceed BENCH_PARITY_ROWS"; exit 2; }

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
# counted in some queries and not others), no parallel workers (the loop and
# the sorts must run in one process), and enough work_mem and
# maintenance_work_mem for generate_series' tuplestore, the in-memory sorts
# and the index builds to stay in memory.
SESSION_SETTINGS="SET jit = off; SET max_parallel_workers_per_gather = 0; SET max_parallel_maintenance_workers = 0; SET work_mem = '1GB'; SET maintenance_work_mem = '1GB';"

bench_psql() {
	idgen_psql -At -F'|' -c "$SESSION_SETTINGS" "$@"
}

sqlq() { # text quoted for a SQL string literal, without the quotes
	sed "s/'/''/g" <<<"$1"
}

# The 1-minute load average at the start (once the server is built), at the
# end of every phase and at the end (the run's own processes count in it).
LOADS=()
load_mark() { LOADS+=("$(cut -d' ' -f1 /proc/loadavg)"); }

# --- the server ---------------------------------------------------------------

idgen_deps ${IDGEN_SETUP_PACKAGES[@]+"${IDGEN_SETUP_PACKAGES[@]}"}
[ $FULL_PARTS = 0 ] || command -v gnuplot >/dev/null || { say "gnuplot is missing (Debian package gnuplot-nox)"; exit 1; }
idgen_workdir
if [ -n "${IDGEN_BENCH_BUILD:-}" ]; then
	BENCH_BUILD=$IDGEN_BENCH_BUILD
elif [ "$SCALE" = tiny ]; then
	BENCH_BUILD=$IDGEN_PG_VERSION
else
	BENCH_BUILD=$(idgen_pg_release_build "$IDGEN_PG_VERSION")
fi
idgen_pg_select "$BENCH_BUILD"
load_mark
START=$SECONDS
RELEASE_BUILD=$(idgen_pg_release_build "$PG_MAJOR")
ASSERTS=off
grep -q '^#define USE_ASSERT_CHECKING 1' "$("$PG_CONFIG" --includedir-server)/pg_config.h" && ASSERTS=on
if [ $ASSERTS = on ] && [ "$SCALE" != tiny ] && [ "${IDGEN_BENCH_ALLOW_ASSERT:-0}" != 1 ]; then
	say "PostgreSQL $PG_LABEL checks assertions: its timings say little about a production server." \
		"Run on the release build (leave IDGEN_BENCH_BUILD unset: $RELEASE_BUILD), or set IDGEN_BENCH_ALLOW_ASSERT=1 for a marked report."
	exit 2
fi
PG_DIR_LABEL=$(idgen_pg_label "$PG_MAJOR")
if [ -z "${IDGEN_BENCH_OUT:-}" ]; then
	if [ "$SCALE" = full ] && [ "$PG_BUILD" = "$RELEASE_BUILD" ]; then
		IDGEN_BENCH_OUT=$BENCH_DIR/results/pg$PG_DIR_LABEL
	elif [ "$SCALE" != quick ]; then
		IDGEN_BENCH_OUT=${TMPDIR:-/tmp}/idgen-bench-$SCALE
	fi
fi
REPORT= CHART=
if [ -n "${IDGEN_BENCH_OUT:-}" ]; then
	mkdir -p "$IDGEN_BENCH_OUT"
	REPORT=$IDGEN_BENCH_OUT/bench.md
	CHART=$IDGEN_BENCH_OUT/bench.svg
	rm -f "$REPORT" "$CHART"
fi

say "building"
idgen_build
idgen_install
say "starting a throwaway cluster in $IDGEN_WORK"
# worker 0 for base36id_generate(); shared buffers that hold part 4's tables
idgen_cluster_start "idgen.worker_id = 0" "shared_buffers = '512MB'"

PG_NUM=$(idgen_psql -At -c "SHOW server_version_num")
PG_VERSION=$(idgen_psql -At -c "SHOW server_version")
SERVER_ASSERTS=$(idgen_psql -At -c "SHOW debug_assertions")
[ "$SERVER_ASSERTS" = "$ASSERTS" ] ||
	{ say "the server says debug_assertions = $SERVER_ASSERTS, its pg_config.h the opposite"; exit 1; }
HAVE_UUIDV7=0; [ "$PG_NUM" -ge 180000 ] && HAVE_UUIDV7=1
say "PostgreSQL $PG_VERSION ($PG_BUILD), assertions $ASSERTS; core uuidv7(): $([ $HAVE_UUIDV7 = 1 ] && echo yes || echo no)"

idgen_psql <<'SQL'
CREATE EXTENSION idgen;
CREATE EXTENSION pgstattuple;
CREATE SEQUENCE bench_seq;
-- grp: the runs a ratio pairs with by rep ('main': the interleaved rounds,
-- paired with gen_random_uuid()'s run of the same round); loop_ord: the
-- bare loop whose per-row time is subtracted (NULL for a loop); paired:
-- that loop ran in the same round, else its median is subtracted
CREATE TABLE bench_gen (ord int, key text, label text, grp text, rep int, n bigint,
	loop_ord int, paired bool, ms float8, cpu float8);
-- how far distid_generate() was from its rate limit right after a run
CREATE TABLE bench_headroom (kind text, rep int, ms float8);
CREATE TABLE bench_ins (kind text, rep int, n bigint, ms float8, cpu float8, wal numeric);
CREATE TABLE bench_conc (kind text, mode text, clients int, rep int, n bigint, rows_s float8,
	density float8, frag float8, leaf_pages bigint, index_bytes bigint, wal numeric);
CREATE TABLE bench_q (pair text, op int, side text, rep int, ms float8, cpu float8);

-- The backend's time on a CPU so far, in ns: the first field of
-- /proc/self/schedstat (Linux).  Waiting for a CPU on a busy machine does not
-- count in it, as it does in the wall clock.  Replaced below by a NULL where
-- the kernel does not provide it.
CREATE FUNCTION bench_cpu_ns() RETURNS bigint LANGUAGE sql AS $$
	SELECT split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint
$$;

-- One statement, timed in the server: wall-clock ms, CPU ms of this backend,
-- and the WAL it wrote (insert position: the transaction is open).  The
-- kernel brings a running process's CPU time up to date only when it is
-- switched out (or at a tick): a short sleep before each reading does that.
CREATE FUNCTION bench_run(q text, OUT ms float8, OUT cpu float8, OUT wal numeric) LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
	c0 bigint;
	l0 pg_lsn;
BEGIN
	PERFORM pg_sleep(0.0005);
	c0 := bench_cpu_ns();
	l0 := pg_current_wal_insert_lsn();
	t0 := clock_timestamp();
	EXECUTE q;
	ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
	wal := pg_current_wal_insert_lsn() - l0;
	PERFORM pg_sleep(0.0005);
	cpu := (bench_cpu_ns() - c0) / 1e6;
END $$;

-- the report's formats: a ratio, a spread of ratios, and the verdict on a
-- spread (taken from the rounded figures the report shows)
CREATE FUNCTION bench_x(r float8) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN r IS NULL THEN 'n/a' ELSE round(r::numeric, 2) || '×' END
$$;
CREATE FUNCTION bench_spread(lo float8, hi float8) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN lo IS NULL THEN 'n/a' ELSE round(lo::numeric, 2) || '–' || round(hi::numeric, 2) END
$$;
CREATE FUNCTION bench_verdict(lo float8, hi float8, above text, below text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN lo IS NULL THEN 'n/a'
		WHEN round(lo::numeric, 2) > 1 THEN above
		WHEN round(hi::numeric, 2) < 1 THEN below
		ELSE 'no winner: spread crosses 1.0' END
$$;
-- a summary cell: ratio (spread), "≈ " first when the spread crosses 1.0
CREATE FUNCTION bench_cell(r float8, lo float8, hi float8) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN lo IS NULL THEN 'n/a'
		ELSE CASE WHEN round(lo::numeric, 2) <= 1 AND round(hi::numeric, 2) >= 1 THEN '≈ ' ELSE '' END ||
			bench_x(r) || ' (' || bench_spread(lo, hi) || ')' END
$$;
-- milliseconds as the report shows them
CREATE FUNCTION bench_fmt(ms float8) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT round(ms::numeric, CASE WHEN ms < 10 THEN 2 WHEN ms < 100 THEN 1 ELSE 0 END)::text
$$;

SQL
# the pasted UUIDv7 functions, PL/pgSQL and SQL (test/bench/uuidv7.sql)
idgen_psql -q -f "$BENCH_DIR/uuidv7.sql"
IDGEN_VERSION=$(idgen_psql -At -c "SELECT extversion FROM pg_extension WHERE extname = 'idgen'")
# the basis of single-session timings: the backend's CPU time where Linux
# gives it, else the wall clock
if [ -n "$(idgen_psql -At -c "SELECT bench_cpu_ns()" 2>/dev/null)" ]; then
	TIMING="the backend's CPU time (/proc/self/schedstat)" TIMING_SHORT="CPU"
else
	idgen_psql -c "CREATE OR REPLACE FUNCTION bench_cpu_ns() RETURNS bigint LANGUAGE sql AS 'SELECT NULL::bigint'"
	TIMING="the wall clock (no /proc/self/schedstat: its CPU time is unknown)" TIMING_SHORT="wall clock"
fi

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
load_mark

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
[ $HAVE_UUIDV7 = 1 ] && gen_add uuidv7 "\`uuidv7()\` (core, PostgreSQL 18 and later)" "uuidv7()"
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
gen_record() { # gen_record ORD KEY LABEL GRP REP N LOOP_ORD PAIRED EXPR
	printf "INSERT INTO bench_gen SELECT %d, '%s', '%s', '%s', %d, %d, %s, %s, ms, cpu FROM bench_run('%s');" \
		"$1" "$2" "$(sqlq "$3")" "$4" "$5" "$6" "$7" "$8" "$(sqlq "$(gen_query "$9" "$6")")"
}

# SQL that records how many ms distid_generate()'s next id lags the clock:
# 1000 for a fresh generator, ~1 once it is at the rate limit
headroom_record() { # headroom_record KIND REP
	printf "INSERT INTO bench_headroom SELECT '%s', %d, extract(epoch FROM clock_timestamp() - distid_timestamp(distid_generate())) * 1000;" "$1" "$2"
}

# SQL that sleeps until just after the next second: base36id_generate()'s
# counter then has all of its 1296 ids
NEXT_SECOND="SELECT pg_sleep(1.002 - extract(epoch FROM clock_timestamp())::numeric % 1);"

measure_cost() {
	local warm key rep sql k i loop loop_sql gen_sql
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
			sql+=$(gen_record "$i" "$key" "${GEN_LABEL[$key]}" main "$rep" "$BENCH_N" "$loop" true "${GEN_EXPR[$key]}")
		done
		bench_psql -c "$sql"
		say "cost round $rep/$BENCH_REPEAT: $(bench_psql -c "SELECT string_agg(format('%s %s ms', key, round(ms::numeric)), ', ' ORDER BY ord) FROM bench_gen WHERE rep = $rep AND grp = 'main'")"
	done

	# distid_generate() sleeps 1 ms per ~128 ids once a session has used its
	# burst of ~128,000, so it is measured apart, each run in a fresh session (a
	# fresh generator): within the burst window next to a bare loop of the same
	# length (alternating which goes first), then sustained.
	for ((rep = 1; rep <= BENCH_BURST_REPEAT; rep++)); do
		loop_sql=$(gen_record "$ORD_BURST_LOOP" burst_loop "bare loop, \`count(g)\`, fresh session" burst "$rep" "$BENCH_BURST_N" NULL false g)
		gen_sql=$(gen_record "$ORD_BURST" distid_burst "\`distid_generate()\`, within its burst window, fresh session" burst "$rep" "$BENCH_BURST_N" "$ORD_BURST_LOOP" true "distid_generate()")
		gen_sql+=$(headroom_record burst "$rep")
		if ((rep % 2)); then sql="$loop_sql$gen_sql"; else sql="$gen_sql$loop_sql"; fi
		# warm up: plan and run both once on a handful of rows (one id drawn)
		bench_psql -c "$(gen_query g 10)" -c "$(gen_query "distid_generate()" 1)" -c "$sql" >/dev/null
	done
	for ((rep = 1; rep <= BENCH_DISTID_REPEAT; rep++)); do
		sql=$(gen_record "$ORD_SUSTAINED" distid_sustained "\`distid_generate()\`, sustained: **includes the reference's rate limit**" sustained "$rep" "$BENCH_DISTID_N" 0 false "distid_generate()")
		sql+=$(headroom_record sustained "$rep")
		bench_psql -c "$(gen_query "distid_generate()" 1)" -c "$sql" >/dev/null
	done
	say "distid_generate(): $BENCH_BURST_REPEAT burst runs, $BENCH_DISTID_REPEAT sustained runs done"

	# base36id_generate() shares 1296 ids per second among all backends: each run
	# starts just after a second begins, within it (BENCH_B36_N < 1296 ids, then
	# a bare loop of the same length) and sustained (waits included).
	for ((rep = 1; rep <= BENCH_B36_REPEAT; rep++)); do
		bench_psql -c "$(gen_query "base36id_generate()" 1)" -c "$(gen_query g 10)" -c "$NEXT_SECOND" \
			-c "$(gen_record "$ORD_B36" base36id_burst "\`base36id_generate()\`, within one second's 1296 ids" b36 "$rep" "$BENCH_B36_N" "$ORD_B36_LOOP" true "base36id_generate()")" \
			-c "$(gen_record "$ORD_B36_LOOP" b36_loop "bare loop, \`count(g)\`, same length" b36 "$rep" "$BENCH_B36_N" NULL false g)" >/dev/null
	done
	bench_psql -c "$NEXT_SECOND" \
		-c "$(gen_record "$ORD_B36_SUSTAINED" base36id_sustained "\`base36id_generate()\`, sustained: **includes its 1296/s limit**" b36_sustained 1 "$BENCH_B36_SUSTAINED_N" 0 false "base36id_generate()")" >/dev/null
	say "base36id_generate(): $BENCH_B36_REPEAT runs within a second, 1 sustained run done"
	load_mark
}

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
# checkpoint (so every run starts from the same WAL state); prints the WAL
# position after it.  Autovacuum is off for it: a vacuum running during
# some runs and not others is noise.
fresh_table() {
	idgen_psql -At -c "SET client_min_messages = warning" -c "DROP TABLE IF EXISTS $1" \
		-c "CREATE TABLE $1 (id ${PK_DDL[$2]}, pad int NOT NULL) WITH (autovacuum_enabled = off)" \
		-c "CHECKPOINT" -c "SELECT pg_current_wal_lsn()"
}

measure_insert() {
	local rep nk k kind t rows
	for ((rep = 1; rep <= BENCH_INSERT_REPEAT; rep++)); do
		nk=${#PK_KINDS[@]}
		for ((k = 0; k < nk; k++)); do
			kind=${PK_KINDS[$(((k + rep - 1) % nk))]}	# rotate the order every round
			t=bench_$kind
			rows=$(pk_rows "$kind")
			fresh_table "$t" "$kind" >/dev/null
			bench_psql -c "INSERT INTO bench_ins SELECT '$kind', $rep, $rows, ms, cpu, wal FROM bench_run('INSERT INTO $t (pad) SELECT g FROM generate_series(1, $rows) AS g')"
		done
		say "2. insert round $rep/$BENCH_INSERT_REPEAT: $(bench_psql -c "SELECT string_agg(format('%s %s ms', kind, round(ms::numeric)), ', ') FROM bench_ins WHERE rep = $rep")"
	done
	load_mark
}

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

# One setting (client count, mode) after another; within a setting,
# BENCH_CONC_REPEAT rounds of every key type, the order rotating, so a ratio
# to bigserial pairs runs made moments apart.
measure_concurrent() {
	local c mode per_tx tx n rep nk k kind t script lsn out tps
	nk=${#CONC_KINDS[@]}
	for c in "${CLIENTS[@]}"; do
		for mode in batch single; do
			per_tx=${MODE_PER_TX[$mode]}
			tx=$((MODE_ROWS[$mode] / per_tx / c)); [ "$tx" -ge 1 ] || tx=1
			n=$((tx * c * per_tx))
			for ((rep = 1; rep <= BENCH_CONC_REPEAT; rep++)); do
				for ((k = 0; k < nk; k++)); do
					kind=${CONC_KINDS[$(((k + rep - 1) % nk))]}
					t=conc_$kind
					script=$IDGEN_WORK/pgbench_${mode}_$kind.sql
					# shellcheck disable=SC2059
					printf "${MODE_SQL[$mode]}\n" "$t" >"$script"
					lsn=$(fresh_table "$t" "$kind")
					out=$("$PG_BIN/pgbench" -n -M prepared -f "$script" -c "$c" -j "$c" -t "$tx" 2>&1) ||
						{ echo "$out" >&2; say "pgbench failed: $kind $mode $c clients"; exit 1; }
					tps=$(sed -n 's/^tps = \([0-9.]*\) (without initial connection time)$/\1/p' <<<"$out")
					[[ $tps =~ ^[0-9.]+$ ]] || { echo "$out" >&2; say "no tps in pgbench's output"; exit 1; }
					# the row, checked: every transaction's rows are there
					out=$(idgen_psql -At -c "INSERT INTO bench_conc SELECT '$kind', '$mode', $c, $rep, count(*), $tps * $per_tx,
						st.avg_leaf_density, st.leaf_fragmentation, st.leaf_pages, pg_relation_size('${t}_pkey'),
						pg_current_wal_lsn() - '$lsn'
						FROM $t, pgstatindex('${t}_pkey') AS st
						GROUP BY st.avg_leaf_density, st.leaf_fragmentation, st.leaf_pages
						RETURNING n")
					[ "$out" = "$n" ] || { say "$kind $mode $c clients: $out rows, expected $n"; exit 1; }
				done
			done
			idgen_psql -c "SET client_min_messages = warning" \
				-c "$(printf 'DROP TABLE IF EXISTS conc_%s;' "${CONC_KINDS[@]}")"
			say "3. $c clients, $mode: $(bench_psql -c "SELECT string_agg(format('%s %s%%', kind, round(d::numeric)), ', ') FROM (SELECT kind, percentile_cont(0.5) WITHIN GROUP (ORDER BY density) AS d FROM bench_conc WHERE mode = '$mode' AND clients = $c GROUP BY kind) AS m")"
		done
	done
	load_mark
}

# --- 4. parity: idgen type vs nearest core type --------------------------------

# pair: idgen type, core type, the SQL that makes BENCH_PARITY_ROWS ids of
# the idgen type in one session.  The core table holds the same ids cast to
# the core type, in the same random order.  base36id's are made up (1296 per
# second from worker 0, as its generator would make them in
# BENCH_PARITY_ROWS/1296 seconds); distid's come from the generator without
# the reference's rate limit (the same type and layout).
PAIRS=(iuid flaxid distid base36id)
declare -A PAIR_CORE=([iuid]=uuid [flaxid]=text [distid]="numeric(28,0)" [base36id]=bigint)
declare -A PAIR_SRC=(
	[iuid]="SELECT iuid_generate(1, 1) AS id FROM generate_series(1, $BENCH_PARITY_ROWS)"
	[flaxid]="SELECT flaxid_generate() AS id FROM generate_series(1, $BENCH_PARITY_ROWS)"
	[distid]="SELECT distid_generate_dense() AS id FROM generate_series(1, $BENCH_PARITY_ROWS)"
	[base36id]="SELECT (base36id_from_timestamp(timestamptz '2026-01-01 00:00:00+00' + (g / $B36_PER_S) * interval '1 second')::bigint + g % $B36_PER_S)::base36id AS id FROM generate_series(0, $BENCH_PARITY_ROWS - 1) AS g"
)
P_LABELS=("\`COPY t TO file\` (text)" "\`COPY t TO file (FORMAT binary)\`"
	"\`COPY t FROM file\` (text)" "\`COPY t FROM file (FORMAT binary)\`"
	"\`ORDER BY id\`, sort in memory" "\`ORDER BY id\`, external sort (spills to disk)"
	"\`CREATE INDEX ON t (id)\`" "\`WHERE id = ANY(array of $BENCH_LOOKUP_N ids)\`, index scan")
np=${#P_LABELS[@]}
OP_INDEX=6 OP_LOOKUP=7
# work_mem of the external sort: about 8 bytes per id, well under what any
# of these sorts needs in memory (at least 24 bytes per id); checked below
SPILL_KB=$((BENCH_PARITY_ROWS * 8 / 1024 > 64 ? BENCH_PARITY_ROWS * 8 / 1024 : 64))

# p_sql OP TABLE: the statement op OP times on table TABLE (q_PAIR_SIDE)
p_sql() {
	local f=$COPY_DIR/$2 p=${2%_*} s=${2##*_} ty
	ty=$p; [ "$s" = i ] || ty=${PAIR_CORE[$p]}
	case $1 in
		0) printf "COPY q_%s TO '%s.txt'" "$2" "$f" ;;
		1) printf "COPY q_%s TO '%s.bin' (FORMAT binary)" "$2" "$f" ;;
		2) printf "COPY qin_%s FROM '%s.txt'" "$2" "$f" ;;
		3) printf "COPY qin_%s FROM '%s.bin' (FORMAT binary)" "$2" "$f" ;;
		4 | 5) printf 'SELECT count(*) FROM (SELECT id FROM q_%s ORDER BY id OFFSET 0) AS s' "$2" ;;
		6) printf 'CREATE INDEX qix_%s ON q_%s (id)' "$2" "$2" ;;
		# the ids as a client sends an array parameter: text, parsed by the type
		7) printf 'SELECT count(*) FROM q_%s WHERE id = ANY((SELECT a FROM qk_%s)::%s[])' "$2" "$2" "$ty" ;;
	esac
}
# p_pre OP / p_post OP: settings around the timed statement
p_pre() {
	case $1 in
		5) echo "SET work_mem = '${SPILL_KB}kB'" ;;
		7) echo "SET enable_seqscan = off; SET enable_bitmapscan = off" ;;
	esac
}
p_post() {
	case $1 in
		5) echo "SET work_mem = '1GB'" ;;
		7) echo "SET enable_seqscan = on; SET enable_bitmapscan = on" ;;
	esac
}

measure_parity() {
	local p c s t op rep sides args plan got
	COPY_DIR=$IDGEN_WORK/copy
	as_server mkdir -p "$COPY_DIR"
	say "4. parity: $BENCH_PARITY_ROWS ids of each type, $BENCH_PARITY_REPEAT rounds"
	for p in "${PAIRS[@]}"; do
		c=${PAIR_CORE[$p]}
		bench_psql -f - <<SQL
SET client_min_messages = warning;
CREATE TABLE q_${p}_i WITH (autovacuum_enabled = off) AS
	SELECT id FROM (${PAIR_SRC[$p]}) AS s ORDER BY random();
CREATE TABLE q_${p}_c WITH (autovacuum_enabled = off) AS SELECT id::$c AS id FROM q_${p}_i;
CREATE TABLE qin_${p}_i (LIKE q_${p}_i) WITH (autovacuum_enabled = off);
CREATE TABLE qin_${p}_c (LIKE q_${p}_c) WITH (autovacuum_enabled = off);
-- the ids a lookup asks for, in a random order, as array text
CREATE TABLE qk_${p}_i AS SELECT array_agg(id)::text AS a FROM
	(SELECT id FROM q_${p}_i ORDER BY random() LIMIT $BENCH_LOOKUP_N) AS s;
CREATE TABLE qk_${p}_c AS SELECT a::${p}[]::${c}[]::text AS a FROM qk_${p}_i;
VACUUM ANALYZE q_${p}_i;
VACUUM ANALYZE q_${p}_c;
SQL
		got=$(bench_psql -c "SELECT (SELECT count(*) FROM q_${p}_i) = $BENCH_PARITY_ROWS AND (SELECT array_agg(id::$c) FROM q_${p}_i) = (SELECT array_agg(id) FROM q_${p}_c)")
		[ "$got" = t ] || { say "q_${p}_i and q_${p}_c do not hold the same $BENCH_PARITY_ROWS values in the same order"; exit 1; }
		# The harness checks itself on each table (and warms it up): the
		# sorts are done in memory and on disk as labelled, the lookup runs
		# through the index and finds every id it asks for
		for s in i c; do
			t=${p}_$s
			plan=$(bench_psql -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) $(p_sql 4 "$t")")
			grep -q 'Sort Method: quicksort' <<<"$plan" ||
				{ echo "$plan" >&2; say "q_$t: the in-memory sort is not a quicksort in memory"; exit 1; }
			plan=$(bench_psql -c "$(p_pre 5)" -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) $(p_sql 5 "$t")")
			grep -q 'Sort Method: external' <<<"$plan" ||
				{ echo "$plan" >&2; say "q_$t: the external sort did not spill with work_mem ${SPILL_KB}kB"; exit 1; }
			plan=$(bench_psql -c "$(p_sql 6 "$t")" -c "$(p_pre 7)" -c "EXPLAIN (COSTS OFF) $(p_sql 7 "$t")" \
				-c "$(p_sql 7 "$t")" -c "DROP INDEX qix_$t")
			grep -q "Index Only Scan using qix_$t\|Index Scan using qix_$t" <<<"$plan" &&
				[ "$(tail -n 1 <<<"$plan")" = "$BENCH_LOOKUP_N" ] ||
				{ echo "$plan" >&2; say "q_$t: the lookup does not find its $BENCH_LOOKUP_N ids through the index"; exit 1; }
		done
	done

	for ((rep = 1; rep <= BENCH_PARITY_REPEAT; rep++)); do
		if ((rep % 2)); then sides=(i c); else sides=(c i); fi
		args=(-c "CHECKPOINT")
		for ((op = 0; op < np; op++)); do
			for p in "${PAIRS[@]}"; do
				for s in "${sides[@]}"; do
					t=${p}_$s
					# COPY FROM goes into an empty table
					((op == 2 || op == 3)) && args+=(-c "TRUNCATE qin_$t")
					[ -z "$(p_pre $op)" ] || args+=(-c "$(p_pre $op)")
					args+=(-c "INSERT INTO bench_q SELECT '$p', $op, '$s', $rep, ms, cpu FROM bench_run('$(sqlq "$(p_sql "$op" "$t")")')")
					[ -z "$(p_post $op)" ] || args+=(-c "$(p_post $op)")
				done
			done
		done
		# the indexes of op 6 served op 7; the sorts of the next round must not find them
		for p in "${PAIRS[@]}"; do args+=(-c "DROP INDEX qix_${p}_i" -c "DROP INDEX qix_${p}_c"); done
		bench_psql "${args[@]}"
		say "4. round $rep/$BENCH_PARITY_REPEAT done"
	done
	for p in "${PAIRS[@]}"; do
		for s in i c; do
			got=$(bench_psql -c "SELECT (SELECT count(*) FROM qin_${p}_$s) = $BENCH_PARITY_ROWS")
			[ "$got" = t ] || { say "COPY FROM into qin_${p}_$s did not load $BENCH_PARITY_ROWS rows"; exit 1; }
		done
	done
	load_mark
}

# --- results ------------------------------------------------------------------

pk_values() { # (ord, kind, ddl, short) rows for the kinds given
	local i=0 v= k
	for k in "$@"; do
		v+="${v:+, }($i, '$k', '$(sqlq "${PK_DDL[$k]}")', '$(sqlq "${PK_SHORT[$k]}")')"
		i=$((i + 1))
	done
	echo "$v"
}

# collect_full: the tables of parts 1 to 3 and the chart's data
collect_full() {
	# Part 1: per run, the time per id net of the bare loop (of the same round
	# where it ran in it, else the loop's median), and the ratio to
	# gen_random_uuid()'s net time of the same round (for the runs measured
	# apart, to its median).  CPU time, but the wall clock for the sustained
	# runs, whose point is the time they wait.
	GEN_ROWS=$(bench_psql -f - <<SQL
WITH r0 AS (
	SELECT g.*, g.grp IN ('sustained', 'b36_sustained') AS wall FROM bench_gen AS g
), r AS (
	SELECT r0.*, CASE WHEN wall THEN ms ELSE coalesce(cpu, ms) END AS t,
		ms * 1e6 / n AS ns_wall, coalesce(cpu, ms) * 1e6 / n AS ns_cpu
	FROM r0
), loopmed AS (
	SELECT ord, percentile_cont(0.5) WITHIN GROUP (ORDER BY ns_wall) AS ns_wall,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY ns_cpu) AS ns_cpu
	FROM r GROUP BY ord
), net AS (
	SELECT r.*, r.t * 1e6 / r.n AS ns,
		CASE WHEN r.loop_ord IS NOT NULL THEN r.t * 1e6 / r.n -
			CASE WHEN r.paired THEN l.ns_cpu WHEN r.wall THEN lm.ns_wall ELSE lm.ns_cpu END END AS net
	FROM r LEFT JOIN r AS l ON r.paired AND l.ord = r.loop_ord AND l.rep = r.rep
		LEFT JOIN loopmed AS lm ON lm.ord = r.loop_ord
), umed AS (
	SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY net) AS net FROM net WHERE key = 'uuid4'
), ratio AS (
	SELECT n.*, CASE WHEN n.net > 0 AND coalesce(u.net, umed.net) > 0
		THEN coalesce(u.net, umed.net) / n.net END AS ratio
	FROM net AS n CROSS JOIN umed
		LEFT JOIN net AS u ON n.grp = 'main' AND u.key = 'uuid4' AND u.rep = n.rep
), m AS (
	SELECT ord, key, label, n, loop_ord, wall, count(*) AS runs,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY t) AS med, min(t) AS lo, max(t) AS hi,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY ns) AS ns,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY net) AS net,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio) AS ratio, min(ratio) AS rlo, max(ratio) AS rhi,
		count(ratio) AS nratio
	FROM ratio GROUP BY ord, key, label, n, loop_ord, wall
)
SELECT key, label, n, runs, bench_fmt(med), bench_fmt(lo) || '–' || bench_fmt(hi),
	CASE WHEN wall THEN 'wall clock' ELSE '$TIMING_SHORT' END,
	CASE WHEN loop_ord IS NULL THEN round(ns::numeric, 1) || ' (loop)' ELSE round(net::numeric, 1)::text END,
	CASE WHEN loop_ord IS NULL OR key = 'uuid4' THEN '–' ELSE bench_x(ratio) END,
	CASE WHEN loop_ord IS NULL OR key = 'uuid4' THEN '–' WHEN nratio < runs THEN 'n/a' ELSE bench_spread(rlo, rhi) END,
	CASE WHEN loop_ord IS NULL OR key = 'uuid4' THEN '–'
		WHEN nratio < runs THEN 'n/a: a run within the bare loop''s noise'
		ELSE bench_verdict(rlo, rhi, 'cheaper', 'costlier') END
FROM m ORDER BY ord;
SQL
	)

	HEADROOM=$(bench_psql -c "SELECT round(min(ms) FILTER (WHERE kind = 'burst')::numeric), round(max(ms) FILTER (WHERE kind = 'sustained')::numeric, 1) FROM bench_headroom")
	BURST_HEADROOM=${HEADROOM%%|*}
	SUSTAINED=$(bench_psql -c "SELECT round(($BENCH_DISTID_N / med)::numeric, 1), round((greatest($BENCH_DISTID_N - $DISTID_BURST, 0) / med)::numeric, 1) FROM (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS med FROM bench_gen WHERE key = 'distid_sustained') AS m")
	IFS='|' read -r SUST_RATE SUST_RATE_AFTER <<<"$SUSTAINED"
	# it starts just after a second begins: the first second's ids come at once,
	# the others at the limit's pace
	B36_RATE=$(bench_psql -c "SELECT round((n - $B36_PER_S) * 1000 / ms) FROM bench_gen WHERE key = 'base36id_sustained'")

	# Part 2: medians over the rounds; the ratio to bigserial's rate within
	# each round; the index as the last round left it.
	INS_ROWS=$(bench_psql -f - <<SQL
WITH r AS (
	SELECT i.*, i.n * 1000 / i.ms AS rows_s, i.n * 1000 / i.ms / (s.n * 1000 / s.ms) AS ratio
	FROM bench_ins AS i JOIN bench_ins AS s ON s.kind = 'bigserial' AND s.rep = i.rep
), m AS (
	SELECT kind, max(n) AS n, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS med, min(ms) AS lo, max(ms) AS hi,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY rows_s) AS rows_s,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio) AS ratio, min(ratio) AS rlo, max(ratio) AS rhi,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY wal) AS wal,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY cpu) AS cpu
	FROM r GROUP BY kind
)
SELECT k.ddl, m.n, bench_fmt(m.med), bench_fmt(m.lo) || '–' || bench_fmt(m.hi), coalesce(bench_fmt(m.cpu), 'n/a'),
	round(m.rows_s::numeric),
	CASE WHEN k.kind = 'bigserial' THEN '1.00×' ELSE bench_x(m.ratio) END,
	CASE WHEN k.kind = 'bigserial' THEN '–' ELSE bench_spread(m.rlo, m.rhi) END,
	CASE WHEN k.kind = 'bigserial' THEN '–' ELSE bench_verdict(m.rlo, m.rhi, 'faster', 'slower') END,
	round(m.wal::numeric / m.n),
	coalesce(round(st.avg_leaf_density::numeric, 1)::text, 'n/a'),
	coalesce(round(st.leaf_fragmentation::numeric, 1)::text, 'n/a'),
	st.leaf_pages,
	round(pg_relation_size(format('bench_%s_pkey', k.kind)::regclass) / 1048576.0, 1)
FROM (VALUES $(pk_values "${PK_KINDS[@]}")) AS k(ord, kind, ddl, short)
	JOIN m USING (kind)
	CROSS JOIN LATERAL pgstatindex(format('bench_%s_pkey', k.kind)) AS st
ORDER BY k.ord;
SQL
	)

	# Part 3: per setting and key type, medians over the rounds and the ratio to
	# bigserial's rate within each round.
	bench_psql -f - <<SQL
CREATE TABLE bench_conc_m AS
WITH r AS (
	SELECT b.*, b.rows_s / s.rows_s AS ratio
	FROM bench_conc AS b JOIN bench_conc AS s
		ON s.kind = 'bigserial' AND (s.mode, s.clients, s.rep) = (b.mode, b.clients, b.rep)
)
SELECT kind, mode, clients, count(*) AS runs, max(n) AS n,
	percentile_cont(0.5) WITHIN GROUP (ORDER BY rows_s) AS rows_s, min(rows_s) AS lo, max(rows_s) AS hi,
	percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio) AS ratio, min(ratio) AS rlo, max(ratio) AS rhi,
	percentile_cont(0.5) WITHIN GROUP (ORDER BY density) AS density,
	percentile_cont(0.5) WITHIN GROUP (ORDER BY frag) AS frag,
	percentile_cont(0.5) WITHIN GROUP (ORDER BY index_bytes) AS index_bytes,
	percentile_cont(0.5) WITHIN GROUP (ORDER BY wal / n) AS wal_row
FROM r GROUP BY kind, mode, clients;
SQL
	CONC_ROWS=$(bench_psql -f - <<SQL
SELECT b.mode, b.clients, k.ddl, b.n, round(b.rows_s::numeric), round(b.lo::numeric) || '–' || round(b.hi::numeric),
	CASE WHEN k.kind = 'bigserial' THEN '1.00×' ELSE bench_x(b.ratio) END,
	CASE WHEN k.kind = 'bigserial' THEN '–' ELSE bench_spread(b.rlo, b.rhi) END,
	CASE WHEN k.kind = 'bigserial' THEN '–' ELSE bench_verdict(b.rlo, b.rhi, 'faster', 'slower') END,
	coalesce(round(b.density::numeric, 1)::text, 'n/a'),
	coalesce(round(b.frag::numeric, 1)::text, 'n/a'),
	round((b.index_bytes / 1048576.0)::numeric, 1), round(b.wal_row::numeric)
FROM (VALUES $(pk_values "${CONC_KINDS[@]}")) AS k(ord, kind, ddl, short)
	JOIN bench_conc_m AS b USING (kind)
ORDER BY b.mode, b.clients, k.ord;
SQL
	)

	# The same, one row per key type, one column per setting (1 session, then
	# each client count for batch, then for single-row): leaf density
	# (fragmentation), and throughput as a ratio to bigserial's.
	SUMMARY_ROWS=$(bench_psql -f - <<SQL
WITH one AS (
	SELECT i.kind, percentile_cont(0.5) WITHIN GROUP (ORDER BY i.n * 1000 / i.ms / (s.n * 1000 / s.ms)) AS ratio,
		min(i.n * 1000 / i.ms / (s.n * 1000 / s.ms)) AS rlo, max(i.n * 1000 / i.ms / (s.n * 1000 / s.ms)) AS rhi
	FROM bench_ins AS i JOIN bench_ins AS s ON s.kind = 'bigserial' AND s.rep = i.rep
	GROUP BY i.kind
)
SELECT k.ddl,
	coalesce(round(st.avg_leaf_density::numeric, 1)::text, 'n/a') || ' (' || coalesce(round(st.leaf_fragmentation::numeric, 1)::text, 'n/a') || ')',
	(SELECT string_agg(coalesce(round(b.density::numeric, 1)::text, 'n/a') || ' (' || coalesce(round(b.frag::numeric, 1)::text, 'n/a') || ')',
		'|' ORDER BY b.mode, b.clients) FROM bench_conc_m AS b WHERE b.kind = k.kind),
	CASE WHEN k.kind = 'bigserial' THEN '1.00×' ELSE bench_cell(o.ratio, o.rlo, o.rhi) END,
	(SELECT string_agg(CASE WHEN k.kind = 'bigserial' THEN '1.00×' ELSE bench_cell(b.ratio, b.rlo, b.rhi) END,
		'|' ORDER BY b.mode, b.clients) FROM bench_conc_m AS b WHERE b.kind = k.kind)
FROM (VALUES $(pk_values "${CONC_KINDS[@]}")) AS k(ord, kind, ddl, short)
	JOIN one AS o USING (kind)
	CROSS JOIN LATERAL pgstatindex(format('bench_%s_pkey', k.kind)) AS st
ORDER BY k.ord;
SQL
	)

	# Chart data, one row per key type of part 3: short label, then leaf density
	# for 1 session and for each client count (batch, then single-row), then
	# throughput (thousand rows/s) in the same order; medians.
	DAT=$IDGEN_WORK/bench.dat
	bench_psql -f - >"$DAT" <<SQL
SELECT concat_ws(E'\t', k.short,
	coalesce(round(st.avg_leaf_density::numeric, 1)::text, 'NaN'),
	(SELECT string_agg(coalesce(round(b.density::numeric, 1)::text, 'NaN'), E'\t' ORDER BY b.mode, b.clients)
		FROM bench_conc_m AS b WHERE b.kind = k.kind),
	(SELECT round((max(n) * 1000 / percentile_cont(0.5) WITHIN GROUP (ORDER BY ms))::numeric / 1000, 1)
		FROM bench_ins AS i WHERE i.kind = k.kind),
	(SELECT string_agg(round(b.rows_s::numeric / 1000, 1)::text, E'\t' ORDER BY b.mode, b.clients)
		FROM bench_conc_m AS b WHERE b.kind = k.kind))
FROM (VALUES $(pk_values "${CONC_KINDS[@]}")) AS k(ord, kind, ddl, short)
	CROSS JOIN LATERAL pgstatindex(format('bench_%s_pkey', k.kind)) AS st
ORDER BY k.ord;
SQL
}

# collect_parity: the table of part 4; part 4: medians of each side, and the ratio core ÷ idgen within each round.
collect_parity() {
	Q_ROWS=$(bench_psql -f - <<SQL
WITH r AS (
	SELECT i.pair, i.op, i.rep, coalesce(i.cpu, i.ms) AS it, coalesce(c.cpu, c.ms) AS ct,
		coalesce(c.cpu, c.ms) / coalesce(i.cpu, i.ms) AS ratio, c.ms / i.ms AS wratio
	FROM bench_q AS i JOIN bench_q AS c USING (pair, op, rep)
	WHERE i.side = 'i' AND c.side = 'c'
), m AS (
	SELECT pair, op,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY it) AS it, min(it) AS ilo, max(it) AS ihi,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY ct) AS ct, min(ct) AS clo, max(ct) AS chi,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio) AS ratio, min(ratio) AS rlo, max(ratio) AS rhi,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY wratio) AS wratio, min(wratio) AS wlo, max(wratio) AS whi
	FROM r GROUP BY pair, op
)
SELECT pair, op, bench_fmt(it) || ' (' || bench_fmt(ilo) || '–' || bench_fmt(ihi) || ')',
	bench_fmt(ct) || ' (' || bench_fmt(clo) || '–' || bench_fmt(chi) || ')',
	bench_x(ratio), bench_spread(rlo, rhi), bench_verdict(rlo, rhi, 'idgen faster', 'core faster'),
	bench_cell(wratio, wlo, whi)
FROM m
ORDER BY array_position(ARRAY['iuid', 'flaxid', 'distid', 'base36id'], pair), op;
SQL
	)
	Q_SIZES=$(bench_psql -c "SELECT string_agg(format('%s %s vs %s %s', p, pg_size_pretty(pg_relation_size('q_' || p || '_i')), c, pg_size_pretty(pg_relation_size('q_' || p || '_c'))), '; ') FROM (VALUES ('iuid', 'uuid'), ('flaxid', 'text'), ('distid', 'numeric(28,0)'), ('base36id', 'bigint')) AS v(p, c)")
}

# --- chart --------------------------------------------------------------------

# chart_panel TITLE SESSION_COLUMN FIRST_CLIENT_COLUMN: one histogram of the
# chart, the single session's bar (if SESSION_COLUMN is not empty), then one
# per client count; a client count has the same colour in every panel
chart_panel() {
	local plot= xtic j
	echo "set title '$1'"
	[ -z "$2" ] || plot="'$DAT' using $2:xtic(1) lc 1 title '1 session (one INSERT ... SELECT)'"
	for ((j = 0; j < ${#CLIENTS[@]}; j++)); do
		xtic=; [ -n "$plot" ] || xtic=':xtic(1)'
		plot+="${plot:+, }'$DAT' using $(($3 + j))$xtic lc $((j + 2)) title '${CLIENTS[$j]} clients'"
	done
	echo "plot $plot"
}

# draw_chart: leaf density and throughput per key type and client count
draw_chart() {
	local nc=${#CLIENTS[@]} metric base what
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
set multiplot layout 2,2 title 'idgen: primary-key leaf density and insert throughput, medians of $BENCH_CONC_REPEAT rounds; PostgreSQL ${PG_VERSION%% *}, $(nproc) CPUs; $BENCH_BATCH_ROWS rows in 100-row batches, $BENCH_SINGLE_ROWS single-row inserts'
GP
		for metric in density throughput; do
			if [ $metric = density ]; then
				base=2 what="leaf density"
				echo "set yrange [0:100]"; echo "set ylabel 'avg leaf density (%)'"
			else
				base=$((2 + 1 + 2 * nc)) what=throughput
				echo "set yrange [0:*]"; echo "set ylabel 'thousand rows per second'"
			fi
			chart_panel "$what, 100-row INSERT ... SELECT transactions" "$base" $((base + 1))
			chart_panel "$what, single-row INSERT transactions" "" $((base + 1 + nc))
		done
		echo "unset multiplot"
	} >"$IDGEN_WORK/bench.gp"
	gnuplot "$IDGEN_WORK/bench.gp"
}

# --- report -------------------------------------------------------------------

# the load averages: "before, after; min–max (median) at the N marks in between"
load_line() {
	local n=${#LOADS[@]} mid
	mid=$(printf '%s\n' "${LOADS[@]:1:n-2}" | sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "no marks in between"; exit }
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%s–%s (median %.2f) at the end of each of %d phases in between", v[1], v[NR], m, NR }')
	echo "${LOADS[0]} before, ${LOADS[n-1]} after; $mid"
}

report_header() {
	local title="PostgreSQL $PG_VERSION"
	if [ $ASSERTS = on ]; then title+=", assertion-enabled build"; else title+=", release build"; fi
	echo "## idgen benchmark: $title"
	echo
	if [ $ASSERTS = on ]; then
		echo "**WARNING: this server checks assertions (debug_assertions = on). Its timings are not"
		echo "those of a production server and its ratios are not comparable to a release build's.**"
		echo
	fi
	echo "- Command: \`$BENCH_COMMAND\` (scale $SCALE)"
	echo "- Server: PostgreSQL $PG_VERSION, build \`$PG_BUILD\`; debug_assertions = $ASSERTS"
	echo "- Configure (\`pg_config --configure\`): \`$PG_CONFIGURE\`"
	echo "- Compiler flags (\`pg_config --cflags\`): \`$PG_CFLAGS\`"
	echo "- idgen $IDGEN_VERSION, built with the server's compiler flags"
	echo "- Machine: $(nproc) CPUs, $CPU, $MEM_GIB GiB, Linux $(uname -r), clocksource $CLOCK"
	echo "- Load average (1 minute; the run's own processes count in it): $(load_line)"
	echo "- Settings: $PG_SETTINGS (scratch cluster: fsync off; the rest default)"
	echo "- Run time: $((SECONDS - START)) s; CPU time: $CPU_SERVER s in the server, $CPU_CLIENTS s in this script's processes (build, psql, pgbench)"
	echo
	echo "Medians over interleaved rounds (every contender once per round, in a rotating order),"
	echo "with the spread (lowest–highest). A ratio is taken within each round, then its median and"
	echo "spread; its verdict names a winner only when the whole spread is on one side of 1.0."
	echo "A statement one session runs is timed in the server, by $TIMING"
	echo "where the table says so: on a shared machine that time, unlike the wall clock's, does not"
	echo "include the time the backend waited for a CPU."
	echo
}

report_full() {
	echo "### 1. Cost per id: \`SELECT count(<expr>) FROM generate_series(1, <ids>)\`"
	echo
	echo "Timed in the server; \"net\" subtracts the bare loop's time per row. The first $ngen rows: $BENCH_REPEAT"
	echo "interleaved rounds, each ratio to \`gen_random_uuid()\`'s net time in the same round."
	echo "\`distid_generate()\` sleeps 1 ms per ~$DISTID_PER_MS ids once a session has used its burst of ~$DISTID_BURST"
	echo "(the reference's rate limit), and \`base36id_generate()\` hands out $B36_PER_S ids per second per server,"
	echo "so both are measured apart (against \`gen_random_uuid()\`'s median), within their budget next to a bare"
	echo "loop of the same length, and sustained."
	echo
	echo "| generator | ids per run | runs | median ms | min–max ms | timed by | ns/id net, median | gen_random_uuid() ÷ this, median | spread | verdict |"
	echo "|---|---:|---:|---:|---:|---|---:|---:|---:|---|"
	while IFS='|' read -r key label n runs med range timed ns ratio spread verdict; do
		echo "| $label | $n | $runs | $med | $range | $timed | $ns | $ratio | $spread | $verdict |"
	done <<<"$GEN_ROWS"
	echo
	echo "distid burst runs: the next id afterwards lagged the clock by at least ${BURST_HEADROOM} ms of the 1000 ms"
	if awk "BEGIN { exit !($BURST_HEADROOM >= 50) }"; then
		echo "leeway (no burst run reached the rate limit)."
	else
		echo "leeway (WARNING: some burst runs may include sleeps)."
	fi
	echo "distid sustained: $SUST_RATE ids/ms overall, ≈ $SUST_RATE_AFTER ids/ms beyond the burst (limit: ~$DISTID_PER_MS)."
	echo "base36id sustained: $B36_RATE ids/s after the first second's $B36_PER_S (limit: $B36_PER_S per second per server)."
	echo
	echo "### 2. Bulk insert in one session, then \`pgstatindex()\` on the primary key"
	echo
	echo "\`INSERT INTO t (pad) SELECT g FROM generate_series(1, <rows>) AS g\` into a fresh table \`t (id <pk>, pad int)\`"
	echo "after a checkpoint, $BENCH_INSERT_REPEAT interleaved rounds, timed by the wall clock (the rate-limited generators"
	echo "sleep), with the backend's CPU time beside it; WAL from the insert position before and after (median), index"
	echo "figures from the last round. base36id inserts $BENCH_B36_ROWS rows: it makes $B36_PER_S ids a second, so its"
	echo "throughput is that limit; distid and numeric are bound by distid_generate()'s rate limit in one session."
	echo
	echo "| primary key | rows | median ms | min–max ms | CPU ms, median | rows/s, median | vs bigserial, median | spread | verdict | WAL bytes/row | avg leaf density % | leaf fragmentation % | leaf pages | index MB |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|"
	while IFS='|' read -r ddl n med range cpu rs ratio spread verdict walrow dens frag leaves isize; do
		echo "| \`$ddl\` | $n | $med | $range | $cpu | $rs | $ratio | $spread | $verdict | $walrow | $dens | $frag | $leaves | $isize |"
	done <<<"$INS_ROWS"
	echo
	echo "### 3. Concurrent inserts: \`pgbench -n -M prepared -c N -j N -t ...\`"
	echo
	echo "batch: \`INSERT INTO t (pad) SELECT g FROM generate_series(1, $BATCH) AS g\` per transaction, $BENCH_BATCH_ROWS rows per run;"
	echo "single: \`INSERT INTO t (pad) VALUES (1)\` per transaction, $BENCH_SINGLE_ROWS rows per run. Each run into a fresh table"
	echo "after a checkpoint; rows/s from pgbench's tps (without connection time); $BENCH_CONC_REPEAT interleaved rounds per"
	echo "setting. base36id is left out: its server-wide $B36_PER_S ids/s would be the whole result (and a shared counter"
	echo "appends in order, like a sequence)."
	echo
	echo "| mode | clients | primary key | rows per run | rows/s, median | min–max rows/s | vs bigserial, median | spread | verdict | avg leaf density %, median | leaf fragmentation %, median | index MB | WAL bytes/row |"
	echo "|---|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|"
	while IFS='|' read -r mode c ddl n rs range ratio spread verdict dens frag isize walrow; do
		echo "| $mode | $c | \`$ddl\` | $n | $rs | $range | $ratio | $spread | $verdict | $dens | $frag | $isize | $walrow |"
	done <<<"$CONC_ROWS"
	echo
	local head="| primary key | 1 session, bulk" sep="|---|---:" c
	for c in "${CLIENTS[@]}"; do head+=" | batch, $c clients"; sep+="|---:"; done
	for c in "${CLIENTS[@]}"; do head+=" | single-row, $c clients"; sep+="|---:"; done
	echo "Summary: avg leaf density % (leaf fragmentation %) of the primary key; medians (1 session: the last round)"
	echo
	echo "$head |"; echo "$sep|"
	awk -F'|' -v n=$((1 + 2 * ${#CLIENTS[@]})) '{ printf "| `%s`", $1; for (i = 2; i <= n + 1; i++) printf " | %s", $i; print " |" }' <<<"$SUMMARY_ROWS"
	echo
	echo "Summary: insert throughput (rows/s) as a ratio to bigserial's in the same round, median (spread);"
	echo "≈ marks a spread that crosses 1.0 (no winner)"
	echo
	echo "$head |"; echo "$sep|"
	awk -F'|' -v n=$((1 + 2 * ${#CLIENTS[@]})) '{ printf "| `%s`", $1; for (i = n + 2; i <= 2 * n + 1; i++) printf " | %s", $i; print " |" }' <<<"$SUMMARY_ROWS"
	echo
	echo "![leaf density and insert throughput per key type and client count](bench.svg)"
	echo
}

report_parity() {
	echo "### 4. Parity: the same $BENCH_PARITY_ROWS ids in an idgen type and in the nearest core type"
	echo
	echo "iuid, flaxid and distid ids from their generators, base36id's made up ($B36_PER_S a second from worker 0),"
	echo "in one random order in both tables; collation C. COPY to and from a file on the server, COPY FROM into an"
	echo "empty table without indexes. The in-memory sort runs with work_mem = 1GB (quicksort), the external one with"
	echo "work_mem = ${SPILL_KB}kB (the harness checks that it spills). CREATE INDEX with maintenance_work_mem = 1GB,"
	echo "no parallel workers. The lookup sends $BENCH_LOOKUP_N of the ids as an array in text form and finds them"
	echo "through that index (index scan forced). $BENCH_PARITY_REPEAT rounds, alternating which type goes first; a"
	echo "checkpoint before each. Timed by $TIMING_SHORT time; the last column gives the wall clock's ratio."
	echo "Table sizes: $Q_SIZES."
	echo
	echo "| idgen type vs core type | operation | idgen $TIMING_SHORT ms, median (min–max) | core $TIMING_SHORT ms, median (min–max) | core ÷ idgen, median | spread | verdict | wall clock: core ÷ idgen, median (spread) |"
	echo "|---|---|---:|---:|---:|---:|---|---:|"
	while IFS='|' read -r p op ims cms ratio spread verdict wall; do
		echo "| $p vs ${PAIR_CORE[$p]} | ${P_LABELS[$op]} | $ims | $cms | $ratio | $spread | $verdict | $wall |"
	done <<<"$Q_ROWS"
	echo
	echo "Above 1.0 the idgen type is faster. ≈ marks a wall-clock spread that crosses 1.0."
	echo
}

report() {
	report_header
	[ $FULL_PARTS = 0 ] || report_full
	report_parity
	if [ $PORTABLE = 1 ]; then
		echo "### 5. The SQL edition"
		echo
		echo "idgen_portable's cost per id, measured on this server after part 4 by \`test/bench/portable.sh\`:"
		echo "[portable.md](portable.md)."
		echo
	fi
}

# CPU time of the run: the server's processes (the postmaster with the
# backends it reaped, and those still running), then this script's children
cpu_server() {
	local pm tck
	pm=$(head -n 1 "$PGDATA/postmaster.pid")
	tck=$(getconf CLK_TCK)
	{
		awk '{ print $14 + $15 + $16 + $17 }' "/proc/$pm/stat"
		for c in $(pgrep -P "$pm"); do awk '{ print $14 + $15 }' "/proc/$c/stat" 2>/dev/null || true; done
	} | awk -v t="$tck" '{ s += $1 } END { printf "%.0f", s / t }'
}
# --- the run ------------------------------------------------------------------

if [ $FULL_PARTS = 1 ]; then
	measure_cost
	measure_insert
	measure_concurrent
fi
measure_parity

# --- 5. the SQL edition ------------------------------------------------------
# idgen_portable's cost per id, by its own script (test/bench/portable.sh)
# on this cluster, into its own report portable.md beside this one; not in
# a quick run.
PORTABLE=0
if [ "$SCALE" != quick ] && [ -f "$BENCH_DIR/portable.sh" ]; then
	say "5. the SQL edition (test/bench/portable.sh)"
	IDGEN_BENCH_PSQL=$PG_BIN/psql IDGEN_BENCH_SCALE=$SCALE IDGEN_BENCH_OUT=$IDGEN_BENCH_OUT \
		bash "$BENCH_DIR/portable.sh" >/dev/null
	PORTABLE=1
	load_mark
fi

[ $FULL_PARTS = 0 ] || collect_full
collect_parity
PG_SETTINGS=$(bench_psql -c "SELECT string_agg(name || '=' || current_setting(name), ', ' ORDER BY name) FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'shared_buffers', 'work_mem', 'maintenance_work_mem', 'jit', 'max_parallel_workers_per_gather', 'max_parallel_maintenance_workers', 'wal_level', 'full_page_writes', 'max_wal_size')")
PG_CONFIGURE=$("$PG_CONFIG" --configure | sed "s/^ *//")
PG_CFLAGS=$("$PG_CONFIG" --cflags)

CPU_SERVER=$(cpu_server)
idgen_cluster_stop
load_mark
times >"$IDGEN_WORK/times"	# (in this shell: a subshell's children are not its own)
CPU_CLIENTS=$(tail -n 1 "$IDGEN_WORK/times" | awk '{ split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.0f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }')
CPU=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
MEM_GIB=$(awk '/^MemTotal:/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)
CLOCK=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown)

[ $FULL_PARTS = 0 ] || [ -z "$CHART" ] || draw_chart
if [ -n "$REPORT" ]; then
	report | tee "$REPORT"
	say "wrote $REPORT${CHART:+ and $CHART}"
else
	report
fi
