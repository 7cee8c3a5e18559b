# test/sqlnames/run.sh — sourced by tools/test.sh after tools/lib.sh.
#
# run_sqlnames (once): every script of both editions read by PostgreSQL's
# own parser (libpg_query through Debian's python3-pglast), every function
# body, DO block and template of dynamic SQL in them included; a function,
# operator, type or collation named without its schema fails, with file and
# line, unless check.py's short list of allowed rules lets it through (the
# list is printed with its reasons).  The hostile database's trap schema
# (doc/security.md) sees the names that run; this sees the ones no test runs.

run_sqlnames() {
	local dir=$IDGEN_TOP/sqlnames rc=0
	mkdir -p "$dir"
	/usr/bin/python3 "$IDGEN_BUILD/test/sqlnames/check.py" \
		--bki "/usr/share/postgresql/$IDGEN_PG_DEBIAN/postgres.bki" "$IDGEN_BUILD" >"$dir/check.log" 2>&1 || rc=$?
	record_log sqlnames "$dir/check.log" $rc
}
