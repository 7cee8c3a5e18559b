#!/usr/bin/env bash
# Leaf density of a primary key per stream: concurrent writers of iuid keep
# real-time order only within one (country, entity) stream, so a table
# written at once for K countries has K insertion points per millisecond.
# Measured next to one stream, bigserial, gen_random_uuid() and a table
# partitioned by country; and for distid_generate() (the reference
# algorithm), distid_generate_dense() and distid128_generate(), and with
# idgen.sub_millisecond_clock = off.  doc/generation.md quotes a run.
#
#   bash test/bench/streams.sh                    4 clients, 3 rounds
#   CLIENTS=8 ROUNDS=1 BATCH_TX=600 SINGLE_TX=16000 bash test/bench/streams.sh
#
# Nothing here asserts: test/t/009_density.pl holds the one-stream keys to
# their bound.
#
# Two modes: 100-row transactions (BATCH_TX of them in all) and single-row
# transactions (SINGLE_TX).  pgbench's :client_id gives each writer its own
# country; ":c" is a country drawn per transaction from 0..15.  Prints the
# median (and range) over the rounds of pgstatindex()'s avg_leaf_density and
# leaf_fragmentation.  The server is the one tools/lib.sh selects
# (IDGEN_PG_VERSION), with fsync off.
source "$(dirname "$0")/../../tools/lib.sh"

CLIENTS=${CLIENTS:-4}
ROUNDS=${ROUNDS:-3}
BATCH_TX=${BATCH_TX:-600}
SINGLE_TX=${SINGLE_TX:-16000}
# name | column type | id expression (g: row of the batch, 1..100; with
# "by country" the table is partitioned by a country column set to :c) |
# a statement run before each transaction
KEYS=("bigserial|bigserial|nextval('t_id_seq')"
	"gen_random_uuid()|uuid|gen_random_uuid()"
	"iuid, one stream: iuid_generate(1, 1)|iuid|iuid_generate(1, 1)"
	"iuid, one stream, idgen.sub_millisecond_clock = off|iuid|iuid_generate(1, 1)|SET idgen.sub_millisecond_clock = off;"
	"iuid, a country per writer: iuid_generate(:client_id, 1)|iuid|iuid_generate(:client_id, 1)"
	"iuid, 16 countries per transaction: iuid_generate(:c, 1)|iuid|iuid_generate(:c, 1)"
	"iuid, 16 countries per row: iuid_generate(g % 16, 1)|iuid|iuid_generate(g % 16, 1)"
	"iuid, 16 countries per transaction, table partitioned by country|iuid by country|iuid_generate(:c, 1)"
	"distid_generate() (reference)|distid|distid_generate()"
	"distid_generate_dense()|distid|distid_generate_dense()"
	"distid128_generate()|uuid|distid128_generate()"
	"distid128_generate(), idgen.sub_millisecond_clock = off (the reference)|uuid|distid128_generate()|SET idgen.sub_millisecond_clock = off;")

idgen_deps
idgen_workdir
idgen_build
idgen_install
idgen_cluster_start "max_connections = 50" "jit = off"
idgen_psql -c "CREATE EXTENSION idgen" -c "CREATE EXTENSION pgstattuple"

# mode TRANSACTIONS ROWS_PER_TX: one line per key type and round
measure() {
	local mode=$1 tx=$2 rows=$3 script=$IDGEN_WORK/streams.sql round k name type expr before cols vals ddl
	for round in $(seq 1 "$ROUNDS"); do
		for k in "${KEYS[@]}"; do
			IFS='|' read -r name type expr before <<<"$k"
			[ "$rows" = 1 ] && expr=${expr//g % 16/:c}
			if [ "$type" = "iuid by country" ]; then
				cols="id, country, pad" vals="$expr, :c, g"
				ddl="CREATE TABLE t (id iuid, country int, pad int, PRIMARY KEY (id, country))
					PARTITION BY LIST (country);
					SELECT format('CREATE TABLE t_%s PARTITION OF t FOR VALUES IN (%s)', c, c)
					FROM generate_series(0, 15) c \\gexec"
			else
				cols="id, pad" vals="$expr, g"
				ddl="CREATE TABLE t (id $type PRIMARY KEY, pad int)"
			fi
			{
				echo '\set c random(0, 15)'
				[ -z "$before" ] || echo "$before"
				echo "INSERT INTO t ($cols) SELECT $vals FROM generate_series(1, $rows) g;"
			} >"$script"
			idgen_psql -c "DROP TABLE IF EXISTS t" 2>/dev/null
			echo "$ddl" | idgen_psql >/dev/null
			idgen_psql -c "CHECKPOINT"
			"$PG_BIN/pgbench" -n -f "$script" -c "$CLIENTS" -j "$CLIENTS" -t $((tx / CLIENTS)) \
				>"$IDGEN_WORK/pgbench.log" 2>&1 || { cat "$IDGEN_WORK/pgbench.log" >&2; return 1; }
			# over the partitions too: weighted by leaf pages
			idgen_psql -At -F ' ' -c "
				SELECT sum(s.avg_leaf_density * s.leaf_pages) / sum(s.leaf_pages),
					sum(s.leaf_fragmentation * s.leaf_pages) / sum(s.leaf_pages)
				FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid,
					pgstatindex(i.indexrelid::regclass) s
				WHERE i.indisprimary AND c.relkind = 'i'
					AND i.indrelid IN (SELECT 't'::regclass UNION ALL
						SELECT inhrelid FROM pg_inherits WHERE inhparent = 't'::regclass)" |
				sed "s/^/$mode|$name|/" >>"$IDGEN_WORK/densities"
		done
	done
}

measure "100-row" "$BATCH_TX" 100
measure "single-row" "$SINGLE_TX" 1
idgen_cluster_stop

echo "| primary key | $CLIENTS clients, 100-row transactions: leaf density % (fragmentation %) | $CLIENTS clients, single rows |"
echo "|---|---|---|"
for k in "${KEYS[@]}"; do
	name=${k%%|*}
	printf '| `%s` ' "$name"
	for mode in 100-row single-row; do
		grep -F "$mode|$name|" "$IDGEN_WORK/densities" | cut -d'|' -f3 | sort -n | awk '
			{ d[NR] = $1; f[NR] = $2 }
			END { m = int((NR + 1) / 2)
				  printf "| %.1f (%.1f) [%.1f–%.1f] ", d[m], f[m], d[1], d[NR] }'
	done
	echo "|"
done
echo "(median [min–max] of $ROUNDS rounds; $((BATCH_TX * 100)) rows in 100-row transactions, $SINGLE_TX single-row; $(nproc) CPUs, PostgreSQL $PG_MAJOR, fsync off)"
