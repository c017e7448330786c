/*
 * osu_put_latency: latency of MPI_Put between ranks 0 and 1, OSU style:
 * one put of the size into the peer's window, completed by the
 * synchronization -s chooses (default: MPI_Win_flush in a lock_all epoch),
 * in the window -w chooses (default: MPI_Win_allocate). Reported: mean
 * microseconds per put with its synchronization (see bench_rma.h).
 */
#include "bench_rma_run.h"

static const bench_info_t info = {
    .name = "osu_put_latency",
    .what = "MPI_Put latency rank 0 -> rank 1 (both ways with fence and "
            "PSCW), microseconds per put and its synchronization (lower is "
            "better)",
    BENCH_RMA_LATENCY_DEFAULTS,
    .min_size = 1,
    .max_size = 4u << 20,
};

int main(int argc, char **argv)
{
    return bench_rma_latency_main(argc, argv, &info, BENCH_RMA_PUT, NULL);
}
