/*
 * comm_isolation: messages on different communicators never match each
 * other, even with the same source, destination and tag. Each rank sends its
 * right neighbour a message on COMM_WORLD, on a dup and on a split (all tag
 * 1, different values); the receiver takes them in the opposite order, with
 * ANY_SOURCE/ANY_TAG on the dup. Then the same on COMM_SELF vs COMM_WORLD to
 * oneself.
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int right = (MTest_rank + 1) % MTest_size;
    int left = (MTest_rank + MTest_size - 1) % MTest_size;
    MPI_Comm dup, split;
    MPI_Request r[3];
    int v[3], w[3] = { -1, -1, -1 };
    MPI_Status st;

    MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, 0, MTest_rank, &split));

    for (int it = 0; it < 5; it++) {
        v[0] = 1000 + MTest_rank + it;
        v[1] = 2000 + MTest_rank + it;
        v[2] = 3000 + MTest_rank + it;
        MT_OK(MPI_Isend(&v[0], 1, MPI_INT, right, 1, MPI_COMM_WORLD, &r[0]));
        MT_OK(MPI_Isend(&v[1], 1, MPI_INT, right, 1, dup, &r[1]));
        MT_OK(MPI_Isend(&v[2], 1, MPI_INT, right, 1, split, &r[2]));
        MT_OK(MPI_Recv(&w[2], 1, MPI_INT, left, 1, split, MPI_STATUS_IGNORE));
        MT_OK(MPI_Recv(&w[1], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &st));
        MT_OK(MPI_Recv(&w[0], 1, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK(w[0] == 1000 + left + it && w[1] == 2000 + left + it &&
                 w[2] == 3000 + left + it && st.MPI_SOURCE == left,
                 "iteration %d: world %d dup %d split %d (dup source %d)", it, w[0], w[1],
                 w[2], st.MPI_SOURCE);
        MT_OK(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
    }

    /* a posted ANY receive on the dup is not matched by a world message */
    {
        int flag;
        w[0] = w[1] = -1;
        MPI_Request rr;
        MT_OK(MPI_Irecv(&w[1], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &rr));
        v[0] = 7;
        MT_OK(MPI_Isend(&v[0], 1, MPI_INT, MTest_rank, 2, MPI_COMM_WORLD, &r[0]));
        MT_OK(MPI_Recv(&w[0], 1, MPI_INT, MTest_rank, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
        MT_OK(MPI_Test(&rr, &flag, MPI_STATUS_IGNORE));
        MT_CHECK(!flag && w[0] == 7, "dup receive matched a world message (flag %d)", flag);
        v[1] = 8;
        MT_OK(MPI_Send(&v[1], 1, MPI_INT, MTest_rank, 3, dup));
        MT_OK(MPI_Wait(&rr, MPI_STATUS_IGNORE));
        MT_CHECK(w[1] == 8, "dup receive got %d", w[1]);
    }

    /* COMM_SELF vs COMM_WORLD to oneself */
    v[0] = 10;
    v[1] = 20;
    MT_OK(MPI_Isend(&v[0], 1, MPI_INT, MTest_rank, 4, MPI_COMM_WORLD, &r[0]));
    MT_OK(MPI_Isend(&v[1], 1, MPI_INT, 0, 4, MPI_COMM_SELF, &r[1]));
    MT_OK(MPI_Recv(&w[1], 1, MPI_INT, 0, 4, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    MT_OK(MPI_Recv(&w[0], 1, MPI_INT, MTest_rank, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MT_CHECK(w[0] == 10 && w[1] == 20, "world %d self %d", w[0], w[1]);
    MT_OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));

    MT_OK(MPI_Comm_free(&dup));
    MT_OK(MPI_Comm_free(&split));
    return MTest_Finalize();
}
