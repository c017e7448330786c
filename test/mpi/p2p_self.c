/*
 * p2p_self: messages to oneself, on COMM_WORLD (dest = own rank) and on
 * COMM_SELF: receive posted first or message first, blocking Sendrecv,
 * Issend completing only after the receive, Rsend after an Irecv, Bsend,
 * Probe, and a large (8 MiB + 5) nonblocking send to self in both orders.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

#define BIG (8 * 1024 * 1024 + 5)

static void on(MPI_Comm comm, int me, const char *cname)
{
    MPI_Request r[2];
    MPI_Status st;
    int v, w, flag, count;
    char what[64];

    /* message first (unexpected), then receive */
    v = 11;
    w = -1;
    MT_OK(MPI_Isend(&v, 1, MPI_INT, me, 1, comm, &r[0]));
    MT_OK(MPI_Recv(&w, 1, MPI_INT, me, 1, comm, &st));
    MT_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    MT_CHECK(w == 11 && st.MPI_SOURCE == me, "%s: unexpected self message %d source %d",
             cname, w, st.MPI_SOURCE);
    /* receive first */
    w = -1;
    /* ANY_TAG only on COMM_SELF: on COMM_WORLD, rank 0 could take another
     * rank's MTest_Finalize message */
    MT_OK(MPI_Irecv(&w, 1, MPI_INT, MPI_ANY_SOURCE, comm == MPI_COMM_SELF ? MPI_ANY_TAG : 2,
                    comm, &r[0]));
    MT_OK(MPI_Send(&v, 1, MPI_INT, me, 2, comm));
    MT_OK(MPI_Wait(&r[0], &st));
    MT_CHECK(w == 11 && st.MPI_TAG == 2 && st.MPI_SOURCE == me,
             "%s: posted self receive %d tag %d", cname, w, st.MPI_TAG);
    /* Sendrecv */
    w = -1;
    MT_OK(MPI_Sendrecv(&v, 1, MPI_INT, me, 3, &w, 1, MPI_INT, me, 3, comm, &st));
    MT_CHECK(w == 11, "%s: Sendrecv to self %d", cname, w);
    /* Issend completes only after the receive is posted */
    MT_OK(MPI_Issend(&v, 1, MPI_INT, me, 4, comm, &r[0]));
    flag = 1;
    MT_OK(MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE));
    MT_CHECK(!flag, "%s: Issend to self completed with no receive posted", cname);
    MT_OK(MPI_Probe(me, 4, comm, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    MT_CHECK(count == 1 && st.MPI_SOURCE == me, "%s: Probe of self message: count %d", cname,
             count);
    MT_OK(MPI_Recv(&w, 1, MPI_INT, me, 4, comm, MPI_STATUS_IGNORE));
    MT_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    /* Rsend after Irecv */
    w = -1;
    MT_OK(MPI_Irecv(&w, 1, MPI_INT, me, 5, comm, &r[0]));
    MT_OK(MPI_Rsend(&v, 1, MPI_INT, me, 5, comm));
    MT_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    MT_CHECK(w == 11, "%s: Rsend to self %d", cname, w);

    /* big, both orders */
    char *out = MTest_Malloc(BIG), *in = MTest_Malloc(BIG);
    MTest_Fill(out, BIG, 9);
    for (int order = 0; order < 2; order++) {
        memset(in, 0, BIG);
        if (order == 0) {
            MT_OK(MPI_Isend(out, BIG, MPI_BYTE, me, 6, comm, &r[0]));
            MT_OK(MPI_Irecv(in, BIG, MPI_BYTE, me, 6, comm, &r[1]));
        } else {
            MT_OK(MPI_Irecv(in, BIG, MPI_BYTE, me, 6, comm, &r[1]));
            MT_OK(MPI_Isend(out, BIG, MPI_BYTE, me, 6, comm, &r[0]));
        }
        MPI_Status sts[2];
        MT_OK(MPI_Waitall(2, r, sts));
        MPI_Get_count(&sts[1], MPI_BYTE, &count);
        MT_CHECK(count == BIG, "%s: big self message count %d", cname, count);
        snprintf(what, sizeof what, "%s: big self message, order %d", cname, order);
        MTest_Verify(in, BIG, 9, what);
    }
    free(out);
    free(in);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    on(MPI_COMM_WORLD, MTest_rank, "COMM_WORLD");
    on(MPI_COMM_SELF, 0, "COMM_SELF");

    /* Bsend to self */
    {
        int psize, v = 77, w = -1;
        void *det;
        MT_OK(MPI_Pack_size(1, MPI_INT, MPI_COMM_SELF, &psize));
        int bsize = psize + MPI_BSEND_OVERHEAD;
        char *bbuf = MTest_Malloc(bsize);
        MT_OK(MPI_Buffer_attach(bbuf, bsize));
        MT_OK(MPI_Bsend(&v, 1, MPI_INT, MTest_rank, 7, MPI_COMM_WORLD));
        MT_OK(MPI_Recv(&w, 1, MPI_INT, MTest_rank, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK(w == 77, "Bsend to self: %d", w);
        MT_OK(MPI_Buffer_detach(&det, &bsize));
        free(bbuf);
    }
    return MTest_Finalize();
}
