#!/usr/bin/env bash
# base36id's budget (1296 ids a second per worker) shared by sessions that
# drain it and a victim that asks for one id at a time: how long the
# victim's calls take beside 2 and 3 draining sessions.
#
#   bash test/bench/fairness.sh [REV...]     (default: the working tree)
#   DRAINERS="2 3" RUN_S=20 bash test/bench/fairness.sh 63d8127 HEAD
#
# Each REV is built from `git archive REV`.  The drainers are pgbench
# clients asking for ids one after another (one id per transaction); the
# victim, started a second after them, asks for one id, then the next, for
# RUN_S - 2 seconds, and times each call (clock_timestamp() around it).
# Per run: the victim's ids, its median and longest call, and the drainers'
# ids per second.  Timings on a shared machine are noisy; nothing here
# asserts one.
source "$(dirname "$0")/../../tools/lib.sh"

DRAINERS=${DRAINERS:-2 3}
RUN_S=${RUN_S:-20}

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

# victim N: "ids | median ms | longest ms | drainer ids/s" beside N drainers
victim() {
	local n=$1 drainer out
	echo 'SELECT base36id_generate();' >"$IDGEN_WORK/drain.sql"
	PGHOST=$IDGEN_WORK/sock PGUSER=postgres PGOPTIONS="-c statement_timeout=$((RUN_S + 5))s" \
		"$PG_BIN/pgbench" -n -c "$n" -j "$n" -T "$RUN_S" -f "$IDGEN_WORK/drain.sql" postgres \
		>"$IDGEN_WORK/pgbench.out" 2>&1 &
	drainer=$!
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
	END LOOP;
END \$\$;
SELECT format('%s | %s | %s', count(*), round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1),
	round(max(ms)::numeric, 1)) FROM t;
SQL
	)
	wait "$drainer" || true
	echo "$out | $(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$IDGEN_WORK/pgbench.out" |
		awk -v s="$RUN_S" '{printf "%.0f", $1 / s}')"
}

# bench REV: the rows of idgen at REV (or the working tree)
ROWS=()
bench() {
	local d=$IDGEN_WORK/$1 n
	mkdir -p "$d/build"
	if [ "$1" = tree ]; then
		idgen_copy_tree "$d/build"
	else
		git -C "$IDGEN_ROOT" archive "$1" | tar -C "$d/build" -xf -
	fi
	make -s -C "$d/build" PG_CONFIG="$PG_CONFIG" >"$d/build.log" 2>&1
	IDGEN_BUILD=$d/build
	idgen_install
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
echo "PostgreSQL $("$PG_CONFIG" --version | sed 's/^PostgreSQL //'), one worker (1296 ids a second), drainers for $RUN_S s, the victim for $((RUN_S - 2)) s of them; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| idgen | drainers | victim's ids | victim's median call (ms) | victim's longest call (ms) | drainers' ids/s |"
echo "|---|---:|---:|---:|---:|---:|"
printf '%s\n' "${ROWS[@]}"
