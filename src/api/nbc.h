/*
 * The bodies of the nonblocking collective entry points, shared by the int
 * forms (nbc.c) and the large-count _c forms (nbc_c.c): scalar counts are
 * MPI_Count; count and displacement arrays are the int arrays src/coll
 * takes (read while the schedule is built, so a converted copy may be freed
 * once the call returns); fn names the calling function in errors.
 */
#ifndef RD_API_NBC_H
#define RD_API_NBC_H

#include <mpi.h>

int rd_api_ibcast(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  MPI_Request *request, const char *fn);
int rd_api_ireduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm, MPI_Request *request, const char *fn);
/* Iallreduce, or Iscan (scan) / Iexscan (scan and excl). */
int rd_api_iallreduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Request *request, int scan, int excl,
                      const char *fn);
/* Ireduce_scatter (v: counts per rank) or Ireduce_scatter_block (count each). */
int rd_api_ireduce_scatter(const void *sendbuf, void *recvbuf, const int *counts,
                           MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                           MPI_Request *request, int v, const char *fn);
/* Igather(v) (is_gather) and Iscatter(v), as rd_api_rooted (api/coll.h). */
int rd_api_irooted(int is_gather, const void *sendbuf, const int *scounts, const int *sdispls,
                   MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const int *rcounts,
                   const int *rdispls, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                   MPI_Comm comm, MPI_Request *request, int v, const char *fn);
int rd_api_iallgather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const int *rcounts, const int *rdispls, MPI_Count recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request, int v,
                      const char *fn);
int rd_api_ialltoall(const void *sendbuf, const int *scounts, const int *sdispls,
                     MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int *rcounts, const int *rdispls, MPI_Count recvcount,
                     MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request, int v,
                     const char *fn);

#endif
