/*
 * osu_put_bw: MPI_Put bandwidth from rank 0 to rank 1, OSU style: per
 * iteration rank 0 puts a window of -W messages (default 64), each from
 * its own origin slot to its own slot of rank 1's window, then
 * synchronizes once as -s chooses (default: one MPI_Win_flush in a
 * lock_all epoch), in the window -w chooses (default: MPI_Win_allocate).
 * Reported: bytes moved / time, in MB/s (1 MB = 1e6 bytes).
 */
#include "bench_rma_run.h"

static const bench_info_t info = {
    .name = "osu_put_bw",
    .what = "MPI_Put bandwidth rank 0 -> rank 1, windows of puts then one "
            "synchronization, MB/s = 1e6 B/s (higher is better)",
    BENCH_RMA_BW_DEFAULTS,
};

int main(int argc, char **argv)
{
    return bench_rma_bw_main(argc, argv, &info, BENCH_RMA_PUT);
}
