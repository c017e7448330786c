/*
 * Accumulate kernels on window memory (see rma_acc.h).
 *
 * Elements of 1, 2, 4 or 8 bytes are updated with C11 atomics on the
 * window word: a compare-and-swap loop around the ordinary reduction
 * kernel (core/op.h) for one element, an atomic exchange for MPI_REPLACE,
 * an atomic load for MPI_NO_OP and fetch-add for integer MPI_SUM. Origins
 * on the target's node (mapped window) and the target's own handler for
 * active messages use this same code, so concurrent accumulates from any
 * mix of paths stay exact. Wider elements (long double, complex of
 * doubles, the MINLOC/MAXLOC pairs) have no lock-free update: they only
 * ever go to the target by active message, whose handler applies one
 * message at a time.
 *
 * RDMA atomics (transport.h fetch_add/cswap) are atomic against each
 * other but not against these CPU atomics: they serve only windows where
 * every rank uses them for 8-byte elements, the owner too (rma_dev.c),
 * and those elements never come here.
 */
#include "rma/rma_acc.h"

#include <complex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/status.h"

#define PAIR_SIZE(t1, t2) (sizeof(t1) + sizeof(t2))

static const size_t basic_size[] = {
    [RD_BASIC_INT8] = 1, [RD_BASIC_INT16] = 2, [RD_BASIC_INT32] = 4, [RD_BASIC_INT64] = 8,
    [RD_BASIC_UINT8] = 1, [RD_BASIC_UINT16] = 2, [RD_BASIC_UINT32] = 4, [RD_BASIC_UINT64] = 8,
    [RD_BASIC_FLOAT] = sizeof(float), [RD_BASIC_DOUBLE] = sizeof(double),
    [RD_BASIC_LONG_DOUBLE] = sizeof(long double),
    [RD_BASIC_C_FLOAT_COMPLEX] = sizeof(float _Complex),
    [RD_BASIC_C_DOUBLE_COMPLEX] = sizeof(double _Complex),
    [RD_BASIC_C_LONG_DOUBLE_COMPLEX] = sizeof(long double _Complex),
    [RD_BASIC_BOOL] = sizeof(_Bool), [RD_BASIC_FLOGICAL] = 4, [RD_BASIC_CHAR] = 1,
    [RD_BASIC_PAIR_FLOAT_INT] = PAIR_SIZE(float, int),
    [RD_BASIC_PAIR_DOUBLE_INT] = PAIR_SIZE(double, int),
    [RD_BASIC_PAIR_LONG_INT] = PAIR_SIZE(long, int),
    [RD_BASIC_PAIR_SHORT_INT] = PAIR_SIZE(short, int),
    [RD_BASIC_PAIR_LONG_DOUBLE_INT] = PAIR_SIZE(long double, int),
    [RD_BASIC_PAIR_INT_INT] = PAIR_SIZE(int, int),
    [RD_BASIC_PAIR_FLOAT_FLOAT] = PAIR_SIZE(float, float),
    [RD_BASIC_PAIR_DOUBLE_DOUBLE] = PAIR_SIZE(double, double),
};
#define NBASIC ((int)(sizeof(basic_size) / sizeof(basic_size[0])))

/* Packed single elements of each kind, as the reduction kernels take them. */
#define BDT(k)                                                                        \
    [k] = { .refs = 1, .size = basic_size[k], .ub = (ptrdiff_t)basic_size[k],          \
            .true_ub = (ptrdiff_t)basic_size[k], .contig = 1, .dense = 1, .builtin = 1, \
            .committed = 1, .basic = k, .align = 1 }
static const rd_datatype_t basic_dt[] = {
    BDT(RD_BASIC_INT8), BDT(RD_BASIC_INT16), BDT(RD_BASIC_INT32), BDT(RD_BASIC_INT64),
    BDT(RD_BASIC_UINT8), BDT(RD_BASIC_UINT16), BDT(RD_BASIC_UINT32), BDT(RD_BASIC_UINT64),
    BDT(RD_BASIC_FLOAT), BDT(RD_BASIC_DOUBLE), BDT(RD_BASIC_LONG_DOUBLE),
    BDT(RD_BASIC_C_FLOAT_COMPLEX), BDT(RD_BASIC_C_DOUBLE_COMPLEX),
    BDT(RD_BASIC_C_LONG_DOUBLE_COMPLEX), BDT(RD_BASIC_BOOL), BDT(RD_BASIC_FLOGICAL),
    BDT(RD_BASIC_CHAR), BDT(RD_BASIC_PAIR_FLOAT_INT), BDT(RD_BASIC_PAIR_DOUBLE_INT),
    BDT(RD_BASIC_PAIR_LONG_INT), BDT(RD_BASIC_PAIR_SHORT_INT),
    BDT(RD_BASIC_PAIR_LONG_DOUBLE_INT), BDT(RD_BASIC_PAIR_INT_INT),
    BDT(RD_BASIC_PAIR_FLOAT_FLOAT), BDT(RD_BASIC_PAIR_DOUBLE_DOUBLE),
};

int rd_rma_dt_basic(const rd_datatype_t *dt)
{
    if (dt->builtin && dt->basic == RD_BASIC_NONE && dt->size == 1)
        return RD_BASIC_UINT8; /* MPI_BYTE, as the reduction kernels see it */
    if (dt->basic == RD_BASIC_CHAR)
        return RD_BASIC_INT8; /* MPI_CHAR: accumulates treat it as the C integer it is */
    if (dt->basic >= 0)
        return dt->basic < NBASIC ? dt->basic : RD_BASIC_NONE;
    if (dt->builtin || dt->nt <= 0 || !dt->types)
        return RD_BASIC_NONE;
    int k = RD_BASIC_NONE;
    for (int i = 0; i < dt->nt; i++) {
        int ki = rd_rma_dt_basic(dt->types[i]);
        if (ki == RD_BASIC_NONE || (k != RD_BASIC_NONE && ki != k))
            return RD_BASIC_NONE;
        k = ki;
    }
    return k;
}

size_t rd_rma_basic_size(int k)
{
    return k >= 0 && k < NBASIC ? basic_size[k] : 1;
}

static int is_pair(int k)
{
    return k >= RD_BASIC_PAIR_FLOAT_INT;
}

int rd_rma_acc_atomic(int k)
{
    if (k < 0 || k >= NBASIC || is_pair(k))
        return 0;
    size_t s = basic_size[k];
    return s == 1 || s == 2 || s == 4 || s == 8;
}

static int is_integer(int k)
{
    return k >= RD_BASIC_INT8 && k <= RD_BASIC_UINT64;
}

/* One element at t, atomically. T is the unsigned integer of its size:
 * the loop compares bit patterns, whatever the kind. */
#define ATOMIC_ONE(T)                                                                    \
    do {                                                                                 \
        T *p = t, cur, nv;                                                               \
        if (op == RD_OP_NO_OP) {                                                         \
            cur = __atomic_load_n(p, __ATOMIC_SEQ_CST);                                  \
        } else if (op == RD_OP_REPLACE) {                                                \
            memcpy(&nv, in, sizeof(T));                                                  \
            cur = __atomic_exchange_n(p, nv, __ATOMIC_SEQ_CST);                          \
        } else if (op == RD_OP_SUM && is_integer(k)) {                                   \
            memcpy(&nv, in, sizeof(T));                                                  \
            cur = __atomic_fetch_add(p, nv, __ATOMIC_SEQ_CST);                           \
        } else {                                                                         \
            cur = __atomic_load_n(p, __ATOMIC_RELAXED);                                  \
            do {                                                                         \
                nv = cur;                                                                \
                rd_op_apply(o, in, &nv, 1, dt);                                          \
            } while (!__atomic_compare_exchange_n(p, &cur, nv, 0, __ATOMIC_SEQ_CST,      \
                                                  __ATOMIC_RELAXED));                    \
        }                                                                                \
        if (old)                                                                         \
            memcpy(old, &cur, sizeof(T));                                                \
    } while (0)

static void atomic_one(const rd_op_t *o, int op, int k, const rd_datatype_t *dt, void *t,
                       const void *in, void *old)
{
    switch (basic_size[k]) {
    case 1: ATOMIC_ONE(uint8_t); break;
    case 2: ATOMIC_ONE(uint16_t); break;
    case 4: ATOMIC_ONE(uint32_t); break;
    default: ATOMIC_ONE(uint64_t); break;
    }
}

void rd_rma_acc_one(int op, int k, void *t, const void *in, void *old)
{
    const rd_op_t o = { .kind = op, .commute = 1, .builtin = 1 };
    atomic_one(&o, op, k, &basic_dt[k], t, in, old);
}

/* Runs to walk: the given ones, or one run of len bytes. */
static const rd_rma_block_t *runs(const rd_rma_block_t *b, size_t *nb, size_t len,
                                  rd_rma_block_t *one)
{
    if (*nb)
        return b;
    one->off = 0;
    one->len = len;
    *nb = 1;
    return one;
}

int rd_rma_acc_apply(int op, int k, char *base, const rd_rma_block_t *b, size_t nb, size_t len,
                     const void *in, void *old)
{
    if (!len)
        return RD_OK;
    rd_rma_block_t one;
    b = runs(b, &nb, len, &one);
    const char *src = in;
    char *res = old;
    if (op == RD_OP_NO_OP && !res)
        return RD_OK;
    if (op == RD_OP_NO_OP && rd_rma_acc_atomic(k)) {
        /* a read that never sees half of a concurrent update */
        size_t es = basic_size[k];
        for (size_t i = 0; i < nb; i++)
            for (size_t o = 0; o < b[i].len; o += es, res += es)
                atomic_one(NULL, op, k, NULL, base + b[i].off + o, NULL, res);
        return RD_OK;
    }
    if (rd_rma_acc_atomic(k)) {
        const rd_op_t o = { .kind = op, .commute = 1, .builtin = 1 };
        size_t es = basic_size[k];
        for (size_t i = 0; i < nb; i++) {
            char *t = base + b[i].off;
            for (size_t n = b[i].len / es; n; n--, t += es, src += es) {
                atomic_one(&o, op, k, &basic_dt[k], t, src, res);
                if (res)
                    res += es;
            }
        }
        return RD_OK;
    }
    /* Gather, apply on the packed copy, scatter back: the caller keeps
     * every other update of these bytes out meanwhile. */
    char *cur = malloc(len);
    if (!cur)
        return RD_ENOMEM;
    for (size_t i = 0, at = 0; i < nb; at += b[i].len, i++)
        memcpy(cur + at, base + b[i].off, b[i].len);
    if (res)
        memcpy(res, cur, len);
    if (op != RD_OP_NO_OP) {
        if (op == RD_OP_REPLACE || k == RD_BASIC_NONE) {
            memcpy(cur, src, len);
        } else {
            const rd_op_t o = { .kind = op, .commute = 1, .builtin = 1 };
            rd_op_apply(&o, src, cur, len / basic_size[k], &basic_dt[k]);
        }
        for (size_t i = 0, at = 0; i < nb; at += b[i].len, i++)
            memcpy(base + b[i].off, cur + at, b[i].len);
    }
    free(cur);
    return RD_OK;
}

int rd_rma_acc_apply_private(int op, int k, char *base, const rd_rma_block_t *b, size_t nb,
                             size_t len, const void *in, void *old)
{
    /* Runs of a kind with gaps (the pair types) may split an element:
     * those are combined on a gathered copy, as before. */
    if (!rd_rma_acc_atomic(k))
        return rd_rma_acc_apply(op, k, base, b, nb, len, in, old);
    if (!len)
        return RD_OK;
    rd_rma_block_t one;
    b = runs(b, &nb, len, &one);
    const char *src = in;
    char *res = old;
    const rd_op_t o = { .kind = op, .commute = 1, .builtin = 1 };
    size_t es = rd_rma_basic_size(k);
    for (size_t i = 0; i < nb; i++) {
        char *t = base + b[i].off;
        size_t n = b[i].len;
        if (res) {
            memcpy(res, t, n);
            res += n;
        }
        if (op == RD_OP_REPLACE)
            memcpy(t, src, n);
        else if (op != RD_OP_NO_OP)
            rd_op_apply(&o, src, t, n / es, &basic_dt[k]);
        src += n;
    }
    return RD_OK;
}

#define CAS_ONE(T)                                                                  \
    do {                                                                            \
        T c, s;                                                                     \
        memcpy(&c, cmp, sizeof(T));                                                 \
        memcpy(&s, swap, sizeof(T));                                                \
        __atomic_compare_exchange_n((T *)t, &c, s, 0, __ATOMIC_SEQ_CST,             \
                                    __ATOMIC_SEQ_CST);                              \
        memcpy(old, &c, sizeof(T));                                                 \
    } while (0)

void rd_rma_acc_cas(int k, void *t, const void *cmp, const void *swap, void *old)
{
    size_t es = rd_rma_basic_size(k);
    if (!rd_rma_acc_atomic(k)) {
        memcpy(old, t, es);
        if (!memcmp(old, cmp, es))
            memcpy(t, swap, es);
        return;
    }
    switch (es) {
    case 1: CAS_ONE(uint8_t); break;
    case 2: CAS_ONE(uint16_t); break;
    case 4: CAS_ONE(uint32_t); break;
    default: CAS_ONE(uint64_t); break;
    }
}
