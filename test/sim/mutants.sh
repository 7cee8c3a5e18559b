#!/usr/bin/env bash
# The mutation check of the simulation: src/core/b36sync.c built with each
# planted mistake (-DB36S_MUTANT_x, see b36sync.c), and the simulation run
# on it until it fails, for at most MUTANT_SECONDS (default 60) each.
# Prints, per mutant, the number of schedules it took and the violation,
# and "sim-mutants: N passed, M failed" (failed: a mutant not found).
#
#   bash test/sim/mutants.sh            every mutant
#   bash test/sim/mutants.sh A B        some
#
# The mutants (the issue's findings A, B, C, E and three more mistakes):
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
#            ignoring SIGHUP) trusts its copy of the names as a backend does
set -euo pipefail
cd "$(dirname "$0")"
seconds=${MUTANT_SECONDS:-60}
mutants=("$@")
[ ${#mutants[@]} -gt 0 ] || mutants=(A B C E FLUSH SKIP LSN_CMP MIXED BGW)
passed=0
failed=0
for m in "${mutants[@]}"; do
	bin=./sim_b36sync-$m
	${CC:-cc} -O2 -std=c99 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -DB36S_MUTANT_"$m" \
		-I../../src/core -o "$bin" sim_b36sync.c ../../src/core/b36sync.c ../../src/core/base36.c
	if out=$("$bin" -s "$seconds"); then
		echo "mutant $m: NOT found in $(sed -n 's/^sim_b36sync: \([0-9]*\) schedules.*/\1/p' <<<"$out") schedules"
		failed=$((failed + 1))
	else
		echo "mutant $m: found after $(sed -n 's/^after \([0-9]*\) schedules/\1/p' <<<"$out") schedules: $(sed -n 's/^FAILED: //p' <<<"$out")"
		passed=$((passed + 1))
	fi
	rm -f "$bin"
done
echo "sim-mutants: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
