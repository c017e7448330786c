/*
 * err_type: invalid datatypes give MPI_ERR_TYPE with MPI_ERRORS_RETURN:
 * MPI_DATATYPE_NULL, a garbage handle, and an uncommitted derived type, in
 * Send, Isend, Recv, Irecv, Sendrecv and Get_count. Communication continues.
 */
#include "err_common.h"

static void try(MPI_Datatype t, const char *name)
{
    int v[4] = { 1, 2, 3, 4 }, x[4];
    MPI_Request r;
    MPI_Status st;
    int right = (MTest_rank + 1) % MTest_size;
    char what[256];

#define T(call) do { snprintf(what, sizeof what, "%s with %s", #call, name); \
                     MT_ERRCLASS(call, MPI_ERR_TYPE, what); } while (0)
    T(MPI_Send(v, 1, t, right, 0, MPI_COMM_WORLD));
    T(MPI_Isend(v, 1, t, right, 0, MPI_COMM_WORLD, &r));
    T(MPI_Recv(x, 1, t, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    T(MPI_Irecv(x, 1, t, right, 0, MPI_COMM_WORLD, &r));
    T(MPI_Sendrecv(v, 1, t, right, 0, x, 1, MPI_INT, right, 0, MPI_COMM_WORLD, &st));
#undef T
    MTest_Check_comm_works(MPI_COMM_WORLD, name);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    errors_return();
    try(MPI_DATATYPE_NULL, "MPI_DATATYPE_NULL");
#if GARBAGE_HANDLES
    try((MPI_Datatype)GARBAGE_INT, "a garbage handle");
#endif
    {
        MPI_Datatype t;
        MT_OK(MPI_Type_contiguous(2, MPI_INT, &t));
        try(t, "an uncommitted type");
        MT_OK(MPI_Type_free(&t));
    }
    return MTest_Finalize();
}
