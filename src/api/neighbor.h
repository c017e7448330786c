/*
 * Neighbourhood collectives (MPI-3.1 sections 7.6 and 7.7) and MPI_Ialltoallw,
 * which is the same exchange of blocks with every rank as a neighbour: what
 * the persistent collectives (coll_persist.c) need from them.
 */
#ifndef RD_API_NEIGHBOR_H
#define RD_API_NEIGHBOR_H

#include "api/api.h"

/* comm (MPI initialized) carries a topology; *c is it, *indeg / *outdeg the
 * number of neighbours its rank receives from / sends to. Returns
 * MPI_SUCCESS or the error handler's code (MPI_ERR_TOPOLOGY without one). */
int rd_api_nbr_comm(MPI_Comm comm, rd_comm_t **c, int *indeg, int *outdeg, const char *fn);

#endif
