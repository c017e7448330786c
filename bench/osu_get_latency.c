/*
 * osu_get_latency: latency of MPI_Get between ranks 0 and 1, OSU style:
 * one get of the size from the peer's window, completed by the
 * synchronization -s chooses (default: MPI_Win_flush in a lock_all epoch),
 * in the window -w chooses (default: MPI_Win_allocate). Reported: mean
 * microseconds per get with its synchronization (see bench_rma.h).
 */
#include "bench_rma.h"

#include <stdlib.h>

static const bench_info_t info = {
    .name = "osu_get_latency",
    .what = "MPI_Get latency rank 0 <- rank 1 (both ways with fence and "
            "PSCW), microseconds per get and its synchronization (lower is "
            "better)",
    .column = "latency(us)",
    .csv_column = "latency_us",
    .rma = 1,
    .decimals = 3,
    .min_size = 1,
    .max_size = 4u << 20,
    .iters = 10000, .iters_large = 1000,
    .warmup = 1000, .warmup_large = 10,
    .window = 1,
};

#define GET(w, buf, size)                                                   \
    bench_rma_ok(MPI_Get((buf), (int)(size), MPI_BYTE, (w)->peer,           \
                         bench_win_disp((w), 0), (int)(size), MPI_BYTE,     \
                         (w)->win), "MPI_Get")

/* One untimed round: the target's window holds a known pattern, the
 * origin's buffer is poisoned, and the origin checks what it got. */
static int check_round(bench_win_t *w, char *obuf, size_t size)
{
    unsigned seed = bench_seed(size, w->peer, 0);
    int errors = 0;

    if (bench_rma_latency_target(w)) {
        bench_win_local_begin(w);
        bench_fill(w->base, size, bench_seed(size, w->rank, 0));
        bench_win_local_end(w);
    }
    if (bench_rma_latency_origin(w))
        bench_fill(obuf, size, ~seed);
    MPI_Barrier(MPI_COMM_WORLD);
    bench_rma_begin(w);
    BENCH_RMA_LATENCY_LOOP(w, 1, GET(w, obuf, size));
    bench_rma_end(w);
    if (bench_rma_latency_origin(w))
        errors = bench_verify(&info, obuf, size, seed);
    MPI_Barrier(MPI_COMM_WORLD);
    return errors;
}

int main(int argc, char **argv)
{
    bench_opts_t o;
    bench_win_t w;
    char *obuf;
    size_t size;
    int rank, errors = 0;

    rank = bench_begin(&argc, &argv, &info, &o);
    bench_win_open(&info, &o, o.max_size, &w);
    obuf = bench_alloc(o.max_size);
    if (rank == 0)
        bench_print_header(&info, &o);

    for (size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
        int n = bench_iters(&o, size), wu = bench_warmup(&o, size);
        double t0, t;

        if (o.check)
            errors += check_round(&w, obuf, size);
        MPI_Barrier(MPI_COMM_WORLD);
        bench_rma_begin(&w);
        BENCH_RMA_LATENCY_LOOP(&w, wu, GET(&w, obuf, size));
        t0 = MPI_Wtime();
        BENCH_RMA_LATENCY_LOOP(&w, n, GET(&w, obuf, size));
        t = MPI_Wtime() - t0;
        bench_rma_end(&w);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            bench_print_row(&o, size, bench_rma_latency_us(&w, t, n));
    }

    bench_win_close(&w);
    free(obuf);
    return bench_end(&o, errors);
}
