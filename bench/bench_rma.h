/*
 * One-sided plumbing of the RMA benchmarks in bench/ (osu_put_latency,
 * osu_put_bw, osu_fop_latency, ...): the window of the kind -w asks for,
 * the epochs of the synchronization -s asks for, the timed loops of each
 * mode, and error checks that tell a library lacking an operation (exit
 * status BENCH_EXIT_UNSUPPORTED) from one that fails.
 *
 * Every one-sided benchmark runs on exactly two ranks. With -s flush,
 * rank 0 is the only origin and rank 1 only the target, passive: it waits
 * in MPI_Barrier while rank 0 is timed. The latency benchmarks with fence
 * and PSCW go both ways, as OSU's do: rank 0 issues an operation and
 * synchronizes, then rank 1 does, so each round holds two operations; the
 * bandwidth benchmarks always go from rank 0 to rank 1.
 */
#ifndef RD_BENCH_RMA_H
#define RD_BENCH_RMA_H

#include "bench_util.h"

/* The window between ranks 0 and 1, and how the benchmark synchronizes. */
typedef struct bench_win {
    MPI_Win win;
    char *base;              /* this rank's window memory */
    size_t bytes;            /* its size */
    MPI_Aint peer_base;      /* target displacement of the peer's window
                              * memory: 0, or its address (dynamic) */
    void *own_mem;           /* create, dynamic: the memory given to the
                              * window, freed by bench_win_close */
    MPI_Group peer_group;    /* the peer alone, for PSCW */
    int rank, peer;
    enum bench_sync sync;
    enum bench_win_kind kind;
} bench_win_t;

/*
 * Makes the window (collective over MPI_COMM_WORLD) with `bytes` of memory
 * on this rank (0 allowed), written once so no page fault lands in a timed
 * loop, and sets MPI_ERRORS_RETURN on it so bench_rma_ok sees the errors.
 * If the library fails to make it on any rank, the lowest such rank prints
 * the reason, every rank finalizes MPI and the program exits with
 * BENCH_EXIT_UNSUPPORTED (MPI_ERR_UNSUPPORTED_OPERATION) or 1.
 */
void bench_win_open(const bench_info_t *info, const bench_opts_t *o,
                    size_t bytes, bench_win_t *w);
/* Frees the window and its memory (collective). */
void bench_win_close(bench_win_t *w);

/* Target displacement of byte `off` of the peer's window memory. */
static inline MPI_Aint bench_win_disp(const bench_win_t *w, size_t off)
{
    return w->peer_base + (MPI_Aint)off;
}

/*
 * The error check of every one-sided call: rc != MPI_SUCCESS prints
 * "<program>: rank R: <fn>: <the library's message>", with "not supported
 * by this MPI library" when the class is MPI_ERR_UNSUPPORTED_OPERATION
 * (bench/compare.sh looks for those words), and calls MPI_Abort with
 * BENCH_EXIT_UNSUPPORTED or 1: the peer may be blocked in a synchronization
 * call, so finalizing is not an option.
 */
void bench_rma_fail(int rc, const char *fn);
static inline void bench_rma_ok(int rc, const char *fn)
{
    if (rc != MPI_SUCCESS)
        bench_rma_fail(rc, fn);
}

/* Opens the epoch of one size's loops: rank 0's MPI_Win_lock_all (flush),
 * MPI_Win_fence(MPI_MODE_NOPRECEDE) on both ranks (fence), nothing (PSCW,
 * whose loops open and close their own epochs). bench_rma_end closes it. */
void bench_rma_begin(bench_win_t *w);
void bench_rma_end(bench_win_t *w);

/* The owner's own loads and stores to its window memory (the -c rounds,
 * resetting a counter): between these two, under an exclusive lock on
 * itself, outside any other epoch. */
void bench_win_local_begin(bench_win_t *w);
void bench_win_local_end(bench_win_t *w);

/* In the latency benchmarks: whether this rank issues operations, and
 * whether the peer's operations target it (see the top of this file). */
int bench_rma_latency_origin(const bench_win_t *w);
int bench_rma_latency_target(const bench_win_t *w);

/* Mean microseconds per operation of a latency loop that took t seconds
 * for n rounds (two operations per round with fence and PSCW). */
double bench_rma_latency_us(const bench_win_t *w, double t, int n);

/* The synchronization calls of the loops below, each checked. */
static inline void bench_rma_flush(bench_win_t *w)
{
    bench_rma_ok(MPI_Win_flush(w->peer, w->win), "MPI_Win_flush");
}
static inline void bench_rma_fence(bench_win_t *w)
{
    bench_rma_ok(MPI_Win_fence(0, w->win), "MPI_Win_fence");
}
static inline void bench_rma_start(bench_win_t *w)
{
    bench_rma_ok(MPI_Win_start(w->peer_group, 0, w->win), "MPI_Win_start");
}
static inline void bench_rma_complete(bench_win_t *w)
{
    bench_rma_ok(MPI_Win_complete(w->win), "MPI_Win_complete");
}
static inline void bench_rma_lock(bench_win_t *w)
{
    bench_rma_ok(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, w->peer, 0, w->win), "MPI_Win_lock");
}
static inline void bench_rma_unlock(bench_win_t *w)
{
    bench_rma_ok(MPI_Win_unlock(w->peer, w->win), "MPI_Win_unlock");
}
/* Whether only rank 0 issues operations (flush, lock: passive target). */
static inline int bench_rma_passive(const bench_win_t *w)
{
    return w->sync == BENCH_SYNC_FLUSH || w->sync == BENCH_SYNC_LOCK;
}
static inline void bench_rma_post(bench_win_t *w)
{
    bench_rma_ok(MPI_Win_post(w->peer_group, 0, w->win), "MPI_Win_post");
}
static inline void bench_rma_wait(bench_win_t *w)
{
    bench_rma_ok(MPI_Win_wait(w->win), "MPI_Win_wait");
}

/*
 * n rounds of a latency benchmark, inside the epoch of bench_rma_begin.
 * The statement(s) after n issue one operation to w->peer.
 *   flush: rank 0: op, MPI_Win_flush; rank 1: nothing.
 *   lock:  rank 0: MPI_Win_lock, op, MPI_Win_unlock; rank 1: nothing.
 *   fence: rank 0: op, fence, fence; rank 1: fence, op, fence.
 *   pscw:  rank 0: start, op, complete, post, wait;
 *          rank 1: post, wait, start, op, complete.
 * A macro, not a function taking a callback, so the timed loop holds the
 * MPI calls alone; one loop per mode, so no test of the mode per round.
 */
#define BENCH_RMA_LATENCY_LOOP(w, n, ...)                                   \
    do {                                                                    \
        int bench_i_;                                                       \
        if ((w)->sync == BENCH_SYNC_FLUSH) {                                \
            if ((w)->rank == 0)                                             \
                for (bench_i_ = 0; bench_i_ < (n); bench_i_++) {            \
                    __VA_ARGS__;                                            \
                    bench_rma_flush(w);                                     \
                }                                                           \
        } else if ((w)->sync == BENCH_SYNC_LOCK) {                          \
            if ((w)->rank == 0)                                             \
                for (bench_i_ = 0; bench_i_ < (n); bench_i_++) {            \
                    bench_rma_lock(w);                                      \
                    __VA_ARGS__;                                            \
                    bench_rma_unlock(w);                                    \
                }                                                           \
        } else if ((w)->sync == BENCH_SYNC_FENCE) {                         \
            if ((w)->rank == 0)                                             \
                for (bench_i_ = 0; bench_i_ < (n); bench_i_++) {            \
                    __VA_ARGS__;                                            \
                    bench_rma_fence(w);                                     \
                    bench_rma_fence(w);                                     \
                }                                                           \
            else                                                            \
                for (bench_i_ = 0; bench_i_ < (n); bench_i_++) {            \
                    bench_rma_fence(w);                                     \
                    __VA_ARGS__;                                            \
                    bench_rma_fence(w);                                     \
                }                                                           \
        } else if ((w)->rank == 0) {                                        \
            for (bench_i_ = 0; bench_i_ < (n); bench_i_++) {                \
                bench_rma_start(w);                                         \
                __VA_ARGS__;                                                \
                bench_rma_complete(w);                                      \
                bench_rma_post(w);                                          \
                bench_rma_wait(w);                                          \
            }                                                               \
        } else {                                                            \
            for (bench_i_ = 0; bench_i_ < (n); bench_i_++) {                \
                bench_rma_post(w);                                          \
                bench_rma_wait(w);                                          \
                bench_rma_start(w);                                         \
                __VA_ARGS__;                                                \
                bench_rma_complete(w);                                      \
            }                                                               \
        }                                                                   \
    } while (0)

/*
 * n rounds of a bandwidth benchmark, inside the epoch of bench_rma_begin:
 * rank 0 issues `window` operations (the statement(s) at the end, with the
 * caller's int j running from 0 to window - 1), then synchronizes once:
 *   flush: rank 0: ops, MPI_Win_flush; rank 1: nothing.
 *   lock:  rank 0: MPI_Win_lock, ops, MPI_Win_unlock; rank 1: nothing.
 *   fence: rank 0: ops, fence; rank 1: fence.
 *   pscw:  rank 0: start, ops, complete; rank 1: post, wait.
 */
#define BENCH_RMA_WINDOW_LOOP(w, n, j, window, ...)                         \
    do {                                                                    \
        int bench_i_;                                                       \
        if ((w)->rank != 0) {                                               \
            if ((w)->sync == BENCH_SYNC_FENCE)                              \
                for (bench_i_ = 0; bench_i_ < (n); bench_i_++)              \
                    bench_rma_fence(w);                                     \
            else if ((w)->sync == BENCH_SYNC_PSCW)                          \
                for (bench_i_ = 0; bench_i_ < (n); bench_i_++) {            \
                    bench_rma_post(w);                                      \
                    bench_rma_wait(w);                                      \
                }                                                           \
        } else if ((w)->sync == BENCH_SYNC_FLUSH) {                         \
            for (bench_i_ = 0; bench_i_ < (n); bench_i_++) {                \
                for ((j) = 0; (j) < (window); (j)++)                        \
                    __VA_ARGS__;                                            \
                bench_rma_flush(w);                                         \
            }                                                               \
        } else if ((w)->sync == BENCH_SYNC_LOCK) {                          \
            for (bench_i_ = 0; bench_i_ < (n); bench_i_++) {                \
                bench_rma_lock(w);                                          \
                for ((j) = 0; (j) < (window); (j)++)                        \
                    __VA_ARGS__;                                            \
                bench_rma_unlock(w);                                        \
            }                                                               \
        } else if ((w)->sync == BENCH_SYNC_FENCE) {                         \
            for (bench_i_ = 0; bench_i_ < (n); bench_i_++) {                \
                for ((j) = 0; (j) < (window); (j)++)                        \
                    __VA_ARGS__;                                            \
                bench_rma_fence(w);                                         \
            }                                                               \
        } else {                                                            \
            for (bench_i_ = 0; bench_i_ < (n); bench_i_++) {                \
                bench_rma_start(w);                                         \
                for ((j) = 0; (j) < (window); (j)++)                        \
                    __VA_ARGS__;                                            \
                bench_rma_complete(w);                                      \
            }                                                               \
        }                                                                   \
    } while (0)

#endif
