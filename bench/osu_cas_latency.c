/*
 * osu_cas_latency: latency of MPI_Compare_and_swap (one MPI_LONG_LONG,
 * 8 bytes) between ranks 0 and 1, OSU style: one compare-and-swap on the
 * peer's window, completed by the synchronization -s chooses (default:
 * MPI_Win_flush in a lock_all epoch), in the window -w chooses (default:
 * MPI_Win_allocate). Every swap succeeds: the origin counts the target
 * up, comparing with the value it last stored. Reported: mean microseconds
 * per operation with its synchronization; one row, size 8.
 */
#include "bench_rma.h"

#include <stdio.h>

/* The window holds one page, not just the 8 bytes used: MPICH 4.0.2
 * sends atomics on an 8-byte MPI_Win_allocate window to the origin's own
 * memory (the -c check catches it). */
#define WIN_BYTES 4096

static const bench_info_t info = {
    .name = "osu_cas_latency",
    .what = "MPI_Compare_and_swap (MPI_LONG_LONG) latency rank 0 -> rank 1 "
            "(both ways with fence and PSCW), microseconds per operation "
            "and its synchronization (lower is better)",
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

/* Swaps in cmp + 1 where the target holds cmp, then counts cmp up for the
 * next round (the buffers are free again once the round synchronized). */
#define CAS(w, cmp, next, old)                                              \
    do {                                                                    \
        (next) = (cmp) + 1;                                                 \
        bench_rma_ok(MPI_Compare_and_swap(&(next), &(cmp), &(old),          \
                                          MPI_LONG_LONG, (w)->peer,         \
                                          bench_win_disp((w), 0),           \
                                          (w)->win),                        \
                     "MPI_Compare_and_swap");                               \
        (cmp)++;                                                            \
    } while (0)

/* One untimed round: the origin must fetch the target's known value, which
 * it compared against, so the target must then hold the new value. */
static int check_round(bench_win_t *w)
{
    long long *target = (long long *)(void *)w->base;
    long long cmp = 7000 + w->peer, next = 0, old = -1;
    long long start = 7000 + w->rank;
    int errors = 0;

    if (bench_rma_latency_target(w)) {
        bench_win_local_begin(w);
        *target = start;
        bench_win_local_end(w);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    bench_rma_begin(w);
    BENCH_RMA_LATENCY_LOOP(w, 1, CAS(w, cmp, next, old));
    bench_rma_end(w);
    if (bench_rma_latency_origin(w) && old != 7000 + w->peer) {
        fprintf(stderr, "%s: rank %d: fetched %lld, expected %lld\n",
                info.name, w->rank, old, 7000LL + w->peer);
        errors++;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (bench_rma_latency_target(w)) {
        bench_win_local_begin(w);
        if (*target != start + 1) {
            fprintf(stderr, "%s: rank %d: target holds %lld, expected "
                    "%lld\n", info.name, w->rank, *target, start + 1);
            errors++;
        }
        bench_win_local_end(w);
    }
    return errors;
}

/* After the timed loop (-c): every swap of the peer counted the
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
    long long cmp = 0, next = 0, old = 0;
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
    BENCH_RMA_LATENCY_LOOP(&w, wu, CAS(&w, cmp, next, old));
    t0 = MPI_Wtime();
    BENCH_RMA_LATENCY_LOOP(&w, n, CAS(&w, cmp, next, old));
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
