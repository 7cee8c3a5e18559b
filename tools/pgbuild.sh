#!/usr/bin/env bash
# tools/pgbuild.sh — PostgreSQL servers that Debian 12 does not package.
#
#   bash tools/pgbuild.sh 17 18       build (or reuse) those majors
#
# Debian 12 ships only PostgreSQL 15.  Debian's archive also carries the
# newer majors' sources (postgresql-17 in trixie, postgresql-18 in forky and
# sid).  The upstream release tarball of a major (Debian's .orig.tar.bz2,
# which is PostgreSQL's own release, unpatched) is fetched from the mirror
# this machine's apt sources already use, checked against a SHA-256, and
# built with TAP support and the contrib modules the tests use into
#
#   ${IDGEN_PG_CACHE:-/var/cache/idgen-pg}/<major>
#
# outside the checkout.  A stamp file written after a successful install
# makes later runs reuse the build.  Sourced by tools/lib.sh (which calls
# idgen_pg_build); also runnable on its own.
#
# Which tarball: first every version Debian's signed Sources index names for
# the major (its checksum from the index), newest first; then the pinned
# releases below (checksums taken from their .dsc).  An index can name a
# version before the mirror serves its files, and a tarball leaves the pool
# some time after a newer one replaces it: the pins keep a build possible in
# between.  A tarball whose checksum differs is refused.

# suites of Debian's archive whose Sources index carries the major
declare -A IDGEN_PG_SUITE=([17]="trixie" [18]="forky sid")
# Majors built from a release source kept beside the checkout instead
# (../shared/vendor, relative to the checkout; its README gives provenance
# and checksum): "FILE SHA256".  Debian's archive names 19's tarballs
# but does not serve them.
declare -A IDGEN_PG_VENDORED=([19]="postgresql-19beta1.tar.xz f6ca515d36fe5e090523c718f27e4bab9581fe4efcf0d2145e61841f6febf060")
# what a test calls such a major (a beta is never called by the major alone)
declare -A IDGEN_PG_LABEL=([19]="19beta1")
idgen_pg_label() { echo "${IDGEN_PG_LABEL[$1]:-$1}"; }
IDGEN_PG_VENDOR_DIR=${IDGEN_PG_VENDOR_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/../shared/vendor}
# What every server is configured with: only what the tests use (no
# readline: psql runs scripts; no ICU, no documentation).
IDGEN_PG_CONFIGURE=(--enable-tap-tests --with-openssl --without-icu --without-readline)
# On top of that, per build: 18 with assertions (as PostgreSQL's own
# buildfarm and CI, Citus and pgvector test), 15 (Debian's) and 17 stay
# release builds.  A build named MAJOR-VARIANT is a further server of that
# major, compiled from the source the plain build of MAJOR keeps: "asan"
# with AddressSanitizer and UndefinedBehaviorSanitizer (PostgreSQL's CI
# flags: src/tools/ci, .cirrus.tasks.yml), "exec" with EXEC_BACKEND (every
# child process re-executes the server binary, as on Windows), "release"
# without assertions, for the benchmarks of a major whose plain build has
# them (test/bench/bench.sh builds it on first use; the tests never do).
# A build configured with --enable-injection-points (18, and 17-asan,
# where idgen's points compile as 17 names them: base36id's injection
# points, test/t/045) also gets core's injection_points test module
# (src/test/modules/injection_points) installed, in the same step.
# The arguments are separated by "|".
declare -A IDGEN_PG_CONFIGURE_EXTRA=(
	[18]="--enable-cassert|--enable-debug|--enable-injection-points"
	[18-release]=""
	[17-asan]="--enable-cassert|--enable-debug|--enable-injection-points|CFLAGS=-Og -ggdb -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all|LDFLAGS=-fsanitize=address,undefined"
	[17-exec]="--enable-cassert|--enable-debug|CPPFLAGS=-DEXEC_BACKEND"
)
# Pinned releases, newest first per major: "MAJOR VERSION SHA256" of
# postgresql-MAJOR_VERSION.orig.tar.bz2 as Debian's .dsc lists it.
IDGEN_PG_PINNED=(
	"17 17.11 dd27f2b3c59e73ed14aa3324901242bf69a032a6347805f274e6260322d42979"	# 17.11-0+deb13u1
	"17 17.10 078a03516dcdbdb705fecaf415ea3d13a956c589e46f09fed68a06fb00598c90"	# 17.10-0+deb13u1
	"18 18.6 555610c24d53e4316da5b7d3fc25c279d96856d5e0e23ee308c328c5fa881d9f"	# 18.6-3
)
if [ "$(id -u)" -eq 0 ]; then
	IDGEN_PG_CACHE=${IDGEN_PG_CACHE:-/var/cache/idgen-pg}
else
	IDGEN_PG_CACHE=${IDGEN_PG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/idgen-pg}
fi
# contrib modules installed next to the server
IDGEN_PG_CONTRIB=(pgstattuple amcheck pageinspect pgcrypto pg_stat_statements)
# what building a server from source needs, on top of tools/lib.sh's list
IDGEN_PG_BUILD_PACKAGES=(bison flex zlib1g-dev libssl-dev libipc-run-perl bzip2)
# the apt sources the mirror is read from (a test points this elsewhere)
IDGEN_APT_SOURCES=${IDGEN_APT_SOURCES:-/etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list}

# idgen_pg_mirror: the Debian archive this machine's apt sources use, as
# "URI|Signed-By|Trusted" (the last two may be empty).  The first
# entry whose URI ends in /debian (not debian-security, not another vendor's
# archive) wins.  Nothing when there is none.
idgen_pg_mirror() {
	local f
	# shellcheck disable=SC2086	# a list of paths and globs
	for f in $IDGEN_APT_SOURCES; do
		[ -f "$f" ] || continue
		case $f in
		*.sources)
			# deb822 stanzas: one record per paragraph
			awk -v RS= -F'\n' '{
				uri = signed = trusted = ""
				for (i = 1; i <= NF; i++) {
					if ($i ~ /^URIs:/) { sub(/^URIs:[ \t]*/, "", $i); split($i, u, /[ \t]+/); uri = u[1] }
					if ($i ~ /^Signed-By:/) { sub(/^Signed-By:[ \t]*/, "", $i); signed = $i }
					if ($i ~ /^Trusted:/) { sub(/^Trusted:[ \t]*/, "", $i); trusted = $i }
				}
				if (uri ~ /\/debian\/?$/) { sub(/\/$/, "", uri); printf "%s|%s|%s\n", uri, signed, trusted }
			}' "$f"
			;;
		*)
			# one-line form: deb [options] URI suite components
			awk '$1 == "deb" || $1 == "deb-src" {
				signed = trusted = ""; i = 2
				if ($2 ~ /^\[/) {
					for (; i <= NF; i++) {
						if ($i ~ /signed-by=/) { s = $i; sub(/.*signed-by=/, "", s); sub(/\]$/, "", s); signed = s }
						if ($i ~ /trusted=yes/) trusted = "yes"
						if ($i ~ /\]$/) { i++; break }
					}
				}
				uri = $i
				if (uri ~ /\/debian\/?$/) { sub(/\/$/, "", uri); printf "%s|%s|%s\n", uri, signed, trusted }
			}' "$f"
			;;
		esac
	done | head -n 1
}

# idgen_pg_fetch MAJOR DIR: the upstream source of PostgreSQL MAJOR unpacked
# in DIR/postgresql-VERSION; says on one line what it tried when it fails.
idgen_pg_fetch() {
	local major=$1 dir=$2 apt=$2/apt mirror uri signed trusted opts cands=() tried=() seen=() c v sum pool file
	mirror=$(idgen_pg_mirror)
	if [ -z "$mirror" ]; then
		echo "idgen: PostgreSQL $major: no Debian archive in this machine's apt sources ($IDGEN_APT_SOURCES); add one (a 'deb' entry for .../debian) to fetch the server's source" >&2
		return 1
	fi
	IFS='|' read -r uri signed trusted <<<"$mirror"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
	{
		echo "Types: deb-src"
		echo "URIs: $uri"
		echo "Suites: ${IDGEN_PG_SUITE[$major]}"
		echo "Components: main"
		[ -n "$signed" ] && echo "Signed-By: $signed"
		[ -n "$trusted" ] && echo "Trusted: $trusted"
	} >"$apt/src.sources"
	opts=(-o "Dir::Etc::sourcelist=$apt/src.sources" -o Dir::Etc::sourceparts=-
		-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
		-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o APT::Sandbox::User=root)
	# The signed index's versions with their tarball checksums, newest first.
	# An index that cannot be had leaves only the pins.
	if apt-get "${opts[@]}" -qq update >"$dir/fetch.log" 2>&1; then
		while read -r v sum; do
			cands+=("$v $sum")
		done < <(apt-cache "${opts[@]}" showsrc "postgresql-$major" 2>>"$dir/fetch.log" | awk -v major="$major" '
			/^Package: / { pkg = $2 }
			/^Checksums-Sha256:/ { in_sums = 1; next }
			/^[^ ]/ { in_sums = 0 }
			in_sums && pkg == "postgresql-" major && $3 ~ /\.orig\.tar\.(bz2|gz|xz)$/ {
				v = $3; sub("^postgresql-" major "_", "", v); sub(/\.orig\.tar\..*$/, "", v)
				print v, $1
			}' | sort -u -k1,1 | sort -V -r -k1,1)
	else
		tried+=("Sources index of ${IDGEN_PG_SUITE[$major]} (apt-get update failed: $(grep -m1 -E '^(E|Err)' "$dir/fetch.log" | cut -c1-120))")
	fi
	for c in "${IDGEN_PG_PINNED[@]}"; do
		set -- $c
		[ "$1" = "$major" ] && cands+=("$2 $3")
	done
	pool=$uri/pool/main/p/postgresql-$major
	for c in "${cands[@]}"; do
		read -r v sum <<<"$c"
		# a version both in the index and pinned is tried once, with the index's sum
		[[ " ${seen[*]-} " == *" $v "* ]] && continue
		seen+=("$v")
		file=postgresql-${major}_$v.orig.tar.bz2
		rm -f "$dir/$file"
		if ! /usr/lib/apt/apt-helper -o APT::Sandbox::User=root download-file "$pool/$file" "$dir/$file" \
			>>"$dir/fetch.log" 2>&1; then
			tried+=("$v: not served;")
			continue
		fi
		if [ "$(sha256sum <"$dir/$file" | cut -d' ' -f1)" != "$sum" ]; then
			tried+=("$v: checksum differs;")
			rm -f "$dir/$file"
			continue
		fi
		if ! tar -C "$dir" -xjf "$dir/$file" >>"$dir/fetch.log" 2>&1 || [ ! -d "$dir/postgresql-$v" ]; then
			tried+=("$v: does not unpack;")
			rm -rf "$dir/$file" "$dir/postgresql-$v"
			continue
		fi
		rm -f "$dir/$file"
		echo "idgen: PostgreSQL $major: source $file (sha256 $sum) from $pool${tried[*]:+ (passed over: ${tried[*]})}" >&2
		return 0
	done
	echo "idgen: PostgreSQL $major: no source could be had from $pool; tried ${tried[*]:-nothing (no version known)}" >&2
	return 1
}

# idgen_pg_configure_args BUILD: the configure arguments of BUILD (a major,
# or MAJOR-VARIANT), one per line
idgen_pg_configure_args() {
	local a
	printf '%s\n' "${IDGEN_PG_CONFIGURE[@]}"
	IFS='|' read -r -a a <<<"${IDGEN_PG_CONFIGURE_EXTRA[$1]:-}"
	[ ${#a[@]} -eq 0 ] || printf '%s\n' "${a[@]}"
}

# idgen_pg_release_build MAJOR: the build of MAJOR a benchmark runs on: the
# plain build when it has no assertions, else its "release" variant
idgen_pg_release_build() {
	# (no pipe into grep -q: under pipefail its early exit can fail the pipe)
	if [[ $'\n'"$(idgen_pg_configure_args "$1")"$'\n' == *$'\n--enable-cassert\n'* ]]; then
		if [ -z "${IDGEN_PG_CONFIGURE_EXTRA[$1-release]+set}" ]; then
			echo "idgen: PostgreSQL $1 is built with assertions and has no release variant ($1-release) in IDGEN_PG_CONFIGURE_EXTRA" >&2
			return 1
		fi
		echo "$1-release"
	else
		echo "$1"
	fi
}

# idgen_pg_current BUILD: is BUILD in the cache, configured as it is today?
# The stamp's second line records the configure arguments; a stamp without
# it (written before it was recorded) stands for a plain build.
idgen_pg_current() {
	local stamp=$IDGEN_PG_CACHE/$1/.idgen-built want have
	[ -f "$stamp" ] || return 1
	want="configure: $(idgen_pg_configure_args "$1" | paste -sd' ')"
	have=$(sed -n 2p "$stamp")
	[ -n "$have" ] || have="configure: ${IDGEN_PG_CONFIGURE[*]}"
	[ "$have" = "$want" ]
}

# idgen_pg_build BUILD: the cached server of BUILD (a major, or
# MAJOR-VARIANT), built if missing or configured otherwise.  Sets nothing;
# the tree is $IDGEN_PG_CACHE/BUILD.  Runs that need the same build at the
# same time wait for one build (a lock per build).
idgen_pg_build() {
	local build=$1 major=${1%%-*} fd rc
	idgen_pg_current "$build" && return 0
	if [ "$build" = "$major" ] && [ -z "${IDGEN_PG_SUITE[$major]:-}" ] && [ -z "${IDGEN_PG_VENDORED[$major]:-}" ]; then
		echo "idgen: no source for PostgreSQL $major" >&2
		return 1
	fi
	# a variant compiles the source the plain build of its major keeps
	[ "$build" = "$major" ] || idgen_pg_build "$major" || return 1
	mkdir -p "$IDGEN_PG_CACHE"
	exec {fd}>"$IDGEN_PG_CACHE/.lock-$build"
	flock "$fd"
	rc=0
	idgen_pg_current "$build" || idgen_pg_build_locked "$build" || rc=$?
	exec {fd}>&-
	return $rc
}

# idgen_pg_vendored MAJOR DIR: the vendored source of MAJOR, checked and
# unpacked in DIR
idgen_pg_vendored() {
	local file sum tarball
	read -r file sum <<<"${IDGEN_PG_VENDORED[$1]}"
	tarball=$IDGEN_PG_VENDOR_DIR/$file
	[ -f "$tarball" ] || { echo "idgen: PostgreSQL $1: source $tarball is missing" >&2; return 1; }
	if [ "$(sha256sum <"$tarball" | cut -d' ' -f1)" != "$sum" ]; then
		echo "idgen: PostgreSQL $1: $tarball does not have SHA-256 $sum; refused" >&2
		return 1
	fi
	tar -C "$2" -xJf "$tarball" || { echo "idgen: PostgreSQL $1: $tarball does not unpack" >&2; return 1; }
	echo "idgen: PostgreSQL $1: source $file (sha256 $sum)" >&2
}

# idgen_pg_absent BUILD: why BUILD cannot be had on this machine, when its
# major is built from a vendored source that is not beside the checkout
# (a plain clone) and no current build is cached; nothing (status 1) when
# it can be built or is built.  A suite of such a major is skipped with
# this reason, never failed.
idgen_pg_absent() {
	local major=${1%%-*} file sum
	[ -n "${IDGEN_PG_VENDORED[$major]:-}" ] || return 1
	idgen_pg_current "$1" && return 1
	# a variant is built from its major's kept source
	[ "$1" != "$major" ] && [ -n "$(idgen_pg_source "$major")" ] && return 1
	read -r file sum <<<"${IDGEN_PG_VENDORED[$major]}"
	[ ! -f "$IDGEN_PG_VENDOR_DIR/$file" ] || return 1
	echo "PostgreSQL $(idgen_pg_label "$major")'s source $file is not in $IDGEN_PG_VENDOR_DIR (see CONTRIBUTING.md)"
}

# idgen_pg_source MAJOR: the unpacked source the build of MAJOR keeps
idgen_pg_source() {
	find "$IDGEN_PG_CACHE/src-$1" -mindepth 1 -maxdepth 1 -type d -name "postgresql-$1[.a-z]*" 2>/dev/null | head -n 1
}

idgen_pg_build_locked() {
	local build=$1 major=${1%%-*} prefix=$IDGEN_PG_CACHE/$1 src log t0 c args=()
	t0=$(date +%s)
	mapfile -t args < <(idgen_pg_configure_args "$build")
	rm -rf "$prefix"
	if [ "$build" = "$major" ]; then
		echo "idgen: building PostgreSQL $major from its release source into $prefix (a few minutes, once)" >&2
		rm -rf "$IDGEN_PG_CACHE/src-$major"
		src=$IDGEN_PG_CACHE/src-$major
		mkdir -p "$src"
		if [ -n "${IDGEN_PG_VENDORED[$major]:-}" ]; then
			idgen_pg_vendored "$major" "$src" || return 1
		else
			idgen_pg_fetch "$major" "$src" || return 1
			rm -rf "$src/apt"
		fi
		src=$(idgen_pg_source "$major")
		[ -n "$src" ] || { echo "idgen: no unpacked source for PostgreSQL $major" >&2; return 1; }
	else
		# a copy of the major's kept source, unconfigured, built in place
		# and removed after (a VPATH build refuses a configured source)
		echo "idgen: building PostgreSQL $major ($build) from the kept source into $prefix (several minutes, once)" >&2
		c=$(idgen_pg_source "$major")
		[ -n "$c" ] || { echo "idgen: no kept source for PostgreSQL $major in $IDGEN_PG_CACHE/src-$major" >&2; return 1; }
		src=$IDGEN_PG_CACHE/build-src-$build
		rm -rf "$src"
		cp -a "$c" "$src" && { [ ! -f "$src/config.status" ] || make -C "$src" -s distclean >/dev/null; } ||
			{ echo "idgen: cannot copy the source of PostgreSQL $major" >&2; return 1; }
	fi
	log=$IDGEN_PG_CACHE/build-$build.log
	(
		cd "$src" &&
			./configure --prefix="$prefix" "${args[@]}" &&
			make -j"$(nproc)" &&
			make install &&
			for c in "${IDGEN_PG_CONTRIB[@]}"; do make -C "contrib/$c" -j"$(nproc)" install || exit 1; done &&
			{ [[ " ${args[*]} " != *" --enable-injection-points "* ]] ||
				make -C src/test/modules/injection_points -j"$(nproc)" install; } &&
			make clean	# keep the source (core's code is a reference), not 200 MB of objects
	) >"$log" 2>&1 || { tail -n 60 "$log" >&2; echo "idgen: building PostgreSQL $build failed, log in $log" >&2; return 1; }
	[ "$build" = "$major" ] || rm -rf "$src"
	# the servers run as an unprivileged user and read the tree
	chmod -R a+rX "$prefix"
	{
		# a sanitizer build's pg_config too reports PostgreSQL's by-design leaks at exit
		ASAN_OPTIONS=detect_leaks=0 "$prefix/bin/pg_config" --version
		echo "configure: ${args[*]}"
	} >"$prefix/.idgen-built" || { echo "idgen: the new pg_config of $build does not run" >&2; return 1; }
	echo "idgen: built $build: $(head -n 1 "$prefix/.idgen-built") (${args[*]}) in $(($(date +%s) - t0)) s" >&2
}

if [ "${BASH_SOURCE[0]}" = "$0" ] && [ -z "${IDGEN_PGBUILD_MAIN:-}" ]; then
	set -euo pipefail
	# on its own, it installs what a build needs as tools/lib.sh does (which
	# sources this file again: the guard keeps that from running this block)
	IDGEN_PGBUILD_MAIN=1
	source "$(dirname "$0")/lib.sh"
	idgen_deps "${IDGEN_PG_BUILD_PACKAGES[@]}"
	[ $# -gt 0 ] || set -- "${!IDGEN_PG_SUITE[@]}" "${!IDGEN_PG_VENDORED[@]}"
	for build in "$@"; do idgen_pg_build "$build"; done
fi
