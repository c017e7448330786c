/*
 * The node barrier: MPI_Barrier through transport signals (p2p.h,
 * rd_p2p_signal) when every member of a communicator shares this node, a
 * counter store and load instead of messages.
 */
#ifndef RD_COLL_COLL_NODE_H
#define RD_COLL_COLL_NODE_H

#include "core/comm.h"

/* MPI_Barrier over intracommunicator c when every other member is reached
 * through a transport with signals (shm: all on this node): the members
 * signal c's rank 0, which waits for all of them and then signals each
 * back, so rank 0 leaves first. Correct across communicators because a
 * signal is a counter per pair of processes and two processes run their
 * barriers on the communicators they share in the same order (any other
 * order deadlocks in every MPI); with threads (rd_p2p_threads) that order
 * is not given, so it declines. Returns RD_OK, or RD_ENOTSUP having done
 * nothing (some member elsewhere, an intercommunicator, threads): every
 * member of c gets the same answer (rd_p2p_threads is the node's). */
int rd_coll_node_barrier(rd_comm_t *c);

#endif
