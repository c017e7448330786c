/*
 * The bodies of the point-to-point entry points, shared by the int forms
 * (pt2pt.c) and the large-count _c forms (pt2pt_c.c): counts are MPI_Count,
 * fn names the calling function in errors, mode is an RD_MODE_* of p2p.h.
 */
#ifndef RD_API_PT2PT_H
#define RD_API_PT2PT_H

#include <mpi.h>

#include "core/comm.h"
#include "core/request.h"

int rd_api_send(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, int mode, const char *fn);
int rd_api_isend(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm, int mode, MPI_Request *request, const char *fn);
int rd_api_recv(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                MPI_Comm comm, MPI_Status *status, const char *fn);
int rd_api_irecv(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                 MPI_Comm comm, MPI_Request *request, const char *fn);
int rd_api_sendrecv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status *status, const char *fn);
int rd_api_sendrecv_replace(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, MPI_Comm comm,
                            MPI_Status *status, const char *fn);
int rd_api_mrecv(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                 MPI_Status *status, const char *fn);
int rd_api_imrecv(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                  MPI_Request *request, const char *fn);
/* A request that is already complete, for MPI_PROC_NULL (lock held). */
rd_request_t *rd_api_null_peer_request(int kind, rd_comm_t *c);
/* Waits for a blocking operation's request, reports its status and frees
 * it; returns the MPI error code. */
int rd_api_finish_blocking(rd_request_t *r, MPI_Status *status, const char *fn);
/* An inactive persistent request of kind RD_REQ_PERSIST_SEND / _RECV. */
int rd_api_persistent(int kind, void *buf, MPI_Count count, MPI_Datatype datatype, int peer,
                      int tag, MPI_Comm comm, int mode, MPI_Request *request, const char *fn);

#endif
