/*
 * osu_latency: point-to-point latency between ranks 0 and 1, measured the
 * way the OSU micro-benchmarks define it: rank 0 sends a message, rank 1
 * answers with one of the same size, and the reported value is half the
 * mean round-trip time in microseconds. Blocking MPI_Send / MPI_Recv.
 */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>

static const bench_info_t info = {
    .name = "osu_latency",
    .what = "ping-pong latency between ranks 0 and 1, half round trip in "
            "microseconds (lower is better)",
    BENCH_LATENCY_COLUMNS,
    BENCH_PINGPONG_COUNTS,
    .multi_pair = 0,
    .uses_window = 0,
    .min_size = 0,
    .max_size = 4u << 20,
};

/* One untimed round trip with a known pattern each way. */
static int check_round(void *sbuf, void *rbuf, size_t size, int rank)
{
    int peer = 1 - rank, count, errors = 0;
    MPI_Status st;

    if (rank == 0) {
        bench_fill(sbuf, size, bench_seed(size, 0, 0));
        bench_fill(rbuf, size, ~bench_seed(size, 1, 0));
        MPI_Send(sbuf, (int)size, MPI_BYTE, peer, BENCH_TAG_DATA,
                 MPI_COMM_WORLD);
        MPI_Recv(rbuf, (int)size, MPI_BYTE, peer, BENCH_TAG_DATA,
                 MPI_COMM_WORLD, &st);
    } else {
        bench_fill(rbuf, size, ~bench_seed(size, 0, 0));
        MPI_Recv(rbuf, (int)size, MPI_BYTE, peer, BENCH_TAG_DATA,
                 MPI_COMM_WORLD, &st);
        bench_fill(sbuf, size, bench_seed(size, 1, 0));
        MPI_Send(sbuf, (int)size, MPI_BYTE, peer, BENCH_TAG_DATA,
                 MPI_COMM_WORLD);
    }
    MPI_Get_count(&st, MPI_BYTE, &count);
    if ((size_t)count != size) {
        fprintf(stderr, "%s: rank %d: size %zu: received %d bytes\n",
                info.name, rank, size, count);
        return 1;
    }
    errors += bench_verify(&info, rbuf, size, bench_seed(size, peer, 0));
    return errors;
}

int main(int argc, char **argv)
{
    bench_opts_t o;
    char *sbuf, *rbuf;
    size_t size;
    int rank, errors = 0;

    rank = bench_begin(&argc, &argv, &info, &o);

    sbuf = bench_alloc(o.max_size);
    rbuf = bench_alloc(o.max_size);
    if (rank == 0)
        bench_print_header(&info, &o);

    for (size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
        int n = bench_iters(&o, size), w = bench_warmup(&o, size), i;
        int peer = 1 - rank;
        double t0 = 0.0, t;

        if (o.check)
            errors += check_round(sbuf, rbuf, size, rank);
        MPI_Barrier(MPI_COMM_WORLD);
        for (i = 0; i < w + n; i++) {
            if (i == w)
                t0 = MPI_Wtime();
            if (rank == 0) {
                MPI_Send(sbuf, (int)size, MPI_BYTE, peer, BENCH_TAG_DATA,
                         MPI_COMM_WORLD);
                MPI_Recv(rbuf, (int)size, MPI_BYTE, peer, BENCH_TAG_DATA,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(rbuf, (int)size, MPI_BYTE, peer, BENCH_TAG_DATA,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(sbuf, (int)size, MPI_BYTE, peer, BENCH_TAG_DATA,
                         MPI_COMM_WORLD);
            }
        }
        t = MPI_Wtime() - t0;
        if (rank == 0)
            bench_print_row(&o, size, t * 1e6 / (2.0 * n));
    }

    free(sbuf);
    free(rbuf);
    return bench_end(&o, errors);
}
