/* client: a RAMP client rank. It runs --concurrency transaction slots at
 * once, each a small state machine driven by replies: RAMP-Fast's PUT
 * (PREPARE every key, then COMMIT every server) and GET (latest committed
 * versions, then a second round for the versions the metadata says are
 * missing), or s2pl's locking transactions (s2pl.c). */
#ifndef RAMP_CLIENT_H
#define RAMP_CLIENT_H

#include <stdint.h>

#include "../common/stats.h"
#include "history.h"
#include "net.h"
#include "opts.h"
#include "workload.h"

struct ramp_star;

enum ramp_slot_state {
    SLOT_IDLE, SLOT_PREPARE, SLOT_DELAY, SLOT_STAGGER, SLOT_COMMIT, SLOT_ROUND1, SLOT_ROUND2,
    SLOT_LOCK,
};

/* A version as a GET saw it. */
struct ramp_item {
    uint64_t ts;
    uint32_t crc;
    int nmeta;
    uint64_t *meta;          /* txn_size entries */
};

struct ramp_slot {
    enum ramp_slot_state state;
    int is_read;
    int n;                   /* keys in this transaction */
    uint64_t *keys;
    uint64_t ts;             /* PUT: its timestamp */
    uint64_t g;              /* GET: its number, for the servers' GC */
    int waiting;             /* replies still to come in this round */
    int next_lock;           /* s2pl: locks granted so far, in key order */
    int next_commit;         /* PUT: the operation whose server gets the next COMMIT */
    int *order;              /* s2pl: operation indices in key order */
    double start, commit_at;
    struct ramp_item *items;
};

struct ramp_client {
    const struct ramp_opts *o;
    struct ramp_net *net;
    struct ramp_star *star;  /* star only */
    int index;               /* 0..clients-1 */
    struct ramp_workload wl;
    struct ramp_history *history;
    struct app_hist lat;
    uint64_t counter;        /* PUTs issued: the timestamp's high bits */
    uint64_t next_g;
    long started, done;
    int idle;                /* slots idle */
    double end_time;         /* --seconds: when to stop starting transactions */
    struct ramp_slot *slots;
    struct ramp_msg *msg;    /* a request being built */
    uint8_t *value;
    /* the final read: keys [final_next, keys) still to read */
    int final;
    uint64_t final_next;
    uint64_t *final_ts;
    uint32_t *final_crc;
};

int ramp_client_init(struct ramp_client *c, const struct ramp_opts *o, struct ramp_net *net,
                     struct ramp_star *star, struct ramp_history *history);
void ramp_client_free(struct ramp_client *c);
/* Runs the workload (--txns or --seconds). Returns 0 or -1. */
int ramp_client_run(struct ramp_client *c);
/* Reads every key after all clients are done, in GETs of --txn-size keys
 * (no write runs any more, so they see one state), and records the final
 * read. Returns 0 or -1. */
int ramp_client_final_read(struct ramp_client *c);
/* Tells every server this client is done. */
int ramp_client_done(struct ramp_client *c);

/* For the methods' client code: the request being built, with the slot's
 * fields and the GC watermark filled in, for operation entry of slot s. */
struct ramp_msg *ramp_client_msg(struct ramp_client *c, struct ramp_slot *s, int type,
                                 int entry, uint64_t key, uint64_t ts);
/* Fills m, built for write entry of slot s, with the transaction's other
 * keys (its metadata) and the value written to the entry's key. */
void ramp_client_fill_write(struct ramp_client *c, struct ramp_slot *s, int entry,
                            struct ramp_msg *m);
/* Sends c->msg to key's server. */
int ramp_client_send(struct ramp_client *c, uint64_t key);
/* The transaction of slot s has returned: records it and frees the slot. */
void ramp_client_finish(struct ramp_client *c, struct ramp_slot *s);
/* Fills item from a reply carrying a version. */
void ramp_client_take_item(struct ramp_client *c, struct ramp_item *item, struct ramp_msg *m);

#endif
