/*
 * osu_bw: unidirectional bandwidth from rank 0 to rank 1, OSU style. Per
 * iteration rank 0 starts a window of MPI_Isend, rank 1 a window of MPI_Irecv
 * (one slot each, so no two pending receives share memory); both wait for
 * all, then rank 1 returns a zero-byte ack so the next window does not start
 * before this one has arrived. Reported: bytes moved / time, in MB/s
 * (1 MB = 1e6 bytes), higher is better.
 */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>

static const bench_info_t info = {
    .name = "osu_bw",
    .what = "unidirectional bandwidth rank 0 -> rank 1, windows of "
            "nonblocking sends, MB/s = 1e6 B/s (higher is better)",
    .column = "bandwidth(MB/s)",
    .csv_column = "bw_MBps",
    .multi_pair = 0,
    .uses_window = 1,
    .min_size = 1,
    .max_size = 16u << 20,
    .iters = 500, .iters_large = 50,
    .warmup = 50, .warmup_large = 5,
    .window = 64,
};

int main(int argc, char **argv)
{
    bench_opts_t o;
    enum bench_start start;
    MPI_Request *reqs;
    MPI_Status *stats;
    char *buf;
    size_t size;
    int rank, errors = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    start = bench_init(argc, argv, &info, &o);
    if (start != BENCH_RUN) {
        MPI_Finalize();
        return start == BENCH_EXIT_OK ? 0 : 2;
    }

    /* Rank 0 only sends (one buffer, reused by every send of a window);
     * rank 1 only receives (one slot per message of the window). */
    if (rank == 0)
        buf = bench_alloc(o.max_size);
    else
        buf = bench_alloc(bench_slot_stride(o.max_size) * (size_t)o.window);
    reqs = malloc(sizeof(*reqs) * (size_t)o.window);
    stats = malloc(sizeof(*stats) * (size_t)o.window);
    if (!reqs || !stats) {
        fprintf(stderr, "%s: out of memory\n", info.name);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0)
        bench_print_header(&info, &o);

    for (size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
        int n = bench_iters(&o, size), w = bench_warmup(&o, size), i, j;
        size_t stride = bench_slot_stride(size);
        double t0 = 0.0, t;

        if (o.check) {
            if (rank == 0) {
                bench_window_send_pattern(buf, size, o.window, 1);
                MPI_Recv(NULL, 0, MPI_BYTE, 1, BENCH_TAG_ACK, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            } else {
                bench_window_irecv(buf, size, o.window, 0, reqs);
                errors += bench_window_verify(&info, buf, size, o.window, 0,
                                              reqs);
                MPI_Send(NULL, 0, MPI_BYTE, 0, BENCH_TAG_ACK, MPI_COMM_WORLD);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
        for (i = 0; i < w + n; i++) {
            if (i == w)
                t0 = MPI_Wtime();
            if (rank == 0) {
                for (j = 0; j < o.window; j++)
                    MPI_Isend(buf, (int)size, MPI_BYTE, 1, BENCH_TAG_DATA,
                              MPI_COMM_WORLD, &reqs[j]);
                MPI_Waitall(o.window, reqs, stats);
                MPI_Recv(NULL, 0, MPI_BYTE, 1, BENCH_TAG_ACK, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            } else {
                for (j = 0; j < o.window; j++)
                    MPI_Irecv(buf + (size_t)j * stride, (int)size, MPI_BYTE, 0,
                              BENCH_TAG_DATA, MPI_COMM_WORLD, &reqs[j]);
                MPI_Waitall(o.window, reqs, stats);
                MPI_Send(NULL, 0, MPI_BYTE, 0, BENCH_TAG_ACK, MPI_COMM_WORLD);
            }
        }
        t = MPI_Wtime() - t0;
        if (rank == 0)
            bench_print_row(&o, size,
                            (double)size * o.window * n / t / 1e6);
    }

    errors = bench_check_total(errors);
    if (rank == 0 && o.check)
        fprintf(errors ? stderr : stdout, "# check: %s (%d errors)\n",
                errors ? "FAILED" : "passed", errors);
    free(reqs);
    free(stats);
    free(buf);
    MPI_Finalize();
    return errors ? 1 : 0;
}
