/*
 * A rank for the transport-choice tests of mpirun (transports.sh): it
 * exchanges one message with each job rank named on its command line
 * ("all": every other rank), in order, with MPI_ERRORS_RETURN, and prints
 * per peer
 *   "reach <rank> <peer> ok"   or   "reach <rank> <peer> failed: <error string>"
 * so a test sees which pairs of ranks talk when RDMPI_TRANSPORTS differs
 * between them, and that a pair without a common transport fails at once.
 * Then every rank checks in with rank 0 and waits for its answer,
 * so that no rank reaches MPI_Finalize (which ends a job with an
 * unreachable pair) before all have printed. "mark=..." arguments (the
 * tests' process mark) are skipped.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One exchange with peer; prints how it went. Returns 0 when it worked. */
static int exchange(int rank, int peer)
{
    int out = rank, in = -1;
    /* The lower rank sends first, so a pair never waits on itself. */
    int rc = rank < peer ? MPI_Send(&out, 1, MPI_INT, peer, 7, MPI_COMM_WORLD) :
                           MPI_Recv(&in, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = rank < peer ? MPI_Recv(&in, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE) :
                           MPI_Send(&out, 1, MPI_INT, peer, 7, MPI_COMM_WORLD);
    if (rc == MPI_SUCCESS && in == peer) {
        printf("reach %d %d ok\n", rank, peer);
    } else {
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        if (rc == MPI_SUCCESS)
            snprintf(msg, sizeof(msg), "received %d", in);
        else
            MPI_Error_string(rc, msg, &len);
        printf("reach %d %d failed: %s\n", rank, peer, msg);
    }
    fflush(stdout);
    return rc != MPI_SUCCESS || in != peer;
}

int main(int argc, char **argv)
{
    int rank, size, failed = 0, token = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "mark=", 5) == 0)
            continue;
        if (strcmp(argv[i], "all") == 0) {
            for (int peer = 0; peer < size; peer++)
                if (peer != rank)
                    failed |= exchange(rank, peer);
        } else {
            failed |= exchange(rank, atoi(argv[i]));
        }
    }
    if (rank == 0) {
        for (int r = 1; r < size; r++)
            MPI_Recv(&token, 1, MPI_INT, r, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int r = 1; r < size; r++)
            MPI_Send(&token, 1, MPI_INT, r, 8, MPI_COMM_WORLD);
    } else if (MPI_Send(&token, 1, MPI_INT, 0, 8, MPI_COMM_WORLD) == MPI_SUCCESS) {
        MPI_Recv(&token, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return failed ? 2 : 0;
}
