/*
 * The large-count (MPI-4.0 "_c") blocking collective entry points: the
 * bodies of coll.c with MPI_Count counts. Count and displacement arrays
 * are converted once per call to the int arrays src/coll takes.
 */
#include "api/api.h"

#include "api/coll.h"

RD_WEAK_ALIAS(MPI_Bcast_c)
int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return rd_api_bcast(buffer, count, datatype, root, comm, "MPI_Bcast_c");
}

RD_WEAK_ALIAS(MPI_Gather_c)
int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return rd_api_rooted(1, sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, NULL, NULL,
                         recvcount, recvtype, root, comm, 0, "MPI_Gather_c");
}

RD_WEAK_ALIAS(MPI_Gatherv_c)
int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                   void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                   MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    static const char fn[] = "MPI_Gatherv_c";
    rd_api_vcounts_t v;
    int err = rd_api_vcounts(comm, root, &v, NULL, NULL, recvcounts, displs, fn);
    if (err)
        return err;
    err = rd_api_rooted(1, sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, v.rc, v.rd, 0,
                        recvtype, root, comm, 1, fn);
    rd_api_vcounts_free(&v);
    return err;
}

RD_WEAK_ALIAS(MPI_Scatter_c)
int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                   MPI_Comm comm)
{
    return rd_api_rooted(0, sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, NULL, NULL,
                         recvcount, recvtype, root, comm, 0, "MPI_Scatter_c");
}

RD_WEAK_ALIAS(MPI_Scatterv_c)
int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    static const char fn[] = "MPI_Scatterv_c";
    rd_api_vcounts_t v;
    int err = rd_api_vcounts(comm, root, &v, sendcounts, displs, NULL, NULL, fn);
    if (err)
        return err;
    err = rd_api_rooted(0, sendbuf, v.sc, v.sd, 0, sendtype, recvbuf, NULL, NULL, recvcount,
                        recvtype, root, comm, 1, fn);
    rd_api_vcounts_free(&v);
    return err;
}

RD_WEAK_ALIAS(MPI_Allgather_c)
int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return rd_api_blocks(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, 0,
                         "MPI_Allgather_c");
}

RD_WEAK_ALIAS(MPI_Allgatherv_c)
int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, MPI_Comm comm)
{
    static const char fn[] = "MPI_Allgatherv_c";
    rd_api_vcounts_t v;
    int err = rd_api_vcounts(comm, RD_API_NO_ROOT, &v, NULL, NULL, recvcounts, displs, fn);
    if (err)
        return err;
    err = rd_api_allgatherv(sendbuf, sendcount, sendtype, recvbuf, v.rc, v.rd, recvtype, comm, fn);
    rd_api_vcounts_free(&v);
    return err;
}

RD_WEAK_ALIAS(MPI_Alltoall_c)
int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return rd_api_blocks(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, 1,
                         "MPI_Alltoall_c");
}

RD_WEAK_ALIAS(MPI_Alltoallv_c)
int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    static const char fn[] = "MPI_Alltoallv_c";
    rd_api_vcounts_t v;
    int in_place = sendbuf == MPI_IN_PLACE;
    int err = rd_api_vcounts(comm, RD_API_NO_ROOT, &v, in_place ? NULL : sendcounts,
                             in_place ? NULL : sdispls, recvcounts, rdispls, fn);
    if (err)
        return err;
    err = rd_api_alltoallv(sendbuf, v.sc, v.sd, sendtype, recvbuf, v.rc, v.rd, recvtype, comm, fn);
    rd_api_vcounts_free(&v);
    return err;
}

RD_WEAK_ALIAS(MPI_Alltoallw_c)
int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    static const char fn[] = "MPI_Alltoallw_c";
    rd_api_vcounts_t v;
    int in_place = sendbuf == MPI_IN_PLACE;
    int err = rd_api_vcounts(comm, RD_API_NO_ROOT, &v, in_place ? NULL : sendcounts,
                             in_place ? NULL : sdispls, recvcounts, rdispls, fn);
    if (err)
        return err;
    err = rd_api_alltoallw(sendbuf, v.sc, v.sd, sendtypes, recvbuf, v.rc, v.rd, recvtypes, comm,
                           fn);
    rd_api_vcounts_free(&v);
    return err;
}

RD_WEAK_ALIAS(MPI_Reduce_c)
int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm)
{
    return rd_api_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, "MPI_Reduce_c");
}

RD_WEAK_ALIAS(MPI_Reduce_scatter_c)
int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    static const char fn[] = "MPI_Reduce_scatter_c";
    rd_api_vcounts_t v;
    int err = rd_api_vcounts(comm, RD_API_LOCAL_COUNTS, &v, NULL, NULL, recvcounts, NULL, fn);
    if (err)
        return err;
    err = rd_api_reduce_scatter(sendbuf, recvbuf, v.rc, datatype, op, comm, fn);
    rd_api_vcounts_free(&v);
    return err;
}

RD_WEAK_ALIAS(MPI_Reduce_scatter_block_c)
int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return rd_api_reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm,
                                       "MPI_Reduce_scatter_block_c");
}

RD_WEAK_ALIAS(MPI_Allreduce_c)
int PMPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm)
{
    return rd_api_allreduce(sendbuf, recvbuf, count, datatype, op, comm, RD_API_ALLREDUCE,
                            "MPI_Allreduce_c");
}

RD_WEAK_ALIAS(MPI_Scan_c)
int PMPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                MPI_Op op, MPI_Comm comm)
{
    return rd_api_allreduce(sendbuf, recvbuf, count, datatype, op, comm, RD_API_SCAN,
                            "MPI_Scan_c");
}

RD_WEAK_ALIAS(MPI_Exscan_c)
int PMPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm)
{
    return rd_api_allreduce(sendbuf, recvbuf, count, datatype, op, comm, RD_API_EXSCAN,
                            "MPI_Exscan_c");
}
