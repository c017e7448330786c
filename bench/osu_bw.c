/*
 * osu_bw: unidirectional bandwidth from rank 0 to rank 1, OSU style. Per
 * iteration rank 0 starts a window of MPI_Isend, rank 1 a window of MPI_Irecv
 * (one slot each, so no two pending receives share memory); both wait for
 * all, then rank 1 returns a zero-byte ack so the next window does not start
 * before this one has arrived. Reported: bytes moved / time, in MB/s
 * (1 MB = 1e6 bytes), higher is better.
 */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>

static const bench_info_t info = {
    .name = "osu_bw",
    .what = "unidirectional bandwidth rank 0 -> rank 1, windows of "
            "nonblocking sends, MB/s = 1e6 B/s (higher is better)",
    BENCH_BW_COLUMNS,
    .multi_pair = 0,
    BENCH_WINDOW_BW_DEFAULTS,
};

int main(int argc, char **argv)
{
    bench_opts_t o;
    MPI_Request *reqs;
    MPI_Status *stats;
    void *buf;
    size_t size;
    int rank, sender, peer, errors = 0;

    rank = bench_begin(&argc, &argv, &info, &o);
    sender = rank == 0;
    peer = 1 - rank;

    /* Rank 0 only sends (one buffer, reused by every send of a window);
     * rank 1 only receives (one slot per message of the window). */
    buf = bench_oneway_buffer(&o, sender);
    reqs = bench_malloc(&info, sizeof(*reqs) * (size_t)o.window);
    stats = bench_malloc(&info, sizeof(*stats) * (size_t)o.window);
    if (rank == 0)
        bench_print_header(&info, &o);

    for (size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
        int n = bench_iters(&o, size), w = bench_warmup(&o, size), i;
        double t0 = 0.0, t;

        if (o.check)
            errors += bench_oneway_check(&info, buf, size, o.window, sender,
                                         peer, reqs);
        MPI_Barrier(MPI_COMM_WORLD);
        for (i = 0; i < w + n; i++) {
            if (i == w)
                t0 = MPI_Wtime();
            bench_oneway_window(buf, size, o.window, sender, peer, reqs, stats);
        }
        t = MPI_Wtime() - t0;
        if (rank == 0)
            bench_print_row(&o, size,
                            (double)size * o.window * n / t / 1e6);
    }

    free(reqs);
    free(stats);
    free(buf);
    return bench_end(&o, errors);
}
