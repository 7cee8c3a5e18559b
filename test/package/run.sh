# test/package/run.sh — sourced by tools/test.sh after tools/lib.sh.
#
# run_package: META.json passes the PGXN Meta Spec 1.0.0 check, in the tree
# and in the zip `make dist` builds, which is named after its version, holds
# what a build needs and none of the tests' scratch (dist_check.py), and
# builds and installs as unpacked; debian/changelog names idgen.control's
# version; debian/control is regenerated with `pg_buildext updatecontrol`
# and lists a package per supported major; the Debian package builds with
# pg_buildext (whose build runs installcheck on a throwaway cluster without
# preloading); as root, the .deb is installed, the regression suite runs
# against a cluster of the system's PostgreSQL with idgen preloaded and
# idgen.worker_id set, using the installed files only, then the package's
# autopkgtest (debian/tests) runs against it, and the package is removed.

# debian/changelog names idgen.control's default_version (META.json's
# versions are meta_check.py's)
package_versions() {
	/usr/bin/python3 - "$IDGEN_BUILD" <<'EOF2'
import os, re, subprocess, sys
root = sys.argv[1]
control = open(os.path.join(root, "idgen.control")).read()
version = re.search(r"^default_version\s*=\s*'([^']+)'", control, re.M).group(1)
changelog = subprocess.run(["dpkg-parsechangelog", "-l", os.path.join(root, "debian/changelog"),
                            "-S", "Version"], capture_output=True, text=True, check=True).stdout.strip()
checks = [
    (f"debian/changelog version {changelog} is {version}", changelog.split("-")[0] == version),
]
for what, ok in checks:
    print(f"{'ok' if ok else 'not ok'} - {what}")
print(f"versions: {sum(ok for _, ok in checks)} passed, {sum(not ok for _, ok in checks)} failed")
EOF2
}

# META.json of the tree, then of the zip `make dist` makes from the
# checkout's HEAD (git archive: committed files only)
package_meta() {
	local dir=$1 rc=0 zip
	/usr/bin/python3 "$IDGEN_BUILD/test/package/meta_check.py" "$IDGEN_BUILD" >"$dir/meta.log" 2>&1 || rc=$?
	record_log meta "$dir/meta.log" $rc
	if ! git -C "$IDGEN_ROOT" rev-parse --verify -q HEAD >/dev/null 2>&1; then
		skip meta-dist 1 "$IDGEN_ROOT is not a git checkout: no make dist"
		return 0
	fi
	rc=0
	rm -f "$dir"/idgen-*.zip
	make -s -C "$IDGEN_ROOT" PG_CONFIG="$PG_CONFIG" DISTDIR="$dir" dist >"$dir/dist.log" 2>&1 || rc=$?
	zip=$(ls "$dir"/idgen-*.zip 2>/dev/null | head -n 1 || true)
	if [ $rc -ne 0 ] || [ -z "$zip" ]; then
		cat "$dir/dist.log"
		record meta-dist 0 1
		return 0
	fi
	/usr/bin/python3 "$IDGEN_BUILD/test/package/meta_check.py" "$zip" >"$dir/meta-dist.log" 2>&1 || rc=$?
	record_log meta-dist "$dir/meta-dist.log" $rc
	package_dist "$dir" "$zip"
}

# package_dist DIR ZIP: the zip is idgen-<META.json's version>.zip, holds
# what a build needs and nothing of the tests' scratch (dist_check.py), and
# builds and installs with PGXS as it is unpacked
package_dist() {
	local dir=$1 zip=$2 rc=0 version tree
	version=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["version"])' "$IDGEN_BUILD/META.json")
	if [ "$(basename "$zip")" = "idgen-$version.zip" ]; then
		record dist-name 1 0
	else
		say "make dist made $(basename "$zip"), not idgen-$version.zip"
		record dist-name 0 1
	fi
	/usr/bin/python3 "$IDGEN_BUILD/test/package/dist_check.py" "$zip" "$IDGEN_ROOT" >"$dir/dist.log" 2>&1 || rc=$?
	record_log dist "$dir/dist.log" $rc
	rm -rf "$dir/unzipped"
	mkdir -p "$dir/unzipped"
	tree=$dir/unzipped/idgen-$version
	if /usr/bin/python3 -m zipfile -e "$zip" "$dir/unzipped" && make -s -C "$tree" PG_CONFIG="$PG_CONFIG" >"$dir/dist-build.log" 2>&1 &&
		make -s -C "$tree" PG_CONFIG="$PG_CONFIG" install DESTDIR="$dir/unzipped/install" >>"$dir/dist-build.log" 2>&1 &&
		[ -f "$dir/unzipped/install$("$PG_CONFIG" --pkglibdir)/idgen.so" ] &&
		[ -f "$dir/unzipped/install$("$PG_CONFIG" --sharedir)/extension/idgen--$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$tree/idgen.control").sql" ]; then
		record dist-build 1 0
	else
		tail -n 30 "$dir/dist-build.log"
		record dist-build 0 1
	fi
	rm -rf "$dir/unzipped"
}

# PGDG style: debian/control regenerated from control.in for the majors this
# host supports; then checkcontrol (what `debian/rules clean` runs) passes and
# every supported major has its package
package_control() {
	local tree=$1 log=$2 v p=0 f=0
	if ! (cd "$tree" && pg_buildext updatecontrol && pg_buildext checkcontrol) >"$log" 2>&1; then
		cat "$log"
		record package-control 0 1
		return 0
	fi
	for v in $(cd "$tree" && pg_buildext supported-versions); do
		if grep -qx "Package: postgresql-$v-idgen" "$tree/debian/control"; then
			p=$((p + 1))
		else
			say "debian/control has no postgresql-$v-idgen after updatecontrol"
			f=$((f + 1))
		fi
	done
	[ $((p + f)) -gt 0 ] || f=1
	record package-control $p $f
}

run_package() {
	local dir=$IDGEN_WORK/package-$PG_MAJOR deb rc=0 IDGEN_DEB=postgresql-$PG_MAJOR-idgen
	mkdir -p "$dir"
	package_versions >"$dir/versions.log" 2>&1 || rc=$?
	record_log versions "$dir/versions.log" $rc
	package_meta "$dir"

	# pg_buildext builds for the versions debian/pgversions allows and
	# postgresql-common supports (Debian 12: 15 only; not a server built
	# from source), so there is no package to test for the others
	local versions
	versions=$(cd "$IDGEN_BUILD" && pg_buildext supported-versions 2>&1 || true)
	if ! grep -qx "$PG_MAJOR" <<<"$versions"; then
		skip "${SUITE_PREFIX}package-deb" 1 "no Debian package for PostgreSQL $PG_LABEL here (pg_buildext builds for: ${versions//$'\n'/ })"
		return 0
	fi

	# build in a clean copy: the build writes debian/ and build-*/
	rc=0
	idgen_copy_tree "$dir/idgen"
	package_control "$dir/idgen" "$dir/control.log"
	(cd "$dir/idgen" && dpkg-buildpackage -b -us -uc) >"$dir/build.log" 2>&1 || rc=$?
	deb=$(ls "$dir"/"$IDGEN_DEB"_*.deb 2>/dev/null | head -n 1 || true)
	[ -z "$deb" ] || dpkg-deb -c "$deb" >"$dir/contents" 2>&1 || true
	if [ $rc -eq 0 ] && [ -n "$deb" ] &&
		grep -q "/usr/lib/postgresql/$PG_MAJOR/lib/idgen.so$" "$dir/contents" &&
		grep -q "/usr/share/postgresql/$PG_MAJOR/extension/idgen.control$" "$dir/contents"; then
		grep -A3 'tests passed' "$dir/build.log" || true
		record package-build 1 0
		# the package's version is the release's (debian/changelog's, idgen.control's)
		local debv want
		debv=$(dpkg-deb -f "$deb" Version)
		want=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$IDGEN_BUILD/idgen.control")
		if [ "${debv%%-*}" = "$want" ]; then
			say "package: $(basename "$deb"), Version $debv"
			record package-version 1 0
		else
			say "package: $(basename "$deb") has Version $debv, idgen.control says $want"
			record package-version 0 1
		fi
	else
		tail -n 60 "$dir/build.log"
		record package-build 0 1
		return 0
	fi

	if [ "$(id -u)" -ne 0 ]; then
		skip package-install 1 "installing $deb needs root"
		return 0
	fi
	# one test run at a time installs the package on this machine: a lock in
	# the system's place for lock files (a tmpfs, gone at reboot), not /tmp
	local lock
	exec {lock}>/run/lock/idgen-package-test.lock
	if flock -w 900 "$lock"; then
		package_install_test "$deb" "$dir" "$IDGEN_DEB"
	else
		record package-install 0 1
	fi
	exec {lock}>&-
}

# a mark that this suite installed the package, kept until it is purged: a
# run interrupted in between leaves it, and the next run removes the package
PACKAGE_MARK_DIR=/var/lib/idgen-test

# package_state PACKAGE: dpkg's state of it when it is on this machine in
# any form (installed, half-installed, its configuration left); nothing when not
package_state() {
	dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null | grep -v '^not-installed$' || true
}

# package_install_test DEB DIR PACKAGE: install, regression suite, purge
package_install_test() {
	local deb=$1 dir=$2 pkg=$3 rc=0 owner private_bin mark=$PACKAGE_MARK_DIR/$3.installed
	if [ -n "$(package_state "$pkg")" ] && [ -f "$mark" ]; then
		say "package: $pkg was left on this machine by an interrupted run of this suite ($(package_state "$pkg")): removing it"
		apt-get purge -y -qq -o DPkg::Lock::Timeout=300 "$pkg" >"$dir/remove-left.log" 2>&1 ||
			{ cat "$dir/remove-left.log"; dpkg --purge "$pkg" >>"$dir/remove-left.log" 2>&1; } || true
	fi
	if [ -n "$(package_state "$pkg")" ]; then
		say "package: $pkg is on this machine ($(package_state "$pkg")), and this suite did not install it or could not remove it: remove it (apt-get purge $pkg) to test the package"
		record package-install 0 1
		return 0
	fi
	rm -f "$mark"
	mkdir -p "$PACKAGE_MARK_DIR"
	echo "$deb" >"$mark"
	apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=300 "$deb" \
		>"$dir/install.log" 2>&1 || rc=$?
	owner=$(dpkg -S "/usr/lib/postgresql/$PG_MAJOR/lib/idgen.so" 2>/dev/null || true)
	if [ $rc -ne 0 ] || [ "${owner%%:*}" != "$pkg" ]; then
		cat "$dir/install.log"
		record package-install 0 1
	else
		record package-install 1 0
		# the system's own binaries, so only the installed files can serve
		private_bin=$PG_BIN
		PG_BIN=/usr/lib/postgresql/$PG_MAJOR/bin
		as_server rm -rf "$IDGEN_WORK/data"
		if idgen_cluster_start "idgen.worker_id = 5"; then
			regress_installcheck package-regress
			idgen_cluster_stop
		else
			record package-regress 0 1
		fi
		as_server rm -rf "$IDGEN_WORK/data"
		PG_BIN=$private_bin
		package_autopkgtest "$deb" "$dir"
	fi
	# leave the machine as it was
	rc=0
	apt-get purge -y -qq -o DPkg::Lock::Timeout=300 "$pkg" >"$dir/remove.log" 2>&1 || rc=$?
	if [ $rc -eq 0 ] && [ ! -e "/usr/lib/postgresql/$PG_MAJOR/lib/idgen.so" ] &&
		[ ! -e "/usr/share/postgresql/$PG_MAJOR/extension/idgen.control" ]; then
		rm -f "$mark"
		record package-remove 1 0
	else
		cat "$dir/remove.log"
		record package-remove 0 1
	fi
}

# package_autopkgtest DEB DIR: debian/tests of a clean copy of the source
# against the installed package, by Debian's autopkgtest runner on this
# machine (the null virtualisation server: the test's dependencies are
# installed here, the package is the one just installed)
package_autopkgtest() {
	local deb=$1 dir=$2 rc src=$dir/autopkgtest-src out=$dir/autopkgtest-out p f try
	rm -rf "$src"
	idgen_copy_tree "$src"
	# the runner refuses to prepare the testbed while another dpkg run on this
	# machine is half done (/var/lib/dpkg/updates): wait and try again
	for try in 1 2 3 4 5; do
		rc=0
		rm -rf "$out"
		autopkgtest --no-built-binaries --output-dir="$out" "$deb" "$src" -- null \
			>"$dir/autopkgtest.log" 2>&1 || rc=$?
		grep -qE 'dpkg/updates contains some files|Could not get lock' "$dir/autopkgtest.log" || break
		say "autopkgtest: dpkg is busy on this machine, trying again (try $try)"
		sleep 30
	done
	# the summary has one line per test of debian/tests/control:
	# "NAME PASS|FAIL|SKIP ..."; every one must pass
	p=$(grep -cE '^[a-z0-9-]+ +PASS' "$out/summary" 2>/dev/null || true)
	p=${p:-0}
	f=$(($(grep -c '^Tests:' "$src/debian/tests/control") - p))
	[ "$f" -gt 0 ] || f=0
	[ $rc -eq 0 ] || [ "$f" -gt 0 ] || f=1
	if [ "$f" -eq 0 ]; then
		grep -E 'tests passed|preloaded cluster' "$out/log" || true
	else
		tail -n 80 "$dir/autopkgtest.log"
	fi
	record package-autopkgtest "$p" "$f"
	rm -rf "$src"
}
