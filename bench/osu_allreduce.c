/*
 * osu_allreduce: latency of MPI_Allreduce (MPI_SUM on MPI_FLOAT) over all
 * ranks of MPI_COMM_WORLD, as the OSU micro-benchmarks define collective
 * latency: every rank times each call on its own, with an untimed
 * MPI_Barrier between calls; a rank's latency is the mean of its calls and
 * the reported value is the largest over the ranks. Sizes are in bytes of
 * the buffer (size / 4 floats).
 */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>

static const bench_info_t info = {
    .name = "osu_allreduce",
    .what = "MPI_Allreduce (MPI_SUM, MPI_FLOAT) latency, mean per call, "
            "largest over the ranks, microseconds (lower is better)",
    BENCH_LATENCY_COLUMNS,
    BENCH_COLL_DEFAULTS,
    .elem_size = sizeof(float),
    .elem_name = "float",
};

/* Element i of rank r's input in the -c round: small integers, so the sum
 * over any number of ranks is exact in float. */
static float check_value(size_t i, int r, size_t count)
{
    return (float)((i * 7 + (size_t)r * 13 + count) % 61);
}

static int check_round(float *sbuf, float *rbuf, size_t count, int rank,
                       int nprocs)
{
    size_t i;
    int r;

    for (i = 0; i < count; i++) {
        sbuf[i] = check_value(i, rank, count);
        rbuf[i] = -1.0f;
    }
    MPI_Allreduce(sbuf, rbuf, (int)count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    for (i = 0; i < count; i++) {
        float want = 0.0f;

        for (r = 0; r < nprocs; r++)
            want += check_value(i, r, count);
        if (rbuf[i] != want) {
            fprintf(stderr, "%s: rank %d: %zu floats: element %zu is %g, "
                    "expected %g\n", info.name, rank, count, i,
                    (double)rbuf[i], (double)want);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    bench_opts_t o;
    float *sbuf, *rbuf;
    size_t size, i;
    int rank, nprocs, errors = 0;

    rank = bench_begin(&argc, &argv, &info, &o);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    sbuf = bench_alloc(o.max_size);
    rbuf = bench_alloc(o.max_size);
    /* Ordinary values in the timed loop: no NaN or denormal slows the sums. */
    for (i = 0; i < o.max_size / sizeof(float); i++)
        sbuf[i] = 1.0f;
    if (rank == 0)
        bench_print_header(&info, &o);

    for (size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
        size_t count = size / sizeof(float);
        int n = bench_iters(&o, size), w = bench_warmup(&o, size);
        double sum = 0.0, worst;

        if (o.check) {
            errors += check_round(sbuf, rbuf, count, rank, nprocs);
            for (i = 0; i < count; i++)
                sbuf[i] = 1.0f;
        }
        BENCH_TIME_EACH_CALL(sum, w, n,
                             MPI_Allreduce(sbuf, rbuf, (int)count, MPI_FLOAT,
                                           MPI_SUM, MPI_COMM_WORLD));
        worst = bench_worst_mean_us(sum, n);
        if (rank == 0)
            bench_print_row(&o, count * sizeof(float), worst);
    }

    free(sbuf);
    free(rbuf);
    return bench_end(&o, errors);
}
