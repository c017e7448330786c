/*
 * The large-count (_c) forms of the persistent collectives (MPI-4.0
 * section 5.13) and persistent neighbourhood collectives: their counts and
 * displacements are narrowed to int (the nonblocking collectives each start
 * runs take int; MPI_ERR_COUNT beyond), then recorded as the int forms do
 * (coll_persist.c).
 */
#include "api/coll_persist.h"

RD_WEAK_ALIAS(MPI_Bcast_init_c)
int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    rd_api_pcoll_t a = { .kind = RD_PC_BCAST, .comm = comm, .rbuf = buffer, .rtype = datatype,
                         .root = root };
    rd_api_pcoll_wide_t w = { .rcount = count };
    return rd_api_pcoll_init_c(&a, &w, info, request, "MPI_Bcast_init_c");
}

static int two_sided_c(int kind, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request, const char *fn)
{
    rd_api_pcoll_t a = { .kind = kind, .comm = comm, .sbuf = sendbuf, .stype = sendtype,
                         .rbuf = recvbuf, .rtype = recvtype, .root = root };
    rd_api_pcoll_wide_t w = { .scount = sendcount, .rcount = recvcount };
    return rd_api_pcoll_init_c(&a, &w, info, request, fn);
}

RD_WEAK_ALIAS(MPI_Gather_init_c)
int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return two_sided_c(RD_PC_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                       root, comm, info, request, "MPI_Gather_init_c");
}

RD_WEAK_ALIAS(MPI_Scatter_init_c)
int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return two_sided_c(RD_PC_SCATTER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                       root, comm, info, request, "MPI_Scatter_init_c");
}

RD_WEAK_ALIAS(MPI_Allgather_init_c)
int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                          MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return two_sided_c(RD_PC_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                       0, comm, info, request, "MPI_Allgather_init_c");
}

RD_WEAK_ALIAS(MPI_Alltoall_init_c)
int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return two_sided_c(RD_PC_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                       0, comm, info, request, "MPI_Alltoall_init_c");
}

RD_WEAK_ALIAS(MPI_Neighbor_allgather_init_c)
int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount,
                                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    return two_sided_c(RD_PC_NB_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                       recvtype, 0, comm, info, request, "MPI_Neighbor_allgather_init_c");
}

RD_WEAK_ALIAS(MPI_Neighbor_alltoall_init_c)
int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return two_sided_c(RD_PC_NB_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                       recvtype, 0, comm, info, request, "MPI_Neighbor_alltoall_init_c");
}

static int gatherv_c(int kind, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, const MPI_Count *recvcounts, const MPI_Aint *displs,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request, const char *fn)
{
    rd_api_pcoll_t a = { .kind = kind, .comm = comm, .sbuf = sendbuf, .stype = sendtype,
                         .rbuf = recvbuf, .rtype = recvtype, .root = root };
    rd_api_pcoll_wide_t w = { .scount = sendcount, .rcounts = recvcounts, .rdispls = displs };
    return rd_api_pcoll_init_c(&a, &w, info, request, fn);
}

RD_WEAK_ALIAS(MPI_Gatherv_init_c)
int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    return gatherv_c(RD_PC_GATHERV, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                     recvtype, root, comm, info, request, "MPI_Gatherv_init_c");
}

RD_WEAK_ALIAS(MPI_Allgatherv_init_c)
int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                           MPI_Request *request)
{
    return gatherv_c(RD_PC_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                     recvtype, 0, comm, info, request, "MPI_Allgatherv_init_c");
}

RD_WEAK_ALIAS(MPI_Neighbor_allgatherv_init_c)
int PMPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount,
                                    MPI_Datatype sendtype, void *recvbuf,
                                    const MPI_Count recvcounts[], const MPI_Aint displs[],
                                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                    MPI_Request *request)
{
    return gatherv_c(RD_PC_NB_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                     recvtype, 0, comm, info, request, "MPI_Neighbor_allgatherv_init_c");
}

RD_WEAK_ALIAS(MPI_Scatterv_init_c)
int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                         const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request)
{
    rd_api_pcoll_t a = { .kind = RD_PC_SCATTERV, .comm = comm, .sbuf = sendbuf, .stype = sendtype,
                         .rbuf = recvbuf, .rtype = recvtype, .root = root };
    rd_api_pcoll_wide_t w = { .scounts = sendcounts, .sdispls = displs, .rcount = recvcount };
    return rd_api_pcoll_init_c(&a, &w, info, request, "MPI_Scatterv_init_c");
}

static int alltoallv_c(int kind, const void *sendbuf, const MPI_Count *sendcounts,
                       const MPI_Aint *sdispls, MPI_Datatype sendtype, void *recvbuf,
                       const MPI_Count *recvcounts, const MPI_Aint *rdispls,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request,
                       const char *fn)
{
    rd_api_pcoll_t a = { .kind = kind, .comm = comm, .sbuf = sendbuf, .stype = sendtype,
                         .rbuf = recvbuf, .rtype = recvtype };
    rd_api_pcoll_wide_t w = { .scounts = sendcounts, .sdispls = sdispls, .rcounts = recvcounts,
                              .rdispls = rdispls };
    return rd_api_pcoll_init_c(&a, &w, info, request, fn);
}

RD_WEAK_ALIAS(MPI_Alltoallv_init_c)
int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    return alltoallv_c(RD_PC_ALLTOALLV, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                       rdispls, recvtype, comm, info, request, "MPI_Alltoallv_init_c");
}

RD_WEAK_ALIAS(MPI_Neighbor_alltoallv_init_c)
int PMPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], MPI_Datatype sendtype,
                                   void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return alltoallv_c(RD_PC_NB_ALLTOALLV, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                       recvcounts, rdispls, recvtype, comm, info, request,
                       "MPI_Neighbor_alltoallv_init_c");
}

RD_WEAK_ALIAS(MPI_Alltoallw_init_c)
int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                          void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    rd_api_pcoll_t a = { .kind = RD_PC_ALLTOALLW, .comm = comm, .sbuf = sendbuf,
                         .stypes = sendtypes, .rbuf = recvbuf, .rtypes = recvtypes };
    rd_api_pcoll_wide_t w = { .scounts = sendcounts, .sdispls = sdispls, .rcounts = recvcounts,
                              .rdispls = rdispls };
    return rd_api_pcoll_init_c(&a, &w, info, request, "MPI_Alltoallw_init_c");
}

RD_WEAK_ALIAS(MPI_Neighbor_alltoallw_init_c)
int PMPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                   void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    rd_api_pcoll_t a = { .kind = RD_PC_NB_ALLTOALLW, .comm = comm, .sbuf = sendbuf,
                         .sdispls = sdispls, .stypes = sendtypes, .rbuf = recvbuf,
                         .rdispls = rdispls, .rtypes = recvtypes };
    rd_api_pcoll_wide_t w = { .scounts = sendcounts, .rcounts = recvcounts };
    return rd_api_pcoll_init_c(&a, &w, info, request, "MPI_Neighbor_alltoallw_init_c");
}

static int reduction_c(int kind, const void *sendbuf, void *recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request, const char *fn)
{
    rd_api_pcoll_t a = { .kind = kind, .comm = comm, .sbuf = sendbuf, .rbuf = recvbuf,
                         .rtype = datatype, .op = op, .root = root };
    rd_api_pcoll_wide_t w = { .rcount = count };
    return rd_api_pcoll_init_c(&a, &w, info, request, fn);
}

RD_WEAK_ALIAS(MPI_Reduce_init_c)
int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduction_c(RD_PC_REDUCE, sendbuf, recvbuf, count, datatype, op, root, comm, info,
                       request, "MPI_Reduce_init_c");
}

RD_WEAK_ALIAS(MPI_Allreduce_init_c)
int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    return reduction_c(RD_PC_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, 0, comm, info,
                       request, "MPI_Allreduce_init_c");
}

RD_WEAK_ALIAS(MPI_Reduce_scatter_block_init_c)
int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                     MPI_Info info, MPI_Request *request)
{
    return reduction_c(RD_PC_REDSCAT_BLOCK, sendbuf, recvbuf, recvcount, datatype, op, 0, comm,
                       info, request, "MPI_Reduce_scatter_block_init_c");
}

RD_WEAK_ALIAS(MPI_Scan_init_c)
int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduction_c(RD_PC_SCAN, sendbuf, recvbuf, count, datatype, op, 0, comm, info, request,
                       "MPI_Scan_init_c");
}

RD_WEAK_ALIAS(MPI_Exscan_init_c)
int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduction_c(RD_PC_EXSCAN, sendbuf, recvbuf, count, datatype, op, 0, comm, info, request,
                       "MPI_Exscan_init_c");
}

RD_WEAK_ALIAS(MPI_Reduce_scatter_init_c)
int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request)
{
    rd_api_pcoll_t a = { .kind = RD_PC_REDSCAT, .comm = comm, .sbuf = sendbuf, .rbuf = recvbuf,
                         .rtype = datatype, .op = op };
    rd_api_pcoll_wide_t w = { .rcounts = recvcounts };
    return rd_api_pcoll_init_c(&a, &w, info, request, "MPI_Reduce_scatter_init_c");
}
