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
    enum bench_start start;
    MPI_Request *reqs;
    MPI_Status *stats;
    char *buf;
    size_t size;
    int rank, nprocs, pairs, sender, peer, errors = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    start = bench_init(argc, argv, &info, &o);
    if (start != BENCH_RUN) {
        MPI_Finalize();
        return start == BENCH_EXIT_OK ? 0 : 2;
    }
    pairs = nprocs / 2;
    sender = rank < pairs;
    peer = sender ? rank + pairs : rank - pairs;

    if (sender)
        buf = bench_alloc(o.max_size);
    else
        buf = bench_alloc(bench_slot_stride(o.max_size) * (size_t)o.window);
    reqs = malloc(sizeof(*reqs) * (size_t)o.window);
    stats = malloc(sizeof(*stats) * (size_t)o.window);
    if (!reqs || !stats) {
        fprintf(stderr, "%s: out of memory\n", info.name);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0)
        bench_print_header(&info, &o);

    for (size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
        int n = bench_iters(&o, size), w = bench_warmup(&o, size), i, j;
        size_t stride = bench_slot_stride(size);
        double t0 = 0.0, t, tmax;

        if (o.check) {
            if (sender) {
                bench_window_send_pattern(buf, size, o.window, peer);
                MPI_Recv(NULL, 0, MPI_BYTE, peer, BENCH_TAG_ACK,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                bench_window_irecv(buf, size, o.window, peer, reqs);
                errors += bench_window_verify(&info, buf, size, o.window, peer,
                                              reqs);
                MPI_Send(NULL, 0, MPI_BYTE, peer, BENCH_TAG_ACK,
                         MPI_COMM_WORLD);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
        for (i = 0; i < w + n; i++) {
            if (i == w)
                t0 = MPI_Wtime();
            if (sender) {
                for (j = 0; j < o.window; j++)
                    MPI_Isend(buf, (int)size, MPI_BYTE, peer, BENCH_TAG_DATA,
                              MPI_COMM_WORLD, &reqs[j]);
                MPI_Waitall(o.window, reqs, stats);
                MPI_Recv(NULL, 0, MPI_BYTE, peer, BENCH_TAG_ACK,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                for (j = 0; j < o.window; j++)
                    MPI_Irecv(buf + (size_t)j * stride, (int)size, MPI_BYTE,
                              peer, BENCH_TAG_DATA, MPI_COMM_WORLD, &reqs[j]);
                MPI_Waitall(o.window, reqs, stats);
                MPI_Send(NULL, 0, MPI_BYTE, peer, BENCH_TAG_ACK,
                         MPI_COMM_WORLD);
            }
        }
        t = sender ? MPI_Wtime() - t0 : 0.0;
        MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0)
            bench_print_row(&o, size, (double)pairs * o.window * n / tmax);
    }

    errors = bench_check_total(errors);
    if (rank == 0 && o.check)
        fprintf(errors ? stderr : stdout, "# check: %s (%d errors)\n",
                errors ? "FAILED" : "passed", errors);
    free(reqs);
    free(stats);
    free(buf);
    MPI_Finalize();
    return errors ? 1 : 0;
}
