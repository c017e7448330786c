/*
 * osu_fop_latency: latency of MPI_Fetch_and_op (MPI_SUM on one
 * MPI_LONG_LONG, 8 bytes) between ranks 0 and 1, OSU style: one
 * fetch-and-add on the peer's window, completed by the synchronization -s
 * chooses (default: MPI_Win_flush in a lock_all epoch), in the window -w
 * chooses (default: MPI_Win_allocate). Reported: mean microseconds per
 * operation with its synchronization; one row, size 8.
 */
#include "bench_rma_run.h"

#include <stdio.h>

static const bench_info_t info = {
    .name = "osu_fop_latency",
    .what = "MPI_Fetch_and_op (MPI_SUM, MPI_LONG_LONG) latency rank 0 -> "
            "rank 1 (both ways with fence and PSCW), microseconds per "
            "operation and its synchronization (lower is better)",
    .column = "latency(us)",
    .csv_column = "latency_us",
    .rma = 1,
    .decimals = 3,
    .fixed_size = 1,
    .min_size = sizeof(long long),
    .max_size = sizeof(long long),
    .iters = 10000, .iters_large = 1000,
    .warmup = 1000, .warmup_large = 10,
    .window = 1,
};

/* One untimed round: the origin must fetch the target's known value, and
 * the target must then hold that value plus the origin's operand. */
static int check_round(bench_win_t *w, void *obuf, size_t size, int window)
{
    long long *target = (long long *)(void *)w->base;
    bench_rma_counter_t c = { .add = 1000 + w->rank, .old = -1 };
    long long start = 5000 + w->rank;
    long long theirs = 1000 + w->peer, was = 5000 + w->peer;
    int errors = 0;

    (void)obuf;
    (void)size;
    (void)window;
    if (bench_rma_latency_target(w)) {
        bench_win_local_begin(w);
        *target = start;
        bench_win_local_end(w);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    bench_rma_latency_once(w, BENCH_RMA_FOP, NULL, 0, &c);
    if (bench_rma_latency_origin(w) && c.old != was) {
        fprintf(stderr, "%s: rank %d: fetched %lld, expected %lld\n",
                info.name, w->rank, c.old, was);
        errors++;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (bench_rma_latency_target(w)) {
        bench_win_local_begin(w);
        if (*target != start + theirs) {
            fprintf(stderr, "%s: rank %d: target holds %lld, expected "
                    "%lld\n", info.name, w->rank, *target, start + theirs);
            errors++;
        }
        bench_win_local_end(w);
    }
    return errors;
}

int main(int argc, char **argv)
{
    return bench_rma_latency_main(argc, argv, &info, BENCH_RMA_FOP,
                                  check_round);
}
