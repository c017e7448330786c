/*
 * p2p_procnull: MPI_PROC_NULL and zero-byte messages.
 * Every send mode to MPI_PROC_NULL succeeds at once; every receive from it
 * completes at once with source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0 and
 * the buffer untouched (nonblocking receives: p2p_procnull_nb). Zero-count messages (NULL buffer) between ranks carry
 * their tag and source, report count 0, and keep their order with non-empty
 * messages.
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int buf[4] = { 1, 2, 3, 4 };
    MPI_Request r;
    MPI_Status st;
    int flag;

    MT_OK(MPI_Send(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
    MT_OK(MPI_Ssend(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
    MT_OK(MPI_Rsend(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
    MT_OK(MPI_Bsend(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
    MT_OK(MPI_Isend(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r));
    MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    MT_OK(MPI_Issend(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r));
    flag = 0;
    while (!flag)
        MT_OK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));

    MT_OK(MPI_Recv(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st));
    MTest_Check_null_status(&st, "Recv(PROC_NULL)");
    MT_OK(MPI_Recv(buf, 4, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    MTest_Check_null_status(&st, "Recv(PROC_NULL, ANY_TAG)");
    MT_OK(MPI_Sendrecv(buf, 4, MPI_INT, MPI_PROC_NULL, 1, buf, 4, MPI_INT, MPI_PROC_NULL, 1,
                       MPI_COMM_WORLD, &st));
    MTest_Check_null_status(&st, "Sendrecv(PROC_NULL)");
    MT_CHECK(buf[0] == 1 && buf[1] == 2 && buf[2] == 3 && buf[3] == 4,
             "receive from PROC_NULL modified the buffer");
    MT_OK(MPI_Recv(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_SELF, &st));
    MTest_Check_null_status(&st, "Recv(PROC_NULL) on COMM_SELF");

    /* zero-byte messages around the ring, interleaved with 1-int messages */
    {
        int right = (MTest_rank + 1) % MTest_size;
        int left = (MTest_rank + MTest_size - 1) % MTest_size;
        MPI_Request req[8];
        int in[4] = { -1, -1, -1, -1 }, count;
        for (int i = 0; i < 4; i++) {
            if (i % 2)
                MT_OK(MPI_Irecv(&in[i], 1, MPI_INT, left, 5, MPI_COMM_WORLD, &req[i]));
            else
                MT_OK(MPI_Irecv(NULL, 0, MPI_INT, left, 5, MPI_COMM_WORLD, &req[i]));
        }
        for (int i = 0; i < 4; i++) {
            buf[i] = 100 * MTest_rank + i;
            MT_OK(MPI_Isend(i % 2 ? &buf[i] : NULL, i % 2, MPI_INT, right, 5, MPI_COMM_WORLD,
                            &req[4 + i]));
        }
        MPI_Status sts[8];
        MT_OK(MPI_Waitall(8, req, sts));
        for (int i = 0; i < 4; i++) {
            MPI_Get_count(&sts[i], MPI_INT, &count);
            MT_CHECK(count == i % 2 && sts[i].MPI_SOURCE == left && sts[i].MPI_TAG == 5,
                     "zero-byte ring message %d: count %d source %d tag %d", i, count,
                     sts[i].MPI_SOURCE, sts[i].MPI_TAG);
            if (i % 2)
                MT_CHECK(in[i] == 100 * left + i, "ring message %d: %d", i, in[i]);
        }
        /* blocking zero-byte Send / Ssend / Recv with ANY_TAG */
        MT_OK(MPI_Sendrecv(NULL, 0, MPI_BYTE, right, 6, NULL, 0, MPI_BYTE, left, MPI_ANY_TAG,
                           MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_BYTE, &count);
        MT_CHECK(count == 0 && st.MPI_TAG == 6 && st.MPI_SOURCE == left,
                 "zero-byte Sendrecv: count %d tag %d source %d", count, st.MPI_TAG,
                 st.MPI_SOURCE);
    }
    return MTest_Finalize();
}
