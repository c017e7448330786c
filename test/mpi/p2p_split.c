/*
 * p2p_split: the two kinds of rendezvous rdmpi's receiver chooses between
 * (doc/architecture.md, Protocols), in one run between ranks 0 and 1:
 *   1. one way, 0 to 1: rank 1 sends nothing of its own, so a split
 *      (receiver reads half, sender writes half) is allowed;
 *   2. a halo exchange, each rank's MPI_Isend posted before its MPI_Irecv:
 *      each rank has a rendezvous send of its own to the other under way
 *      when the other's arrives, so both read it whole;
 *   3. one way again, after the exchange is complete.
 * Every message is checked here. Which path each took is checked by
 * test/launcher/spin.sh through the RDMPI_VERBOSE report at MPI_Finalize
 * (rank 1: 3 whole, 6 split when the ranks have a CPU each; all whole when
 * they share one). Other ranks only join the barriers.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

#define LEN (64 * 1024)
#define N 3

static void fill(unsigned char *b, int phase, int i, int from)
{
    for (size_t j = 0; j < LEN; j++)
        b[j] = (unsigned char)(phase * 37 + i * 11 + from * 101 + (int)j);
}

static void check(const unsigned char *b, int phase, int i, int from)
{
    for (size_t j = 0; j < LEN; j++)
        if (b[j] != (unsigned char)(phase * 37 + i * 11 + from * 101 + (int)j)) {
            MT_FAIL("phase %d message %d from %d: byte %zu differs", phase, i, from, j);
            return;
        }
}

/* Phases 1 and 3: N messages from rank 0 to rank 1. */
static void one_way(int rank, int phase, unsigned char *sb, unsigned char *rb)
{
    for (int i = 0; i < N; i++) {
        if (rank == 0) {
            fill(sb, phase, i, 0);
            MT_OK(MPI_Send(sb, LEN, MPI_BYTE, 1, phase, MPI_COMM_WORLD));
        } else if (rank == 1) {
            memset(rb, 0, LEN);
            MT_OK(MPI_Recv(rb, LEN, MPI_BYTE, 0, phase, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            check(rb, phase, i, 0);
        }
    }
}

int main(int argc, char **argv)
{
    int rank;
    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MTest_Need_ranks(2);
    unsigned char *sb = malloc(LEN), *rb = malloc(LEN);
    MT_CHECK(sb && rb, "out of memory");

    one_way(rank, 1, sb, rb);
    MT_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank < 2) {
        int other = 1 - rank;
        for (int i = 0; i < N; i++) {
            MPI_Request req[2];
            fill(sb, 2, i, rank);
            memset(rb, 0, LEN);
            MT_OK(MPI_Isend(sb, LEN, MPI_BYTE, other, 2, MPI_COMM_WORLD, &req[0]));
            MT_OK(MPI_Irecv(rb, LEN, MPI_BYTE, other, 2, MPI_COMM_WORLD, &req[1]));
            MT_OK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
            check(rb, 2, i, other);
        }
    }
    MT_OK(MPI_Barrier(MPI_COMM_WORLD));
    one_way(rank, 3, sb, rb);

    free(sb);
    free(rb);
    return MTest_Finalize();
}
