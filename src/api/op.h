/*
 * Reduction operations at the API level: the predefined MPI_Op handles and
 * the ones MPI_Op_create makes. Collectives (blocking and nonblocking) decode
 * an MPI_Op here and hold a reference while an operation is in flight, so
 * that MPI_Op_free during a nonblocking reduction is safe (MPI-3.1 5.9.5).
 */
#ifndef RD_API_OP_H
#define RD_API_OP_H

#include <mpi.h>

#include "core/comm.h"
#include "core/op.h"

/* Registers the predefined operations under MPICH's handle values (MPI_Init). */
int rd_api_op_init(void);
/* The operation behind h, or NULL when h is not a live operation. */
rd_op_t *rd_api_op(MPI_Op h);
/* The op argument h: a live operation (MPI_SUCCESS, *op set) or the error
 * code after c's handler ran. With dt (a reduction on dt), also not an
 * RMA-only op (MPI_REPLACE, MPI_NO_OP) and defined for dt. */
int rd_api_check_op(rd_comm_t *c, MPI_Op h, const rd_datatype_t *dt, rd_op_t **op,
                    const char *fn);
/* References for operations in flight; the last release frees a user op. */
void rd_api_op_ref(rd_op_t *op);
void rd_api_op_release(rd_op_t *op);

#endif
