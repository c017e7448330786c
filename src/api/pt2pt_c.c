/*
 * The large-count (MPI-4.0 "_c") point-to-point entry points: the same
 * bodies as the int forms in pt2pt.c, with MPI_Count counts.
 */
#include "api/api.h"

#include "api/pt2pt.h"
#include "p2p/p2p.h"

RD_WEAK_ALIAS(MPI_Send_c)
int PMPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm)
{
    return rd_api_send(buf, count, datatype, dest, tag, comm, RD_MODE_STANDARD, "MPI_Send_c");
}

RD_WEAK_ALIAS(MPI_Ssend_c)
int PMPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm)
{
    return rd_api_send(buf, count, datatype, dest, tag, comm, RD_MODE_SYNC, "MPI_Ssend_c");
}

RD_WEAK_ALIAS(MPI_Rsend_c)
int PMPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm)
{
    return rd_api_send(buf, count, datatype, dest, tag, comm, RD_MODE_READY, "MPI_Rsend_c");
}

RD_WEAK_ALIAS(MPI_Bsend_c)
int PMPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm)
{
    return rd_api_send(buf, count, datatype, dest, tag, comm, RD_MODE_BUFFERED, "MPI_Bsend_c");
}

RD_WEAK_ALIAS(MPI_Isend_c)
int PMPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request)
{
    return rd_api_isend(buf, count, datatype, dest, tag, comm, RD_MODE_STANDARD, request,
                        "MPI_Isend_c");
}

RD_WEAK_ALIAS(MPI_Issend_c)
int PMPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    return rd_api_isend(buf, count, datatype, dest, tag, comm, RD_MODE_SYNC, request,
                        "MPI_Issend_c");
}

RD_WEAK_ALIAS(MPI_Irsend_c)
int PMPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    return rd_api_isend(buf, count, datatype, dest, tag, comm, RD_MODE_READY, request,
                        "MPI_Irsend_c");
}

RD_WEAK_ALIAS(MPI_Ibsend_c)
int PMPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    return rd_api_isend(buf, count, datatype, dest, tag, comm, RD_MODE_BUFFERED, request,
                        "MPI_Ibsend_c");
}

RD_WEAK_ALIAS(MPI_Recv_c)
int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                MPI_Comm comm, MPI_Status *status)
{
    return rd_api_recv(buf, count, datatype, source, tag, comm, status, "MPI_Recv_c");
}

RD_WEAK_ALIAS(MPI_Irecv_c)
int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                 MPI_Comm comm, MPI_Request *request)
{
    return rd_api_irecv(buf, count, datatype, source, tag, comm, request, "MPI_Irecv_c");
}

RD_WEAK_ALIAS(MPI_Sendrecv_c)
int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return rd_api_sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                           recvtype, source, recvtag, comm, status, "MPI_Sendrecv_c");
}

RD_WEAK_ALIAS(MPI_Sendrecv_replace_c)
int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, MPI_Comm comm,
                            MPI_Status *status)
{
    return rd_api_sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                   status, "MPI_Sendrecv_replace_c");
}

RD_WEAK_ALIAS(MPI_Mrecv_c)
int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                 MPI_Status *status)
{
    return rd_api_mrecv(buf, count, datatype, message, status, "MPI_Mrecv_c");
}

RD_WEAK_ALIAS(MPI_Imrecv_c)
int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                  MPI_Request *request)
{
    return rd_api_imrecv(buf, count, datatype, message, request, "MPI_Imrecv_c");
}

RD_WEAK_ALIAS(MPI_Send_init_c)
int PMPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request)
{
    return rd_api_persistent(RD_REQ_PERSIST_SEND, (void *)buf, count, datatype, dest, tag, comm,
                             RD_MODE_STANDARD, request, "MPI_Send_init_c");
}

RD_WEAK_ALIAS(MPI_Ssend_init_c)
int PMPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                       MPI_Comm comm, MPI_Request *request)
{
    return rd_api_persistent(RD_REQ_PERSIST_SEND, (void *)buf, count, datatype, dest, tag, comm,
                             RD_MODE_SYNC, request, "MPI_Ssend_init_c");
}

RD_WEAK_ALIAS(MPI_Rsend_init_c)
int PMPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                       MPI_Comm comm, MPI_Request *request)
{
    return rd_api_persistent(RD_REQ_PERSIST_SEND, (void *)buf, count, datatype, dest, tag, comm,
                             RD_MODE_READY, request, "MPI_Rsend_init_c");
}

RD_WEAK_ALIAS(MPI_Bsend_init_c)
int PMPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                       MPI_Comm comm, MPI_Request *request)
{
    return rd_api_persistent(RD_REQ_PERSIST_SEND, (void *)buf, count, datatype, dest, tag, comm,
                             RD_MODE_BUFFERED, request, "MPI_Bsend_init_c");
}

RD_WEAK_ALIAS(MPI_Recv_init_c)
int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                     MPI_Comm comm, MPI_Request *request)
{
    return rd_api_persistent(RD_REQ_PERSIST_RECV, buf, count, datatype, source, tag, comm,
                             RD_MODE_STANDARD, request, "MPI_Recv_init_c");
}
