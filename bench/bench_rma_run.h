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

/* Operands of the counter operations, alive across a size's rounds. */
typedef struct bench_rma_counter {
    long long add;           /* fop: what each round adds */
    long long cmp, next;     /* cas: the value expected, the value stored;
                              * each round counts cmp up by one */
    long long old;           /* fop, cas: the value fetched */
} bench_rma_counter_t;

/* A program's untimed -c round for one size: returns this rank's error
 * count. obuf is the origin buffer (latency: the size; bandwidth: one slot
 * per message of the window), window the -W count (1 for latency). */
typedef int (*bench_rma_check_fn)(bench_win_t *w, void *obuf, size_t size,
                                  int window);

/*
 * One untimed round of op for the -c rounds, in an epoch of its own:
 * bench_rma_latency_once as in a latency benchmark (obuf the origin
 * buffer; c the operands of fop or cas, else NULL), bench_rma_window_once
 * one window of put or get, message j between origin and target slot j.
 */
void bench_rma_latency_once(bench_win_t *w, enum bench_rma_op op, void *obuf,
                            size_t size, bench_rma_counter_t *c);
void bench_rma_window_once(bench_win_t *w, enum bench_rma_op op, int window,
                           void *obuf, size_t size);

/*
 * main of a latency benchmark (osu_put_latency, ...): times `op` in the
 * loops of BENCH_RMA_LATENCY_LOOP and prints mean microseconds per
 * operation. With the counter operations (fop, cas) the target's counter
 * starts at zero and -c also checks it counted every round. Returns the
 * exit status.
 */
int bench_rma_latency_main(int argc, char **argv, const bench_info_t *info,
                           enum bench_rma_op op, bench_rma_check_fn check);

/*
 * main of a bandwidth benchmark (osu_put_bw, osu_get_bw): times windows
 * of `op` (put or get), each message from its own origin slot to its own
 * target slot, in the loops of BENCH_RMA_WINDOW_LOOP, and prints MB/s.
 * Returns the exit status.
 */
int bench_rma_bw_main(int argc, char **argv, const bench_info_t *info,
                      enum bench_rma_op op, bench_rma_check_fn check);

#endif
