#!/usr/bin/env bash
# base36id's budget (1296 ids a second per worker) shared by sessions that
# drain it and a victim that asks for one id now and then: how long the
# victim's calls take beside 2 and 3 draining sessions.
#
#   bash test/bench/fairness.sh [REV...]     (default: the working tree)
#   DRAINERS="2 3" RUN_S=20 PAUSE_MS=20 bash test/bench/fairness.sh 63d8127 HEAD
#
# Each REV is built from `git archive REV`.  A drainer is one statement
# asking for ids as fast as the server hands them out, for RUN_S seconds (a
# PL/pgSQL loop); the victim, started a second after
# them, asks for one id, pauses PAUSE_MS, asks for the next, for RUN_S - 2
# seconds, and times each call (clock_timestamp() around it).  Per run: the
# victim's ids, its median and longest call, and the drainers' ids per
# second, all together.  Timings on a shared machine are
# noisy; nothing here asserts one.
source "$(dirname "$0")/../../tools/lib.sh"

DRAINERS=${DRAINERS:-2 3}
RUN_S=${RUN_S:-20}
PAUSE_MS=${PAUSE_MS:-20}

idgen_deps
idgen_workdir
idgen_pg_select "$IDGEN_PG_VERSION"

stop_server() {
	[ -f "$IDGEN_WORK/data/postmaster.pid" ] &&
		as_server "$PG_BIN/pg_ctl" -D "$IDGEN_WORK/data" -m immediate -w stop >/dev/null 2>&1
	return 0
}
trap 'stop_server; idgen_cleanup' EXIT

sql() { "$PG_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$IDGEN_WORK/sock" -U postgres "$@"; }

start_server() {
	local d=$IDGEN_WORK/data
	as_server mkdir -p "$IDGEN_WORK/sock"
	as_server "$PG_BIN/initdb" -D "$d" -U postgres -A trust --no-sync >/dev/null
	{
		echo "shared_preload_libraries = 'idgen'"
		echo "idgen.worker_id = 1"
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$IDGEN_WORK/sock'"
	} | as_server tee -a "$d/postgresql.conf" >/dev/null
	as_server "$PG_BIN/pg_ctl" -D "$d" -l "$IDGEN_WORK/server.log" -w start >/dev/null
	sql -c "CREATE EXTENSION idgen"
}

# victim N: "ids | median ms | longest ms | drainers' ids/s" beside N drainers
victim() {
	local n=$1 i out pids=()
	for i in $(seq "$n"); do
		sql 2>"$IDGEN_WORK/drain.$i" <<SQL &
DO \$\$
DECLARE
	n bigint := 0;
	stop timestamptz := clock_timestamp() + interval '$RUN_S seconds';
BEGIN
	WHILE clock_timestamp() < stop LOOP
		PERFORM base36id_generate();
		n := n + 1;
	END LOOP;
	RAISE NOTICE 'drained %', n;
END \$\$;
SQL
		pids+=($!)
	done
	sleep 1
	out=$(sql <<SQL
CREATE TEMP TABLE t (ms float8);
DO \$\$
DECLARE
	t0 timestamptz;
	stop timestamptz := clock_timestamp() + interval '$((RUN_S - 2)) seconds';
BEGIN
	WHILE clock_timestamp() < stop LOOP
		t0 := clock_timestamp();
		PERFORM base36id_generate();
		INSERT INTO t VALUES (extract(epoch FROM clock_timestamp() - t0) * 1000);
		PERFORM pg_sleep($PAUSE_MS / 1000.0);
	END LOOP;
END \$\$;
SELECT format('%s | %s | %s', count(*), round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1),
	round(max(ms)::numeric, 1)) FROM t;
SQL
	)
	wait "${pids[@]}" || true
	echo "$out | $(cat "$IDGEN_WORK"/drain.* | sed -n 's/.*drained \([0-9]*\).*/\1/p' |
		awk -v s="$RUN_S" '{t += $1} END {printf "%.0f", t / s}')"
	rm -f "$IDGEN_WORK"/drain.*
}

# bench REV: the rows of idgen at REV (or the working tree)
ROWS=()
bench() {
	local d=$IDGEN_WORK/$1 n
	idgen_install_rev "$1" "$d"
	start_server
	for n in $DRAINERS; do
		ROWS+=("| $1 | $n | $(victim "$n") |")
	done
	stop_server
	as_server rm -rf "$IDGEN_WORK/data"
}

[ $# -gt 0 ] || set -- tree
for rev in "$@"; do bench "$rev"; done

echo
echo "PostgreSQL $("$PG_CONFIG" --version | sed 's/^PostgreSQL //'), one worker (1296 ids a second), drainers for $RUN_S s, the victim for $((RUN_S - 2)) s of them with a pause of $PAUSE_MS ms after each id; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| idgen | drainers | victim's ids | victim's median call (ms) | victim's longest call (ms) | drainers' ids/s |"
echo "|---|---:|---:|---:|---:|---:|"
printf '%s\n' "${ROWS[@]}"
