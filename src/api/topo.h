/*
 * Process topologies (MPI-3.1 chapter 7) as the rest of the API layer sees
 * them. A communicator with a topology has c->topo set to MPI_CART,
 * MPI_GRAPH or MPI_DIST_GRAPH and c->topo_data pointing to one malloc'd
 * block (rd_comm_release frees it with free()), so a copy is one memcpy.
 */
#ifndef RD_API_TOPO_H
#define RD_API_TOPO_H

#include "core/comm.h"

/* Copies from's topology, if it has one, to `to` (MPI_Comm_dup). Returns an
 * internal status (RD_ENOMEM). Lock held. */
int rd_api_topo_copy(const rd_comm_t *from, rd_comm_t *to);

#endif
