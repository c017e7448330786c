#!/bin/bash
# check-rdma.sh: rdmpi's MPI tests over real verbs (Soft-RoCE, rdma_rxe) in
# throw-away QEMU guests (run-in-vm.sh). Run from the build tree (make
# check-rdma / make check-rdma-ci do). Needs root for the first run (it
# apt-get installs QEMU and rdma-core and builds a guest image under
# /var/cache/rdmpi-rxe-vm).
#
# Usage: check-rdma.sh [--ci] [-t SECONDS]
#   (default)  every configuration (rc, rc + RDMA-Write eager, ud, ud with 5 %
#              packet drops) over rdma.testlist and fortran.testlist, in one
#              guest and across two guests
#   --ci       the subset CI runs: rc and ud with drops over ci.testlist in
#              one guest and over ci-2.testlist across two guests (a few
#              minutes under TCG on an idle 2-core machine)
#   -t SECONDS kill a guest run after SECONDS (default 3600; only catches hangs)
# Environment: RDMA_VM_CONFIGS (see guest-suite.sh), RDMA_VM_NODES ("1 2":
#   the guest counts to run), RUNTESTS_TIMEOUT (per case, default 600).
# Prints each case, a line per guest run and "check-rdma: N passed, N failed";
# exit 0 iff everything passed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
ci=0 timeout=3600
while [ $# -gt 0 ]; do
    case $1 in
    --ci) ci=1; shift ;;
    -t) timeout=${2:?}; shift 2 ;;
    *) echo "usage: $0 [--ci] [-t SECONDS]" >&2; exit 2 ;;
    esac
done
if [ ! -x "$PWD/mpirun/mpirun" ] || [ ! -x "$PWD/test/mpi/p2p_sizes" ]; then
    echo "check-rdma: run from a build tree with the test programs built (make check-rdma)" >&2
    exit 2
fi

args=()
if [ $ci = 1 ]; then
    export RDMA_VM_CONFIGS=${RDMA_VM_CONFIGS:-"rc:RDMPI_TRANSPORTS=rc;ud-drop:RDMPI_TRANSPORTS=ud RDMPI_UD_DROP_RATE=0.05"}
fi

total_p=0 total_f=0
log=$(mktemp "${TMPDIR:-/tmp}/check-rdma.XXXXXX")
trap 'rm -f "$log"' EXIT
for n in ${RDMA_VM_NODES:-1 2}; do
    if [ "$n" -gt 1 ] && ! ./mpirun/mpirun --help 2>&1 | grep -q -- --launch-agent; then
        echo "check-rdma: SKIP the $n-guest runs: this mpirun has no --launch-agent (no multi-host mpirun)"
        continue
    fi
    if [ $ci = 1 ]; then
        # across guests a shorter list: emulated guests talk slowly
        if [ "$n" -gt 1 ]; then args=(-l "$here/ci-2.testlist" -f -); else args=(-l "$here/ci.testlist" -f -); fi
    fi
    "$here/run-in-vm.sh" -n "$n" -t "$timeout" -- "$here/guest-suite.sh" "${args[@]}" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    line=$(grep -E "^(\[node0\] )?rdma-vm \(.*\): [0-9]+ passed, [0-9]+ failed" "$log" | tail -n 1)
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\1/')
        f=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\2/')
    else
        p=0 f=1
        echo "check-rdma: the $n-guest run ended without a summary (exit $rc)"
    fi
    [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && { f=1; echo "check-rdma: the $n-guest run exited $rc"; }
    total_p=$((total_p + p))
    total_f=$((total_f + f))
done
echo "check-rdma: $total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
