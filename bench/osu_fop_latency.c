/*
 * osu_fop_latency: latency of MPI_Fetch_and_op (MPI_SUM on one
 * MPI_LONG_LONG, 8 bytes) between ranks 0 and 1, OSU style: one
 * fetch-and-add on the peer's window, completed by the synchronization -s
 * chooses (default: MPI_Win_flush in a lock_all epoch), in the window -w
 * chooses (default: MPI_Win_allocate). Reported: mean microseconds per
 * operation with its synchronization; one row, size 8.
 */
#include "bench_rma_run.h"

static const bench_info_t info = {
    .name = "osu_fop_latency",
    .what = "MPI_Fetch_and_op (MPI_SUM, MPI_LONG_LONG) latency rank 0 -> "
            "rank 1 (both ways with fence and PSCW), microseconds per "
            "operation and its synchronization (lower is better)",
    BENCH_RMA_COUNTER_DEFAULTS,
};

int main(int argc, char **argv)
{
    return bench_rma_latency_main(argc, argv, &info, BENCH_RMA_FOP, NULL);
}
