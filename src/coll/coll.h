/*
 * Collective operations, built on p2p in each communicator's collective
 * context (ctx + 1), so they never match user messages. Every rank of the
 * communicator calls them in the same order; messages between two ranks do
 * not overtake each other, so fixed tags per algorithm are enough.
 */
#ifndef RD_COLL_COLL_H
#define RD_COLL_COLL_H

#include <stddef.h>
#include <stdint.h>

#include "core/comm.h"

/* Dissemination barrier: ceil(log2 n) rounds, any n. */
int rd_coll_barrier(rd_comm_t *c);
/* Every rank contributes n bytes; recv gets size * n bytes in rank order (ring). */
int rd_coll_allgather_bytes(rd_comm_t *c, const void *send, size_t n, void *recv);
/* Broadcast of n bytes from root (binomial tree). */
int rd_coll_bcast_bytes(rd_comm_t *c, void *buf, size_t n, int root);
/* Maximum of one uint32 over the communicator (context id agreement). */
int rd_coll_allreduce_max_u32(rd_comm_t *c, uint32_t *val);

#endif
