/*
 * p2p_getcount: MPI_Get_count / MPI_Get_elements / MPI_Get_elements_x.
 * Counts of a full and of a short receive, of a zero-byte message, from
 * a Probe status, and MPI_UNDEFINED when the received data is not a whole
 * number of the datatype (3 ints received with a 2-int contiguous type:
 * Get_count MPI_UNDEFINED, Get_elements 3).
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int right = (MTest_rank + 1) % MTest_size;
    int left = (MTest_rank + MTest_size - 1) % MTest_size;
    int out[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 }, in[10];
    MPI_Status st;
    MPI_Count cx;
    int count, elems;

    /* short message into a long buffer */
    MT_OK(MPI_Sendrecv(out, 6, MPI_INT, right, 1, in, 10, MPI_INT, left, 1, MPI_COMM_WORLD, &st));
    MT_OK(MPI_Get_count(&st, MPI_INT, &count));
    MT_OK(MPI_Get_elements(&st, MPI_INT, &elems));
    MT_OK(MPI_Get_elements_x(&st, MPI_INT, &cx));
    MT_CHECK(count == 6 && elems == 6 && cx == 6, "6 ints: count %d elements %d/%lld", count,
             elems, (long long)cx);
    MT_OK(MPI_Get_count(&st, MPI_BYTE, &count));
    MT_CHECK(count == 6 * (int)sizeof(int), "6 ints counted as bytes: %d", count);

    /* zero bytes */
    MT_OK(MPI_Sendrecv(out, 0, MPI_INT, right, 2, in, 10, MPI_INT, left, 2, MPI_COMM_WORLD, &st));
    MT_OK(MPI_Get_count(&st, MPI_INT, &count));
    MT_OK(MPI_Get_elements(&st, MPI_INT, &elems));
    MT_CHECK(count == 0 && elems == 0, "0 ints: count %d elements %d", count, elems);

    /* not a whole number of the type */
    {
        MPI_Datatype pair;
        MT_OK(MPI_Type_contiguous(2, MPI_INT, &pair));
        MT_OK(MPI_Type_commit(&pair));
        MT_OK(MPI_Sendrecv(out, 3, MPI_INT, right, 3, in, 5, pair, left, 3, MPI_COMM_WORLD, &st));
        MT_OK(MPI_Get_count(&st, pair, &count));
        MT_CHECK(count == MPI_UNDEFINED, "3 ints as 2-int pairs: Get_count %d, expected "
                 "MPI_UNDEFINED", count);
        MT_OK(MPI_Get_elements(&st, pair, &elems));
        MT_OK(MPI_Get_elements_x(&st, pair, &cx));
        MT_CHECK(elems == 3 && cx == 3, "3 ints as 2-int pairs: Get_elements %d/%lld, "
                 "expected 3", elems, (long long)cx);
        MT_OK(MPI_Get_count(&st, MPI_INT, &count));
        MT_CHECK(count == 3, "3 ints: Get_count(MPI_INT) %d", count);
        /* and 4 ints are 2 pairs */
        MT_OK(MPI_Sendrecv(out, 4, MPI_INT, right, 4, in, 5, pair, left, 4, MPI_COMM_WORLD, &st));
        MT_OK(MPI_Get_count(&st, pair, &count));
        MT_OK(MPI_Get_elements(&st, pair, &elems));
        MT_CHECK(count == 2 && elems == 4, "4 ints as pairs: count %d elements %d", count, elems);
        MT_OK(MPI_Type_free(&pair));
    }

    /* 5 bytes are not a whole number of shorts */
    {
        char b[5] = { 1, 2, 3, 4, 5 }, rb[8];
        MT_OK(MPI_Sendrecv(b, 5, MPI_BYTE, right, 5, rb, 8, MPI_BYTE, left, 5, MPI_COMM_WORLD, &st));
        MT_OK(MPI_Get_count(&st, MPI_BYTE, &count));
        MT_CHECK(count == 5, "5 bytes: count %d", count);
    }

    /* from a Probe */
    {
        MPI_Request r;
        MT_OK(MPI_Isend(out, 9, MPI_INT, right, 6, MPI_COMM_WORLD, &r));
        MT_OK(MPI_Probe(left, 6, MPI_COMM_WORLD, &st));
        MT_OK(MPI_Get_count(&st, MPI_INT, &count));
        MT_CHECK(count == 9, "Probe: count %d", count);
        MT_OK(MPI_Recv(in, count, MPI_INT, left, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    return MTest_Finalize();
}
