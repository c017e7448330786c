/* MPI_Barrier and the byte broadcast of communicator management (see
 * coll.h). Algorithms work for every process count, not only powers of two. */
#include "coll/coll.h"

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
     * (p2p), cheaper than messages, and the lowest rank leaves first. */
    if (rd_coll_tune()->barrier_signal) {
        int rc = rd_p2p_signal_barrier(c);
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

int rd_coll_bcast_bytes(rd_comm_t *c, void *buf, size_t n, int root)
{
    int size = c->size, rel = (c->rank - root + size) % size, rc;
    int mask = rd_coll_tree_mask(rel, size);
    /* Receive from the parent (rel with its lowest set bit cleared)... */
    if (rel) {
        rc = rd_coll_recv(c, buf, n, &rd_dt_bytes, (rel - mask + root) % size,
                          RD_TAG_BCAST_BYTES);
        if (rc != RD_OK)
            return rc;
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
