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
 * Scan / exscan: recursive doubling. The reduce's tree, the allreduce's
 * recursive doubling and the scan are written once for this and the
 * nonblocking form (coll_steps.c); Rabenseifner's allreduce, the pairwise
 * reduce-scatter and the node-local allreduce (coll_shm.c) are choices the
 * blocking form makes for itself.
 */
#include "coll/coll.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll_shm.h"
#include "coll/coll_steps.h"
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

/* The binomial tree MPI_Ireduce builds too (coll_steps.c), run at once with
 * its requests and small temporaries on this stack. */
int rd_coll_reduce(rd_comm_t *c, const void *sbuf, void *rbuf, size_t count, rd_datatype_t *dt,
                   const rd_op_t *op, int root)
{
    rd_coll_run_t run;
    rd_coll_run_init(&run, c, RD_TAG_REDUCE);
    rd_coll_steps_reduce(&run.steps, sbuf, rbuf, count, dt, op, root);
    return rd_coll_run_end(&run);
}

/* Rabenseifner: commutative ops only (segments are combined in the order
 * partners meet, not in rank order), so acc stays rbuf throughout. This is
 * the blocking form's own algorithm for long data (MPI_Iallreduce always
 * runs the recursive doubling); it folds in and out as that one does, on
 * the same blocking run. */
static void allreduce_rsag(rd_coll_run_t *run, rd_coll_ar_t *s)
{
    rd_coll_steps_t *p = &run->steps;
    int pof2 = rd_coll_pof2(p->comm->size), rem = p->comm->size - pof2;
    rd_datatype_t *dt = s->dt;
    size_t count = s->count;
    ptrdiff_t ext = rd_dt_extent(dt);
    int nr = rd_coll_steps_ar_fold_in(p, s, rem);
    if (run->err != RD_OK || nr < 0) {
        rd_coll_steps_ar_fold_out(p, s, rem);
        return;
    }
    /* Segment i: elements [disp[i], disp[i + 1]). */
    size_t disp_small[65], *disp = disp_small;
    if (pof2 >= 64 && !(disp = malloc(((size_t)pof2 + 1) * sizeof(size_t)))) {
        run->err = RD_ENOMEM;
        return;
    }
    disp[0] = 0;
    for (int i = 0; i < pof2; i++)
        disp[i + 1] = disp[i] + count / (size_t)pof2 + ((size_t)i < count % (size_t)pof2);
#define AT(p, i) ((p) + (ptrdiff_t)disp[i] * ext)
    /* Recursive halving: keep the half of [lo, hi) on this rank's side of
     * mask, send the other, until this rank holds segment nr reduced. While
     * this rank's data are still only in src (fresh), the kept half is
     * received straight into rbuf and src is combined into it. */
    int lo = 0, hi = pof2, rc = RD_OK;
    for (int mask = pof2 / 2; rc == RD_OK && mask > 0; mask /= 2) {
        int peer = rd_coll_ar_real_rank(nr ^ mask, rem), mid = lo + mask;
        int klo = nr & mask ? mid : lo, khi = nr & mask ? hi : mid;
        int slo = nr & mask ? lo : mid, shi = nr & mask ? mid : hi;
        size_t kn = disp[khi] - disp[klo], sn = disp[shi] - disp[slo];
        char *into = s->fresh ? s->acc : rd_coll_ar_other(p, s);
        if (!into) {
            rc = RD_ENOMEM;
            break;
        }
        rc = rd_coll_sendrecv_after(p->comm, AT(rd_coll_ar_data(s), slo), sn, dt, peer,
                                    AT(into, klo), kn, dt, peer, RD_TAG_ALLREDUCE, &run->trunc);
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
        int peer = rd_coll_ar_real_rank(pn, rem);
        rc = rd_coll_sendrecv_after(p->comm, AT(s->acc, mine), disp[mine + mask] - disp[mine],
                                    dt, peer, AT(s->acc, theirs),
                                    disp[theirs + mask] - disp[theirs], dt, peer,
                                    RD_TAG_ALLREDUCE, &run->trunc);
    }
#undef AT
    if (disp != disp_small)
        free(disp);
    if (run->err == RD_OK)
        run->err = rc;
    rd_coll_steps_ar_fold_out(p, s, rem);
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
    /* node-local through the shared areas: the blocking form's own algorithm */
    int rc = rd_coll_shm_allreduce(c, sbuf, rbuf, count, dt, op);
    if (rc != RD_ENOTSUP)
        return rc;
    int pof2 = rd_coll_pof2(c->size);
    const rd_coll_tune_t *t = rd_coll_tune();
    rd_coll_run_t run;
    rd_coll_run_init(&run, c, RD_TAG_ALLREDUCE);
    if (op->commute &&
        count * dt->size >= (pof2 == 2 ? t->allreduce_rsag_min_np2 : t->allreduce_rsag_min) &&
        count >= (size_t)pof2) {
        rd_coll_ar_t s;
        rd_coll_ar_init(&s, sbuf, rbuf, count, dt, op);
        allreduce_rsag(&run, &s);
    } else {
        /* the recursive doubling MPI_Iallreduce builds too (coll_steps.c) */
        rd_coll_steps_allreduce(&run.steps, sbuf, rbuf, count, dt, op);
    }
    return rd_coll_run_end(&run);
}

/* Pairwise exchange: in round s, send the block of rank me + s and combine
 * the block of this rank that rank me - s sends. Commutative ops only. */
static int reduce_scatter_pairwise(rd_comm_t *c, const char *src, char *rbuf, const int *counts,
                                   const size_t *displs, rd_datatype_t *dt, const rd_op_t *op)
{
    int size = c->size, me = c->rank, rc = RD_OK, trunc = 0;
    size_t mine = (size_t)counts[me];
    ptrdiff_t ext = rd_dt_extent(dt);
    pair_bufs_t b;
    if (bufs_alloc(&b, mine, dt, 2) != RD_OK)
        return RD_ENOMEM;
    rd_coll_copy(src + (ptrdiff_t)displs[me] * ext, mine, dt, b.acc, mine, dt);
    for (int s = 1; s < size && rc == RD_OK; s++) {
        int dst = (me + s) % size, from = (me - s + size) % size;
        rc = rd_coll_sendrecv_after(c, src + (ptrdiff_t)displs[dst] * ext, (size_t)counts[dst],
                                    dt, dst, b.other, mine, dt, from, RD_TAG_REDUCE_SCATTER,
                                    &trunc);
        if (rc == RD_OK)
            rd_op_apply(op, b.other, b.acc, mine, dt);
    }
    if (rc == RD_OK)
        rd_coll_copy(b.acc, mine, dt, rbuf, mine, dt);
    bufs_free(&b);
    return rd_coll_trunc_end(rc, trunc);
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
    /* After a truncation the scatter still runs: the others wait for it. */
    int trunc = 0, rc = rd_coll_trunc(rd_coll_reduce(c, src, full, total, dt, op, 0), &trunc);
    if (rc == RD_OK)
        rc = rd_coll_trunc(rd_coll_scatterv(c, full, counts, idispls, dt, rbuf,
                                            (size_t)counts[c->rank], dt, 0), &trunc);
    rd_scratch_put(mem);
    free(idispls);
    return rd_coll_trunc_end(rc, trunc);
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

/* The recursive doubling MPI_Iscan and MPI_Iexscan build too
 * (coll_steps.c). */
static int scan(rd_comm_t *c, const void *sbuf, void *rbuf, size_t count, rd_datatype_t *dt,
                const rd_op_t *op, int exclusive)
{
    rd_coll_run_t run;
    rd_coll_run_init(&run, c, RD_TAG_SCAN);
    rd_coll_steps_scan(&run.steps, sbuf, rbuf, count, dt, op, exclusive);
    return rd_coll_run_end(&run);
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
