# test/orm/run.sh — sourced by tools/test.sh after tools/lib.sh.
#
# run_orm: one program per ORM or query builder (test/orm/<name>/) against a
# scratch cluster with idgen preloaded and idgen.worker_id set, on a free
# loopback port; each program gets a database of its own with the extension
# created, finds it through PGHOST/PGPORT/PGUSER/PGDATABASE, and prints
# "NAME: N passed, M failed".  npm packages install into the scratch copy
# (npm ci; npm's cache is the user's ~/.npm); Go builds offline against
# Debian's packaged libraries (/usr/share/gocode), its build cache in the
# scratch directory.  Their Debian packages are in IDGEN_PACKAGES (tools/lib.sh).

# the files doc/clients.md quotes ("ORMs and query builders"), for the
# clients suite's check of that page (test/clients/readme_check.py)
IDGEN_ORM_README=(test/orm/sqlalchemy/test_sqlalchemy.py test/orm/django/test_django.py
	test/orm/django/shop/fields.py test/orm/django/shop/models.py
	test/orm/django/shop/migrations/0001_initial.py test/orm/activerecord/test_activerecord.rb
	test/orm/pgx/main.go test/orm/knex/test_knex.js test/orm/sequelize/test_sequelize.js
	test/orm/typeorm/test_typeorm.js test/orm/drizzle/test_drizzle.js)

# orm_program NAME LOG COMMAND...: COMMAND against a new database orm_NAME,
# counted as orm-NAME
orm_program() {
	local name=$1 log=$2 rc=0
	shift 2
	{ idgen_psql -d postgres -c "CREATE DATABASE orm_$name" &&
		idgen_psql -d "orm_$name" -c 'CREATE EXTENSION idgen' &&
		PGHOST=127.0.0.1 PGDATABASE=orm_$name "$@"; } >"$log" 2>&1 || rc=$?
	record_log "orm-$name" "$log" $rc
}

run_orm() {
	local src=$IDGEN_BUILD/test/orm dir=$IDGEN_WORK/orm t0 t1 js
	t0=$(date +%s)
	mkdir -p "$dir"
	if ! idgen_cluster_start_loopback "idgen.worker_id = 7"; then
		record orm 0 1
		return 0
	fi

	orm_program sqlalchemy "$dir/sqlalchemy.log" \
		/usr/bin/python3 "$src/sqlalchemy/test_sqlalchemy.py"
	orm_program django "$dir/django.log" \
		/usr/bin/python3 "$src/django/test_django.py"
	orm_program activerecord "$dir/activerecord.log" \
		ruby "$src/activerecord/test_activerecord.rb"
	# offline: Debian's pgx v4 from GOPATH, no modules, no proxy; the build
	# cache is shared by the majors of this run
	orm_program pgx "$dir/pgx.log" env GO111MODULE=off GOPATH=/usr/share/gocode \
		GOCACHE="$IDGEN_TOP/go-build" GOFLAGS= GOPROXY=off \
		go run "$src/pgx/main.go"
	# node_modules stays in the scratch copy, npm's cache in the user's ~/.npm;
	# npm ci runs once a run: the first major keeps a copy of what it
	# installed ($IDGEN_TOP/npm), the later ones take it (the package's
	# link to clients/node is relative, so it points into their own copy)
	for js in knex sequelize typeorm drizzle; do
		orm_program "$js" "$dir/$js.log" bash -c \
			'cd "$1" && if [ -d "$3/node_modules" ]; then cp -a "$3/node_modules" .;
			else npm ci --no-audit --no-fund --loglevel=error && mkdir -p "$3" &&
				cp -a node_modules "$3/"; fi && node "test_$2.js"' \
			npm-ci "$src/$js" "$js" "$IDGEN_TOP/npm/$js"
	done

	t1=$(date +%s)
	idgen_cluster_stop
	as_server rm -rf "$IDGEN_WORK/data"
	say "${SUITE_PREFIX}orm: the ORM programs took $((t1 - t0)) s"
}
