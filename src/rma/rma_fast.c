/*
 * The fast paths of Put, Get and Fetch_and_op (rma.h): the cases the
 * latency of one-sided communication is measured by, done in a few
 * compares without the general path's operation records:
 *  - a target whose window memory is mapped here, in an epoch that covers
 *    every target (fence, lock_all): one copy or one atomic;
 *  - a contiguous Put or Get to a target reached by RDMA, in any epoch
 *    that covers it: one RDMA Write or Read, completed by the epoch's
 *    flush as rma_origin.c's are.
 * Anything else answers 0 and the caller takes the general call, which
 * makes every check again and says what is wrong.
 */
#include "rma/rma_fast.h"

#include <string.h>

#include "rma/rma_acc.h"
#include "rma/rma_impl.h"
#include "util/status.h"

/* The offset in pe's window of the bytes [disp * disp_unit + lb, + bytes)
 * in *off and 1, or 0 when they do not lie inside it (the general path
 * then says why). */
static inline int fast_offset(const rd_rma_peer_t *pe, size_t disp, ptrdiff_t lb, size_t bytes,
                              size_t *off)
{
    if (__builtin_mul_overflow(disp, (size_t)(pe->disp_unit > 0 ? pe->disp_unit : 1), off) ||
        (lb < 0 ? (size_t)-lb > *off : (size_t)lb > SIZE_MAX - *off))
        return 0;
    *off += (size_t)lb;
    return *off <= pe->size && bytes <= pe->size - *off;
}

/* Where the target's bytes [disp * disp_unit + lb, + bytes) are mapped
 * here, or NULL when the fast path does not apply. */
static inline char *fast_target(rd_win_t *w, int target, size_t disp, ptrdiff_t lb,
                                size_t bytes)
{
    const struct rd_rma_win *rw = w->rma;
    if (__builtin_expect(rw->access != RD_EPOCH_LOCK_ALL && rw->access != RD_EPOCH_FENCE, 0) ||
        w->flavor == RD_WIN_DYNAMIC || bytes == 0)
        return NULL;
    const rd_rma_peer_t *pe = &rw->peers[target];
    char *m = pe->path == RD_RMA_PATH_SHM ? pe->mapped
                                          : target == w->comm->rank ? w->base : NULL;
    size_t off;
    return m && fast_offset(pe, disp, lb, bytes, &off) ? m + off : NULL;
}

/* memmove, with the scalar sizes inlined: a load then a store, so that
 * overlapping buffers stay right as with memmove. */
static inline void copy(void *dst, const void *src, size_t n)
{
    switch (n) {
    case 8: { uint64_t v; memcpy(&v, src, 8); memcpy(dst, &v, 8); break; }
    case 4: { uint32_t v; memcpy(&v, src, 4); memcpy(dst, &v, 4); break; }
    case 2: { uint16_t v; memcpy(&v, src, 2); memcpy(dst, &v, 2); break; }
    case 1: *(char *)dst = *(const char *)src; break;
    default: memmove(dst, src, n); break;
    }
}

/* A Put (put 1) or Get of bytes between local and target's window at
 * disp * disp_unit + lb as one RDMA operation, when target is reached by
 * RDMA and the epoch covers it; 0 (nothing issued) otherwise, or when the
 * transport refuses: the general path then makes the same call and says
 * why. */
static int fast_rdma(rd_win_t *w, int target, size_t disp, ptrdiff_t lb, void *local,
                     size_t bytes, int put)
{
    struct rd_rma_win *rw = w->rma;
    rd_rma_peer_t *pe = &rw->peers[target];
    if (pe->path != RD_RMA_PATH_RDMA || !pe->keylen || w->flavor == RD_WIN_DYNAMIC ||
        bytes == 0)
        return 0;
    int covered = rw->access == RD_EPOCH_LOCK_ALL || rw->access == RD_EPOCH_FENCE ||
                  (rw->access == RD_EPOCH_LOCK && pe->lock) ||
                  (rw->access == RD_EPOCH_PSCW && pe->in_access);
    size_t off;
    if (!covered || !fast_offset(pe, disp, lb, bytes, &off) ||
        (pe->rdma_max && bytes > pe->rdma_max))
        return 0;
    int rc = put ? rd_p2p_rdma_put(pe->world, local, NULL, pe->base + off, pe->key, pe->keylen,
                                   bytes, NULL, NULL)
                 : rd_p2p_rdma_get(pe->world, local, NULL, pe->base + off, pe->key, pe->keylen,
                                   bytes, NULL, NULL);
    if (rc != RD_OK)
        return 0;
    pe->rdma_unflushed++;
    return 1;
}

int rd_rma_put_fast(rd_win_t *w, int target, size_t disp, ptrdiff_t lb, const void *src,
                    size_t bytes)
{
    char *t = fast_target(w, target, disp, lb, bytes);
    if (!t)
        return fast_rdma(w, target, disp, lb, (void *)src, bytes, 1);
    copy(t, src, bytes);
    return 1;
}

int rd_rma_get_fast(rd_win_t *w, int target, size_t disp, ptrdiff_t lb, void *dst,
                    size_t bytes)
{
    char *t = fast_target(w, target, disp, lb, bytes);
    if (!t)
        return fast_rdma(w, target, disp, lb, dst, bytes, 0);
    copy(dst, t, bytes);
    return 1;
}

/* Fetch-and-add of an 8 or 4-byte integer, the common Fetch_and_op, as
 * one instruction (the same atomic rma_acc.c's table would take). */
static inline int fetch_add(char *t, size_t size, const void *in, void *out)
{
    if (size == 8) {
        uint64_t v;
        memcpy(&v, in, 8);
        v = __atomic_fetch_add((uint64_t *)(void *)t, v, __ATOMIC_SEQ_CST);
        memcpy(out, &v, 8);
        return 1;
    }
    if (size == 4) {
        uint32_t v;
        memcpy(&v, in, 4);
        v = __atomic_fetch_add((uint32_t *)(void *)t, v, __ATOMIC_SEQ_CST);
        memcpy(out, &v, 4);
        return 1;
    }
    return 0;
}

int rd_rma_fetch_op_fast(rd_win_t *w, int target, size_t disp, const rd_datatype_t *dt,
                         int op, const void *in, void *out)
{
    /* The device applies these: a CPU atomic would not be atomic with it. */
    if (w->rma->dev_atomics && dt->size == 8)
        return 0;
    if (op == RD_OP_SUM && dt->basic >= RD_BASIC_INT8 && dt->basic <= RD_BASIC_UINT64 &&
        (dt->size == 8 || dt->size == 4)) {
        char *t = fast_target(w, target, disp, dt->true_lb, dt->size);
        return t && fetch_add(t, dt->size, in, out);
    }
    int k = rd_rma_dt_basic(dt);
    if (op >= RD_OP_USER || !rd_rma_acc_atomic(k))
        return 0;
    char *t = fast_target(w, target, disp, dt->true_lb, dt->size);
    if (!t)
        return 0;
    rd_rma_acc_one(op, k, t, in, out);
    return 1;
}
