/*
 * p2p_probe: Probe, Iprobe, Mprobe, Improbe, Mrecv, Imrecv.
 * Probe reports source, tag and count (0 B, small, 1 MiB) before the receive;
 * Iprobe for a tag nobody sends gives flag 0; Iprobe with ANY_SOURCE/ANY_TAG
 * eventually sees a message; a message matched by Mprobe is no longer seen by
 * Iprobe/Probe (they find the next one) and is received with Mrecv even
 * though a plain Recv was posted first; Improbe + Imrecv; probes of
 * MPI_PROC_NULL (flag 1, source PROC_NULL, MPI_MESSAGE_NO_PROC).
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

static const int sizes[] = { 0, 3, 262144 };   /* ints */

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int right = (MTest_rank + 1) % MTest_size;
    int left = (MTest_rank + MTest_size - 1) % MTest_size;
    int *out = MTest_Malloc(262144 * sizeof(int)), *in = MTest_Malloc(262144 * sizeof(int));
    MPI_Request sreq[4];
    MPI_Status st;
    int flag, count;

    /* Probe before receiving */
    for (int k = 0; k < 3; k++) {
        int n = sizes[k];
        MTest_Fill(out, n * sizeof(int), MTest_rank + k);
        MT_OK(MPI_Isend(out, n, MPI_INT, right, 20 + k, MPI_COMM_WORLD, &sreq[0]));
        MT_OK(MPI_Probe(left, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        MT_CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 20 + k && count == n,
                 "Probe: source %d tag %d count %d, expected %d %d %d", st.MPI_SOURCE,
                 st.MPI_TAG, count, left, 20 + k, n);
        /* probing again finds the same message */
        flag = 0;
        while (!flag)
            MT_OK(MPI_Iprobe(MPI_ANY_SOURCE, 20 + k, MPI_COMM_WORLD, &flag, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        MT_CHECK(st.MPI_SOURCE == left && count == n, "Iprobe: source %d count %d",
                 st.MPI_SOURCE, count);
        MT_OK(MPI_Recv(in, count, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st));
        MTest_Verify(in, n * sizeof(int), left + k, "received after Probe");
        MT_OK(MPI_Wait(&sreq[0], MPI_STATUS_IGNORE));
    }

    /* Iprobe for a tag nobody sends */
    flag = 1;
    MT_OK(MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    MT_CHECK(!flag, "Iprobe for an unused tag: flag %d", flag);

    /* Mprobe hides the matched message: A (1 int) then B (2 ints), same tag */
    {
        int a = 1000 + MTest_rank, b[2] = { 2000 + MTest_rank, 3000 + MTest_rank };
        int ra = -1, rb[2] = { -1, -1 };
        MPI_Message msg = MPI_MESSAGE_NULL;
        MPI_Request rreq;
        MT_OK(MPI_Isend(&a, 1, MPI_INT, right, 30, MPI_COMM_WORLD, &sreq[0]));
        MT_OK(MPI_Isend(b, 2, MPI_INT, right, 30, MPI_COMM_WORLD, &sreq[1]));
        MT_OK(MPI_Mprobe(left, 30, MPI_COMM_WORLD, &msg, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        MT_CHECK(msg != MPI_MESSAGE_NULL && count == 1 && st.MPI_SOURCE == left,
                 "Mprobe: count %d source %d", count, st.MPI_SOURCE);
        MT_OK(MPI_Probe(left, 30, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        MT_CHECK(count == 2, "Probe after Mprobe sees count %d, expected the second "
                 "message (2)", count);
        /* a receive posted now takes B, not the Mprobe'd A */
        MT_OK(MPI_Irecv(rb, 2, MPI_INT, left, 30, MPI_COMM_WORLD, &rreq));
        MT_OK(MPI_Mrecv(&ra, 1, MPI_INT, &msg, &st));
        MT_CHECK(msg == MPI_MESSAGE_NULL, "Mrecv did not set MPI_MESSAGE_NULL");
        MT_CHECK(ra == 1000 + left && st.MPI_TAG == 30, "Mrecv: value %d tag %d", ra, st.MPI_TAG);
        MT_OK(MPI_Wait(&rreq, &st));
        MT_CHECK(rb[0] == 2000 + left && rb[1] == 3000 + left, "receive after Mprobe: %d %d",
                 rb[0], rb[1]);
        MT_OK(MPI_Waitall(2, sreq, MPI_STATUSES_IGNORE));
    }

    /* Improbe + Imrecv, large message */
    {
        MPI_Message msg = MPI_MESSAGE_NULL;
        MPI_Request rreq;
        int n = 262144;
        MTest_Fill(out, n * sizeof(int), MTest_rank + 40);
        MT_OK(MPI_Isend(out, n, MPI_INT, right, 40, MPI_COMM_WORLD, &sreq[0]));
        flag = 0;
        while (!flag)
            /* not ANY_SOURCE with ANY_TAG: rank 0 could take another
             * rank's MTest_Finalize message */
            MT_OK(MPI_Improbe(MPI_ANY_SOURCE, 40, MPI_COMM_WORLD, &flag, &msg, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        MT_CHECK(count == n && st.MPI_SOURCE == left && st.MPI_TAG == 40,
                 "Improbe: count %d source %d tag %d", count, st.MPI_SOURCE, st.MPI_TAG);
        memset(in, 0, n * sizeof(int));
        MT_OK(MPI_Imrecv(in, count, MPI_INT, &msg, &rreq));
        MT_CHECK(msg == MPI_MESSAGE_NULL, "Imrecv did not set MPI_MESSAGE_NULL");
        MT_OK(MPI_Wait(&rreq, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        MT_CHECK(count == n, "Imrecv: count %d", count);
        MTest_Verify(in, n * sizeof(int), left + 40, "Imrecv payload");
        MT_OK(MPI_Wait(&sreq[0], MPI_STATUS_IGNORE));
    }

    /* MPI_PROC_NULL */
    {
        MPI_Message msg = MPI_MESSAGE_NULL;
        int v = 5;
        MT_OK(MPI_Probe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        MT_CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && count == 0,
                 "Probe(PROC_NULL): source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG, count);
        flag = 0;
        MT_OK(MPI_Iprobe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &flag, &st));
        MT_CHECK(flag && st.MPI_SOURCE == MPI_PROC_NULL, "Iprobe(PROC_NULL): flag %d source %d",
                 flag, st.MPI_SOURCE);
        MT_OK(MPI_Mprobe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &msg, &st));
        MT_CHECK(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL,
                 "Mprobe(PROC_NULL): message not MPI_MESSAGE_NO_PROC or source %d",
                 st.MPI_SOURCE);
        MT_OK(MPI_Mrecv(&v, 1, MPI_INT, &msg, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        MT_CHECK(v == 5 && msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL &&
                 count == 0, "Mrecv(MPI_MESSAGE_NO_PROC): value %d source %d count %d", v,
                 st.MPI_SOURCE, count);
        flag = 0;
        MT_OK(MPI_Improbe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &flag, &msg, &st));
        MT_CHECK(flag && msg == MPI_MESSAGE_NO_PROC, "Improbe(PROC_NULL): flag %d", flag);
        MPI_Request r;
        MT_OK(MPI_Imrecv(&v, 1, MPI_INT, &msg, &r));
        MT_OK(MPI_Wait(&r, &st));
        MT_CHECK(v == 5 && st.MPI_SOURCE == MPI_PROC_NULL, "Imrecv(NO_PROC): source %d",
                 st.MPI_SOURCE);
    }
    free(out);
    free(in);
    return MTest_Finalize();
}
