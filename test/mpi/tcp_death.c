/*
 * tcp_death: a rank that vanishes mid-job must not leave its peers hanging
 * (expect=fail-nonzero). Rank 1 talks to rank 0 once, so the connection is
 * up, then exits without MPI_Finalize while rank 0 blocks in MPI_Recv on a
 * message that never comes. Over TCP rank 0 sees the connection end without
 * a BYE and aborts the job naming both ranks; mpirun also reports the rank
 * that exited early. Either way the job must end, non-zero, well before the
 * runner's timeout.
 */
#include "mtest.h"

#include <unistd.h>

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    int x = 1;
    if (MTest_rank == 1) {
        MT_OK(MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD));
        _exit(0);
    }
    if (MTest_rank == 0) {
        MT_OK(MPI_Recv(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_OK(MPI_Recv(&x, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    return MTest_Finalize();
}
