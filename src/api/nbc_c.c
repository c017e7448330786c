/*
 * The large-count (MPI-4.0 "_c") nonblocking collective entry points: the
 * bodies of nbc.c with MPI_Count counts. Count and displacement arrays are
 * converted once per call to the int arrays src/coll takes.
 */
#include "api/api.h"

#include "api/nbc.h"

RD_WEAK_ALIAS(MPI_Ibcast_c)
int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    return rd_api_ibcast(buffer, count, datatype, root, comm, request, "MPI_Ibcast_c");
}

RD_WEAK_ALIAS(MPI_Ireduce_c)
int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
    return rd_api_ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request,
                          "MPI_Ireduce_c");
}

RD_WEAK_ALIAS(MPI_Iallreduce_c)
int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return rd_api_iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request, 0, 0,
                             "MPI_Iallreduce_c");
}

RD_WEAK_ALIAS(MPI_Iscan_c)
int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return rd_api_iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request, 1, 0,
                             "MPI_Iscan_c");
}

RD_WEAK_ALIAS(MPI_Iexscan_c)
int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return rd_api_iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request, 1, 1,
                             "MPI_Iexscan_c");
}

RD_WEAK_ALIAS(MPI_Ireduce_scatter_block_c)
int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                 MPI_Request *request)
{
    return rd_api_ireduce_scatter(sendbuf, recvbuf, NULL, recvcount, datatype, op, comm, request,
                                  0, "MPI_Ireduce_scatter_block_c");
}

RD_WEAK_ALIAS(MPI_Ireduce_scatter_c)
int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    static const char fn[] = "MPI_Ireduce_scatter_c";
    rd_api_vcounts_t v;
    int err = rd_api_vcounts(comm, RD_API_LOCAL_COUNTS, &v, NULL, NULL, recvcounts, NULL, fn);
    if (err)
        return err;
    err = rd_api_ireduce_scatter(sendbuf, recvbuf, v.rc, 0, datatype, op, comm, request, 1, fn);
    rd_api_vcounts_free(&v);
    return err;
}

RD_WEAK_ALIAS(MPI_Igather_c)
int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                   MPI_Comm comm, MPI_Request *request)
{
    return rd_api_irooted(1, sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, NULL, NULL,
                          recvcount, recvtype, root, comm, request, 0, "MPI_Igather_c");
}

RD_WEAK_ALIAS(MPI_Igatherv_c)
int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    static const char fn[] = "MPI_Igatherv_c";
    rd_api_vcounts_t v;
    int err = rd_api_vcounts(comm, root, &v, NULL, NULL, recvcounts, displs, fn);
    if (err)
        return err;
    err = rd_api_irooted(1, sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, v.rc, v.rd, 0,
                         recvtype, root, comm, request, 1, fn);
    rd_api_vcounts_free(&v);
    return err;
}

RD_WEAK_ALIAS(MPI_Iscatter_c)
int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                    MPI_Comm comm, MPI_Request *request)
{
    return rd_api_irooted(0, sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, NULL, NULL,
                          recvcount, recvtype, root, comm, request, 0, "MPI_Iscatter_c");
}

RD_WEAK_ALIAS(MPI_Iscatterv_c)
int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    static const char fn[] = "MPI_Iscatterv_c";
    rd_api_vcounts_t v;
    int err = rd_api_vcounts(comm, root, &v, sendcounts, displs, NULL, NULL, fn);
    if (err)
        return err;
    err = rd_api_irooted(0, sendbuf, v.sc, v.sd, 0, sendtype, recvbuf, NULL, NULL, recvcount,
                         recvtype, root, comm, request, 1, fn);
    rd_api_vcounts_free(&v);
    return err;
}

RD_WEAK_ALIAS(MPI_Iallgather_c)
int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request)
{
    return rd_api_iallgather(sendbuf, sendcount, sendtype, recvbuf, NULL, NULL, recvcount,
                             recvtype, comm, request, 0, "MPI_Iallgather_c");
}

RD_WEAK_ALIAS(MPI_Iallgatherv_c)
int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    static const char fn[] = "MPI_Iallgatherv_c";
    rd_api_vcounts_t v;
    int err = rd_api_vcounts(comm, RD_API_NO_ROOT, &v, NULL, NULL, recvcounts, displs, fn);
    if (err)
        return err;
    err = rd_api_iallgather(sendbuf, sendcount, sendtype, recvbuf, v.rc, v.rd, 0, recvtype, comm,
                            request, 1, fn);
    rd_api_vcounts_free(&v);
    return err;
}

RD_WEAK_ALIAS(MPI_Ialltoall_c)
int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request)
{
    return rd_api_ialltoall(sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, NULL, NULL,
                            recvcount, recvtype, comm, request, 0, "MPI_Ialltoall_c");
}

RD_WEAK_ALIAS(MPI_Ialltoallv_c)
int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                      const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                      const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    static const char fn[] = "MPI_Ialltoallv_c";
    rd_api_vcounts_t v;
    int in_place = sendbuf == MPI_IN_PLACE;
    int err = rd_api_vcounts(comm, RD_API_NO_ROOT, &v, in_place ? NULL : sendcounts,
                             in_place ? NULL : sdispls, recvcounts, rdispls, fn);
    if (err)
        return err;
    err = rd_api_ialltoall(sendbuf, v.sc, v.sd, 0, sendtype, recvbuf, v.rc, v.rd, 0, recvtype,
                           comm, request, 1, fn);
    rd_api_vcounts_free(&v);
    return err;
}
