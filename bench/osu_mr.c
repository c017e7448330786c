/*
 * osu_mr: message rate, OSU mbw_mr style. Ranks are split into pairs:
 * rank r < np/2 sends to rank r + np/2 (np = 2: one pair, 0 -> 1). Per
 * iteration each sender starts a window of MPI_Isend, each receiver a window
 * of MPI_Irecv; both wait for all, and the receiver returns a zero-byte ack.
 * Reported: messages delivered by all pairs / the slowest sender's time, in
 * messages per second (higher is better). The small sizes are the point.
 */
#include "bench_util.h"

static const bench_info_t info = {
    .name = "osu_mr",
    .what = "message rate of sender/receiver pairs (rank r -> r + np/2), "
            "windows of nonblocking sends, messages/s (higher is better)",
    .column = "rate(msg/s)",
    .csv_column = "msgs_per_s",
    .multi_pair = 1,
    .uses_window = 1,
    .min_size = 1,
    .max_size = 8192,
    .iters = 5000, .iters_large = 500,
    .warmup = 500, .warmup_large = 50,
    .window = 64,
};

/* Messages delivered by all pairs over the slowest sender's time (the
 * receivers' times do not count); valid at rank 0, collective. */
static double rate(const bench_opts_t *o, size_t size, int n, double t,
                   int sender)
{
    int nprocs;
    double tmax;

    (void)size;
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    t = sender ? t : 0.0;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    return (double)(nprocs / 2) * o->window * n / tmax;
}

int main(int argc, char **argv)
{
    bench_opts_t o;
    int rank, pairs, sender;

    rank = bench_begin(&argc, &argv, &info, &o);
    MPI_Comm_size(MPI_COMM_WORLD, &pairs);
    pairs /= 2;
    sender = rank < pairs;
    return bench_end(&o, bench_oneway_sweep(&info, &o, sender,
                                            sender ? rank + pairs
                                                   : rank - pairs,
                                            rate));
}
