# test/package/run.sh — sourced by tools/test.sh after tools/lib.sh.
#
# run_package: the packaging metadata agrees with idgen.control; the Debian
# package builds with pg_buildext (whose build runs installcheck on a
# throwaway cluster without preloading); as root, the .deb is installed, the
# regression suite runs against a cluster of the system's PostgreSQL with
# idgen preloaded and idgen.worker_id set, using the installed files only,
# and the package is removed again.

# versions: META.json (semver), its provides entry and install script, and
# debian/changelog all name idgen.control's default_version
package_versions() {
	/usr/bin/python3 - "$IDGEN_BUILD" <<'EOF'
import json, os, re, subprocess, sys
root = sys.argv[1]
control = open(os.path.join(root, "idgen.control")).read()
version = re.search(r"^default_version\s*=\s*'([^']+)'", control, re.M).group(1)
semver = ".".join((version.split(".") + ["0", "0"])[:3])
meta = json.load(open(os.path.join(root, "META.json")))
provides = meta["provides"]["idgen"]
changelog = subprocess.run(["dpkg-parsechangelog", "-l", os.path.join(root, "debian/changelog"),
                            "-S", "Version"], capture_output=True, text=True, check=True).stdout.strip()
checks = [
    (f"META.json version {meta['version']} is idgen.control's {version}", meta["version"] == semver),
    (f"META.json provides idgen {provides['version']}", provides["version"] == semver),
    (f"META.json provides file {provides['file']} is the {version} install script",
     provides["file"] == f"sql/idgen--{version}.sql"
     and os.path.isfile(os.path.join(root, provides["file"]))),
    (f"debian/changelog version {changelog} is {version}", changelog.split("-")[0] == version),
]
for what, ok in checks:
    print(f"{'ok' if ok else 'not ok'} - {what}")
print(f"versions: {sum(ok for _, ok in checks)} passed, {sum(not ok for _, ok in checks)} failed")
EOF
}

run_package() {
	local dir=$IDGEN_WORK/package-$PG_MAJOR deb rc=0 IDGEN_DEB=postgresql-$PG_MAJOR-idgen
	mkdir -p "$dir"
	package_versions >"$dir/versions.log" 2>&1 || rc=$?
	record_log versions "$dir/versions.log" $rc

	# pg_buildext builds for the versions debian/pgversions allows and
	# postgresql-common supports (Debian 12: 15 only; not a server built
	# from source), so there is no package to test for the others
	local versions
	versions=$(cd "$IDGEN_BUILD" && pg_buildext supported-versions 2>&1 || true)
	if ! grep -qx "$PG_MAJOR" <<<"$versions"; then
		say "package: no Debian package for PostgreSQL $PG_MAJOR here (pg_buildext builds for: ${versions//$'\n'/ })"
		return 0
	fi

	# build in a clean copy: the build writes debian/ and build-*/
	rc=0
	idgen_copy_tree "$dir/idgen"
	(cd "$dir/idgen" && dpkg-buildpackage -b -us -uc) >"$dir/build.log" 2>&1 || rc=$?
	deb=$(ls "$dir"/"$IDGEN_DEB"_*.deb 2>/dev/null | head -n 1 || true)
	[ -z "$deb" ] || dpkg-deb -c "$deb" >"$dir/contents" 2>&1 || true
	if [ $rc -eq 0 ] && [ -n "$deb" ] &&
		grep -q "/usr/lib/postgresql/$PG_MAJOR/lib/idgen.so$" "$dir/contents" &&
		grep -q "/usr/share/postgresql/$PG_MAJOR/extension/idgen.control$" "$dir/contents"; then
		grep -A3 'tests passed' "$dir/build.log" || true
		record package-build 1 0
	else
		tail -n 60 "$dir/build.log"
		record package-build 0 1
		return 0
	fi

	if [ "$(id -u)" -ne 0 ]; then
		skip package-install 1 "installing $deb needs root"
		return 0
	fi
	# one test run at a time installs the package on this machine
	local lock
	exec {lock}>/tmp/idgen-package-test.lock
	if flock -w 900 "$lock"; then
		package_install_test "$deb" "$dir" "$IDGEN_DEB"
	else
		record package-install 0 1
	fi
	exec {lock}>&-
}

# package_install_test DEB DIR PACKAGE: install, regression suite, purge
package_install_test() {
	local deb=$1 dir=$2 pkg=$3 rc=0 owner private_bin
	if [ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)" = "install ok installed" ]; then
		skip package-install 1 "$pkg is installed already; left alone"
		return 0
	fi
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
	fi
	# leave the machine as it was
	rc=0
	apt-get purge -y -qq -o DPkg::Lock::Timeout=300 "$pkg" >"$dir/remove.log" 2>&1 || rc=$?
	if [ $rc -eq 0 ] && [ ! -e "/usr/lib/postgresql/$PG_MAJOR/lib/idgen.so" ] &&
		[ ! -e "/usr/share/postgresql/$PG_MAJOR/extension/idgen.control" ]; then
		record package-remove 1 0
	else
		cat "$dir/remove.log"
		record package-remove 0 1
	fi
}
