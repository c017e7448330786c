/*
 * The algorithms that the blocking and the nonblocking collectives share,
 * and the sink that runs their steps for a blocking caller (coll_steps.h).
 */
#include "coll/coll_steps.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/coll_util.h"
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

static void run_post(rd_coll_run_t *run, int kind, void *buf, size_t count, rd_datatype_t *dt,
                     int peer)
{
    if (run->err != RD_OK)
        return;
    if (run->n == run->cap && (run->err = run_grow(run)) != RD_OK)
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

static void run_copy(rd_coll_steps_t *p, const void *src, size_t scount, rd_datatype_t *sdt,
                     void *dst, size_t dcount, rd_datatype_t *ddt)
{
    if (run_of(p)->err == RD_OK)
        rd_coll_copy(src, scount, sdt, dst, dcount, ddt);
}

/* Waits for the round's messages, failed or not, so that none is left
 * pointing at the caller's stack. */
static void run_fence(rd_coll_steps_t *p)
{
    rd_coll_run_t *run = run_of(p);
    int rc = rd_coll_waitall(run->reqs, run->n);
    if (run->err == RD_OK)
        run->err = rc;
    run->n = 0;
}

static const rd_coll_steps_ops_t run_ops = {
    .send = run_send,
    .recv = run_recv,
    .copy = run_copy,
    .fence = run_fence,
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
}

int rd_coll_run_end(rd_coll_run_t *run)
{
    run_fence(&run->steps);
    if (run->reqs != run->reqs_in)
        free(run->reqs);
    return run->err;
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
