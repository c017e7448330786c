/* Collectives used by communicator management and MPI_Barrier (see coll.h).
 * Algorithms work for every process count, not only powers of two. */
#include "coll/coll.h"

#include <stdlib.h>
#include <string.h>

#include "core/datatype.h"
#include "core/request.h"
#include "p2p/p2p.h"
#include "util/status.h"

enum {
    TAG_BARRIER = 1,
    TAG_ALLGATHER = 2,
    TAG_BCAST = 3,
};

static int start(rd_request_t **out, int kind, rd_comm_t *c, void *buf, size_t n, int peer, int tag)
{
    rd_request_t *r = rd_req_new(kind);
    if (!r)
        return RD_ENOMEM;
    r->buf = buf;
    r->count = n;
    r->dt = &rd_dt_bytes;
    r->comm = c;
    r->peer = peer;
    r->tag = tag;
    r->mode = RD_MODE_STANDARD;
    int rc = kind == RD_REQ_SEND ? rd_p2p_isend(r, 1) : rd_p2p_irecv(r, 1);
    if (rc != RD_OK) {
        r->dt = NULL;
        rd_req_free(r);
        return rc;
    }
    *out = r;
    return RD_OK;
}

static int finish(rd_request_t *r)
{
    rd_p2p_wait(r);
    int rc = r->error;
    r->dt = NULL; /* rd_dt_bytes is static */
    rd_req_free(r);
    return rc;
}

/* Send to one peer and receive from another, both completing. */
static int sendrecv(rd_comm_t *c, const void *sbuf, size_t sn, int dst, void *rbuf, size_t rn,
                    int src, int tag)
{
    rd_request_t *rr, *sr;
    int rc = start(&rr, RD_REQ_RECV, c, rbuf, rn, src, tag);
    if (rc != RD_OK)
        return rc;
    rc = start(&sr, RD_REQ_SEND, c, (void *)sbuf, sn, dst, tag);
    if (rc != RD_OK) {
        finish(rr);
        return rc;
    }
    int rc1 = finish(sr), rc2 = finish(rr);
    return rc1 != RD_OK ? rc1 : rc2;
}

int rd_coll_barrier(rd_comm_t *c)
{
    int n = c->size, me = c->rank;
    char token = 0, got;
    for (int d = 1; d < n; d <<= 1) {
        int rc = sendrecv(c, &token, 1, (me + d) % n, &got, 1, (me - d + n) % n, TAG_BARRIER);
        if (rc != RD_OK)
            return rc;
    }
    return RD_OK;
}

int rd_coll_allgather_bytes(rd_comm_t *c, const void *send, size_t n, void *recv)
{
    int size = c->size, me = c->rank;
    char *out = recv;
    memmove(out + (size_t)me * n, send, n);
    /* Ring: in step s, pass on the block that came from rank me - s. */
    int right = (me + 1) % size, left = (me - 1 + size) % size;
    for (int s = 0; s < size - 1; s++) {
        int sblk = (me - s + size) % size, rblk = (me - s - 1 + size) % size;
        int rc = sendrecv(c, out + (size_t)sblk * n, n, right, out + (size_t)rblk * n, n, left,
                          TAG_ALLGATHER);
        if (rc != RD_OK)
            return rc;
    }
    return RD_OK;
}

int rd_coll_bcast_bytes(rd_comm_t *c, void *buf, size_t n, int root)
{
    int size = c->size, rel = (c->rank - root + size) % size;
    rd_request_t *r;
    int rc, mask = 1;
    /* Receive from the parent (rel with its lowest set bit cleared)... */
    while (mask < size) {
        if (rel & mask) {
            rc = start(&r, RD_REQ_RECV, c, buf, n, (rel - mask + root) % size, TAG_BCAST);
            if (rc == RD_OK)
                rc = finish(r);
            if (rc != RD_OK)
                return rc;
            break;
        }
        mask <<= 1;
    }
    /* ...then send to the children below that bit. */
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (rel + mask < size) {
            rc = start(&r, RD_REQ_SEND, c, buf, n, (rel + mask + root) % size, TAG_BCAST);
            if (rc == RD_OK)
                rc = finish(r);
            if (rc != RD_OK)
                return rc;
        }
    }
    return RD_OK;
}

int rd_coll_allreduce_max_u32(rd_comm_t *c, uint32_t *val)
{
    uint32_t *all = malloc((size_t)c->size * sizeof(uint32_t));
    if (!all)
        return RD_ENOMEM;
    int rc = rd_coll_allgather_bytes(c, val, sizeof(uint32_t), all);
    if (rc == RD_OK)
        for (int i = 0; i < c->size; i++)
            if (all[i] > *val)
                *val = all[i];
    free(all);
    return rc;
}
