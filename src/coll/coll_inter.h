/*
 * Collectives on intercommunicators (MPI-3.1 sections 5.2.2 and 5.2.3).
 *
 * Every message of an intercommunicator goes to the other group, so each
 * collective is built from the intracommunicator algorithms of the local
 * group (coll_steps.h), run on a communicator over that group, plus
 * point-to-point between the groups, mostly between their rank-0 leaders:
 *   barrier: local barrier, leaders swap a token, local broadcast of it;
 *   bcast: the root sends to the remote leader, which broadcasts locally;
 *   reduce: local reduction to the leader, which sends to the remote root;
 *   allreduce: local reduction, the leaders swap results, local broadcast;
 *   reduce_scatter(_block): local reduction, leaders swap, local scatterv;
 *   gather(v) / scatter(v): the root exchanges with each remote rank;
 *   allgather(v) / alltoall(v, w): every rank with every remote rank.
 * Each is written once, as a schedule (nbc.h); the blocking form starts
 * that schedule and waits for it. An intercommunicator schedule holds the
 * local communicator and tags its messages there with the schedule's tag,
 * which comes from the intercommunicator's own count, so nothing else may
 * start schedules on that local communicator.
 *
 * Rooted collectives: the root passes RD_COLL_ROOT, the other ranks of its
 * group RD_COLL_NO_ROOT (they take no part), the other group the root's
 * rank in the root's group. Counts and displacement arrays, and the blocks
 * of the all-to-all ones, are indexed by rank of the remote group;
 * reduce_scatter's counts by rank of the local group (each group receives
 * the reduction of the other group's data, of as many elements as its
 * own counts add up to). MPI_IN_PLACE is not allowed on intercommunicators
 * and never reaches these. Every function returns RD_OK or a negative
 * status.
 */
#ifndef RD_COLL_COLL_INTER_H
#define RD_COLL_COLL_INTER_H

#include <stddef.h>

#include "coll/nbc.h"
#include "core/comm.h"
#include "core/datatype.h"
#include "core/op.h"

/* Roots of rooted collectives on intercommunicators (MPI_ROOT and
 * MPI_PROC_NULL in the MPICH ABI). */
#define RD_COLL_ROOT (-3)
#define RD_COLL_NO_ROOT (-1)

/* Makes local (a communicator over c's local group, with contexts of its
 * own, living as long as c) the one c's collectives run their local steps
 * on. Call once when c is built. */
void rd_coll_inter_init(rd_comm_t *c, rd_comm_t *local);

/* ---- schedule builders (s on an intercommunicator) ---- */

void rd_nbc_inter_barrier(rd_nbc_t *s);
void rd_nbc_inter_bcast(rd_nbc_t *s, void *buf, size_t count, rd_datatype_t *dt, int root);
void rd_nbc_inter_reduce(rd_nbc_t *s, const void *sbuf, void *rbuf, size_t count,
                         rd_datatype_t *dt, const rd_op_t *op, int root);
void rd_nbc_inter_allreduce(rd_nbc_t *s, const void *sbuf, void *rbuf, size_t count,
                            rd_datatype_t *dt, const rd_op_t *op);
/* rcounts NULL: count elements per rank. */
void rd_nbc_inter_reduce_scatter(rd_nbc_t *s, const void *sbuf, void *rbuf, const int *rcounts,
                                 size_t count, rd_datatype_t *dt, const rd_op_t *op);
/* NULL counts / displacements: count elements per rank at rank * count. */
void rd_nbc_inter_gatherv(rd_nbc_t *s, const void *sbuf, size_t scount, rd_datatype_t *sdt,
                          void *rbuf, const int *rcounts, const int *rdispls, size_t rcount,
                          rd_datatype_t *rdt, int root);
void rd_nbc_inter_scatterv(rd_nbc_t *s, const void *sbuf, const int *scounts, const int *sdispls,
                           size_t scount, rd_datatype_t *sdt, void *rbuf, size_t rcount,
                           rd_datatype_t *rdt, int root);
void rd_nbc_inter_allgatherv(rd_nbc_t *s, const void *sbuf, size_t scount, rd_datatype_t *sdt,
                             void *rbuf, const int *rcounts, const int *rdispls, size_t rcount,
                             rd_datatype_t *rdt);
void rd_nbc_inter_alltoallv(rd_nbc_t *s, const void *sbuf, const int *scounts,
                            const int *sdispls, size_t scount, rd_datatype_t *sdt, void *rbuf,
                            const int *rcounts, const int *rdispls, size_t rcount,
                            rd_datatype_t *rdt);
/* Displacements in bytes, one datatype per remote rank. */
void rd_nbc_inter_alltoallw(rd_nbc_t *s, const void *sbuf, const int *scounts,
                            const int *sdispls, rd_datatype_t *const *stypes, void *rbuf,
                            const int *rcounts, const int *rdispls,
                            rd_datatype_t *const *rtypes);

/* ---- blocking: the schedule above, started and waited for ---- */

int rd_coll_inter_barrier(rd_comm_t *c);
int rd_coll_inter_bcast(rd_comm_t *c, void *buf, size_t count, rd_datatype_t *dt, int root);
int rd_coll_inter_reduce(rd_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                         rd_datatype_t *dt, const rd_op_t *op, int root);
int rd_coll_inter_allreduce(rd_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                            rd_datatype_t *dt, const rd_op_t *op);
int rd_coll_inter_reduce_scatter(rd_comm_t *c, const void *sbuf, void *rbuf, const int *rcounts,
                                 size_t count, rd_datatype_t *dt, const rd_op_t *op);
int rd_coll_inter_gatherv(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *sdt,
                          void *rbuf, const int *rcounts, const int *rdispls, size_t rcount,
                          rd_datatype_t *rdt, int root);
int rd_coll_inter_scatterv(rd_comm_t *c, const void *sbuf, const int *scounts,
                           const int *sdispls, size_t scount, rd_datatype_t *sdt, void *rbuf,
                           size_t rcount, rd_datatype_t *rdt, int root);
int rd_coll_inter_allgatherv(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *sdt,
                             void *rbuf, const int *rcounts, const int *rdispls, size_t rcount,
                             rd_datatype_t *rdt);
int rd_coll_inter_alltoallv(rd_comm_t *c, const void *sbuf, const int *scounts,
                            const int *sdispls, size_t scount, rd_datatype_t *sdt, void *rbuf,
                            const int *rcounts, const int *rdispls, size_t rcount,
                            rd_datatype_t *rdt);
int rd_coll_inter_alltoallw(rd_comm_t *c, const void *sbuf, const int *scounts,
                            const int *sdispls, rd_datatype_t *const *stypes, void *rbuf,
                            const int *rcounts, const int *rdispls,
                            rd_datatype_t *const *rtypes);

#endif
