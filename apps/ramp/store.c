/* store: RAMP-Fast's server-side versions. Every version of a key is kept
 * on the key's list; COMMIT(ts) finds ts's versions through a hash index
 * and installs each that is newer than its key's latest committed version.
 * A version stops being needed once it is no longer the latest and no GET
 * that could still ask for it in a second round is in progress (see
 * ramp_store_gc). */
#include "store.h"

#include <stdlib.h>
#include <string.h>

#include "workload.h"

static uint64_t ts_hash(uint64_t ts)
{
    ts *= 0x9e3779b97f4a7c15ULL;
    return ts ^ (ts >> 31);
}

static struct ramp_version *version_new(struct ramp_store *s, uint64_t key, uint64_t ts,
                                        int nmeta, const uint64_t *meta, const uint8_t *value)
{
    struct ramp_version *v = malloc(sizeof(*v) + (size_t)s->txn_size * 8 + (size_t)s->value_size);
    if (!v)
        return NULL;
    memset(v, 0, sizeof(*v));
    v->key = key;
    v->ts = ts;
    v->nmeta = nmeta;
    v->meta = (uint64_t *)(void *)(v + 1);
    v->value = (uint8_t *)(v->meta + s->txn_size);
    if (nmeta)
        memcpy(v->meta, meta, (size_t)nmeta * 8);
    memcpy(v->value, value, (size_t)s->value_size);
    s->live++;
    if (s->live > s->max_live)
        s->max_live = s->live;
    return v;
}

int ramp_store_init(struct ramp_store *s, uint64_t keys, int server, int servers,
                    int value_size, int txn_size, int nclients, int concurrency)
{
    memset(s, 0, sizeof(*s));
    s->value_size = value_size;
    s->txn_size = txn_size;
    s->all_keys = keys;
    s->nclients = nclients;
    s->concurrency = concurrency;
    s->local = malloc(keys * sizeof(*s->local));
    s->keys = malloc(keys * sizeof(*s->keys));
    s->reads = calloc((size_t)nclients, sizeof(*s->reads));
    uint8_t *value = malloc((size_t)value_size);
    if (!s->local || !s->keys || !s->reads || !value)
        goto err;
    for (int c = 0; c < nclients; c++) {
        s->reads[c].r = malloc((size_t)(concurrency + 1) * sizeof(struct ramp_read));
        if (!s->reads[c].r)
            goto err;
    }
    for (uint64_t k = 0; k < keys; k++) {
        if (ramp_key_server(k, servers) == server) {
            s->local[k] = (uint32_t)s->nkeys;
            s->keys[s->nkeys++] = k;
        } else {
            s->local[k] = UINT32_MAX;
        }
    }
    s->ks = calloc(s->nkeys ? s->nkeys : 1, sizeof(*s->ks));
    uint64_t buckets = 1024;
    while (buckets < (uint64_t)nclients * (uint64_t)concurrency * 4)
        buckets *= 2;
    s->txn_index = calloc(buckets, sizeof(*s->txn_index));
    s->txn_mask = buckets - 1;
    if (!s->ks || !s->txn_index)
        goto err;
    for (uint64_t i = 0; i < s->nkeys; i++) {
        ramp_value_fill(value, value_size, s->keys[i], 0);
        struct ramp_version *v = version_new(s, s->keys[i], 0, 0, NULL, value);
        if (!v)
            goto err;
        v->committed = 1;
        s->ks[i].versions = s->ks[i].latest = v;
    }
    free(value);
    return 0;
err:
    free(value);
    ramp_store_free(s);
    return -1;
}

void ramp_store_free(struct ramp_store *s)
{
    if (s->ks) {
        for (uint64_t i = 0; i < s->nkeys; i++) {
            struct ramp_version *v = s->ks[i].versions;
            while (v) {
                struct ramp_version *n = v->key_next;
                free(v);
                v = n;
            }
        }
    }
    if (s->reads)
        for (int c = 0; c < s->nclients; c++)
            free(s->reads[c].r);
    free(s->reads);
    free(s->ks);
    free(s->keys);
    free(s->local);
    free(s->txn_index);
    memset(s, 0, sizeof(*s));
}

int64_t ramp_store_local(const struct ramp_store *s, uint64_t key)
{
    if (key >= s->all_keys || s->local[key] == UINT32_MAX)
        return -1;
    return s->local[key];
}

const struct ramp_version *ramp_store_find(const struct ramp_store *s, uint64_t key, uint64_t ts)
{
    int64_t i = ramp_store_local(s, key);
    if (i < 0)
        return NULL;
    for (const struct ramp_version *v = s->ks[i].versions; v; v = v->key_next)
        if (v->ts == ts)
            return v;
    return NULL;
}

const struct ramp_version *ramp_store_latest(const struct ramp_store *s, uint64_t key)
{
    int64_t i = ramp_store_local(s, key);
    return i < 0 ? NULL : s->ks[i].latest;
}

int ramp_store_pending(const struct ramp_store *s, uint64_t key)
{
    int64_t i = ramp_store_local(s, key);
    return i >= 0 && s->ks[i].pending > 0;
}

int ramp_store_prepare(struct ramp_store *s, uint64_t key, uint64_t ts, int nmeta,
                       const uint64_t *meta, const uint8_t *value)
{
    int64_t i = ramp_store_local(s, key);
    if (i < 0 || ramp_store_find(s, key, ts))
        return -1;
    struct ramp_version *v = version_new(s, key, ts, nmeta, meta, value);
    if (!v)
        return -1;
    v->key_next = s->ks[i].versions;
    s->ks[i].versions = v;
    s->ks[i].pending++;
    uint64_t b = ts_hash(ts) & s->txn_mask;
    v->txn_next = s->txn_index[b];
    s->txn_index[b] = v;
    return 0;
}

/* v is no longer needed by new reads: queue it, stamped with the clock. */
static void bury(struct ramp_store *s, struct ramp_version *v)
{
    v->dead_at = s->clock++;
    v->dead_next = NULL;
    if (s->dead_tail)
        s->dead_tail->dead_next = v;
    else
        s->dead_head = v;
    s->dead_tail = v;
}

/* v is committed: it becomes its key's latest if newer, else is buried.
 * committed(ctx, latest, pending) then sees the key's state. */
static void install(struct ramp_store *s, struct ramp_version *v, ramp_committed_fn committed,
                    void *ctx)
{
    struct ramp_key_state *k = &s->ks[s->local[v->key]];
    v->committed = 1;
    if (v->ts > k->latest->ts) {
        bury(s, k->latest);
        k->latest = v;
    } else {
        bury(s, v);
    }
    if (committed)
        committed(ctx, k->latest, k->pending);
}

int ramp_store_commit(struct ramp_store *s, uint64_t ts, ramp_committed_fn committed, void *ctx)
{
    struct ramp_version **pp = &s->txn_index[ts_hash(ts) & s->txn_mask];
    int n = 0;
    while (*pp) {
        struct ramp_version *v = *pp;
        if (v->ts != ts) {
            pp = &v->txn_next;
            continue;
        }
        *pp = v->txn_next;
        s->ks[s->local[v->key]].pending--;
        install(s, v, committed, ctx);
        n++;
    }
    return n;
}

void ramp_store_write(struct ramp_store *s, uint64_t key, uint64_t ts, int nmeta,
                      const uint64_t *meta, const uint8_t *value, ramp_committed_fn committed,
                      void *ctx)
{
    int64_t i = ramp_store_local(s, key);
    if (i < 0)
        return;
    struct ramp_version *v = version_new(s, key, ts, nmeta, meta, value);
    if (!v)
        return;
    v->key_next = s->ks[i].versions;
    s->ks[i].versions = v;
    install(s, v, committed, ctx);
}

void ramp_store_read_begin(struct ramp_store *s, int client, uint64_t g)
{
    struct ramp_client_reads *c = &s->reads[client];
    for (int i = 0; i < c->n; i++)
        if (c->r[i].g == g)
            return;
    if (c->n == s->concurrency + 1)
        return; /* cannot happen: reads_below ran first and a client has C GETs at most */
    c->r[c->n].g = g;
    c->r[c->n].start = s->clock++;
    c->n++;
}

void ramp_store_reads_below(struct ramp_store *s, int client, uint64_t g_low)
{
    struct ramp_client_reads *c = &s->reads[client];
    int j = 0;
    for (int i = 0; i < c->n; i++)
        if (c->r[i].g >= g_low)
            c->r[j++] = c->r[i];
    c->n = j;
}

void ramp_store_client_done(struct ramp_store *s, int client)
{
    s->reads[client].n = 0;
}

/* Unlinks v from its key's list and frees it. */
static void drop(struct ramp_store *s, struct ramp_version *v)
{
    struct ramp_version **pp = &s->ks[s->local[v->key]].versions;
    while (*pp != v)
        pp = &(*pp)->key_next;
    *pp = v->key_next;
    free(v);
    s->live--;
    s->freed++;
}

uint64_t ramp_store_tick(struct ramp_store *s)
{
    return s->clock++;
}

/* A second round asks a server for a version newer than what its first
 * round got here for that key; so a version buried at clock d can be asked
 * for only by a GET whose first round read here before d (start < d) and
 * has not finished. Every event takes its own clock value, so start != d.
 * The queue is in clock order: free from its head while no such GET is in
 * progress. */
void ramp_store_gc(struct ramp_store *s, uint64_t oldest)
{
    if (!s->dead_head)
        return;
    for (int c = 0; c < s->nclients; c++)
        for (int i = 0; i < s->reads[c].n; i++)
            if (s->reads[c].r[i].start < oldest)
                oldest = s->reads[c].r[i].start;
    while (s->dead_head && s->dead_head->dead_at < oldest) {
        struct ramp_version *v = s->dead_head;
        s->dead_head = v->dead_next;
        if (!s->dead_head)
            s->dead_tail = NULL;
        drop(s, v);
    }
}
