/* workload: YCSB-style transaction generation. A transaction is a GET
 * with probability --reads percent, else a PUT; its keys are distinct and
 * drawn uniformly or from YCSB's scrambled zipfian distribution (constant
 * 0.99), so that hot keys are spread over the servers. */
#include "workload.h"

#include <stdlib.h>
#include <string.h>

int ramp_workload_init(struct ramp_workload *w, const struct ramp_opts *o, int client)
{
    memset(w, 0, sizeof(*w));
    w->txn_size = o->txn_size;
    w->reads = o->reads;
    w->taken = calloc(o->keys, 1);
    if (!w->taken)
        return -1;
    app_keygen_init(&w->keys, o->keys, o->dist == RAMP_ZIPFIAN, 0.99,
                    o->seed * 0x100000001b3ULL + (uint64_t)client * 0x9e3779b97f4a7c15ULL + 1);
    return 0;
}

void ramp_workload_free(struct ramp_workload *w)
{
    free(w->taken);
    w->taken = NULL;
}

int ramp_workload_next(struct ramp_workload *w, uint64_t *keys)
{
    int is_read = (int)(app_rng_next(&w->keys.rng) % 100) < w->reads;
    for (int i = 0; i < w->txn_size; i++) {
        uint64_t k = 0;
        int tries;
        for (tries = 0; tries < 64; tries++) {
            k = app_keygen_next(&w->keys);
            if (!w->taken[k])
                break;
        }
        /* A hot key space can make distinct draws rare: take the next free key. */
        while (w->taken[k])
            k = (k + 1) % w->keys.keys;
        w->taken[k] = 1;
        keys[i] = k;
    }
    for (int i = 0; i < w->txn_size; i++)
        w->taken[keys[i]] = 0;
    return is_read;
}

void ramp_value_fill(uint8_t *buf, int size, uint64_t key, uint64_t ts)
{
    uint64_t s = key * 0xd6e8feb86659fd93ULL ^ ts;
    int i = 0;
    for (; i + 8 <= size; i += 8) {
        uint64_t v = app_rng_next(&s);
        memcpy(buf + i, &v, 8);
    }
    if (i < size) {
        uint64_t v = app_rng_next(&s);
        memcpy(buf + i, &v, (size_t)(size - i));
    }
}

int ramp_key_server(uint64_t key, int servers)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
    return (int)(h % (uint64_t)servers);
}
