# test/doc/run.sh — sourced by tools/test.sh after tools/lib.sh.
#
# run_docs (once): the user pages' links and anchors resolve and their
# contents lists are whole (links.py); every error idgen raises is quoted on
# doc/troubleshooting.md under the SQLSTATE it raises (errcodes.py); no
# sentence or table row stands in two pages (duplicates.py); no figure is
# stated unlinked in two pages, however worded (figures.py), nor a rule
# outside its home (homes.py); user pages and the reports they link hold no
# test narrative, issue numbers or commit hashes (narrative.py); CHANGELOG,
# META.json, idgen.control, debian/changelog and the pages agree on the
# release status (release.py); README gives the demo and the test command,
# one line each, and .ci/run runs that test command (frontdoor.py); the
# vector generators' outputs are those sql/ranges.sql and the pages quote
# (test/vectors/check.py).
# run_doc_sql (per major): every SQL block of every user page runs and gives
# the values its comments show (doc_sql.py): pages without a server marker
# on a scratch cluster WITHOUT preloading (as a newcomer's), then the pages
# marked "server preloaded" on one with idgen preloaded, idgen.worker_id
# set and a key file holding the formats' published key.

# the AES-256 key of doc/formats.md's public-id vector
IDGEN_DOC_KEY=k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=

run_docs() {
	local dir=$IDGEN_TOP/docs rc
	mkdir -p "$dir"
	rc=0
	/usr/bin/python3 "$IDGEN_BUILD/test/doc/links.py" "$IDGEN_BUILD" >"$dir/links.log" 2>&1 || rc=$?
	record_log docs-links "$dir/links.log" $rc
	rc=0
	/usr/bin/python3 "$IDGEN_BUILD/test/doc/errcodes.py" "$IDGEN_BUILD" \
		"/usr/share/postgresql/$IDGEN_PG_DEBIAN/errcodes.txt" >"$dir/errcodes.log" 2>&1 || rc=$?
	record_log docs-errcodes "$dir/errcodes.log" $rc
	rc=0
	/usr/bin/python3 "$IDGEN_BUILD/test/doc/duplicates.py" "$IDGEN_BUILD" >"$dir/duplicates.log" 2>&1 || rc=$?
	record_log docs-duplicates "$dir/duplicates.log" $rc
	local check
	for check in figures homes narrative release frontdoor; do
		rc=0
		/usr/bin/python3 "$IDGEN_BUILD/test/doc/$check.py" "$IDGEN_BUILD" >"$dir/$check.log" 2>&1 || rc=$?
		record_log docs-$check "$dir/$check.log" $rc
	done
	# the vector generators run, and what quotes them matches (test/vectors/check.py)
	rc=0
	/usr/bin/python3 "$IDGEN_BUILD/test/vectors/check.py" "$IDGEN_BUILD" >"$dir/vectors.log" 2>&1 || rc=$?
	record_log docs-vectors "$dir/vectors.log" $rc
}

run_doc_sql() {
	local dir=$IDGEN_WORK/doc-sql rc server pages=()
	mkdir -p "$dir"
	pages=("$IDGEN_BUILD/README.md" "$IDGEN_BUILD"/doc/*.md)
	for server in plain preloaded; do
		as_server rm -rf "$IDGEN_WORK/data"
		if [ $server = plain ]; then
			idgen_cluster_start "shared_preload_libraries = ''" || { record doc-sql-$server 0 1; continue; }
		else
			idgen_cluster_start "idgen.worker_id = 7" "idgen.public_id_key_file = 'public_id.keys'" ||
				{ record doc-sql-$server 0 1; continue; }
			as_server sh -c "umask 077 && echo '$IDGEN_DOC_KEY' >'$PGDATA/public_id.keys'"
		fi
		rc=0
		# every statement under the SQL suites' statement_timeout (tools/test.sh)
		(cd "$IDGEN_BUILD" && PGOPTIONS="${PGOPTIONS:-} -c statement_timeout=$IDGEN_STATEMENT_TIMEOUT" \
			/usr/bin/python3 test/doc/doc_sql.py $server "$PG_BIN/psql" \
			"${pages[@]#$IDGEN_BUILD/}") >"$dir/$server.log" 2>&1 || rc=$?
		record_log doc-sql-$server "$dir/$server.log" $rc
		idgen_cluster_stop
	done
	as_server rm -rf "$IDGEN_WORK/data"
}
