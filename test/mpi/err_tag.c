/*
 * err_tag: invalid tags give MPI_ERR_TAG with MPI_ERRORS_RETURN: negative
 * send tags (-1, and MPI_ANY_TAG which is only for receives), a send tag
 * above the MPI_TAG_UB attribute, a negative receive tag other than
 * MPI_ANY_TAG. A send with tag MPI_TAG_UB itself works. Communication
 * continues correctly.
 */
#include "err_common.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    errors_return();
    int *ubp = NULL, flag = 0, ub, v = 1, x;
    MPI_Request r;
    char what[256];

    MT_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ubp, &flag));
    ub = flag && ubp ? *ubp : 32767;
    int bad[3] = { -1, MPI_ANY_TAG, ub };
    int nbad = ub < 2147483647 ? 3 : 2;
    if (nbad == 3)
        bad[2] = ub + 1;
    int right = (MTest_rank + 1) % MTest_size;

    for (int i = 0; i < nbad; i++) {
        int t = bad[i];
#define T(call) do { snprintf(what, sizeof what, "%s, tag %d", #call, t); \
                     MT_ERRCLASS(call, MPI_ERR_TAG, what); } while (0)
        T(MPI_Send(&v, 1, MPI_INT, right, t, MPI_COMM_WORLD));
        T(MPI_Ssend(&v, 1, MPI_INT, right, t, MPI_COMM_WORLD));
        T(MPI_Isend(&v, 1, MPI_INT, right, t, MPI_COMM_WORLD, &r));
        T(MPI_Bsend(&v, 1, MPI_INT, right, t, MPI_COMM_WORLD));
        T(MPI_Sendrecv(&v, 1, MPI_INT, right, t, &x, 1, MPI_INT, right, 0, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    }
    for (int t = -5; t > -7; t--) {
        T(MPI_Recv(&x, 1, MPI_INT, right, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        T(MPI_Irecv(&x, 1, MPI_INT, right, t, MPI_COMM_WORLD, &r));
        T(MPI_Iprobe(right, t, MPI_COMM_WORLD, &x, MPI_STATUS_IGNORE));
#undef T
    }
    MTest_Check_comm_works(MPI_COMM_WORLD, "invalid tags");

    /* the upper bound itself is a valid tag */
    {
        int left = (MTest_rank + MTest_size - 1) % MTest_size;
        MPI_Status st;
        x = -1;
        v = MTest_rank;
        MT_OK(MPI_Sendrecv(&v, 1, MPI_INT, right, ub, &x, 1, MPI_INT, left, ub, MPI_COMM_WORLD,
                           &st));
        MT_CHECK(x == left && st.MPI_TAG == ub, "tag MPI_TAG_UB (%d): value %d tag %d", ub, x,
                 st.MPI_TAG);
    }
    MTest_Check_comm_works(MPI_COMM_WORLD, "tag MPI_TAG_UB");
    return MTest_Finalize();
}
