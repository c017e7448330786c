/* Ping-pong between ranks 0 and 1: half round-trip latency of small
 * messages and bandwidth of large ones. bench/ has the full benchmarks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double pingpong(char *buf, int n, int iters, int rank)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        if (rank == 0) {
            MPI_Send(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t0) / (2.0 * iters);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        if (rank == 0)
            fprintf(stderr, "pingpong needs at least 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    const int big = 1 << 22;
    char *buf = malloc(big);
    memset(buf, 1, big);
    pingpong(buf, 8, 1000, rank); /* warm-up */
    double lat = pingpong(buf, 8, 20000, rank);
    double t = pingpong(buf, big, 50, rank);
    if (rank == 0) {
        printf("pingpong: 8-byte latency %.2f us\n", lat * 1e6);
        printf("pingpong: 4 MiB bandwidth %.0f MB/s\n", big / t / 1e6);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
