/* server: RAMP-Fast's server side. PREPARE stores a version, COMMIT makes
 * a transaction's versions here committed (last writer wins), GET_LATEST
 * returns a key's latest committed version and GET_VERSION exactly the
 * version a second round asks for. Every request carries its client's
 * oldest GET in progress, which is what lets the store free versions. */
#include "server.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "s2pl.h"
#include "star.h"
#include "workload.h"

/* Garbage collection runs every this many requests. */
#define GC_EVERY 64

int ramp_server_init(struct ramp_server *sv, const struct ramp_opts *o, struct ramp_net *net)
{
    memset(sv, 0, sizeof(*sv));
    sv->o = o;
    sv->net = net;
    if (ramp_store_init(&sv->store, o->keys, net->rank, net->servers, o->value_size,
                        o->txn_size, net->clients, o->concurrency))
        return -1;
    sv->reply = malloc(net->max_msg);
    if (!sv->reply)
        return -1;
    if (o->method == RAMP_S2PL && !(sv->locks = ramp_s2pl_locks_new(&sv->store, net->clients)))
        return -1;
    return 0;
}

void ramp_server_set_star(struct ramp_server *sv, struct ramp_star *star)
{
    sv->star = star;
    for (uint64_t i = 0; i < sv->store.nkeys; i++)
        ramp_star_slot_write(star, sv->store.ks[i].latest, 0);
}

void ramp_server_free(struct ramp_server *sv)
{
    if (sv->locks)
        ramp_s2pl_locks_free(sv->locks);
    ramp_store_free(&sv->store);
    free(sv->reply);
}

int ramp_server_reply(struct ramp_server *sv, int client, const struct ramp_msg *m,
                      const struct ramp_version *v, int flags)
{
    struct ramp_msg *r = sv->reply;
    memset(r, 0, sizeof(*r));
    r->type = (uint8_t)(m->type | RAMP_REPLY);
    r->flags = (uint8_t)flags;
    r->slot = m->slot;
    r->entry = m->entry;
    r->key = m->key;
    r->ts = m->ts;
    if (v) {
        r->ts = v->ts;
        r->nmeta = (uint32_t)v->nmeta;
        r->vlen = (uint32_t)sv->o->value_size;
        memcpy(ramp_msg_meta(r), v->meta, (size_t)v->nmeta * 8);
        memcpy(ramp_msg_value(r), v->value, (size_t)sv->o->value_size);
        if (sv->star)
            r->aux = (uint64_t)ramp_store_local(&sv->store, v->key) + 1;
    }
    return sv->net->ops->send_rep(sv->net, client, r);
}

/* The store calls this after each commit: star mirrors the key's state
 * into the slot clients read. */
static void committed(void *ctx, const struct ramp_version *latest, int pending)
{
    struct ramp_server *sv = ctx;
    if (sv->star)
        ramp_star_slot_write(sv->star, latest, pending);
}

static int bad(struct ramp_server *sv, int client, const struct ramp_msg *m, const char *why)
{
    fprintf(stderr, "rdmpi-ramp: server %d: request type %u from client %d for key %llu: %s\n",
            sv->net->rank, m->type, client, (unsigned long long)m->key, why);
    return -1;
}

static int handle(struct ramp_server *sv, int client, struct ramp_msg *m)
{
    struct ramp_store *st = &sv->store;
    const struct ramp_version *v;
    if (client < 0 || client >= sv->net->clients)
        return bad(sv, client, m, "not a client rank");
    if (m->slot >= sv->o->concurrency || m->entry >= (uint32_t)sv->o->txn_size)
        return bad(sv, client, m, "transaction slot or operation out of range");
    if (m->type != RAMP_DONE && m->type != RAMP_COMMIT && ramp_store_local(st, m->key) < 0)
        return bad(sv, client, m, "key not held by this server");
    if (m->nmeta > (uint32_t)sv->o->txn_size ||
        (m->vlen != 0 && m->vlen != (uint32_t)sv->o->value_size))
        return bad(sv, client, m, "metadata or value of the wrong size");
    ramp_store_reads_below(st, client, m->aux);
    switch (m->type) {
    case RAMP_PREPARE:
        if (m->vlen == 0 ||
            ramp_store_prepare(st, m->key, m->ts, (int)m->nmeta, ramp_msg_meta(m),
                               ramp_msg_value(m)))
            return bad(sv, client, m, "duplicate timestamp or no memory");
        if (sv->star)
            ramp_star_slot_write(sv->star, ramp_store_latest(st, m->key), 1);
        return ramp_server_reply(sv, client, m, NULL, 0);
    case RAMP_COMMIT:
        if (ramp_store_commit(st, m->ts, committed, sv) == 0)
            return bad(sv, client, m, "COMMIT of a timestamp with no prepared version here");
        return ramp_server_reply(sv, client, m, NULL, 0);
    case RAMP_GET_LATEST:
        ramp_store_read_begin(st, client, m->ts);
        return ramp_server_reply(sv, client, m, ramp_store_latest(st, m->key), 0);
    case RAMP_GET_VERSION:
        v = ramp_store_find(st, m->key, m->ts);
        return ramp_server_reply(sv, client, m, v, v ? 0 : RAMP_F_NOTFOUND);
    case RAMP_LOCK:
    case RAMP_WRITE_UNLOCK:
    case RAMP_UNLOCK:
        if (!sv->locks)
            return bad(sv, client, m, "a lock request, but the method is not s2pl");
        return ramp_s2pl_handle(sv->locks, sv, client, m, committed, sv);
    case RAMP_DONE:
        ramp_store_client_done(st, client);
        sv->done_clients++;
        return 0;
    default:
        return bad(sv, client, m, "unknown type");
    }
}

/* One-sided reads in progress hold back the store's GC as registered ones
 * do; asking the clients costs a get each, so only when there is garbage. */
static void gc(struct ramp_server *sv)
{
    uint64_t oldest = UINT64_MAX;
    if (sv->star && sv->store.dead_head)
        oldest = ramp_star_oldest_read(sv->star);
    ramp_store_gc(&sv->store, oldest);
}

int ramp_server_run(struct ramp_server *sv)
{
    int empty = 0, client;
    while (sv->done_clients < sv->net->clients) {
        struct ramp_msg *m = sv->net->ops->poll_req(sv->net, &client);
        if (!m) {
            if (++empty >= 64) {
                sched_yield();
                empty = 0;
            }
            continue;
        }
        empty = 0;
        if (handle(sv, client, m))
            return -1;
        if (++sv->requests % GC_EVERY == 0)
            gc(sv);
    }
    gc(sv);
    return 0;
}
