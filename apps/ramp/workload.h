/* workload: the YCSB-style transactions a client runs (read or write
 * transactions of distinct keys, uniform or zipfian), the values written,
 * and the key-to-server partitioning every rank shares. */
#ifndef RAMP_WORKLOAD_H
#define RAMP_WORKLOAD_H

#include <stdint.h>

#include "../common/keygen.h"
#include "opts.h"

struct ramp_workload {
    struct app_keygen keys; /* its stream also decides GET or PUT */
    int txn_size;
    int reads;
    uint8_t *taken;         /* keys chosen for the transaction being built */
};

int ramp_workload_init(struct ramp_workload *w, const struct ramp_opts *o, int client);
void ramp_workload_free(struct ramp_workload *w);
/* The next transaction: returns 1 for a read (GET), 0 for a write (PUT),
 * with txn_size distinct keys in keys[]. */
int ramp_workload_next(struct ramp_workload *w, uint64_t *keys);

/* The value written to key by the transaction with timestamp ts: derived
 * from both, so every version of a key has its own bytes. */
void ramp_value_fill(uint8_t *buf, int size, uint64_t key, uint64_t ts);

/* Hash partitioning: the server (0..servers-1) that owns key. */
int ramp_key_server(uint64_t key, int servers);

#endif
