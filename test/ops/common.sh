# test/ops/common.sh — shared by the operations suites (test/ops/*.sh), which
# tools/test.sh sources after tools/lib.sh: Patroni, pgBackRest, pg_upgrade.

# check NAME COMMAND...: one assertion of the running suite (OPS_PASS,
# OPS_FAIL), printed as TAP-like "ok"/"not ok" lines.
check() {
	local name=$1
	shift
	if "$@"; then
		OPS_PASS=$((OPS_PASS + 1))
		echo "ok - $name"
	else
		OPS_FAIL=$((OPS_FAIL + 1))
		echo "not ok - $name"
	fi
}

# eq A B: the two strings are equal (says both when not)
eq() {
	[ "$1" = "$2" ] && return 0
	echo "#   got: '$1'"
	echo "#   expected: '$2'"
	return 1
}

# free_port: a loopback TCP port free a moment ago
free_port() {
	/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# ops_sql BIN PORT SQL...: psql of tree BIN against 127.0.0.1:PORT, unaligned, tuples only
ops_sql() {
	local bin=$1 port=$2
	shift 2
	"$bin/psql" -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d postgres "$@"
}

# ops_initdb BIN DATADIR PORT [conf lines...]: a cluster for loopback TCP
# with idgen preloaded (unless OPS_PRELOAD=0); initdb gets OPS_INITDB_OPTS
ops_initdb() {
	local bin=$1 data=$2 port=$3 line
	shift 3
	# shellcheck disable=SC2086
	as_server "$bin/initdb" -D "$data" -U postgres -A trust -E UTF8 --locale=C --no-sync \
		${OPS_INITDB_OPTS:-} >"$data.initdb.log" 2>&1 || { cat "$data.initdb.log"; return 1; }
	{
		[ "${OPS_PRELOAD:-1}" = 0 ] || echo "shared_preload_libraries = 'idgen'"
		echo "listen_addresses = '127.0.0.1'"
		echo "unix_socket_directories = ''"
		echo "port = $port"
		for line in "$@"; do echo "$line"; done
	} | as_server tee -a "$data/postgresql.conf" >/dev/null
}

# ops_start BIN DATADIR [env...]: start (waiting) with the log next to DATADIR
ops_start() {
	local bin=$1 data=$2
	shift 2
	as_server env "$@" "$bin/pg_ctl" -D "$data" -l "$data.log" -w -t 120 start >/dev/null ||
		{ tail -n 30 "$data.log"; return 1; }
}

ops_stop() {
	as_server "$1/pg_ctl" -D "$2" -m "${3:-fast}" -w stop >/dev/null
}

# ops_record SUITE LOG [EXIT]: count the "ok"/"not ok" lines of LOG; a
# non-zero EXIT without a "not ok" is one failure
ops_record() {
	local p f
	p=$(grep -c '^ok - ' "$2" || true)
	f=$(grep -c '^not ok - ' "$2" || true)
	grep -v '^ok - ' "$2" || true
	[ "$p" -gt 0 ] || [ "$f" -gt 0 ] || f=1
	[ "${3:-0}" -eq 0 ] || [ "$f" -gt 0 ] || f=1
	OPS_FAIL_LAST=$f
	record "$1" "$p" "$f"
}

# faketime_env OFFSET: the environment that starts a server with its clock
# OFFSET seconds apart (libfaketime; "-10" is 10 s behind)
faketime_env() {
	echo "LD_PRELOAD=$(ls /usr/lib/*/faketime/libfaketime.so.1 | head -n 1) FAKETIME=$1 FAKETIME_DONT_FAKE_MONOTONIC=1"
}

# ops_subshell_suite SUITE FUNCTION: FUNCTION's "ok"/"not ok" lines counted
# as SUITE; FUNCTION runs in a subshell of its own, so that an EXIT trap it
# sets (stopping its servers) runs however it ends
ops_subshell_suite() {
	local log=$IDGEN_WORK/$1.log rc=0
	OPS_PASS=0 OPS_FAIL=0
	("$2") >"$log" 2>&1 || rc=$?
	ops_record "$1" "$log" "$rc"
}

# ops_stop_running DATADIR...: stop those of the clusters (of $PG_BIN) that run
ops_stop_running() {
	local d
	for d in "$@"; do
		[ -f "$d/postmaster.pid" ] && as_server "$PG_BIN/pg_ctl" -D "$d" -m fast -w stop >/dev/null 2>&1
	done
	return 0
}
