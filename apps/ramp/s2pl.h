/* s2pl: the strict two-phase locking baseline over rpc. Clients take a
 * reader or writer lock per key, one at a time in key order (so no two
 * transactions wait for each other in a cycle), read with the grant,
 * write and release at the end; servers keep a FIFO lock table per key. */
#ifndef RAMP_S2PL_H
#define RAMP_S2PL_H

#include "client.h"
#include "proto.h"
#include "server.h"
#include "store.h"

struct ramp_s2pl_locks;

/* server side */
struct ramp_s2pl_locks *ramp_s2pl_locks_new(struct ramp_store *st, int clients);
void ramp_s2pl_locks_free(struct ramp_s2pl_locks *l);
/* LOCK, WRITE_UNLOCK or UNLOCK m from client; grants go out through
 * ramp_server_reply, writes into the store with committed. */
int ramp_s2pl_handle(struct ramp_s2pl_locks *l, struct ramp_server *sv, int client,
                     const struct ramp_msg *m, ramp_committed_fn committed, void *ctx);

/* client side */
int ramp_s2pl_start(struct ramp_client *c, struct ramp_slot *s);
int ramp_s2pl_on_grant(struct ramp_client *c, struct ramp_slot *s, struct ramp_msg *m);

#endif
