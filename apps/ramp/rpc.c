/* rpc: requests and replies as two-sided MPI messages, the study's GET/PUT
 * baseline. Sends are nonblocking from a pool of buffers, so neither side
 * ever blocks in a send while its peer blocks in one too; receives take
 * whatever arrived (MPI_Iprobe, then MPI_Recv of its size). */
#include "rpc.h"

#include <stdlib.h>
#include <string.h>

#define TAG_REQ 41
#define TAG_REP 42

struct rpc {
    int nbuf;
    MPI_Request *req;
    char *bufs;             /* nbuf buffers of max_msg bytes */
    char *rbuf;
};

/* A pool buffer whose send has completed, waiting for one if all are busy. */
static int free_buf(struct rpc *r)
{
    int idx, flag;
    for (idx = 0; idx < r->nbuf; idx++)
        if (r->req[idx] == MPI_REQUEST_NULL)
            return idx;
    MPI_Testany(r->nbuf, r->req, &idx, &flag, MPI_STATUS_IGNORE);
    if (!flag)
        MPI_Waitany(r->nbuf, r->req, &idx, MPI_STATUS_IGNORE);
    return idx;
}

static int send_to(struct ramp_net *n, int rank, int tag, const struct ramp_msg *m)
{
    struct rpc *r = n->impl;
    int i = free_buf(r);
    size_t len = ramp_msg_len(m);
    char *b = r->bufs + (size_t)i * n->max_msg;
    memcpy(b, m, len);
    return MPI_Isend(b, (int)len, MPI_BYTE, rank, tag, n->comm, &r->req[i]);
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
    for (int i = 0; i < r->nbuf; i++)
        MPI_Wait(&r->req[i], MPI_STATUS_IGNORE);
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
    /* A client has at most one request per operation of each slot out; a
     * server's replies go as fast as clients take them. */
    r->nbuf = o->concurrency * o->txn_size + 4;
    if (r->nbuf < 64)
        r->nbuf = 64;
    r->req = malloc((size_t)r->nbuf * sizeof(*r->req));
    r->bufs = malloc((size_t)r->nbuf * n->max_msg);
    r->rbuf = malloc(n->max_msg);
    if (!r->req || !r->bufs || !r->rbuf) {
        free(r->req);
        free(r->bufs);
        free(r->rbuf);
        free(r);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < r->nbuf; i++)
        r->req[i] = MPI_REQUEST_NULL;
    n->impl = r;
    return MPI_SUCCESS;
}
