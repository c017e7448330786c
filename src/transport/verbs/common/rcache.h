/*
 * Registration (pin-down) cache: keeps memory registrations of user buffers
 * alive after use so that a buffer sent again by rendezvous costs no second
 * registration. Pure bookkeeping: the actual register/deregister calls are
 * callbacks, so the logic is unit-tested without a device (test_rcache).
 *
 * Entries cover page-aligned ranges. A lookup returns the most recently used
 * valid entry that contains the requested range, else registers the range.
 * The cache is bounded by entry count and by registered bytes; when either
 * bound would be exceeded, the least recently used entries nobody holds are
 * deregistered. Entries in use (refs > 0) are never deregistered: if all
 * are in use the cache exceeds its bounds until they are released.
 *
 * Correctness when the application unmaps memory: rd_rcache_invalidate(range)
 * (called for every munmap/mremap/mmap/madvise(DONTNEED) that memhook.c sees,
 * see there for what it covers) removes every overlapping entry from lookup
 * at once, so a later use of that address registers the new pages; a removed
 * entry still held by an operation in flight is deregistered at its release.
 *
 * Lookup is a linear scan of the entries in recency order: a hit on a buffer
 * used recently ends early; the worst case is O(entries) (1024 by default,
 * about a microsecond), small against the rendezvous sizes it serves. An
 * interval tree would make it O(log n).
 *
 * Not thread-safe: its owner (the verbs device) serializes calls, as the
 * progress engine serializes calls into a transport.
 */
#ifndef RD_TRANSPORT_VERBS_COMMON_RCACHE_H
#define RD_TRANSPORT_VERBS_COMMON_RCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "util/list.h"

/* Registers [start, start+len) (page-aligned); stores the registration in
 * *handle. Returns RD_OK or a negative status. */
typedef int (*rd_rcache_reg_fn)(void *arg, uintptr_t start, size_t len, void **handle);
typedef void (*rd_rcache_dereg_fn)(void *arg, void *handle);

typedef struct rd_rcache_ent {
    uintptr_t start, end;        /* registered range [start, end), page-aligned */
    void *handle;                /* what reg returned (an ibv_mr for verbs) */
    int refs;                    /* holders: operations in flight, exposed keys */
    int cached;                  /* 1: findable (in lru); 0: removed or uncached */
    rd_list_t link;              /* in lru (cached) or in held (not cached, refs > 0) */
} rd_rcache_ent_t;

typedef struct rd_rcache_stats {
    uint64_t hits, misses, evictions, invalidations;
} rd_rcache_stats_t;

typedef struct rd_rcache {
    int enabled;                 /* 0: every acquire registers, release deregisters */
    size_t max_entries, max_bytes;
    size_t nentries, nbytes;     /* cached entries only */
    size_t page;
    rd_list_t lru;               /* cached entries, most recently used first */
    rd_list_t held;              /* removed or uncached entries still referenced */
    rd_rcache_reg_fn reg;
    rd_rcache_dereg_fn dereg;
    void *arg;
    rd_rcache_stats_t stats;
} rd_rcache_t;

void rd_rcache_init(rd_rcache_t *c, int enabled, size_t max_entries, size_t max_bytes,
                    rd_rcache_reg_fn reg, rd_rcache_dereg_fn dereg, void *arg);

/* Deregisters everything (entries still held are deregistered too: call it
 * only when nothing is in flight). */
void rd_rcache_destroy(rd_rcache_t *c);

/* An entry covering [buf, buf+len) (len > 0), its reference taken. Returns
 * RD_OK, RD_EINVAL for an empty or wrapping range, or what reg returned. */
int rd_rcache_acquire(rd_rcache_t *c, const void *buf, size_t len, rd_rcache_ent_t **out);
/* The hit half of rd_rcache_acquire: 1 and *out (one reference more) when
 * a cached entry covers [buf, buf+len), else 0 and nothing changed. */
int rd_rcache_lookup(rd_rcache_t *c, const void *buf, size_t len, rd_rcache_ent_t **out);

/* Drops a reference taken by acquire. */
void rd_rcache_release(rd_rcache_t *c, rd_rcache_ent_t *e);

/* The pages of [start, start+len) may now be other memory: no entry
 * overlapping them is handed out again. */
void rd_rcache_invalidate(rd_rcache_t *c, uintptr_t start, size_t len);

#endif
