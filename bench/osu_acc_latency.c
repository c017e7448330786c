/*
 * osu_acc_latency: latency of MPI_Accumulate (MPI_SUM on MPI_INT, size / 4
 * elements; the size column is bytes) between ranks 0 and 1, OSU style,
 * completed by the synchronization -s chooses (default: MPI_Win_flush in a
 * lock_all epoch), in the window -w chooses (default: MPI_Win_allocate).
 * Reported: mean microseconds per accumulate with its synchronization.
 */
#include "bench_rma_run.h"

#include <stdio.h>

static const bench_info_t info = {
    .name = "osu_acc_latency",
    .what = "MPI_Accumulate (MPI_SUM, MPI_INT) latency rank 0 -> rank 1 "
            "(both ways with fence and PSCW), microseconds per accumulate and "
            "its synchronization (lower is better)",
    BENCH_RMA_LATENCY_DEFAULTS,
    .min_size = 4,
    .max_size = 4u << 20,
    .elem_size = sizeof(int),
    .elem_name = "int",
};

/* Small values of a pattern, so sums stay far from overflow. */
static int value(unsigned seed, size_t i)
{
    return (int)((seed + (unsigned)i * 2654435761u) % 100000u);
}

static void fill_values(int *v, size_t count, unsigned seed)
{
    size_t i;

    for (i = 0; i < count; i++)
        v[i] = value(seed, i);
}

/* One untimed round: the target's elements and the origin's operands
 * follow two patterns; the target checks every element is their sum. */
static int check_round(bench_win_t *w, void *obuf_, size_t size)
{
    unsigned mine = bench_seed(size, w->rank, 0);
    unsigned theirs = bench_seed(size, w->peer, 0);
    size_t count = size / sizeof(int), i;
    int *tv = (int *)(void *)w->base;
    int *obuf = obuf_, errors = 0;

    if (bench_rma_latency_target(w)) {
        bench_win_local_begin(w);
        fill_values(tv, count, ~mine);
        bench_win_local_end(w);
    }
    if (bench_rma_latency_origin(w))
        fill_values(obuf, count, mine);
    MPI_Barrier(MPI_COMM_WORLD);
    bench_rma_latency_once(w, BENCH_RMA_ACC, obuf, size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (bench_rma_latency_target(w)) {
        bench_win_local_begin(w);
        for (i = 0; i < count && !errors; i++) {
            int want = value(~mine, i) + value(theirs, i);

            if (tv[i] != want) {
                fprintf(stderr, "%s: rank %d: size %zu: element %zu is %d, "
                        "expected %d\n", info.name, w->rank, size, i, tv[i],
                        want);
                errors = 1;
            }
        }
        bench_win_local_end(w);
    }
    return errors;
}

int main(int argc, char **argv)
{
    return bench_rma_latency_main(argc, argv, &info, BENCH_RMA_ACC,
                                  check_round);
}
