/*
 * p2p_anysrc: MPI_ANY_SOURCE and MPI_ANY_TAG.
 * Ring exchanges received with ANY_SOURCE (status names the left neighbour);
 * all-to-one rounds where rank 0 receives from ANY_SOURCE/ANY_TAG and every
 * rank appears exactly once per round with tag == its rank; ANY_SOURCE with a
 * specific tag skips messages with other tags; posted-receive order: an
 * ANY_SOURCE receive posted before a specific-source receive with the same
 * tag takes the first message.
 */
#include "mtest.h"

#include <stdlib.h>

#define ROUNDS 20

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int right = (MTest_rank + 1) % MTest_size;
    int left = (MTest_rank + MTest_size - 1) % MTest_size;
    MPI_Status st;
    int v, w;

    for (int it = 0; it < ROUNDS; it++) {
        MPI_Request r;
        v = MTest_rank * 100 + it;
        MT_OK(MPI_Irecv(&w, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &r));
        MT_OK(MPI_Send(&v, 1, MPI_INT, right, 1, MPI_COMM_WORLD));
        MT_OK(MPI_Wait(&r, &st));
        MT_CHECK(st.MPI_SOURCE == left && w == left * 100 + it,
                 "ANY_SOURCE ring round %d: source %d value %d", it, st.MPI_SOURCE, w);
    }

    /* all to one */
    int *seen = calloc(MTest_size, sizeof(int));
    for (int it = 0; it < ROUNDS; it++) {
        MPI_Request r;
        v = MTest_rank * 100 + it;
        MT_OK(MPI_Isend(&v, 1, MPI_INT, 0, 10 + MTest_rank, MPI_COMM_WORLD, &r));
        if (MTest_rank == 0) {
            for (int i = 0; i < MTest_size; i++)
                seen[i] = 0;
            for (int i = 0; i < MTest_size; i++) {
                MT_OK(MPI_Recv(&w, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
                int s = st.MPI_SOURCE;
                if (s < 0 || s >= MTest_size || st.MPI_TAG != 10 + s || w != s * 100 + it ||
                    seen[s]++) {
                    MT_FAIL("all-to-one round %d: source %d tag %d value %d (seen %d)", it, s,
                            st.MPI_TAG, w, s >= 0 && s < MTest_size ? seen[s] : -1);
                    break;
                }
            }
        }
        MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        /* keep rounds apart so a round's ANY_TAG receives see only its messages */
        if (MTest_rank == 0)
            for (int i = 1; i < MTest_size; i++)
                MT_OK(MPI_Send(NULL, 0, MPI_INT, i, 2, MPI_COMM_WORLD));
        else
            MT_OK(MPI_Recv(NULL, 0, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    free(seen);

    /* ANY_SOURCE with a specific tag: tag 200 messages first, then tag 100 */
    {
        MPI_Request r[2];
        int a = MTest_rank, b = MTest_rank + 1000;
        MT_OK(MPI_Isend(&a, 1, MPI_INT, 0, 100, MPI_COMM_WORLD, &r[0]));
        MT_OK(MPI_Isend(&b, 1, MPI_INT, 0, 200, MPI_COMM_WORLD, &r[1]));
        if (MTest_rank == 0) {
            for (int i = 0; i < MTest_size; i++) {
                MT_OK(MPI_Recv(&w, 1, MPI_INT, MPI_ANY_SOURCE, 200, MPI_COMM_WORLD, &st));
                MT_CHECK(st.MPI_TAG == 200 && w == st.MPI_SOURCE + 1000,
                         "ANY_SOURCE tag 200: tag %d value %d", st.MPI_TAG, w);
            }
            for (int i = 0; i < MTest_size; i++) {
                MT_OK(MPI_Recv(&w, 1, MPI_INT, MPI_ANY_SOURCE, 100, MPI_COMM_WORLD, &st));
                MT_CHECK(st.MPI_TAG == 100 && w == st.MPI_SOURCE,
                         "ANY_SOURCE tag 100: tag %d value %d", st.MPI_TAG, w);
            }
        }
        MT_OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    }

    /* posted order: ANY_SOURCE receive first, then a receive for the left neighbour */
    {
        MPI_Request r[2];
        int x = -1, y = -1, go = 0, gone = -1;
        MT_OK(MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 300, MPI_COMM_WORLD, &r[0]));
        MT_OK(MPI_Irecv(&y, 1, MPI_INT, left, 300, MPI_COMM_WORLD, &r[1]));
        /* tell the left neighbour our receives are posted; wait for the right one */
        MT_OK(MPI_Sendrecv(&go, 1, MPI_INT, left, 301, &gone, 1, MPI_INT, right, 301,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        v = 1;
        MT_OK(MPI_Send(&v, 1, MPI_INT, right, 300, MPI_COMM_WORLD));
        v = 2;
        MT_OK(MPI_Send(&v, 1, MPI_INT, right, 300, MPI_COMM_WORLD));
        MT_OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
        MT_CHECK(x == 1 && y == 2, "posted order: ANY_SOURCE receive got %d, specific got %d, "
                 "expected 1 and 2", x, y);
    }
    return MTest_Finalize();
}
