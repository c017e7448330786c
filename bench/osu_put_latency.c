/*
 * osu_put_latency: latency of MPI_Put between ranks 0 and 1, OSU style:
 * one put of the size into the peer's window, completed by the
 * synchronization -s chooses (default: MPI_Win_flush in a lock_all epoch),
 * in the window -w chooses (default: MPI_Win_allocate). Reported: mean
 * microseconds per put with its synchronization (see bench_rma.h).
 */
#include "bench_rma_run.h"

#include <stdlib.h>

static const bench_info_t info = {
    .name = "osu_put_latency",
    .what = "MPI_Put latency rank 0 -> rank 1 (both ways with fence and "
            "PSCW), microseconds per put and its synchronization (lower is "
            "better)",
    .column = "latency(us)",
    .csv_column = "latency_us",
    .rma = 1,
    .decimals = 3,
    .min_size = 1,
    .max_size = 4u << 20,
    .iters = 10000, .iters_large = 1000,
    .warmup = 1000, .warmup_large = 10,
    .window = 1,
};

/* One untimed round with a known pattern, checked at the target. */
static int check_round(bench_win_t *w, void *obuf, size_t size, int window)
{
    unsigned seed = bench_seed(size, w->peer, 0);
    int errors = 0;

    (void)window;
    if (bench_rma_latency_target(w)) {
        bench_win_local_begin(w);
        bench_fill(w->base, size, ~seed);
        bench_win_local_end(w);
    }
    if (bench_rma_latency_origin(w))
        bench_fill(obuf, size, bench_seed(size, w->rank, 0));
    MPI_Barrier(MPI_COMM_WORLD);
    bench_rma_latency_once(w, BENCH_RMA_PUT, obuf, size, NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (bench_rma_latency_target(w)) {
        bench_win_local_begin(w);
        errors = bench_verify(&info, w->base, size, seed);
        bench_win_local_end(w);
    }
    return errors;
}

int main(int argc, char **argv)
{
    return bench_rma_latency_main(argc, argv, &info, BENCH_RMA_PUT,
                                  check_round);
}
