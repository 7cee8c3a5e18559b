# tools/lib.sh — shared by tools/test.sh, tools/demo.sh and test/bench.
#
# Installs what is missing (Debian packages), builds, installs into a private
# copy of the PostgreSQL tree (so no root is needed to install, and the system
# server is left alone), and runs scratch clusters as an unprivileged user:
# PostgreSQL refuses to run as root, so as root the server runs as "postgres".

set -euo pipefail

IDGEN_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$IDGEN_ROOT/tools/pgbuild.sh"
source "$IDGEN_ROOT/tools/citusbuild.sh"
source "$IDGEN_ROOT/tools/pgtlebuild.sh"

# The PostgreSQL majors idgen supports.  15 is Debian 12's own server; the
# others are built by tools/pgbuild.sh into a cache outside the checkout (17
# and 18 from Debian's source packages, 18 with assertions; 19, i.e.
# 19beta1, from the vendored release source).  IDGEN_PG_VERSION picks the one a demo or a
# benchmark runs on; tools/test.sh runs against every one of
# IDGEN_PG_VERSIONS.
IDGEN_PG_DEBIAN=15
IDGEN_PG_SUPPORTED="15 17 18 19"
IDGEN_PG_VERSION=${IDGEN_PG_VERSION:-$IDGEN_PG_DEBIAN}
IDGEN_PG_VERSIONS=${IDGEN_PG_VERSIONS:-$IDGEN_PG_SUPPORTED}
PG_MAJOR=$IDGEN_PG_VERSION
PG_BUILD=$PG_MAJOR
PG_LABEL=$PG_MAJOR
PG_CONFIG=/usr/lib/postgresql/$IDGEN_PG_DEBIAN/bin/pg_config

# Debian packages the build, the tests and the benchmarks need
IDGEN_PACKAGES=(make gcc perl postgresql-$IDGEN_PG_DEBIAN postgresql-server-dev-$IDGEN_PG_DEBIAN
	libssl-dev libipc-run-perl libcmocka-dev clang libclang-rt-14-dev libfaketime openssl
	postgresql-15-plproxy)	# PL/Proxy for test/t/011_plproxy.pl: Debian packages it for 15 only
# pg_cron and pg_partman for test/pgcron: Debian packages them for 15 only
IDGEN_PACKAGES+=(postgresql-15-cron postgresql-15-partman)
# wal2json for test/cdc, pg_repack (the extension and its client) for test/maintenance: Debian packages them for 15 only
IDGEN_PACKAGES+=(postgresql-15-wal2json postgresql-15-repack)
# plpgsql_check over the PL/pgSQL of both editions (test/plpgsqlcheck): for 15 only
IDGEN_PACKAGES+=(postgresql-15-plpgsql-check)
# the client programs (test/clients) and the Debian package (debian/)
IDGEN_PACKAGES+=(python3-psycopg libpostgresql-jdbc-java default-jdk-headless
	build-essential debhelper dpkg-dev postgresql-server-dev-all autopkgtest)
# the Maven build of clients/java, offline from Debian's Maven repository
# (/usr/share/maven-repo): Maven, the plugins its pom names, JUnit 4
IDGEN_PACKAGES+=(maven libmaven-resources-plugin-java libmaven-compiler-plugin-java libsurefire-java
	libmaven-jar-plugin-java junit4)
# the suites' JVMs (test/clients, clients/java): no hsperfdata_USER
# directory of their statistics left in /tmp
export JAVA_TOOL_OPTIONS=-XX:-UsePerfData
# the client adapters (clients/python): psycopg 2 and psycopg 3's pool
IDGEN_PACKAGES+=(python3-psycopg2 python3-psycopg-pool)
# the ORM programs (test/orm; the Node ones come from npm)
IDGEN_PACKAGES+=(python3-sqlalchemy python3-django ruby-activerecord ruby-pg golang-go
	golang-github-jackc-pgx-v4-dev)
# the operations tools test/ops runs idgen under: Patroni (with its built-in
# Raft store), pgBackRest
IDGEN_PACKAGES+=(patroni python3-pysyncobj pgbackrest)
# pg_auto_failover's monitor extension and pg_autoctl (test/ops/autofailover.sh): for 15 only
IDGEN_PACKAGES+=(postgresql-15-auto-failover)
# Prometheus where operators look (test/monitoring): postgres_exporter with
# monitoring/'s queries file, promtool (in prometheus) for the alerting rules
IDGEN_PACKAGES+=(prometheus-postgres-exporter prometheus python3-yaml)
# random SQL against idgen's types (test/sqlsmith)
IDGEN_PACKAGES+=(sqlsmith)
# PostgreSQL's parser as a library (libpg_query) for /usr/bin/python3: the
# names the scripts look up (test/sqlnames)
IDGEN_PACKAGES+=(python3-pglast)
# a linguistic collation for the SQL edition's tests (test/portable/002:
# flaxid's alphabet under it; the servers built here have no ICU): libc's
# en_US.UTF-8, made by idgen_locale
IDGEN_PACKAGES+=(locales)
IDGEN_LOCALE=en_US.UTF-8
# Node.js from elsewhere (e.g. NodeSource) brings its own npm
command -v npm >/dev/null || IDGEN_PACKAGES+=(nodejs npm)

say() { printf 'idgen: %s\n' "$*" >&2; }

# Every statement of the SQL suites (tools/test.sh) and of tools/mutate.sh's
# regression runs is cancelled after this (the sessions' PGOPTIONS)
IDGEN_STATEMENT_TIMEOUT=${IDGEN_STATEMENT_TIMEOUT:-60s}
# The regression clusters' settings: a worker id, so that base36id
# generation runs (make installcheck WORKER=yes adds the test that needs it)
IDGEN_REGRESS_CONF=("idgen.worker_id = 7")

# idgen_deps [package...]: install what is missing of IDGEN_PACKAGES, or of
# the packages given.
idgen_deps() {
	local missing=() p sudo=
	[ $# -gt 0 ] || set -- "${IDGEN_PACKAGES[@]}"
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		if command -v sudo >/dev/null; then
			sudo=sudo
		else
			say "missing packages: ${missing[*]}; install them as root: apt-get install ${missing[*]}"
			return 1
		fi
	fi
	say "installing ${missing[*]}"
	$sudo apt-get update -qq
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null
}

# idgen_locale: the UTF-8 locale IDGEN_LOCALE compiled if this machine does
# not have it (initdb lists it in pg_collation)
idgen_locale() {
	local norm sudo=
	norm=$(echo "${IDGEN_LOCALE%%.*}.utf8")
	locale -a 2>/dev/null | grep -qix "$norm" && return 0
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	say "compiling the locale $IDGEN_LOCALE"
	$sudo localedef -i "${IDGEN_LOCALE%%.*}" -f UTF-8 "$IDGEN_LOCALE" ||
		{ say "cannot compile the locale $IDGEN_LOCALE"; return 1; }
}

# The user that runs servers, and a way to run a command as that user.
if [ "$(id -u)" -eq 0 ]; then
	SERVER_USER=postgres
	as_server() { runuser -u "$SERVER_USER" -- "$@"; }
else
	SERVER_USER=$(id -un)
	as_server() { "$@"; }
fi

# A scratch directory for install trees, clusters and logs; removed on exit
# unless IDGEN_KEEP=1.  IDGEN_WORK is the part of it for the selected
# PostgreSQL major (idgen_pg_select), so runs against several majors never
# share a build, an install tree or a cluster.
idgen_workdir() {
	IDGEN_TOP=$(mktemp -d /tmp/idgen.XXXXXX)
	chmod 755 "$IDGEN_TOP"
	[ "$(id -u)" -eq 0 ] && chown "$SERVER_USER" "$IDGEN_TOP"
	IDGEN_WORK=$IDGEN_TOP
	# the run's own output, which the cleanup writes to: a signal's trap
	# runs inside the command it stopped, with that command's redirections
	# (a suite's log, removed with the scratch directory)
	exec {IDGEN_STDOUT}>&1 {IDGEN_STDERR}>&2
	trap idgen_cleanup EXIT
	# stopped by a signal: an exit status that says so (the EXIT trap would
	# otherwise see the status of the last command that finished, and a run
	# cut short could end on a green line)
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# idgen_faketime_share: one pair of libfaketime's shared objects
# (/dev/shm/sem.faketime_sem_N and /dev/shm/faketime_shm_N) for every
# process of the run that preloads libfaketime, named in FAKETIME_SHARED and
# held by a process of the server's user until the run ends
# (idgen_faketime_unshare).  Without it, a process that preloads
# libfaketime 0.9.10 without FAKETIME_SHARED makes a pair named by its pid,
# which it removes only when it exits normally: a server stopped in
# immediate mode, or any process killed, leaves its pair in /dev/shm, and a
# later process given that pid fails to start ("sem_open failed and
# recreation attempts failed"; libfaketime's README, "Cleaning up shared
# memory").  A spec's program failed so five times in a row.
idgen_faketime_share() {
	local lib
	[ -z "${FAKETIME_SHARED:-}" ] || return 0
	lib=$(ls /usr/lib/*/faketime/libfaketime.so.1 2>/dev/null | head -n 1)
	[ -n "$lib" ] || return 0
	# the shell makes the pair as it starts (named by its pid, which it
	# prints), then becomes the sleep, which keeps it
	exec {IDGEN_FAKETIME_FD}< <(as_server env LD_PRELOAD="$lib" sh -c 'echo $$; exec sleep 2147483647' 2>&1)
	read -r IDGEN_FAKETIME_PID <&"$IDGEN_FAKETIME_FD" || true
	if [[ ${IDGEN_FAKETIME_PID:-} =~ ^[0-9]+$ ]] && [ -e "/dev/shm/faketime_shm_$IDGEN_FAKETIME_PID" ]; then
		export FAKETIME_SHARED="/faketime_sem_$IDGEN_FAKETIME_PID /faketime_shm_$IDGEN_FAKETIME_PID"
	else
		say "libfaketime made no shared objects to share (${IDGEN_FAKETIME_PID:-no pid}): each process makes its own"
		IDGEN_FAKETIME_PID=
	fi
}

# idgen_faketime_unshare: the holder of idgen_faketime_share stopped, its
# pair removed (killed, it cannot remove them itself)
idgen_faketime_unshare() {
	[ -n "${IDGEN_FAKETIME_PID:-}" ] || return 0
	kill "$IDGEN_FAKETIME_PID" 2>/dev/null || true
	rm -f "/dev/shm/sem.faketime_sem_$IDGEN_FAKETIME_PID" "/dev/shm/faketime_shm_$IDGEN_FAKETIME_PID"
	exec {IDGEN_FAKETIME_FD}<&-
	IDGEN_FAKETIME_PID=
	unset FAKETIME_SHARED
}

idgen_cleanup() {
	local rc=$?
	exec 1>&"$IDGEN_STDOUT" 2>&"$IDGEN_STDERR"
	# a background build still running (idgen_pg_prebuild): its whole group
	if [ -n "${IDGEN_PREBUILD_PID:-}" ]; then kill -- -"$IDGEN_PREBUILD_PID" 2>/dev/null || true; fi
	# a suite still running beside the others (tools/test.sh's TAP suite): its whole group
	local pgid
	for pgid in ${IDGEN_BACKGROUND_PGIDS[@]+"${IDGEN_BACKGROUND_PGIDS[@]}"}; do
		kill -- -"$pgid" 2>/dev/null || true
	done
	# and the time to stop what they started in sessions of their own
	# (Patroni's nodes): 60 s, then they are killed
	local i
	for pgid in ${IDGEN_BACKGROUND_PGIDS[@]+"${IDGEN_BACKGROUND_PGIDS[@]}"}; do
		for ((i = 0; i < 60; i++)); do
			kill -0 -- -"$pgid" 2>/dev/null || break
			sleep 1
		done
		kill -KILL -- -"$pgid" 2>/dev/null || true
	done
	[ -n "${PGDATA:-}" ] && [ -f "$PGDATA/postmaster.pid" ] &&
		as_server "$PG_BIN/pg_ctl" -D "$PGDATA" -m immediate stop >/dev/null 2>&1 || true
	# any other server a suite started under the scratch directory
	idgen_stop_servers "$IDGEN_TOP"
	idgen_faketime_unshare
	# the caller's last word (tools/test.sh: the summary line), with the exit status
	if [ -n "${IDGEN_AT_EXIT:-}" ]; then
		"$IDGEN_AT_EXIT" "$rc" || rc=${rc/#0/1}
	fi
	if [ "${IDGEN_KEEP:-0}" = 1 ]; then
		say "kept $IDGEN_TOP"
	else
		rm -rf "$IDGEN_TOP"
	fi
	return $rc
}

# idgen_stop_servers DIR: stop (immediate) every server still running on a
# data directory under DIR, whichever suite started it and whether or not
# that suite got to stop it: the postmaster of each postmaster.pid whose
# working directory is that data directory
idgen_stop_servers() {
	local pidfile pid data
	[ -n "$1" ] && [ -d "$1" ] || return 0
	while IFS= read -r pidfile; do
		data=$(dirname "$pidfile")
		pid=$(head -n 1 "$pidfile" 2>/dev/null) || continue
		[[ "$pid" =~ ^[0-9]+$ ]] || continue
		[ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$(readlink -f "$data")" ] || continue
		say "stopping the server left running in $data"
		kill -QUIT "$pid" 2>/dev/null || true
		for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	done < <(find "$1" -name postmaster.pid 2>/dev/null)
	return 0
}

# idgen_pg_prebuild MAJOR...: build the servers of those majors that are not
# in the cache yet in the background, at the lowest CPU and I/O priority,
# while other work runs; idgen_pg_select of such a major then waits for its
# build through the per-major lock (and builds it itself if this one
# failed).  Log in $IDGEN_TOP/prebuild.log.  Needs idgen_workdir.
#  A build named MAJOR-VARIANT (tools/pgbuild.sh) is
# built after the majors.
idgen_pg_prebuild() {
	local v todo=() citus=() majors=() tle=()
	for v in "$@"; do
		# a vendored source that is not here: nothing to build (its suites skip)
		idgen_pg_absent "$v" >/dev/null && continue
		# pg_tle too, where the portable suite will want it (for Debian's 15 as well)
		if { [ -z "${IDGEN_SUITES:-}" ] || [[ " $IDGEN_SUITES " == *" portable "* ]]; } &&
			[[ " $IDGEN_PG_SUPPORTED " == *" $v "* ]] && ! idgen_pgtle_current "$v" &&
			! idgen_pgtle_absent "$v" >/dev/null; then
			tle+=("$v")
		fi
		[ "$v" = "$IDGEN_PG_DEBIAN" ] && continue
		majors+=("$v")
		idgen_pg_current "$v" || todo+=("$v")
		# Citus too, where the citus suite will want it
		if { [ -z "${IDGEN_SUITES:-}" ] || [[ " $IDGEN_SUITES " == *" citus "* ]]; } &&
			[[ " $IDGEN_CITUS_MAJORS " == *" $v "* ]] && ! idgen_citus_current "$v" &&
			! idgen_citus_absent "$v" >/dev/null; then
			citus+=("$v")
		fi
	done
	[ ${#todo[@]} -gt 0 ] || [ ${#citus[@]} -gt 0 ] || [ ${#tle[@]} -gt 0 ] || return 0
	idgen_deps "${IDGEN_PG_BUILD_PACKAGES[@]}" || return 0
	[ ${#citus[@]} -eq 0 ] || idgen_deps "${IDGEN_CITUS_BUILD_PACKAGES[@]}" || return 0
	[ ${#tle[@]} -eq 0 ] || idgen_deps "${IDGEN_PGTLE_BUILD_PACKAGES[@]}" || return 0
	say "building in the background: PostgreSQL ${todo[*]:-(cached)}, Citus for ${citus[*]:-none}, pg_tle for ${tle[*]:-none} (log: $IDGEN_TOP/prebuild.log)"
	IDGEN_PG_CACHE=$IDGEN_PG_CACHE IDGEN_PG_DEBIAN=$IDGEN_PG_DEBIAN setsid nice -n 19 ionice -c 3 bash -c '
		source "$1/tools/pgbuild.sh"; source "$1/tools/citusbuild.sh"; source "$1/tools/pgtlebuild.sh"; shift
		# Debian'"'"'s 15 first (no server to build), then in the order the
		# majors are tested: a server, then its Citus and pg_tle
		[[ " $3 " == *" $IDGEN_PG_DEBIAN "* ]] && { idgen_pgtle_build "$IDGEN_PG_DEBIAN" || true; }
		for v in $1; do
			idgen_pg_build "$v" || continue
			[[ " $2 " == *" $v "* ]] && { idgen_citus_build "$v" || true; }
			[[ " $3 " == *" $v "* ]] && { idgen_pgtle_build "$v" || true; }
		done' \
		prebuild "$IDGEN_ROOT" "${majors[*]}" "${citus[*]}" "${tle[*]}" >"$IDGEN_TOP/prebuild.log" 2>&1 </dev/null &
	IDGEN_PREBUILD_PID=$!
}

# idgen_pg_select BUILD: build against and run PostgreSQL BUILD from now on
# (PG_MAJOR, PG_BUILD, PG_LABEL, PG_CONFIG, IDGEN_WORK); BUILD is a major or
# a variant build of one (MAJOR-VARIANT, tools/pgbuild.sh).  A build other
# than Debian's own server is built into the cache first if it is not there
# yet.  Needs idgen_workdir.
idgen_pg_select() {
	case " $IDGEN_PG_SUPPORTED " in
	*" ${1%%-*} "*) ;;
	*) say "PostgreSQL $1 is not supported (supported: $IDGEN_PG_SUPPORTED)"; return 1 ;;
	esac
	PG_MAJOR=${1%%-*}
	PG_BUILD=$1
	PG_LABEL=$(idgen_pg_label "$PG_MAJOR")${PG_BUILD#"$PG_MAJOR"}
	# a sanitizer build's programs, pg_config included, run without leak
	# checks: PostgreSQL leaves memory to process exit by design
	case $PG_BUILD in *-asan) export ASAN_OPTIONS=detect_leaks=0 ;; esac
	if [ "$PG_BUILD" = "$IDGEN_PG_DEBIAN" ]; then
		PG_CONFIG=/usr/lib/postgresql/$PG_MAJOR/bin/pg_config
	else
		# explicit returns: callers test this function, which turns off set -e inside it
		idgen_deps "${IDGEN_PG_BUILD_PACKAGES[@]}" || return 1
		idgen_pg_build "$PG_BUILD" || return 1
		PG_CONFIG=$IDGEN_PG_CACHE/$PG_BUILD/bin/pg_config
	fi
	IDGEN_WORK=$IDGEN_TOP/pg$PG_BUILD
	mkdir -p "$IDGEN_WORK"
	[ "$(id -u)" -eq 0 ] && chown "$SERVER_USER" "$IDGEN_WORK"
	PGDATA=
	say "PostgreSQL $("$PG_CONFIG" --version | sed 's/^PostgreSQL //')"
}

# Build in a copy of the tree inside the scratch directory, so runs never
# share or leave build output in the checkout.  Extra CFLAGS (e.g. -Werror)
# as arguments, on top of PostgreSQL's own.
idgen_build() {
	IDGEN_BUILD=$IDGEN_WORK/build
	idgen_copy_tree "$IDGEN_BUILD"
	make -s -C "$IDGEN_BUILD" PG_CONFIG="$PG_CONFIG" PG_CFLAGS="$*"
}

# idgen_say_assertions: whether the selected server, and so idgen built
# against it (pg_config.h defines USE_ASSERT_CHECKING for every file that
# includes postgres.h), checks assertions
idgen_say_assertions() {
	if grep -q '^#define USE_ASSERT_CHECKING 1' "$("$PG_CONFIG" --includedir-server)/pg_config.h"; then
		say "assertions: on (USE_ASSERT_CHECKING)"
	else
		say "assertions: off"
	fi
}

# idgen_copy_tree DIR: the checkout's sources, without build output, in DIR
idgen_copy_tree() {
	mkdir -p "$1"
	tar -C "$IDGEN_ROOT" --exclude=./.git --exclude=./results --exclude='*.o' \
		--exclude='*.so' --exclude='*.bc' --exclude=./idgen.map --exclude=./test/fuzz/corpus-run \
		--exclude=./test/fuzz/fuzz_core --exclude=./test/sim/sim_b36sync --exclude=./test/unit/test_core --exclude=./test/unit/test_random --exclude=./test/unit/test_fixedid -cf - . | tar -C "$1" -xf -
}

# idgen_install_rev REV DIR: idgen at REV (`git archive`; "tree": the
# working tree) built in DIR/build (its log DIR/build.log) and installed as
# idgen_install does (IDGEN_BUILD is then DIR/build)
idgen_install_rev() {
	mkdir -p "$2/build"
	if [ "$1" = tree ]; then
		idgen_copy_tree "$2/build"
	else
		git -C "$IDGEN_ROOT" archive "$1" | tar -C "$2/build" -xf -
	fi
	make -s -C "$2/build" PG_CONFIG="$PG_CONFIG" >"$2/build.log" 2>&1
	IDGEN_BUILD=$2/build
	idgen_install
}

# A private copy of the PostgreSQL tree with idgen installed into it.  The
# binaries find their share and lib directories relative to themselves.
idgen_install() {
	local inst=$IDGEN_WORK/install dir pgxs
	if [ "$PG_BUILD" = "$IDGEN_PG_DEBIAN" ]; then
		mkdir -p "$inst/usr/lib/postgresql" "$inst/usr/share/postgresql"
		cp -a "/usr/lib/postgresql/$PG_MAJOR" "$inst/usr/lib/postgresql/"
		cp -a "/usr/share/postgresql/$PG_MAJOR" "$inst/usr/share/postgresql/"
	else
		dir=$IDGEN_PG_CACHE/$PG_BUILD
		mkdir -p "$inst$(dirname "$dir")"
		cp -a "$dir" "$inst$dir"
	fi
	make -s -C "$IDGEN_BUILD" PG_CONFIG="$PG_CONFIG" install DESTDIR="$inst" >/dev/null
	# idgen_portable, the SQL edition (portable/), beside it
	make -s -C "$IDGEN_BUILD/portable" PG_CONFIG="$PG_CONFIG" install DESTDIR="$inst" >/dev/null
	PG_BIN=$inst$("$PG_CONFIG" --bindir)
	# .../pgxs/src/makefiles/pgxs.mk
	pgxs=$("$PG_CONFIG" --pgxs)
	PGXS_DIR=$inst${pgxs%/src/makefiles/pgxs.mk}
}

# idgen_cluster_start [extra postgresql.conf lines...]: a scratch cluster
# with idgen preloaded, reachable through PGHOST/PGPORT/PGUSER.
idgen_cluster_start() {
	PGDATA=$IDGEN_WORK/data
	local sock=$IDGEN_WORK/sock line
	as_server mkdir -p "$sock"
	as_server "$PG_BIN/initdb" -D "$PGDATA" -U postgres -A trust -E UTF8 --locale=C \
		--no-sync >"$IDGEN_WORK/initdb.log" 2>&1 || { cat "$IDGEN_WORK/initdb.log" >&2; return 1; }
	{
		echo "shared_preload_libraries = 'idgen'"
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$sock'"
		echo "port = 5439"
		echo "fsync = off"
		for line in "$@"; do echo "$line"; done
	} | as_server tee -a "$PGDATA/postgresql.conf" >/dev/null
	# IDGEN_SERVER_ENV: VAR=VALUE words for the server's environment (libfaketime)
	as_server env ${IDGEN_SERVER_ENV[@]+"${IDGEN_SERVER_ENV[@]}"} "$PG_BIN/pg_ctl" -D "$PGDATA" \
		-l "$IDGEN_WORK/server.log" -w start >/dev/null ||
		{ cat "$IDGEN_WORK/server.log" >&2; return 1; }
	export PGHOST=$sock PGPORT=5439 PGUSER=postgres PGDATABASE=postgres
}

# idgen_cluster_start_loopback [extra postgresql.conf lines...]: the same,
# listening on a free loopback port too (PGPORT); for clients without Unix
# sockets.  A port free a moment ago may be taken before the server binds
# it: three tries.
idgen_cluster_start_loopback() {
	local port try
	for try in 1 2 3; do
		port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		as_server rm -rf "$IDGEN_WORK/data"
		if idgen_cluster_start "$@" "listen_addresses = '127.0.0.1'" "port = $port"; then
			export PGPORT=$port
			return 0
		fi
	done
	return 1
}

# Everything up to a running scratch cluster: packages (IDGEN_SETUP_PACKAGES
# when set, else all of IDGEN_PACKAGES), build, install.
idgen_setup_cluster() {
	idgen_deps ${IDGEN_SETUP_PACKAGES[@]+"${IDGEN_SETUP_PACKAGES[@]}"}
	idgen_workdir
	idgen_pg_select "$IDGEN_PG_VERSION"
	say "building"
	idgen_build
	idgen_install
	say "starting a throwaway cluster in $IDGEN_WORK"
	idgen_cluster_start "$@"
}

idgen_cluster_stop() {
	as_server "$PG_BIN/pg_ctl" -D "$PGDATA" -m fast -w stop >/dev/null
}

idgen_psql() {
	"$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$@"
}
