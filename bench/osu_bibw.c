/*
 * osu_bibw: bidirectional bandwidth between ranks 0 and 1, OSU style. Per
 * iteration each rank posts a window of MPI_Irecv (one slot each), then a
 * window of MPI_Isend to the other, and waits for all of them. Reported:
 * bytes moved in both directions / time on rank 0, in MB/s (1 MB = 1e6
 * bytes), higher is better.
 */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>

static const bench_info_t info = {
    .name = "osu_bibw",
    .what = "bidirectional bandwidth ranks 0 <-> 1, windows of nonblocking "
            "sends both ways, MB/s = 1e6 B/s, sum of both directions "
            "(higher is better)",
    .column = "bandwidth(MB/s)",
    .csv_column = "bibw_MBps",
    .multi_pair = 0,
    BENCH_WINDOW_BW_DEFAULTS,
};

int main(int argc, char **argv)
{
    bench_opts_t o;
    MPI_Request *reqs;
    MPI_Status *stats;
    char *sbuf, *rbuf;
    size_t size;
    int rank, peer, errors = 0;

    rank = bench_begin(&argc, &argv, &info, &o);
    peer = 1 - rank;

    /* One send buffer reused by every send of a window; one receive slot
     * per message of the window. */
    sbuf = bench_alloc(o.max_size);
    rbuf = bench_alloc(bench_slot_stride(o.max_size) * (size_t)o.window);
    reqs = bench_malloc(&info, sizeof(*reqs) * 2 * (size_t)o.window);
    stats = bench_malloc(&info, sizeof(*stats) * 2 * (size_t)o.window);
    if (rank == 0)
        bench_print_header(&info, &o);

    for (size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
        int n = bench_iters(&o, size), w = bench_warmup(&o, size), i, j;
        size_t stride = bench_slot_stride(size);
        double t0 = 0.0, t;

        if (o.check) {
            bench_window_irecv(rbuf, size, o.window, peer, reqs);
            bench_window_send_pattern(sbuf, size, o.window, peer);
            errors += bench_window_verify(&info, rbuf, size, o.window, peer,
                                          reqs);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        for (i = 0; i < w + n; i++) {
            if (i == w)
                t0 = MPI_Wtime();
            for (j = 0; j < o.window; j++)
                MPI_Irecv(rbuf + (size_t)j * stride, (int)size, MPI_BYTE, peer,
                          BENCH_TAG_DATA, MPI_COMM_WORLD, &reqs[j]);
            for (j = 0; j < o.window; j++)
                MPI_Isend(sbuf, (int)size, MPI_BYTE, peer, BENCH_TAG_DATA,
                          MPI_COMM_WORLD, &reqs[o.window + j]);
            MPI_Waitall(2 * o.window, reqs, stats);
        }
        t = MPI_Wtime() - t0;
        if (rank == 0)
            bench_print_row(&o, size,
                            2.0 * (double)size * o.window * n / t / 1e6);
    }

    free(reqs);
    free(stats);
    free(sbuf);
    free(rbuf);
    return bench_end(&o, errors);
}
