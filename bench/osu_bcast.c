/*
 * osu_bcast: latency of MPI_Bcast of MPI_BYTE from rank 0 to all ranks of
 * MPI_COMM_WORLD, as the OSU micro-benchmarks define collective latency:
 * every rank times each call on its own, with an untimed MPI_Barrier
 * between calls; a rank's latency is the mean of its calls and the reported
 * value is the largest over the ranks.
 */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>

static const bench_info_t info = {
    .name = "osu_bcast",
    .what = "MPI_Bcast latency from rank 0, mean per call, largest over the "
            "ranks, microseconds (lower is better)",
    BENCH_LATENCY_COLUMNS,
    BENCH_COLL_DEFAULTS,
};

/* One untimed broadcast of a known pattern, poisoned buffers elsewhere. */
static int check_round(void *buf, size_t size, int rank)
{
    unsigned seed = bench_seed(size, 0, 0);

    bench_fill(buf, size, rank == 0 ? seed : ~seed);
    MPI_Bcast(buf, (int)size, MPI_BYTE, 0, MPI_COMM_WORLD);
    return bench_verify(&info, buf, size, seed);
}

int main(int argc, char **argv)
{
    bench_opts_t o;
    char *buf;
    size_t size;
    int rank, errors = 0;

    rank = bench_begin(&argc, &argv, &info, &o);

    buf = bench_alloc(o.max_size);
    if (rank == 0)
        bench_print_header(&info, &o);

    for (size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
        int n = bench_iters(&o, size), w = bench_warmup(&o, size);
        double sum = 0.0, worst;

        if (o.check)
            errors += check_round(buf, size, rank);
        BENCH_TIME_EACH_CALL(sum, w, n,
                             MPI_Bcast(buf, (int)size, MPI_BYTE, 0,
                                       MPI_COMM_WORLD));
        worst = bench_worst_mean_us(sum, n);
        if (rank == 0)
            bench_print_row(&o, size, worst);
    }

    free(buf);
    return bench_end(&o, errors);
}
