/* rpc: requests and replies as two-sided MPI messages, the study's GET/PUT
 * baseline. Sends are nonblocking from a pool of buffers that grows
 * instead of waiting, so no rank ever blocks in a send (with messages
 * above the eager limit, a client and a server each waiting for its own
 * sends to complete would wait for each other); receives take whatever
 * arrived (MPI_Iprobe, then MPI_Recv of its size). */
#include "rpc.h"

#include <stdlib.h>
#include <string.h>

#define TAG_REQ 41
#define TAG_REP 42

struct rpc {
    int nbuf;
    MPI_Request *req;
    char **bufs;            /* nbuf buffers of max_msg bytes */
    char *rbuf;
};

/* A pool buffer whose send has completed; the pool doubles when every
 * buffer is in flight. Returns -1 without memory. */
static int free_buf(struct ramp_net *n, struct rpc *r)
{
    int idx, flag;
    for (idx = 0; idx < r->nbuf; idx++)
        if (r->req[idx] == MPI_REQUEST_NULL)
            return idx;
    MPI_Testany(r->nbuf, r->req, &idx, &flag, MPI_STATUS_IGNORE);
    if (flag && idx != MPI_UNDEFINED)
        return idx;
    int more = r->nbuf * 2;
    MPI_Request *req = realloc(r->req, (size_t)more * sizeof(*req));
    if (!req)
        return -1;
    r->req = req;
    char **bufs = realloc(r->bufs, (size_t)more * sizeof(*bufs));
    if (!bufs)
        return -1;
    r->bufs = bufs;
    for (int i = r->nbuf; i < more; i++) {
        r->req[i] = MPI_REQUEST_NULL;
        if (!(r->bufs[i] = malloc(n->max_msg)))
            return -1;
    }
    idx = r->nbuf;
    r->nbuf = more;
    return idx;
}

static int send_to(struct ramp_net *n, int rank, int tag, const struct ramp_msg *m)
{
    struct rpc *r = n->impl;
    int i = free_buf(n, r);
    if (i < 0)
        return MPI_ERR_NO_MEM;
    size_t len = ramp_msg_len(m);
    memcpy(r->bufs[i], m, len);
    return MPI_Isend(r->bufs[i], (int)len, MPI_BYTE, rank, tag, n->comm, &r->req[i]);
}

static struct ramp_msg *recv_from_any(struct ramp_net *n, int tag, int *source)
{
    struct rpc *r = n->impl;
    int flag;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, tag, n->comm, &flag, &st);
    if (!flag)
        return NULL;
    MPI_Recv(r->rbuf, (int)n->max_msg, MPI_BYTE, st.MPI_SOURCE, tag, n->comm, MPI_STATUS_IGNORE);
    *source = st.MPI_SOURCE;
    return (struct ramp_msg *)(void *)r->rbuf;
}

static int rpc_send_req(struct ramp_net *n, int server, const struct ramp_msg *m)
{
    return send_to(n, server, TAG_REQ, m);
}

static int rpc_round_done(struct ramp_net *n)
{
    (void)n;
    return MPI_SUCCESS;
}

static struct ramp_msg *rpc_poll_rep(struct ramp_net *n)
{
    int src;
    return recv_from_any(n, TAG_REP, &src);
}

static struct ramp_msg *rpc_poll_req(struct ramp_net *n, int *client)
{
    int src;
    struct ramp_msg *m = recv_from_any(n, TAG_REQ, &src);
    if (m)
        *client = src - n->servers;
    return m;
}

static int rpc_send_rep(struct ramp_net *n, int client, const struct ramp_msg *m)
{
    return send_to(n, n->servers + client, TAG_REP, m);
}

static void rpc_free(struct ramp_net *n)
{
    struct rpc *r = n->impl;
    for (int i = 0; i < r->nbuf; i++) {
        MPI_Wait(&r->req[i], MPI_STATUS_IGNORE);
        free(r->bufs[i]);
    }
    free(r->req);
    free(r->bufs);
    free(r->rbuf);
    free(r);
    n->impl = NULL;
}

static const struct ramp_net_ops rpc_ops = {
    rpc_send_req, rpc_round_done, rpc_poll_rep, rpc_poll_req, rpc_send_rep, rpc_free,
};

int ramp_rpc_init(struct ramp_net *n, const struct ramp_opts *o, MPI_Comm comm)
{
    struct rpc *r = calloc(1, sizeof(*r));
    if (!r)
        return MPI_ERR_NO_MEM;
    n->ops = &rpc_ops;
    n->comm = comm;
    MPI_Comm_rank(comm, &n->rank);
    int size;
    MPI_Comm_size(comm, &size);
    n->servers = o->servers;
    n->clients = size - o->servers;
    n->concurrency = o->concurrency;
    n->txn_size = o->txn_size;
    n->max_msg = ramp_msg_max(o->txn_size, o->value_size);
    /* A client has at most one request per operation of each slot out
     * (s2pl's releases aside); the pool grows past that if it must. */
    r->nbuf = o->concurrency * o->txn_size + 4;
    r->req = malloc((size_t)r->nbuf * sizeof(*r->req));
    r->bufs = calloc((size_t)r->nbuf, sizeof(*r->bufs));
    r->rbuf = malloc(n->max_msg);
    n->impl = r;
    if (!r->req || !r->bufs || !r->rbuf)
        goto nomem;
    for (int i = 0; i < r->nbuf; i++) {
        r->req[i] = MPI_REQUEST_NULL;
        if (!(r->bufs[i] = malloc(n->max_msg)))
            goto nomem;
    }
    return MPI_SUCCESS;
nomem:
    for (int i = 0; r->bufs && i < r->nbuf; i++)
        free(r->bufs[i]);
    free(r->req);
    free(r->bufs);
    free(r->rbuf);
    free(r);
    n->impl = NULL;
    return MPI_ERR_NO_MEM;
}
