#!/bin/bash
# Ranks over TCP with too few file descriptors (ulimit -n, set by each
# rank's wrapper before it runs the program): the job must end with an
# error that names the exhausted resource and its limit (and the peer,
# where the call had one), never hang and never report a bare "system call
# failed". At np 6, ranks with 12 descriptors run out in socket() on one
# side of a connection and in accept() on the other (each then waits for a
# connection the other cannot make); with 10, already in MPI_Init where
# the machine has two addresses to listen on.
. "${srcdir:-.}/test/launcher/lib.sh"

PROG=$builddir/test/mpi/coll_alltoall
need_built check "$PROG"

for n in 10 12; do
    RUN_LIMIT=90 run_mpirun -np 6 -x RDMPI_TRANSPORTS=tcp \
        sh -c "ulimit -n $n && exec \"\$0\" \"\$@\"" "$PROG" "$MARK"
    echo "info: ulimit -n $n: exit status $RC after $ELAPSED ms"
    if [ "$RC" -ne 0 ]; then
        pass "ulimit -n $n: the job fails (exit status $RC)"
    else
        fail "ulimit -n $n: the job succeeded; the test expects too few descriptors"
    fi
    expect_grep "ulimit -n $n: the error names the descriptor limit and its value" "$T/err" \
        "rank [0-9]+: MPI_(Init|Alltoall)( failed)?: .*tcp: [a-z_0-9]+\(\)( to listen)? for (the connection with rank [0-9]+|a connection from another rank|the connections of this rank) failed: Too many open files: .*RLIMIT_NOFILE, ulimit -n: $n\)"
done

finish
