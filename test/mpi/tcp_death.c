/*
 * tcp_death: a rank that vanishes from the network mid-job must not leave
 * its peers hanging (expect=fail-nonzero). Rank 1 exchanges a message with
 * rank 0, so the connection is up, then closes every TCP socket it has and
 * waits to be killed, while rank 0 blocks in MPI_Recv on a message that
 * never comes. Rank 1 stays alive so that mpirun cannot end the job: only
 * the TCP transport can, by seeing the connection end without a BYE, which
 * fails rank 0's receive; its default error handler then aborts the job
 * naming both ranks (the testlist greps that). If TCP never notices, the
 * case times out.
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
        MT_OK(MPI_Sendrecv(&x, 1, MPI_INT, 0, 1, &x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        MTest_Close_tcp_sockets();
        for (;;)
            pause();
    } else if (MTest_rank == 0) {
        MT_OK(MPI_Sendrecv(&x, 1, MPI_INT, 1, 1, &x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        MT_OK(MPI_Recv(&x, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    return MTest_Finalize();
}
