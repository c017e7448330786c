/* client: RAMP-Fast's client side (Bailis et al., SIGMOD 2014), run as
 * --concurrency independent slots. A PUT gets a timestamp unique across
 * clients (a per-client counter above the client index: never the wall
 * clock), PREPAREs each key at its server with the other keys as
 * metadata, waits for every acknowledgement, waits --prepare-delay-us,
 * then COMMITs at each server involved and waits for those acks, so a
 * returned PUT is visible. A GET reads the latest committed versions,
 * then asks again, by timestamp, for each key whose version is older than
 * one the other items' metadata name. */
#include "client.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "s2pl.h"
#include "star.h"

/* The timestamp's low 16 bits are the client index (opts.c checks that
 * clients fit). */
#define TS_CLIENT_BITS 16

int ramp_client_init(struct ramp_client *c, const struct ramp_opts *o, struct ramp_net *net,
                     struct ramp_star *star, struct ramp_history *history)
{
    memset(c, 0, sizeof(*c));
    c->o = o;
    c->net = net;
    c->star = star;
    c->index = net->rank - net->servers;
    c->history = history;
    c->next_g = 1;
    int t = o->txn_size;
    if (ramp_workload_init(&c->wl, o, c->index))
        return -1;
    c->slots = calloc((size_t)o->concurrency, sizeof(*c->slots));
    c->msg = malloc(net->max_msg);
    c->value = malloc((size_t)o->value_size);
    if (!c->slots || !c->msg || !c->value)
        return -1;
    for (int i = 0; i < o->concurrency; i++) {
        struct ramp_slot *s = &c->slots[i];
        s->keys = malloc((size_t)t * sizeof(*s->keys));
        s->order = malloc((size_t)t * sizeof(*s->order));
        s->items = calloc((size_t)t, sizeof(*s->items));
        if (!s->keys || !s->order || !s->items)
            return -1;
        for (int j = 0; j < t; j++)
            if (!(s->items[j].meta = malloc((size_t)t * sizeof(uint64_t))))
                return -1;
    }
    c->idle = o->concurrency;
    return 0;
}

void ramp_client_free(struct ramp_client *c)
{
    if (c->slots) {
        for (int i = 0; i < c->o->concurrency; i++) {
            struct ramp_slot *s = &c->slots[i];
            if (s->items)
                for (int j = 0; j < c->o->txn_size; j++)
                    free(s->items[j].meta);
            free(s->items);
            free(s->keys);
            free(s->order);
        }
    }
    free(c->slots);
    free(c->msg);
    free(c->value);
    free(c->final_ts);
    free(c->final_crc);
    ramp_workload_free(&c->wl);
    memset(c, 0, sizeof(*c));
}

/* The servers free versions only GETs numbered at least this may need:
 * the oldest GET in progress here, else the next one. */
static uint64_t gc_low(const struct ramp_client *c)
{
    uint64_t low = c->next_g;
    for (int i = 0; i < c->o->concurrency; i++) {
        const struct ramp_slot *s = &c->slots[i];
        if ((s->state == SLOT_ROUND1 || s->state == SLOT_ROUND2) && s->g < low)
            low = s->g;
    }
    return low;
}

struct ramp_msg *ramp_client_msg(struct ramp_client *c, struct ramp_slot *s, int type,
                                 int entry, uint64_t key, uint64_t ts)
{
    struct ramp_msg *m = c->msg;
    memset(m, 0, sizeof(*m));
    m->type = (uint8_t)type;
    m->slot = (uint16_t)(s - c->slots);
    m->entry = (uint32_t)entry;
    m->key = key;
    m->ts = ts;
    m->aux = gc_low(c);
    return m;
}

void ramp_client_fill_write(struct ramp_client *c, struct ramp_slot *s, int entry,
                            struct ramp_msg *m)
{
    uint64_t *meta = ramp_msg_meta(m);
    for (int j = 0; j < s->n; j++)
        if (j != entry)
            meta[m->nmeta++] = s->keys[j];
    m->vlen = (uint32_t)c->o->value_size;
    ramp_value_fill(ramp_msg_value(m), c->o->value_size, s->keys[entry], s->ts);
}

int ramp_client_send(struct ramp_client *c, uint64_t key)
{
    return c->net->ops->send_req(c->net, ramp_key_server(key, c->net->servers), c->msg);
}

void ramp_client_take_item(struct ramp_client *c, struct ramp_item *item, struct ramp_msg *m)
{
    item->ts = m->ts;
    item->nmeta = (int)m->nmeta;
    if (item->nmeta > c->o->txn_size)
        item->nmeta = c->o->txn_size;
    memcpy(item->meta, ramp_msg_meta(m), (size_t)item->nmeta * 8);
    /* the crc only serves the history */
    item->crc = c->history ? ramp_crc32(ramp_msg_value(m), m->vlen) : 0;
}

/* PREPARE every key of PUT s, with the others as metadata. */
static int put_start(struct ramp_client *c, struct ramp_slot *s)
{
    s->ts = (++c->counter << TS_CLIENT_BITS) | (uint64_t)c->index;
    s->state = SLOT_PREPARE;
    s->waiting = s->n;
    s->next_commit = 0;
    for (int i = 0; i < s->n; i++) {
        struct ramp_msg *m = ramp_client_msg(c, s, RAMP_PREPARE, i, s->keys[i], s->ts);
        ramp_client_fill_write(c, s, i, m);
        if (ramp_client_send(c, s->keys[i]) != MPI_SUCCESS)
            return -1;
    }
    return c->net->ops->round_done(c->net);
}

/* One COMMIT per server that holds a key of PUT s (the first operation
 * on that server names the mailbox entry), from operation s->next_commit
 * on. --commit-stagger-us (a test knob) pauses after the first COMMIT,
 * so that GETs see the PUT committed at one server and not yet at the
 * others: the state RAMP's second round repairs. */
static int put_commit(struct ramp_client *c, struct ramp_slot *s)
{
    int first = s->next_commit == 0;
    s->state = SLOT_COMMIT;
    for (int i = s->next_commit; i < s->n; i++) {
        int srv = ramp_key_server(s->keys[i], c->net->servers), seen = 0;
        for (int j = 0; j < i; j++)
            seen |= ramp_key_server(s->keys[j], c->net->servers) == srv;
        if (seen)
            continue;
        ramp_client_msg(c, s, RAMP_COMMIT, i, s->keys[i], s->ts);
        if (ramp_client_send(c, s->keys[i]) != MPI_SUCCESS)
            return -1;
        s->waiting++;
        s->next_commit = i + 1;
        if (first && c->o->commit_stagger_us > 0 && i + 1 < s->n) {
            s->state = SLOT_STAGGER;
            s->commit_at = app_now() + c->o->commit_stagger_us * 1e-6;
            break;
        }
    }
    return c->net->ops->round_done(c->net);
}

static int get_round2(struct ramp_client *c, struct ramp_slot *s);

/* The first round of GET s: one-sided reads where star can, GET_LATEST
 * for the rest. */
static int get_start(struct ramp_client *c, struct ramp_slot *s)
{
    s->g = c->next_g++;
    s->state = SLOT_ROUND1;
    s->waiting = 0;
    uint64_t have = 0;
    if (c->star && ramp_star_first_round(c->star, c, s, &have) != MPI_SUCCESS)
        return -1;
    for (int i = 0; i < s->n; i++) {
        if (have & (1ull << i))
            continue;
        ramp_client_msg(c, s, RAMP_GET_LATEST, i, s->keys[i], s->g);
        if (ramp_client_send(c, s->keys[i]) != MPI_SUCCESS)
            return -1;
        s->waiting++;
    }
    if (s->waiting == 0)
        return get_round2(c, s);
    return c->net->ops->round_done(c->net);
}

/* RAMP-Fast's second round: for each key read, the highest timestamp of
 * a transaction that wrote it among the versions returned; fetch exactly
 * that version where the first round returned an older one. */
static int get_round2(struct ramp_client *c, struct ramp_slot *s)
{
    if (c->o->no_second_round) {
        ramp_client_finish(c, s);
        return 0;
    }
    s->state = SLOT_ROUND2;
    s->waiting = 0;
    for (int i = 0; i < s->n; i++) {
        uint64_t want = s->items[i].ts;
        for (int j = 0; j < s->n; j++)
            for (int k = 0; k < s->items[j].nmeta; k++)
                if (s->items[j].meta[k] == s->keys[i] && s->items[j].ts > want)
                    want = s->items[j].ts;
        if (want == s->items[i].ts)
            continue;
        ramp_client_msg(c, s, RAMP_GET_VERSION, i, s->keys[i], want);
        if (ramp_client_send(c, s->keys[i]) != MPI_SUCCESS)
            return -1;
        s->waiting++;
    }
    if (s->waiting == 0) {
        ramp_client_finish(c, s);
        return 0;
    }
    return c->net->ops->round_done(c->net);
}

static int on_reply(struct ramp_client *c, struct ramp_msg *m)
{
    if (m->slot >= c->o->concurrency || m->entry >= (uint32_t)c->o->txn_size) {
        fprintf(stderr, "rdmpi-ramp: client %d: reply for slot %u entry %u out of range\n",
                c->index, m->slot, m->entry);
        return -1;
    }
    struct ramp_slot *s = &c->slots[m->slot];
    switch (m->type) {
    case RAMP_PREPARE | RAMP_REPLY:
        if (--s->waiting > 0)
            return 0;
        if (c->o->prepare_delay_us > 0) {
            s->state = SLOT_DELAY;
            s->commit_at = app_now() + c->o->prepare_delay_us * 1e-6;
            return 0;
        }
        return put_commit(c, s);
    case RAMP_COMMIT | RAMP_REPLY:
        /* (a staggered PUT has more COMMITs to send) */
        if (--s->waiting == 0 && s->state == SLOT_COMMIT)
            ramp_client_finish(c, s);
        return 0;
    case RAMP_GET_LATEST | RAMP_REPLY:
        ramp_client_take_item(c, &s->items[m->entry], m);
        if (c->star)
            ramp_star_learn(c->star, m->key, m->aux);
        if (--s->waiting > 0)
            return 0;
        return get_round2(c, s);
    case RAMP_GET_VERSION | RAMP_REPLY:
        if (m->flags & RAMP_F_NOTFOUND) {
            /* RAMP-Fast guarantees the version exists: a store bug. */
            fprintf(stderr, "rdmpi-ramp: client %d: second round found no version %llu of "
                    "key %llu (a bug in the store or its garbage collection)\n", c->index,
                    (unsigned long long)m->ts, (unsigned long long)m->key);
            return -1;
        }
        ramp_client_take_item(c, &s->items[m->entry], m);
        if (--s->waiting == 0)
            ramp_client_finish(c, s);
        return 0;
    case RAMP_LOCK | RAMP_REPLY:
        return ramp_s2pl_on_grant(c, s, m);
    default:
        fprintf(stderr, "rdmpi-ramp: client %d: unexpected reply type %#x\n", c->index,
                m->type);
        return -1;
    }
}

/* Whether another transaction may start now. */
static int more(struct ramp_client *c)
{
    if (c->final)
        return c->final_next < c->o->keys;
    if (c->o->txns)
        return c->started < c->o->txns;
    return app_now() < c->end_time;
}

/* Fills slot s with the next transaction and sends its first round. */
static int start(struct ramp_client *c, struct ramp_slot *s)
{
    if (c->final) {
        s->is_read = 1;
        s->n = 0;
        while (s->n < c->o->txn_size && c->final_next < c->o->keys)
            s->keys[s->n++] = c->final_next++;
    } else {
        s->is_read = ramp_workload_next(&c->wl, s->keys);
        s->n = c->o->txn_size;
    }
    c->started++;
    c->idle--;
    s->start = app_now();
    if (c->o->method == RAMP_S2PL)
        return ramp_s2pl_start(c, s);
    return s->is_read ? get_start(c, s) : put_start(c, s);
}

void ramp_client_finish(struct ramp_client *c, struct ramp_slot *s)
{
    uint64_t ts[64];
    uint32_t crc[64];
    if (c->final) {
        for (int i = 0; i < s->n; i++) {
            c->final_ts[s->keys[i]] = s->items[i].ts;
            c->final_crc[s->keys[i]] = s->items[i].crc;
        }
    } else {
        app_hist_add(&c->lat, (app_now() - s->start) * 1e6);
        c->done++;
        if (c->history && s->is_read) {
            for (int i = 0; i < s->n; i++) {
                ts[i] = s->items[i].ts;
                crc[i] = s->items[i].crc;
            }
            ramp_history_get(c->history, 0, s->n, s->keys, ts, crc);
        } else if (c->history) {
            for (int i = 0; i < s->n; i++) {
                ramp_value_fill(c->value, c->o->value_size, s->keys[i], s->ts);
                crc[i] = ramp_crc32(c->value, (size_t)c->o->value_size);
            }
            ramp_history_put(c->history, s->ts, s->n, s->keys, crc);
        }
    }
    if (c->star && s->is_read)
        ramp_star_get_done(c->star, s, (int)(s - c->slots));
    s->state = SLOT_IDLE;
    c->idle++;
}

/* Until no transaction is left: start transactions in idle slots, take
 * replies, send the COMMITs whose delay has passed. */
static int drive(struct ramp_client *c)
{
    int empty = 0;
    for (;;) {
        for (int i = 0; i < c->o->concurrency && c->idle > 0; i++)
            if (c->slots[i].state == SLOT_IDLE && more(c) && start(c, &c->slots[i]))
                return -1;
        if (c->idle == c->o->concurrency) {
            if (!more(c))
                return 0;
            continue; /* all done at once (star's one-sided reads): start more */
        }
        struct ramp_msg *m = c->net->ops->poll_rep(c->net);
        if (m) {
            if (on_reply(c, m))
                return -1;
            empty = 0;
        } else if (++empty >= 64) {
            /* oversubscribed ranks: let the servers run */
            sched_yield();
            empty = 0;
        }
        if (c->o->prepare_delay_us > 0 || c->o->commit_stagger_us > 0) {
            double now = app_now();
            for (int i = 0; i < c->o->concurrency; i++) {
                struct ramp_slot *s = &c->slots[i];
                if ((s->state == SLOT_DELAY || s->state == SLOT_STAGGER) && now >= s->commit_at &&
                    put_commit(c, s))
                    return -1;
                if (s->state == SLOT_COMMIT && s->waiting == 0)
                    ramp_client_finish(c, s);
            }
        }
    }
}

int ramp_client_run(struct ramp_client *c)
{
    if (c->o->seconds > 0)
        c->end_time = app_now() + c->o->seconds;
    return drive(c);
}

int ramp_client_final_read(struct ramp_client *c)
{
    c->final_ts = malloc(c->o->keys * sizeof(*c->final_ts));
    c->final_crc = malloc(c->o->keys * sizeof(*c->final_crc));
    if (!c->final_ts || !c->final_crc)
        return -1;
    c->final = 1;
    c->final_next = 0;
    int rc = drive(c);
    c->final = 0;
    if (rc)
        return rc;
    if (c->history) {
        uint64_t *keys = malloc(c->o->keys * sizeof(*keys));
        if (!keys)
            return -1;
        for (uint64_t k = 0; k < c->o->keys; k++)
            keys[k] = k;
        ramp_history_get(c->history, 1, (int)c->o->keys, keys, c->final_ts, c->final_crc);
        free(keys);
    }
    return 0;
}

int ramp_client_done(struct ramp_client *c)
{
    struct ramp_slot *s = &c->slots[0];
    for (int srv = 0; srv < c->net->servers; srv++) {
        ramp_client_msg(c, s, RAMP_DONE, 0, 0, 0);
        if (c->net->ops->send_req(c->net, srv, c->msg) != MPI_SUCCESS)
            return -1;
    }
    return c->net->ops->round_done(c->net);
}
