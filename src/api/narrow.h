/*
 * Large-count (_c) arguments narrowed to int, for the _c forms of functions
 * whose machinery takes int counts: values that fit pass through, others
 * fail with MPI_ERR_COUNT naming the limit (never truncated silently).
 * MPI_Count and MPI_Aint are both long in this ABI, so one array form
 * serves counts and displacements.
 */
#ifndef RD_API_NARROW_H
#define RD_API_NARROW_H

#include "api/api.h"

/* *out = v, or the error handler's code (class MPI_ERR_COUNT) on comm. */
int rd_api_narrow(MPI_Comm comm, MPI_Count v, int *out, const char *fn);
/* The n values of src as a malloc'd int array in *out (NULL when src is NULL
 * or n is 0; the caller frees it), or the error handler's code. */
int rd_api_narrow_array(MPI_Comm comm, const MPI_Count *src, int n, int **out, const char *fn);

#endif
