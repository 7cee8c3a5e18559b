# test/clients/run.sh — sourced by tools/test.sh after tools/lib.sh.
#
# run_clients: the client programs (psycopg 3, psycopg2, node-postgres, pgjdbc) against a
# scratch cluster of the private install tree ($PG_BIN) with idgen preloaded
# and idgen.worker_id set, listening on a free loopback port (pgjdbc has no
# Unix sockets); then the check that doc/clients.md quotes these programs.
# Then the ORM programs' quotes too (test/orm/run.sh).
# (The pages' SQL examples run in the doc-sql suite, test/doc/run.sh.)

run_clients() {
	local src=$IDGEN_BUILD/test/clients dir=$IDGEN_WORK/clients rc
	mkdir -p "$dir"
	if ! idgen_cluster_start_loopback "idgen.worker_id = 7" || ! idgen_psql -c 'CREATE EXTENSION idgen'; then
		record clients 0 1
		return 0
	fi

	rc=0
	IDGEN_SERVER_LOG=$IDGEN_WORK/server.log /usr/bin/python3 "$src/python/test_psycopg.py" >"$dir/psycopg.log" 2>&1 || rc=$?
	record_log clients-psycopg "$dir/psycopg.log" $rc
	rc=0
	/usr/bin/python3 "$src/python/test_psycopg2.py" >"$dir/psycopg2.log" 2>&1 || rc=$?
	record_log clients-psycopg2 "$dir/psycopg2.log" $rc

	# node_modules stays in the scratch copy, npm's cache in the user's ~/.npm
	rc=0
	{ (cd "$src/node" && npm ci --no-audit --no-fund --loglevel=error) &&
		node "$src/node/test_pg.js"; } >"$dir/node.log" 2>&1 || rc=$?
	record_log clients-node-postgres "$dir/node.log" $rc

	rc=0
	{ javac -d "$dir/java" -cp /usr/share/java/postgresql.jar "$src/java/IdgenJdbc.java" \
			"$IDGEN_BUILD/clients/java/src/main/java/org/idgen/jdbc/IdgenTypes.java" &&
		java -cp "/usr/share/java/postgresql.jar:$dir/java" IdgenJdbc \
			"jdbc:postgresql://127.0.0.1:$PGPORT/$PGDATABASE?user=$PGUSER"; } >"$dir/jdbc.log" 2>&1 || rc=$?
	record_log clients-jdbc "$dir/jdbc.log" $rc

	idgen_cluster_stop
	as_server rm -rf "$IDGEN_WORK/data"

	rc=0
	(cd "$IDGEN_BUILD" && /usr/bin/python3 test/clients/readme_check.py doc/clients.md \
		test/clients/python/test_psycopg.py test/clients/python/test_psycopg2.py \
		test/clients/node/test_pg.js \
		test/clients/java/IdgenJdbc.java clients/java/src/test/java/org/idgen/jdbc/IdgenServerTest.java \
		"${IDGEN_ORM_README[@]}") >"$dir/readme.log" 2>&1 || rc=$?
	record_log clients-readme "$dir/readme.log" $rc
}
