/* workload: YCSB-style transaction generation. A transaction is a GET
 * with probability --reads percent, else a PUT; its keys are distinct and
 * drawn uniformly or from YCSB's scrambled zipfian distribution (constant
 * 0.99), so that hot keys are spread over the servers. */
#include "workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double unit(uint64_t *s)
{
    return (double)(splitmix(s) >> 11) * (1.0 / 9007199254740992.0);
}

static double zeta(uint64_t n, double theta)
{
    double sum = 0;
    for (uint64_t i = 1; i <= n; i++)
        sum += 1.0 / pow((double)i, theta);
    return sum;
}

int ramp_workload_init(struct ramp_workload *w, const struct ramp_opts *o, int client)
{
    memset(w, 0, sizeof(*w));
    w->rng = o->seed * 0x100000001b3ULL + (uint64_t)client * 0x9e3779b97f4a7c15ULL + 1;
    w->keys = o->keys;
    w->txn_size = o->txn_size;
    w->reads = o->reads;
    w->dist = o->dist;
    w->taken = calloc(o->keys, 1);
    if (!w->taken)
        return -1;
    if (w->dist == RAMP_ZIPFIAN) {
        w->theta = 0.99;
        w->zetan = zeta(w->keys, w->theta);
        w->zeta2 = zeta(2, w->theta);
        w->alpha = 1.0 / (1.0 - w->theta);
        w->eta = (1 - pow(2.0 / (double)w->keys, 1 - w->theta)) / (1 - w->zeta2 / w->zetan);
    }
    return 0;
}

void ramp_workload_free(struct ramp_workload *w)
{
    free(w->taken);
    w->taken = NULL;
}

/* YCSB's ZipfianGenerator.nextLong, then scrambled by a hash (as YCSB's
 * ScrambledZipfianGenerator) so that rank 0's keys are not all hot. */
static uint64_t zipf(struct ramp_workload *w)
{
    double u = unit(&w->rng);
    double uz = u * w->zetan;
    uint64_t r;
    if (uz < 1.0)
        r = 0;
    else if (uz < 1.0 + pow(0.5, w->theta))
        r = 1;
    else
        r = (uint64_t)((double)w->keys * pow(w->eta * u - w->eta + 1, w->alpha));
    if (r >= w->keys)
        r = w->keys - 1;
    uint64_t h = r * 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h % w->keys;
}

int ramp_workload_next(struct ramp_workload *w, uint64_t *keys)
{
    int is_read = (int)(splitmix(&w->rng) % 100) < w->reads;
    for (int i = 0; i < w->txn_size; i++) {
        uint64_t k = 0;
        int tries;
        for (tries = 0; tries < 64; tries++) {
            k = w->dist == RAMP_ZIPFIAN ? zipf(w) : splitmix(&w->rng) % w->keys;
            if (!w->taken[k])
                break;
        }
        /* A hot key space can make distinct draws rare: take the next free key. */
        while (w->taken[k])
            k = (k + 1) % w->keys;
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
        uint64_t v = splitmix(&s);
        memcpy(buf + i, &v, 8);
    }
    if (i < size) {
        uint64_t v = splitmix(&s);
        memcpy(buf + i, &v, (size_t)(size - i));
    }
}

int ramp_key_server(uint64_t key, int servers)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
    return (int)(h % (uint64_t)servers);
}
