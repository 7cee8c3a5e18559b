#!/usr/bin/env bash
# Insert throughput of concurrent clients, repeated: one table per key type,
# rebuilt before every run, the key types interleaved round by round so that
# a busy moment of the machine does not fall on one of them only; the median
# of the rounds, as a ratio to bigserial's.
#
#   bash test/bench/throughput.sh                 4 clients, 5 rounds
#   CLIENTS=8 ROUNDS=7 bash test/bench/throughput.sh
#
# Two modes: 100-row transactions (BATCH_TX of them in all) and single-row
# transactions (SINGLE_TX).  The server is the one tools/lib.sh selects
# (IDGEN_PG_VERSION), with fsync off.
source "$(dirname "$0")/../../tools/lib.sh"

CLIENTS=${CLIENTS:-4}
ROUNDS=${ROUNDS:-5}
BATCH_TX=${BATCH_TX:-5000}
SINGLE_TX=${SINGLE_TX:-40000}
KEYS=("bigserial|bigserial"
	"iuid|iuid DEFAULT iuid_generate(1, 1)"
	"flaxid|flaxid DEFAULT flaxid_generate()"
	"distid128|uuid DEFAULT distid128_generate()"
	"gen_random_uuid|uuid DEFAULT gen_random_uuid()")

idgen_deps
idgen_workdir
idgen_build
idgen_install
idgen_cluster_start "max_connections = 50" "jit = off"
idgen_psql -c "CREATE EXTENSION idgen"

# mode SQL TRANSACTIONS: prints one markdown row per key type
measure() {
	local mode=$1 sql=$2 tx=$3 script=$IDGEN_WORK/$1.sql round k name def tps
	declare -A runs=()
	echo "$sql" >"$script"
	for round in $(seq 1 "$ROUNDS"); do
		for k in "${KEYS[@]}"; do
			name=${k%%|*}
			def=${k#*|}
			idgen_psql -c "DROP TABLE IF EXISTS t" -c "CREATE TABLE t (id $def PRIMARY KEY, pad int)" \
				-c "CHECKPOINT" 2>/dev/null
			tps=$("$PG_BIN/pgbench" -n -M prepared -f "$script" -c "$CLIENTS" -j "$CLIENTS" \
				-t $((tx / CLIENTS)) 2>&1 | sed -n 's/^tps = \([0-9.]*\) .*/\1/p')
			runs[$name]="${runs[$name]:-} ${tps:?pgbench failed}"
		done
	done
	for k in "${KEYS[@]}"; do
		name=${k%%|*}
		printf '%s\n' ${runs[$name]} | sort -n | awk -v n="$name" -v mode="$mode" '
			{ v[NR] = $1 }
			END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
				  printf "%s %s %.0f %.0f %.0f\n", mode, n, m, v[1], v[NR] }' >>"$IDGEN_WORK/medians"
	done
}

measure "100-row" "INSERT INTO t (pad) SELECT g FROM generate_series(1, 100) g;" "$BATCH_TX"
measure "single-row" "INSERT INTO t (pad) VALUES (1);" "$SINGLE_TX"
idgen_cluster_stop

echo "| transactions | primary key | median tx/s | min–max tx/s | vs bigserial (medians) |"
echo "|---|---|---:|---:|---:|"
awk '$2 == "bigserial" { base[$1] = $3 } { row[NR] = $0 }
	END { for (i = 1; i <= NR; i++) { split(row[i], f, " ")
		printf "| %s, %d clients | %s | %d | %d–%d | %.2f× |\n", f[1], clients, f[2], f[3], f[4], f[5], f[3] / base[f[1]] } }' \
	clients="$CLIENTS" "$IDGEN_WORK/medians"
echo "($ROUNDS interleaved rounds; $(nproc) CPUs, PostgreSQL $PG_MAJOR, fsync off)"
