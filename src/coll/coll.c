/* Collectives used by communicator management and MPI_Barrier (see coll.h).
 * Algorithms work for every process count, not only powers of two. */
#include "coll/coll.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll_node.h"
#include "coll/coll_util.h"
#include "core/datatype.h"
#include "p2p/p2p.h"
#include "util/status.h"

/* Send to one peer and receive from another, as bytes. */
static int sendrecv(rd_comm_t *c, const void *sbuf, size_t sn, int dst, void *rbuf, size_t rn,
                    int src, int tag)
{
    return rd_coll_sendrecv(c, sbuf, sn, &rd_dt_bytes, dst, rbuf, rn, &rd_dt_bytes, src, tag);
}

int rd_coll_barrier(rd_comm_t *c)
{
    /* All on one node: a gather / release through shared-memory counters
     * (coll_node.h), cheaper than messages, and the lowest rank leaves first. */
    if (rd_coll_tune()->barrier_signal) {
        int rc = rd_coll_node_barrier(c);
        if (rc != RD_ENOTSUP)
            return rc;
    }
    /* Dissemination: log2 n rounds of one message. */
    int n = c->size, me = c->rank;
    char token = 0, got;
    for (int d = 1; d < n; d <<= 1) {
        int rc = sendrecv(c, &token, 1, (me + d) % n, &got, 1, (me - d + n) % n, RD_TAG_BARRIER);
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
                          RD_TAG_ALLGATHER_BYTES);
        if (rc != RD_OK)
            return rc;
    }
    return RD_OK;
}

int rd_coll_bcast_bytes(rd_comm_t *c, void *buf, size_t n, int root)
{
    int size = c->size, rel = (c->rank - root + size) % size;
    int rc, mask = 1;
    /* Receive from the parent (rel with its lowest set bit cleared)... */
    while (mask < size) {
        if (rel & mask) {
            rc = rd_coll_recv(c, buf, n, &rd_dt_bytes, (rel - mask + root) % size,
                              RD_TAG_BCAST_BYTES);
            if (rc != RD_OK)
                return rc;
            break;
        }
        mask <<= 1;
    }
    /* ...then send to the children below that bit. */
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (rel + mask < size) {
            rc = rd_coll_send(c, buf, n, &rd_dt_bytes, (rel + mask + root) % size,
                              RD_TAG_BCAST_BYTES);
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
