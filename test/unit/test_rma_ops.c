/*
 * Unit tests of the pieces of one-sided operations that need no transport:
 * flattening a target datatype into runs and cutting them into messages
 * (src/rma/rma_dtype.c), and the accumulate kernels on window memory
 * (src/rma/rma_acc.c), including their atomicity under threads that update
 * one location at once, as origins on one node do.
 *
 * The runs are checked against the pack engine: scattering packed bytes
 * through the runs must leave memory exactly as rd_dt_unpack does.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "unit_main.h"

#include "core/datatype.h"
#include "core/dt_build.h"
#include "core/op.h"
#include "rma/rma_acc.h"
#include "rma/rma_dtype.h"
#include "util/status.h"

/* ---- fixtures ---- */

static rd_datatype_t *scalar(int basic, size_t size)
{
    rd_datatype_t *t = rd_dt_new();
    CU_ASSERT_FATAL(t != NULL);
    t->lb = 0;
    t->ub = (ptrdiff_t)size;
    t->align = size;
    t->basic = basic;
    t->committed = 1;
    rd_dt_set_root(t, rd_dt_leaf(t, 0, size, (uint32_t)size));
    return t;
}

/* Scatters the packed bytes in through the runs of f to base + true_lb. */
static void scatter(char *base, const rd_rma_flat_t *f, const char *in)
{
    for (size_t i = 0; i < f->n; i++) {
        memcpy(base + f->b[i].off, in, f->b[i].len);
        in += f->b[i].len;
    }
}

/* Flattening (count, dt) and scattering through the runs writes the bytes
 * rd_dt_unpack writes, and nothing else. */
static void check_runs(size_t count, rd_datatype_t *dt)
{
    size_t bytes = count * dt->size;
    size_t span = (size_t)((ptrdiff_t)(count - 1) * rd_dt_extent(dt) + dt->true_ub);
    char *in = malloc(bytes + 1), *a = calloc(1, span + 1), *b = calloc(1, span + 1);
    CU_ASSERT_FATAL(in && a && b);
    for (size_t i = 0; i < bytes; i++)
        in[i] = (char)(i * 7 + 3);
    rd_rma_flat_t f;
    CU_ASSERT_EQUAL_FATAL(rd_rma_flatten(count, dt, &f), RD_OK);
    CU_ASSERT_EQUAL(f.bytes, bytes);
    for (size_t i = 1; i < f.n; i++) /* merged: no run starts where the last ended */
        CU_ASSERT(f.b[i].off != f.b[i - 1].off + f.b[i - 1].len);
    scatter(a + dt->true_lb, &f, in);
    rd_dt_unpack(b, count, dt, 0, in, bytes);
    CU_ASSERT(memcmp(a, b, span + 1) == 0);
    rd_rma_flat_free(&f);
    free(in);
    free(a);
    free(b);
}

static void test_flatten_contig(void)
{
    rd_datatype_t *i32 = scalar(RD_BASIC_INT32, 4);
    rd_rma_flat_t f;
    CU_ASSERT_EQUAL_FATAL(rd_rma_flatten(100, i32, &f), RD_OK);
    CU_ASSERT_EQUAL(f.n, 1);
    CU_ASSERT_EQUAL(f.b[0].off, 0);
    CU_ASSERT_EQUAL(f.b[0].len, 400);
    rd_rma_flat_free(&f);
    CU_ASSERT_EQUAL_FATAL(rd_rma_flatten(0, i32, &f), RD_OK);
    CU_ASSERT_EQUAL(f.n, 0);
    rd_dt_release(i32);
}

static void test_flatten_vector(void)
{
    rd_datatype_t *i32 = scalar(RD_BASIC_INT32, 4);
    /* 3 blocks of 2 ints, 5 ints apart */
    rd_datatype_t *v = rd_dt_build_hvector(3, 2, 20, i32);
    CU_ASSERT_FATAL(v != NULL);
    rd_rma_flat_t f;
    CU_ASSERT_EQUAL_FATAL(rd_rma_flatten(1, v, &f), RD_OK);
    CU_ASSERT_EQUAL_FATAL(f.n, 3);
    for (size_t i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(f.b[i].off, 20 * i);
        CU_ASSERT_EQUAL(f.b[i].len, 8);
    }
    rd_rma_flat_free(&f);
    check_runs(1, v);
    check_runs(4, v);
    rd_dt_release(v);
    rd_dt_release(i32);
}

static void test_flatten_struct_subarray(void)
{
    rd_datatype_t *i32 = scalar(RD_BASIC_INT32, 4), *f64 = scalar(RD_BASIC_DOUBLE, 8);
    size_t bls[3] = { 1, 2, 1 };
    ptrdiff_t disps[3] = { 4, 16, 40 };
    rd_datatype_t *olds[3] = { i32, f64, i32 };
    rd_datatype_t *st = rd_dt_build_struct(3, bls, 0, disps, olds, NULL);
    CU_ASSERT_FATAL(st != NULL);
    check_runs(1, st);
    check_runs(3, st);
    int sizes[2] = { 8, 6 }, subs[2] = { 3, 4 }, starts[2] = { 2, 1 };
    rd_datatype_t *sa = rd_dt_build_subarray(2, sizes, subs, starts, 0, f64);
    CU_ASSERT_FATAL(sa != NULL);
    rd_rma_flat_t f;
    CU_ASSERT_EQUAL_FATAL(rd_rma_flatten(1, sa, &f), RD_OK);
    CU_ASSERT_EQUAL(f.n, 3); /* one run per row of the block */
    rd_rma_flat_free(&f);
    check_runs(1, sa);
    check_runs(2, sa);
    rd_dt_release(sa);
    rd_dt_release(st);
    rd_dt_release(f64);
    rd_dt_release(i32);
}

/* Cutting the runs of a type into pieces of at most room bytes (runs'
 * descriptors and data), whole elements of elem bytes each, gives back
 * every byte once, in order. */
static void check_cut(size_t count, rd_datatype_t *dt, size_t room, size_t elem)
{
    rd_rma_flat_t f;
    CU_ASSERT_EQUAL_FATAL(rd_rma_flatten(count, dt, &f), RD_OK);
    rd_rma_cursor_t c = { .f = &f };
    rd_rma_block_t *out = malloc(room);
    CU_ASSERT_FATAL(out != NULL);
    size_t run = 0, in = 0, total = 0;
    while (total < f.bytes) {
        size_t got;
        size_t nb = rd_rma_cursor_take(&c, room, f.bytes - total, elem, out, &got);
        CU_ASSERT_FATAL(nb > 0);
        CU_ASSERT(nb * sizeof(rd_rma_block_t) + got <= room);
        CU_ASSERT_EQUAL(got % elem, 0);
        size_t sum = 0;
        for (size_t i = 0; i < nb; i++) {
            CU_ASSERT_EQUAL_FATAL(out[i].off, f.b[run].off + in);
            sum += out[i].len;
            in += out[i].len;
            CU_ASSERT_FATAL(in <= f.b[run].len);
            if (in == f.b[run].len) {
                run++;
                in = 0;
            }
        }
        CU_ASSERT_EQUAL(sum, got);
        total += got;
    }
    CU_ASSERT_EQUAL(total, f.bytes);
    free(out);
    rd_rma_flat_free(&f);
}

static void test_cursor(void)
{
    rd_datatype_t *i32 = scalar(RD_BASIC_INT32, 4);
    rd_datatype_t *v = rd_dt_build_hvector(50, 3, 20, i32);
    CU_ASSERT_FATAL(v != NULL);
    check_cut(2, v, 64, 1);
    check_cut(2, v, 100, 4);
    check_cut(7, v, 4096, 4);
    check_cut(1, i32, 40, 4);
    /* elements of 12 bytes (a double and an int) spread over two runs */
    rd_datatype_t *f64 = scalar(RD_BASIC_DOUBLE, 8);
    size_t bls[2] = { 1, 1 };
    ptrdiff_t disps[2] = { 0, 8 };
    rd_datatype_t *olds[2] = { f64, i32 };
    rd_datatype_t *pr = rd_dt_build_struct(2, bls, 0, disps, olds, NULL);
    rd_datatype_t *spread = rd_dt_build_hvector(10, 1, 32, pr);
    CU_ASSERT_FATAL(pr && spread);
    check_cut(3, spread, 80, 12);
    check_cut(3, spread, 200, 12);
    rd_dt_release(spread);
    rd_dt_release(pr);
    rd_dt_release(f64);
    rd_dt_release(v);
    rd_dt_release(i32);
}

/* ---- accumulate kernels ---- */

static void test_acc_basic(void)
{
    int32_t t[4] = { 1, 2, 3, 4 }, in[4] = { 10, 20, 30, 40 }, old[4];
    CU_ASSERT_EQUAL(rd_rma_acc_apply(RD_OP_SUM, RD_BASIC_INT32, (char *)t, NULL, 0, 16, in, old),
                    RD_OK);
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(t[i], (i + 1) * 11);
        CU_ASSERT_EQUAL(old[i], i + 1);
    }
    double d[2] = { 1.5, -2.0 }, din[2] = { 1.0, 3.0 };
    rd_rma_acc_apply(RD_OP_MAX, RD_BASIC_DOUBLE, (char *)d, NULL, 0, 16, din, NULL);
    CU_ASSERT(d[0] == 1.5 && d[1] == 3.0);
    rd_rma_acc_apply(RD_OP_REPLACE, RD_BASIC_DOUBLE, (char *)d, NULL, 0, 16, din, NULL);
    CU_ASSERT(d[0] == 1.0 && d[1] == 3.0);
    double dold[2] = { 0, 0 };
    rd_rma_acc_apply(RD_OP_NO_OP, RD_BASIC_DOUBLE, (char *)d, NULL, 0, 16, NULL, dold);
    CU_ASSERT(dold[0] == 1.0 && dold[1] == 3.0 && d[0] == 1.0);
    /* runs: every other int */
    int32_t s[6] = { 1, 100, 2, 100, 3, 100 }, sin[3] = { 5, 5, 5 };
    rd_rma_block_t b[3] = { { 0, 4 }, { 8, 4 }, { 16, 4 } };
    rd_rma_acc_apply(RD_OP_PROD, RD_BASIC_INT32, (char *)s, b, 3, 12, sin, NULL);
    CU_ASSERT(s[0] == 5 && s[2] == 10 && s[4] == 15 && s[1] == 100 && s[3] == 100);
    /* long double: no lock-free update, the gather path */
    CU_ASSERT(!rd_rma_acc_atomic(RD_BASIC_LONG_DOUBLE));
    long double ld[2] = { 1.0L, 2.0L }, ldin[2] = { 0.5L, 0.25L }, ldold[2];
    rd_rma_acc_apply(RD_OP_SUM, RD_BASIC_LONG_DOUBLE, (char *)ld, NULL, 0, sizeof(ld), ldin,
                     ldold);
    CU_ASSERT(ld[0] == 1.5L && ld[1] == 2.25L && ldold[0] == 1.0L && ldold[1] == 2.0L);
}

/* MAXLOC on (double, int) pairs whose value and index lie in two runs. */
static void test_acc_pairs(void)
{
    struct { double v; int i; } t[2] = { { 1.0, 7 }, { 5.0, 1 } };
    char in[24];
    double v0 = 3.0, v1 = 5.0;
    int i0 = 2, i1 = 0;
    memcpy(in, &v0, 8);
    memcpy(in + 8, &i0, 4);
    memcpy(in + 12, &v1, 8);
    memcpy(in + 20, &i1, 4);
    rd_rma_block_t b[2] = { { 0, 12 }, { 16, 12 } };
    char old[24];
    CU_ASSERT_EQUAL(rd_rma_acc_apply(RD_OP_MAXLOC, RD_BASIC_PAIR_DOUBLE_INT, (char *)t, b, 2, 24,
                                     in, old), RD_OK);
    CU_ASSERT(t[0].v == 3.0 && t[0].i == 2);
    CU_ASSERT(t[1].v == 5.0 && t[1].i == 0); /* equal values: the lower index */
    double ov;
    memcpy(&ov, old, 8);
    CU_ASSERT(ov == 1.0);
}

static void test_cas(void)
{
    int64_t t = 5, cmp = 5, swap = 9, old = 0;
    rd_rma_acc_cas(RD_BASIC_INT64, &t, &cmp, &swap, &old);
    CU_ASSERT(t == 9 && old == 5);
    rd_rma_acc_cas(RD_BASIC_INT64, &t, &cmp, &swap, &old);
    CU_ASSERT(t == 9 && old == 9);
    uint8_t b = 1, bc = 1, bs = 2, bo = 0;
    rd_rma_acc_cas(RD_BASIC_UINT8, &b, &bc, &bs, &bo);
    CU_ASSERT(b == 2 && bo == 1);
}

/* ---- atomicity: threads updating one location at once ---- */

#define THREADS 4
#define ROUNDS 20000

static struct {
    double d;
    int64_t n;
    int32_t m;
    int64_t seen[THREADS][ROUNDS];
} shared;

static void *hammer(void *arg)
{
    int id = (int)(intptr_t)arg;
    double one = 1.0;
    int64_t inc = 1;
    int32_t mine = id;
    for (int r = 0; r < ROUNDS; r++) {
        rd_rma_acc_apply(RD_OP_SUM, RD_BASIC_DOUBLE, (char *)&shared.d, NULL, 0, 8, &one, NULL);
        rd_rma_acc_apply(RD_OP_SUM, RD_BASIC_INT64, (char *)&shared.n, NULL, 0, 8, &inc,
                         &shared.seen[id][r]);
        rd_rma_acc_apply(RD_OP_MAX, RD_BASIC_INT32, (char *)&shared.m, NULL, 0, 4, &mine, NULL);
    }
    return NULL;
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void test_atomic_threads(void)
{
    pthread_t th[THREADS];
    memset(&shared, 0, sizeof(shared));
    for (int i = 0; i < THREADS; i++)
        CU_ASSERT_FATAL(pthread_create(&th[i], NULL, hammer, (void *)(intptr_t)i) == 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    CU_ASSERT(shared.d == (double)THREADS * ROUNDS);
    CU_ASSERT_EQUAL(shared.n, (int64_t)THREADS * ROUNDS);
    CU_ASSERT_EQUAL(shared.m, THREADS - 1);
    /* every fetched value once: 0 .. THREADS*ROUNDS-1 */
    int64_t *all = &shared.seen[0][0];
    qsort(all, (size_t)THREADS * ROUNDS, sizeof(*all), cmp64);
    int unique = 1;
    for (int64_t i = 0; i < (int64_t)THREADS * ROUNDS; i++)
        if (all[i] != i)
            unique = 0;
    CU_ASSERT(unique);
}

static void test_basic_of_derived(void)
{
    rd_datatype_t *i32 = scalar(RD_BASIC_INT32, 4), *f64 = scalar(RD_BASIC_DOUBLE, 8);
    rd_datatype_t *v = rd_dt_build_hvector(3, 2, 20, i32);
    CU_ASSERT_FATAL(v != NULL);
    rd_datatype_t *vt[1] = { i32 };
    CU_ASSERT_EQUAL(rd_dt_set_contents(v, 0, 0, NULL, 0, NULL, 1, vt), 0);
    CU_ASSERT_EQUAL(rd_rma_dt_basic(v), RD_BASIC_INT32);
    size_t bls[2] = { 1, 1 };
    ptrdiff_t disps[2] = { 0, 8 };
    rd_datatype_t *olds[2] = { i32, f64 };
    rd_datatype_t *mixed = rd_dt_build_struct(2, bls, 0, disps, olds, NULL);
    CU_ASSERT_FATAL(mixed != NULL);
    CU_ASSERT_EQUAL(rd_dt_set_contents(mixed, 0, 0, NULL, 0, NULL, 2, olds), 0);
    CU_ASSERT_EQUAL(rd_rma_dt_basic(mixed), RD_BASIC_NONE);
    CU_ASSERT_EQUAL(rd_rma_basic_size(RD_BASIC_PAIR_SHORT_INT), sizeof(short) + sizeof(int));
    CU_ASSERT(rd_rma_acc_atomic(RD_BASIC_UINT16));
    CU_ASSERT(!rd_rma_acc_atomic(RD_BASIC_PAIR_INT_INT));
    rd_dt_release(mixed);
    rd_dt_release(v);
    rd_dt_release(f64);
    rd_dt_release(i32);
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "flatten a contiguous type", test_flatten_contig },
        { "flatten a vector", test_flatten_vector },
        { "flatten a struct and a subarray", test_flatten_struct_subarray },
        { "cut runs into messages", test_cursor },
        { "accumulate kernels", test_acc_basic },
        { "MAXLOC pairs over two runs", test_acc_pairs },
        { "compare and swap", test_cas },
        { "concurrent accumulates are exact", test_atomic_threads },
        { "element kind of derived types", test_basic_of_derived },
    };
    return rd_unit_run("rma_ops", tests, RD_UNIT_COUNT(tests));
}
