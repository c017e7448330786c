/* rpc: RAMP's GET/PUT messages as two-sided MPI messages; also what s2pl
 * runs over. */
#ifndef RAMP_RPC_H
#define RAMP_RPC_H

#include "net.h"

/* Collective over comm: sets n up to carry messages two-sided. Returns
 * MPI_SUCCESS or an MPI error code. */
int ramp_rpc_init(struct ramp_net *n, const struct ramp_opts *o, MPI_Comm comm);

#endif
