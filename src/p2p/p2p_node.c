/*
 * Node services (see p2p.h): signals for src/coll's node barrier, the
 * wait marks of node peers for src/rma, the shared areas of node-local
 * collectives and single-copy reads between the members of a node-local
 * communicator, each from the transport that reaches them (shm).
 */
#include <string.h>

#include "p2p/p2p_impl.h"

/* ---- node signals (src/coll's node barrier) ---- */

int rd_p2p_signals(int peer)
{
    const rd_transport_t *tp = rd_p2p.peers[peer].tp;
    return tp && tp->signal;
}

void rd_p2p_signal(int peer)
{
    rd_p2p.peers[peer].tp->signal(peer);
}

int rd_p2p_signaled(int peer)
{
    return rd_p2p.peers[peer].tp->signaled(peer);
}

/* ---- wait marks (src/rma's choice of path for large Gets) ---- */

int rd_p2p_peer_waiting(int peer)
{
    if (peer < 0 || peer >= rd_p2p.size)
        return 0;
    const rd_transport_t *tp = rd_p2p.peers[peer].tp;
    return tp && tp->waiting && tp->waiting(peer);
}

/* ---- shared areas for node-local collectives ---- */

int rd_p2p_node_areas(rd_comm_t *c, void **areas, size_t *len)
{
    int n = c->size, me = c->rank;
    const int *world = c->group->world;
    if (c->rgroup || n < 2)
        return RD_ENOTSUP;
    /* Every member decides alike: all reached through one transport with
     * areas (shm: all on this node), and areas of one size node-wide. */
    const rd_transport_t *tp = rd_p2p.peers[world[me == 0 ? 1 : 0]].tp;
    if (!tp || !tp->area)
        return RD_ENOTSUP;
    for (int i = 0; i < n; i++) {
        if (i != me && rd_p2p.peers[world[i]].tp != tp)
            return RD_ENOTSUP;
        if (!(areas[i] = tp->area(world[i], len)))
            return RD_ENOTSUP;
    }
    return RD_OK;
}

/* ---- single-copy reads for node-local collectives ---- */

_Static_assert(RD_TP_KEY_MAX <= RD_P2P_NODE_KEY_MAX, "node keys hold any transport key");

/* The transport that reaches every other member of node-local c, if it
 * reads peer memory. */
static const rd_transport_t *node_reader(const rd_comm_t *c)
{
    if (c->rgroup || c->size < 2)
        return NULL;
    const rd_transport_t *tp = rd_p2p.peers[c->group->world[c->rank == 0 ? 1 : 0]].tp;
    return tp && tp->area && (tp->rdma.ops & RD_TP_RDMA_GET) ? tp : NULL;
}

int rd_p2p_node_readable(rd_comm_t *c)
{
    return node_reader(c) != NULL;
}

int rd_p2p_node_key(rd_comm_t *c, const void *buf, size_t len, void *key, size_t *keylen,
                    void **reg)
{
    const rd_transport_t *tp = node_reader(c);
    if (!tp)
        return RD_ENOTSUP;
    rd_tp_mem_t *m;
    int rc = tp->mem_reg(buf, len, &m);
    if (rc != RD_OK)
        return rc;
    memcpy(key, m->key, m->keylen);
    *keylen = m->keylen;
    *reg = m;
    return RD_OK;
}

void rd_p2p_node_key_release(rd_comm_t *c, void *reg)
{
    const rd_transport_t *tp = node_reader(c);
    if (tp && reg)
        tp->mem_dereg(reg);
}

typedef struct node_read {
    int done, status;
} node_read_t;

static void node_read_done(void *ctx, int status)
{
    node_read_t *nr = ctx;
    nr->status = status;
    nr->done = 1;
}

int rd_p2p_node_read(rd_comm_t *c, int rank, void *local, uint64_t addr, const void *key,
                     size_t keylen, size_t len)
{
    const rd_transport_t *tp = node_reader(c);
    if (!tp || rank < 0 || rank >= c->size || rank == c->rank)
        return RD_EINVAL;
    node_read_t nr = { 0, RD_OK };
    int rc = tp->get(c->group->world[rank], local, NULL, addr, key, keylen, len, node_read_done,
                     &nr);
    if (rc != RD_OK)
        return rc;
    /* shm completes before returning; a transport that completes later
     * does so from its progress. */
    unsigned idle = 0;
    while (!nr.done)
        rd_p2p_backoff(rd_progress(), &idle);
    return nr.status;
}
