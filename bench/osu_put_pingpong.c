/*
 * osu_put_pingpong: one-sided latency measured the way perftest's
 * ib_write_lat measures a raw RDMA Write. Both ranks hold an MPI_Win_lock_all
 * epoch on a window of one 8-byte word each; rank 0 puts round i's number
 * into rank 1's word, rank 1 sees it arrive by reading its own memory (the
 * unified model, MPI_Win_sync between reads) and puts it back into rank 0's
 * word, and so on. Reported: half the mean round trip in microseconds, as
 * ib_write_lat reports. Each put is completed by MPI_Win_flush before its
 * rank waits for the answer, so nothing is left unsignalled across rounds,
 * and nothing in a round waits for the target's CPU except the answer
 * itself. Compare osu_put_latency, whose put + flush is a whole round trip
 * to the target's NIC per operation.
 *
 * On a library whose puts need the target's progress, the waiting rank's
 * MPI_Win_sync is its only MPI call; the benchmark is meant for puts that
 * land without it (RDMA, shared memory).
 */
#include "bench_rma.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static const bench_info_t info = {
    .name = "osu_put_pingpong",
    .what = "MPI_Put ping-pong between ranks 0 and 1 in a lock_all epoch, "
            "each side polling its own window word: half the round trip in "
            "microseconds, as ib_write_lat reports (lower is better)",
    BENCH_LATENCY_COLUMNS, BENCH_PINGPONG_COUNTS, .rma = 1, .decimals = 3,
    .fixed_size = 1, .min_size = sizeof(int64_t), .max_size = sizeof(int64_t),
};

/* Waits until this rank's word holds want. */
static void await(bench_win_t *w, int64_t want)
{
    volatile int64_t *word = (volatile int64_t *)w->base;
    while (*word != want)
        bench_rma_ok(MPI_Win_sync(w->win), "MPI_Win_sync");
}

static void send(bench_win_t *w, int64_t *val, int64_t v)
{
    *val = v;
    bench_rma_ok(MPI_Put(val, 1, MPI_INT64_T, w->peer, bench_win_disp(w, 0), 1, MPI_INT64_T,
                         w->win),
                 "MPI_Put");
    bench_rma_ok(MPI_Win_flush(w->peer, w->win), "MPI_Win_flush");
}

/* Rounds first..first+n-1 of the ping-pong; rank 0 starts each. */
static void rounds(bench_win_t *w, int64_t first, int n, int64_t *val)
{
    for (int64_t i = first; i < first + n; i++) {
        if (w->rank == 0) {
            send(w, val, i);
            await(w, i);
        } else {
            await(w, i);
            send(w, val, i);
        }
    }
}

int main(int argc, char **argv)
{
    bench_opts_t o;
    bench_win_t w;
    int64_t *val;
    int rank = bench_begin(&argc, &argv, &info, &o);

    if (o.sync != BENCH_SYNC_FLUSH) {
        if (rank == 0)
            fprintf(stderr, "%s: only -s flush (a lock_all epoch) is a ping-pong\n", info.name);
        MPI_Finalize();
        return 2;
    }
    bench_win_open(&info, &o, sizeof(int64_t), &w);
    val = bench_alloc(sizeof(*val));
    if (rank == 0)
        bench_print_header(&info, &o);

    /* Round numbers start at 1 in a zeroed word and grow across sizes. */
    *(volatile int64_t *)w.base = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    int n = bench_iters(&o, sizeof(int64_t)), wu = bench_warmup(&o, sizeof(int64_t));
    bench_rma_ok(MPI_Win_lock_all(0, w.win), "MPI_Win_lock_all");
    rounds(&w, 1, wu, val);
    double t0 = MPI_Wtime();
    rounds(&w, 1 + wu, n, val);
    double t = MPI_Wtime() - t0;
    bench_rma_ok(MPI_Win_unlock_all(w.win), "MPI_Win_unlock_all");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        bench_print_row(&o, sizeof(int64_t), t * 1e6 / (2.0 * n));

    bench_win_close(&w);
    free(val);
    return bench_end(&o, 0);
}
