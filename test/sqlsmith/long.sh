#!/usr/bin/env bash
# test/sqlsmith/long.sh: a long random-SQL run of idgen with sqlsmith, for
# the hours the test command's short run (the suite "sqlsmith") cannot
# spend.  The same database, cluster and verdict as that suite
# (test/sqlsmith/common.sh); prints the figures: queries run, errors by
# SQLSTATE overall and from idgen's code, idgen XX000s, crashes.  Exits 1 on
# a crash, an assertion failure, a sanitizer report or an XX000 from idgen.
#
#   nice -n 10 bash test/sqlsmith/long.sh [SECONDS [SEED]]
#
# SECONDS defaults to 1200, SEED to one from the clock (printed, so a run
# can be repeated).  IDGEN_PG_VERSION picks the major (default 15); one from
# the cache (tools/pgbuild.sh) is built first if it is not there yet.
# IDGEN_KEEP=1 keeps the scratch directory (server log, sqlsmith's report).
source "$(dirname "$0")/../../tools/lib.sh"
source "$IDGEN_ROOT/test/sqlsmith/common.sh"

secs=${1:-1200}
seed=${2:-$(date +%s)}
idgen_deps sqlsmith
idgen_workdir
idgen_pg_select "$IDGEN_PG_VERSION"
say "building"
idgen_build -Werror >"$IDGEN_WORK/build.log" 2>&1 || { cat "$IDGEN_WORK/build.log" >&2; exit 1; }
idgen_install
sqlsmith_cluster_start
say "PostgreSQL $PG_MAJOR: sqlsmith for $secs s, seed $seed"
t0=$(date +%s)
rc=0
sqlsmith_run "$secs" 1000000000 "$seed" "$IDGEN_WORK/long" || rc=$?
echo "PostgreSQL $("$PG_CONFIG" --version | sed 's/^PostgreSQL //'), seed $seed, $(($(date +%s) - t0)) s"
f=0
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; then
	echo "sqlsmith exited with $rc:"
	tail -n 20 "$IDGEN_WORK/long.err"
	f=1
fi
sqlsmith_verdict "$IDGEN_WORK/long" 1 1 || f=1
idgen_cluster_stop || f=1
exit $f
