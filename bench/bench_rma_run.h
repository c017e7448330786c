/*
 * The main loop every one-sided benchmark shares: make the window, then
 * for each size the optional -c round, warm-up, the timed rounds and the
 * row. A program only describes itself (its bench_info_t), names the
 * operation it times and supplies its -c round, so each of them stays a
 * separate binary with its own name, options and output.
 */
#ifndef RD_BENCH_RMA_RUN_H
#define RD_BENCH_RMA_RUN_H

#include "bench_rma.h"

/* The operation timed: one of the one-sided calls, on the bytes of the
 * size (put, get), on size / 4 MPI_INTs (accumulate, MPI_SUM) or on one
 * MPI_LONG_LONG counter (fetch-and-add, compare-and-swap). */
enum bench_rma_op {
    BENCH_RMA_PUT,
    BENCH_RMA_GET,
    BENCH_RMA_ACC,
    BENCH_RMA_FOP,
    BENCH_RMA_CAS
};

/* The bench_info_t fields every one-sided latency benchmark shares (3
 * decimals: a put can cost a few hundredths of a microsecond), and the
 * whole of a counter operation's: one 8-byte size. */
#define BENCH_RMA_LATENCY_DEFAULTS                                          \
    BENCH_LATENCY_COLUMNS, BENCH_PINGPONG_COUNTS, .rma = 1, .decimals = 3
#define BENCH_RMA_COUNTER_DEFAULTS                                          \
    BENCH_RMA_LATENCY_DEFAULTS, .fixed_size = 1,                            \
    .min_size = sizeof(long long), .max_size = sizeof(long long)

/* And of the bandwidth ones: 1 B to 4 MiB, 500/50 timed and 50/5 warm-up
 * windows of 64 operations. */
#define BENCH_RMA_BW_DEFAULTS                                               \
    BENCH_BW_COLUMNS, .rma = 1, .uses_window = 1,                           \
    .min_size = 1, .max_size = 4u << 20,                                    \
    .iters = 500, .iters_large = 50,                                        \
    .warmup = 50, .warmup_large = 5,                                        \
    .window = 64

/* A program's own untimed -c round for one size, given the origin buffer
 * of the size: returns this rank's error count. */
typedef int (*bench_rma_check_fn)(bench_win_t *w, void *obuf, size_t size);

/* One untimed latency round of put, get or accumulate from obuf, in an
 * epoch of its own: the middle of a -c round. */
void bench_rma_latency_once(bench_win_t *w, enum bench_rma_op op, void *obuf,
                            size_t size);

/*
 * main of a latency benchmark (osu_put_latency, ...): times `op` in the
 * loops of BENCH_RMA_LATENCY_LOOP and prints mean microseconds per
 * operation. The -c round is `check`, or with NULL the one built in for
 * put and get (a pattern per byte, checked where it lands) and for fop
 * and cas (the value fetched and the one left, then after the timed rounds
 * that the target counted every one). Returns the exit status.
 */
int bench_rma_latency_main(int argc, char **argv, const bench_info_t *info,
                           enum bench_rma_op op, bench_rma_check_fn check);

/*
 * main of a bandwidth benchmark (osu_put_bw, osu_get_bw): times windows
 * of `op` (put or get), each message from its own origin slot to its own
 * target slot, in the loops of BENCH_RMA_WINDOW_LOOP, and prints MB/s. Its -c round
 * sends one window with a pattern per slot, checked slot by slot where it
 * lands (a message in the wrong slot fails). Returns the exit status.
 */
int bench_rma_bw_main(int argc, char **argv, const bench_info_t *info,
                      enum bench_rma_op op);

#endif
