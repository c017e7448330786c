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
    .column = "latency(us)",
    .csv_column = "latency_us",
    .multi_pair = 1,
    .uses_window = 0,
    .min_size = 8,
    .max_size = 1u << 20,
    .iters = 1000, .iters_large = 100,
    .warmup = 200, .warmup_large = 10,
    .window = 1,
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
    enum bench_start start;
    char *buf;
    size_t size;
    int rank, errors = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    start = bench_init(argc, argv, &info, &o);
    if (start != BENCH_RUN) {
        MPI_Finalize();
        return start == BENCH_EXIT_OK ? 0 : 2;
    }

    buf = bench_alloc(o.max_size);
    if (rank == 0)
        bench_print_header(&info, &o);

    for (size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
        int n = bench_iters(&o, size), w = bench_warmup(&o, size), it;
        double sum = 0.0, mean, worst = 0.0;

        if (o.check)
            errors += check_round(buf, size, rank);
        MPI_Barrier(MPI_COMM_WORLD);
        for (it = 0; it < w + n; it++) {
            double t0 = MPI_Wtime();

            MPI_Bcast(buf, (int)size, MPI_BYTE, 0, MPI_COMM_WORLD);
            if (it >= w)
                sum += MPI_Wtime() - t0;
            MPI_Barrier(MPI_COMM_WORLD);
        }
        mean = sum * 1e6 / n;
        MPI_Reduce(&mean, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0)
            bench_print_row(&o, size, worst);
    }

    errors = bench_check_total(errors);
    if (rank == 0 && o.check)
        fprintf(errors ? stderr : stdout, "# check: %s (%d errors)\n",
                errors ? "FAILED" : "passed", errors);
    free(buf);
    MPI_Finalize();
    return errors ? 1 : 0;
}
