# test/pgcron/run.sh — sourced by tools/test.sh after tools/lib.sh and
# test/ops/common.sh: partition upkeep scheduled with pg_cron.
#
# A cluster with shared_preload_libraries = 'idgen,pg_cron' and pg_cron's
# background workers; a table partitioned by day on an iuid, with partitions
# for the last five days; one job, every minute, that creates the partitions
# of today and the next two days and retires those that ended more than two
# days ago.  The job must run (pg_cron's scheduler starts it at the next
# minute: the suite waits up to IDGEN_PGCRON_WAIT seconds, 100 by default)
# and succeed in cron.job_run_details, and leave exactly the partitions it
# should.  Then Debian's pg_partman is shown to refuse id columns, as
# doc/partitioning.md says.  Debian packages pg_cron and pg_partman for
# PostgreSQL 15 only (postgresql-15-cron, postgresql-15-partman): on other
# majors the suite is skipped.

pgcron_sql() {
	"$PG_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 "$@"
}

run_pgcron() {
	local log=$IDGEN_WORK/pgcron.log rc=0
	if [ ! -f "$("$PG_BIN/pg_config" --pkglibdir)/pg_cron.so" ]; then
		skip "${SUITE_PREFIX}pgcron" 1 "no pg_cron for PostgreSQL $PG_LABEL (Debian packages it for 15 only: postgresql-15-cron)"
		return 0
	fi
	OPS_PASS=0 OPS_FAIL=0
	pgcron_checks >"$log" 2>&1 || rc=$?
	ops_record pgcron "$log" "$rc"
}

pgcron_checks() {
	# a cluster of its own, beside the regress suite's
	local IDGEN_WORK=$IDGEN_WORK/pgcron wait=${IDGEN_PGCRON_WAIT:-100} job t0 status got want t off
	# the checks read the day (UTC) more than once, the job runs at a
	# minute's turn: the server's clock (libfaketime, running) is set to noon
	# UTC of today, twelve hours from a midnight whenever the suite runs
	off=$(($(date -u -d 'today 12:00' +%s) - $(date +%s)))
	[ "$off" -lt 0 ] || off=+$off
	# shellcheck disable=SC2207
	local IDGEN_SERVER_ENV=($(faketime_env "$off"))
	mkdir -p "$IDGEN_WORK"
	[ "$(id -u)" -eq 0 ] && chown "$SERVER_USER" "$IDGEN_WORK"
	{
		idgen_cluster_start "shared_preload_libraries = 'idgen,pg_cron'" \
			"cron.database_name = 'postgres'" "cron.use_background_workers = on" \
			"max_worker_processes = 16" "idgen.worker_id = 1" "TimeZone = 'UTC'" || return 1
		pgcron_sql <<'SQL'
CREATE EXTENSION idgen;
CREATE EXTENSION pg_cron;
CREATE TABLE events (id iuid PRIMARY KEY DEFAULT iuid_generate(1, 1), body text)
PARTITION BY RANGE (id);
SELECT count(*) FROM idgen_create_partitions('events', date_trunc('day', now(), 'UTC') - interval '5 days',
                                             date_trunc('day', now(), 'UTC'), interval '1 day');
INSERT INTO events (id, body)
SELECT iuid_generate(1, 1, date_trunc('day', now(), 'UTC') - g * interval '1 day' + interval '1 hour'), 'old'
FROM generate_series(1, 5) g;
SQL
		job=$(pgcron_sql -c "SELECT cron.schedule('events-partitions', '* * * * *', \$\$
    SELECT count(*) FROM idgen_create_partitions('public.events', date_trunc('day', now(), 'UTC'),
                                                 date_trunc('day', now(), 'UTC') + interval '3 days', interval '1 day');
    SELECT count(*) FROM idgen_retire_partitions('public.events', now() - interval '2 days');
\$\$)")
		check "the job is scheduled" [ -n "$job" ]
		check "the server's clock is at noon UTC (libfaketime)" \
			eq "$(pgcron_sql -c "SELECT extract(hour FROM now() AT TIME ZONE 'UTC')")" 12
		t0=$(date +%s)
		status=
		while [ $(($(date +%s) - t0)) -lt "$wait" ]; do
			status=$(pgcron_sql -c "SELECT status FROM cron.job_run_details WHERE jobid = $job
			                        AND status IN ('succeeded', 'failed') ORDER BY runid LIMIT 1")
			[ -n "$status" ] && break
			sleep 2
		done
		echo "# pg_cron ran the job after $(($(date +%s) - t0)) s: ${status:-not run}"
		check "pg_cron's worker ran the job within $wait s" [ -n "$status" ]
		check "the run succeeded" eq "$status" succeeded
		pgcron_sql -c "SELECT status, return_message FROM cron.job_run_details WHERE jobid = $job ORDER BY runid" | sed 's/^/# /'
		# today and the next two days are there; of the old days, those that
		# ended more than two days ago are detached, the others stay
		got=$(pgcron_sql -c "SELECT string_agg(to_char(from_time, 'YYYY-MM-DD'), ' ' ORDER BY from_time)
		                     FROM idgen_partitions('events')")
		want=$(pgcron_sql -c "SELECT string_agg(to_char(d, 'YYYY-MM-DD'), ' ' ORDER BY d)
		                      FROM generate_series(date_trunc('day', now(), 'UTC') - interval '5 days',
		                                           date_trunc('day', now(), 'UTC') + interval '2 days', interval '1 day') d
		                      WHERE d + interval '1 day' > now() - interval '2 days'")
		check "the partitions are today and the next two days, and the last two days" eq "$got" "$want"
		got=$(pgcron_sql -c "SELECT count(*) FROM pg_class c WHERE c.relname LIKE 'events\_%' AND c.relkind = 'r'
		                     AND NOT c.relispartition")
		check "three partitions are detached, five attached" \
			eq "$got/$(pgcron_sql -c "SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass")" "3/5"
		check "the table keeps the rows of the last two days" eq "$(pgcron_sql -c "SELECT count(*) FROM events")" 2
		pgcron_sql -c "SELECT cron.unschedule($job)" >/dev/null
		# what doc/partitioning.md says of Debian's pg_partman (4.7.2): it
		# refuses a uuid control column (DistributedId128s) as an iuid one
		pgcron_sql -c "CREATE SCHEMA partman; CREATE EXTENSION pg_partman SCHEMA partman"
		check "Debian's pg_partman is 4.7.2" \
			eq "$(pgcron_sql -c "SELECT extversion FROM pg_extension WHERE extname = 'pg_partman'")" 4.7.2
		for t in uuid iuid; do
			got=$(pgcron_sql -c "CREATE TABLE pm_$t (id $t NOT NULL) PARTITION BY RANGE (id)" \
				-c "SELECT partman.create_parent('public.pm_$t', 'id', 'native', 'daily')" 2>&1 || true)
			check "pg_partman refuses a $t control column" \
				grep -q "only supports partitioning of data types that are integer or date/timestamp" <<<"$got"
		done
		idgen_cluster_stop
	}
}
