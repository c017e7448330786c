/*
 * bsend_reuse: the space of delivered buffered sends is reused. The
 * attached buffer holds exactly ROUND messages (with MPI_BSEND_OVERHEAD
 * each); rank 0 sends ROUND messages per round to rank 1 for several
 * rounds, with a barrier between rounds so that every message of the last
 * round was delivered. Each round must find the whole buffer free again,
 * for small (eager) and large messages, with MPI_Bsend and MPI_Ibsend.
 */
#include "mtest.h"

#include <stdlib.h>

#define ROUND 16
#define ROUNDS 4

static void run(int count, int nonblocking)
{
    int size = ROUND * (count * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    char *attached = malloc(size);
    int *buf = malloc(count * sizeof(int));
    MT_OK(MPI_Buffer_attach(attached, size));
    for (int round = 0; round < ROUNDS; round++) {
        for (int m = 0; m < ROUND; m++) {
            if (MTest_rank == 0) {
                for (int i = 0; i < count; i++)
                    buf[i] = round * 1000 + m + i;
                if (nonblocking) {
                    MPI_Request r;
                    MT_OK(MPI_Ibsend(buf, count, MPI_INT, 1, m, MPI_COMM_WORLD, &r));
                    MT_OK(MPI_Request_free(&r));
                } else {
                    MT_OK(MPI_Bsend(buf, count, MPI_INT, 1, m, MPI_COMM_WORLD));
                }
            } else if (MTest_rank == 1) {
                MT_OK(MPI_Recv(buf, count, MPI_INT, 0, m, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                MT_CHECK(buf[0] == round * 1000 + m && buf[count - 1] == round * 1000 + m +
                                                                              count - 1,
                         "count %d round %d message %d: got %d", count, round, m, buf[0]);
            }
        }
        MT_OK(MPI_Barrier(MPI_COMM_WORLD));
    }
    void *back;
    int backsize;
    MT_OK(MPI_Buffer_detach(&back, &backsize));
    MT_CHECK(back == attached && backsize == size, "detach gave %p/%d", back, backsize);
    free(attached);
    free(buf);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    MT_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    run(1, 0);
    run(1, 1);
    run(64 * 1024, 0);
    run(64 * 1024, 1);
    return MTest_Finalize();
}
