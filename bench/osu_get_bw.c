/*
 * osu_get_bw: MPI_Get bandwidth from rank 1 to rank 0, OSU style: per
 * iteration rank 0 gets a window of -W messages (default 64), each from
 * its own slot of rank 1's window into its own origin slot, then
 * synchronizes once as -s chooses (default: one MPI_Win_flush in a
 * lock_all epoch), in the window -w chooses (default: MPI_Win_allocate).
 * Reported: bytes moved / time, in MB/s (1 MB = 1e6 bytes).
 */
#include "bench_rma_run.h"

#include <stdlib.h>

static const bench_info_t info = {
    .name = "osu_get_bw",
    .what = "MPI_Get bandwidth rank 0 <- rank 1, windows of gets then one "
            "synchronization, MB/s = 1e6 B/s (higher is better)",
    .column = "bandwidth(MB/s)",
    .csv_column = "bw_MBps",
    .rma = 1,
    .uses_window = 1,
    .min_size = 1,
    .max_size = 4u << 20,
    .iters = 500, .iters_large = 50,
    .warmup = 50, .warmup_large = 5,
    .window = 64,
};

/* One untimed window: rank 1's slots hold a pattern each, rank 0's origin
 * slots are poisoned, and rank 0 checks slot by slot what it got. */
static int check_round(bench_win_t *w, void *obuf_, size_t size, int window)
{
    char *obuf = obuf_;
    size_t stride = bench_slot_stride(size);
    int errors = 0, j;

    if (w->rank == 1) {
        bench_win_local_begin(w);
        for (j = 0; j < window; j++)
            bench_fill(w->base + (size_t)j * stride, size,
                       bench_seed(size, 1, j));
        bench_win_local_end(w);
    } else {
        for (j = 0; j < window; j++)
            bench_fill(obuf + (size_t)j * stride, size,
                       ~bench_seed(size, 1, j));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    bench_rma_window_once(w, BENCH_RMA_GET, window, obuf, size);
    if (w->rank == 0) {
        for (j = 0; j < window; j++)
            errors += bench_verify(&info, obuf + (size_t)j * stride, size,
                                   bench_seed(size, 1, j));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return errors;
}

int main(int argc, char **argv)
{
    return bench_rma_bw_main(argc, argv, &info, BENCH_RMA_GET,
                             check_round);
}
