#!/usr/bin/env bash
# Catch-up cost of base36id's WAL records: a standby replays N generating
# seconds (one reservation record each), with fsync = on, against the same
# number of records of about the same size without idgen
# (pg_logical_emit_message, non-transactional).
#
#   bash test/bench/catchup.sh                 100000 seconds
#   SECONDS_N=20000 bash test/bench/catchup.sh
#
# Each run starts from a copy of one cleanly stopped cluster: a primary
# writes the records and stops; its WAL goes into the pg_wal of another copy,
# started as a standby (standby.signal, no primary_conninfo).  The figure is
# the time from that start until the standby has replayed up to the
# primary's last LSN (polled every 10 ms).
#
# To make N seconds quickly, the primary generates under libfaketime with
# its clock 30 days behind and running 100000 times fast; the standby runs
# with the true clock, as one catching up on old WAL, or a point-in-time
# recovery, does.
source "$(dirname "$0")/../../tools/lib.sh"

N=${SECONDS_N:-100000}

idgen_deps
idgen_workdir
idgen_pg_select "$IDGEN_PG_VERSION"
idgen_build
idgen_install
idgen_cluster_start "idgen.worker_id = 0" "autovacuum = off" "max_wal_size = 10GB" \
	"checkpoint_timeout = 1d" "hot_standby = on"
idgen_psql -c "CREATE EXTENSION idgen"
idgen_cluster_stop
CLEAN=$IDGEN_WORK/clean
as_server mv "$PGDATA" "$CLEAN"

ctl() { as_server "$PG_BIN/pg_ctl" "$@"; }

# run LABEL SQL [env...]: the primary runs SQL (with env, e.g. libfaketime);
# a standby replays its WAL; prints a table row
run() {
	local label=$1 sql=$2 lsn t0 t1 done
	shift 2
	PGDATA=$IDGEN_WORK/primary
	as_server cp -a "$CLEAN" "$PGDATA"
	# not -w: pg_ctl would time its wait with the fast clock
	as_server env "$@" "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$IDGEN_WORK/primary.log" -W start >/dev/null
	until idgen_psql -c "SELECT 1" >/dev/null 2>&1; do sleep 0.1; done
	idgen_psql -c "$sql" >/dev/null
	lsn=$(idgen_psql -Atc "SELECT pg_current_wal_insert_lsn()")
	ctl -D "$PGDATA" -m fast -w stop >/dev/null

	PGDATA=$IDGEN_WORK/standby
	as_server cp -a "$CLEAN" "$PGDATA"
	as_server cp -f "$IDGEN_WORK"/primary/pg_wal/0* "$PGDATA/pg_wal/"
	as_server touch "$PGDATA/standby.signal"
	echo "fsync = on" | as_server tee -a "$PGDATA/postgresql.conf" >/dev/null
	t0=$(date +%s.%N)
	# not -w: a slow replay may take longer than pg_ctl waits
	ctl -D "$PGDATA" -l "$IDGEN_WORK/standby.log" -W start >/dev/null
	until [ "$(idgen_psql -Atc "SELECT pg_last_wal_replay_lsn() >= '$lsn'" 2>/dev/null)" = t ]; do
		sleep 0.01
	done
	t1=$(date +%s.%N)
	done=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	printf '| %s | %s | %s |\n' "$label" "$N" "$done"
	ctl -D "$PGDATA" -m fast -w stop >/dev/null
	as_server rm -rf "$IDGEN_WORK/primary" "$IDGEN_WORK/standby"
}

echo "| WAL replayed | records | standby caught up after (s) |"
echo "|---|---|---|"
# until N new seconds, each one reservation record (ids increase)
run "base36id reservations" "DO \$\$
	DECLARE
		last timestamptz;
		s timestamptz;
		n int := 0;
	BEGIN
		WHILE n < $N LOOP
			s := base36id_timestamp(base36id_generate());
			IF s IS DISTINCT FROM last THEN
				n := n + 1;
				last := s;
			END IF;
		END LOOP;
	END \$\$" LD_PRELOAD="$(ls /usr/lib/*/faketime/libfaketime.so.1 | head -n 1)" \
	FAKETIME="-30d x100000" FAKETIME_DONT_FAKE_MONOTONIC=1
run "logical messages, no idgen" \
	"SELECT count(pg_logical_emit_message(false, 'b36', '12345678')) FROM generate_series(1, $N)"
PGDATA=
