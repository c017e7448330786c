/*
 * Intercommunicator collectives: the local group's algorithms plus
 * messages between the groups, each as one schedule that the blocking form
 * runs to its end (coll_inter.h).
 */
#include "coll/coll_inter.h"

#include <stdint.h>
#include <stdlib.h>

#include "coll/coll_comm.h"
#include "coll/coll_steps.h"
#include "coll/coll_util.h"
#include "p2p/p2p.h"
#include "util/status.h"

void rd_coll_inter_init(rd_comm_t *c, rd_comm_t *local)
{
    rd_coll_comm(c)->local = local;
}

/* The leader of each group (local rank 0) speaks for it to the other. */
static int leader(rd_nbc_t *s)
{
    return rd_nbc_comm(s)->rank == 0;
}

/* ---- builders ---- */

void rd_nbc_inter_barrier(rd_nbc_t *s)
{
    static char token;
    rd_coll_steps_t *l = rd_nbc_local_sink(s);
    /* Everyone here has entered once the local barrier is over; the
     * leaders' swap then tells each group that the other has too. */
    rd_coll_steps_barrier(l);
    rd_nbc_fence(s);
    if (leader(s)) {
        rd_nbc_recv(s, &token, 0, &rd_dt_bytes, 0);
        rd_nbc_send(s, &token, 0, &rd_dt_bytes, 0);
    }
    rd_nbc_fence(s);
    rd_coll_steps_bcast(l, &token, 0, &rd_dt_bytes, 0);
}

void rd_nbc_inter_bcast(rd_nbc_t *s, void *buf, size_t count, rd_datatype_t *dt, int root)
{
    if (root == RD_COLL_NO_ROOT)
        return;
    if (root == RD_COLL_ROOT) {
        rd_nbc_send(s, buf, count, dt, 0);
        rd_nbc_fence(s);
        return;
    }
    if (leader(s)) {
        rd_nbc_recv(s, buf, count, dt, root);
        rd_nbc_fence(s);
    }
    rd_coll_steps_bcast(rd_nbc_local_sink(s), buf, count, dt, 0);
}

void rd_nbc_inter_reduce(rd_nbc_t *s, const void *sbuf, void *rbuf, size_t count,
                         rd_datatype_t *dt, const rd_op_t *op, int root)
{
    if (root == RD_COLL_NO_ROOT)
        return;
    if (root == RD_COLL_ROOT) {
        rd_nbc_recv(s, rbuf, count, dt, 0);
        rd_nbc_fence(s);
        return;
    }
    void *acc = leader(s) ? rd_nbc_tmp_typed(s, count, dt) : NULL;
    if (leader(s) && !acc)
        return;
    rd_coll_steps_reduce(rd_nbc_local_sink(s), sbuf, acc, count, dt, op, 0);
    rd_nbc_fence(s);
    if (leader(s)) {
        rd_nbc_send(s, acc, count, dt, root);
        rd_nbc_fence(s);
    }
}

void rd_nbc_inter_allreduce(rd_nbc_t *s, const void *sbuf, void *rbuf, size_t count,
                            rd_datatype_t *dt, const rd_op_t *op)
{
    void *acc = leader(s) ? rd_nbc_tmp_typed(s, count, dt) : NULL;
    if (leader(s) && !acc)
        return;
    rd_coll_steps_reduce(rd_nbc_local_sink(s), sbuf, acc, count, dt, op, 0);
    rd_nbc_fence(s);
    if (leader(s)) {
        rd_nbc_recv(s, rbuf, count, dt, 0);
        rd_nbc_send(s, acc, count, dt, 0);
        rd_nbc_fence(s);
    }
    rd_coll_steps_bcast(rd_nbc_local_sink(s), rbuf, count, dt, 0);
}

void rd_nbc_inter_reduce_scatter(rd_nbc_t *s, const void *sbuf, void *rbuf, const int *rcounts,
                                 size_t count, rd_datatype_t *dt, const rd_op_t *op)
{
    rd_comm_t *c = rd_nbc_comm(s);
    size_t total = 0;
    for (int i = 0; i < c->size; i++)
        total += rcounts ? (size_t)rcounts[i] : count;
    int *displs = NULL;
    void *acc = NULL, *theirs = NULL;
    if (leader(s)) {
        acc = rd_nbc_tmp_typed(s, total, dt);
        theirs = rd_nbc_tmp_typed(s, total, dt);
        if (rcounts)
            displs = rd_nbc_tmp(s, (size_t)c->size * sizeof(int));
        if (!acc || !theirs || (rcounts && !displs))
            return;
        for (int i = 0, d = 0; rcounts && i < c->size; d += rcounts[i], i++)
            displs[i] = d;
    }
    rd_coll_steps_t *l = rd_nbc_local_sink(s);
    rd_coll_steps_reduce(l, sbuf, acc, total, dt, op, 0);
    rd_nbc_fence(s);
    if (leader(s)) {
        rd_nbc_recv(s, theirs, total, dt, 0);
        rd_nbc_send(s, acc, total, dt, 0);
        rd_nbc_fence(s);
    }
    size_t mine = rcounts ? (size_t)rcounts[c->rank] : count;
    rd_coll_steps_scatterv(l, theirs, rcounts, displs, count, dt, rbuf, mine, dt, 0);
}

/* The rooted exchanges between the groups: a non-root of the other group
 * moves its one block with the root, the root (MPI_ROOT) moves block i of
 * its many with remote rank i, to it (scatter) or from it (gather). */
static void inter_rooted(rd_nbc_t *s, int gather, void *one, size_t onecount,
                         rd_datatype_t *onedt, void *many, const int *counts, const int *displs,
                         size_t count, rd_datatype_t *manydt, int root)
{
    if (root == RD_COLL_NO_ROOT)
        return;
    if (root != RD_COLL_ROOT) {
        if (onecount && onedt->size) {
            if (gather)
                rd_nbc_send(s, one, onecount, onedt, root);
            else
                rd_nbc_recv(s, one, onecount, onedt, root);
        }
        rd_nbc_fence(s);
        return;
    }
    for (int i = 0; i < rd_comm_remote_size(rd_nbc_comm(s)); i++) {
        void *b;
        size_t cnt;
        rd_coll_block(many, counts, displs, count, manydt, i, &b, &cnt);
        if (!cnt || !manydt->size)
            continue;
        if (gather)
            rd_nbc_recv(s, b, cnt, manydt, i);
        else
            rd_nbc_send(s, b, cnt, manydt, i);
    }
    rd_nbc_fence(s);
}

void rd_nbc_inter_gatherv(rd_nbc_t *s, const void *sbuf, size_t scount, rd_datatype_t *sdt,
                          void *rbuf, const int *rcounts, const int *rdispls, size_t rcount,
                          rd_datatype_t *rdt, int root)
{
    inter_rooted(s, 1, (void *)sbuf, scount, sdt, rbuf, rcounts, rdispls, rcount, rdt, root);
}

void rd_nbc_inter_scatterv(rd_nbc_t *s, const void *sbuf, const int *scounts, const int *sdispls,
                           size_t scount, rd_datatype_t *sdt, void *rbuf, size_t rcount,
                           rd_datatype_t *rdt, int root)
{
    inter_rooted(s, 0, rbuf, rcount, rdt, (void *)sbuf, scounts, sdispls, scount, sdt, root);
}

void rd_nbc_inter_allgatherv(rd_nbc_t *s, const void *sbuf, size_t scount, rd_datatype_t *sdt,
                             void *rbuf, const int *rcounts, const int *rdispls, size_t rcount,
                             rd_datatype_t *rdt)
{
    rd_comm_t *c = rd_nbc_comm(s);
    int n = rd_comm_remote_size(c);
    /* Start at a different remote rank on each local rank, so that the
     * remote ranks are not all sent to at once by everyone. */
    for (int k = 0; k < n; k++) {
        int i = (c->rank + k) % n;
        void *b;
        size_t cnt;
        rd_coll_block(rbuf, rcounts, rdispls, rcount, rdt, i, &b, &cnt);
        if (cnt && rdt->size)
            rd_nbc_recv(s, b, cnt, rdt, i);
        if (scount && sdt->size)
            rd_nbc_send(s, sbuf, scount, sdt, i);
    }
    rd_nbc_fence(s);
}

void rd_nbc_inter_alltoallv(rd_nbc_t *s, const void *sbuf, const int *scounts,
                            const int *sdispls, size_t scount, rd_datatype_t *sdt, void *rbuf,
                            const int *rcounts, const int *rdispls, size_t rcount,
                            rd_datatype_t *rdt)
{
    rd_comm_t *c = rd_nbc_comm(s);
    int n = rd_comm_remote_size(c);
    for (int k = 0; k < n; k++) {
        int i = (c->rank + k) % n;
        void *b;
        size_t cnt;
        rd_coll_block(rbuf, rcounts, rdispls, rcount, rdt, i, &b, &cnt);
        if (cnt && rdt->size)
            rd_nbc_recv(s, b, cnt, rdt, i);
        rd_coll_block(sbuf, scounts, sdispls, scount, sdt, i, &b, &cnt);
        if (cnt && sdt->size)
            rd_nbc_send(s, b, cnt, sdt, i);
    }
    rd_nbc_fence(s);
}

void rd_nbc_inter_alltoallw(rd_nbc_t *s, const void *sbuf, const int *scounts,
                            const int *sdispls, rd_datatype_t *const *stypes, void *rbuf,
                            const int *rcounts, const int *rdispls,
                            rd_datatype_t *const *rtypes)
{
    rd_comm_t *c = rd_nbc_comm(s);
    int n = rd_comm_remote_size(c);
    for (int k = 0; k < n; k++) {
        int i = (c->rank + k) % n;
        if (rcounts[i] && rtypes[i]->size)
            rd_nbc_recv(s, (char *)rbuf + rdispls[i], (size_t)rcounts[i], rtypes[i], i);
        if (scounts[i] && stypes[i]->size)
            rd_nbc_send(s, (const char *)sbuf + sdispls[i], (size_t)scounts[i], stypes[i], i);
    }
    rd_nbc_fence(s);
}

/* ---- blocking forms ---- */

/* Runs s to its end on a request of this stack. */
static int run(rd_nbc_t *s)
{
    if (!s)
        return RD_ENOMEM;
    rd_request_t r;
    rd_req_init_local(&r, RD_REQ_NBC);
    int rc = rd_nbc_start(s, &r);
    if (rc != RD_OK) {
        rd_req_free(&r);
        return rc;
    }
    return rd_coll_wait(&r);
}

int rd_coll_inter_barrier(rd_comm_t *c)
{
    rd_nbc_t *s = rd_nbc_new(c);
    if (s)
        rd_nbc_inter_barrier(s);
    return run(s);
}

int rd_coll_inter_bcast(rd_comm_t *c, void *buf, size_t count, rd_datatype_t *dt, int root)
{
    rd_nbc_t *s = rd_nbc_new(c);
    if (s)
        rd_nbc_inter_bcast(s, buf, count, dt, root);
    return run(s);
}

int rd_coll_inter_reduce(rd_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                         rd_datatype_t *dt, const rd_op_t *op, int root)
{
    rd_nbc_t *s = rd_nbc_new(c);
    if (s)
        rd_nbc_inter_reduce(s, sbuf, rbuf, count, dt, op, root);
    return run(s);
}

int rd_coll_inter_allreduce(rd_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                            rd_datatype_t *dt, const rd_op_t *op)
{
    rd_nbc_t *s = rd_nbc_new(c);
    if (s)
        rd_nbc_inter_allreduce(s, sbuf, rbuf, count, dt, op);
    return run(s);
}

int rd_coll_inter_reduce_scatter(rd_comm_t *c, const void *sbuf, void *rbuf, const int *rcounts,
                                 size_t count, rd_datatype_t *dt, const rd_op_t *op)
{
    rd_nbc_t *s = rd_nbc_new(c);
    if (s)
        rd_nbc_inter_reduce_scatter(s, sbuf, rbuf, rcounts, count, dt, op);
    return run(s);
}

int rd_coll_inter_gatherv(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *sdt,
                          void *rbuf, const int *rcounts, const int *rdispls, size_t rcount,
                          rd_datatype_t *rdt, int root)
{
    rd_nbc_t *s = rd_nbc_new(c);
    if (s)
        rd_nbc_inter_gatherv(s, sbuf, scount, sdt, rbuf, rcounts, rdispls, rcount, rdt, root);
    return run(s);
}

int rd_coll_inter_scatterv(rd_comm_t *c, const void *sbuf, const int *scounts,
                           const int *sdispls, size_t scount, rd_datatype_t *sdt, void *rbuf,
                           size_t rcount, rd_datatype_t *rdt, int root)
{
    rd_nbc_t *s = rd_nbc_new(c);
    if (s)
        rd_nbc_inter_scatterv(s, sbuf, scounts, sdispls, scount, sdt, rbuf, rcount, rdt, root);
    return run(s);
}

int rd_coll_inter_allgatherv(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *sdt,
                             void *rbuf, const int *rcounts, const int *rdispls, size_t rcount,
                             rd_datatype_t *rdt)
{
    rd_nbc_t *s = rd_nbc_new(c);
    if (s)
        rd_nbc_inter_allgatherv(s, sbuf, scount, sdt, rbuf, rcounts, rdispls, rcount, rdt);
    return run(s);
}

int rd_coll_inter_alltoallv(rd_comm_t *c, const void *sbuf, const int *scounts,
                            const int *sdispls, size_t scount, rd_datatype_t *sdt, void *rbuf,
                            const int *rcounts, const int *rdispls, size_t rcount,
                            rd_datatype_t *rdt)
{
    rd_nbc_t *s = rd_nbc_new(c);
    if (s)
        rd_nbc_inter_alltoallv(s, sbuf, scounts, sdispls, scount, sdt, rbuf, rcounts, rdispls,
                               rcount, rdt);
    return run(s);
}

int rd_coll_inter_alltoallw(rd_comm_t *c, const void *sbuf, const int *scounts,
                            const int *sdispls, rd_datatype_t *const *stypes, void *rbuf,
                            const int *rcounts, const int *rdispls,
                            rd_datatype_t *const *rtypes)
{
    rd_nbc_t *s = rd_nbc_new(c);
    if (s)
        rd_nbc_inter_alltoallw(s, sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls,
                               rtypes);
    return run(s);
}
