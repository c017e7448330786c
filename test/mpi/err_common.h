/*
 * err_common.h: definitions shared by the err_* tests (header only).
 * GARBAGE_HANDLES: whether handles are integers that an implementation can
 * validate (MPICH ABI, so rdmpi and MPICH); with Open MPI handles are
 * pointers and a garbage one would crash instead of returning an error.
 */
#ifndef ERR_COMMON_H
#define ERR_COMMON_H

#include "mtest.h"

#include <stdio.h>
#include <string.h>

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

/* rc must be an MPI_ERR_OTHER whose string names rank 0 and rank 1 (a lost
 * peer, as the lost-peer tests of each transport expect); the string goes to
 * stderr with prog's name so the job's log shows what was reported. */
static inline void expect_peer_error(const char *prog, int rc, const char *what)
{
    MT_ERRCLASS(rc, MPI_ERR_OTHER, what);
    if (rc == MPI_SUCCESS)
        return;
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, s, &len);
    MT_CHECK(strstr(s, "rank 0") && strstr(s, "rank 1"), "%s: message \"%s\" does not name "
             "rank 0 and rank 1", what, s);
    fprintf(stderr, "%s: rank %d: %s: %s\n", prog, MTest_rank, what, s);
}

#endif
