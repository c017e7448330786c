#!/bin/bash
# mpirun --timeout (and MPIEXEC_TIMEOUT) asks every rank where it is
# blocked before it ends the job: each rank prints the MPI call it is in,
# what it waits for there and its backtrace; then the job ends with 124 as
# before. Ranks on another host (a daemon) are asked through it. A program
# that is no rdmpi rank is not disturbed by the question (SIGURG).
. "${srcdir:-.}/test/launcher/lib.sh"

R=$builddir/test/launcher/crash_rank
need_built check "$R"

check_where() {  # what, then the ranks: rank 1 waits in MPI_Recv, the others in MPI_Barrier
    local what=$1
    expect_rc "$what: timeout" 124
    expect_grep "$what: mpirun asks before it stops the job" "$T/err" \
        "^mpirun: the job timed out after 2 seconds; asking each rank where it is blocked$"
    expect_grep "$what: rank 1 is in MPI_Recv, waiting for rank 2's tag 42" "$T/err" \
        "^rdmpi: rank 1 on host [^ ]+ \(pid [0-9]+\): blocked in MPI_Recv, waiting for a message from rank 2, tag 42, on MPI_COMM_WORLD$"
    expect_grep "$what: rank 0 is in MPI_Barrier" "$T/err" \
        "^rdmpi: rank 0 on host [^ ]+ \(pid [0-9]+\): blocked in MPI_Barrier"
    expect_grep "$what: rank 2 is in MPI_Barrier" "$T/err" \
        "^rdmpi: rank 2 on host [^ ]+ \(pid [0-9]+\): blocked in MPI_Barrier"
    expect_grep "$what: with rank 1's backtrace" "$T/err" "\(MPI_Recv\+0x[0-9a-f]+\)"
    expect_grep "$what: then the job ends" "$T/err" \
        "^mpirun: the job timed out after 2 seconds; stopping the job$"
}

run_mpirun -n 3 --timeout 2 "$R" hang 1 mark=$MARK
check_where "--timeout"

MPIEXEC_TIMEOUT=2 run_mpirun -n 3 "$R" hang 1 mark=$MARK
check_where "MPIEXEC_TIMEOUT"

# Ranks 1 and 2 on a second "host" whose daemon the agent starts here.
printf '#!/bin/sh\nshift\nexec "$@"\n' >"$T/agent"
chmod +x "$T/agent"
run_mpirun -hosts localhost:1,lt-other-host:2 --launch-agent "$T/agent" --timeout 2 \
    -n 3 "$R" hang 1 mark=$MARK
check_where "ranks on another host"

# Not an rdmpi rank: the question is ignored, the timeout is what ends it.
run_mpirun -n 2 --timeout 1 sh -c "sleep 60; : $MARK"
expect_rc "a shell: timeout" 124
expect_no_grep "a shell is not killed by the question" "$T/err" "killed by signal"
expect_grep "a shell: the job ends by the timeout" "$T/err" \
    "^mpirun: the job timed out after 1 second; stopping the job$"

finish
