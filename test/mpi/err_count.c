/*
 * err_count: a negative count gives MPI_ERR_COUNT with MPI_ERRORS_RETURN in
 * Send, Ssend, Isend, Recv, Irecv, Sendrecv, Send_init, Recv_init.
 * Communication continues correctly.
 */
#include "err_common.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    errors_return();
    int v[2] = { 1, 2 }, x[2];
    MPI_Request r;
    int right = (MTest_rank + 1) % MTest_size;
    char what[256];

    for (int c = -1; c >= -2; c--) {
#define T(call) do { snprintf(what, sizeof what, "%s, count %d", #call, c); \
                     MT_ERRCLASS(call, MPI_ERR_COUNT, what); } while (0)
        T(MPI_Send(v, c, MPI_INT, right, 0, MPI_COMM_WORLD));
        T(MPI_Ssend(v, c, MPI_INT, right, 0, MPI_COMM_WORLD));
        T(MPI_Isend(v, c, MPI_INT, right, 0, MPI_COMM_WORLD, &r));
        T(MPI_Recv(x, c, MPI_INT, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        T(MPI_Irecv(x, c, MPI_INT, right, 0, MPI_COMM_WORLD, &r));
        T(MPI_Sendrecv(v, c, MPI_INT, right, 0, x, 1, MPI_INT, right, 0, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
        T(MPI_Send_init(v, c, MPI_INT, right, 0, MPI_COMM_WORLD, &r));
        T(MPI_Recv_init(x, c, MPI_INT, right, 0, MPI_COMM_WORLD, &r));
#undef T
    }
    MTest_Check_comm_works(MPI_COMM_WORLD, "negative counts");
    return MTest_Finalize();
}
