#!/bin/bash
# rdma-vm.sh: rdmpi-ramp over real verbs (Soft-RoCE) in QEMU guests
# (test/rdma-vm/run-in-vm.sh): star and plus over rc, rpc over ud, each
# with the tests' race (16 hot keys, half writes, a pause between PREPARE
# and COMMIT) and its history checked. Not part of make check (it boots
# guests and needs root the first time): from the build directory,
#   make check-rdma-ramp             in one guest, then across two
#   ../test/ramp/rdma-vm.sh -n 2     across two guests only
# Across two guests the one-sided traffic must take rc's RDMA (star's
# gets) and its immediates (plus's notified puts), as RDMPI_VERBOSE's
# counters say. Prints a line per case and "rdma-vm ramp (WHERE): N
# passed, N failed"; exit 0 iff every case passed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$PWD

if [ "${1:-}" != --guest ]; then
    [ -x "$build/apps/ramp/rdmpi-ramp" ] || {
        echo "rdma-vm.sh: run from the build directory after make" >&2
        exit 2
    }
    nodes_list="1 2"
    [ "${1:-}" = -n ] && nodes_list=$2
    rc=0
    for n in $nodes_list; do
        "$top/test/rdma-vm/run-in-vm.sh" -n "$n" -t 1500 -- "$here/rdma-vm.sh" --guest "$build" ||
            rc=1
    done
    exit $rc
fi

# In a guest, from the build directory given.
cd "$2" || exit 2
nodes=${RXE_NODES:-1}
# Emulated guests go quiet for seconds: no lost host, no dead RC peer.
export RDMPI_HEARTBEAT_TIMEOUT=${RDMPI_HEARTBEAT_TIMEOUT:-300}
export RDMPI_RC_TIMEOUT=${RDMPI_RC_TIMEOUT:-20}
if [ "${RXE_NODE_ID:-0}" != 0 ]; then
    exec "$top/test/rdma-vm/vm-runner.sh"
fi
trap 'touch "${RDMPI_VM_DROP:-/nonexistent}/stop" 2>/dev/null' EXIT
launch=()
where="1 guest"
if [ "$nodes" -gt 1 ]; then
    hosts=node0
    for ((i = 1; i < nodes; i++)); do hosts="$hosts,node$i"; done
    launch=(-hosts "$hosts" --map-by node --launch-agent "$top/test/rdma-vm/vm-agent.sh")
    where="$nodes guests"
fi
passed=0 failed=0
hist=$(mktemp -d "${RDMPI_VM_DROP:-/tmp}/ramp-history.XXXXXX")
for cfg in "star rc" "plus rc" "rpc ud"; do
    set -- $cfg
    # what RDMPI_VERBOSE must show across guests
    case $1 in
    star) want='rma: .*targets by path: shm [0-9]+, rdma [1-9]' ;;
    plus) want='rma: .*notified puts by ring [0-9]+ \(ring full [0-9]+\), by immediate [1-9]' ;;
    *) want=. ;;
    esac
    [ "$nodes" -gt 1 ] || want=.
    start=$(date +%s)
    out=$(timeout 600 mpirun/mpirun "${launch[@]}" -np 4 -x RDMPI_TRANSPORTS=$2 \
        -x RDMPI_RC_TIMEOUT -x RDMPI_HEARTBEAT_TIMEOUT -x RDMPI_VERBOSE=1 apps/ramp/rdmpi-ramp \
        --method $1 --servers 2 --concurrency 2 --keys 16 --reads 50 --txn-size 4 \
        --value-size 64 --prepare-delay-us 100 --txns 100 --history "$hist/$1-$2" --check 2>&1)
    status=$?
    t=$(($(date +%s) - start))
    if [ $status -eq 0 ] && echo "$out" | grep -q '^check: ok: 0 violation' &&
        echo "$out" | grep -Eq -- "$want"; then
        echo "PASS ramp $1 over $2 (${t} s)"
        passed=$((passed + 1))
    else
        echo "FAIL ramp $1 over $2: exit $status (${t} s), or no line matching '$want'"
        echo "$out" | tail -8 | sed 's/^/    | /'
        failed=$((failed + 1))
    fi
done
rm -rf "$hist"
echo "rdma-vm ramp ($where): $passed passed, $failed failed"
[ $failed -eq 0 ]
