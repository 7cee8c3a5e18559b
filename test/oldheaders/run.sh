# test/oldheaders/run.sh — sourced by tools/test.sh after tools/lib.sh:
# idgen built against headers older than the server it runs on.
#
# WalSndCtlData's flag of synchronous standbys changed in minor releases:
# a bool sync_standbys_defined until 15.12 (13.20, 14.17, 16.8, 17.4), bits
# sync_standbys_status since 15.13, where the byte holds 3 once standbys are
# defined.  An extension built before a minor update and not rebuilt is the
# normal case, so idgen is built here against a copy of the server's include
# directory with the member put back as it was (a bool, no SYNC_STANDBY_*
# bits), installed into a copy of the install tree, and the standby tests
# that wait (024, 034) run with it against the current server.  One build,
# against Debian's 15 (15.20): 17 had the older layout too and is skipped
# for time; 18 and later never had it.

IDGEN_OLDHEADERS_TAP=${IDGEN_OLDHEADERS_TAP:-t/024_base36id_sync_standby.pl t/034_base36id_sync_wait.pl}

run_oldheaders() {
	local dir=$IDGEN_WORK/oldheaders-build h log bindir pgxs
	case $PG_MAJOR in
	"$IDGEN_PG_DEBIAN") ;;
	17) skip "${SUITE_PREFIX}oldheaders" 1 "one older-headers build per run, against PostgreSQL $IDGEN_PG_DEBIAN (17.0 to 17.4 had the older layout too)"; return 0 ;;
	*) say "${SUITE_PREFIX}oldheaders: PostgreSQL $PG_LABEL never had the older layout"; return 0 ;;
	esac
	mkdir -p "$dir"
	log=$dir/build.log
	cp -a "$("$PG_CONFIG" --includedir-server)" "$dir/server"
	h=$dir/server/replication/walsender_private.h
	perl -0pi -e 's/\tbits8\t\tsync_standbys_status;/\tbool\t\tsync_standbys_defined;/;
		s{\n/\* Flags for WalSndCtlData->sync_standbys_status \*/\n.*?#define SYNC_STANDBY_DEFINED\t+\(1 << 1\)\n}{\n}s' "$h"
	if ! grep -qP '^\tbool\t\tsync_standbys_defined;' "$h" || grep -q 'SYNC_STANDBY_\|sync_standbys_status' "$h"; then
		say "oldheaders: could not put the older member into $h"
		record oldheaders 0 1
		return 0
	fi
	# the commands are logged: the compiler must have read the copy
	idgen_copy_tree "$dir/build"
	if ! make -C "$dir/build" -j2 PG_CONFIG="$PG_CONFIG" includedir_server="$dir/server" \
		PG_CFLAGS=-Werror >"$log" 2>&1 ||
		! grep -q -- "-I$dir/server .*base36id_sync\.c" "$log"; then
		cat "$log"
		say "oldheaders: the build against the older headers failed"
		record oldheaders 0 1
		return 0
	fi
	say "oldheaders: idgen built against $h (sync_standbys_defined a bool)"
	cp -a "$IDGEN_WORK/install" "$dir/install"
	make -s -C "$dir/build" PG_CONFIG="$PG_CONFIG" install DESTDIR="$dir/install" >/dev/null
	bindir=$dir/install$("$PG_CONFIG" --bindir)
	pgxs=$("$PG_CONFIG" --pgxs)
	PG_BIN=$bindir PGXS_DIR=$dir/install${pgxs%/src/makefiles/pgxs.mk} IDGEN_BUILD=$dir/build \
		prove_suite oldheaders t "$IDGEN_OLDHEADERS_TAP"
}
