/*
 * err_fatal: with the default handler (MPI_ERRORS_ARE_FATAL) an error ends
 * the whole job with a non-zero exit status and a message on stderr naming
 * the MPI function. Listed as expect=fail-nonzero with a grep on stderr.
 * MTEST_FATAL selects the error (default "send"):
 *   send     MPI_Send to rank = size on COMM_WORLD      (grep MPI_Send)
 *   recv     MPI_Recv with a negative tag              (grep MPI_Recv)
 *   dup      MPI_Send with a negative count on a dup of COMM_WORLD, whose
 *            handler is inherited                       (grep MPI_Send)
 *   truncate MPI_Recv of a too-long message (rank 0 to itself) (grep MPI_Recv)
 * Only the last rank errs; the others wait in a receive that never matches.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    const char *which = getenv("MTEST_FATAL");
    int v[4] = { 0 };
    MPI_Comm dup;

    if (!which)
        which = "send";
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    if (MTest_rank == MTest_size - 1) {
        if (strcmp(which, "send") == 0) {
            MPI_Send(v, 1, MPI_INT, MTest_size, 0, MPI_COMM_WORLD);
        } else if (strcmp(which, "recv") == 0) {
            MPI_Recv(v, 1, MPI_INT, 0, -3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (strcmp(which, "dup") == 0) {
            MPI_Send(v, -1, MPI_INT, 0, 0, dup);
        } else if (strcmp(which, "truncate") == 0) {
            MPI_Request r;
            int in[1];
            MPI_Isend(v, 4, MPI_INT, MTest_rank, 1, MPI_COMM_WORLD, &r);
            MPI_Recv(in, 1, MPI_INT, MTest_rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            fprintf(stderr, "err_fatal: unknown MTEST_FATAL=%s\n", which);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        /* an error that returned is a failure of this test */
        printf("err_fatal: rank %d survived a fatal error (%s)\n", MTest_rank, which);
        fflush(stdout);
        return MTest_Finalize() ? 1 : 0;
    }
    MPI_Recv(v, 1, MPI_INT, MTest_size - 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return MTest_Finalize();
}
