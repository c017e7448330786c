/*
 * Device atomics (see rma_dev.h): deciding the mode at window creation,
 * and the 8-byte accumulates and atomics of a window in it, each element
 * one RDMA atomic to its target, this rank included (p2p's loopback).
 *
 * Integer MPI_SUM and MPI_NO_OP are one fetch-add, Compare_and_swap one
 * compare-and-swap; they are issued without waiting and complete with the
 * next flush, like RDMA puts, their results written by the transport at
 * completion (straight into the caller's buffer when it is aligned). Every
 * other operation (MPI_REPLACE, MIN, MAX, PROD, the logical and bitwise
 * ones, floating-point SUM) is a compare-and-swap loop: guess the value
 * (0 first, then what the device found), compute the new one with the
 * reduction kernel, swap it in if the guess held; that waits for each
 * round trip, so these are slower than on the active-message path when
 * many elements go at once.
 */
#include "rma/rma_dev.h"

#include <stdlib.h>
#include <string.h>

#include "rma/rma_dtype.h"
#include "rma/rma_ops.h"
#include "rma/rma_tunables.h"
#include "rma/rma_win.h"
#include "util/errdetail.h"
#include "util/status.h"

static int enabled;
static unsigned long ndev_windows, nfadd, ncswap, nlock;
/* The result of atomics whose result nobody reads (Accumulate). */
static uint64_t discard;

int rd_rma_dev_init(void)
{
    long long v;
    int rc = rd_tunable_int(&rd_rma_tunables[RD_RMA_T_DEV_ATOMICS], &v);
    enabled = rc == RD_OK && v;
    ndev_windows = nfadd = ncswap = nlock = 0;
    return rc;
}

void rd_rma_dev_counts(unsigned long *windows, unsigned long *fadd, unsigned long *cswap,
                       unsigned long *lock)
{
    *windows = ndev_windows;
    *fadd = nfadd;
    *cswap = ncswap;
    *lock = nlock;
}

/* ---- the decision ---- */

/* The key of registration m for the transport this process reaches
 * itself with (its loopback), into key (RD_P2P_KEY_MAX bytes); 0 if none. */
static size_t own_key(rd_p2p_mem_t *m, uint8_t *key)
{
    uint8_t keys[RD_P2P_KEYS_MAX];
    size_t len = 0, kl;
    const void *k;
    rd_p2p_mem_keys(m, keys, &len);
    if (!rd_p2p_mem_key_for(rd_p2p_world_rank(), keys, len, &k, &kl) || kl > RD_P2P_KEY_MAX)
        return 0;
    memcpy(key, k, kl);
    return kl;
}

/* desc: [lock word address, 8 bytes][key length, 1][key]. */
int rd_rma_dev_local(rd_win_t *w, void *desc, size_t len)
{
    rd_comm_t *c = w->comm;
    struct rd_rma_win *rw = w->rma;
    if (!enabled || (w->flavor != RD_WIN_CREATE && w->flavor != RD_WIN_ALLOCATE) ||
        c->size < 2 || rw->sync->node_peers || len < RD_RMA_DEV_DESC)
        return 0;
    for (int r = 0; r < c->size; r++) {
        int world = rd_comm_world(c, r);
        if (r == c->rank)
            continue;
        /* A node peer could map the memory and use CPU atomics on it. */
        if (rd_p2p_same_node(world) || rd_p2p_rdma_loopback(world) != RD_OK ||
            !rd_p2p_rdma_loop_same(world))
            return 0;
    }
    if (!rd_p2p_rdma_loop_same(rd_p2p_world_rank()))
        return 0;
    uint8_t key[RD_P2P_KEY_MAX];
    size_t kl;
    _Atomic uint64_t *word = &rw->sync->ctl->lock;
    if (rd_p2p_mem_reg((const void *)word, sizeof(*word), &rw->ctl_mem) != RD_OK) {
        rw->ctl_mem = NULL;
        return 0;
    }
    if (!(kl = own_key(rw->ctl_mem, key))) {
        rd_rma_dev_free(w);
        return 0;
    }
    uint64_t a = (uint64_t)(uintptr_t)word;
    memcpy(desc, &a, sizeof(a));
    ((uint8_t *)desc)[8] = (uint8_t)kl;
    memcpy((uint8_t *)desc + 9, key, kl);
    return 1;
}

void rd_rma_dev_free(rd_win_t *w)
{
    if (w->rma->ctl_mem)
        rd_p2p_mem_dereg(w->rma->ctl_mem);
    w->rma->ctl_mem = NULL;
}

int rd_rma_dev_connect(rd_win_t *w, int all, const void *(*descs)(const void *, int),
                       const void *arg)
{
    struct rd_rma_win *rw = w->rma;
    rw->dev_atomics = 0;
    if (!all) {
        rd_rma_dev_free(w);
        return RD_OK;
    }
    rd_rma_peer_t *me = &rw->peers[w->comm->rank];
    if (w->size)
        me->keylen = own_key(rw->mem, me->key);
    for (int r = 0; r < rw->nranks; r++) {
        rd_rma_peer_t *pe = &rw->peers[r];
        const uint8_t *d = descs(arg, r);
        memcpy(&pe->ctl, d, sizeof(pe->ctl));
        pe->ctl_keylen = d[8] <= RD_P2P_KEY_MAX ? d[8] : 0;
        memcpy(pe->ctl_key, d + 9, pe->ctl_keylen);
        if ((pe->size && !pe->keylen) || !pe->ctl_keylen) {
            rd_err_detail("device atomics: no remote key for rank %d's window, though every "
                          "rank agreed on the mode", r);
            return RD_EINTERN;
        }
    }
    rw->dev_atomics = 1;
    ndev_windows++;
    return RD_OK;
}

/* ---- one element ---- */

/* A result that lands in an unaligned buffer: the transport writes val,
 * the completion copies it. */
typedef struct dev_res {
    uint64_t val;
    void *dst;
    rd_win_t *w;
    int target;
} dev_res_t;

static void res_done(void *ctx, int status)
{
    dev_res_t *x = ctx;
    if (status == RD_OK)
        memcpy(x->dst, &x->val, sizeof(x->val));
    else
        rd_rma_peer_fail(x->w, x->target, status);
    free(x);
}

/* Where the transport writes a result wanted at old (NULL: not wanted),
 * with the completion that copies it when old is not aligned. */
static int result_slot(rd_win_t *w, int t, void *old, uint64_t **res, rd_p2p_done_fn *done,
                       void **ctx)
{
    *done = NULL;
    *ctx = NULL;
    if (!old) {
        *res = &discard;
    } else if (!((uintptr_t)old & 7)) {
        *res = old;
    } else {
        dev_res_t *x = malloc(sizeof(*x));
        if (!x)
            return RD_ENOMEM;
        *x = (dev_res_t){ .dst = old, .w = w, .target = t };
        *res = &x->val;
        *done = res_done;
        *ctx = x;
    }
    return RD_OK;
}

/* One device atomic at raddr of t, over at the next flush: a fetch-add of
 * a (cas 0), or a compare-and-swap of a for b (cas 1). */
static int atomic_op(rd_win_t *w, int t, int cas, uint64_t raddr, uint64_t a, uint64_t b,
                     void *old)
{
    rd_rma_peer_t *pe = &w->rma->peers[t];
    uint64_t *res;
    rd_p2p_done_fn done;
    void *ctx;
    int rc = result_slot(w, t, old, &res, &done, &ctx);
    if (rc != RD_OK)
        return rc;
    rc = cas ? rd_p2p_rdma_cswap(pe->world, raddr, pe->key, pe->keylen, a, b, res, done, ctx)
             : rd_p2p_rdma_fetch_add(pe->world, raddr, pe->key, pe->keylen, a, res, done, ctx);
    if (rc != RD_OK) {
        free(ctx);
        return rc;
    }
    if (cas)
        ncswap++;
    else
        nfadd++;
    pe->rdma_unflushed++;
    return RD_OK;
}

typedef struct dev_wait {
    volatile int done;
    int status;
} dev_wait_t;

static void wait_done(void *ctx, int status)
{
    dev_wait_t *d = ctx;
    d->status = status;
    d->done = 1;
}

/* Compare-and-swap at raddr of t, waited for: *found is what was there. */
static int cswap_wait(rd_win_t *w, int t, uint64_t raddr, uint64_t cmp, uint64_t swp,
                      uint64_t *found)
{
    rd_rma_peer_t *pe = &w->rma->peers[t];
    dev_wait_t d = { 0, RD_OK };
    int rc = rd_p2p_rdma_cswap(pe->world, raddr, pe->key, pe->keylen, cmp, swp, found,
                               wait_done, &d);
    if (rc != RD_OK)
        return rc;
    ncswap++;
    rd_rma_progress_until(&d.done);
    return d.status;
}

/* op on the element of kind k at raddr of t with the 8 bytes at in (not
 * read for MPI_NO_OP); the value found goes to old unless it is NULL. */
static int elem(rd_win_t *w, int t, int kind, int k, uint64_t raddr, const void *in, void *old)
{
    uint64_t v = 0;
    if (kind == RD_OP_NO_OP)
        return atomic_op(w, t, 0, raddr, 0, 0, old);
    if (kind == RD_OP_SUM && (k == RD_BASIC_INT64 || k == RD_BASIC_UINT64)) {
        memcpy(&v, in, sizeof(v));
        return atomic_op(w, t, 0, raddr, v, 0, old);
    }
    uint64_t guess = 0, found;
    for (;;) {
        uint64_t nv = guess;
        rd_rma_acc_one(kind, k, &nv, in, NULL);
        int rc = cswap_wait(w, t, raddr, guess, nv, &found);
        if (rc != RD_OK)
            return rc;
        if (found == guess)
            break;
        guess = found;
    }
    if (old)
        memcpy(old, &guess, sizeof(guess));
    return RD_OK;
}

/* ---- the lock word ---- */

/* One atomic on target's lock word (cswap when cas, else fetch-add of
 * v), waited for; *found is the value it had. */
static int word_wait(rd_win_t *w, int t, int cas, uint64_t cmp, uint64_t v, uint64_t *found)
{
    const rd_rma_peer_t *pe = &w->rma->peers[t];
    dev_wait_t d = { 0, RD_OK };
    int rc = cas ? rd_p2p_rdma_cswap(pe->world, pe->ctl, pe->ctl_key, pe->ctl_keylen, cmp, v,
                                     found, wait_done, &d)
                 : rd_p2p_rdma_fetch_add(pe->world, pe->ctl, pe->ctl_key, pe->ctl_keylen, v,
                                         found, wait_done, &d);
    if (rc != RD_OK)
        return rc;
    nlock++;
    rd_rma_progress_until(&d.done);
    return d.status;
}

int rd_rma_dev_lock(rd_win_t *w, int target, int type)
{
    unsigned idle = 0;
    for (;;) {
        uint64_t found;
        int rc;
        if (type == RD_LOCK_EXCLUSIVE) {
            if ((rc = word_wait(w, target, 1, 0, RD_RMA_LOCK_EXCL, &found)) != RD_OK ||
                found == 0)
                return rc;
        } else {
            /* A shared holder more; not while an exclusive one holds it. */
            if ((rc = word_wait(w, target, 0, 0, 1, &found)) != RD_OK ||
                !(found & RD_RMA_LOCK_EXCL))
                return rc;
            if ((rc = word_wait(w, target, 0, 0, (uint64_t)-1, &found)) != RD_OK)
                return rc;
        }
        rd_rma_poll(&idle);
    }
}

int rd_rma_dev_unlock(rd_win_t *w, int target, int type)
{
    uint64_t found;
    return word_wait(w, target, 0, 0,
                     type == RD_LOCK_EXCLUSIVE ? (uint64_t)0 - RD_RMA_LOCK_EXCL : (uint64_t)-1,
                     &found);
}

/* ---- the operations ---- */

int rd_rma_dev_acc(rd_win_t *w, const rd_rma_op_t *op, rd_request_t *r, int get, int k,
                   uint64_t tdata, size_t bytes)
{
    int t = op->target, kind = op->op->kind;
    const rd_rma_peer_t *pe = &w->rma->peers[t];
    rd_rma_flat_t f = { 0 };
    rd_rma_block_t one = { 0, bytes };
    const rd_rma_block_t *b = &one;
    size_t nb = 1, aligned = 0;
    int rc;
    if (!rd_dt_is_contig(op->tdt, op->tcount)) {
        if ((rc = rd_rma_flatten(op->tcount, op->tdt, &f)) != RD_OK)
            return rc;
        b = f.b;
        nb = f.n;
    }
    for (size_t i = 0; i < nb; i++)
        aligned += !((pe->base + tdata + b[i].off) & 7);
    if (aligned != nb) {
        rd_rma_flat_free(&f);
        if (!aligned)
            return RD_RMA_DEV_USUAL;
        rd_err_detail("on a window in device-atomics mode, an accumulate whose target "
                      "elements are partly 8-byte aligned and partly not (set "
                      "RDMPI_RMA_DEV_ATOMICS=0 for such windows)");
        return RD_ENOTSUP;
    }
    const char *in = NULL;
    char *res = NULL;
    void *tin = NULL, *tres = NULL;
    rc = RD_ENOMEM;
    if (kind != RD_OP_NO_OP &&
        !(in = rd_rma_contig_view(op->obuf, op->ocount, op->odt, bytes, 1, &tin)))
        goto out;
    /* Results into a contiguous buffer land there at completion; others
     * in a packed copy, unpacked once they are all here. */
    if (get && !(res = rd_rma_contig_view(op->rbuf, op->rcount, op->rdt, bytes, 0, &tres)))
        goto out;
    rc = RD_OK;
    size_t done = 0;   /* bytes of the elements issued */
    for (size_t i = 0; i < nb && rc == RD_OK; i++)
        for (uint64_t o = 0; o < b[i].len; o += 8) {
            rc = elem(w, t, kind, k, pe->base + tdata + b[i].off + o, in ? in + done : NULL,
                      res ? res + done : NULL);
            if (rc != RD_OK)
                break;
            done += 8;
        }
    if (rc != RD_OK && done == 0)
        goto out;   /* nothing issued: the caller's request stays its own */
    if (tres || r) {
        rd_rma_flush_peer(w, t);
        if (tres && rc == RD_OK)
            rd_dt_unpack(op->rbuf, op->rcount, op->rdt, 0, tres, bytes);
        if (r) {
            rd_req_complete(r, rc);
            rc = RD_OK;
        }
    }
out:
    rd_rma_flat_free(&f);
    free(tin);
    free(tres);
    return rc;
}

int rd_rma_dev_fetch_op(rd_win_t *w, const rd_rma_op_t *op, int k, uint64_t tdata)
{
    int t = op->target;
    uint64_t raddr = w->rma->peers[t].base + tdata;
    if (raddr & 7)
        return RD_RMA_DEV_USUAL;
    return elem(w, t, op->op->kind, k, raddr, op->obuf, op->rbuf);
}

int rd_rma_dev_cas(rd_win_t *w, const rd_rma_op_t *op, uint64_t tdata)
{
    int t = op->target;
    uint64_t raddr = w->rma->peers[t].base + tdata, cmp, swp;
    if (raddr & 7)
        return RD_RMA_DEV_USUAL;
    memcpy(&cmp, op->cbuf, sizeof(cmp));
    memcpy(&swp, op->obuf, sizeof(swp));
    return atomic_op(w, t, 1, raddr, cmp, swp, op->rbuf);
}
