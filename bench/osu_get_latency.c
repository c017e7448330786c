/*
 * osu_get_latency: latency of MPI_Get between ranks 0 and 1, OSU style:
 * one get of the size from the peer's window, completed by the
 * synchronization -s chooses (default: MPI_Win_flush in a lock_all epoch),
 * in the window -w chooses (default: MPI_Win_allocate). Reported: mean
 * microseconds per get with its synchronization (see bench_rma.h).
 */
#include "bench_rma_run.h"

#include <stdlib.h>

static const bench_info_t info = {
    .name = "osu_get_latency",
    .what = "MPI_Get latency rank 0 <- rank 1 (both ways with fence and "
            "PSCW), microseconds per get and its synchronization (lower is "
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

/* One untimed round: the target's window holds a known pattern, the
 * origin's buffer is poisoned, and the origin checks what it got. */
static int check_round(bench_win_t *w, void *obuf, size_t size, int window)
{
    unsigned seed = bench_seed(size, w->peer, 0);
    int errors = 0;

    (void)window;
    if (bench_rma_latency_target(w)) {
        bench_win_local_begin(w);
        bench_fill(w->base, size, bench_seed(size, w->rank, 0));
        bench_win_local_end(w);
    }
    if (bench_rma_latency_origin(w))
        bench_fill(obuf, size, ~seed);
    MPI_Barrier(MPI_COMM_WORLD);
    bench_rma_latency_once(w, BENCH_RMA_GET, obuf, size, NULL);
    if (bench_rma_latency_origin(w))
        errors = bench_verify(&info, obuf, size, seed);
    MPI_Barrier(MPI_COMM_WORLD);
    return errors;
}

int main(int argc, char **argv)
{
    return bench_rma_latency_main(argc, argv, &info, BENCH_RMA_GET,
                                  check_round);
}
