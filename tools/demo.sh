#!/usr/bin/env bash
# Demo: install what is missing, build, install into a private tree, start a
# throwaway cluster, and show ids being generated and taken apart.
source "$(dirname "$0")/lib.sh"

idgen_setup_cluster "idgen.worker_id = 1"
idgen_psql -a -f "$IDGEN_ROOT/tools/demo.sql"
idgen_cluster_stop
say "demo done"
