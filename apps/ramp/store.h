/* store: a server's multi-version store for RAMP-Fast: per key its
 * versions and the latest committed one, an index from timestamp to the
 * versions that transaction wrote here (for COMMIT), and the garbage
 * collection of versions no read in progress can still ask for. */
#ifndef RAMP_STORE_H
#define RAMP_STORE_H

#include <stdint.h>

struct ramp_version {
    uint64_t key;
    uint64_t ts;
    int committed;
    int nmeta;
    uint64_t *meta;                 /* the other keys its transaction wrote */
    uint8_t *value;
    struct ramp_version *key_next;  /* the key's versions */
    struct ramp_version *txn_next;  /* ts index: same bucket */
    struct ramp_version *dead_next; /* GC queue */
    uint64_t dead_at;               /* read clock when it stopped being latest */
};

struct ramp_key_state {
    struct ramp_version *versions;
    struct ramp_version *latest;    /* latest committed */
    int pending;                    /* prepared, not yet committed */
};

/* A GET whose first round reached this server and may still send a
 * second round: (client's GET number, read clock when it arrived). */
struct ramp_read {
    uint64_t g;
    uint64_t start;
};

struct ramp_client_reads {
    int n;
    struct ramp_read *r;            /* at most concurrency + 1 */
};

struct ramp_store {
    int value_size;
    int txn_size;
    uint64_t nkeys;                 /* this server's keys */
    uint64_t *keys;                 /* local index -> key */
    struct ramp_key_state *ks;      /* by local index */
    uint32_t *local;                /* key -> local index (UINT32_MAX: not ours) */
    uint64_t all_keys;
    struct ramp_version **txn_index;
    uint64_t txn_mask;
    uint64_t clock;                 /* ticks at every read start and burial */
    struct ramp_version *dead_head, *dead_tail;
    int nclients;
    int concurrency;
    struct ramp_client_reads *reads;
    uint64_t live;                  /* versions held */
    uint64_t max_live;
    uint64_t freed;
};

/* Builds server `server`'s store (of `servers`) with every one of its
 * keys at its initial version, timestamp 0. Returns 0 or -1 (no memory). */
int ramp_store_init(struct ramp_store *s, uint64_t keys, int server, int servers,
                    int value_size, int txn_size, int nclients, int concurrency);
void ramp_store_free(struct ramp_store *s);

/* Local index of key, or -1 when another server owns it. */
int64_t ramp_store_local(const struct ramp_store *s, uint64_t key);

/* Stores a prepared version. Returns 0, or -1 when (key, ts) exists. */
int ramp_store_prepare(struct ramp_store *s, uint64_t key, uint64_t ts, int nmeta,
                       const uint64_t *meta, const uint8_t *value);

/* Called after a version of a key is committed, with the key's latest
 * committed version and how many uncommitted ones it still has. */
typedef void (*ramp_committed_fn)(void *ctx, const struct ramp_version *latest, int pending);

/* Commits ts's versions here: each becomes the latest committed one of
 * its key if newer (last writer wins). Returns how many versions ts had. */
int ramp_store_commit(struct ramp_store *s, uint64_t ts, ramp_committed_fn committed, void *ctx);

/* s2pl: writes a committed version at once (last writer wins). */
void ramp_store_write(struct ramp_store *s, uint64_t key, uint64_t ts, int nmeta,
                      const uint64_t *meta, const uint8_t *value, ramp_committed_fn committed,
                      void *ctx);

const struct ramp_version *ramp_store_latest(const struct ramp_store *s, uint64_t key);
const struct ramp_version *ramp_store_find(const struct ramp_store *s, uint64_t key, uint64_t ts);
/* Whether key has a prepared, uncommitted version. */
int ramp_store_pending(const struct ramp_store *s, uint64_t key);

/* GC bookkeeping: client's GET number g sent a first round here; every
 * GET of client numbered below g_low has finished; client has finished. */
void ramp_store_read_begin(struct ramp_store *s, int client, uint64_t g);
void ramp_store_reads_below(struct ramp_store *s, int client, uint64_t g_low);
void ramp_store_client_done(struct ramp_store *s, int client);
/* Frees every superseded version no read in progress can ask for; oldest
 * bounds the start of reads the store was not told of (one-sided ones),
 * UINT64_MAX when there are none. */
void ramp_store_gc(struct ramp_store *s, uint64_t oldest);
/* A clock value of its own, for an event reads are ordered against. */
uint64_t ramp_store_tick(struct ramp_store *s);

#endif
