/*
 * osu_put_bw: MPI_Put bandwidth from rank 0 to rank 1, OSU style: per
 * iteration rank 0 puts a window of -W messages (default 64), each from
 * its own origin slot to its own slot of rank 1's window, then
 * synchronizes once as -s chooses (default: one MPI_Win_flush in a
 * lock_all epoch), in the window -w chooses (default: MPI_Win_allocate).
 * Reported: bytes moved / time, in MB/s (1 MB = 1e6 bytes).
 */
#include "bench_rma_run.h"

#include <stdlib.h>

static const bench_info_t info = {
    .name = "osu_put_bw",
    .what = "MPI_Put bandwidth rank 0 -> rank 1, windows of puts then one "
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

/* One untimed window with a pattern per slot, checked slot by slot at
 * rank 1 (a put that lands in the wrong slot fails). */
static int check_round(bench_win_t *w, void *obuf_, size_t size, int window)
{
    char *obuf = obuf_;
    size_t stride = bench_slot_stride(size);
    int errors = 0, j;

    for (j = 0; j < window; j++) {
        if (w->rank == 0)
            bench_fill(obuf + (size_t)j * stride, size, bench_seed(size, 0, j));
    }
    if (w->rank == 1) {
        bench_win_local_begin(w);
        for (j = 0; j < window; j++)
            bench_fill(w->base + (size_t)j * stride, size,
                       ~bench_seed(size, 0, j));
        bench_win_local_end(w);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    bench_rma_window_once(w, BENCH_RMA_PUT, window, obuf, size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (w->rank == 1) {
        bench_win_local_begin(w);
        for (j = 0; j < window; j++)
            errors += bench_verify(&info, w->base + (size_t)j * stride, size,
                                   bench_seed(size, 0, j));
        bench_win_local_end(w);
    }
    return errors;
}

int main(int argc, char **argv)
{
    return bench_rma_bw_main(argc, argv, &info, BENCH_RMA_PUT,
                             check_round);
}
