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
. "${srcdir:-.}/test/launcher/lib.sh"

PROG=$builddir/test/mpi/init_basic
if [ ! -x "$PROG" ]; then
    echo "FAIL: $PROG is not built (run make check)"
    exit 99
fi

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
    run_on "$two" -n 3 -x RDMPI_VERBOSE=1 "$PROG" "$MARK"
    expect_rc "taskset -c $two, 3 ranks" 0
    expect_reports "3 ranks on 2 CPUs yield early" 3 \
        '3 local rank\(s\) on 2 CPU\(s\) .*: ranks share CPUs, 10 polls'
else
    echo "info: fewer than 2 CPUs, ranks with a CPU each not checked"
fi

finish
