/*
 * tcp_peer_fail: a peer that disappears is reported as an MPI error on the
 * operations that need it (run with RDMPI_TRANSPORTS=tcp at np 2, as
 * expect=fail-nonzero: mpirun still ends the job because rank 1 exited
 * without MPI_Finalize; the testlist greps rank 0's report).
 *
 * Rank 0 sets MPI_ERRORS_RETURN; rank 1 goes away mid-job. Two ways
 * (TCP_PEER_FAIL_MODE):
 *   connected   (default) rank 1 exchanges a message with rank 0 first, so
 *               the connection is up, then _exit(0)s: rank 0 sees EOF
 *               without a BYE;
 *   unconnected rank 1 queues a send to rank 0 and at once closes every
 *               TCP socket it has (its listening socket too), before its
 *               connection was made, then waits to be killed: to rank 0
 *               this is a rank that died early under a launcher that does
 *               not notice (srun), and rank 0 never hears of it unless it
 *               connects itself (a dead rank's listening socket refuses).
 *               Rank 1 stays alive so that mpirun cannot end the job
 *               before rank 0 has reported: rank 0's exit is then the
 *               job's first failure and mpirun exits with its 42.
 * Either way rank 0's blocking receive from rank 1 must return an error of
 * class MPI_ERR_OTHER whose message names both ranks, as must a later send
 * to rank 1, a receive from MPI_ANY_SOURCE and a probe of rank 1. Rank 0
 * then prints one line and exits with 42 (a code of its own). It ignores
 * SIGTERM, so mpirun's stop of the job cannot cut its report short.
 */
#include "err_common.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXIT_REPORTED 42

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    const char *mode = getenv("TCP_PEER_FAIL_MODE");
    int unconnected = mode && strcmp(mode, "unconnected") == 0;
    int x = 1;
    if (MTest_rank == 1) {
        MPI_Request r;
        if (unconnected) {
            MT_OK(MPI_Isend(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &r));
            MTest_Close_tcp_sockets();
            for (;;)
                pause();   /* until mpirun stops the job */
        } else {
            MT_OK(MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD));
            MT_OK(MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        }
        _exit(0);
    }
    if (MTest_rank != 0)
        _exit(0);   /* extra ranks play no part */
    signal(SIGTERM, SIG_IGN);
    MT_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    if (!unconnected) {
        MT_OK(MPI_Recv(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_OK(MPI_Send(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD));
    }
    /* In unconnected mode the tag-1 message may or may not have made it:
     * wait for one that never comes. */
    expect_peer_error("tcp_peer_fail", MPI_Recv(&x, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                      "MPI_Recv from rank 1");
    expect_peer_error("tcp_peer_fail", MPI_Send(&x, 1, MPI_INT, 1, 2, MPI_COMM_WORLD), "MPI_Send to rank 1");
    expect_peer_error("tcp_peer_fail", MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE), "MPI_Recv from MPI_ANY_SOURCE");
    MPI_Status st;
    expect_peer_error("tcp_peer_fail", MPI_Probe(1, 2, MPI_COMM_WORLD, &st), "MPI_Probe of rank 1");
    if (MTest_errs) {
        fprintf(stderr, "tcp_peer_fail: rank 0: %d check(s) failed\n", MTest_errs);
        _exit(1);
    }
    fprintf(stderr, "tcp_peer_fail: rank 0: every operation on rank 1 failed cleanly; "
            "exiting with %d\n", EXIT_REPORTED);
    _exit(EXIT_REPORTED);
}
