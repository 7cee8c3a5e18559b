# test/sqlsmith/common.sh: a random-SQL smoke test of idgen with Debian's
# sqlsmith, shared by the test command's short run (test/sqlsmith/run.sh) and
# the long-run script (test/sqlsmith/long.sh).  Needs tools/lib.sh, a build
# installed by idgen_install, and IDGEN_WORK.
#
# The cluster preloads idgen with idgen.worker_id set and a key file for the
# public ids, and logs every error with its SQLSTATE, its source location and
# the statement that raised it (log_error_verbosity = verbose,
# log_min_error_statement = error): the server log, not sqlsmith's output, is
# what the verdict reads.  sqlsmith prints every query it generates
# (--dump-all-queries); those are only counted.

# the idgen objects (functions, types) sqlsmith can reach, as a regular
# expression over a query's text: any name idgen's SQL script creates that
# starts with an idgen type's name or one of its function families
SQLSMITH_IDGEN_RE='(iuid|distid|base36id|flaxid|public_id|idgen_|uuid_(to|from)_alphanumeric|bigint_(to|from)_alphanumeric)'

# sqlsmith_cluster_start: the scratch cluster (idgen_cluster_start) with the
# settings above, a key file, and the database "smith" from schema.sql
sqlsmith_cluster_start() {
	idgen_cluster_start "idgen.worker_id = 7" \
		"idgen.public_id_key_file = 'public_id.keys'" \
		"log_error_verbosity = verbose" \
		"log_min_error_statement = error" \
		"log_line_prefix = '%m [%p] %e '" \
		"restart_after_crash = on" || return 1
	# a random AES-256 key; only the server's user may read it
	{ echo '# sqlsmith smoke test'; openssl rand -base64 32; } |
		as_server tee "$PGDATA/public_id.keys" >/dev/null
	chmod 600 "$PGDATA/public_id.keys"
	# sqlsmith runs as an ordinary role that owns the database (a superuser
	# would have it call pg_terminate_backend(), pg_promote() and the like),
	# in the monitoring roles idgen grants its views and key list to, and
	# with a bound on any one query (a random join of every table can run
	# for minutes), so the run's time goes to many queries
	idgen_psql -c 'CREATE ROLE smith LOGIN IN ROLE pg_read_all_settings, pg_read_all_stats' \
		-c "ALTER ROLE smith SET statement_timeout = '10s'" \
		-c 'CREATE DATABASE smith OWNER smith' &&
		idgen_psql -d smith -f "$IDGEN_ROOT/test/sqlsmith/schema.sql" >/dev/null
}

# sqlsmith_run SECONDS MAX_QUERIES SEED OUT: sqlsmith against "smith" until it
# has generated MAX_QUERIES queries or SECONDS have passed, whichever comes
# first.  Writes OUT.err (sqlsmith's own progress and error report) and
# OUT.stats: queries generated ("queries"), those naming an idgen object
# ("idgen": a type, a table of ids or a function), those calling one of
# idgen's functions or aggregates ("calls": sqlsmith qualifies every call
# with its schema, and in this database only idgen's are in "public"), those
# reading the view of every extractor ("view", schema.sql's id_fields), and
# per function the queries calling it ("fn NAME N").  The queries are
# counted as they stream by, never stored (a long run generates gigabytes).
sqlsmith_run() {
	local secs=$1 max=$2 seed=$3 out=$4 rc=0
	timeout --signal=INT --kill-after=30 "$secs" \
		sqlsmith --target="host=$PGHOST port=$PGPORT user=smith dbname=smith" \
		--seed="$seed" --max-queries="$max" --exclude-catalog --dump-all-queries --verbose \
		2>"$out.err" |
		awk -v re="$SQLSMITH_IDGEN_RE" '
			# a query ends with the line that ends with ";"
			{ q = q $0 "\n" }
			/;$/ {
				n++
				if (q ~ re) m++
				if (q ~ /public\.id_fields/) v++
				delete seen
				c = 0
				while (match(q, /public\.[a-z_0-9]+\(/)) {
					f = substr(q, RSTART + 7, RLENGTH - 8)
					if (!(f in seen)) { seen[f] = 1; fn[f]++; c = 1 }
					q = substr(q, RSTART + RLENGTH)
				}
				calls += c
				q = ""
			}
			END {
				printf "queries %d\nidgen %d\ncalls %d\nview %d\n", n, m, calls, v
				for (f in fn) printf "fn %s %d\n", f, fn[f]
			}' >"$out.stats" || rc=$?
	return $rc
}

# sqlsmith_verdict OUT MIN_QUERIES MIN_CALLS: the figures and the verdict of
# a run (test/sqlsmith/verdict.py) from the server log and OUT.stats; the
# cluster must still run (XX errors are re-run to find where they come from)
sqlsmith_verdict() {
	/usr/bin/python3 "$IDGEN_ROOT/test/sqlsmith/verdict.py" --server-log "$IDGEN_WORK/server.log" \
		--src "$IDGEN_BUILD/src" --lib "$IDGEN_BUILD/idgen.so" --stats "$1.stats" --idgen-re "$SQLSMITH_IDGEN_RE" \
		--min-queries "$2" --min-calls "$3" \
		--conninfo "host=$PGHOST port=$PGPORT user=postgres dbname=smith"
}
