/*
 * Tunables of the collectives: algorithm switch points and the shared-area paths.
 * Declared once here, read by src/coll/coll_util.c, printed by rdmpi_info and
 * checked against doc/tunables.md (util/tunable.h).
 */
#ifndef RD_COLL_COLL_TUNABLES_H
#define RD_COLL_COLL_TUNABLES_H

#include "util/tunable.h"

enum {
    RD_COLL_T_BARRIER_SIGNAL,
    RD_COLL_T_BCAST_SHM_MAX,
    RD_COLL_T_IBCAST_SHM_MAX,
    RD_COLL_T_ALLREDUCE_SHM_MAX,
    RD_COLL_T_ALLREDUCE_SHM_SPLIT_MIN,
    RD_COLL_T_ALLTOALL_SHM_MAX,
    RD_COLL_T_COLL_SHM_MAX_NP2,
    RD_COLL_T_ALLTOALL_CMA_MIN,
    RD_COLL_T_BCAST_SCATTER_MIN,
    RD_COLL_T_BCAST_SCATTER_MIN_PROCS,
    RD_COLL_T_ALLGATHER_RING_MIN,
    RD_COLL_T_ALLTOALL_BRUCK_MAX,
    RD_COLL_T_ALLTOALL_SCATTERED_MAX,
    RD_COLL_T_ALLREDUCE_RSAG_MIN,
    RD_COLL_T_ALLREDUCE_RSAG_MIN_NP2,
    RD_COLL_T_GATHER_BINOMIAL_MAX,
    RD_COLL_T_REDUCE_SCATTER_PAIRWISE_MIN,
    RD_COLL_T_COUNT
};

extern const rd_tunable_t rd_coll_tunables[RD_COLL_T_COUNT];
extern const rd_tunable_table_t rd_coll_tunables_table;

#endif
