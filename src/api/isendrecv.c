/*
 * MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.0 section 3.10.2) with
 * their _c forms. The send and the receive are ordinary nonblocking
 * point-to-point operations (MPI_Isend and MPI_Irecv: the same checks and
 * matching); the user's request completes when both have, with the
 * receive's status and the first error of the two.
 *
 * That request belongs to a schedule (coll/nbc.h) of one wait step polling
 * the two. The schedule lives on MPI_COMM_SELF: every schedule takes a tag
 * from its communicator's count of collectives, and this call is not
 * collective over the user's communicator. Isendrecv_replace sends a
 * packed copy of the buffer, freed with the schedule.
 */
#include "api/api.h"

#include <limits.h>
#include <stdlib.h>

#include "api/narrow.h"
#include "coll/nbc.h"

/* The two operations behind one user request. */
typedef struct pair {
    rd_request_t *send, *recv;
    rd_request_t *outer;
    void *packed;              /* Isendrecv_replace: the copy being sent */
} pair_t;

/* The wait step: both done? Then the outer request takes the receive's
 * status. */
static int both_done(rd_nbc_t *s, void *arg)
{
    (void)s;
    pair_t *p = arg;
    if (p->send->done <= 0 || p->recv->done <= 0)
        return 0;
    rd_request_t *o = p->outer, *r = p->recv;
    o->st_source = r->st_source;
    o->st_tag = r->st_tag;
    o->st_bytes = r->st_bytes;
    o->peer = r->peer;
    o->peer_world = r->peer_world;
    o->tag = r->tag;
    if (r->error != RD_OK)
        return r->error;
    return p->send->error != RD_OK ? p->send->error : 1;
}

/* Frees the inner requests (or lets them go when the schedule failed before
 * they completed) with the schedule. */
static void release(void *arg)
{
    pair_t *p = arg;
    rd_request_t *in[2] = { p->send, p->recv };
    for (int i = 0; i < 2; i++) {
        if (!in[i])
            continue;
        if (in[i]->done > 0)
            rd_req_free(in[i]);
        else
            in[i]->user_freed = 1;
    }
    free(p->packed);
    free(p);
}

/* Lets a started operation go (its request is freed when it completes). */
static void drop(MPI_Request *h)
{
    if (*h != MPI_REQUEST_NULL)
        PMPI_Request_free(h);
}

/* Starts the send (sbuf, scount, stype) and the receive, and the request
 * that completes with both. packed (malloc'd, may be NULL) is freed with it. */
static int start(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
                 void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag, rd_comm_t *c,
                 MPI_Request *request, void *packed, const char *fn)
{
    MPI_Request hs = MPI_REQUEST_NULL, hr = MPI_REQUEST_NULL;
    pair_t *p = calloc(1, sizeof(*p));
    if (!p) {
        free(packed);
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory for the request");
    }
    p->packed = packed;
    int err = PMPI_Irecv(rbuf, rcount, rtype, source, rtag, c->handle, &hr);
    if (err == MPI_SUCCESS)
        err = PMPI_Isend(sbuf, scount, stype, dest, stag, c->handle, &hs);
    if (err != MPI_SUCCESS) {
        drop(&hr);
        free(packed);
        free(p);
        return err;
    }
    rd_api_lock();
    p->send = rd_api_req(hs);
    p->recv = rd_api_req(hr);
    rd_nbc_t *s = rd_nbc_new(rd_api.self);
    rd_request_t *r = s ? rd_req_new(RD_REQ_NBC) : NULL;
    int rc = RD_ENOMEM;
    if (!r) {
        if (s)
            rd_nbc_free(s);
        release(p);
    } else {
        rd_nbc_on_free(s, release, p);
        rd_nbc_wait(s, both_done, p, NULL);
        r->comm = c;
        r->peer = MPI_PROC_NULL;
        p->outer = r;
        rc = rd_nbc_start(s, r);
        if (rc == RD_OK)
            *request = r->handle;
        else
            rd_req_free(r);
    }
    rd_api_unlock();
    return rc == RD_OK ? MPI_SUCCESS : rd_api_status_error(c, rc, fn);
}

static int check(MPI_Comm comm, MPI_Request *request, rd_comm_t **c, const char *fn)
{
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, c, fn)))
        return err;
    return rd_api_check_out(*c, request, "request", fn);
}

RD_WEAK_ALIAS(MPI_Isendrecv)
int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                   int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                   int recvtag, MPI_Comm comm, MPI_Request *request)
{
    static const char fn[] = "MPI_Isendrecv";
    rd_comm_t *c;
    int err = check(comm, request, &c, fn);
    if (err)
        return err;
    return start(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                 source, recvtag, c, request, NULL, fn);
}

RD_WEAK_ALIAS(MPI_Isendrecv_c)
int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                     int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                     int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    static const char fn[] = "MPI_Isendrecv_c";
    rd_comm_t *c;
    int sc, rc, err;
    if ((err = check(comm, request, &c, fn)) || (err = rd_api_narrow(comm, sendcount, &sc, fn)) ||
        (err = rd_api_narrow(comm, recvcount, &rc, fn)))
        return err;
    return start(sendbuf, sc, sendtype, dest, sendtag, recvbuf, rc, recvtype, source, recvtag, c,
                 request, NULL, fn);
}

static int replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                   int source, int recvtag, MPI_Comm comm, MPI_Request *request, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *dt;
    int err;
    if ((err = check(comm, request, &c, fn)) ||
        (err = rd_api_check_data(c, buf, count, datatype, &dt, fn)))
        return err;
    size_t bytes = (size_t)count * dt->size;
    if (bytes > INT_MAX)
        return rd_api_error(c, MPI_ERR_COUNT, fn, "message of %zu bytes is beyond %d", bytes,
                            INT_MAX);
    void *packed = malloc(bytes ? bytes : 1);
    if (!packed)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory for the copy of the buffer");
    if (dest != MPI_PROC_NULL)
        rd_dt_pack(buf, (size_t)count, dt, 0, packed, bytes);
    return start(packed, (int)bytes, MPI_PACKED, dest, sendtag, buf, count, datatype, source,
                 recvtag, c, request, packed, fn);
}

RD_WEAK_ALIAS(MPI_Isendrecv_replace)
int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, request,
                   "MPI_Isendrecv_replace");
}

RD_WEAK_ALIAS(MPI_Isendrecv_replace_c)
int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                             int sendtag, int source, int recvtag, MPI_Comm comm,
                             MPI_Request *request)
{
    static const char fn[] = "MPI_Isendrecv_replace_c";
    int n, err = rd_api_narrow(comm, count, &n, fn);
    return err ? err
               : replace(buf, n, datatype, dest, sendtag, source, recvtag, comm, request, fn);
}
