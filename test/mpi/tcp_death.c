/*
 * tcp_death: a rank that vanishes mid-job must not leave its peers hanging
 * (expect=fail-nonzero). Rank 1 talks to rank 0 once, so the connection is
 * up, then exits without MPI_Finalize while rank 0 blocks in MPI_Recv on a
 * message that never comes. Over TCP rank 0 sees the connection end without
 * a BYE and aborts the job naming both ranks; mpirun also reports the rank
 * that exited early. Either way the job must end, non-zero, well before the
 * runner's timeout.
 *
 * "tcp_death victim" (test/multihost/faults.sh): rank 1 sends one message
 * to every other rank, prints "victim <pid>" and waits in MPI_Recv for a
 * message that never comes until it is killed from outside; the others
 * print "waiting <rank>" once the first message arrived and block in
 * MPI_Recv on a second one from rank 1.
 */
#include "mtest.h"

#include <string.h>
#include <unistd.h>

static void victim_mode(void)
{
    int x = 1;

    if (MTest_rank == 1) {
        for (int r = 0; r < MTest_size; r++)
            if (r != 1)
                MT_OK(MPI_Send(&x, 1, MPI_INT, r, 1, MPI_COMM_WORLD));
        printf("victim %ld\n", (long)getpid());
        fflush(stdout);
        /* Blocked in MPI, so that the sends above progress (TCP connects
         * lazily), until killed. */
        MT_OK(MPI_Recv(&x, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        _exit(0);
    }
    MT_OK(MPI_Recv(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    printf("waiting %d\n", MTest_rank);
    fflush(stdout);
    MT_OK(MPI_Recv(&x, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    int x = 1;
    if (argc > 1 && !strcmp(argv[1], "victim")) {
        victim_mode();
    } else if (MTest_rank == 1) {
        MT_OK(MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD));
        _exit(0);
    } else if (MTest_rank == 0) {
        MT_OK(MPI_Recv(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_OK(MPI_Recv(&x, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    return MTest_Finalize();
}
