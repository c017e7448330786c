/*
 * osu_mr: message rate, OSU mbw_mr style. Ranks are split into pairs:
 * rank r < np/2 sends to rank r + np/2 (np = 2: one pair, 0 -> 1). Per
 * iteration each sender starts a window of MPI_Isend, each receiver a window
 * of MPI_Irecv; both wait for all, and the receiver returns a zero-byte ack.
 * Reported: messages delivered by all pairs / the slowest sender's time, in
 * messages per second (higher is better). The small sizes are the point.
 */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>

static const bench_info_t info = {
    .name = "osu_mr",
    .what = "message rate of sender/receiver pairs (rank r -> r + np/2), "
            "windows of nonblocking sends, messages/s (higher is better)",
    .column = "rate(msg/s)",
    .csv_column = "msgs_per_s",
    .multi_pair = 1,
    .uses_window = 1,
    .min_size = 1,
    .max_size = 8192,
    .iters = 5000, .iters_large = 500,
    .warmup = 500, .warmup_large = 50,
    .window = 64,
};

int main(int argc, char **argv)
{
    bench_opts_t o;
    MPI_Request *reqs;
    MPI_Status *stats;
    void *buf;
    size_t size;
    int rank, nprocs, pairs, sender, peer, errors = 0;

    rank = bench_begin(&argc, &argv, &info, &o);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    pairs = nprocs / 2;
    sender = rank < pairs;
    peer = sender ? rank + pairs : rank - pairs;

    buf = bench_oneway_buffer(&o, sender);
    reqs = bench_malloc(&info, sizeof(*reqs) * (size_t)o.window);
    stats = bench_malloc(&info, sizeof(*stats) * (size_t)o.window);
    if (rank == 0)
        bench_print_header(&info, &o);

    for (size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
        int n = bench_iters(&o, size), w = bench_warmup(&o, size), i;
        double t0 = 0.0, t, tmax;

        if (o.check)
            errors += bench_oneway_check(&info, buf, size, o.window, sender,
                                         peer, reqs);
        MPI_Barrier(MPI_COMM_WORLD);
        for (i = 0; i < w + n; i++) {
            if (i == w)
                t0 = MPI_Wtime();
            bench_oneway_window(buf, size, o.window, sender, peer, reqs, stats);
        }
        t = sender ? MPI_Wtime() - t0 : 0.0;
        MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0)
            bench_print_row(&o, size, (double)pairs * o.window * n / tmax);
    }

    free(reqs);
    free(stats);
    free(buf);
    return bench_end(&o, errors);
}
