/* The node barrier through transport signals (see coll_node.h). */
#include "coll/coll_node.h"

#include "p2p/p2p.h"
#include "util/status.h"

/* Waits for one signal from job rank peer. */
static void wait_signal(int peer)
{
    unsigned idle = 0;
    if (rd_p2p_signaled(peer))
        return;
    rd_p2p_wait_begin();
    while (!rd_p2p_signaled(peer)) {
        /* Other traffic keeps moving while we wait (a peer may need this
         * rank to drain its ring before it can reach the barrier). */
        rd_p2p_backoff(rd_progress(), &idle);
    }
    rd_p2p_wait_end();
}

int rd_coll_node_barrier(rd_comm_t *c)
{
    int n = c->size, me = c->rank;
    const int *world = c->group->world;
    /* A signal counts per pair of processes, not per communicator: with
     * threads, two barriers between the same processes may run at once
     * and take each other's signals. */
    if (c->rgroup || n < 2 || rd_p2p_threads())
        return RD_ENOTSUP;
    /* Every member decides alike: all on one node (shm) or not. */
    for (int i = 0; i < n; i++)
        if (i != me && !rd_p2p_signals(world[i]))
            return RD_ENOTSUP;
    if (me != 0) {
        rd_p2p_signal(world[0]);
        wait_signal(world[0]);
        return RD_OK;
    }
    for (int i = 1; i < n; i++)
        wait_signal(world[i]);
    for (int i = 1; i < n; i++)
        rd_p2p_signal(world[i]);
    return RD_OK;
}
