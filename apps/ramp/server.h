/* server: a RAMP server rank: takes requests from its net until every
 * client is done, applies them to its store (and, for star, to the slots
 * clients read one-sided; for s2pl, to its lock table) and replies. */
#ifndef RAMP_SERVER_H
#define RAMP_SERVER_H

#include "net.h"
#include "opts.h"
#include "store.h"

struct ramp_star;
struct ramp_s2pl_locks;

struct ramp_server {
    const struct ramp_opts *o;
    struct ramp_net *net;
    struct ramp_store store;
    struct ramp_star *star;             /* star only */
    struct ramp_s2pl_locks *locks;      /* s2pl only */
    struct ramp_msg *reply;             /* a reply being built */
    int done_clients;
    unsigned long requests;
};

int ramp_server_init(struct ramp_server *sv, const struct ramp_opts *o, struct ramp_net *net);
/* star: the server mirrors its keys into star's slots from now on. */
void ramp_server_set_star(struct ramp_server *sv, struct ramp_star *star);
void ramp_server_free(struct ramp_server *sv);
/* Serves until every client has sent DONE. Returns 0 or -1. */
int ramp_server_run(struct ramp_server *sv);
/* Sends reply item v (or just the header when v is NULL) for request m
 * of client; for the s2pl lock table too. */
int ramp_server_reply(struct ramp_server *sv, int client, const struct ramp_msg *m,
                      const struct ramp_version *v, int flags);

#endif
