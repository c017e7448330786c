/*
 * The algorithms that the blocking and the nonblocking collectives share,
 * and the sink that runs their steps for a blocking caller (coll_steps.h).
 */
#include "coll/coll_steps.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/coll_util.h"
#include "util/scratch.h"
#include "util/status.h"

/* ---- the blocking sink ---- */

static rd_coll_run_t *run_of(rd_coll_steps_t *p)
{
    return (rd_coll_run_t *)((char *)p - offsetof(rd_coll_run_t, steps));
}

/* Room for one more request pointer: the first ones are inline. A round
 * rarely has more messages than ranks (the linear algorithms have one per
 * rank), so one allocation usually covers it. */
static int run_grow(rd_coll_run_t *run)
{
    int cap = 2 * run->cap > run->steps.comm->size ? 2 * run->cap : run->steps.comm->size;
    rd_request_t **p;
    if (run->reqs == run->reqs_in) {
        if ((p = malloc((size_t)cap * sizeof(*p))))
            memcpy(p, run->reqs, (size_t)run->cap * sizeof(*p));
    } else {
        p = realloc(run->reqs, (size_t)cap * sizeof(*p));
    }
    if (!p)
        return RD_ENOMEM;
    run->reqs = p;
    run->cap = cap;
    return RD_OK;
}

/* After a truncation a send goes out padded (coll_util.h): its copy lives
 * until the run ends. */
static int run_pad(rd_coll_run_t *run, void **buf, size_t *count, rd_datatype_t **dt)
{
    void **p = realloc(run->pads, ((size_t)run->npads + 1) * sizeof(*p));
    if (!p)
        return RD_ENOMEM;
    run->pads = p;
    if (!(p[run->npads] = rd_coll_padded(*buf, *count, *dt, count)))
        return RD_ENOMEM;
    *buf = p[run->npads++];
    *dt = &rd_dt_bytes;
    return RD_OK;
}

static void run_post(rd_coll_run_t *run, int kind, void *buf, size_t count, rd_datatype_t *dt,
                     int peer)
{
    if (run->err != RD_OK)
        return;
    if (run->n == run->cap && (run->err = run_grow(run)) != RD_OK)
        return;
    if (run->trunc && kind == RD_REQ_SEND && (run->err = run_pad(run, &buf, &count, &dt)))
        return;
    rd_request_t *local = run->n < RD_COLL_RUN_LOCAL ? &run->local[run->n] : NULL;
    run->err = rd_coll_post(kind, local, run->steps.comm, buf, count, dt, peer, run->tag,
                            &run->reqs[run->n]);
    if (run->err == RD_OK)
        run->n++;
}

static void run_send(rd_coll_steps_t *p, const void *buf, size_t count, rd_datatype_t *dt,
                     int peer)
{
    run_post(run_of(p), RD_REQ_SEND, (void *)buf, count, dt, peer);
}

static void run_recv(rd_coll_steps_t *p, void *buf, size_t count, rd_datatype_t *dt, int peer)
{
    run_post(run_of(p), RD_REQ_RECV, buf, count, dt, peer);
}

/* Waits for the round's messages, failed or not, so that none is left
 * pointing at the caller's stack. */
static void run_fence(rd_coll_steps_t *p)
{
    rd_coll_run_t *run = run_of(p);
    for (int i = 0; i < run->n; i++) {
        int rc = rd_coll_trunc(rd_coll_wait(run->reqs[i]), &run->trunc);
        if (run->err == RD_OK)
            run->err = rc;
    }
    run->n = 0;
}

/* A local step waits for the messages given before it (nothing to wait
 * for when it opens its round, as the linear algorithms' copies do). */
static void run_copy(rd_coll_steps_t *p, const void *src, size_t scount, rd_datatype_t *sdt,
                     void *dst, size_t dcount, rd_datatype_t *ddt)
{
    run_fence(p);
    if (run_of(p)->err == RD_OK)
        rd_coll_copy(src, scount, sdt, dst, dcount, ddt);
}

static void run_reduce(rd_coll_steps_t *p, const void *in, void *inout, size_t count,
                       rd_datatype_t *dt, const rd_op_t *op)
{
    run_fence(p);
    if (run_of(p)->err == RD_OK)
        rd_op_apply(op, in, inout, count, dt);
}

static void *run_tmp(rd_coll_steps_t *p, size_t count, rd_datatype_t *dt)
{
    rd_coll_run_t *run = run_of(p);
    if (run->err != RD_OK)
        return NULL;
    if (run->ntmps == RD_COLL_RUN_TMPS) {
        run->err = RD_ENOMEM;
        return NULL;
    }
    int i = run->ntmps;
    ptrdiff_t ext = rd_dt_extent(dt), true_ext = dt->true_ub - dt->true_lb;
    size_t span = count ? (size_t)((ptrdiff_t)(count - 1) * ext + true_ext) : 0;
    char *b;
    run->tmp_mem[i] = NULL;
    if (span <= RD_COLL_RUN_TMP_STACK)
        b = run->tmp_stack[i].b - dt->true_lb;
    else if (!(b = rd_coll_tmp(count, dt, &run->tmp_mem[i])))
        run->err = RD_ENOMEM;
    run->ntmps++;
    return b;
}

static const rd_coll_steps_ops_t run_ops = {
    .send = run_send,
    .recv = run_recv,
    .copy = run_copy,
    .reduce = run_reduce,
    .fence = run_fence,
    .tmp = run_tmp,
};

void rd_coll_run_init(rd_coll_run_t *run, rd_comm_t *c, int tag)
{
    run->steps.ops = &run_ops;
    run->steps.comm = c;
    run->tag = tag;
    run->err = RD_OK;
    run->n = 0;
    run->cap = RD_COLL_RUN_LOCAL;
    run->reqs = run->reqs_in;
    run->ntmps = 0;
    run->trunc = 0;
    run->pads = NULL;
    run->npads = 0;
}

int rd_coll_run_end(rd_coll_run_t *run)
{
    run_fence(&run->steps);
    if (run->reqs != run->reqs_in)
        free(run->reqs);
    for (int i = 0; i < run->ntmps; i++)
        rd_scratch_put(run->tmp_mem[i]);
    for (int i = 0; i < run->npads; i++)
        rd_scratch_put(run->pads[i]);
    free(run->pads);
    return rd_coll_trunc_end(run->err, run->trunc);
}

/* ---- algorithms ---- */

void rd_coll_steps_bcast(rd_coll_steps_t *p, void *buf, size_t count, rd_datatype_t *dt,
                         int root)
{
    int n = p->comm->size, rel = (p->comm->rank - root + n) % n;
    int mask = rd_coll_tree_mask(rel, n);
    if (rel) {
        p->ops->recv(p, buf, count, dt, (rel - mask + root) % n);
        p->ops->fence(p);
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < n)
            p->ops->send(p, buf, count, dt, (rel + mask + root) % n);
    p->ops->fence(p);
}

void rd_coll_steps_barrier(rd_coll_steps_t *p)
{
    static char token;
    int n = p->comm->size, me = p->comm->rank;
    for (int d = 1; d < n; d <<= 1) {
        p->ops->recv(p, &token, 0, &rd_dt_bytes, (me - d + n) % n);
        p->ops->send(p, &token, 0, &rd_dt_bytes, (me + d) % n);
        p->ops->fence(p);
    }
}

/* A message of the linear algorithms below: received if in, else sent. */
static void message(rd_coll_steps_t *p, int in, void *buf, size_t count, rd_datatype_t *dt,
                    int peer)
{
    if (in)
        p->ops->recv(p, buf, count, dt, peer);
    else
        p->ops->send(p, buf, count, dt, peer);
}

/* Gather (gather = 1) or scatter between the per-rank side (mine: gather's
 * send, scatter's receive buffer) and the root side (all: one block per
 * rank). */
static void linear(rd_coll_steps_t *p, int gather, void *mine, size_t mcount, rd_datatype_t *mdt,
                   void *all, const int *counts, const int *displs, size_t count,
                   rd_datatype_t *dt, int root)
{
    int n = p->comm->size, me = p->comm->rank;
    void *b;
    size_t cnt;
    if (me != root) {
        if (mcount && mdt->size)
            message(p, !gather, mine, mcount, mdt, root);
        p->ops->fence(p);
        return;
    }
    if (mine != RD_COLL_IN_PLACE) {
        rd_coll_block(all, counts, displs, count, dt, me, &b, &cnt);
        if (gather)
            p->ops->copy(p, mine, mcount, mdt, b, cnt, dt);
        else
            p->ops->copy(p, b, cnt, dt, mine, mcount, mdt);
    }
    for (int k = 1; k < n; k++) {
        int i = (root + k) % n;
        rd_coll_block(all, counts, displs, count, dt, i, &b, &cnt);
        if (cnt && dt->size)
            message(p, gather, b, cnt, dt, i);
    }
    p->ops->fence(p);
}

void rd_coll_steps_gatherv(rd_coll_steps_t *p, const void *sbuf, size_t scount,
                           rd_datatype_t *sdt, void *rbuf, const int *rcounts,
                           const int *rdispls, size_t rcount, rd_datatype_t *rdt, int root)
{
    linear(p, 1, (void *)sbuf, scount, sdt, rbuf, rcounts, rdispls, rcount, rdt, root);
}

void rd_coll_steps_scatterv(rd_coll_steps_t *p, const void *sbuf, const int *scounts,
                            const int *sdispls, size_t scount, rd_datatype_t *sdt, void *rbuf,
                            size_t rcount, rd_datatype_t *rdt, int root)
{
    linear(p, 0, rbuf, rcount, rdt, (void *)sbuf, scounts, sdispls, scount, sdt, root);
}

/* Combines *other (a partial result of the ranks just below, lower != 0, or
 * just above the ones *acc covers) into *acc, keeping rank order; a
 * non-commutative op leaves the result in *other and the two swap. */
static void fold(rd_coll_steps_t *p, const rd_op_t *op, char **acc, char **other, size_t count,
                 rd_datatype_t *dt, int lower)
{
    if (lower || op->commute) {
        p->ops->reduce(p, *other, *acc, count, dt, op);
    } else {
        p->ops->reduce(p, *acc, *other, count, dt, op);
        char *t = *acc;
        *acc = *other;
        *other = t;
    }
}

void rd_coll_steps_reduce(rd_coll_steps_t *p, const void *sbuf, void *rbuf, size_t count,
                          rd_datatype_t *dt, const rd_op_t *op, int root)
{
    int n = p->comm->size, me = p->comm->rank;
    const char *src = sbuf == RD_COLL_IN_PLACE ? rbuf : sbuf;
    if (count == 0)
        return;
    if (n == 1) {
        if (src != (const char *)rbuf)
            p->ops->copy(p, src, count, dt, rbuf, count, dt);
        p->ops->fence(p);
        return;
    }
    int troot = op->commute ? root : 0, rel = (me - troot + n) % n;
    char *acc = NULL, *other = NULL;
    for (int mask = 1; mask < n; mask <<= 1) {
        if (rel & mask) {
            p->ops->send(p, acc ? acc : src, count, dt, (rel - mask + troot) % n);
            p->ops->fence(p);
            break;
        }
        if (rel + mask >= n)
            continue;
        int child = (rel + mask + troot) % n;
        if (!acc) {
            acc = me == root && troot == root && src != (const char *)rbuf
                      ? rbuf : p->ops->tmp(p, count, dt);
            if (!acc)
                return;
            /* children hold higher ranks: their data are the right operand */
            p->ops->recv(p, acc, count, dt, child);
            p->ops->reduce(p, src, acc, count, dt, op);
        } else {
            if (!other && !(other = p->ops->tmp(p, count, dt)))
                return;
            p->ops->recv(p, other, count, dt, child);
            fold(p, op, &acc, &other, count, dt, 0);
        }
        p->ops->fence(p);
    }
    const char *res = acc ? acc : src;
    if (troot != root) {
        if (me == troot)
            p->ops->send(p, res, count, dt, root);
        else if (me == root)
            p->ops->recv(p, rbuf, count, dt, troot);
    } else if (me == root && res != (const char *)rbuf) {
        p->ops->copy(p, res, count, dt, rbuf, count, dt);
    }
    p->ops->fence(p);
}

/* "acc" covers a block of ranks that doubles each step; what comes from
 * below also accumulates in rbuf. */
void rd_coll_steps_scan(rd_coll_steps_t *p, const void *sbuf, void *rbuf, size_t count,
                        rd_datatype_t *dt, const rd_op_t *op, int excl)
{
    int n = p->comm->size, me = p->comm->rank, have = !excl;
    const char *src = sbuf == RD_COLL_IN_PLACE ? rbuf : sbuf;
    if (count == 0)
        return;
    char *acc = p->ops->tmp(p, count, dt), *other = p->ops->tmp(p, count, dt);
    if (!acc || !other)
        return;
    p->ops->copy(p, src, count, dt, acc, count, dt);
    if (!excl && sbuf != RD_COLL_IN_PLACE)
        p->ops->copy(p, sbuf, count, dt, rbuf, count, dt);
    p->ops->fence(p);
    for (int mask = 1; mask < n; mask <<= 1) {
        int peer = me ^ mask;
        if (peer >= n)
            continue;
        p->ops->recv(p, other, count, dt, peer);
        p->ops->send(p, acc, count, dt, peer);
        if (peer < me) {
            if (have)
                p->ops->reduce(p, other, rbuf, count, dt, op);
            else
                p->ops->copy(p, other, count, dt, rbuf, count, dt);
            have = 1;
        }
        fold(p, op, &acc, &other, count, dt, peer < me);
        p->ops->fence(p);
    }
}

void rd_coll_ar_init(rd_coll_ar_t *s, const void *sbuf, void *rbuf, size_t count,
                     rd_datatype_t *dt, const rd_op_t *op)
{
    s->src = sbuf == RD_COLL_IN_PLACE ? rbuf : sbuf;
    s->rbuf = s->acc = rbuf;
    s->other = NULL;
    s->fresh = s->src != s->rbuf;
    s->count = count;
    s->dt = dt;
    s->op = op;
}

const char *rd_coll_ar_data(const rd_coll_ar_t *s)
{
    return s->fresh ? s->src : s->acc;
}

char *rd_coll_ar_other(rd_coll_steps_t *p, rd_coll_ar_t *s)
{
    if (!s->other)
        s->other = p->ops->tmp(p, s->count, s->dt);
    return s->other;
}

/* Whole-vector round with peer: sends the running result (send) and/or
 * combines the peer's (recv), whose ranks are below this one's if
 * peer_lower. */
static void ar_step(rd_coll_steps_t *p, rd_coll_ar_t *s, int peer, int send, int recv,
                    int peer_lower)
{
    size_t n = s->count;
    rd_datatype_t *dt = s->dt;
    if (!recv) {
        p->ops->send(p, rd_coll_ar_data(s), n, dt, peer);
    } else if (s->fresh && (s->op->commute || !peer_lower)) {
        /* acc = src op peer's (the same as peer's op src when it commutes) */
        p->ops->recv(p, s->acc, n, dt, peer);
        if (send)
            p->ops->send(p, s->src, n, dt, peer);
        p->ops->reduce(p, s->src, s->acc, n, dt, s->op);
        s->fresh = 0;
    } else {
        char *o = rd_coll_ar_other(p, s);
        if (!o)
            return;
        p->ops->recv(p, o, n, dt, peer);
        if (send)
            p->ops->send(p, rd_coll_ar_data(s), n, dt, peer);
        if (s->fresh)
            p->ops->copy(p, s->src, n, dt, s->acc, n, dt);
        s->fresh = 0;
        fold(p, s->op, &s->acc, &s->other, n, dt, peer_lower);
    }
    p->ops->fence(p);
}

int rd_coll_steps_ar_fold_in(rd_coll_steps_t *p, rd_coll_ar_t *s, int rem)
{
    int me = p->comm->rank;
    if (me >= 2 * rem)
        return me - rem;
    if (me % 2 == 0) {
        ar_step(p, s, me + 1, 1, 0, 0);
        return -1;
    }
    ar_step(p, s, me - 1, 0, 1, 1);
    return me / 2;
}

void rd_coll_steps_ar_fold_out(rd_coll_steps_t *p, rd_coll_ar_t *s, int rem)
{
    int me = p->comm->rank;
    if (me < 2 * rem) {
        if (me % 2) {
            p->ops->send(p, s->acc, s->count, s->dt, me - 1);
        } else {
            s->acc = s->rbuf;
            s->fresh = 0;
            p->ops->recv(p, s->rbuf, s->count, s->dt, me + 1);
        }
        p->ops->fence(p);
    }
    if (s->acc != s->rbuf) {
        p->ops->copy(p, s->acc, s->count, s->dt, s->rbuf, s->count, s->dt);
        p->ops->fence(p);
    }
}

void rd_coll_steps_allreduce(rd_coll_steps_t *p, const void *sbuf, void *rbuf, size_t count,
                             rd_datatype_t *dt, const rd_op_t *op)
{
    if (count == 0)
        return;
    if (p->comm->size == 1) {
        if (sbuf != RD_COLL_IN_PLACE)
            p->ops->copy(p, sbuf, count, dt, rbuf, count, dt);
        p->ops->fence(p);
        return;
    }
    rd_coll_ar_t s;
    rd_coll_ar_init(&s, sbuf, rbuf, count, dt, op);
    int pof2 = rd_coll_pof2(p->comm->size), rem = p->comm->size - pof2;
    int nr = rd_coll_steps_ar_fold_in(p, &s, rem);
    for (int mask = 1; nr >= 0 && mask < pof2; mask <<= 1) {
        int peer = nr ^ mask;
        ar_step(p, &s, rd_coll_ar_real_rank(peer, rem), 1, 1, peer < nr);
    }
    rd_coll_steps_ar_fold_out(p, &s, rem);
}
