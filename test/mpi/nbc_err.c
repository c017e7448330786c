/*
 * nbc_err: argument errors of the nonblocking collectives return the same
 * error classes as the blocking ones (with MPI_ERRORS_RETURN), start
 * nothing, and leave the communicator usable: an invalid communicator,
 * root, count, datatype, op, buffer, in-place misuse, aliased buffers, NULL
 * request and array arguments.
 */
#include "err_common.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    errors_return();
    MPI_Comm comm = MPI_COMM_WORLD;
    int n = MTest_size, me = MTest_rank;
    (void)me;
    int buf[64] = { 0 }, rbuf[64 * 8] = { 0 }, counts[64], displs[64];
    MPI_Request r = MPI_REQUEST_NULL;
    for (int i = 0; i < 64; i++) {
        counts[i] = 1;
        displs[i] = i;
    }

    MT_ERRCLASS(MPI_Ibarrier(MPI_COMM_NULL, &r), MPI_ERR_COMM, "Ibarrier on MPI_COMM_NULL");
    MT_ERRCLASS(MPI_Ibarrier(comm, NULL), MPI_ERR_ARG, "Ibarrier with a NULL request");
    MT_ERRCLASS(MPI_Ibcast(buf, 1, MPI_INT, n, comm, &r), MPI_ERR_ROOT, "Ibcast root = size");
    MT_ERRCLASS(MPI_Ibcast(buf, 1, MPI_INT, -1, comm, &r), MPI_ERR_ROOT, "Ibcast root -1");
    MT_ERRCLASS(MPI_Ibcast(buf, -1, MPI_INT, 0, comm, &r), MPI_ERR_COUNT, "Ibcast count -1");
    MT_ERRCLASS(MPI_Ibcast(buf, 1, MPI_DATATYPE_NULL, 0, comm, &r), MPI_ERR_TYPE,
                "Ibcast MPI_DATATYPE_NULL");
    MT_ERRCLASS(MPI_Ibcast(NULL, 1, MPI_INT, 0, comm, &r), MPI_ERR_BUFFER, "Ibcast NULL buffer");
#if GARBAGE_HANDLES
    MT_ERRCLASS(MPI_Ibcast(buf, 1, MPI_INT, 0, (MPI_Comm)GARBAGE_INT, &r), MPI_ERR_COMM,
                "Ibcast garbage communicator");
    MT_ERRCLASS(MPI_Iallreduce(buf, rbuf, 1, MPI_INT, (MPI_Op)GARBAGE_INT, comm, &r), MPI_ERR_OP,
                "Iallreduce garbage op");
#endif
    MT_ERRCLASS(MPI_Iallreduce(buf, rbuf, 1, MPI_INT, MPI_OP_NULL, comm, &r), MPI_ERR_OP,
                "Iallreduce MPI_OP_NULL");
    MT_ERRCLASS(MPI_Iallreduce(buf, buf, 1, MPI_INT, MPI_SUM, comm, &r), MPI_ERR_BUFFER,
                "Iallreduce sendbuf == recvbuf");
#ifdef RDMPI
    /* MPICH 4.0.2 checks neither of these: it starts the first and crashes
     * in the second. */
    MT_ERRCLASS(MPI_Iallreduce(buf, rbuf, -2, MPI_INT, MPI_SUM, comm, &r), MPI_ERR_COUNT,
                "Iallreduce count -2");
    if (n > 1)
        MT_ERRCLASS(MPI_Ireduce(MPI_IN_PLACE, rbuf, 1, MPI_INT, MPI_SUM, me == 0 ? 1 : 0, comm,
                                &r),
                    MPI_ERR_BUFFER, "Ireduce MPI_IN_PLACE at a non-root");
#endif
    MT_ERRCLASS(MPI_Ireduce(buf, rbuf, 1, MPI_INT, MPI_SUM, n + 3, comm, &r), MPI_ERR_ROOT,
                "Ireduce root out of range");
    MT_ERRCLASS(MPI_Iscan(buf, rbuf, 1, MPI_BYTE, MPI_SUM, comm, &r), MPI_ERR_OP,
                "Iscan MPI_SUM on MPI_BYTE");
#ifdef RDMPI
    /* RMA-only ops (MPICH accepts them in reductions) */
    MT_ERRCLASS(MPI_Iallreduce(buf, rbuf, 1, MPI_INT, MPI_REPLACE, comm, &r), MPI_ERR_OP,
                "Iallreduce MPI_REPLACE");
    MT_ERRCLASS(MPI_Ireduce(buf, rbuf, 1, MPI_INT, MPI_NO_OP, 0, comm, &r), MPI_ERR_OP,
                "Ireduce MPI_NO_OP");
    MT_ERRCLASS(MPI_Ireduce_scatter_block(buf, rbuf, 1, MPI_INT, MPI_REPLACE, comm, &r),
                MPI_ERR_OP, "Ireduce_scatter_block MPI_REPLACE");
    MT_ERRCLASS(MPI_Iexscan(buf, rbuf, 1, MPI_INT, MPI_NO_OP, comm, &r), MPI_ERR_OP,
                "Iexscan MPI_NO_OP");
#endif
    MT_ERRCLASS(MPI_Iexscan(buf, rbuf, 1, MPI_INT, MPI_OP_NULL, comm, &r), MPI_ERR_OP,
                "Iexscan MPI_OP_NULL");
    MT_ERRCLASS(MPI_Igather(buf, 1, MPI_INT, rbuf, 1, MPI_INT, -5, comm, &r), MPI_ERR_ROOT,
                "Igather root -5");
    MT_ERRCLASS(MPI_Igather(buf, -1, MPI_INT, rbuf, 1, MPI_INT, 0, comm, &r), MPI_ERR_COUNT,
                "Igather sendcount -1");
    MT_ERRCLASS(MPI_Iscatter(buf, 1, MPI_INT, rbuf, 1, MPI_DATATYPE_NULL, 0, comm, &r),
                MPI_ERR_TYPE, "Iscatter recvtype MPI_DATATYPE_NULL");
    MT_ERRCLASS(MPI_Iallgather(buf, 1, MPI_INT, rbuf, -1, MPI_INT, comm, &r), MPI_ERR_COUNT,
                "Iallgather recvcount -1");
    MT_ERRCLASS(MPI_Ialltoall(buf, 1, MPI_DATATYPE_NULL, rbuf, 1, MPI_INT, comm, &r),
                MPI_ERR_TYPE, "Ialltoall sendtype MPI_DATATYPE_NULL");
    counts[n - 1] = -1;
    MT_ERRCLASS(MPI_Iallgatherv(buf, 1, MPI_INT, rbuf, counts, displs, MPI_INT, comm, &r),
                MPI_ERR_COUNT, "Iallgatherv negative recvcount");
    MT_ERRCLASS(MPI_Ialltoallv(buf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, comm,
                               &r),
                MPI_ERR_COUNT, "Ialltoallv negative counts");
    counts[n - 1] = 1;
    MT_CHECK(r == MPI_REQUEST_NULL, "a failed call set the request");

    /* After all that, NBCs still work. */
    buf[0] = me;
    MT_OK(MPI_Iallreduce(buf, rbuf, 1, MPI_INT, MPI_SUM, comm, &r));
    MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    MT_CHECK(rbuf[0] == n * (n - 1) / 2, "Iallreduce after errors: %d", rbuf[0]);
    MTest_Check_comm_works(comm, "after the NBC argument errors");
    return MTest_Finalize();
}
