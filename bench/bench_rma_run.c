/*
 * The size loop of the one-sided benchmarks (see bench_rma_run.h). The
 * timed loops switch on the operation once, outside the loop, and expand
 * the loop macro of bench_rma.h for each: the timed region holds the MPI
 * calls alone, as when every program spelled its loop out.
 */
#include "bench_rma_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The counter operations' window holds one page, not just the 8 bytes
 * used: MPICH 4.0.2 sends atomics on an 8-byte MPI_Win_allocate window to
 * the origin's own memory (the -c round catches it). */
#define COUNTER_WIN_BYTES 4096

/* Operands of the counter operations, alive across a size's rounds. */
typedef struct counter_args {
    long long add;           /* fop: what each round adds */
    long long cmp, next;     /* cas: the value expected, the value stored;
                              * each round counts cmp up by one */
    long long old;           /* fop, cas: the value fetched */
} counter_args_t;

static int is_counter(enum bench_rma_op op)
{
    return op == BENCH_RMA_FOP || op == BENCH_RMA_CAS;
}

static void put(bench_win_t *w, const void *buf, size_t size, size_t off)
{
    bench_rma_ok(MPI_Put(buf, (int)size, MPI_BYTE, w->peer,
                         bench_win_disp(w, off), (int)size, MPI_BYTE,
                         w->win), "MPI_Put");
}

static void get(bench_win_t *w, void *buf, size_t size, size_t off)
{
    bench_rma_ok(MPI_Get(buf, (int)size, MPI_BYTE, w->peer,
                         bench_win_disp(w, off), (int)size, MPI_BYTE,
                         w->win), "MPI_Get");
}

static void acc(bench_win_t *w, const void *buf, size_t size)
{
    int count = (int)(size / sizeof(int));

    bench_rma_ok(MPI_Accumulate(buf, count, MPI_INT, w->peer,
                                bench_win_disp(w, 0), count, MPI_INT,
                                MPI_SUM, w->win), "MPI_Accumulate");
}

static void fop(bench_win_t *w, counter_args_t *c)
{
    bench_rma_ok(MPI_Fetch_and_op(&c->add, &c->old, MPI_LONG_LONG, w->peer,
                                  bench_win_disp(w, 0), MPI_SUM, w->win),
                 "MPI_Fetch_and_op");
}

/* Swaps in cmp + 1 where the target holds cmp, then counts cmp up for the
 * next round (the buffers are free again once the round synchronized). */
static void cas(bench_win_t *w, counter_args_t *c)
{
    c->next = c->cmp + 1;
    bench_rma_ok(MPI_Compare_and_swap(&c->next, &c->cmp, &c->old,
                                      MPI_LONG_LONG, w->peer,
                                      bench_win_disp(w, 0), w->win),
                 "MPI_Compare_and_swap");
    c->cmp++;
}

/* n latency rounds of op, inside the epoch of bench_rma_begin. */
static void latency_rounds(bench_win_t *w, enum bench_rma_op op, int n,
                           void *obuf, size_t size, counter_args_t *c)
{
    switch (op) {
    case BENCH_RMA_PUT:
        BENCH_RMA_LATENCY_LOOP(w, n, put(w, obuf, size, 0));
        break;
    case BENCH_RMA_GET:
        BENCH_RMA_LATENCY_LOOP(w, n, get(w, obuf, size, 0));
        break;
    case BENCH_RMA_ACC:
        BENCH_RMA_LATENCY_LOOP(w, n, acc(w, obuf, size));
        break;
    case BENCH_RMA_FOP:
        BENCH_RMA_LATENCY_LOOP(w, n, fop(w, c));
        break;
    case BENCH_RMA_CAS:
        BENCH_RMA_LATENCY_LOOP(w, n, cas(w, c));
        break;
    }
}

/* n bandwidth rounds of op (put or get), inside the epoch of
 * bench_rma_begin: message j goes between origin and target slot j. */
static void window_rounds(bench_win_t *w, enum bench_rma_op op, int n,
                          int window, char *obuf, size_t size)
{
    size_t stride = bench_slot_stride(size);
    int j;

    if (op == BENCH_RMA_PUT)
        BENCH_RMA_WINDOW_LOOP(w, n, j, window,
                              put(w, obuf + (size_t)j * stride, size,
                                  (size_t)j * stride));
    else
        BENCH_RMA_WINDOW_LOOP(w, n, j, window,
                              get(w, obuf + (size_t)j * stride, size,
                                  (size_t)j * stride));
}

/* One untimed latency round in an epoch of its own. */
static void latency_once(bench_win_t *w, enum bench_rma_op op, void *obuf,
                         size_t size, counter_args_t *c)
{
    bench_rma_begin(w);
    latency_rounds(w, op, 1, obuf, size, c);
    bench_rma_end(w);
}

void bench_rma_latency_once(bench_win_t *w, enum bench_rma_op op, void *obuf,
                            size_t size)
{
    latency_once(w, op, obuf, size, NULL);
}

/*
 * The -c round of put and get, latency (window 1, the ranks of
 * bench_rma_latency_origin/target) or bandwidth (rank 0 the origin,
 * rank 1 the target): every slot of the side read holds a pattern of its
 * writer (the origin for put, the target for get), every slot of the side
 * written is poisoned, and the side written checks every slot.
 */
static int check_bytes(const bench_info_t *info, bench_win_t *w,
                       enum bench_rma_op op, int latency, char *obuf,
                       size_t size, int window)
{
    size_t stride = bench_slot_stride(size);
    int origin = latency ? bench_rma_latency_origin(w) : w->rank == 0;
    int target = latency ? bench_rma_latency_target(w) : w->rank == 1;
    int put_op = op == BENCH_RMA_PUT, errors = 0, j;

    if (target) {
        bench_win_local_begin(w);
        for (j = 0; j < window; j++)
            bench_fill(w->base + (size_t)j * stride, size,
                       put_op ? ~bench_seed(size, w->peer, j)
                              : bench_seed(size, w->rank, j));
        bench_win_local_end(w);
    }
    if (origin)
        for (j = 0; j < window; j++)
            bench_fill(obuf + (size_t)j * stride, size,
                       put_op ? bench_seed(size, w->rank, j)
                              : ~bench_seed(size, w->peer, j));
    MPI_Barrier(MPI_COMM_WORLD);
    if (latency)
        latency_once(w, op, obuf, size, NULL);
    else {
        bench_rma_begin(w);
        window_rounds(w, op, 1, window, obuf, size);
        bench_rma_end(w);
    }
    if (!put_op && origin)
        for (j = 0; j < window; j++)
            errors += bench_verify(info, obuf + (size_t)j * stride, size,
                                   bench_seed(size, w->peer, j));
    MPI_Barrier(MPI_COMM_WORLD);
    if (put_op && target) {
        bench_win_local_begin(w);
        for (j = 0; j < window; j++)
            errors += bench_verify(info, w->base + (size_t)j * stride, size,
                                   bench_seed(size, w->peer, j));
        bench_win_local_end(w);
    }
    return errors;
}

/* The -c round of fop and cas: each target's counter starts at a value of
 * its own; the origin must fetch that value, and the target must then hold
 * it plus the peer's operand (fop) or plus one (cas, comparing with the
 * value it fetches, so the swap happens). */
static int check_counter(const bench_info_t *info, bench_win_t *w,
                         enum bench_rma_op op)
{
    long long base = op == BENCH_RMA_FOP ? 5000 : 7000;
    long long *target = (long long *)(void *)w->base;
    long long start = base + w->rank, was = base + w->peer;
    long long delta = op == BENCH_RMA_FOP ? 1000 + w->peer : 1;
    counter_args_t c = { .add = 1000 + w->rank, .cmp = was, .old = -1 };
    int errors = 0;

    if (bench_rma_latency_target(w)) {
        bench_win_local_begin(w);
        *target = start;
        bench_win_local_end(w);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    latency_once(w, op, NULL, 0, &c);
    if (bench_rma_latency_origin(w) && c.old != was) {
        fprintf(stderr, "%s: rank %d: fetched %lld, expected %lld\n",
                info->name, w->rank, c.old, was);
        errors++;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (bench_rma_latency_target(w)) {
        bench_win_local_begin(w);
        if (*target != start + delta) {
            fprintf(stderr, "%s: rank %d: target holds %lld, expected "
                    "%lld\n", info->name, w->rank, *target, start + delta);
            errors++;
        }
        bench_win_local_end(w);
    }
    return errors;
}

/* The target memory before a size's timed rounds: accumulate adds ones
 * onto zeros (ordinary values, and no overflow within the iteration counts
 * -i accepts); the counters start at zero so -c can count the rounds. */
static void reset_target(bench_win_t *w, enum bench_rma_op op, void *obuf,
                         size_t size)
{
    size_t i;

    if (op == BENCH_RMA_ACC) {
        for (i = 0; i < size / sizeof(int); i++)
            ((int *)obuf)[i] = 1;
        bench_win_local_begin(w);
        memset(w->base, 0, size);
        bench_win_local_end(w);
    } else if (is_counter(op)) {
        bench_win_local_begin(w);
        *(long long *)(void *)w->base = 0;
        bench_win_local_end(w);
    }
}

/* After the timed rounds of a counter (-c): every operation of the peer
 * counted the target up by one. */
static int check_count(const bench_info_t *info, bench_win_t *w,
                       long long rounds)
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
            info->name, w->rank, got, rounds);
    return 1;
}

int bench_rma_latency_main(int argc, char **argv, const bench_info_t *info,
                           enum bench_rma_op op, bench_rma_check_fn check)
{
    bench_opts_t o;
    bench_win_t w;
    void *obuf;
    size_t size;
    int rank, errors = 0;

    rank = bench_begin(&argc, &argv, info, &o);
    bench_win_open(info, &o, is_counter(op) ? COUNTER_WIN_BYTES : o.max_size,
                   &w);
    obuf = bench_alloc(o.max_size);
    if (rank == 0)
        bench_print_header(info, &o);

    for (size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
        int n = bench_iters(&o, size), wu = bench_warmup(&o, size);
        counter_args_t c = { .add = 1 };
        double t0, t;

        if (o.check && check)
            errors += check(&w, obuf, size);
        else if (o.check && is_counter(op))
            errors += check_counter(info, &w, op);
        else if (o.check)
            errors += check_bytes(info, &w, op, 1, obuf, size, 1);
        reset_target(&w, op, obuf, size);
        MPI_Barrier(MPI_COMM_WORLD);
        bench_rma_begin(&w);
        latency_rounds(&w, op, wu, obuf, size, &c);
        t0 = MPI_Wtime();
        latency_rounds(&w, op, n, obuf, size, &c);
        t = MPI_Wtime() - t0;
        bench_rma_end(&w);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            bench_print_row(&o, size, bench_rma_latency_us(&w, t, n));
        if (o.check && is_counter(op))
            errors += check_count(info, &w, wu + n);
    }

    bench_win_close(&w);
    free(obuf);
    return bench_end(&o, errors);
}

int bench_rma_bw_main(int argc, char **argv, const bench_info_t *info,
                      enum bench_rma_op op)
{
    bench_opts_t o;
    bench_win_t w;
    char *obuf;
    size_t size, slots;
    int rank, errors = 0;

    rank = bench_begin(&argc, &argv, info, &o);
    /* Rank 0 only uses its origin slots, rank 1 only exposes its window. */
    slots = bench_slot_stride(o.max_size) * (size_t)o.window;
    bench_win_open(info, &o, rank == 1 ? slots : 0, &w);
    obuf = bench_alloc(rank == 0 ? slots : 0);
    if (rank == 0)
        bench_print_header(info, &o);

    for (size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
        int n = bench_iters(&o, size), wu = bench_warmup(&o, size);
        double t0, t;

        if (o.check)
            errors += check_bytes(info, &w, op, 0, obuf, size, o.window);
        MPI_Barrier(MPI_COMM_WORLD);
        bench_rma_begin(&w);
        window_rounds(&w, op, wu, o.window, obuf, size);
        t0 = MPI_Wtime();
        window_rounds(&w, op, n, o.window, obuf, size);
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
