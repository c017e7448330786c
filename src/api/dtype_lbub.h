/*
 * MPI_LB / MPI_UB markers of MPI_Type_(create_)struct (dtype_lbub.c).
 */
#ifndef RD_API_DTYPE_LBUB_H
#define RD_API_DTYPE_LBUB_H

#include <mpi.h>
#include <stddef.h>

#include "core/datatype.h"

/* rd_dt_build_struct of n entries, where entries of type MPI_LB / MPI_UB
 * move no data but set the lower bound (least MPI_LB displacement) and the
 * upper bound (greatest MPI_UB one). Lock held; NULL on ENOMEM. */
rd_datatype_t *rd_api_build_struct_lbub(size_t n, const size_t *bls, const MPI_Aint *disps,
                                        const MPI_Datatype *types, rd_datatype_t **olds);

#endif
