# test/ops/runbooks.sh — sourced by tools/test.sh.
#
# run_runbooks: doc/runbooks.md's commands, run as written
# (test/ops/runbooks_test.py; test/ops/runbook.py reads the page): the manual
# failover and switchover, the public-id key's life, and failover and
# switchover under Patroni, each counted as a suite of its own; then every
# block of the page must have run in one of them.  On the majors of
# IDGEN_RUNBOOK_MAJORS (15: Debian's server, whose contrib has the dblink
# the failover's check uses; the procedures do not differ between majors).

IDGEN_RUNBOOK_MAJORS=${IDGEN_RUNBOOK_MAJORS:-15}

run_runbooks() {
	local dir=$IDGEN_WORK/runbooks scenario rc ran missing
	if [[ " $IDGEN_RUNBOOK_MAJORS " != *" $PG_MAJOR "* ]]; then
		skip "${SUITE_PREFIX}runbooks" 1 "not in IDGEN_RUNBOOK_MAJORS ($IDGEN_RUNBOOK_MAJORS)"
		return 0
	fi
	for scenario in manual key patroni; do
		# (root's rm: the key scenario leaves root-owned key files)
		rm -rf "$dir/$scenario"
		mkdir -p "$dir/$scenario"
		chown "$SERVER_USER" "$dir" "$dir/$scenario"
		rc=0
		/usr/bin/python3 "$IDGEN_BUILD/test/ops/runbooks_test.py" "$scenario" "$PG_BIN" "$dir/$scenario" \
			>"$dir/$scenario.log" 2>&1 || rc=$?
		record_log "runbook-$scenario" "$dir/$scenario.log" $rc
		if [ $rc -ne 0 ]; then
			for f in "$dir/$scenario"/*.log; do if [ -f "$f" ]; then echo "== $f"; tail -n 25 "$f"; fi; done
		fi
	done
	# every block of the page ran in some scenario
	ran=$(sed -n 's/^# ran: //p' "$dir"/*.log | sort -u)
	missing=$(/usr/bin/python3 -c '
import sys; sys.path.insert(0, sys.argv[1])
from runbook import Runbook
print(" ".join(b for b in Runbook(sys.argv[2]).order if b != "settings" and b not in sys.argv[3].split()))' \
		"$IDGEN_BUILD/test/ops" "$IDGEN_BUILD/doc/runbooks.md" "$ran")
	if [ -z "$missing" ]; then
		record runbook-coverage 1 0
	else
		say "doc/runbooks.md blocks no scenario ran: $missing"
		record runbook-coverage 0 1
	fi
	[ "${IDGEN_KEEP:-0}" = 1 ] || rm -rf "$dir"
}
