/*
 * osu_fop_latency: latency of MPI_Fetch_and_op (MPI_SUM on one
 * MPI_LONG_LONG, 8 bytes) between ranks 0 and 1, OSU style: one
 * fetch-and-add on the peer's window, completed by the synchronization -s
 * chooses (default: MPI_Win_flush in a lock_all epoch), in the window -w
 * chooses (default: MPI_Win_allocate). Reported: mean microseconds per
 * operation with its synchronization; one row, size 8.
 */
#include "bench_rma.h"

#include <stdio.h>

/* The window holds one page, not just the 8 bytes used: MPICH 4.0.2
 * sends atomics on an 8-byte MPI_Win_allocate window to the origin's own
 * memory (the -c check catches it). */
#define WIN_BYTES 4096

static const bench_info_t info = {
    .name = "osu_fop_latency",
    .what = "MPI_Fetch_and_op (MPI_SUM, MPI_LONG_LONG) latency rank 0 -> "
            "rank 1 (both ways with fence and PSCW), microseconds per "
            "operation and its synchronization (lower is better)",
    .column = "latency(us)",
    .csv_column = "latency_us",
    .rma = 1,
    .decimals = 3,
    .fixed_size = 1,
    .min_size = sizeof(long long),
    .max_size = sizeof(long long),
    .iters = 10000, .iters_large = 1000,
    .warmup = 1000, .warmup_large = 10,
    .window = 1,
};

#define FOP(w, add, old)                                                    \
    bench_rma_ok(MPI_Fetch_and_op((add), (old), MPI_LONG_LONG, (w)->peer,   \
                                  bench_win_disp((w), 0), MPI_SUM,          \
                                  (w)->win), "MPI_Fetch_and_op")

/* One untimed round: the origin must fetch the target's known value, and
 * the target must then hold that value plus the origin's operand. */
static int check_round(bench_win_t *w)
{
    long long *target = (long long *)(void *)w->base;
    long long add = 1000 + w->rank, old = -1, start = 5000 + w->rank;
    long long theirs = 1000 + w->peer, was = 5000 + w->peer;
    int errors = 0;

    if (bench_rma_latency_target(w)) {
        bench_win_local_begin(w);
        *target = start;
        bench_win_local_end(w);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    bench_rma_begin(w);
    BENCH_RMA_LATENCY_LOOP(w, 1, FOP(w, &add, &old));
    bench_rma_end(w);
    if (bench_rma_latency_origin(w) && old != was) {
        fprintf(stderr, "%s: rank %d: fetched %lld, expected %lld\n",
                info.name, w->rank, old, was);
        errors++;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (bench_rma_latency_target(w)) {
        bench_win_local_begin(w);
        if (*target != start + theirs) {
            fprintf(stderr, "%s: rank %d: target holds %lld, expected "
                    "%lld\n", info.name, w->rank, *target, start + theirs);
            errors++;
        }
        bench_win_local_end(w);
    }
    return errors;
}

/* After the timed loop (-c): every fetch-and-add of the peer counted the
 * target up by one. */
static int check_count(bench_win_t *w, long long rounds)
{
    long long got;

    if (!bench_rma_latency_target(w))
        return 0;
    bench_win_local_begin(w);
    got = *(long long *)(void *)w->base;
    bench_win_local_end(w);
    if (got == rounds)
        return 0;
    fprintf(stderr, "%s: rank %d: target holds %lld after %lld rounds\n",
            info.name, w->rank, got, rounds);
    return 1;
}

int main(int argc, char **argv)
{
    bench_opts_t o;
    bench_win_t w;
    long long add = 1, old = 0;
    int rank, errors = 0, n, wu;
    double t0, t;

    rank = bench_begin(&argc, &argv, &info, &o);
    bench_win_open(&info, &o, WIN_BYTES, &w);
    if (rank == 0)
        bench_print_header(&info, &o);

    n = bench_iters(&o, o.min_size);
    wu = bench_warmup(&o, o.min_size);
    if (o.check)
        errors += check_round(&w);
    bench_win_local_begin(&w);
    *(long long *)(void *)w.base = 0;
    bench_win_local_end(&w);
    MPI_Barrier(MPI_COMM_WORLD);
    bench_rma_begin(&w);
    BENCH_RMA_LATENCY_LOOP(&w, wu, FOP(&w, &add, &old));
    t0 = MPI_Wtime();
    BENCH_RMA_LATENCY_LOOP(&w, n, FOP(&w, &add, &old));
    t = MPI_Wtime() - t0;
    bench_rma_end(&w);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        bench_print_row(&o, o.min_size, bench_rma_latency_us(&w, t, n));
    if (o.check)
        errors += check_count(&w, wu + n);

    bench_win_close(&w);
    return bench_end(&o, errors);
}
