#!/usr/bin/env bash
# Demo: install what is missing, build, install into a private tree, start a
# throwaway cluster, and show ids being generated and taken apart.
source "$(dirname "$0")/lib.sh"

idgen_deps
idgen_workdir
say "building"
idgen_build
idgen_install
say "starting a throwaway cluster in $IDGEN_WORK"
idgen_cluster_start
idgen_psql -a -f "$IDGEN_ROOT/tools/demo.sql"
idgen_cluster_stop
say "demo done"
