#!/usr/bin/env bash
# tools/pgbuild.sh — PostgreSQL servers that Debian 12 does not package.
#
#   bash tools/pgbuild.sh 17 18       build (or reuse) those majors
#
# Debian 12 ships only PostgreSQL 15.  Debian's archive also serves the source
# packages of newer majors (postgresql-17 in trixie, postgresql-18 in sid);
# this fetches them with `apt-get source` through a private sources list that
# has only deb-src entries, so the system's sources and package lists are
# never touched and no binary package of another release can be installed.
# Each major is built with TAP support and installed, with the contrib
# modules the tests and benchmarks use, into
#
#   ${IDGEN_PG_CACHE:-/var/cache/idgen-pg}/<major>
#
# outside the checkout.  A stamp file written after a successful install
# makes later runs reuse the build.  Sourced by tools/lib.sh (which calls
# idgen_pg_build); also runnable on its own.

# Debian source package and the suite that carries it, per major
declare -A IDGEN_PG_SUITE=([17]=trixie [18]=sid)
if [ "$(id -u)" -eq 0 ]; then
	IDGEN_PG_CACHE=${IDGEN_PG_CACHE:-/var/cache/idgen-pg}
else
	IDGEN_PG_CACHE=${IDGEN_PG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/idgen-pg}
fi
# contrib modules installed next to the server
IDGEN_PG_CONTRIB=(pgstattuple amcheck pageinspect pgcrypto pg_stat_statements)
# what building a server from source needs, on top of tools/lib.sh's list
IDGEN_PG_BUILD_PACKAGES=(dpkg-dev bison flex libreadline-dev zlib1g-dev libssl-dev
	libipc-run-perl)

# The mirror this machine already uses for Debian (first URI of the system's
# deb822 sources or sources.list), so the private list goes to the same place.
idgen_pg_mirror() {
	local uri
	uri=$(grep -hsE '^URIs:.*/debian/?$' /etc/apt/sources.list.d/*.sources | head -n 1 | awk '{print $2}')
	[ -n "$uri" ] || uri=$(grep -hsE '^deb +[^ ]+/debian/? ' /etc/apt/sources.list | head -n 1 | awk '{print $2}')
	echo "${uri:-http://deb.debian.org/debian}"
}

# idgen_pg_fetch MAJOR DIR: unpack the Debian source of postgresql-MAJOR in DIR
idgen_pg_fetch() {
	local major=$1 dir=$2 suite=${IDGEN_PG_SUITE[$1]} apt=$2/apt
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
	cat >"$apt/src.sources" <<-EOF
		Types: deb-src
		URIs: $(idgen_pg_mirror)
		Suites: $suite
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOF
	local opts=(-o "Dir::Etc::sourcelist=$apt/src.sources" -o Dir::Etc::sourceparts=-
		-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
		-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
		-o APT::Sandbox::User=root)
	apt-get "${opts[@]}" -qq update
	# upstream's source as released: Debian's patches move directories and
	# sockets to Debian's places, which a private tree must not have
	(cd "$dir" && apt-get "${opts[@]}" -qq --download-only source "postgresql-$major/$suite" &&
		dpkg-source --skip-patches -x postgresql-"$major"_*.dsc) >"$dir/fetch.log" 2>&1 ||
		{ cat "$dir/fetch.log" >&2; return 1; }
}

# idgen_pg_build MAJOR: the cached server of MAJOR, built if missing.
# Sets nothing; the tree is $IDGEN_PG_CACHE/MAJOR.  Runs that need the same
# major at the same time wait for one build (a lock per major).
idgen_pg_build() {
	local major=$1 fd rc
	[ -f "$IDGEN_PG_CACHE/$major/.idgen-built" ] && return 0
	[ -n "${IDGEN_PG_SUITE[$major]:-}" ] || { echo "idgen: no source suite for PostgreSQL $major" >&2; return 1; }
	mkdir -p "$IDGEN_PG_CACHE"
	exec {fd}>"$IDGEN_PG_CACHE/.lock-$major"
	flock "$fd"
	rc=0
	[ -f "$IDGEN_PG_CACHE/$major/.idgen-built" ] || idgen_pg_build_locked "$major" || rc=$?
	exec {fd}>&-
	return $rc
}

idgen_pg_build_locked() {
	local major=$1 prefix=$IDGEN_PG_CACHE/$1 src log t0 c
	t0=$(date +%s)
	echo "idgen: building PostgreSQL $major from Debian's source package into $prefix (a few minutes, once)" >&2
	rm -rf "$prefix" "$IDGEN_PG_CACHE/src-$major"
	src=$IDGEN_PG_CACHE/src-$major
	mkdir -p "$src"
	idgen_pg_fetch "$major" "$src" || return 1
	src=$(find "$src" -mindepth 1 -maxdepth 1 -type d -name "postgresql-$major-*" | head -n 1)
	[ -n "$src" ] || { echo "idgen: no unpacked source for PostgreSQL $major" >&2; return 1; }
	log=$IDGEN_PG_CACHE/build-$major.log
	(
		cd "$src" &&
			./configure --prefix="$prefix" --enable-tap-tests --with-openssl --without-icu &&
			make -j2 &&
			make install &&
			for c in "${IDGEN_PG_CONTRIB[@]}"; do make -C "contrib/$c" install || exit 1; done &&
			make clean	# keep the source (core's code is a reference), not 200 MB of objects
	) >"$log" 2>&1 || { tail -n 60 "$log" >&2; echo "idgen: building PostgreSQL $major failed, log in $log" >&2; return 1; }
	# the servers run as an unprivileged user and read the tree
	chmod -R a+rX "$prefix"
	"$prefix/bin/pg_config" --version >"$prefix/.idgen-built"
	echo "idgen: built $(cat "$prefix/.idgen-built") in $(($(date +%s) - t0)) s" >&2
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -euo pipefail
	[ $# -gt 0 ] || set -- "${!IDGEN_PG_SUITE[@]}"
	for major in "$@"; do idgen_pg_build "$major"; done
fi
