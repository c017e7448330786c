/*
 * coll_err: argument errors of the collectives return the right class with
 * MPI_ERRORS_RETURN, and the communicator works afterwards. Every rank makes
 * the same erroneous call, so none is left waiting in a collective.
 */
#include "err_common.h"

#include <stdlib.h>

/* Checks MPICH 4.0.2 (as Debian builds it) does not make: negative
 * reduction counts pass, an uncommitted type with MPI_SUM is reported as
 * MPI_ERR_OP, and an aliased Allgather is an error on some ranks only (then
 * hangs). rdmpi only. */
#ifdef RDMPI
#define STRICT 1
#else
#define STRICT 0
#endif

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    errors_return();
    MPI_Comm w = MPI_COMM_WORLD;
    int size = MTest_size, a[8] = { 0 }, b[8] = { 0 };
    double d[4] = { 0 }, e[4];
    int counts[64], displs[64];
    for (int i = 0; i < size && i < 64; i++) {
        counts[i] = 1;
        displs[i] = i;
    }
    int *big = MTest_Malloc((size_t)size * 8 * sizeof(int));

    /* MPI_ERR_ROOT */
    MT_ERRCLASS(MPI_Bcast(a, 1, MPI_INT, size, w), MPI_ERR_ROOT, "Bcast root = size");
    MT_ERRCLASS(MPI_Bcast(a, 1, MPI_INT, -1, w), MPI_ERR_ROOT, "Bcast root = -1");
    MT_ERRCLASS(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, size + 3, w), MPI_ERR_ROOT, "Reduce root");
    MT_ERRCLASS(MPI_Gather(a, 1, MPI_INT, big, 1, MPI_INT, -2, w), MPI_ERR_ROOT, "Gather root");
    MT_ERRCLASS(MPI_Scatterv(big, counts, displs, MPI_INT, a, 1, MPI_INT, size, w), MPI_ERR_ROOT,
                "Scatterv root");
    MTest_Check_comm_works(w, "after MPI_ERR_ROOT");

    /* MPI_ERR_OP: an op not defined for the type, a null op */
    MT_ERRCLASS(MPI_Allreduce(a, b, 2, MPI_C_BOOL, MPI_SUM, w), MPI_ERR_OP, "SUM on C_BOOL");
    MT_ERRCLASS(MPI_Allreduce(a, b, 2, MPI_INT, MPI_MAXLOC, w), MPI_ERR_OP, "MAXLOC on INT");
    MT_ERRCLASS(MPI_Allreduce(d, e, 2, MPI_DOUBLE, MPI_BAND, w), MPI_ERR_OP, "BAND on DOUBLE");
    MT_ERRCLASS(MPI_Allreduce(d, e, 2, MPI_FLOAT, MPI_BXOR, w), MPI_ERR_OP, "BXOR on FLOAT");
    MT_ERRCLASS(MPI_Reduce(d, e, 1, MPI_C_DOUBLE_COMPLEX, MPI_MAX, 0, w), MPI_ERR_OP,
                "MAX on complex");
    MT_ERRCLASS(MPI_Allreduce(a, b, 2, MPI_BYTE, MPI_SUM, w), MPI_ERR_OP, "SUM on BYTE");
    MT_ERRCLASS(MPI_Allreduce(a, b, 1, MPI_INT, MPI_OP_NULL, w), MPI_ERR_OP, "MPI_OP_NULL");
    MT_ERRCLASS(MPI_Scan(a, b, 1, MPI_DOUBLE_INT, MPI_PROD, w), MPI_ERR_OP, "PROD on DOUBLE_INT");
    MT_ERRCLASS(MPI_Reduce_local(a, b, 1, MPI_INT, MPI_MINLOC), MPI_ERR_OP, "Reduce_local MINLOC");
    MT_ERRCLASS(MPI_Op_free(&(MPI_Op){ MPI_SUM }), MPI_ERR_OP, "Op_free of MPI_SUM");
    /* MPI_REPLACE and MPI_NO_OP are for RMA accumulates only (MPI-3.1 11.3.4);
     * MPICH accepts them in reductions. */
    if (STRICT) {
        MT_ERRCLASS(MPI_Allreduce(a, b, 1, MPI_INT, MPI_REPLACE, w), MPI_ERR_OP,
                    "Allreduce MPI_REPLACE");
        MT_ERRCLASS(MPI_Reduce(a, b, 1, MPI_INT, MPI_NO_OP, 0, w), MPI_ERR_OP, "Reduce MPI_NO_OP");
    }
    MTest_Check_comm_works(w, "after MPI_ERR_OP");

    /* MPI_ERR_BUFFER: IN_PLACE where forbidden, aliased buffers */
    MT_ERRCLASS(MPI_Allreduce(a, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER,
                "Allreduce recvbuf IN_PLACE");
    MT_ERRCLASS(MPI_Allreduce(a, a, 1, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER,
                "Allreduce aliased");
    if (STRICT)
        MT_ERRCLASS(MPI_Allgather(big, 1, MPI_INT, big, 1, MPI_INT, w), MPI_ERR_BUFFER,
                    "Allgather aliased");
    MT_ERRCLASS(MPI_Scan(a, a, 2, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER, "Scan aliased");
    MTest_Check_comm_works(w, "after MPI_ERR_BUFFER");

    /* MPI_ERR_COUNT */
    MT_ERRCLASS(MPI_Bcast(a, -1, MPI_INT, 0, w), MPI_ERR_COUNT, "Bcast count -1");
    if (STRICT)
        MT_ERRCLASS(MPI_Allreduce(a, b, -3, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT, "Allreduce count");
    MT_ERRCLASS(MPI_Alltoall(a, -1, MPI_INT, big, -1, MPI_INT, w), MPI_ERR_COUNT,
                "Alltoall count");
    if (STRICT)
        MT_ERRCLASS(MPI_Reduce_scatter_block(big, a, -1, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT,
                    "Reduce_scatter_block count");
    MTest_Check_comm_works(w, "after MPI_ERR_COUNT");

    /* MPI_ERR_TYPE */
    MPI_Datatype unc;
    MT_OK(MPI_Type_contiguous(2, MPI_INT, &unc));
    MT_ERRCLASS(MPI_Bcast(a, 1, MPI_DATATYPE_NULL, 0, w), MPI_ERR_TYPE, "Bcast DATATYPE_NULL");
    MT_ERRCLASS(MPI_Bcast(a, 1, unc, 0, w), MPI_ERR_TYPE, "Bcast uncommitted");
    MT_ERRCLASS(MPI_Allgather(a, 1, MPI_INT, big, 1, MPI_DATATYPE_NULL, w), MPI_ERR_TYPE,
                "Allgather recvtype NULL");
    if (STRICT)
        MT_ERRCLASS(MPI_Allreduce(a, b, 1, unc, MPI_SUM, w), MPI_ERR_TYPE, "Allreduce uncommitted");
    MT_OK(MPI_Type_free(&unc));
    MTest_Check_comm_works(w, "after MPI_ERR_TYPE");

    /* MPI_ERR_COMM */
    MT_ERRCLASS(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM, "Barrier COMM_NULL");
    MT_ERRCLASS(MPI_Bcast(a, 1, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM, "Bcast COMM_NULL");
    MT_ERRCLASS(MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL), MPI_ERR_COMM,
                "Allreduce COMM_NULL");
#if GARBAGE_HANDLES
    MT_ERRCLASS(MPI_Alltoall(a, 1, MPI_INT, big, 1, MPI_INT, (MPI_Comm)GARBAGE_INT),
                MPI_ERR_COMM, "Alltoall garbage comm");
#endif
    MTest_Check_comm_works(w, "after MPI_ERR_COMM");

    /* Correct calls still work. */
    a[0] = 1;
    MT_OK(MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, w));
    MT_CHECK(b[0] == size, "Allreduce after errors: %d", b[0]);
    free(big);
    return MTest_Finalize();
}
