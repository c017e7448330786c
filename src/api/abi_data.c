/*
 * Data symbols that MPICH's mpi.h makes programs refer to by name (through
 * macros and extern declarations): a program built against MPICH that uses
 * MPI_UNWEIGHTED or MPI_F_STATUS_IGNORE needs these to load at all. Their
 * values only have to be distinct addresses the library recognizes.
 */
#include "api/api.h"

#define RD_EXPORT __attribute__((visibility("default")))

static int unweighted_marker, weights_empty_marker;
static MPI_Fint f_status_ignore[MPI_F_STATUS_SIZE], f_statuses_ignore[MPI_F_STATUS_SIZE];

RD_EXPORT int *const MPI_UNWEIGHTED = &unweighted_marker;
RD_EXPORT int *const MPI_WEIGHTS_EMPTY = &weights_empty_marker;
RD_EXPORT MPI_Fint *MPI_F_STATUS_IGNORE = f_status_ignore;
RD_EXPORT MPI_Fint *MPI_F_STATUSES_IGNORE = f_statuses_ignore;
RD_EXPORT MPI_F08_status MPIR_F08_MPI_STATUS_IGNORE_OBJ;
RD_EXPORT MPI_F08_status MPIR_F08_MPI_STATUSES_IGNORE_OBJ[1];
RD_EXPORT MPI_F08_status *MPI_F08_STATUS_IGNORE = &MPIR_F08_MPI_STATUS_IGNORE_OBJ;
RD_EXPORT MPI_F08_status *MPI_F08_STATUSES_IGNORE = MPIR_F08_MPI_STATUSES_IGNORE_OBJ;
RD_EXPORT int MPIR_F08_MPI_IN_PLACE;
RD_EXPORT int MPIR_F08_MPI_BOTTOM;
/* MPICH's own value for "every handle" in MPI_T_pvar calls. */
RD_EXPORT struct MPIR_T_pvar_handle_s *const MPI_T_PVAR_ALL_HANDLES =
    (struct MPIR_T_pvar_handle_s *)1;
