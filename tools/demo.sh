#!/usr/bin/env bash
# Demo: install only what the build and a server need, build, install into a
# private tree, start a throwaway cluster, and show ids being generated and
# taken apart.  IDGEN_DEMO_KEEP=1 leaves the cluster running to play with,
# and prints how to connect and how to stop it.
source "$(dirname "$0")/lib.sh"

# the compiler, the server with its headers, OpenSSL's headers (the build and
# a cluster need nothing else; tools/test.sh installs the rest)
IDGEN_SETUP_PACKAGES=(make gcc libc6-dev postgresql-$IDGEN_PG_DEBIAN postgresql-server-dev-$IDGEN_PG_DEBIAN libssl-dev)
[ "${IDGEN_DEMO_KEEP:-0}" != 1 ] || IDGEN_KEEP=1

idgen_setup_cluster "idgen.worker_id = 1"
idgen_psql -a -f "$IDGEN_ROOT/tools/demo.sql"
if [ "${IDGEN_DEMO_KEEP:-0}" = 1 ]; then
	say "the cluster keeps running; connect with:"
	say "  $PG_BIN/psql -h $PGHOST -p $PGPORT -U $PGUSER postgres"
	say "stop it and remove its files with:"
	say "  $([ "$(id -u)" -eq 0 ] && echo "runuser -u $SERVER_USER -- ")$PG_BIN/pg_ctl -D $PGDATA stop && rm -rf $IDGEN_TOP"
	PGDATA=	# leave it running at exit
	trap - EXIT
	exit 0
fi
idgen_cluster_stop
say "demo done"
