/* keygen: the random numbers and key choices the apps' workloads share:
 * a splitmix64 stream, and keys drawn uniformly or from YCSB's scrambled
 * zipfian distribution, so that every app (and every rank) draws the same
 * way from a seed. */
#ifndef APP_KEYGEN_H
#define APP_KEYGEN_H

#include <stdint.h>

/* The next number of the splitmix64 stream whose state is *s. */
uint64_t app_rng_next(uint64_t *s);
/* A double in [0, 1) from the stream *s. */
double app_rng_unit(uint64_t *s);

struct app_keygen {
    uint64_t rng;           /* the stream the keys (and the caller) draw from */
    uint64_t keys;          /* keys are 0..keys-1 */
    int zipfian;            /* 0: uniform */
    /* YCSB's zipfian generator constants (Gray et al.) */
    double theta, zetan, alpha, eta, zeta2;
};

/* Keys 0..keys-1 (keys >= 1), uniform or zipfian with constant theta
 * (YCSB: 0.99), from the stream seeded with seed. */
void app_keygen_init(struct app_keygen *g, uint64_t keys, int zipfian, double theta, uint64_t seed);
/* The next key. Zipfian keys are scrambled by a hash (as YCSB's
 * ScrambledZipfianGenerator), so the hot keys are not neighbours. */
uint64_t app_keygen_next(struct app_keygen *g);

#endif
