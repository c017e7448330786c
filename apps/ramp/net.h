/* net: how requests reach servers and replies reach clients, one ops
 * table per method (rpc.c: two-sided messages; mailbox.c: one-sided puts
 * into polled mailboxes). The store's logic never knows which one runs. */
#ifndef RAMP_NET_H
#define RAMP_NET_H

#include <stddef.h>
#include <mpi.h>

#include "opts.h"
#include "proto.h"

struct ramp_net;

struct ramp_net_ops {
    /* client: sends m (m->slot, m->entry set) to server rank `server`. */
    int (*send_req)(struct ramp_net *n, int server, const struct ramp_msg *m);
    /* client: after a round of send_req, before waiting for its replies. */
    int (*round_done)(struct ramp_net *n);
    /* client: a reply, or NULL; valid until the next call. */
    struct ramp_msg *(*poll_rep)(struct ramp_net *n);
    /* server: a request and its client index, or NULL; valid until the
     * next call. */
    struct ramp_msg *(*poll_req)(struct ramp_net *n, int *client);
    /* server: sends reply m to client index `client`. */
    int (*send_rep)(struct ramp_net *n, int client, const struct ramp_msg *m);
    void (*free)(struct ramp_net *n);
};

struct ramp_net {
    const struct ramp_net_ops *ops;
    MPI_Comm comm;          /* servers are ranks 0..servers-1, clients follow */
    int rank;
    int servers;
    int clients;
    int concurrency;
    int txn_size;
    size_t max_msg;
    void *impl;
};

#endif
