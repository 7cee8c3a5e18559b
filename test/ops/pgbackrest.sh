# test/ops/pgbackrest.sh — sourced by tools/test.sh.
#
# run_pgbackrest: idgen under pgBackRest (Debian's pgbackrest): a full
# backup to a local repository with WAL archiving; ids of every type
# generated (batch A), a named restore point, more ids (batch B); then a
# point-in-time restore to the restore point and a restore to the latest
# WAL, each started with its clock 3 s behind the last base36id second it
# replays (libfaketime), so only what recovery replayed keeps base36id from
# the seconds before it (it waits for its clock to pass them).
# Checked on each restored server: the rows recovery should bring back, every
# generator works, base36id goes on after the last replayed second, and no
# new id repeats one issued before the target (the documented rule for ids
# after a point-in-time target: give the restored server another worker id,
# checked too).

# the rows of each batch: ids of every type, several seconds of base36id
OPS_BATCH_SQL="INSERT INTO ids SELECT :'batch', base36id_generate(), iuid_generate(1, 2),
	distid_generate(), flaxid_generate() FROM generate_series(1, 300);
SELECT pg_sleep(1.1);
INSERT INTO ids SELECT :'batch', base36id_generate(), iuid_generate(1, 2),
	distid_generate(), flaxid_generate() FROM generate_series(1, 300);"

run_pgbackrest() {
	local dir=$IDGEN_WORK/pgbackrest log d
	as_server rm -rf "$dir"
	as_server mkdir -p "$dir"
	log=$dir/test.log
	OPS_PASS=0 OPS_FAIL=0
	if ! command -v pgbackrest >/dev/null; then
		record pgbackrest 0 1
		return 0
	fi
	ops_pgbackrest "$dir" >"$log" 2>&1 || echo "not ok - the test stopped early" >>"$log"
	idgen_stop_servers "$dir"
	if grep -q '^skip: ' "$log"; then
		skip "${SUITE_PREFIX}pgbackrest" 1 "$(sed -n 's/^skip: //p' "$log")"
		return 0
	fi
	ops_record pgbackrest "$log"
	[ "$OPS_FAIL" -eq 0 ] && [ "${IDGEN_KEEP:-0}" != 1 ] && as_server rm -rf "$dir"
	return 0
}

# ops_pgbackrest DIR: the test; "ok"/"not ok" lines on stdout
ops_pgbackrest() {
	local dir=$1 conf=$1/pgbackrest.conf port port2 out d last last_pitr last_latest
	local br="pgbackrest --config=$conf --stanza=main"
	port=$(free_port)
	as_server mkdir -p "$dir/repo" "$dir/log" "$dir/lock" "$dir/sock" "$dir/spool"
	as_server tee "$conf" >/dev/null <<-CONF
		[global]
		repo1-path=$dir/repo
		repo1-retention-full=1
		log-path=$dir/log
		lock-path=$dir/lock
		spool-path=$dir/spool
		log-level-console=warn
		start-fast=y
		compress-type=none
		[main]
		pg1-path=$dir/primary
		pg1-port=$port
		pg1-socket-path=$dir/sock
		pg1-user=postgres
	CONF
	ops_initdb "$PG_BIN" "$dir/primary" "$port" "unix_socket_directories = '$dir/sock'" \
		"idgen.worker_id = 3" "wal_level = replica" "archive_mode = on" \
		"archive_command = '$br archive-push %p'" || return 1
	ops_start "$PG_BIN" "$dir/primary" || return 1
	ops_sql "$PG_BIN" "$port" -c "CREATE EXTENSION idgen" \
		-c "CREATE TABLE ids (batch text, b base36id, i iuid, d distid, f flaxid)" || return 1
	# pgBackRest refuses majors it does not know: a skip, with its words.
	# Only that refusal (its VersionNotSupportedError: pg_control's version
	# unknown, hinting at an unsupported PostgreSQL); any other failure fails
	if ! out=$(as_server $br stanza-create 2>&1); then
		echo "$out"
		if grep -q '\[VersionNotSupportedError\] unexpected control version = ' <<<"$out" &&
			grep -q 'HINT: is this version of PostgreSQL supported?' <<<"$out"; then
			echo "skip: pgBackRest $(pgbackrest version | sed 's/^pgBackRest //') refuses PostgreSQL $PG_LABEL: $(grep -i version <<<"$out" | head -n 1)"
			return 0
		fi
		return 1
	fi
	check "pgbackrest check (archiving works)" as_server $br check
	check "full backup" as_server $br --type=full backup

	ops_sql "$PG_BIN" "$port" -v batch=A <<<"$OPS_BATCH_SQL" >/dev/null || return 1
	ops_sql "$PG_BIN" "$port" -c "SELECT pg_create_restore_point('idgen_target')" >/dev/null || return 1
	ops_sql "$PG_BIN" "$port" -v batch=B <<<"$OPS_BATCH_SQL" >/dev/null || return 1
	# every id, to compare with what the restored servers hand out
	ops_sql "$PG_BIN" "$port" -c "COPY ids TO STDOUT" >"$dir/issued.tsv" || return 1
	# the last base36id second before the target (A) and at all (B)
	last_pitr=$(ops_sql "$PG_BIN" "$port" -c "SELECT extract(epoch FROM max(base36id_timestamp(b)))::bigint FROM ids WHERE batch = 'A'")
	last_latest=$(ops_sql "$PG_BIN" "$port" -c "SELECT extract(epoch FROM max(base36id_timestamp(b)))::bigint FROM ids")
	check "the WAL up to here is archived" as_server $br check
	ops_stop "$PG_BIN" "$dir/primary"

	for d in pitr latest; do
		port2=$(free_port)
		if [ "$d" = pitr ]; then
			check "$d: restore to the restore point" as_server $br --pg1-path="$dir/$d" \
				--type=name --target=idgen_target --target-action=promote restore
		else
			check "$d: restore to the latest WAL" as_server $br --pg1-path="$dir/$d" \
				--type=default restore
		fi
		echo "port = $port2" | as_server tee -a "$dir/$d/postgresql.conf" >/dev/null
		echo "archive_mode = off" | as_server tee -a "$dir/$d/postgresql.conf" >/dev/null
		# the clock 30 s behind the last second recovery replays: recovery and
		# promotion on a loaded machine took over 3 s, and the clock passed it
		last=$([ "$d" = pitr ] && echo "$last_pitr" || echo "$last_latest")
		# shellcheck disable=SC2046
		ops_start "$PG_BIN" "$dir/$d" $(faketime_env "$((last - $(date +%s) - 30))") || return 1
		as_server "$PG_BIN/psql" -X -q -h 127.0.0.1 -p "$port2" -U postgres -d postgres \
			-c "SELECT 1" >/dev/null
		wait_promoted "$port2" || { check "$d: recovery ended" false; continue; }
		check "$d: the server clock is behind the last replayed base36id second" \
			eq "$(ops_sql "$PG_BIN" "$port2" -c "SELECT extract(epoch FROM clock_timestamp()) < $last")" t
		check "$d: rows recovered" \
			eq "$(ops_sql "$PG_BIN" "$port2" -c "SELECT string_agg(batch || '=' || n, ' ' ORDER BY batch) FROM (SELECT batch, count(*) FROM ids GROUP BY batch) s(batch, n)")" \
			"$([ "$d" = pitr ] && echo "A=600" || echo "A=600 B=600")"
		ops_check_new_ids "$d" "$port2" "$dir/issued.tsv" 3 "$([ "$d" = pitr ] && echo "'A'" || echo "'A', 'B'")"
		if [ "$d" = pitr ]; then
			# the documented rule: another worker id keeps clear of B's ids
			echo "idgen.worker_id = 4" | as_server tee -a "$dir/$d/postgresql.conf" >/dev/null
			ops_sql "$PG_BIN" "$port2" -c "SELECT pg_reload_conf()" >/dev/null
			sleep 0.5
			ops_check_new_ids "$d (worker 4)" "$port2" "$dir/issued.tsv" 4 "'A', 'B'"
		fi
		ops_stop "$PG_BIN" "$dir/$d"
	done
}

# wait_promoted PORT: until the server at PORT is out of recovery (60 s)
wait_promoted() {
	local i
	for i in $(seq 1 600); do
		[ "$(ops_sql "$PG_BIN" "$1" -c 'SELECT pg_is_in_recovery()' 2>/dev/null)" = f ] && return 0
		sleep 0.1
	done
	return 1
}

# ops_check_new_ids NAME PORT ISSUED WORKER BATCHES: the restored server
# hands out ids of every type; none equals an id of BATCHES (an SQL list) in
# ISSUED (every id the old primary handed out); base36id's come after the
# last second the server replayed, with worker WORKER.
ops_check_new_ids() {
	local name=$1 port=$2 issued=$3 worker=$4 batches=$5
	ops_sql "$PG_BIN" "$port" -v batch=new <<<"$OPS_BATCH_SQL" >/dev/null ||
		{ check "$name: every generator works" false; return 0; }
	check "$name: every generator works" true
	check "$name: base36id's new ids come after the last replayed second" \
		eq "$(ops_sql "$PG_BIN" "$port" -c "SELECT min(base36id_timestamp(b)) > (SELECT max(base36id_timestamp(b)) FROM ids WHERE batch <> 'new') FROM ids WHERE batch = 'new'")" t
	check "$name: base36id's new ids carry worker $worker" \
		eq "$(ops_sql "$PG_BIN" "$port" -c "SELECT array_agg(DISTINCT base36id_worker(b)) FROM ids WHERE batch = 'new'")" "{$worker}"
	check "$name: no new id repeats an id of batch $batches" \
		eq "$(ops_sql "$PG_BIN" "$port" -c "CREATE TEMP TABLE issued (batch text, b base36id, i iuid, d distid, f flaxid)" \
			-c "\\copy issued FROM '$issued'" \
			-c "SELECT count(*) FROM ids n JOIN issued o ON o.batch IN ($batches)
				AND (n.b = o.b OR n.i = o.i OR n.d = o.d OR n.f = o.f) WHERE n.batch = 'new'")" 0
	ops_sql "$PG_BIN" "$port" -c "DELETE FROM ids WHERE batch = 'new'" >/dev/null
}
