# tools/lib.sh — shared by tools/test.sh, tools/demo.sh and test/bench.
#
# Installs what is missing (Debian packages), builds, installs into a private
# copy of the PostgreSQL tree (so no root is needed to install, and the system
# server is left alone), and runs scratch clusters as an unprivileged user:
# PostgreSQL refuses to run as root, so as root the server runs as "postgres".

set -euo pipefail

PG_MAJOR=15
IDGEN_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PG_CONFIG=/usr/lib/postgresql/$PG_MAJOR/bin/pg_config

# Debian packages the build, the tests and the benchmarks need
IDGEN_PACKAGES=(make gcc perl postgresql-$PG_MAJOR postgresql-server-dev-$PG_MAJOR
	libssl-dev libipc-run-perl libcmocka-dev clang libclang-rt-14-dev libfaketime openssl
	postgresql-15-plproxy)	# PL/Proxy for test/t/011_plproxy.pl: Debian packages it for 15 only
# the client programs (test/clients) and the Debian package (debian/)
IDGEN_PACKAGES+=(python3-psycopg libpostgresql-jdbc-java default-jdk-headless
	build-essential debhelper dpkg-dev postgresql-server-dev-all)
# Node.js from elsewhere (e.g. NodeSource) brings its own npm
command -v npm >/dev/null || IDGEN_PACKAGES+=(nodejs npm)

say() { printf 'idgen: %s\n' "$*" >&2; }

idgen_deps() {
	local missing=() p sudo=
	for p in "${IDGEN_PACKAGES[@]}"; do
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

# The user that runs servers, and a way to run a command as that user.
if [ "$(id -u)" -eq 0 ]; then
	SERVER_USER=postgres
	as_server() { runuser -u "$SERVER_USER" -- "$@"; }
else
	SERVER_USER=$(id -un)
	as_server() { "$@"; }
fi

# A scratch directory for install tree, clusters and logs; removed on exit
# unless IDGEN_KEEP=1.
idgen_workdir() {
	IDGEN_WORK=$(mktemp -d /tmp/idgen.XXXXXX)
	chmod 755 "$IDGEN_WORK"
	[ "$(id -u)" -eq 0 ] && chown "$SERVER_USER" "$IDGEN_WORK"
	trap idgen_cleanup EXIT
}

idgen_cleanup() {
	local rc=$?
	[ -n "${PGDATA:-}" ] && [ -f "$PGDATA/postmaster.pid" ] &&
		as_server "$PG_BIN/pg_ctl" -D "$PGDATA" -m immediate stop >/dev/null 2>&1 || true
	if [ "${IDGEN_KEEP:-0}" = 1 ]; then
		say "kept $IDGEN_WORK"
	else
		rm -rf "$IDGEN_WORK"
	fi
	return $rc
}

# Build in a copy of the tree inside the scratch directory, so runs never
# share or leave build output in the checkout.  Extra CFLAGS (e.g. -Werror)
# as arguments, on top of PostgreSQL's own.
idgen_build() {
	IDGEN_BUILD=$IDGEN_WORK/build
	mkdir -p "$IDGEN_BUILD"
	tar -C "$IDGEN_ROOT" --exclude=./.git --exclude=./results --exclude='*.o' \
		--exclude='*.so' --exclude='*.bc' --exclude=./test/fuzz/corpus-run \
		--exclude=./test/fuzz/fuzz_core --exclude=./test/unit/test_core --exclude=./test/unit/test_random -cf - . | tar -C "$IDGEN_BUILD" -xf -
	make -s -C "$IDGEN_BUILD" PG_CONFIG="$PG_CONFIG" PG_CFLAGS="$*"
}

# A private copy of the PostgreSQL tree with idgen installed into it.  The
# binaries find their share and lib directories relative to themselves.
idgen_install() {
	local inst=$IDGEN_WORK/install
	mkdir -p "$inst/usr/lib/postgresql" "$inst/usr/share/postgresql"
	cp -a "/usr/lib/postgresql/$PG_MAJOR" "$inst/usr/lib/postgresql/"
	cp -a "/usr/share/postgresql/$PG_MAJOR" "$inst/usr/share/postgresql/"
	make -s -C "$IDGEN_BUILD" PG_CONFIG="$PG_CONFIG" install DESTDIR="$inst" >/dev/null
	PG_BIN=$inst/usr/lib/postgresql/$PG_MAJOR/bin
	PGXS_DIR=$inst/usr/lib/postgresql/$PG_MAJOR/lib/pgxs
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
	as_server "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$IDGEN_WORK/server.log" -w start >/dev/null ||
		{ cat "$IDGEN_WORK/server.log" >&2; return 1; }
	export PGHOST=$sock PGPORT=5439 PGUSER=postgres PGDATABASE=postgres
}

# Everything up to a running scratch cluster: packages, build, install.
idgen_setup_cluster() {
	idgen_deps
	idgen_workdir
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
