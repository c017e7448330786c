/*
 * p2p_cancel: cancelling receives and freeing requests.
 * An Irecv (specific source, and MPI_ANY_SOURCE) that nothing matches is
 * cancelled: Wait completes it, Test_cancelled is true, and a later message
 * with that tag goes to a new receive, not the cancelled one. A receive that
 * already completed cannot be cancelled (Test_cancelled false, data intact).
 * A cancelled persistent receive can be started again. Request_free of an
 * active Isend still delivers the message; Request_free of an active Irecv
 * followed by the matching send does not disturb later messages.
 */
#include "mtest.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int right = (MTest_rank + 1) % MTest_size;
    int left = (MTest_rank + MTest_size - 1) % MTest_size;
    MPI_Request r;
    MPI_Status st;
    int flag, v, w, count;

    /* cancel unmatched receives */
    for (int k = 0; k < 2; k++) {
        int src = k ? MPI_ANY_SOURCE : 0;
        v = -1;
        MT_OK(MPI_Irecv(&v, 1, MPI_INT, src, 7, MPI_COMM_SELF, &r));
        MT_OK(MPI_Cancel(&r));
        MT_OK(MPI_Wait(&r, &st));
        flag = 0;
        MT_OK(MPI_Test_cancelled(&st, &flag));
        MT_CHECK(flag, "Test_cancelled on a cancelled %s receive: %d",
                 k ? "ANY_SOURCE" : "specific", flag);
        MT_CHECK(r == MPI_REQUEST_NULL, "cancelled request not freed by Wait");
        /* the next message with tag 7 goes to a new receive */
        w = 42 + k;
        MT_OK(MPI_Sendrecv(&w, 1, MPI_INT, 0, 7, &v, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &st));
        MT_CHECK(v == 42 + k, "receive after cancel got %d, expected %d", v, 42 + k);
    }

    /* cancel with Test instead of Wait */
    MT_OK(MPI_Irecv(&v, 1, MPI_INT, 0, 8, MPI_COMM_SELF, &r));
    MT_OK(MPI_Cancel(&r));
    flag = 0;
    while (!flag)
        MT_OK(MPI_Test(&r, &flag, &st));
    MT_OK(MPI_Test_cancelled(&st, &flag));
    MT_CHECK(flag, "Test_cancelled after Test: %d", flag);

    /* a receive that completed is not cancelled */
    w = 99;
    v = -1;
    MT_OK(MPI_Irecv(&v, 1, MPI_INT, 0, 9, MPI_COMM_SELF, &r));
    MT_OK(MPI_Send(&w, 1, MPI_INT, 0, 9, MPI_COMM_SELF));
    flag = 0;
    while (!flag)
        MT_OK(MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE));
    MT_OK(MPI_Cancel(&r));
    MT_OK(MPI_Wait(&r, &st));
    MT_OK(MPI_Test_cancelled(&st, &flag));
    MT_CHECK(!flag && v == 99, "cancel after completion: cancelled %d value %d", flag, v);
    MPI_Get_count(&st, MPI_INT, &count);
    MT_CHECK(count == 1 && st.MPI_TAG == 9, "cancel after completion: count %d tag %d",
             count, st.MPI_TAG);

    /* a normally completed receive reports not cancelled */
    MT_OK(MPI_Sendrecv(&w, 1, MPI_INT, right, 10, &v, 1, MPI_INT, left, 10, MPI_COMM_WORLD, &st));
    flag = 1;
    MT_OK(MPI_Test_cancelled(&st, &flag));
    MT_CHECK(!flag, "Test_cancelled on an ordinary receive: %d", flag);

    /* persistent receive: cancel, then start again and receive */
    MT_OK(MPI_Recv_init(&v, 1, MPI_INT, 0, 11, MPI_COMM_SELF, &r));
    MT_OK(MPI_Start(&r));
    MT_OK(MPI_Cancel(&r));
    MT_OK(MPI_Wait(&r, &st));
    MT_OK(MPI_Test_cancelled(&st, &flag));
    MT_CHECK(flag && r != MPI_REQUEST_NULL, "persistent cancel: cancelled %d", flag);
    MT_OK(MPI_Start(&r));
    w = 123;
    MT_OK(MPI_Send(&w, 1, MPI_INT, 0, 11, MPI_COMM_SELF));
    MT_OK(MPI_Wait(&r, &st));
    MT_OK(MPI_Test_cancelled(&st, &flag));
    MT_CHECK(!flag && v == 123, "persistent restart after cancel: cancelled %d value %d",
             flag, v);
    MT_OK(MPI_Request_free(&r));
    MT_CHECK(r == MPI_REQUEST_NULL, "Request_free did not set MPI_REQUEST_NULL");

    /* Request_free of an active send: the message is still delivered */
    {
        static int big[100000];
        for (int i = 0; i < 100000; i++)
            big[i] = MTest_rank + i;
        for (int k = 0; k < 2; k++) {
            int n = k ? 100000 : 1;
            MT_OK(MPI_Isend(big, n, MPI_INT, right, 12, MPI_COMM_WORLD, &r));
            MT_OK(MPI_Request_free(&r));
            MT_CHECK(r == MPI_REQUEST_NULL, "Request_free of Isend: handle not null");
            int *in = MTest_Malloc(n * sizeof(int));
            MT_OK(MPI_Recv(in, n, MPI_INT, left, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            for (int i = 0; i < n; i++)
                if (in[i] != left + i) {
                    MT_FAIL("freed Isend of %d: element %d is %d", n, i, in[i]);
                    break;
                }
            free(in);
            /* the freed send buffer may be reused only once we know it was
             * received: the receiver tells us */
            MT_OK(MPI_Sendrecv(NULL, 0, MPI_INT, left, 13, NULL, 0, MPI_INT, right, 13,
                               MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        }
    }
    return MTest_Finalize();
}
