# test/portable/run.sh — sourced by tools/test.sh after tools/lib.sh.
#
# run_portable (per major): idgen_portable, the SQL edition (portable/,
# doc/portable.md).  portable-scripts: the committed scripts are those its
# source generates; portable-qualified: no core name in the source without
# its schema (portable/qualify.py); portable-folding: no part that checks or
# writes state where the planner may drop it (test/portable/folding.py).
# portable: the TAP tests of this directory, against the run's install tree
# (idgen_install puts idgen_portable in it): the three ways to install it,
# pg_tle where it builds (tools/pgtlebuild.sh), the cross-checks with the C
# types, the per-session rules, the road from one to the other, the trap
# check (005_trap.pl, in a copy of the install tree whose extension script
# searches the trap schema first).  IDGEN_PORTABLE_TAP picks test files
# (t/NAME.pl ...).

run_portable() {
	local tle= trap= f why= sharedir= log=$IDGEN_WORK/portable-scripts.log
	if /usr/bin/python3 "$IDGEN_BUILD/portable/generate.py" --check >"$log" 2>&1; then
		record portable-scripts 1 0
	else
		cat "$log"
		record portable-scripts 0 1
	fi
	# portable-qualified: qualify.py, which leaves qualified text alone,
	# finds nothing to qualify in the source (a static check beside the
	# trap test, which sees only what runs)
	if /usr/bin/python3 "$IDGEN_BUILD/portable/qualify.py" "$IDGEN_BUILD/portable/idgen_portable.sql.in" \
		| diff "$IDGEN_BUILD/portable/idgen_portable.sql.in" - >"$log" 2>&1; then
		record portable-qualified 1 0
	else
		echo "portable: names in idgen_portable.sql.in without their schema (qualify.py would write the + lines):"
		cat "$log"
		record portable-qualified 0 1
	fi
	# portable-folding: no expression of the script has a part that calls a
	# function or casts where a planner may drop it unevaluated (19 folds
	# "(x IS NULL) IS NOT NULL" to true: test/portable/folding.py)
	if /usr/bin/python3 "$IDGEN_BUILD/test/portable/folding.py" "$IDGEN_BUILD/portable/idgen_portable--1.1.sql" >"$log" 2>&1; then
		record portable-folding 1 0
	else
		cat "$log"
		record portable-folding 0 1
	fi
	# pg_tle refuses an extension name the server has a control file for:
	# its test runs in a copy of the install tree (hard links) without
	# idgen_portable's files, with pg_tle added
	if why=$(idgen_pgtle_absent "$PG_MAJOR"); then
		# a plain clone: pg_tle's source is not beside it (its 19 subtests skip)
		:
	elif idgen_deps "${IDGEN_PGTLE_BUILD_PACKAGES[@]}" && idgen_pgtle_build "$PG_MAJOR" && idgen_pgtle_built "$PG_MAJOR"; then
		tle=$IDGEN_WORK/install-pg_tle
		rm -rf "$tle"
		cp -al "$IDGEN_WORK/install" "$tle"
		sharedir=$("$PG_CONFIG" --sharedir)
		rm -f "$tle$sharedir"/extension/idgen_portable[.-]*
		cp -a "$IDGEN_PG_CACHE/pg_tle-$PG_MAJOR/." "$tle/"
		rm -f "$tle/.idgen-built"
		# the installation the test's node runs: the directory of bin/
		tle=$tle$(dirname "$("$PG_CONFIG" --bindir)")
	elif [[ " $IDGEN_PGTLE_MAJORS " == *" $PG_MAJOR "* ]]; then
		record portable-pg_tle 0 1
	else
		why="pg_tle $IDGEN_PGTLE_VERSION does not build for PostgreSQL $PG_LABEL: $(idgen_pgtle_failure "$PG_MAJOR" | head -n 1)"
	fi
	# 005_trap.pl: the extension from its control file, its script's one
	# search_path line with the trap schema put first, in a copy of the
	# install tree (hard links; that file written anew)
	trap=$IDGEN_WORK/install-trap
	rm -rf "$trap"
	cp -al "$IDGEN_WORK/install" "$trap"
	sharedir=${sharedir:-$("$PG_CONFIG" --sharedir)}
	for f in "$trap$sharedir"/extension/idgen_portable--*.sql; do
		sed 's/^SET LOCAL search_path = pg_catalog, /SET LOCAL search_path = trap, pg_catalog, /' "$f" >"$f.trap"
		rm -f "$f"
		mv "$f.trap" "$f"
	done
	trap=$trap$(dirname "$("$PG_CONFIG" --bindir)")
	# the pg_tle subtests of 001 skip with IDGEN_PORTABLE_TLE_SKIP, counted by prove_suite
	IDGEN_PORTABLE_ROOT=$IDGEN_BUILD IDGEN_PORTABLE_TLE_INSTALL=$tle IDGEN_PORTABLE_TLE_SKIP=$why IDGEN_PORTABLE_TRAP_INSTALL=$trap \
		prove_suite portable portable "${IDGEN_PORTABLE_TAP:-}"
	rm -rf "$IDGEN_WORK/install-pg_tle" "$IDGEN_WORK/install-trap"
}
