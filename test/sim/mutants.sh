#!/usr/bin/env bash
# The mutation check of the simulation: src/core built with each planted
# mistake (-DB36S_MUTANT_x in b36sync.c, -DB36G_MUTANT_x in b36gen.c) and
# the simulation run on it from seed 1 for at most MUTANT_SCHEDULES
# schedules (default 50000): each must be found within them, the same on
# any machine.  Prints, per mutant, the schedules it took and the
# violation, and "sim-mutants: N passed, M failed" (failed: a mutant not
# found, or one that did not build).
#
#   bash test/sim/mutants.sh            every mutant
#   bash test/sim/mutants.sh A HEAD     some
#   bash test/sim/mutants.sh --list     their names, one a line
#
# The mutants:
#   A        a backend's own copy of synchronous_standby_names trusted while
#            a reload is pending (an empty one: no standby asked)
#   B        an id let out when core's queue released the record and the
#            walsenders look as they did before the wait (ABA)
#   C        the reservation over only once confirmed at its caller's level:
#            others wait behind it
#   E        a second reserved again when the standbys changed under it
#   FLUSH    a reservation published before its record is flushed
#   SKIP     a reservation confirmed at a level once never judged again
#            (no re-confirmation after a switch of the synchronous set)
#   LSN_CMP  a standby's position compared with the record the wrong way
#   MIXED    the caller's configuration judged with the priorities the
#            walsenders computed from theirs, not waiting for core's queue
#            (wrong while a reload is on its way)
#   BGW      a process that is never told of a reload (a background worker
#            ignoring SIGHUP) trusts its copy of the names as a backend
#            does, and lets its id out on the latest reservation's record
#   HEAD     a call that waits for standbys keeps its place at the head of
#            the line (everybody behind it waits too)
#   TIES     standbys of equal priority: the higher slot taken as the
#            synchronous one (core takes the lower)
#   NUMSYNC  fewer synchronous candidates than num_sync confirm a record
#   DUPQUEUE a call joins core's queue where another already waits for the
#            same record (core holds one process a position, and asserts it)
set -euo pipefail
cd "$(dirname "$0")"
all=(A B C E FLUSH SKIP LSN_CMP MIXED BGW HEAD TIES NUMSYNC DUPQUEUE)
if [ "${1:-}" = --list ]; then
	printf '%s\n' "${all[@]}"
	exit 0
fi
schedules=${MUTANT_SCHEDULES:-50000}
mutants=("$@")
[ ${#mutants[@]} -gt 0 ] || mutants=("${all[@]}")
core=../../src/core
passed=0
failed=0
for m in "${mutants[@]}"; do
	case $m in
		HEAD) def=B36G_MUTANT_$m ;;
		*) def=B36S_MUTANT_$m ;;
	esac
	bin=./sim_b36gen-$m
	if ! ${CC:-cc} -O2 -std=c99 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -D"$def" \
		-I$core -o "$bin" sim_b36gen.c $core/b36gen.c $core/b36sync.c $core/waitline.c $core/base36.c; then
		echo "mutant $m: does not build"
		failed=$((failed + 1))
		continue
	fi
	if out=$("$bin" -n "$schedules"); then
		echo "mutant $m: NOT found in $schedules schedules"
		failed=$((failed + 1))
	else
		echo "mutant $m: found after $(sed -n 's/^after \([0-9]*\) schedules/\1/p' <<<"$out") schedules: $(sed -n 's/^FAILED: //p' <<<"$out")"
		passed=$((passed + 1))
	fi
	rm -f "$bin"
done
echo "sim-mutants: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
