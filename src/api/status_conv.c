/*
 * Conversions of a status between C (MPI_Status), Fortran's INTEGER array
 * (MPI_Fint[MPI_F_STATUS_SIZE]) and mpi_f08's TYPE(MPI_Status)
 * (MPI_F08_status): MPI_Status_c2f / f2c / c2f08 / f082c / f2f08 / f082f
 * (MPI-3.1 17.2.5, MPI-4.0 19.3.5). The three hold the same five integers
 * in the same order (mpi.h), so each conversion copies them; the IGNORE
 * values are not statuses and are refused.
 */
#include "api/api.h"

#include <string.h>

_Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint) &&
                   sizeof(MPI_F08_status) == sizeof(MPI_Status),
               "the status layouts differ");

/* Checks both pointers, then copies one status into the other. */
static int copy(const void *in, const void *in_ignore, void *out, const void *out_ignore,
                const char *fn)
{
    if (!in || in == in_ignore || !out || out == out_ignore)
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            "a status argument is NULL or one of the STATUS_IGNORE values");
    memmove(out, in, sizeof(MPI_Status));
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Status_c2f)
int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    return copy(c_status, MPI_STATUS_IGNORE, f_status, MPI_F_STATUS_IGNORE, "MPI_Status_c2f");
}

RD_WEAK_ALIAS(MPI_Status_f2c)
int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    return copy(f_status, MPI_F_STATUS_IGNORE, c_status, MPI_STATUS_IGNORE, "MPI_Status_f2c");
}

RD_WEAK_ALIAS(MPI_Status_c2f08)
int PMPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status)
{
    return copy(c_status, MPI_STATUS_IGNORE, f08_status, MPI_F08_STATUS_IGNORE,
                "MPI_Status_c2f08");
}

RD_WEAK_ALIAS(MPI_Status_f082c)
int PMPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status)
{
    return copy(f08_status, MPI_F08_STATUS_IGNORE, c_status, MPI_STATUS_IGNORE,
                "MPI_Status_f082c");
}

RD_WEAK_ALIAS(MPI_Status_f2f08)
int PMPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status)
{
    return copy(f_status, MPI_F_STATUS_IGNORE, f08_status, MPI_F08_STATUS_IGNORE,
                "MPI_Status_f2f08");
}

RD_WEAK_ALIAS(MPI_Status_f082f)
int PMPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status)
{
    return copy(f08_status, MPI_F08_STATUS_IGNORE, f_status, MPI_F_STATUS_IGNORE,
                "MPI_Status_f082f");
}
