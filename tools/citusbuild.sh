#!/usr/bin/env bash
# tools/citusbuild.sh — Citus for the test suite, built from the release
# source kept beside the checkout.
#
#   bash tools/citusbuild.sh 17 18     build (or reuse) Citus for those majors
#
# ../shared/vendor/citus-14.0.1.tar.xz (relative to the checkout; its README
# gives provenance and checksum) is checked against its SHA-256, unpacked
# and built against the cached server of a major (tools/pgbuild.sh), then
# installed with DESTDIR into
#
#   ${IDGEN_PG_CACHE}/citus-<major>
#
# beside that server, not into it: the server's tree stays as pgbuild.sh
# made it, and a run copies both into its private install tree
# (idgen_citus_install).  dblink, from the server's kept source, is
# installed the same way: idgen_check_worker_ids() uses it for nodes given
# by connection string.  A stamp names the server it was built against; a
# rebuilt server makes Citus build again.  Sourced by tools/lib.sh; also
# runnable on its own (after tools/pgbuild.sh).

IDGEN_CITUS_VERSION=14.0.1
IDGEN_CITUS_SHA256=7faf8877103ab67eb642c0b251b0e1da796e9e7c890ee6c82ff08ac8f9e81d83
IDGEN_CITUS_TARBALL=${IDGEN_CITUS_TARBALL:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/../shared/vendor/citus-$IDGEN_CITUS_VERSION.tar.xz}
# the majors Citus 14 supports among idgen's
IDGEN_CITUS_MAJORS="17 18"
# what building Citus needs beside the server's own build dependencies
IDGEN_CITUS_BUILD_PACKAGES=(liblz4-dev libzstd-dev xz-utils)

# idgen_citus_build MAJOR: Citus (and dblink) for the cached server of
# MAJOR, built if missing.  The tree is $IDGEN_PG_CACHE/citus-MAJOR.  A lock
# per major, as for the server.
idgen_citus_build() {
	local major=$1 fd rc
	idgen_citus_current "$major" && return 0
	mkdir -p "$IDGEN_PG_CACHE"
	exec {fd}>"$IDGEN_PG_CACHE/.lock-citus-$major"
	flock "$fd"
	rc=0
	idgen_citus_current "$major" || idgen_citus_build_locked "$major" || rc=$?
	exec {fd}>&-
	return $rc
}

# idgen_citus_absent MAJOR: why Citus cannot be had for MAJOR when its
# source is not beside the checkout (a plain clone) and no build of it is
# cached; nothing (status 1) otherwise
idgen_citus_absent() {
	idgen_citus_current "$1" && return 1
	[ ! -f "$IDGEN_CITUS_TARBALL" ] || return 1
	echo "Citus's source $(basename "$IDGEN_CITUS_TARBALL") is not in $(dirname "$IDGEN_CITUS_TARBALL") (see CONTRIBUTING.md)"
}

# idgen_citus_current MAJOR: is the cached Citus built against the cached server?
idgen_citus_current() {
	local stamp=$IDGEN_PG_CACHE/citus-$1/.idgen-built
	[ -f "$stamp" ] && [ -f "$IDGEN_PG_CACHE/$1/.idgen-built" ] &&
		[ "$(cat "$stamp")" = "Citus $IDGEN_CITUS_VERSION on $(cat "$IDGEN_PG_CACHE/$1/.idgen-built")" ] &&
		# installed (DESTDIR) under the server's paths as they are now: a
		# cache moved elsewhere has it under the old ones
		[ -d "$IDGEN_PG_CACHE/citus-$1$("$IDGEN_PG_CACHE/$1/bin/pg_config" --pkglibdir)" ]
}

idgen_citus_build_locked() {
	local major=$1 prefix=$IDGEN_PG_CACHE/citus-$1 pgc=$IDGEN_PG_CACHE/$1/bin/pg_config src log t0 pgsrc
	t0=$(date +%s)
	[ -x "$pgc" ] && [ -f "$IDGEN_PG_CACHE/$major/.idgen-built" ] ||
		{ echo "idgen: Citus: no built PostgreSQL $major in $IDGEN_PG_CACHE (tools/pgbuild.sh $major)" >&2; return 1; }
	[ -f "$IDGEN_CITUS_TARBALL" ] ||
		{ echo "idgen: Citus: source $IDGEN_CITUS_TARBALL is missing" >&2; return 1; }
	if [ "$(sha256sum <"$IDGEN_CITUS_TARBALL" | cut -d' ' -f1)" != "$IDGEN_CITUS_SHA256" ]; then
		echo "idgen: Citus: $IDGEN_CITUS_TARBALL does not have SHA-256 $IDGEN_CITUS_SHA256; refused" >&2
		return 1
	fi
	echo "idgen: building Citus $IDGEN_CITUS_VERSION for PostgreSQL $major into $prefix (several minutes, once)" >&2
	rm -rf "$prefix" "$IDGEN_PG_CACHE/citus-src-$major"
	src=$IDGEN_PG_CACHE/citus-src-$major
	mkdir -p "$src"
	# explicit returns: callers test this function, which turns off set -e inside it
	tar -C "$src" -xJf "$IDGEN_CITUS_TARBALL" ||
		{ echo "idgen: Citus: $IDGEN_CITUS_TARBALL does not unpack" >&2; return 1; }
	src=$src/citus-$IDGEN_CITUS_VERSION
	pgsrc=$(find "$IDGEN_PG_CACHE/src-$major" -mindepth 1 -maxdepth 1 -type d -name "postgresql-$major.*" 2>/dev/null | head -n 1)
	log=$IDGEN_PG_CACHE/build-citus-$major.log
	(
		cd "$src" &&
			./configure --without-libcurl PG_CONFIG="$pgc" &&
			make -j"$(nproc)" &&
			make install DESTDIR="$prefix" &&
			if [ -n "$pgsrc" ]; then
				make -C "$pgsrc/contrib/dblink" USE_PGXS=1 PG_CONFIG="$pgc" -j"$(nproc)" &&
					make -C "$pgsrc/contrib/dblink" USE_PGXS=1 PG_CONFIG="$pgc" install DESTDIR="$prefix" &&
					make -C "$pgsrc/contrib/dblink" USE_PGXS=1 PG_CONFIG="$pgc" clean
			fi
	) >"$log" 2>&1 || { tail -n 60 "$log" >&2; echo "idgen: building Citus for PostgreSQL $major failed, log in $log" >&2; return 1; }
	rm -rf "$IDGEN_PG_CACHE/citus-src-$major"
	chmod -R a+rX "$prefix"
	echo "Citus $IDGEN_CITUS_VERSION on $(cat "$IDGEN_PG_CACHE/$major/.idgen-built")" >"$prefix/.idgen-built"
	echo "idgen: built Citus $IDGEN_CITUS_VERSION for PostgreSQL $major in $(($(date +%s) - t0)) s" >&2
}

# idgen_citus_install: the cached Citus of PG_MAJOR (built if missing) into
# the run's private install tree (idgen_install made it).
idgen_citus_install() {
	idgen_citus_build "$PG_MAJOR" || return 1
	cp -a "$IDGEN_PG_CACHE/citus-$PG_MAJOR/." "$IDGEN_WORK/install/" || return 1
	rm -f "$IDGEN_WORK/install/.idgen-built"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -euo pipefail
	source "$(dirname "$0")/pgbuild.sh"	# IDGEN_PG_CACHE
	[ $# -gt 0 ] || set -- $IDGEN_CITUS_MAJORS
	for major in "$@"; do idgen_citus_build "$major"; done
fi
