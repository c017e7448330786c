/*
 * Point-to-point entry points: sends in every mode, receives and
 * persistent requests (probes and matched messages: probe.c).
 * Each checks its arguments, fills a request and hands it to src/p2p.
 */
#include "api/api.h"

#include <stdlib.h>
#include <string.h>

#include "api/coll_persist.h"
#include "api/partitioned.h"
#include "api/pt2pt.h"
#include "p2p/p2p.h"
#include "util/list.h"

int rd_api_bsend_start(rd_comm_t *c, const void *buf, MPI_Count count, rd_datatype_t *dt,
                       int dest, int tag, const char *fn);

/* A request that is already complete, for MPI_PROC_NULL. */
rd_request_t *rd_api_null_peer_request(int kind, rd_comm_t *c)
{
    rd_request_t *r = rd_req_new(kind);
    if (!r)
        return NULL;
    rd_req_hold_comm(r, c);
    r->st_source = MPI_PROC_NULL;
    r->st_tag = MPI_ANY_TAG;
    r->done = 1;
    return r;
}

/* The common case in a few compares: a valid communicator and committed
 * type, a rank of the remote group, a legal tag and count, and a buffer.
 * Anything else (MPI_PROC_NULL and wildcards included) takes the detailed
 * checks, which also name what is wrong. */
static inline int fast_ok(MPI_Comm comm, const void *buf, MPI_Count count, MPI_Datatype datatype,
                          int peer, int tag, rd_comm_t **c, rd_datatype_t **dt)
{
    *c = rd_api_comm(comm);
    *dt = rd_api_dt(datatype);
    return __builtin_expect(*c && *dt && (*dt)->committed && rd_api.initialized &&
                                !rd_api.finalized && rd_api_span_small(count, *dt) &&
                                (buf || count == 0) &&
                                (unsigned)peer < (unsigned)rd_comm_remote_size(*c) &&
                                (unsigned)tag <= (unsigned)RD_TAG_UB, 1);
}

/* The detailed checks, out of line: check_send / check_recv inline only
 * fast_ok into their callers. */
static int __attribute__((noinline, cold))
check_send_all(MPI_Comm comm, const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
               int tag, rd_comm_t **c, rd_datatype_t **dt, const char *fn)
{
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, c, fn)) || (err = rd_api_check_count(*c, count, fn)) ||
        (err = rd_api_check_dt(*c, datatype, dt, fn)) ||
        (err = rd_api_check_buf(*c, buf, count, *dt, fn)) ||
        (err = rd_api_check_dest(*c, dest, fn)) || (err = rd_api_check_tag(*c, tag, 0, fn)))
        return err;
    return MPI_SUCCESS;
}

static int __attribute__((noinline, cold))
check_recv_all(MPI_Comm comm, const void *buf, MPI_Count count, MPI_Datatype datatype, int source,
               int tag, rd_comm_t **c, rd_datatype_t **dt, const char *fn)
{
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, c, fn)) || (err = rd_api_check_count(*c, count, fn)) ||
        (err = rd_api_check_dt(*c, datatype, dt, fn)) ||
        (err = rd_api_check_buf(*c, buf, count, *dt, fn)) ||
        (err = rd_api_check_source(*c, source, fn)) || (err = rd_api_check_tag(*c, tag, 1, fn)))
        return err;
    return MPI_SUCCESS;
}

static inline int check_send(MPI_Comm comm, const void *buf, MPI_Count count,
                             MPI_Datatype datatype, int dest, int tag, rd_comm_t **c,
                             rd_datatype_t **dt, const char *fn)
{
    if (fast_ok(comm, buf, count, datatype, dest, tag, c, dt))
        return MPI_SUCCESS;
    return check_send_all(comm, buf, count, datatype, dest, tag, c, dt, fn);
}

static inline int check_recv(MPI_Comm comm, const void *buf, MPI_Count count,
                             MPI_Datatype datatype, int source, int tag, rd_comm_t **c,
                             rd_datatype_t **dt, const char *fn)
{
    if (fast_ok(comm, buf, count, datatype, source, tag, c, dt))
        return MPI_SUCCESS;
    return check_recv_all(comm, buf, count, datatype, source, tag, c, dt, fn);
}

/* Takes a request from the pool, or initializes the caller's local one. */
static rd_request_t *new_request(int kind, rd_request_t *local)
{
    if (!local)
        return rd_req_new(kind);
    rd_req_init_local(local, kind);
    return local;
}

/* Starts a send of a checked request; *out is the request (never NULL on
 * success). local: storage for a blocking call's request, or NULL. */
static int start_send(rd_comm_t *c, const void *buf, MPI_Count count, rd_datatype_t *dt,
                      int dest, int tag, int mode, rd_request_t **out, rd_request_t *local,
                      const char *fn)
{
    rd_request_t *r;
    if (dest == MPI_PROC_NULL) {
        r = rd_api_null_peer_request(RD_REQ_SEND, c);
    } else {
        r = new_request(RD_REQ_SEND, local);
        if (r) {
            int rc = rd_p2p_start(r, buf, (size_t)count, dt, c, dest, tag, mode, 0);
            if (rc != RD_OK) {
                rd_req_free(r);
                return rd_api_error(c, rd_api_class_of(rc), fn, "rank %d cannot send to rank %d: %s",
                                    c->rank, dest, rd_status_str(rc));
            }
            if (!local)
                rd_req_hold_comm(r, c);
        }
    }
    if (!r)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory for a request");
    *out = r;
    return MPI_SUCCESS;
}

static int start_recv(rd_comm_t *c, void *buf, MPI_Count count, rd_datatype_t *dt, int source,
                      int tag, rd_request_t **out, rd_request_t *local, const char *fn)
{
    rd_request_t *r;
    if (source == MPI_PROC_NULL) {
        r = rd_api_null_peer_request(RD_REQ_RECV, c);
    } else {
        r = new_request(RD_REQ_RECV, local);
        if (r) {
            rd_p2p_start(r, buf, (size_t)count, dt, c, source, tag, RD_MODE_STANDARD, 0);
            if (!local)
                rd_req_hold_comm(r, c);
        }
    }
    if (!r)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory for a request");
    *out = r;
    return MPI_SUCCESS;
}

/* Waits for a blocking operation's request, reports its status and frees it. */
int rd_api_finish_blocking(rd_request_t *r, MPI_Status *status, const char *fn)
{
    rd_api_wait(r);
    rd_api_set_status(status, r);
    int rc = r->error;
    int code = rc == RD_OK ? MPI_SUCCESS : rd_api_request_error(r, fn);
    rd_req_free(r);
    if (rc == RD_ETRUNC && status != MPI_STATUS_IGNORE)
        status->MPI_ERROR = code;
    return code;
}

/* Inlined into each of the four entry points, so that MPI_Send's mode
 * tests fold away. */
static inline __attribute__((always_inline)) int
blocking_send(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm, int mode, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *dt;
    rd_request_t *r, local;
    int rc;
    int err = check_send(comm, buf, count, datatype, dest, tag, &c, &dt, fn);
    if (err)
        return err;
    rd_api_lock();
    if (mode == RD_MODE_BUFFERED) {
        err = rd_api_bsend_start(c, buf, count, dt, dest, tag, fn);
    } else if (mode != RD_MODE_SYNC && dest != MPI_PROC_NULL &&
               (rc = rd_p2p_send_now(c, buf, (size_t)count, dt, dest, tag)) != RD_EAGAIN) {
        /* Sent at once: no request needed (a standard or ready send is
         * complete once the data is out of the user's buffer). */
        if (rc != RD_OK)
            err = rd_api_error(c, rd_api_class_of(rc), fn, "rank %d cannot send to rank %d: %s",
                               c->rank, dest, rd_status_str(rc));
    } else if ((err = start_send(c, buf, count, dt, dest, tag, mode, &r, &local, fn)) ==
               MPI_SUCCESS) {
        err = rd_api_finish_blocking(r, MPI_STATUS_IGNORE, fn);
    }
    rd_api_unlock();
    return err;
}

int rd_api_send(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, int mode, const char *fn)
{
    return blocking_send(buf, count, datatype, dest, tag, comm, mode, fn);
}

RD_WEAK_ALIAS(MPI_Send)
int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return blocking_send(buf, count, datatype, dest, tag, comm, RD_MODE_STANDARD, "MPI_Send");
}

RD_WEAK_ALIAS(MPI_Ssend)
int PMPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return blocking_send(buf, count, datatype, dest, tag, comm, RD_MODE_SYNC, "MPI_Ssend");
}

RD_WEAK_ALIAS(MPI_Rsend)
int PMPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return blocking_send(buf, count, datatype, dest, tag, comm, RD_MODE_READY, "MPI_Rsend");
}

RD_WEAK_ALIAS(MPI_Bsend)
int PMPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return blocking_send(buf, count, datatype, dest, tag, comm, RD_MODE_BUFFERED, "MPI_Bsend");
}

int rd_api_isend(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm, int mode, MPI_Request *request, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *dt;
    rd_request_t *r;
    int err = check_send(comm, buf, count, datatype, dest, tag, &c, &dt, fn);
    if (err)
        return err;
    if ((err = rd_api_check_out(c, request, "request", fn)))
        return err;
    rd_api_lock();
    if (mode == RD_MODE_BUFFERED) {
        /* The data is copied out before returning, so the request is born complete. */
        err = rd_api_bsend_start(c, buf, count, dt, dest, tag, fn);
        if (err == MPI_SUCCESS) {
            r = rd_api_null_peer_request(RD_REQ_SEND, c);
            if (!r)
                err = rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory for a request");
        }
    } else {
        err = start_send(c, buf, count, dt, dest, tag, mode, &r, NULL, fn);
    }
    if (err == MPI_SUCCESS)
        *request = r->handle;
    rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Isend)
int PMPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    return rd_api_isend(buf, count, datatype, dest, tag, comm, RD_MODE_STANDARD, request,
                            "MPI_Isend");
}

RD_WEAK_ALIAS(MPI_Issend)
int PMPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request)
{
    return rd_api_isend(buf, count, datatype, dest, tag, comm, RD_MODE_SYNC, request,
                            "MPI_Issend");
}

RD_WEAK_ALIAS(MPI_Irsend)
int PMPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request)
{
    return rd_api_isend(buf, count, datatype, dest, tag, comm, RD_MODE_READY, request,
                            "MPI_Irsend");
}

RD_WEAK_ALIAS(MPI_Ibsend)
int PMPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request)
{
    return rd_api_isend(buf, count, datatype, dest, tag, comm, RD_MODE_BUFFERED, request,
                            "MPI_Ibsend");
}

int rd_api_recv(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                MPI_Comm comm, MPI_Status *status, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *dt;
    rd_request_t *r, local;
    int err = check_recv(comm, buf, count, datatype, source, tag, &c, &dt, fn);
    if (err || (err = rd_api_check_out(c, status, "status", fn)))
        return err;
    rd_api_lock();
    if ((err = start_recv(c, buf, count, dt, source, tag, &r, &local, fn)) == MPI_SUCCESS)
        err = rd_api_finish_blocking(r, status, fn);
    rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Recv)
int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Status *status)
{
    return rd_api_recv(buf, count, datatype, source, tag, comm, status, "MPI_Recv");
}

int rd_api_irecv(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                 MPI_Comm comm, MPI_Request *request, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *dt;
    rd_request_t *r;
    int err = check_recv(comm, buf, count, datatype, source, tag, &c, &dt, fn);
    if (err)
        return err;
    if ((err = rd_api_check_out(c, request, "request", fn)))
        return err;
    rd_api_lock();
    if ((err = start_recv(c, buf, count, dt, source, tag, &r, NULL, fn)) == MPI_SUCCESS)
        *request = r->handle;
    rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Irecv)
int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    return rd_api_irecv(buf, count, datatype, source, tag, comm, request, "MPI_Irecv");
}

int rd_api_sendrecv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status *status, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *sdt, *rdt;
    rd_request_t *sr, *rr, slocal, rlocal;
    int err = check_send(comm, sendbuf, sendcount, sendtype, dest, sendtag, &c, &sdt, fn);
    if (err || (err = check_recv(comm, recvbuf, recvcount, recvtype, source, recvtag, &c, &rdt, fn)) ||
        (err = rd_api_check_out(c, status, "status", fn)))
        return err;
    rd_api_lock();
    err = start_recv(c, recvbuf, recvcount, rdt, source, recvtag, &rr, &rlocal, fn);
    if (err == MPI_SUCCESS) {
        int serr = start_send(c, sendbuf, sendcount, sdt, dest, sendtag, RD_MODE_STANDARD, &sr,
                              &slocal, fn);
        if (serr == MPI_SUCCESS)
            serr = rd_api_finish_blocking(sr, MPI_STATUS_IGNORE, fn);
        err = rd_api_finish_blocking(rr, status, fn);
        if (serr)
            err = serr;
    }
    rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Sendrecv)
int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Status *status)
{
    return rd_api_sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                           recvtype, source, recvtag, comm, status, "MPI_Sendrecv");
}

int rd_api_sendrecv_replace(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, MPI_Comm comm,
                            MPI_Status *status, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *dt;
    rd_request_t *sr, *rr, slocal, rlocal;
    int err = check_send(comm, buf, count, datatype, dest, sendtag, &c, &dt, fn);
    if (err || (err = check_recv(comm, buf, count, datatype, source, recvtag, &c, &dt, fn)) ||
        (err = rd_api_check_out(c, status, "status", fn)))
        return err;
    /* Send from a packed copy so the receive can land in buf. */
    size_t bytes = (size_t)count * dt->size;
    void *tmp = malloc(bytes ? bytes : 1);
    if (!tmp)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "cannot allocate %zu bytes", bytes);
    rd_dt_pack(buf, (size_t)count, dt, 0, tmp, bytes);
    rd_api_lock();
    err = start_recv(c, buf, count, dt, source, recvtag, &rr, &rlocal, fn);
    if (err == MPI_SUCCESS) {
        int serr = start_send(c, tmp, (MPI_Count)bytes, &rd_dt_bytes, dest, sendtag,
                              RD_MODE_STANDARD, &sr, &slocal, fn);
        if (serr == MPI_SUCCESS)
            serr = rd_api_finish_blocking(sr, MPI_STATUS_IGNORE, fn);
        err = rd_api_finish_blocking(rr, status, fn);
        if (serr)
            err = serr;
    }
    rd_api_unlock();
    free(tmp);
    return err;
}

RD_WEAK_ALIAS(MPI_Sendrecv_replace)
int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return rd_api_sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                   status, "MPI_Sendrecv_replace");
}

/* ---- persistent requests ---- */

int rd_api_persistent(int kind, void *buf, MPI_Count count, MPI_Datatype datatype, int peer,
                      int tag, MPI_Comm comm, int mode, MPI_Request *request, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *dt;
    int err = kind == RD_REQ_PERSIST_SEND
                  ? check_send(comm, buf, count, datatype, peer, tag, &c, &dt, fn)
                  : check_recv(comm, buf, count, datatype, peer, tag, &c, &dt, fn);
    if (err)
        return err;
    if ((err = rd_api_check_out(c, request, "request", fn)))
        return err;
    rd_api_lock();
    rd_request_t *r = rd_req_new(kind);
    if (r) {
        rd_p2p_prepare(r, buf, (size_t)count, dt, c, peer, tag, mode);
        rd_req_hold_comm(r, c);
        r->done = 1; /* inactive: waits return at once */
        *request = r->handle;
    }
    rd_api_unlock();
    return r ? MPI_SUCCESS : rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory for a request");
}

RD_WEAK_ALIAS(MPI_Send_init)
int PMPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    return rd_api_persistent(RD_REQ_PERSIST_SEND, (void *)buf, count, datatype, dest, tag, comm,
                      RD_MODE_STANDARD, request, "MPI_Send_init");
}

RD_WEAK_ALIAS(MPI_Ssend_init)
int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
    return rd_api_persistent(RD_REQ_PERSIST_SEND, (void *)buf, count, datatype, dest, tag, comm,
                      RD_MODE_SYNC, request, "MPI_Ssend_init");
}

RD_WEAK_ALIAS(MPI_Rsend_init)
int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
    return rd_api_persistent(RD_REQ_PERSIST_SEND, (void *)buf, count, datatype, dest, tag, comm,
                      RD_MODE_READY, request, "MPI_Rsend_init");
}

RD_WEAK_ALIAS(MPI_Bsend_init)
int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
    return rd_api_persistent(RD_REQ_PERSIST_SEND, (void *)buf, count, datatype, dest, tag, comm,
                      RD_MODE_BUFFERED, request, "MPI_Bsend_init");
}

RD_WEAK_ALIAS(MPI_Recv_init)
int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Request *request)
{
    return rd_api_persistent(RD_REQ_PERSIST_RECV, buf, count, datatype, source, tag, comm,
                      RD_MODE_STANDARD, request, "MPI_Recv_init");
}

/* Activates one persistent request (lock held). */
static int start_one(MPI_Request h, const char *fn)
{
    rd_request_t *p = rd_api_req(h);
    if (p && p->kind == RD_REQ_PERSIST_COLL)
        return rd_api_pcoll_start(p, fn);
    if (!p || (p->kind != RD_REQ_PERSIST_SEND && p->kind != RD_REQ_PERSIST_RECV))
        return rd_api_error(NULL, MPI_ERR_REQUEST, fn, "request 0x%x is not a persistent request",
                            (unsigned)h);
    if (p->inner)
        return rd_api_error(p->comm, MPI_ERR_REQUEST, fn, "request 0x%x is already active",
                            (unsigned)h);
    if (rd_api_part_is(p))
        return rd_api_part_start(p, fn);
    int err;
    rd_request_t *r;
    if (p->kind == RD_REQ_PERSIST_RECV) {
        err = start_recv(p->comm, p->buf, (MPI_Count)p->count, p->dt, p->peer, p->tag, &r, NULL,
                         fn);
    } else if (p->mode == RD_MODE_BUFFERED) {
        err = rd_api_bsend_start(p->comm, p->buf, (MPI_Count)p->count, p->dt, p->peer, p->tag, fn);
        r = err == MPI_SUCCESS ? rd_api_null_peer_request(RD_REQ_SEND, p->comm) : NULL;
        if (err == MPI_SUCCESS && !r)
            err = rd_api_error(p->comm, MPI_ERR_NO_MEM, fn, "out of memory for a request");
    } else {
        err = start_send(p->comm, p->buf, (MPI_Count)p->count, p->dt, p->peer, p->tag, p->mode,
                         &r, NULL, fn);
    }
    if (err == MPI_SUCCESS) {
        p->inner = r;
        p->done = 0;
    }
    return err;
}

RD_WEAK_ALIAS(MPI_Start)
int PMPI_Start(MPI_Request *request)
{
    static const char fn[] = "MPI_Start";
    RD_API_CHECK_INIT(fn);
    int err = rd_api_check_out(NULL, request, "request", fn);
    if (err)
        return err;
    rd_api_lock();
    err = start_one(*request, fn);
    rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Startall)
int PMPI_Startall(int count, MPI_Request array_of_requests[])
{
    static const char fn[] = "MPI_Startall";
    RD_API_CHECK_INIT(fn);
    if (count < 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "negative count %d", count);
    if (count > 0 && !array_of_requests)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "request array is NULL but count is %d", count);
    int err = MPI_SUCCESS;
    rd_api_lock();
    for (int i = 0; i < count && err == MPI_SUCCESS; i++)
        err = start_one(array_of_requests[i], fn);
    rd_api_unlock();
    return err;
}
