/*
 * Reductions: reduce, allreduce, reduce-scatter (block and v), scan, exscan.
 *
 * Data stay in the user's datatype layout throughout (temporaries too, see
 * rd_coll_tmp), so a user operation sees exactly the layout it was written
 * for; p2p packs non-contiguous data on the wire. Operands are always
 * combined in rank order, which is what a non-commutative operation needs:
 * a partial result that covers lower ranks is the left operand.
 *
 * Reduce: binomial tree (relative to the root when the op commutes, else
 * rooted at rank 0 so that every subtree is a contiguous rank range, plus one
 * message to the root). Allreduce: recursive doubling for short data and
 * non-commutative ops; Rabenseifner's reduce-scatter (recursive halving) +
 * allgather (recursive doubling) for long data. Non-powers of two fold the
 * first 2 * (n - 2^k) ranks pairwise first. Reduce-scatter: pairwise
 * exchange for long data and commutative ops, else reduce + scatterv.
 * Scan / exscan: recursive doubling.
 */
#include "coll/coll.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll_shm.h"
#include "coll/coll_util.h"
#include "util/scratch.h"
#include "util/status.h"

/* Two buffers of count elements of dt, in dt's layout. */
typedef struct pair_bufs {
    char *acc, *other;
    void *mem[2];
} pair_bufs_t;

static int bufs_alloc(pair_bufs_t *b, size_t count, const rd_datatype_t *dt, int n)
{
    b->mem[0] = b->mem[1] = NULL;
    b->acc = b->other = NULL;
    if (n > 0 && !(b->acc = rd_coll_tmp(count, dt, &b->mem[0])))
        return RD_ENOMEM;
    if (n > 1 && !(b->other = rd_coll_tmp(count, dt, &b->mem[1]))) {
        rd_scratch_put(b->mem[0]);
        return RD_ENOMEM;
    }
    return RD_OK;
}

static void bufs_free(pair_bufs_t *b)
{
    rd_scratch_put(b->mem[0]);
    rd_scratch_put(b->mem[1]);
}

/* Combines *other (a partial result of the ranks just below, lower != 0, or
 * just above the ones *acc covers) into *acc, keeping rank order. */
static void fold(const rd_op_t *op, char **acc, char **other, size_t count,
                 const rd_datatype_t *dt, int lower)
{
    if (lower || op->commute) {
        rd_op_apply(op, *other, *acc, count, dt);
    } else {
        rd_op_apply(op, *acc, *other, count, dt);
        char *t = *acc;
        *acc = *other;
        *other = t;
    }
}

/* A temporary of count elements of dt in dt's layout, on the stack when it
 * is small, else from the scratch cache; set up on first use. */
#define TMP_STACK 1024
typedef struct tmpbuf {
    char *p;
    void *mem;
    union {
        max_align_t align;
        char b[TMP_STACK];
    } stack;
} tmpbuf_t;

static char *tmp_get(tmpbuf_t *t, size_t count, const rd_datatype_t *dt)
{
    if (t->p)
        return t->p;
    ptrdiff_t ext = rd_dt_extent(dt), true_ext = dt->true_ub - dt->true_lb;
    size_t span = (size_t)((ptrdiff_t)(count - 1) * ext + true_ext);
    if (span <= TMP_STACK)
        t->p = t->stack.b - dt->true_lb;
    else
        t->p = rd_coll_tmp(count, dt, &t->mem);
    return t->p;
}

/* Binomial tree. The running result stays in src (the send buffer) until
 * the first child's data arrive; those are received into the accumulator
 * (the root's receive buffer when it can be) and src is combined in, so a
 * leaf sends its send buffer as it is and nothing is copied. Children hold
 * higher relative ranks, so their data are always the right operand. */
int rd_coll_reduce(rd_comm_t *c, const void *sbuf, void *rbuf, size_t count, rd_datatype_t *dt,
                   const rd_op_t *op, int root)
{
    int size = c->size, me = c->rank, rc = RD_OK;
    const char *src = sbuf == RD_COLL_IN_PLACE ? rbuf : sbuf;
    if (count == 0)
        return RD_OK;
    if (size == 1) {
        if (sbuf != RD_COLL_IN_PLACE)
            rd_coll_copy(sbuf, count, dt, rbuf, count, dt);
        return RD_OK;
    }
    /* A commutative op can use the tree rooted at root; otherwise the tree
     * is rooted at 0, whose subtrees are contiguous rank ranges. */
    int troot = op->commute ? root : 0, rel = (me - troot + size) % size;
    tmpbuf_t t[2];
    t[0].p = t[1].p = NULL;
    t[0].mem = t[1].mem = NULL;
    char *acc = NULL, *other;
    for (int mask = 1; mask < size; mask <<= 1) {
        if (rel & mask) {
            rc = rd_coll_send(c, acc ? acc : src, count, dt, (rel - mask + troot) % size,
                              RD_TAG_REDUCE);
            break;
        }
        if (rel + mask >= size)
            continue;
        int child = (rel + mask + troot) % size;
        if (!acc) {
            acc = me == root && troot == root && src != (const char *)rbuf
                      ? rbuf : tmp_get(&t[0], count, dt);
            if (!acc) {
                rc = RD_ENOMEM;
                break;
            }
            rc = rd_coll_recv(c, acc, count, dt, child, RD_TAG_REDUCE);
            if (rc != RD_OK)
                break;
            rd_op_apply(op, src, acc, count, dt);
        } else {
            if (!(other = tmp_get(&t[acc == t[0].p ? 1 : 0], count, dt))) {
                rc = RD_ENOMEM;
                break;
            }
            rc = rd_coll_recv(c, other, count, dt, child, RD_TAG_REDUCE);
            if (rc != RD_OK)
                break;
            fold(op, &acc, &other, count, dt, 0);
        }
    }
    if (rc == RD_OK && troot != root) {
        if (me == troot)
            rc = rd_coll_send(c, acc ? acc : src, count, dt, root, RD_TAG_REDUCE);
        else if (me == root)
            rc = rd_coll_recv(c, rbuf, count, dt, troot, RD_TAG_REDUCE);
    } else if (rc == RD_OK && me == root) {
        const char *res = acc ? acc : src;
        if (res != (const char *)rbuf)
            rd_coll_copy(res, count, dt, rbuf, count, dt);
    }
    rd_scratch_put(t[0].mem);
    rd_scratch_put(t[1].mem);
    return rc;
}

/* Allreduce state. The running result lives in the receive buffer (acc ==
 * rbuf) unless a non-commutative fold swapped it into the temporary; the
 * temporary (other) receives the peers' data and is only set up when first
 * needed, on the stack when it is small. Until the first combine this rank's
 * contribution is only in src (fresh): the first exchange then receives
 * straight into rbuf and combines src into it, so src is never copied. */
typedef struct ar {
    const char *src;
    char *rbuf, *acc, *other;
    int fresh;
    size_t count;
    rd_datatype_t *dt;
    const rd_op_t *op;
    tmpbuf_t t;
} ar_t;

static void ar_init(ar_t *s, const void *sbuf, void *rbuf, size_t count, rd_datatype_t *dt,
                    const rd_op_t *op)
{
    s->src = sbuf == RD_COLL_IN_PLACE ? rbuf : sbuf;
    s->rbuf = s->acc = rbuf;
    s->other = NULL;
    s->fresh = s->src != s->rbuf;
    s->count = count;
    s->dt = dt;
    s->op = op;
    s->t.p = NULL;
    s->t.mem = NULL;
}

static char *ar_other(ar_t *s)
{
    if (!s->other)
        s->other = tmp_get(&s->t, s->count, s->dt);
    return s->other;
}

/* Where this rank's running result is now. */
static const char *ar_data(const ar_t *s)
{
    return s->fresh ? s->src : s->acc;
}

/* Makes acc hold this rank's data. */
static void ar_settle(ar_t *s)
{
    if (s->fresh)
        rd_coll_copy(s->src, s->count, s->dt, s->acc, s->count, s->dt);
    s->fresh = 0;
}

/* Whole-vector step with peer: sends the running result (send) and/or
 * combines the peer's (recv), whose ranks are below this one's if
 * peer_lower. */
static int ar_step(rd_comm_t *c, ar_t *s, int peer, int send, int recv, int peer_lower)
{
    size_t n = s->count;
    rd_datatype_t *dt = s->dt;
    int rc;
    if (!recv)
        return rd_coll_send(c, ar_data(s), n, dt, peer, RD_TAG_ALLREDUCE);
    if (s->fresh && (s->op->commute || !peer_lower)) {
        /* acc = src op peer's (the same as peer's op src when it commutes) */
        rc = send ? rd_coll_sendrecv(c, s->src, n, dt, peer, s->acc, n, dt, peer,
                                     RD_TAG_ALLREDUCE)
                  : rd_coll_recv(c, s->acc, n, dt, peer, RD_TAG_ALLREDUCE);
        if (rc == RD_OK) {
            rd_op_apply(s->op, s->src, s->acc, n, dt);
            s->fresh = 0;
        }
        return rc;
    }
    char *o = ar_other(s);
    if (!o)
        return RD_ENOMEM;
    rc = send ? rd_coll_sendrecv(c, ar_data(s), n, dt, peer, o, n, dt, peer, RD_TAG_ALLREDUCE)
              : rd_coll_recv(c, o, n, dt, peer, RD_TAG_ALLREDUCE);
    if (rc == RD_OK) {
        ar_settle(s);
        fold(s->op, &s->acc, &s->other, n, dt, peer_lower);
    }
    return rc;
}

/* Rank of new rank nr after folding: the first 2 * rem ranks pair up and
 * the odd one of each pair carries on. */
static int real_rank(int nr, int rem)
{
    return nr < rem ? nr * 2 + 1 : nr + rem;
}

/* Folds the first 2 * rem ranks pairwise into the odd ones; returns this
 * rank's new rank, or -1 if it sits out. */
static int fold_in(rd_comm_t *c, ar_t *s, int rem, int *rc)
{
    int me = c->rank;
    if (me >= 2 * rem)
        return me - rem;
    if (me % 2 == 0) {
        *rc = ar_step(c, s, me + 1, 1, 0, 0);
        return -1;
    }
    *rc = ar_step(c, s, me - 1, 0, 1, 1);
    return me / 2;
}

/* The inverse: odd ranks of the first 2 * rem send the result back, straight
 * into the even ones' receive buffers. */
static int fold_out(rd_comm_t *c, ar_t *s, int rem)
{
    int me = c->rank;
    if (me >= 2 * rem)
        return RD_OK;
    if (me % 2)
        return rd_coll_send(c, s->acc, s->count, s->dt, me - 1, RD_TAG_ALLREDUCE);
    s->acc = s->rbuf;
    s->fresh = 0;
    return rd_coll_recv(c, s->rbuf, s->count, s->dt, me + 1, RD_TAG_ALLREDUCE);
}

static int allreduce_recdbl(rd_comm_t *c, ar_t *s)
{
    int pof2 = rd_coll_pof2(c->size), rem = c->size - pof2, rc = RD_OK;
    int nr = fold_in(c, s, rem, &rc);
    for (int mask = 1; rc == RD_OK && nr >= 0 && mask < pof2; mask <<= 1) {
        int peer = nr ^ mask;
        rc = ar_step(c, s, real_rank(peer, rem), 1, 1, peer < nr);
    }
    return rc == RD_OK ? fold_out(c, s, rem) : rc;
}

/* Rabenseifner: commutative ops only (segments are combined in the order
 * partners meet, not in rank order), so acc stays rbuf throughout. */
static int allreduce_rsag(rd_comm_t *c, ar_t *s)
{
    int pof2 = rd_coll_pof2(c->size), rem = c->size - pof2, rc = RD_OK;
    rd_datatype_t *dt = s->dt;
    size_t count = s->count;
    ptrdiff_t ext = rd_dt_extent(dt);
    int nr = fold_in(c, s, rem, &rc);
    if (rc != RD_OK || nr < 0)
        return rc == RD_OK ? fold_out(c, s, rem) : rc;
    /* Segment i: elements [disp[i], disp[i + 1]). */
    size_t disp_small[65], *disp = disp_small;
    if (pof2 >= 64 && !(disp = malloc(((size_t)pof2 + 1) * sizeof(size_t))))
        return RD_ENOMEM;
    disp[0] = 0;
    for (int i = 0; i < pof2; i++)
        disp[i + 1] = disp[i] + count / (size_t)pof2 + ((size_t)i < count % (size_t)pof2);
#define AT(p, i) ((p) + (ptrdiff_t)disp[i] * ext)
    /* Recursive halving: keep the half of [lo, hi) on this rank's side of
     * mask, send the other, until this rank holds segment nr reduced. While
     * this rank's data are still only in src (fresh), the kept half is
     * received straight into rbuf and src is combined into it. */
    int lo = 0, hi = pof2;
    for (int mask = pof2 / 2; rc == RD_OK && mask > 0; mask /= 2) {
        int peer = real_rank(nr ^ mask, rem), mid = lo + mask;
        int klo = nr & mask ? mid : lo, khi = nr & mask ? hi : mid;
        int slo = nr & mask ? lo : mid, shi = nr & mask ? mid : hi;
        size_t kn = disp[khi] - disp[klo], sn = disp[shi] - disp[slo];
        char *into = s->fresh ? s->acc : ar_other(s);
        if (!into) {
            rc = RD_ENOMEM;
            break;
        }
        rc = rd_coll_sendrecv(c, AT(ar_data(s), slo), sn, dt, peer, AT(into, klo), kn, dt, peer,
                              RD_TAG_ALLREDUCE);
        if (rc == RD_OK)
            rd_op_apply(s->op, s->fresh ? AT(s->src, klo) : AT(s->other, klo), AT(s->acc, klo),
                        kn, dt);
        s->fresh = 0;
        lo = klo;
        hi = khi;
    }
    /* Recursive doubling allgather of the segments. */
    for (int mask = 1; rc == RD_OK && mask < pof2; mask <<= 1) {
        int pn = nr ^ mask, mine = nr & ~(mask - 1), theirs = pn & ~(mask - 1);
        rc = rd_coll_sendrecv(c, AT(s->acc, mine), disp[mine + mask] - disp[mine], dt,
                              real_rank(pn, rem), AT(s->acc, theirs),
                              disp[theirs + mask] - disp[theirs], dt, real_rank(pn, rem),
                              RD_TAG_ALLREDUCE);
    }
#undef AT
    if (disp != disp_small)
        free(disp);
    return rc == RD_OK ? fold_out(c, s, rem) : rc;
}

int rd_coll_allreduce(rd_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                      rd_datatype_t *dt, const rd_op_t *op)
{
    if (count == 0)
        return RD_OK;
    if (c->size == 1) {
        if (sbuf != RD_COLL_IN_PLACE)
            rd_coll_copy(sbuf, count, dt, rbuf, count, dt);
        return RD_OK;
    }
    int rc = rd_coll_shm_allreduce(c, sbuf, rbuf, count, dt, op);
    if (rc != RD_ENOTSUP)
        return rc;
    ar_t s;
    ar_init(&s, sbuf, rbuf, count, dt, op);
    int pof2 = rd_coll_pof2(c->size);
    const rd_coll_tune_t *t = rd_coll_tune();
    if (op->commute &&
        count * dt->size >= (pof2 == 2 ? t->allreduce_rsag_min_np2 : t->allreduce_rsag_min) &&
        count >= (size_t)pof2)
        rc = allreduce_rsag(c, &s);
    else
        rc = allreduce_recdbl(c, &s);
    if (rc == RD_OK && s.acc != s.rbuf)
        rd_coll_copy(s.acc, count, dt, rbuf, count, dt);
    rd_scratch_put(s.t.mem);
    return rc;
}

/* Pairwise exchange: in round s, send the block of rank me + s and combine
 * the block of this rank that rank me - s sends. Commutative ops only. */
static int reduce_scatter_pairwise(rd_comm_t *c, const char *src, char *rbuf, const int *counts,
                                   const size_t *displs, rd_datatype_t *dt, const rd_op_t *op)
{
    int size = c->size, me = c->rank, rc = RD_OK;
    size_t mine = (size_t)counts[me];
    ptrdiff_t ext = rd_dt_extent(dt);
    pair_bufs_t b;
    if (bufs_alloc(&b, mine, dt, 2) != RD_OK)
        return RD_ENOMEM;
    rd_coll_copy(src + (ptrdiff_t)displs[me] * ext, mine, dt, b.acc, mine, dt);
    for (int s = 1; s < size && rc == RD_OK; s++) {
        int dst = (me + s) % size, from = (me - s + size) % size;
        rc = rd_coll_sendrecv(c, src + (ptrdiff_t)displs[dst] * ext, (size_t)counts[dst], dt, dst,
                              b.other, mine, dt, from, RD_TAG_REDUCE_SCATTER);
        if (rc == RD_OK)
            rd_op_apply(op, b.other, b.acc, mine, dt);
    }
    if (rc == RD_OK)
        rd_coll_copy(b.acc, mine, dt, rbuf, mine, dt);
    bufs_free(&b);
    return rc;
}

/* Reduce of everything to rank 0, then scatterv: any op, any order. */
static int reduce_scatter_rooted(rd_comm_t *c, const char *src, char *rbuf, const int *counts,
                                 const size_t *displs, size_t total, rd_datatype_t *dt,
                                 const rd_op_t *op)
{
    int size = c->size;
    void *mem = NULL;
    char *full = NULL;
    int *idispls = malloc((size_t)size * sizeof(int));
    if (!idispls)
        return RD_ENOMEM;
    for (int i = 0; i < size; i++)
        idispls[i] = (int)displs[i];
    if (c->rank == 0 && !(full = rd_coll_tmp(total, dt, &mem))) {
        free(idispls);
        return RD_ENOMEM;
    }
    int rc = rd_coll_reduce(c, src, full, total, dt, op, 0);
    if (rc == RD_OK)
        rc = rd_coll_scatterv(c, full, counts, idispls, dt, rbuf, (size_t)counts[c->rank], dt, 0);
    rd_scratch_put(mem);
    free(idispls);
    return rc;
}

int rd_coll_reduce_scatter(rd_comm_t *c, const void *sbuf, void *rbuf, const int *rcounts,
                           rd_datatype_t *dt, const rd_op_t *op)
{
    int size = c->size;
    size_t *displs = malloc(((size_t)size + 1) * sizeof(size_t));
    if (!displs)
        return RD_ENOMEM;
    displs[0] = 0;
    for (int i = 0; i < size; i++)
        displs[i + 1] = displs[i] + (size_t)rcounts[i];
    size_t total = displs[size];
    const char *src = sbuf == RD_COLL_IN_PLACE ? rbuf : sbuf;
    int rc = RD_OK;
    if (size == 1)
        rd_coll_copy(src, total, dt, rbuf, total, dt);
    else if (total == 0)
        rc = RD_OK;
    else if (op->commute && total * dt->size >= rd_coll_tune()->reduce_scatter_pairwise_min)
        rc = reduce_scatter_pairwise(c, src, rbuf, rcounts, displs, dt, op);
    else
        rc = reduce_scatter_rooted(c, src, rbuf, rcounts, displs, total, dt, op);
    free(displs);
    return rc;
}

int rd_coll_reduce_scatter_block(rd_comm_t *c, const void *sbuf, void *rbuf, size_t rcount,
                                 rd_datatype_t *dt, const rd_op_t *op)
{
    int *counts = malloc((size_t)c->size * sizeof(int));
    if (!counts)
        return RD_ENOMEM;
    for (int i = 0; i < c->size; i++)
        counts[i] = (int)rcount;
    int rc = rd_coll_reduce_scatter(c, sbuf, rbuf, counts, dt, op);
    free(counts);
    return rc;
}

/* Recursive doubling: "all" covers a block of ranks that doubles each step;
 * the result accumulates what comes from below. exclusive: the own
 * contribution is left out (rank 0's result stays untouched). */
static int scan(rd_comm_t *c, const void *sbuf, void *rbuf, size_t count, rd_datatype_t *dt,
                const rd_op_t *op, int exclusive)
{
    int size = c->size, me = c->rank, rc = RD_OK, have = !exclusive;
    if (count == 0)
        return RD_OK;
    const void *src = sbuf == RD_COLL_IN_PLACE ? rbuf : sbuf;
    pair_bufs_t b;
    if (bufs_alloc(&b, count, dt, 2) != RD_OK)
        return RD_ENOMEM;
    rd_coll_copy(src, count, dt, b.acc, count, dt);
    if (!exclusive && sbuf != RD_COLL_IN_PLACE)
        rd_coll_copy(sbuf, count, dt, rbuf, count, dt);
    for (int mask = 1; mask < size && rc == RD_OK; mask <<= 1) {
        int peer = me ^ mask;
        if (peer >= size)
            continue;
        rc = rd_coll_sendrecv(c, b.acc, count, dt, peer, b.other, count, dt, peer, RD_TAG_SCAN);
        if (rc != RD_OK)
            break;
        if (peer < me) {
            if (have)
                rd_op_apply(op, b.other, rbuf, count, dt);
            else
                rd_coll_copy(b.other, count, dt, rbuf, count, dt);
            have = 1;
        }
        fold(op, &b.acc, &b.other, count, dt, peer < me);
    }
    bufs_free(&b);
    return rc;
}

int rd_coll_scan(rd_comm_t *c, const void *sbuf, void *rbuf, size_t count, rd_datatype_t *dt,
                 const rd_op_t *op)
{
    return scan(c, sbuf, rbuf, count, dt, op, 0);
}

int rd_coll_exscan(rd_comm_t *c, const void *sbuf, void *rbuf, size_t count, rd_datatype_t *dt,
                   const rd_op_t *op)
{
    return scan(c, sbuf, rbuf, count, dt, op, 1);
}
