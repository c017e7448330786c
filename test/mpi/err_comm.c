/*
 * err_comm: invalid communicators give MPI_ERR_COMM with MPI_ERRORS_RETURN:
 * MPI_COMM_NULL and a garbage handle in Send, Recv, Isend, Irecv, Probe,
 * Sendrecv, Comm_rank, Comm_size, Comm_dup, Barrier; a freed communicator
 * handle (MPI_COMM_NULL after Comm_free). Communication continues correctly.
 */
#include "err_common.h"

static void try(MPI_Comm bad, const char *name)
{
    int v = 1, x;
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Comm c;
    char what[256];

#define T(call) do { snprintf(what, sizeof what, "%s on %s", #call, name); \
                     MT_ERRCLASS(call, MPI_ERR_COMM, what); } while (0)
    T(MPI_Send(&v, 1, MPI_INT, 0, 0, bad));
    T(MPI_Ssend(&v, 1, MPI_INT, 0, 0, bad));
    T(MPI_Recv(&v, 1, MPI_INT, 0, 0, bad, MPI_STATUS_IGNORE));
    T(MPI_Isend(&v, 1, MPI_INT, 0, 0, bad, &r));
    T(MPI_Irecv(&v, 1, MPI_INT, 0, 0, bad, &r));
    T(MPI_Probe(0, 0, bad, MPI_STATUS_IGNORE));
    T(MPI_Iprobe(0, 0, bad, &x, MPI_STATUS_IGNORE));
    T(MPI_Sendrecv(&v, 1, MPI_INT, 0, 0, &x, 1, MPI_INT, 0, 0, bad, MPI_STATUS_IGNORE));
    T(MPI_Comm_rank(bad, &x));
    T(MPI_Comm_size(bad, &x));
    T(MPI_Comm_dup(bad, &c));
    T(MPI_Barrier(bad));
#undef T
    MTest_Check_comm_works(MPI_COMM_WORLD, name);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    errors_return();
    try(MPI_COMM_NULL, "MPI_COMM_NULL");
#if GARBAGE_HANDLES
    try((MPI_Comm)GARBAGE_INT, "a garbage handle");
#endif
    {
        MPI_Comm d;
        MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
        MT_OK(MPI_Comm_free(&d));
        try(d, "a freed communicator");
    }
    MTest_Check_comm_works(MPI_COMM_SELF, "invalid communicators");
    return MTest_Finalize();
}
