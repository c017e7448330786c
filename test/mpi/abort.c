/*
 * abort: MPI_Abort from one rank ends the whole job with a non-zero exit
 * status (listed as expect=fail-nonzero). The other ranks block in a receive
 * that never completes, so the launcher must kill them. Nothing after the
 * abort may print.
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    if (MTest_rank == MTest_size - 1) {
        fprintf(stderr, "abort: rank %d calling MPI_Abort(MPI_COMM_WORLD, 7)\n",
                MTest_rank);
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 7);
    } else {
        int x;
        MPI_Recv(&x, 1, MPI_INT, MTest_size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    printf("abort: rank %d survived MPI_Abort\n", MTest_rank);
    return MTest_Finalize();
}
