#!/usr/bin/env bash
# base36id with a synchronous standby behind a network delay:
#
#  1. how long a call takes that reserves a new second (one per second),
#     at the floor (on) and at a session's remote_apply, beside a commit;
#  2. the ids pgbench clients get in a run at synchronous_commit = on,
#     alone and while one session at remote_apply waits for a standby whose
#     replay is paused.
#
#   bash test/bench/syncwait.sh [REV...]     (default: the working tree)
#   DELAY_MS=15 CLIENTS=4 RUN_S=10 RESERVATIONS=10 bash test/bench/syncwait.sh
#
# Each REV is built from `git archive REV`.  The standby reaches its
# primary through a proxy on loopback (delay_proxy.py) that holds every
# chunk DELAY_MS in each direction (a round trip of twice that), in order:
# the kernel here has no netem, and a proxy delays this standby's traffic
# alone.  Timings on a shared machine are noisy: read them beside the
# commit's, from the same run.
source "$(dirname "$0")/../../tools/lib.sh"

DELAY_MS=${DELAY_MS:-15}
CLIENTS=${CLIENTS:-4}
RUN_S=${RUN_S:-10}
RESERVATIONS=${RESERVATIONS:-10}

idgen_deps
idgen_workdir
idgen_pg_select "$IDGEN_PG_VERSION"

free_port() { /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
PPORT=$(free_port)
XPORT=$(free_port)
SPORT=$(free_port)
/usr/bin/python3 "$IDGEN_ROOT/test/bench/delay_proxy.py" "$XPORT" 127.0.0.1 "$PPORT" "$DELAY_MS" &
PROXY=$!
# the servers a failed run leaves, then the proxy, then the scratch space
stop_servers() {
	local d
	for d in "$IDGEN_WORK/standby" "$IDGEN_WORK/primary"; do
		[ -f "$d/postmaster.pid" ] && as_server "$PG_BIN/pg_ctl" -D "$d" -m immediate -w stop >/dev/null 2>&1
	done
	return 0
}
trap 'stop_servers; kill "$PROXY" 2>/dev/null; idgen_cleanup' EXIT

sql() { "$PG_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$IDGEN_WORK/sock" -U postgres "$@"; }

# start_pair: a primary and its synchronous standby, behind the proxy, for
# the idgen installed in $PG_BIN
start_pair() {
	local p=$IDGEN_WORK/primary s=$IDGEN_WORK/standby
	as_server mkdir -p "$IDGEN_WORK/sock"
	as_server "$PG_BIN/initdb" -D "$p" -U postgres -A trust --no-sync >/dev/null
	{
		echo "shared_preload_libraries = 'idgen'"
		echo "idgen.worker_id = 1"
		echo "listen_addresses = '127.0.0.1'"
		echo "port = $PPORT"
		echo "unix_socket_directories = '$IDGEN_WORK/sock'"
		echo "max_connections = 50"
	} | as_server tee -a "$p/postgresql.conf" >/dev/null
	as_server "$PG_BIN/pg_ctl" -D "$p" -l "$IDGEN_WORK/primary.log" -w start >/dev/null
	PGPORT=$PPORT sql -c "CREATE EXTENSION idgen; CREATE TABLE c (x int)"
	as_server "$PG_BIN/pg_basebackup" -h "$IDGEN_WORK/sock" -p "$PPORT" -U postgres -D "$s" --no-sync
	as_server touch "$s/standby.signal"
	printf "port = %s\nlisten_addresses = ''\nprimary_conninfo = 'host=127.0.0.1 port=%s user=postgres application_name=standby'\n" \
		"$SPORT" "$XPORT" | as_server tee -a "$s/postgresql.conf" >/dev/null
	as_server "$PG_BIN/pg_ctl" -D "$s" -l "$IDGEN_WORK/standby.log" -w start >/dev/null
	PGPORT=$PPORT sql -c "ALTER SYSTEM SET synchronous_standby_names = '*'" -c "SELECT pg_reload_conf()" >/dev/null
	until [ "$(PGPORT=$PPORT sql -c "SELECT sync_state FROM pg_stat_replication")" = sync ]; do sleep 0.2; done
}

stop_pair() {
	stop_servers
	as_server rm -rf "$IDGEN_WORK/primary" "$IDGEN_WORK/standby"
}

# reserve_ms LEVEL: median, min and max milliseconds of RESERVATIONS calls,
# each the first of a new second, in a session at synchronous_commit LEVEL
reserve_ms() {
	PGPORT=$PPORT sql <<SQL
SET synchronous_commit = $1;
CREATE TEMP TABLE t (ms float8);
DO \$\$
DECLARE
	t0 timestamptz;
BEGIN
	FOR i IN 1 .. $RESERVATIONS LOOP
		PERFORM pg_sleep(1.02 - extract(epoch FROM clock_timestamp())::numeric % 1);
		t0 := clock_timestamp();
		PERFORM base36id_generate();
		INSERT INTO t VALUES (extract(epoch FROM clock_timestamp() - t0) * 1000);
	END LOOP;
END \$\$;
SELECT format('%s (%s to %s)', round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1),
	round(min(ms)::numeric, 1), round(max(ms)::numeric, 1)) FROM t;
SQL
}

# commit_ms: the same for a commit of one row at synchronous_commit = on
commit_ms() {
	local i ms=()
	for i in $(seq "$RESERVATIONS"); do
		ms+=("$(PGPORT=$PPORT sql -c '\timing on' -c 'INSERT INTO c VALUES (1)' | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')")
	done
	printf '%s\n' "${ms[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f (%.1f to %.1f)\n", a[int((NR+1)/2)], a[1], a[NR]}'
}

# ids_in_run: the ids CLIENTS pgbench clients get in RUN_S seconds;
# a call still waiting then is cancelled (statement_timeout), its client
# stops, and only the ids returned count
ids_in_run() {
	echo 'SELECT base36id_generate();' >"$IDGEN_WORK/gen.sql"
	# pgbench exits 2 when a client stopped on an error
	{ PGOPTIONS="-c statement_timeout=${RUN_S}s" PGPORT=$PPORT PGHOST=$IDGEN_WORK/sock PGUSER=postgres \
		"$PG_BIN/pgbench" -n -c "$CLIENTS" -j "$CLIENTS" -T "$RUN_S" -f "$IDGEN_WORK/gen.sql" postgres 2>/dev/null ||
		true; } |
		sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' |
		head -n 1
}

# bench REV: one row of each table for idgen at REV (or the working tree)
bench() {
	local name=$1 d=$IDGEN_WORK/$1 slow
	idgen_install_rev "$1" "$d"
	start_pair
	LAT+=("| $name | $(commit_ms) | $(reserve_ms on) | $(reserve_ms remote_apply) |")
	alone=$(ids_in_run)
	PGPORT=$SPORT sql -c 'SELECT pg_wal_replay_pause()' >/dev/null
	# the slow session: remote_apply, asking for ids until cancelled
	PGPORT=$PPORT sql -c "SET synchronous_commit = remote_apply" \
		-c "SELECT count(base36id_generate()) FROM generate_series(1, 100000000)" >/dev/null 2>&1 &
	slow=$!
	sleep 2
	with_slow=$(ids_in_run)
	PGPORT=$PPORT sql -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE '%generate_series(1, 100000000)%' AND pid <> pg_backend_pid()" >/dev/null
	wait "$slow" || true
	PGPORT=$SPORT sql -c 'SELECT pg_wal_replay_resume()' >/dev/null
	TPS+=("| $name | $alone | $with_slow |")
	stop_pair
}

LAT=()
TPS=()
[ $# -gt 0 ] || set -- tree
for rev in "$@"; do bench "$rev"; done

echo
echo "PostgreSQL $("$PG_CONFIG" --version | sed 's/^PostgreSQL //'), standby behind a proxy delaying ${DELAY_MS} ms each way (round trip $((2 * DELAY_MS)) ms), $RESERVATIONS calls each: median (min to max) ms"
echo
echo "| idgen | commit at on | new second at on (the floor) | new second at remote_apply |"
echo "|---|---:|---:|---:|"
printf '%s\n' "${LAT[@]}"
echo
echo "ids $CLIENTS pgbench clients got at on in a $RUN_S s run (base36id's limit: 1296 in each clock second; a run touches $((RUN_S + 1)) of them, at most $((1296 * (RUN_S + 1))) ids)"
echo
echo "| idgen | alone | one session at remote_apply, replay paused |"
echo "|---|---:|---:|"
printf '%s\n' "${TPS[@]}"
