/* keygen: splitmix64 and YCSB's key distributions (keygen.h). */
#include "keygen.h"

#include <math.h>

uint64_t app_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double app_rng_unit(uint64_t *s)
{
    return (double)(app_rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

static double zeta(uint64_t n, double theta)
{
    double sum = 0;
    for (uint64_t i = 1; i <= n; i++)
        sum += 1.0 / pow((double)i, theta);
    return sum;
}

void app_keygen_init(struct app_keygen *g, uint64_t keys, int zipfian, double theta, uint64_t seed)
{
    *g = (struct app_keygen){ .rng = seed, .keys = keys, .zipfian = zipfian };
    if (zipfian) {
        g->theta = theta;
        g->zetan = zeta(keys, theta);
        g->zeta2 = zeta(2, theta);
        g->alpha = 1.0 / (1.0 - theta);
        g->eta = (1 - pow(2.0 / (double)keys, 1 - theta)) / (1 - g->zeta2 / g->zetan);
    }
}

/* YCSB's ZipfianGenerator.nextLong, then scrambled. */
static uint64_t zipf(struct app_keygen *g)
{
    double u = app_rng_unit(&g->rng);
    double uz = u * g->zetan;
    uint64_t r;
    if (uz < 1.0)
        r = 0;
    else if (uz < 1.0 + pow(0.5, g->theta))
        r = 1;
    else
        r = (uint64_t)((double)g->keys * pow(g->eta * u - g->eta + 1, g->alpha));
    if (r >= g->keys)
        r = g->keys - 1;
    uint64_t h = r * 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h % g->keys;
}

uint64_t app_keygen_next(struct app_keygen *g)
{
    return g->zipfian ? zipf(g) : app_rng_next(&g->rng) % g->keys;
}
