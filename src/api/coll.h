/*
 * The bodies of the blocking collective entry points, shared by the int
 * forms (coll.c) and the large-count _c forms (coll_c.c): scalar counts are
 * MPI_Count; count and displacement arrays are the int arrays src/coll
 * takes (the _c forms convert theirs with rd_api_vcounts); fn names the
 * calling function in errors.
 */
#ifndef RD_API_COLL_H
#define RD_API_COLL_H

#include <mpi.h>

int rd_api_bcast(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                 const char *fn);
/* Gather(v) (is_gather) and Scatter(v); v: the root side is counts and
 * displacements (rcounts/rdispls for gather, scounts/sdispls for scatter). */
int rd_api_rooted(int is_gather, const void *sendbuf, const int *scounts, const int *sdispls,
                  MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const int *rcounts,
                  const int *rdispls, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                  MPI_Comm comm, int v, const char *fn);
/* Allgather, or Alltoall when alltoall is set. */
int rd_api_blocks(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                  int alltoall, const char *fn);
int rd_api_allgatherv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const int recvcounts[], const int displs[],
                      MPI_Datatype recvtype, MPI_Comm comm, const char *fn);
int rd_api_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                     const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, const char *fn);
int rd_api_alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                     const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                     const char *fn);
int rd_api_reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm, const char *fn);
int rd_api_reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, const char *fn);
int rd_api_reduce_scatter_block(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, const char *fn);
enum rd_api_allreduce_kind { RD_API_ALLREDUCE, RD_API_SCAN, RD_API_EXSCAN };
int rd_api_allreduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, enum rd_api_allreduce_kind kind, const char *fn);

#endif
