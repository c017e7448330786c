/*
 * osu_alltoall: latency of MPI_Alltoall of MPI_BYTE over all ranks of
 * MPI_COMM_WORLD; the size is the block each rank sends to each rank (as in
 * the OSU micro-benchmarks), so a rank sends and receives np * size bytes.
 * Every rank times each call on its own, with an untimed MPI_Barrier between
 * calls; a rank's latency is the mean of its calls and the reported value
 * is the largest over the ranks.
 */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>

static const bench_info_t info = {
    .name = "osu_alltoall",
    .what = "MPI_Alltoall latency, size = bytes per destination, mean per "
            "call, largest over the ranks, microseconds (lower is better)",
    BENCH_LATENCY_COLUMNS,
    BENCH_COLL_DEFAULTS,
};

/* One untimed exchange: block j of rank r's send buffer carries the pattern
 * of (size, r, j); every received block must carry its sender's pattern
 * addressed to this rank, which also catches blocks in the wrong place. */
static int check_round(char *sbuf, char *rbuf, size_t size, int rank,
                       int nprocs)
{
    int j, errors = 0;

    for (j = 0; j < nprocs; j++) {
        bench_fill(sbuf + (size_t)j * size, size, bench_seed(size, rank, j));
        bench_fill(rbuf + (size_t)j * size, size, ~bench_seed(size, j, rank));
    }
    MPI_Alltoall(sbuf, (int)size, MPI_BYTE, rbuf, (int)size, MPI_BYTE,
                 MPI_COMM_WORLD);
    for (j = 0; j < nprocs && !errors; j++)
        errors += bench_verify(&info, rbuf + (size_t)j * size, size,
                               bench_seed(size, j, rank));
    return errors;
}

int main(int argc, char **argv)
{
    bench_opts_t o;
    char *sbuf, *rbuf;
    size_t size;
    int rank, nprocs, errors = 0;

    rank = bench_begin(&argc, &argv, &info, &o);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    sbuf = bench_alloc(o.max_size * (size_t)nprocs);
    rbuf = bench_alloc(o.max_size * (size_t)nprocs);
    if (rank == 0)
        bench_print_header(&info, &o);

    for (size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
        int n = bench_iters(&o, size), w = bench_warmup(&o, size);
        double sum = 0.0, worst;

        if (o.check)
            errors += check_round(sbuf, rbuf, size, rank, nprocs);
        BENCH_TIME_EACH_CALL(sum, w, n,
                             MPI_Alltoall(sbuf, (int)size, MPI_BYTE, rbuf,
                                          (int)size, MPI_BYTE,
                                          MPI_COMM_WORLD));
        worst = bench_worst_mean_us(sum, n);
        if (rank == 0)
            bench_print_row(&o, size, worst);
    }

    free(sbuf);
    free(rbuf);
    return bench_end(&o, errors);
}
