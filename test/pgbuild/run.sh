# test/pgbuild/run.sh — sourced by tools/test.sh after tools/lib.sh.
#
# run_pgbuild: the choice of a server source in tools/pgbuild.sh
# (idgen_pg_fetch), against a local file: mirror laid out like Debian's
# archive: a Sources index naming one version, a pool holding some tarballs,
# pins of our own.  Each case checks which version was unpacked, or that the
# fetch failed and said so on one line.  The tarballs are small stand-ins
# made here; their checksums come from sha256sum, not from the code tested.

# pgbuild_mirror DIR VERSION [SHA256]: DIR/debian with a trixie Sources index
# that names postgresql-17 VERSION (its tarball checksum SHA256, or that of
# the tarball in the pool) and an unsigned Release over it
pgbuild_mirror() {
	local top=$1/debian v=$2 sum=${3:-} idx
	rm -rf "$top/dists"
	idx=$top/dists/trixie/main/source
	mkdir -p "$idx" "$top/pool/main/p/postgresql-17"
	[ -n "$sum" ] || sum=$(sha256sum <"$top/pool/main/p/postgresql-17/postgresql-17_$v.orig.tar.bz2" | cut -d' ' -f1)
	cat >"$idx/Sources" <<-EOS
		Package: postgresql-17
		Binary: postgresql-17
		Version: $v-1
		Maintainer: nobody <nobody@localhost>
		Architecture: any
		Format: 3.0 (quilt)
		Directory: pool/main/p/postgresql-17
		Checksums-Sha256:
		 $sum 1 postgresql-17_$v.orig.tar.bz2
		 0000000000000000000000000000000000000000000000000000000000000000 1 postgresql-17_$v-1.debian.tar.xz

	EOS
	{
		echo "Origin: idgen-test"
		echo "Suite: trixie"
		echo "Codename: trixie"
		echo "Date: $(LC_ALL=C date -u -R)"
		echo "Components: main"
		echo "SHA256:"
		printf ' %s %s main/source/Sources\n' "$(sha256sum <"$idx/Sources" | cut -d' ' -f1)" "$(stat -c %s "$idx/Sources")"
	} >"$top/dists/trixie/Release"
}

# pgbuild_tarball DIR VERSION: a stand-in release tarball in the pool; prints its sha256
pgbuild_tarball() {
	local pool=$1/debian/pool/main/p/postgresql-17 t
	t=$(mktemp -d "$1/t.XXXXXX")
	mkdir -p "$pool" "$t/postgresql-$2"
	echo "PostgreSQL $2 stand-in" >"$t/postgresql-$2/README"
	tar -C "$t" -cjf "$pool/postgresql-17_$2.orig.tar.bz2" "postgresql-$2"
	rm -rf "$t"
	sha256sum <"$pool/postgresql-17_$2.orig.tar.bz2" | cut -d' ' -f1
}

# pgbuild_case NAME EXPECT: run idgen_pg_fetch 17 in a fresh directory with
# the current pins and sources; EXPECT is the version that must be unpacked,
# or "fail:TEXT" for a failure whose one line says TEXT
pgbuild_case() {
	local name=$1 expect=$2 out rc=0 got
	out=$PGB/out-$((++PGB_N))
	mkdir -p "$out"
	(idgen_pg_fetch 17 "$out") >"$out.log" 2>&1 || rc=$?
	got=$(find "$out" -mindepth 1 -maxdepth 1 -type d -name 'postgresql-*' -printf '%f\n' | sed 's/^postgresql-//')
	case $expect in
	fail:*)
		if [ "$rc" -ne 0 ] && [ -z "$got" ] && [ "$(grep -c '^idgen: PostgreSQL 17: ' "$out.log")" -eq 1 ] &&
			grep -q "^idgen: PostgreSQL 17: .*${expect#fail:}" "$out.log"; then
			echo "ok - $name"; PGB_P=$((PGB_P + 1))
		else
			echo "not ok - $name: exit $rc, unpacked '${got}', wanted a failure saying '${expect#fail:}'"
			sed 's/^/#   /' "$out.log"; PGB_F=$((PGB_F + 1))
		fi
		;;
	*)
		if [ "$rc" -eq 0 ] && [ "$got" = "$expect" ] && [ -f "$out/postgresql-$expect/README" ]; then
			echo "ok - $name"; PGB_P=$((PGB_P + 1))
		else
			echo "not ok - $name: exit $rc, unpacked '${got}', wanted $expect"
			sed 's/^/#   /' "$out.log"; PGB_F=$((PGB_F + 1))
		fi
		;;
	esac
}

pgbuild_cases() {
	local good old bad
	PGB=$IDGEN_WORK/pgbuild PGB_N=0 PGB_P=0 PGB_F=0
	rm -rf "$PGB"
	mkdir -p "$PGB/etc"
	# the "system" apt sources: the local mirror, trusted as a test repository is
	cat >"$PGB/etc/test.sources" <<-EOS
		Types: deb
		URIs: file:$PGB/debian
		Suites: bookworm
		Components: main
		Trusted: yes
	EOS
	local IDGEN_APT_SOURCES=$PGB/etc/test.sources
	local IDGEN_PG_PINNED

	old=$(pgbuild_tarball "$PGB" 17.8)
	good=$(pgbuild_tarball "$PGB" 17.9)

	# the index names 17.10, whose files the mirror does not serve (as it
	# happened): the newest pin that is served and matches is taken
	pgbuild_mirror "$PGB" 17.10 "$(printf '%064d' 1)"
	IDGEN_PG_PINNED=("17 17.9 $good" "17 17.8 $old" "18 18.1 $good")
	pgbuild_case "index version not served: newest good pin" 17.9

	# the pool has 17.9 only with other content than its pin: refused, the older pin is taken
	bad=$(printf '%s' "$good" | tr 0-9a-f 1-9a-f0)
	IDGEN_PG_PINNED=("17 17.9 $bad" "17 17.8 $old")
	pgbuild_case "pinned tarball with another checksum is refused" 17.8

	# no pin matches what is served: a one-line failure that names what was tried
	IDGEN_PG_PINNED=("17 17.9 $bad" "17 17.7 $old")
	pgbuild_case "no good source: one line naming each version" "fail:tried .*17.10: not served.*17.9: checksum differs.*17.7: not served"

	# the index names a version the pool serves with its checksum: taken before any pin
	pgbuild_tarball "$PGB" 17.10 >/dev/null
	pgbuild_mirror "$PGB" 17.10
	IDGEN_PG_PINNED=("17 17.9 $good")
	pgbuild_case "index version served and matching" 17.10

	# the index's own checksum does not match what the pool serves: refused
	pgbuild_mirror "$PGB" 17.10 "$bad"
	pgbuild_case "index version with another checksum is refused" 17.9

	# a pin of another major is never taken for this one
	IDGEN_PG_PINNED=("18 17.9 $good")
	pgbuild_case "pins of another major are ignored" "fail:17.10: checksum differs"

	# no Debian archive among the apt sources: said, nothing fetched
	printf 'Types: deb\nURIs: file:%s/elsewhere\nSuites: x\nComponents: main\n' "$PGB" >"$PGB/etc/test.sources"
	IDGEN_PG_PINNED=("17 17.9 $good")
	pgbuild_case "no Debian archive configured" "fail:no Debian archive in this machine's apt sources"

	pgbuild_stamp_cases
	pgbuild_vendored_cases

	# the mirror is read from the system's sources, nowhere else
	[ -z "$(grep -nE 'https?://[a-z0-9.-]+\.(org|net|com)' "$IDGEN_ROOT/tools/pgbuild.sh" | grep -v '^[0-9]*:#')" ] &&
		{ echo "ok - no mirror host written in tools/pgbuild.sh"; PGB_P=$((PGB_P + 1)); } ||
		{ echo "not ok - tools/pgbuild.sh names a host"; PGB_F=$((PGB_F + 1)); }
	echo "pgbuild: $PGB_P passed, $PGB_F failed"
}

# pgbuild_ok NAME COMMAND...: one check of the cases below
pgbuild_ok() {
	local name=$1
	shift
	if "$@"; then
		echo "ok - $name"; PGB_P=$((PGB_P + 1))
	else
		echo "not ok - $name"; PGB_F=$((PGB_F + 1))
	fi
}

# A cached build counts only if it was configured as its major is today:
# 18 (assertions, injection points) from a stamp naming its configure
# arguments.
pgbuild_stamp_cases() {
	local IDGEN_PG_CACHE=$PGB/cache
	mkdir -p "$IDGEN_PG_CACHE/17" "$IDGEN_PG_CACHE/18"
	# written before the arguments were recorded: a plain build
	echo "PostgreSQL 17.11" >"$IDGEN_PG_CACHE/17/.idgen-built"
	echo "PostgreSQL 18.6" >"$IDGEN_PG_CACHE/18/.idgen-built"
	pgbuild_ok "a plain 17 in the cache is current" idgen_pg_current 17
	pgbuild_ok "a plain 18 in the cache is not (18 is built with --enable-cassert)" \
		eval '! idgen_pg_current 18'
	printf 'PostgreSQL 18.6\nconfigure: --enable-tap-tests --with-openssl --without-icu --without-readline --enable-cassert --enable-debug\n' \
		>"$IDGEN_PG_CACHE/18/.idgen-built"
	pgbuild_ok "an 18 configured without --enable-injection-points is not current" \
		eval '! idgen_pg_current 18'
	printf 'PostgreSQL 18.6\nconfigure: --enable-tap-tests --with-openssl --without-icu --without-readline --enable-cassert --enable-debug --enable-injection-points\n' \
		>"$IDGEN_PG_CACHE/18/.idgen-built"
	pgbuild_ok "an 18 configured with --enable-cassert --enable-debug --enable-injection-points is current" idgen_pg_current 18
	pgbuild_ok "no build of 17-asan: not current" eval '! idgen_pg_current 17-asan'
	# the benchmarks' server of each major has no assertions: 18's is its
	# release variant, configured without --enable-cassert
	pgbuild_ok "benchmarks run on 15, 17, 18-release and 19" \
		eval '[ "$(for m in 15 17 18 19; do idgen_pg_release_build $m; done | paste -sd" ")" = "15 17 18-release 19" ]'
	pgbuild_ok "18-release is configured without assertions" \
		eval '[[ "$(idgen_pg_configure_args 18-release)" != *--enable-cassert* ]]'
	mkdir -p "$IDGEN_PG_CACHE/18-release"
	cp "$IDGEN_PG_CACHE/18/.idgen-built" "$IDGEN_PG_CACHE/18-release/.idgen-built"
	pgbuild_ok "an 18-release stamped with --enable-cassert is not current" eval '! idgen_pg_current 18-release'
	printf 'PostgreSQL 18.6\nconfigure: --enable-tap-tests --with-openssl --without-icu --without-readline\n' \
		>"$IDGEN_PG_CACHE/18-release/.idgen-built"
	pgbuild_ok "an 18-release configured without it is current" idgen_pg_current 18-release
}

# A vendored source is unpacked only with its checksum.
pgbuild_vendored_cases() {
	local IDGEN_PG_VENDOR_DIR=$PGB/vendor t=$PGB/vt sum
	local -A IDGEN_PG_VENDORED
	mkdir -p "$IDGEN_PG_VENDOR_DIR" "$t/postgresql-19beta1" "$PGB/v1" "$PGB/v2"
	echo "PostgreSQL 19beta1 stand-in" >"$t/postgresql-19beta1/README"
	tar -C "$t" -cJf "$IDGEN_PG_VENDOR_DIR/pg.tar.xz" postgresql-19beta1
	sum=$(sha256sum <"$IDGEN_PG_VENDOR_DIR/pg.tar.xz" | cut -d' ' -f1)
	IDGEN_PG_VENDORED=([19]="pg.tar.xz $sum")
	pgbuild_ok "a vendored source with its checksum is unpacked" \
		eval 'idgen_pg_vendored 19 "$PGB/v1" 2>/dev/null && [ -f "$PGB/v1/postgresql-19beta1/README" ]'
	IDGEN_PG_VENDORED=([19]="pg.tar.xz $(printf '%064d' 1)")
	pgbuild_ok "a vendored source with another checksum is refused" \
		eval '! idgen_pg_vendored 19 "$PGB/v2" 2>/dev/null && [ -z "$(ls "$PGB/v2")" ]'
}

# the cases in a subshell of their own (they change pins and sources): its
# exit status decides with the counts, so a run that dies before its
# summary line fails
run_pgbuild() {
	local log=$IDGEN_WORK/pgbuild.log rc=0
	(pgbuild_cases && [ "${PGB_F:-1}" -eq 0 ]) >"$log" 2>&1 || rc=$?
	record_log pgbuild "$log" "$rc"
	rm -rf "$IDGEN_WORK/pgbuild"
}
