/*
 * p2p_sendrecv: MPI_Sendrecv and MPI_Sendrecv_replace around the ring (to
 * self at np 1) for sizes from 0 to 1 MiB, different send and receive tags
 * and counts; a chain (not a ring) where the ends talk to MPI_PROC_NULL;
 * Sendrecv with a receive buffer larger than the message.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

static const int counts[] = { 0, 1, 7, 4096, 262144 };   /* ints */
#define NCOUNTS 5

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int right = (MTest_rank + 1) % MTest_size;
    int left = (MTest_rank + MTest_size - 1) % MTest_size;
    int maxn = counts[NCOUNTS - 1];
    int *out = MTest_Malloc(maxn * sizeof(int)), *in = MTest_Malloc((maxn + 4) * sizeof(int));
    MPI_Status st;
    int count;

    for (int c = 0; c < NCOUNTS; c++) {
        int n = counts[c];
        MTest_Fill(out, n * sizeof(int), MTest_rank + 10 * c);
        memset(in, 0, (n + 4) * sizeof(int));
        /* send tag c to the right, receive tag c from the left; bigger receive buffer */
        MT_OK(MPI_Sendrecv(out, n, MPI_INT, right, c, in, n + 4, MPI_INT, left, c,
                           MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        MT_CHECK(count == n && st.MPI_SOURCE == left && st.MPI_TAG == c,
                 "Sendrecv %d ints: count %d source %d tag %d", n, count, st.MPI_SOURCE,
                 st.MPI_TAG);
        MTest_Verify(in, n * sizeof(int), left + 10 * c, "Sendrecv payload");

        /* the other direction, with MPI_ANY_SOURCE and MPI_STATUS_IGNORE (not
         * ANY_TAG: the left neighbour's next message may already be here) */
        memset(in, 0, n * sizeof(int));
        MT_OK(MPI_Sendrecv(out, n, MPI_INT, left, 100 + c, in, n, MPI_INT, MPI_ANY_SOURCE,
                           100 + c, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MTest_Verify(in, n * sizeof(int), right + 10 * c, "Sendrecv ANY_SOURCE payload");

        /* replace: the buffer goes right and comes back from the left */
        MTest_Fill(in, n * sizeof(int), MTest_rank + 10 * c + 5);
        MT_OK(MPI_Sendrecv_replace(in, n, MPI_INT, right, 200 + c, left, 200 + c,
                                   MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        MT_CHECK(count == n && st.MPI_SOURCE == left && st.MPI_TAG == 200 + c,
                 "Sendrecv_replace %d ints: count %d source %d tag %d", n, count,
                 st.MPI_SOURCE, st.MPI_TAG);
        MTest_Verify(in, n * sizeof(int), left + 10 * c + 5, "Sendrecv_replace payload");
    }

    /* chain: rank 0 has no left, the last rank no right */
    {
        int cl = MTest_rank == 0 ? MPI_PROC_NULL : MTest_rank - 1;
        int cr = MTest_rank == MTest_size - 1 ? MPI_PROC_NULL : MTest_rank + 1;
        int v = MTest_rank, w = -7;
        MT_OK(MPI_Sendrecv(&v, 1, MPI_INT, cr, 300, &w, 1, MPI_INT, cl, 300, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        if (cl == MPI_PROC_NULL)
            MT_CHECK(w == -7 && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG &&
                     count == 0, "chain end: value %d source %d tag %d count %d", w,
                     st.MPI_SOURCE, st.MPI_TAG, count);
        else
            MT_CHECK(w == cl && st.MPI_SOURCE == cl && count == 1, "chain: value %d source %d",
                     w, st.MPI_SOURCE);
        v = MTest_rank;
        MT_OK(MPI_Sendrecv_replace(&v, 1, MPI_INT, cl, 301, cr, 301, MPI_COMM_WORLD, &st));
        if (cr == MPI_PROC_NULL)
            MT_CHECK(v == MTest_rank && st.MPI_SOURCE == MPI_PROC_NULL,
                     "Sendrecv_replace chain end: value %d source %d", v, st.MPI_SOURCE);
        else
            MT_CHECK(v == cr, "Sendrecv_replace chain: value %d, expected %d", v, cr);
    }
    free(out);
    free(in);
    return MTest_Finalize();
}
