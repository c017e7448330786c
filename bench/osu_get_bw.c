/*
 * osu_get_bw: MPI_Get bandwidth from rank 1 to rank 0, OSU style: per
 * iteration rank 0 gets a window of -W messages (default 64), each from
 * its own slot of rank 1's window into its own origin slot, then
 * synchronizes once as -s chooses (default: one MPI_Win_flush in a
 * lock_all epoch), in the window -w chooses (default: MPI_Win_allocate).
 * Reported: bytes moved / time, in MB/s (1 MB = 1e6 bytes).
 */
#include "bench_rma.h"

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

#define GET_SLOT(w, obuf, size, stride, j)                                  \
    bench_rma_ok(MPI_Get((obuf) + (size_t)(j) * (stride), (int)(size),      \
                         MPI_BYTE, (w)->peer,                               \
                         bench_win_disp((w), (size_t)(j) * (stride)),       \
                         (int)(size), MPI_BYTE, (w)->win), "MPI_Get")

/* One untimed window: rank 1's slots hold a pattern each, rank 0's origin
 * slots are poisoned, and rank 0 checks slot by slot what it got. */
static int check_round(bench_win_t *w, char *obuf, size_t size, int window)
{
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
    bench_rma_begin(w);
    BENCH_RMA_WINDOW_LOOP(w, 1, j, window,
                          GET_SLOT(w, obuf, size, stride, j));
    bench_rma_end(w);
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
    bench_opts_t o;
    bench_win_t w;
    char *obuf;
    size_t size, slots;
    int rank, errors = 0;

    rank = bench_begin(&argc, &argv, &info, &o);
    /* Rank 0 only writes its origin slots, rank 1 only exposes its window. */
    slots = bench_slot_stride(o.max_size) * (size_t)o.window;
    bench_win_open(&info, &o, rank == 1 ? slots : 0, &w);
    obuf = bench_alloc(rank == 0 ? slots : 0);
    if (rank == 0)
        bench_print_header(&info, &o);

    for (size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
        size_t stride = bench_slot_stride(size);
        int n = bench_iters(&o, size), wu = bench_warmup(&o, size), j;
        double t0, t;

        if (o.check)
            errors += check_round(&w, obuf, size, o.window);
        MPI_Barrier(MPI_COMM_WORLD);
        bench_rma_begin(&w);
        BENCH_RMA_WINDOW_LOOP(&w, wu, j, o.window,
                              GET_SLOT(&w, obuf, size, stride, j));
        t0 = MPI_Wtime();
        BENCH_RMA_WINDOW_LOOP(&w, n, j, o.window,
                              GET_SLOT(&w, obuf, size, stride, j));
        t = MPI_Wtime() - t0;
        bench_rma_end(&w);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            bench_print_row(&o, size, (double)size * o.window * n / t / 1e6);
    }

    bench_win_close(&w);
    free(obuf);
    return bench_end(&o, errors);
}
