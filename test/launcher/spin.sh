#!/bin/bash
# The ranks' view of their CPUs: a waiting rank spins only while every rank
# of its node has a CPU of its own, counted over the CPUs the ranks may
# really use (the union of their affinity masks), not the CPUs online. Under
# taskset, a container's cpuset or a batch allocation that leaves fewer
# CPUs than ranks, ranks yield early instead of burning the time slice a
# peer needs (taskset -c 0 mpirun -np 2: ping-pong 13.8 us spinning, 1.25 us
# yielding). Checked through RDMPI_VERBOSE, which makes each rank report
# its choice; the program is an MPI test program, so this test needs libmpi
# (unlike the other launcher tests).
# The same count decides whether a large message may be split between the
# receiver's read and the sender's write (the sender must not wait for a
# CPU): p2p_split's messages (one way, a halo exchange, one way again) and
# how rank 0 and 1 received them, from RDMPI_VERBOSE's report at
# MPI_Finalize.
. "${srcdir:-.}/test/launcher/lib.sh"

PROG=$builddir/test/mpi/init_basic
SPLIT=$builddir/test/mpi/p2p_split
need_built check "$PROG" "$SPLIT"

mine=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
# The CPUs this test may use, one per line.
cpu_list=$(echo "$mine" | tr ',' '\n' | awk -F- '{ if (NF == 2) for (c = $1; c <= $2; c++) print c; else print $1 }')
first=$(echo "$cpu_list" | head -n 1)
ncpus=$(echo "$cpu_list" | wc -l)
echo "info: cpus $mine ($ncpus)"

# run_on CPUS [mpirun args...]: mpirun under taskset -c CPUS, like run_mpirun.
run_on() {
    local cpus=$1
    shift
    timeout 120 taskset -c "$cpus" "$MPIRUN" "$@" >"$T/out" 2>"$T/err"
    RC=$?
}

# expect_reports WHAT N ERE: N lines of the ranks' reports match ERE.
expect_reports() {
    local got
    got=$(grep -cE -- "$3" "$T/err")
    if [ "$got" -eq "$2" ]; then
        pass "$1"
    else
        fail "$1: $got of $2 rank reports match '$3'"
        sed 's/^/    | /' "$T/err" | head -20
    fi
}

run_on "$first" -n 2 -x RDMPI_VERBOSE=1 "$PROG" "$MARK"
expect_rc "taskset -c $first, 2 ranks" 0
expect_reports "2 ranks on one CPU share it and yield early" 2 \
    '^rdmpi: rank [01]: peers by transport: shm 1; 2 local rank\(s\) on 1 CPU\(s\) .*: ranks share CPUs, 10 polls before yielding$'

# split_reports WHAT WHOLE0 SPLIT0 WHOLE1 SPLIT1: p2p_split passed, and
# ranks 0 and 1 received that many rendezvous messages whole and split.
split_reports() {
    expect_rc "$1" 0
    expect_grep "$1: messages intact" "$T/out" 'No Errors'
    expect_reports "$1: rank 0 read $2 whole, $3 split" 1 \
        "^rdmpi: rank 0: rendezvous received by direct read: $2 whole, $3 split\$"
    expect_reports "$1: rank 1 read $4 whole, $5 split" 1 \
        "^rdmpi: rank 1: rendezvous received by direct read: $4 whole, $5 split\$"
}
run_on "$first" -n 2 -x RDMPI_VERBOSE=1 "$SPLIT" "$MARK"
split_reports "2 ranks on one CPU never split" 3 0 9 0
run_on "$first" -n 2 -x RDMPI_VERBOSE=1 -x RDMPI_RNDV_SPLIT=1 "$SPLIT" "$MARK"
split_reports "RDMPI_RNDV_SPLIT=1 splits every one" 0 3 0 9

run_on "$first" -n 2 -x RDMPI_VERBOSE=1 -x RDMPI_SPIN_COUNT=77 "$PROG" "$MARK"
expect_rc "RDMPI_SPIN_COUNT=77" 0
expect_reports "RDMPI_SPIN_COUNT overrides the choice" 2 ', 77 polls before yielding$'

# Without shm, no rank knows the others' masks: each counts its own.
run_on "$first" -n 2 -x RDMPI_VERBOSE=1 -x RDMPI_TRANSPORTS=tcp "$PROG" "$MARK"
expect_rc "taskset -c $first, tcp only" 0
expect_reports "tcp only: each rank counts its own CPUs" 2 \
    "peers by transport: tcp 1; 2 local rank\\(s\\) on 1 CPU\\(s\\) \\(this rank's CPUs\\): ranks share CPUs, 10 polls"

if [ "$ncpus" -ge 2 ]; then
    two=$(echo "$cpu_list" | head -n 2 | paste -sd,)
    # Bound to a core each: every rank's own mask is small, but between
    # them they have a CPU each.
    run_on "$two" -n 2 --bind-to core -x RDMPI_VERBOSE=1 "$PROG" "$MARK"
    expect_rc "taskset -c $two, 2 ranks bound" 0
    # (Should CPUs $two be one core, both ranks are bound to it, and the
    # two still have a CPU each.)
    expect_reports "2 ranks bound to their own cores spin" 2 \
        '2 local rank\(s\) on [0-9]+ CPU\(s\) \(the node.s ranks. CPUs\): a CPU per rank, 2000 polls'
    # One way: split. The halo exchange: each rank's own send is under
    # way, so read whole.
    run_on "$two" -n 2 --bind-to core -x RDMPI_VERBOSE=1 "$SPLIT" "$MARK"
    split_reports "2 ranks with a CPU each split one-way messages only" 3 0 3 6
    run_on "$two" -n 3 -x RDMPI_VERBOSE=1 "$PROG" "$MARK"
    expect_rc "taskset -c $two, 3 ranks" 0
    expect_reports "3 ranks on 2 CPUs yield early" 3 \
        '3 local rank\(s\) on 2 CPU\(s\) .*: ranks share CPUs, 10 polls'
else
    echo "info: fewer than 2 CPUs, ranks with a CPU each not checked"
fi

finish
