/*
 * osu_bw: unidirectional bandwidth from rank 0 to rank 1, OSU style. Per
 * iteration rank 0 starts a window of MPI_Isend, rank 1 a window of MPI_Irecv
 * (one slot each, so no two pending receives share memory); both wait for
 * all, then rank 1 returns a zero-byte ack so the next window does not start
 * before this one has arrived. Reported: bytes moved / time, in MB/s
 * (1 MB = 1e6 bytes), higher is better.
 */
#include "bench_util.h"

static const bench_info_t info = {
    .name = "osu_bw",
    .what = "unidirectional bandwidth rank 0 -> rank 1, windows of "
            "nonblocking sends, MB/s = 1e6 B/s (higher is better)",
    BENCH_BW_COLUMNS,
    .multi_pair = 0,
    BENCH_WINDOW_BW_DEFAULTS,
};

/* Bytes moved by rank 0 over its time, in MB/s. */
static double bandwidth(const bench_opts_t *o, size_t size, int n, double t,
                        int sender)
{
    (void)sender;
    return (double)size * o->window * n / t / 1e6;
}

int main(int argc, char **argv)
{
    bench_opts_t o;
    int rank = bench_begin(&argc, &argv, &info, &o);

    /* Rank 0 only sends (one buffer, reused by every send of a window);
     * rank 1 only receives (one slot per message of the window). */
    return bench_end(&o, bench_oneway_sweep(&info, &o, rank == 0, 1 - rank,
                                            bandwidth));
}
