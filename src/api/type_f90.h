/*
 * Datatypes chosen by size or by Fortran precision and range
 * (MPI_Type_match_size, MPI_Type_create_f90_*): what the other datatype
 * entry points need to know about them.
 */
#ifndef RD_API_TYPE_F90_H
#define RD_API_TYPE_F90_H

#include "core/datatype.h"

/* Whether dt was made by MPI_Type_create_f90_*: predefined in the standard's
 * sense, so MPI_Type_free refuses it. */
int rd_api_dt_is_f90(const rd_datatype_t *dt);

#endif
