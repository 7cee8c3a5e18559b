#!/usr/bin/env bash
# tools/pgtlebuild.sh — pg_tle (Trusted Language Extensions) for the test
# suite, built from the source kept beside the checkout.
#
#   bash tools/pgtlebuild.sh 15 17 18     build (or reuse) pg_tle for those majors
#
# ../shared/vendor/pg_tle-<version>.tar.xz (relative to the checkout; its
# README gives provenance and checksum) is checked against its SHA-256,
# unpacked and built with PGXS against the server of a major (Debian's own
# for 15, the cached build of tools/pgbuild.sh for the others), then
# installed with DESTDIR into
#
#   ${IDGEN_PG_CACHE}/pg_tle-<major>
#
# beside that server, not into it (nor into the system's for 15): a run
# copies it into its private install tree (idgen_pgtle_install).  A stamp
# names the server it was built against; a rebuilt or updated server makes
# pg_tle build again.  On a major outside IDGEN_PGTLE_MAJORS a failed build
# leaves a stamp saying so, with the errors of its log, so that a run does
# not retry it every time but skips pg_tle there with that reason; on the
# others it is an error, retried next time.  Sourced by tools/lib.sh; also
# runnable on its own.

IDGEN_PGTLE_VERSION=1.5.3-2f4b7b3
IDGEN_PGTLE_SHA256=60075d86ea3ccc071940672636222c13f4f0d6b6f8883004ad15b154c8db0e43
IDGEN_PGTLE_TARBALL=${IDGEN_PGTLE_TARBALL:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/../shared/vendor/pg_tle-$IDGEN_PGTLE_VERSION.tar.xz}
# the majors its source says it supports (12 to 18) among idgen's; 19 is tried
IDGEN_PGTLE_MAJORS="15 17 18"
# what building it needs beside the server's headers: the Debian server
# headers include gssapi/gssapi.h
IDGEN_PGTLE_BUILD_PACKAGES=(libkrb5-dev xz-utils)

# idgen_pgtle_pg_config MAJOR: the pg_config of the server pg_tle is built against
idgen_pgtle_pg_config() {
	if [ "$1" = "${IDGEN_PG_DEBIAN:-15}" ]; then
		echo "/usr/lib/postgresql/$1/bin/pg_config"
	else
		echo "$IDGEN_PG_CACHE/$1/bin/pg_config"
	fi
}

# idgen_pgtle_server MAJOR: what the stamp records of that server: for a
# cached build, its whole stamp on one line (version and configure
# arguments), so that a server configured anew gets pg_tle built anew, as
# Citus (tools/citusbuild.sh)
idgen_pgtle_server() {
	local pgc
	pgc=$(idgen_pgtle_pg_config "$1")
	[ -x "$pgc" ] || return 1
	if [ "$1" = "${IDGEN_PG_DEBIAN:-15}" ]; then
		"$pgc" --version
	else
		[ -f "$IDGEN_PG_CACHE/$1/.idgen-built" ] && paste -sd' ' "$IDGEN_PG_CACHE/$1/.idgen-built"
	fi
}

# idgen_pgtle_current MAJOR: is the cached pg_tle (or its failure) of the server as it is?
idgen_pgtle_current() {
	local stamp=$IDGEN_PG_CACHE/pg_tle-$1/.idgen-built server
	server=$(idgen_pgtle_server "$1") || return 1
	[ -f "$stamp" ] && [ "$(head -n 1 "$stamp")" = "pg_tle $IDGEN_PGTLE_VERSION on $server" ] &&
		# a build installed (DESTDIR) under the server's paths as they are
		# now: a cache moved elsewhere has it under the old ones
		{ ! idgen_pgtle_built "$1" ||
			[ -d "$IDGEN_PG_CACHE/pg_tle-$1$("$(idgen_pgtle_pg_config "$1")" --pkglibdir)" ]; }
}

# idgen_pgtle_built MAJOR: did pg_tle build for that server?  (after idgen_pgtle_build)
idgen_pgtle_built() {
	[ "$(sed -n 2p "$IDGEN_PG_CACHE/pg_tle-$1/.idgen-built" 2>/dev/null)" = built ]
}

# idgen_pgtle_failure MAJOR: why it did not build (the end of its log)
idgen_pgtle_failure() {
	sed -n '3,$p' "$IDGEN_PG_CACHE/pg_tle-$1/.idgen-built" 2>/dev/null
}

# idgen_pgtle_absent MAJOR: why pg_tle cannot be had for MAJOR when its
# source is not beside the checkout (a plain clone) and no build of it is
# cached; nothing (status 1) otherwise
idgen_pgtle_absent() {
	idgen_pgtle_current "$1" && return 1
	[ ! -f "$IDGEN_PGTLE_TARBALL" ] || return 1
	echo "pg_tle's source $(basename "$IDGEN_PGTLE_TARBALL") is not in $(dirname "$IDGEN_PGTLE_TARBALL") (see CONTRIBUTING.md)"
}

# idgen_pgtle_build MAJOR: pg_tle for the server of MAJOR, built if not
# tried yet against it.  Returns 0 once tried (idgen_pgtle_built tells the
# outcome on a major outside IDGEN_PGTLE_MAJORS), 1 if it could not be tried
# (no server, no source) or failed on one of IDGEN_PGTLE_MAJORS.  A lock per
# major, as for the server.
idgen_pgtle_build() {
	local major=$1 fd rc
	idgen_pgtle_current "$major" && return 0
	mkdir -p "$IDGEN_PG_CACHE"
	exec {fd}>"$IDGEN_PG_CACHE/.lock-pg_tle-$major"
	flock "$fd"
	rc=0
	idgen_pgtle_current "$major" || idgen_pgtle_build_locked "$major" || rc=$?
	exec {fd}>&-
	return $rc
}

idgen_pgtle_build_locked() {
	local major=$1 prefix=$IDGEN_PG_CACHE/pg_tle-$1 src=$IDGEN_PG_CACHE/pg_tle-src-$1 pgc server log t0
	t0=$(date +%s)
	pgc=$(idgen_pgtle_pg_config "$major")
	server=$(idgen_pgtle_server "$major") ||
		{ echo "idgen: pg_tle: no PostgreSQL $major to build against ($pgc)" >&2; return 1; }
	[ -f "$IDGEN_PGTLE_TARBALL" ] ||
		{ echo "idgen: pg_tle: source $IDGEN_PGTLE_TARBALL is missing" >&2; return 1; }
	if [ "$(sha256sum <"$IDGEN_PGTLE_TARBALL" | cut -d' ' -f1)" != "$IDGEN_PGTLE_SHA256" ]; then
		echo "idgen: pg_tle: $IDGEN_PGTLE_TARBALL does not have SHA-256 $IDGEN_PGTLE_SHA256; refused" >&2
		return 1
	fi
	rm -rf "$prefix" "$src"
	mkdir -p "$src" "$prefix"
	# explicit returns: callers test this function, which turns off set -e inside it
	tar -C "$src" -xJf "$IDGEN_PGTLE_TARBALL" ||
		{ echo "idgen: pg_tle: $IDGEN_PGTLE_TARBALL does not unpack" >&2; return 1; }
	log=$IDGEN_PG_CACHE/build-pg_tle-$major.log
	if (
		cd "$src/pg_tle-$IDGEN_PGTLE_VERSION" &&
			make -j"$(nproc)" PG_CONFIG="$pgc" &&
			make install PG_CONFIG="$pgc" DESTDIR="$prefix"
	) >"$log" 2>&1; then
		chmod -R a+rX "$prefix"
		printf '%s\n%s\n' "pg_tle $IDGEN_PGTLE_VERSION on $server" built >"$prefix/.idgen-built"
		echo "idgen: built pg_tle $IDGEN_PGTLE_VERSION for PostgreSQL $major in $(($(date +%s) - t0)) s" >&2
	elif [[ " $IDGEN_PGTLE_MAJORS " == *" $major "* ]]; then
		rm -rf "$src" "$prefix"
		tail -n 30 "$log" >&2
		echo "idgen: building pg_tle $IDGEN_PGTLE_VERSION for PostgreSQL $major failed, log in $log" >&2
		return 1
	else
		# a major its source does not claim: the failure is kept as the
		# reason a run skips pg_tle on this server
		rm -rf "${prefix:?}"/*
		{
			echo "pg_tle $IDGEN_PGTLE_VERSION on $server"
			echo failed
			grep -E 'error:|Error [0-9]' "$log" | head -n 5
		} >"$prefix/.idgen-built"
		echo "idgen: pg_tle $IDGEN_PGTLE_VERSION does not build for PostgreSQL $major, log in $log" >&2
	fi
	rm -rf "$src"
}

# idgen_pgtle_install: the cached pg_tle of PG_MAJOR (built if not tried)
# into the run's private install tree (idgen_install made it); 1 if there
# is none for this server (idgen_pgtle_failure says why).
idgen_pgtle_install() {
	idgen_pgtle_build "$PG_MAJOR" && idgen_pgtle_built "$PG_MAJOR" || return 1
	cp -a "$IDGEN_PG_CACHE/pg_tle-$PG_MAJOR/." "$IDGEN_WORK/install/" || return 1
	rm -f "$IDGEN_WORK/install/.idgen-built"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -euo pipefail
	source "$(dirname "$0")/pgbuild.sh"	# IDGEN_PG_CACHE
	[ $# -gt 0 ] || set -- $IDGEN_PGTLE_MAJORS
	for major in "$@"; do
		idgen_pgtle_build "$major"
		if idgen_pgtle_built "$major"; then echo "pg_tle for $major: built"; else echo "pg_tle for $major: does not build: $(idgen_pgtle_failure "$major")"; fi
	done
fi
