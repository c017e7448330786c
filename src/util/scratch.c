/* Scratch memory cache (see scratch.h). */
#include "util/scratch.h"

#include <stddef.h>
#include <stdlib.h>

#include "util/status.h"
#include "util/util_tunables.h"

#define SLOTS 8                    /* cached blocks at most */
#define MIN_CACHED (64 * 1024)     /* smaller blocks are cheap to get from malloc */

/* The block header sits in front of the memory handed out. */
typedef union block {
    size_t cap;
    max_align_t align;
} block_t;

static struct {
    block_t *slot[SLOTS];
    size_t cached;                 /* bytes held in slots */
    long long limit;               /* RDMPI_SCRATCH_CACHE, read on first use */
} sc = { .limit = -1 };

void *rd_scratch_get(size_t n)
{
    int best = -1;
    for (int i = 0; i < SLOTS; i++)
        if (sc.slot[i] && sc.slot[i]->cap >= n && (best < 0 || sc.slot[i]->cap < sc.slot[best]->cap))
            best = i;
    if (best >= 0) {
        block_t *b = sc.slot[best];
        sc.slot[best] = NULL;
        sc.cached -= b->cap;
        return b + 1;
    }
    /* Round large requests up so that slightly different sizes share blocks. */
    size_t cap = n < MIN_CACHED ? n : (n + MIN_CACHED - 1) & ~(size_t)(MIN_CACHED - 1);
    block_t *b = malloc(sizeof(block_t) + (cap ? cap : 1));
    if (!b)
        return NULL;
    b->cap = cap;
    return b + 1;
}

void rd_scratch_put(void *p)
{
    if (!p)
        return;
    block_t *b = (block_t *)p - 1;
    if (sc.limit < 0) {
        const rd_tunable_t *t = &rd_util_tunables[RD_UTIL_T_SCRATCH_CACHE];
        /* MPI_Init has checked the value (api/api_tunables.h). */
        if (rd_tunable_int(t, &sc.limit) != RD_OK)
            sc.limit = (long long)t->dflt;
    }
    if (b->cap < MIN_CACHED || b->cap > (size_t)sc.limit) {
        free(b);
        return;
    }
    /* Keep the largest blocks: an empty slot, else the smallest cached block
     * if it is smaller (callers move on to larger sizes, as benchmarks do);
     * then evict more small blocks until the total fits the limit. */
    int victim = 0;
    for (int i = 0; i < SLOTS; i++) {
        if (!sc.slot[i]) {
            victim = i;
            break;
        }
        if (sc.slot[i]->cap < sc.slot[victim]->cap)
            victim = i;
    }
    if (sc.slot[victim]) {
        if (sc.slot[victim]->cap >= b->cap) {
            free(b);
            return;
        }
        sc.cached -= sc.slot[victim]->cap;
        free(sc.slot[victim]);
    }
    sc.slot[victim] = b;
    sc.cached += b->cap;
    while (sc.cached > (size_t)sc.limit) {
        int small = -1;
        for (int i = 0; i < SLOTS; i++)
            if (sc.slot[i] && sc.slot[i] != b && (small < 0 || sc.slot[i]->cap < sc.slot[small]->cap))
                small = i;
        if (small < 0)
            break;
        sc.cached -= sc.slot[small]->cap;
        free(sc.slot[small]);
        sc.slot[small] = NULL;
    }
}

void rd_scratch_fini(void)
{
    for (int i = 0; i < SLOTS; i++) {
        free(sc.slot[i]);
        sc.slot[i] = NULL;
    }
    sc.cached = 0;
}
