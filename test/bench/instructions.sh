#!/usr/bin/env bash
# Instructions per generated id (valgrind's callgrind: a count, not a time,
# so it repeats on a busy machine) for two revisions of idgen side by side:
#
#   bash test/bench/instructions.sh OLD_REV [NEW_REV]     (NEW_REV: HEAD)
#
# Each revision is built and installed into a private tree; a single-user
# backend runs SELECT count(f()) FROM generate_series(1, n) for n = 100,000
# and 200,000, and the difference divided by 100,000 is the cost of one call
# with the loop; the bare loop (count(1)) is measured the same way.
# base36id_generate() hands out 1296 ids a second, with idgen preloaded: its
# runs take 296 and 1096 ids, in one second (the first id of a started
# server waits for a fresh one), and the difference is divided by 800.  Runs
# that short cannot be netted against the bare loop (200,000 rows of
# generate_series cost more each than 1096): its row counts only what runs
# inside base36id_generate() (callgrind's --toggle-collect).
#
#   INSTR_CALLS="base36id_generate" bash test/bench/instructions.sh OLD_REV
#                                      those calls only
#   INSTR_SQL=1 bash test/bench/instructions.sh OLD_REV [NEW_REV]
#                                      the SQL edition's generators instead
#                                      (idgen_portable of each revision,
#                                      with pgcrypto), beside the pasted
#                                      UUIDv7 functions (test/bench/uuidv7.sql
#                                      of the checkout) and gen_random_uuid()
#   INSTR_ROWS=N                       the runs' rows: N and 2N (100000;
#                                      the SQL edition's calls cost some
#                                      thirty times the C ones under
#                                      callgrind: 20000 is enough)
source "$(dirname "$0")/../../tools/lib.sh"

OLD=${1:?usage: instructions.sh OLD_REV [NEW_REV]}
NEW=${2:-HEAD}
IDGEN_PACKAGES+=(valgrind)
idgen_deps
idgen_workdir

# install REV into $IDGEN_WORK/NAME with an initialised data directory
install_rev() {
	local d=$IDGEN_WORK/$1 work=$IDGEN_WORK
	mkdir -p "$d/build"
	git -C "$IDGEN_ROOT" archive "$2" | tar -C "$d/build" -xf -
	make -s -C "$d/build" PG_CONFIG="$PG_CONFIG" >"$d/build.log" 2>&1
	# idgen_install puts the server and the build into $IDGEN_WORK/install
	IDGEN_WORK=$d IDGEN_BUILD=$d/build
	idgen_install
	IDGEN_WORK=$work
	echo "$PG_BIN" >"$d/bindir"
	[ "$(id -u)" -eq 0 ] && chown -R "$SERVER_USER" "$d"
	as_server "$PG_BIN/initdb" -D "$d/data" -U postgres -A trust --no-sync >/dev/null
	echo "CREATE EXTENSION idgen;" |
		as_server "$PG_BIN/postgres" --single -D "$d/data" postgres >/dev/null 2>&1
	if [ "${INSTR_SQL:-0}" = 1 ]; then
		# one statement a line in single-user mode: the peers' functions
		# joined onto one line each
		{
			echo "CREATE EXTENSION idgen_portable CASCADE;"
			sed -e '/^--/d' "$IDGEN_ROOT/test/bench/uuidv7.sql" | tr '\n' ' ' | sed 's/\$\$; /$$;\n/g'
			echo
		} | as_server "$PG_BIN/postgres" --single -D "$d/data" postgres >"$d/sql.log" 2>&1
		if grep -q ERROR "$d/sql.log"; then cat "$d/sql.log"; exit 1; fi
	fi
}

# instructions NAME SQL [OPTION...]: instructions a single-user backend
# (started with the server options OPTION...) spends on SQL
instructions() {
	local d=$IDGEN_WORK/$1
	echo "$2" | (cd "$d" && as_server valgrind --tool=callgrind --vgdb=no --callgrind-out-file="$d/cg.out" ${VG_EXTRA[@]+"${VG_EXTRA[@]}"} \
		"$(cat "$d/bindir")/postgres" --single -D "$d/data" -c jit=off "${@:3}" postgres >/dev/null 2>"$d/vg.log")
	grep -o 'Collected : [0-9]*' "$d/vg.log" | awk '{print $3}'
}

ROWS=${INSTR_ROWS:-100000}
per_call() {
	local a b
	a=$(instructions "$1" "SELECT count($2) FROM generate_series(1, $ROWS);")
	b=$(instructions "$1" "SELECT count($2) FROM generate_series(1, $((2 * ROWS)));")
	echo $(((b - a) / ROWS))
}

b36_per_call() {
	local a b opts=(-c shared_preload_libraries=idgen -c idgen.worker_id=0)
	local VG_EXTRA=(--toggle-collect=base36id_generate)
	a=$(instructions "$1" "SELECT count(base36id_generate()) FROM generate_series(1, 296);" "${opts[@]}")
	b=$(instructions "$1" "SELECT count(base36id_generate()) FROM generate_series(1, 1096);" "${opts[@]}")
	echo $(((b - a) / 800))
}

install_rev old "$OLD"
install_rev new "$NEW"
loop_old=$(per_call old 1)
loop_new=$(per_call new 1)
echo "| call | $OLD | $NEW | change |"
echo "|---|---:|---:|---:|"
if [ "${INSTR_SQL:-0}" = 1 ]; then
	# and what every generator of the edition must do at the least: read and
	# write its setting, take a random uuid and make a uuid from text
	calls=("gen_random_uuid()" "uuid_generate_v7()" "uuid_generate_v7_sql()"
		"CASE WHEN set_config('idgen_portable.floor', coalesce(current_setting('idgen_portable.floor', true), ''), false) IS NOT NULL THEN encode(uuid_send(gen_random_uuid()), 'hex')::uuid END")
	for f in "iuid_generate(1, 1)" "iuid_generate(1, 1, '2025-01-01Z')" "distid_generate()" "distid_generate_dense()" \
		"distid128_generate()" "flaxid_generate()"; do
		calls+=("idgen_portable.$f")
	done
else
	calls=("iuid_generate(1, 1)" "flaxid_generate()" "distid128_generate()" "distid_generate()")
	# distid_generate_dense() (issue 19) when both revisions have it
	git -C "$IDGEN_ROOT" grep -q distid_generate_dense "$OLD" -- sql/idgen--1.1.sql 2>/dev/null &&
		calls+=("distid_generate_dense()")
	calls+=("base36id_generate()")
fi
# INSTR_CALLS: only the functions named (e.g. INSTR_CALLS=base36id_generate)
if [ -n "${INSTR_CALLS:-}" ]; then
	keep=()
	for f in "${calls[@]}"; do
		for w in $INSTR_CALLS; do [[ $f == "$w("* ]] && keep+=("$f"); done
	done
	calls=(${keep[@]+"${keep[@]}"})
fi
for f in "${calls[@]}"; do
	if [ "$f" = "base36id_generate()" ]; then
		# inside the function only, not net of the loop
		o=$(b36_per_call old)
		n=$(b36_per_call new)
	else
		o=$(($(per_call old "$f") - loop_old))
		n=$(($(per_call new "$f") - loop_new))
	fi
	echo "| \`$f\` | $o | $n | $(awk -v o="$o" -v n="$n" 'BEGIN {printf "%+.1f %%", (n - o) * 100 / o}') |"
done
echo "(instructions per call net of the bare loop: $loop_old and $loop_new; base36id_generate(): inside the function)"
