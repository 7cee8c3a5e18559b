# test/clients/java/run.sh — sourced by tools/test.sh after tools/lib.sh.
#
# run_java (per major): the Maven build of clients/java (the pgjdbc types of
# idgen's values, org.idgen.jdbc), offline from Debian's packaged Maven
# repository (/usr/share/maven-repo: maven, the plugin packages,
# libpostgresql-jdbc-java, junit4), its JUnit tests run by surefire against
# a scratch cluster of the run's tree listening on a free loopback port.
# Maven runs as the server user, to whom that repository is read-only, with
# its home in the scratch directory: the build downloads nothing and writes
# nothing outside it.  Counted from surefire's reports: a test skipped
# (the server tests skip without a URL) counts as a failure here.

run_java() {
	local dir=$IDGEN_WORK/java log=$IDGEN_WORK/java/mvn.log rc=0 r p=0 f=0 t
	as_server rm -rf "$dir"
	mkdir -p "$dir"
	cp -r "$IDGEN_BUILD/clients/java/." "$dir/"
	[ "$(id -u)" -eq 0 ] && chown -R "$SERVER_USER" "$dir"
	if ! idgen_cluster_start_loopback "idgen.worker_id = 7" || ! idgen_psql -c 'CREATE EXTENSION idgen'; then
		record java 0 1
		return 0
	fi
	# MAVEN_OPTS: a short-lived JVM starts faster without the optimizing compiler
	(cd "$dir" && as_server env HOME="$dir" MAVEN_OPTS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo \
		-Didgen.jdbc.url="jdbc:postgresql://127.0.0.1:$PGPORT/$PGDATABASE?user=$PGUSER" test) >"$log" 2>&1 || rc=$?
	idgen_cluster_stop
	as_server rm -rf "$IDGEN_WORK/data"
	grep -E '^\[(ERROR|WARNING)\]|^Tests run:|FAIL' "$log" || true
	for r in "$dir"/target/surefire-reports/*.txt; do
		[ -f "$r" ] || continue
		# Tests run: 7, Failures: 0, Errors: 0, Skipped: 0, ...
		t=$(sed -n 's/^Tests run: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\), Skipped: \([0-9]*\).*/\1 \2 \3 \4/p' "$r")
		set -- $t
		[ $# -eq 4 ] || { f=$((f + 1)); continue; }
		p=$((p + $1 - $2 - $3 - $4))
		f=$((f + $2 + $3 + $4))
	done
	# no report (a build failure) or a failed build without a failed test
	if [ $((p + f)) -eq 0 ] || { [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; }; then
		tail -n 40 "$log"
		f=$((f + 1))
	fi
	record java "$p" "$f"
}
