/*
 * Collective operations, built on p2p in each communicator's collective
 * context (ctx + 1), so they never match user messages. Every rank of the
 * communicator calls them in the same order; messages between two ranks do
 * not overtake each other, so fixed tags per algorithm are enough.
 *
 * Blocking collectives use tags below RD_COLL_TAG_NBC_BASE; nonblocking
 * schedules (coll/nbc.c) use tags from there up, so that a blocking
 * collective started while a nonblocking one is in flight on the same
 * communicator never takes its messages.
 *
 * Buffers are (buf, count, datatype) as the user gave them; RD_COLL_IN_PLACE
 * (the value of MPI_IN_PLACE) marks an in-place send buffer where MPI allows
 * one. The API layer has checked every argument; these functions return
 * RD_OK or a negative status. Intracommunicators only.
 */
#ifndef RD_COLL_COLL_H
#define RD_COLL_COLL_H

#include <stddef.h>

#include "core/comm.h"
#include "core/datatype.h"
#include "core/op.h"

#define RD_COLL_IN_PLACE ((void *)-1)
#define RD_COLL_TAG_NBC_BASE 64

/* Dissemination barrier: ceil(log2 n) rounds, any n. */
int rd_coll_barrier(rd_comm_t *c);
/* Every rank contributes n bytes; recv gets size * n bytes in rank order (ring). */
int rd_coll_allgather_bytes(rd_comm_t *c, const void *send, size_t n, void *recv);
/* Broadcast of n bytes from root (binomial tree). */
int rd_coll_bcast_bytes(rd_comm_t *c, void *buf, size_t n, int root);

/* MPI-3.1 chapter 5, blocking, intracommunicators. */
int rd_coll_bcast(rd_comm_t *c, void *buf, size_t count, rd_datatype_t *dt, int root);
int rd_coll_gather(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                   void *rbuf, size_t rcount, rd_datatype_t *rtype, int root);
int rd_coll_gatherv(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                    void *rbuf, const int *rcounts, const int *displs, rd_datatype_t *rtype,
                    int root);
int rd_coll_scatter(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                    void *rbuf, size_t rcount, rd_datatype_t *rtype, int root);
int rd_coll_scatterv(rd_comm_t *c, const void *sbuf, const int *scounts, const int *displs,
                     rd_datatype_t *stype, void *rbuf, size_t rcount, rd_datatype_t *rtype,
                     int root);
int rd_coll_allgather(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                      void *rbuf, size_t rcount, rd_datatype_t *rtype);
int rd_coll_allgatherv(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                       void *rbuf, const int *rcounts, const int *displs, rd_datatype_t *rtype);
int rd_coll_alltoall(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                     void *rbuf, size_t rcount, rd_datatype_t *rtype);
int rd_coll_alltoallv(rd_comm_t *c, const void *sbuf, const int *scounts, const int *sdispls,
                      rd_datatype_t *stype, void *rbuf, const int *rcounts, const int *rdispls,
                      rd_datatype_t *rtype);
/* Displacements in bytes, one datatype per peer. */
int rd_coll_alltoallw(rd_comm_t *c, const void *sbuf, const int *scounts, const int *sdispls,
                      rd_datatype_t *const *stypes, void *rbuf, const int *rcounts,
                      const int *rdispls, rd_datatype_t *const *rtypes);
int rd_coll_reduce(rd_comm_t *c, const void *sbuf, void *rbuf, size_t count, rd_datatype_t *dt,
                   const rd_op_t *op, int root);
int rd_coll_allreduce(rd_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                      rd_datatype_t *dt, const rd_op_t *op);
int rd_coll_reduce_scatter(rd_comm_t *c, const void *sbuf, void *rbuf, const int *rcounts,
                           rd_datatype_t *dt, const rd_op_t *op);
int rd_coll_reduce_scatter_block(rd_comm_t *c, const void *sbuf, void *rbuf, size_t rcount,
                                 rd_datatype_t *dt, const rd_op_t *op);
int rd_coll_scan(rd_comm_t *c, const void *sbuf, void *rbuf, size_t count, rd_datatype_t *dt,
                 const rd_op_t *op);
int rd_coll_exscan(rd_comm_t *c, const void *sbuf, void *rbuf, size_t count, rd_datatype_t *dt,
                   const rd_op_t *op);

#endif
