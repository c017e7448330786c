/*
 * osu_get_bw: MPI_Get bandwidth from rank 1 to rank 0, OSU style: per
 * iteration rank 0 gets a window of -W messages (default 64), each from
 * its own slot of rank 1's window into its own origin slot, then
 * synchronizes once as -s chooses (default: one MPI_Win_flush in a
 * lock_all epoch), in the window -w chooses (default: MPI_Win_allocate).
 * Reported: bytes moved / time, in MB/s (1 MB = 1e6 bytes).
 */
#include "bench_rma_run.h"

static const bench_info_t info = {
    .name = "osu_get_bw",
    .what = "MPI_Get bandwidth rank 0 <- rank 1, windows of gets then one "
            "synchronization, MB/s = 1e6 B/s (higher is better)",
    BENCH_RMA_BW_DEFAULTS,
};

int main(int argc, char **argv)
{
    return bench_rma_bw_main(argc, argv, &info, BENCH_RMA_GET);
}
