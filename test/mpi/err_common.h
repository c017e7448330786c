/*
 * err_common.h: definitions shared by the err_* tests (header only).
 * GARBAGE_HANDLES: whether handles are integers that an implementation can
 * validate (MPICH ABI, so rdmpi and MPICH); with Open MPI handles are
 * pointers and a garbage one would crash instead of returning an error.
 */
#ifndef ERR_COMMON_H
#define ERR_COMMON_H

#include "mtest.h"

#if defined(OPEN_MPI)
#define GARBAGE_HANDLES 0
#else
#define GARBAGE_HANDLES 1
/* handle kind bits 0 ("invalid") in the MPICH handle layout */
#define GARBAGE_INT 0x12345
#endif

/* Errors on invalid communicators may be raised on COMM_WORLD or COMM_SELF:
 * set MPI_ERRORS_RETURN on both. */
static inline void errors_return(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
}

#endif
