#!/bin/bash
# MPI test programs (point-to-point, collectives, Fortran) with their ranks
# spread over three hosts (network namespaces), through mpirun
# --launch-agent 'ip netns exec', at np 2 to 6, by test/mpi/runtests.sh.
#   MH_PATTERN  runtests -k pattern of the C programs (default: p2p and coll)
#   MH_FPATTERN same for the Fortran programs (default: all)
. "${srcdir:-.}/test/multihost/lib.sh"

PATTERN=${MH_PATTERN:-'^(p2p|coll)_[a-z_]+ [2-6]$'}
FPATTERN=${MH_FPATTERN:-' [2-6]$'}

export MPIRUN=$MPIRUN_MH MPIRUN_TIMEOUT_OPT=--timeout RUNTESTS_TIMEOUT=${RUNTESTS_TIMEOUT:-90}
# Six ranks over three hosts as well: slot mapping puts rank i on host i % 3.
# protocols.testlist is left out: its cases check, through p2p's counters,
# the single-node protocol paths that ranks on other hosts do not take.
clists=$(ls "$srcdir"/test/mpi/*.testlist | grep -v '/protocols\.testlist$')
# shellcheck disable=SC2086
if bash "$srcdir/test/mpi/runtests.sh" -k "$PATTERN" $clists >"$T/c.log" 2>&1; then
    pass "C programs: $(tail -1 "$T/c.log")"
else
    fail "C programs: $(tail -1 "$T/c.log")"
    grep -A 12 '^FAIL' "$T/c.log" | head -60
fi
if MPI_TEST_DIR=$builddir/test/fortran bash "$srcdir/test/mpi/runtests.sh" \
        -l "$srcdir/test/fortran/fortran.testlist" -k "$FPATTERN" >"$T/f.log" 2>&1; then
    pass "Fortran programs: $(tail -1 "$T/f.log")"
else
    fail "Fortran programs: $(tail -1 "$T/f.log")"
    grep -A 12 '^FAIL' "$T/f.log" | head -60
fi
# np 6: two ranks per host, both mappings.
for map in slot node; do
    "$MPIRUN_MH" -n 6 --map-by $map --timeout 60 "$builddir/test/mpi/coll_allgather" </dev/null >"$T/out" 2>&1
    if [ $? -eq 0 ] && grep -q 'No Errors' "$T/out"; then
        pass "coll_allgather np 6 --map-by $map"
    else
        fail "coll_allgather np 6 --map-by $map:"; tail -5 "$T/out"
    fi
done
check_leftovers "programs"
finish
