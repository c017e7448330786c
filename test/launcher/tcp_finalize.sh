#!/bin/bash
# Two ranks that first connect to each other over TCP inside MPI_Finalize's
# closing barrier, from both sides at once, while the higher rank has
# already finished the barrier: the higher rank must still send its queue
# and its BYE on the connection that wins (the lower rank's), or the lower
# rank, still in the barrier, takes the closed connection for a dead peer
# ("the closing barrier failed (peer process failed or disconnected)").
# badinput_trunc at np 5 with the scatter + ring broadcast does this to
# ranks 1 and 4 in about one job in seven on an idle machine; a job takes
# a tenth of a second, so 100 of them show it (all must succeed).
. "${srcdir:-.}/test/launcher/lib.sh"

PROG=$builddir/test/mpi/badinput_trunc
need_built check "$PROG"

runs=${TCP_FINALIZE_RUNS:-100}
bad=0
for i in $(seq 1 "$runs"); do
    RUN_LIMIT=60 run_mpirun -np 5 -x RDMPI_TRANSPORTS=tcp -x RDMPI_BCAST_SCATTER_MIN_PROCS=4 \
        "$PROG" "$MARK"
    if [ "$RC" -ne 0 ]; then
        bad=$((bad + 1))
        [ "$bad" -eq 1 ] && { echo "info: job $i exited with $RC:"; tail -n 3 "$T/err"; }
    fi
done
if [ "$bad" -eq 0 ]; then
    pass "$runs jobs over TCP at np 5 ended cleanly"
else
    fail "$bad of $runs jobs over TCP at np 5 failed (first one's stderr above)"
fi

finish
