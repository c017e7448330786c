/*
 * err_rank: invalid ranks give MPI_ERR_RANK with MPI_ERRORS_RETURN:
 * destination = size, size+5, -5, MPI_ANY_SOURCE (not valid for sends);
 * source = size, -5 for receives and probes; on COMM_WORLD and COMM_SELF.
 * Communication continues correctly and nothing stray arrives.
 */
#include "err_common.h"

static void try(MPI_Comm comm, const char *cname)
{
    int size, v = 1, x;
    MPI_Request r;
    char what[256];

    MPI_Comm_size(comm, &size);
    int dests[] = { size, size + 5, -5, MPI_ANY_SOURCE };
    int srcs[] = { size, -5 };
    for (int i = 0; i < 4; i++) {
        int d = dests[i];
#define T(call) do { snprintf(what, sizeof what, "%s, rank %d, %s", #call, d, cname); \
                     MT_ERRCLASS(call, MPI_ERR_RANK, what); } while (0)
        T(MPI_Send(&v, 1, MPI_INT, d, 0, comm));
        T(MPI_Ssend(&v, 1, MPI_INT, d, 0, comm));
        T(MPI_Rsend(&v, 1, MPI_INT, d, 0, comm));
        T(MPI_Isend(&v, 1, MPI_INT, d, 0, comm, &r));
        T(MPI_Send_init(&v, 1, MPI_INT, d, 0, comm, &r));
        T(MPI_Sendrecv(&v, 1, MPI_INT, d, 0, &x, 1, MPI_INT, 0, 0, comm, MPI_STATUS_IGNORE));
    }
    for (int i = 0; i < 2; i++) {
        int d = srcs[i];
        T(MPI_Recv(&x, 1, MPI_INT, d, 0, comm, MPI_STATUS_IGNORE));
        T(MPI_Irecv(&x, 1, MPI_INT, d, 0, comm, &r));
        T(MPI_Probe(d, 0, comm, MPI_STATUS_IGNORE));
        T(MPI_Iprobe(d, 0, comm, &x, MPI_STATUS_IGNORE));
#undef T
    }
    MTest_Check_comm_works(comm, "invalid ranks");
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    errors_return();
    try(MPI_COMM_WORLD, "COMM_WORLD");
    try(MPI_COMM_SELF, "COMM_SELF");
    MTest_Check_comm_works(MPI_COMM_WORLD, "invalid ranks");
    return MTest_Finalize();
}
