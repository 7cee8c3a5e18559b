# test/ops/pgupgrade.sh — sourced by tools/test.sh.
#
# run_pgupgrade: pg_upgrade between the majors of IDGEN_PG_VERSIONS (15 → 17,
# 15 → 18, 17 → 18, 18 → 19beta1), once after every major's suites, with the install trees
# they left (OPS_BIN).  Each pair is first tried by PostgreSQL alone (a
# table without idgen, idgen not preloaded): where pg_upgrade fails even
# then, the pair is skipped with PostgreSQL's error.  Otherwise, in copy and
# in link mode: tables of every type with indexes, partitions made by
# idgen_create_partitions, public ids made with a key file; after the upgrade
# (and the documented steps: the key file and the base36id state file copied
# into the new data directory), the rows and ids are the same, amcheck finds
# every btree index sound, the public ids decode, on 18 idgen_add_skip_support()
# gives the families skip support, and the generators go on without
# repeating, base36id after the last second of the old cluster although the
# new cluster's clock is behind it (libfaketime).

declare -A OPS_BIN=()

run_pgupgrade() {
	local pair old new mode dir out reason d name rc
	for pair in "15 17" "15 18" "17 18" "18 19"; do
		read -r old new <<<"$pair"
		name=pgupgrade-$(idgen_pg_label "$old")-$(idgen_pg_label "$new")
		# a major whose source is absent here (a plain clone) first: that
		# reason holds whichever majors were asked for
		if [ -n "${PG_ABSENT[$old]:-}${PG_ABSENT[$new]:-}" ]; then
			skip "$name" 2 "${PG_ABSENT[$old]:-${PG_ABSENT[$new]}}"
			continue
		fi
		if [[ " $IDGEN_PG_VERSIONS " != *" $old "* || " $IDGEN_PG_VERSIONS " != *" $new "* ]]; then
			skip "$name" 2 "PostgreSQL $(idgen_pg_label "$old") and $(idgen_pg_label "$new") are not both in IDGEN_PG_VERSIONS"
			continue
		fi
		if [ -z "${OPS_BIN[$old]:-}" ] || [ -z "${OPS_BIN[$new]:-}" ]; then
			say "$name: no idgen install tree for $old or $new (see their build)"
			record "$name" 0 1
			continue
		fi
		dir=$IDGEN_TOP/$name
		as_server rm -rf "$dir"
		as_server mkdir -p "$dir/probe"
		rc=0
		out=$(ops_upgrade_probe "$old" "$new" "$dir/probe" 2>&1) || rc=$?
		idgen_stop_servers "$dir/probe"
		if [ "$rc" -ne 0 ]; then
			echo "$out"
			# only pg_upgrade's own refusal of the pair is a skip (status 2), with
			# its words; the probe's clusters failing otherwise is a failure
			reason=
			[ "$rc" -ne 2 ] || reason=$(grep -rh -m 1 -E 'ERROR:|FATAL:|^[A-Z].*(failed|incompatible|not supported)' \
				"$dir/probe/pg_upgrade.out" "$dir/probe/new/pg_upgrade_output.d" 2>/dev/null | head -n 1 | sed 's/.*ERROR: *//')
			if [ -n "$reason" ]; then
				skip "$name" 2 "pg_upgrade $(idgen_pg_label "$old") → $(idgen_pg_label "$new") fails without idgen (a plain table): $reason"
			else
				say "$name: the probe (a plain table, pg_upgrade alone) failed before or without pg_upgrade's word on it"
				record "$name" 0 1
			fi
			continue
		fi
		as_server rm -rf "$dir/probe"
		for mode in copy link; do
			as_server mkdir -p "$dir/$mode"
			OPS_PASS=0 OPS_FAIL=0
			ops_upgrade "$old" "$new" "$mode" "$dir/$mode" >"$dir/$mode.log" 2>&1 ||
				echo "not ok - the test stopped early" >>"$dir/$mode.log"
			idgen_stop_servers "$dir/$mode"
			ops_record "$name-$mode" "$dir/$mode.log"
		done
	done
}

# ops_upgrade_probe OLD NEW DIR: pg_upgrade of a cluster holding one plain
# table, idgen not preloaded; status 2 when pg_upgrade fails, 1 when the
# clusters could not be made
ops_upgrade_probe() {
	local ob=${OPS_BIN[$1]} nb=${OPS_BIN[$2]} dir=$3 port
	port=$(free_port)
	OPS_PRELOAD=0 OPS_INITDB_OPTS=-k ops_initdb "$ob" "$dir/old" "$port" || return 1
	OPS_PRELOAD=0 OPS_INITDB_OPTS=-k ops_initdb "$nb" "$dir/new" "$port" || return 1
	ops_start "$ob" "$dir/old" || return 1
	ops_sql "$ob" "$port" -c "CREATE TABLE plain (a int, b text)" \
		-c "INSERT INTO plain SELECT g, g::text FROM generate_series(1, 10) g" || return 1
	ops_stop "$ob" "$dir/old" || return 1
	ops_pg_upgrade "$ob" "$nb" "$dir" copy || return 2
}

# ops_pg_upgrade OLDBIN NEWBIN DIR MODE: pg_upgrade DIR/old into DIR/new
ops_pg_upgrade() {
	local ob=$1 nb=$2 dir=$3 mode=$4
	(cd "$dir" && as_server "$nb/pg_upgrade" -b "$ob" -B "$nb" -d "$dir/old" -D "$dir/new" \
		-p "$(free_port)" -P "$(free_port)" -U postgres -s "$dir" "--$mode") \
		>"$dir/pg_upgrade.out" 2>&1 || { cat "$dir/pg_upgrade.out"; return 1; }
}

# the rows and ids of the old cluster, as text: must read the same after
OPS_FINGERPRINT="SELECT md5(string_agg(concat_ws(',', n, b, i, d, f, p), ';' ORDER BY n)) FROM t
UNION ALL SELECT md5(string_agg(concat_ws(',', tableoid::regclass, id, x), ';' ORDER BY x)) FROM ev
UNION ALL SELECT count(*)::text FROM pg_inherits WHERE inhparent = 'ev'::regclass"
# every btree index of the tables, checked by amcheck with every row
OPS_AMCHECK="SELECT count(*) FROM (SELECT bt_index_check(c.oid, true) FROM pg_class c
	JOIN pg_am a ON a.oid = c.relam
	WHERE a.amname = 'btree' AND c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace) s"
OPS_SKIP_FAMILIES="SELECT count(*) FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily
	WHERE p.amprocnum = 6 AND f.opfname IN ('iuid_ops', 'base36id_ops', 'distid_ops', 'flaxid_ops')"
OPS_GENERATE="INSERT INTO t (b, i, d, f) SELECT base36id_generate(), iuid_generate(1, 2),
	distid_generate(), flaxid_generate() FROM generate_series(1, 300);
SELECT pg_sleep(1.1);
INSERT INTO t (b, i, d, f) SELECT base36id_generate(), iuid_generate(1, 2),
	distid_generate(), flaxid_generate() FROM generate_series(1, 300);
UPDATE t SET p = public_id(d) WHERE p IS NULL;
INSERT INTO ev (x) SELECT coalesce(max(x), 0) + g FROM ev, generate_series(1, 200) g GROUP BY g;"

# ops_upgrade OLD NEW MODE DIR: the test; "ok"/"not ok" lines on stdout
ops_upgrade() {
	local old=$1 new=$2 mode=$3 dir=$4 ob=${OPS_BIN[$1]} nb=${OPS_BIN[$2]} port before nidx last d
	local conf=("idgen.worker_id = 5" "idgen.public_id_key_file = 'public_id.keys'")
	port=$(free_port)
	OPS_INITDB_OPTS=-k ops_initdb "$ob" "$dir/old" "$port" "${conf[@]}" || return 1
	as_server sh -c "umask 077 && openssl rand -base64 32 > '$dir/old/public_id.keys'"
	ops_start "$ob" "$dir/old" || return 1
	ops_sql "$ob" "$port" >/dev/null <<-SQL || return 1
		CREATE EXTENSION idgen;
		CREATE EXTENSION amcheck;
		CREATE TABLE t (n serial PRIMARY KEY, b base36id, i iuid, d distid, f flaxid, p uuid);
		CREATE INDEX t_b ON t (b);
		CREATE INDEX t_i ON t (i, n);
		CREATE INDEX t_d ON t (d);
		CREATE INDEX t_f ON t (f);
		CREATE TABLE ev (id iuid NOT NULL DEFAULT iuid_generate(1, 2), x int) PARTITION BY RANGE (id);
		SELECT idgen_create_partitions('ev', now() - interval '2 days', now() + interval '2 days', interval '1 day');
		CREATE INDEX ev_id ON ev (id);
		$OPS_GENERATE
	SQL
	before=$(ops_sql "$ob" "$port" -c "$OPS_FINGERPRINT") || return 1
	nidx=$(ops_sql "$ob" "$port" -c "$OPS_AMCHECK") || return 1
	# 5 on t, one on each of the (4 or 5) partitions
	check "old cluster: amcheck passes $nidx btree indexes" [ "$nidx" -ge 9 ]
	last=$(ops_sql "$ob" "$port" -c "SELECT extract(epoch FROM max(base36id_timestamp(b)))::bigint FROM t")
	ops_stop "$ob" "$dir/old"

	OPS_INITDB_OPTS=-k ops_initdb "$nb" "$dir/new" "$port" "${conf[@]}" || return 1
	check "pg_upgrade --$mode $old → $new" ops_pg_upgrade "$ob" "$nb" "$dir" "$mode" || return 1
	# what pg_upgrade carries: relation files, not the files idgen keeps in
	# the data directory; the documented steps copy them
	check "pg_upgrade leaves idgen's state file behind" [ ! -e "$dir/new/idgen_base36id.state" ]
	for f in idgen_base36id.state public_id.keys; do
		as_server cp -p "$dir/old/$f" "$dir/new/$f"
	done
	# the new server's clock 3 s behind the old cluster's last base36id second
	# shellcheck disable=SC2046
	ops_start "$nb" "$dir/new" $(faketime_env "$((last - $(date +%s) - 3))") || return 1
	check "new cluster: its clock is behind the old cluster's last base36id second" \
		eq "$(ops_sql "$nb" "$port" -c "SELECT extract(epoch FROM clock_timestamp()) < $last")" t
	check "new cluster: rows, ids and partitions read the same" \
		eq "$(ops_sql "$nb" "$port" -c "$OPS_FINGERPRINT")" "$before"
	check "new cluster: amcheck passes every btree index" \
		eq "$(ops_sql "$nb" "$port" -c "$OPS_AMCHECK")" "$nidx"
	check "new cluster: index scans find every row" \
		eq "$(ops_sql "$nb" "$port" -c "SET enable_seqscan = off" -c "SET enable_bitmapscan = off" \
			-c "SELECT (SELECT count(*) FROM t WHERE b >= (SELECT min(b) FROM t))
				+ (SELECT count(*) FROM t WHERE i >= (SELECT min(i) FROM t))
				+ (SELECT count(*) FROM t WHERE d >= (SELECT min(d) FROM t))
				+ (SELECT count(*) FROM t WHERE f >= (SELECT min(f) FROM t))
				- 4 * (SELECT count(*) FROM t)")" 0
	check "new cluster: the public ids decode with the copied key file" \
		eq "$(ops_sql "$nb" "$port" -c "SELECT count(*) FILTER (WHERE public_id_to_distid(p) <> d OR public_id(d) <> p) FROM t")" 0
	if [ "$old" -ge 18 ]; then
		# the old cluster's families had it already
		check "new cluster ($new): pg_upgrade kept the 4 families' skip support" \
			eq "$(ops_sql "$nb" "$port" -c "$OPS_SKIP_FAMILIES")" 4
		check "new cluster ($new): idgen_add_skip_support() finds nothing to add" \
			eq "$(ops_sql "$nb" "$port" -c "SELECT idgen_add_skip_support()")" 0
	elif [ "$new" -ge 18 ]; then
		check "new cluster ($new): pg_upgrade kept the families without skip support" \
			eq "$(ops_sql "$nb" "$port" -c "$OPS_SKIP_FAMILIES")" 0
		check "new cluster ($new): idgen_add_skip_support() adds it to 4 families" \
			eq "$(ops_sql "$nb" "$port" -c "SELECT idgen_add_skip_support()")" 4
		check "new cluster ($new): the 4 families have skip support" \
			eq "$(ops_sql "$nb" "$port" -c "$OPS_SKIP_FAMILIES")" 4
	fi
	ops_sql "$nb" "$port" >/dev/null <<<"$OPS_GENERATE" ||
		{ check "new cluster: every generator works" false; return 1; }
	check "new cluster: every generator works" true
	check "new cluster: base36id goes on after the old cluster's last second, worker 5" \
		eq "$(ops_sql "$nb" "$port" -c "SELECT min(extract(epoch FROM base36id_timestamp(b))) > $last AND bool_and(base36id_worker(b) = 5) FROM t WHERE n > 600")" t
	check "new cluster: no id of any type repeats" \
		eq "$(ops_sql "$nb" "$port" -c "SELECT count(*) * 4 - count(DISTINCT b) - count(DISTINCT i) - count(DISTINCT d) - count(DISTINCT f) FROM t")" 0
	check "new cluster: amcheck passes every btree index after the new rows" \
		eq "$(ops_sql "$nb" "$port" -c "$OPS_AMCHECK")" "$nidx"
	ops_stop "$nb" "$dir/new"
}
