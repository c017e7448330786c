/* s2pl: strict two-phase locking, the study's second baseline. A
 * transaction locks its keys one at a time in increasing key order
 * (reader locks for a GET, writer locks for a PUT), a GET's values come
 * with its grants, and at the end a PUT's WRITE_UNLOCKs install its
 * values (last writer wins, as RAMP's COMMIT) and release, a GET's
 * UNLOCKs release. Releases need no reply: one client's messages to a
 * server arrive in order, so its next LOCK there comes after them. */
#include "s2pl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct waiter {
    int client;
    struct ramp_msg req;         /* the LOCK request (header only) */
    struct waiter *next;
};

struct key_lock {
    int readers;
    int writer;
    struct waiter *head, *tail;
};

struct ramp_s2pl_locks {
    struct ramp_store *st;
    struct key_lock *keys;       /* by the store's local index */
};

struct ramp_s2pl_locks *ramp_s2pl_locks_new(struct ramp_store *st, int clients)
{
    (void)clients;
    struct ramp_s2pl_locks *l = calloc(1, sizeof(*l));
    if (!l)
        return NULL;
    l->st = st;
    l->keys = calloc(st->nkeys ? st->nkeys : 1, sizeof(*l->keys));
    if (!l->keys) {
        free(l);
        return NULL;
    }
    return l;
}

void ramp_s2pl_locks_free(struct ramp_s2pl_locks *l)
{
    for (uint64_t i = 0; i < l->st->nkeys; i++) {
        struct waiter *w = l->keys[i].head;
        while (w) {
            struct waiter *n = w->next;
            free(w);
            w = n;
        }
    }
    free(l->keys);
    free(l);
}

static int compatible(const struct key_lock *k, int flags)
{
    if (flags & RAMP_F_WRITE)
        return !k->writer && k->readers == 0;
    return !k->writer;
}

/* Takes the lock for request m and sends the grant, with the key's value
 * for a reader. */
static int grant(struct ramp_s2pl_locks *l, struct ramp_server *sv, struct key_lock *k,
                 int client, const struct ramp_msg *m)
{
    if (m->flags & RAMP_F_WRITE) {
        k->writer = 1;
        return ramp_server_reply(sv, client, m, NULL, 0);
    }
    k->readers++;
    return ramp_server_reply(sv, client, m, ramp_store_latest(l->st, m->key), 0);
}

/* After a release: grant waiters in FIFO order while they fit. */
static int wake(struct ramp_s2pl_locks *l, struct ramp_server *sv, struct key_lock *k)
{
    while (k->head && compatible(k, k->head->req.flags)) {
        struct waiter *w = k->head;
        k->head = w->next;
        if (!k->head)
            k->tail = NULL;
        int rc = grant(l, sv, k, w->client, &w->req);
        free(w);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return 0;
}

int ramp_s2pl_handle(struct ramp_s2pl_locks *l, struct ramp_server *sv, int client,
                     const struct ramp_msg *m, ramp_committed_fn committed, void *ctx)
{
    struct key_lock *k = &l->keys[ramp_store_local(l->st, m->key)];
    switch (m->type) {
    case RAMP_LOCK:
        if (!k->head && compatible(k, m->flags))
            return grant(l, sv, k, client, m);
        struct waiter *w = malloc(sizeof(*w));
        if (!w)
            return -1;
        w->client = client;
        w->req = *m;
        w->next = NULL;
        if (k->tail)
            k->tail->next = w;
        else
            k->head = w;
        k->tail = w;
        return 0;
    case RAMP_WRITE_UNLOCK:
        if (!k->writer || m->vlen == 0)
            break;
        ramp_store_write(l->st, m->key, m->ts, (int)m->nmeta, ramp_msg_meta((struct ramp_msg *)m),
                         ramp_msg_value((struct ramp_msg *)m), committed, ctx);
        k->writer = 0;
        return wake(l, sv, k);
    case RAMP_UNLOCK:
        if (k->readers == 0)
            break;
        k->readers--;
        return wake(l, sv, k);
    }
    fprintf(stderr, "rdmpi-ramp: server: client %d released key %llu it does not hold\n",
            client, (unsigned long long)m->key);
    return -1;
}

static int send_lock(struct ramp_client *c, struct ramp_slot *s)
{
    int i = s->order[s->next_lock];
    struct ramp_msg *m = ramp_client_msg(c, s, RAMP_LOCK, i, s->keys[i], s->ts);
    m->flags = s->is_read ? RAMP_F_READ : RAMP_F_WRITE;
    if (ramp_client_send(c, s->keys[i]) != MPI_SUCCESS)
        return -1;
    return c->net->ops->round_done(c->net);
}

int ramp_s2pl_start(struct ramp_client *c, struct ramp_slot *s)
{
    /* insertion sort of the operations by key: n is at most 64 */
    for (int i = 0; i < s->n; i++) {
        int j = i;
        while (j > 0 && s->keys[s->order[j - 1]] > s->keys[i]) {
            s->order[j] = s->order[j - 1];
            j--;
        }
        s->order[j] = i;
    }
    s->ts = s->is_read ? 0 : (++c->counter << 16) | (uint64_t)c->index;
    s->state = SLOT_LOCK;
    s->next_lock = 0;
    return send_lock(c, s);
}

/* Every lock held: write and release, or just release. */
static int release(struct ramp_client *c, struct ramp_slot *s)
{
    for (int i = 0; i < s->n; i++) {
        struct ramp_msg *m = ramp_client_msg(c, s, s->is_read ? RAMP_UNLOCK : RAMP_WRITE_UNLOCK,
                                             i, s->keys[i], s->ts);
        if (!s->is_read)
            ramp_client_fill_write(c, s, i, m);
        if (ramp_client_send(c, s->keys[i]) != MPI_SUCCESS)
            return -1;
    }
    if (c->net->ops->round_done(c->net) != MPI_SUCCESS)
        return -1;
    ramp_client_finish(c, s);
    return 0;
}

int ramp_s2pl_on_grant(struct ramp_client *c, struct ramp_slot *s, struct ramp_msg *m)
{
    if (s->state != SLOT_LOCK || m->entry != (uint32_t)s->order[s->next_lock]) {
        fprintf(stderr, "rdmpi-ramp: client %d: a lock grant it did not ask for\n", c->index);
        return -1;
    }
    if (s->is_read)
        ramp_client_take_item(c, &s->items[m->entry], m);
    if (++s->next_lock < s->n)
        return send_lock(c, s);
    return release(c, s);
}
