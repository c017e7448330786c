/*
 * Registration cache: bookkeeping only (see rcache.h).
 */
#include "transport/verbs/common/rcache.h"

#include <stdlib.h>
#include <unistd.h>

#include "util/status.h"

void rd_rcache_init(rd_rcache_t *c, int enabled, size_t max_entries, size_t max_bytes,
                    rd_rcache_reg_fn reg, rd_rcache_dereg_fn dereg, void *arg)
{
    long pg = sysconf(_SC_PAGESIZE);
    c->enabled = enabled;
    c->max_entries = max_entries ? max_entries : 1;
    c->max_bytes = max_bytes;
    c->nentries = c->nbytes = 0;
    c->page = pg > 0 ? (size_t)pg : 4096;
    rd_list_init(&c->lru);
    rd_list_init(&c->held);
    c->reg = reg;
    c->dereg = dereg;
    c->arg = arg;
    c->stats = (rd_rcache_stats_t){ 0, 0, 0, 0 };
}

static void drop(rd_rcache_t *c, rd_rcache_ent_t *e)
{
    c->dereg(c->arg, e->handle);
    free(e);
}

/* Takes e out of lookup; frees it now if nobody holds it. */
static void uncache(rd_rcache_t *c, rd_rcache_ent_t *e)
{
    rd_list_remove(&e->link);
    e->cached = 0;
    c->nentries--;
    c->nbytes -= e->end - e->start;
    if (e->refs == 0)
        drop(c, e);
    else
        rd_list_push_back(&c->held, &e->link);
}

void rd_rcache_destroy(rd_rcache_t *c)
{
    rd_list_t *pos, *tmp;
    rd_list_for_each_safe(pos, tmp, &c->lru) {
        rd_list_remove(pos);
        drop(c, rd_list_entry(pos, rd_rcache_ent_t, link));
    }
    rd_list_for_each_safe(pos, tmp, &c->held) {
        rd_list_remove(pos);
        drop(c, rd_list_entry(pos, rd_rcache_ent_t, link));
    }
    c->nentries = c->nbytes = 0;
}

/* Evicts unreferenced entries from the cold end until one more entry of
 * bytes fits the bounds, or nothing evictable is left. */
static void make_room(rd_rcache_t *c, size_t bytes)
{
    rd_list_t *pos = c->lru.prev;
    while (pos != &c->lru &&
           (c->nentries + 1 > c->max_entries || c->nbytes + bytes > c->max_bytes)) {
        rd_list_t *prev = pos->prev;
        rd_rcache_ent_t *e = rd_list_entry(pos, rd_rcache_ent_t, link);
        if (e->refs == 0) {
            uncache(c, e);
            c->stats.evictions++;
        }
        pos = prev;
    }
}

int rd_rcache_lookup(rd_rcache_t *c, const void *buf, size_t len, rd_rcache_ent_t **out)
{
    uintptr_t a = (uintptr_t)buf;
    if (!c->enabled || len == 0 || a + len < a)
        return 0;
    rd_list_t *pos;
    rd_list_for_each(pos, &c->lru) {
        rd_rcache_ent_t *e = rd_list_entry(pos, rd_rcache_ent_t, link);
        if (e->start <= a && a + len <= e->end) {
            if (pos != c->lru.next) {
                rd_list_remove(pos);
                rd_list_push_front(&c->lru, pos);
            }
            e->refs++;
            c->stats.hits++;
            *out = e;
            return 1;
        }
    }
    return 0;
}

int rd_rcache_acquire(rd_rcache_t *c, const void *buf, size_t len, rd_rcache_ent_t **out)
{
    uintptr_t a = (uintptr_t)buf;
    if (len == 0 || a + len < a)
        return RD_EINVAL;
    if (rd_rcache_lookup(c, buf, len, out))
        return RD_OK;
    c->stats.misses++;
    uintptr_t start = a & ~(uintptr_t)(c->page - 1);
    uintptr_t end = (a + len + c->page - 1) & ~(uintptr_t)(c->page - 1);
    rd_rcache_ent_t *e = malloc(sizeof(*e));
    if (!e)
        return RD_ENOMEM;
    if (c->enabled)
        make_room(c, end - start);
    int rc = c->reg(c->arg, start, end - start, &e->handle);
    if (rc != RD_OK && c->enabled && !rd_list_empty(&c->lru)) {
        /* Pinning can fail at the memlock limit: give back what is idle
         * and try once more. */
        make_room(c, c->max_bytes);
        rc = c->reg(c->arg, start, end - start, &e->handle);
    }
    if (rc != RD_OK) {
        free(e);
        return rc;
    }
    e->start = start;
    e->end = end;
    e->refs = 1;
    if (c->enabled) {
        e->cached = 1;
        rd_list_push_front(&c->lru, &e->link);
        c->nentries++;
        c->nbytes += end - start;
    } else {
        e->cached = 0;
        rd_list_push_back(&c->held, &e->link);
    }
    *out = e;
    return RD_OK;
}

void rd_rcache_release(rd_rcache_t *c, rd_rcache_ent_t *e)
{
    if (--e->refs > 0)
        return;
    if (e->cached) {
        /* Stays cached; trim if an earlier acquire had to exceed the bounds. */
        if (c->nentries > c->max_entries || c->nbytes > c->max_bytes)
            make_room(c, 0);
        return;
    }
    rd_list_remove(&e->link);
    drop(c, e);
}

void rd_rcache_invalidate(rd_rcache_t *c, uintptr_t start, size_t len)
{
    uintptr_t end = start + len < start ? UINTPTR_MAX : start + len;
    rd_list_t *pos, *tmp;
    rd_list_for_each_safe(pos, tmp, &c->lru) {
        rd_rcache_ent_t *e = rd_list_entry(pos, rd_rcache_ent_t, link);
        if (e->start < end && start < e->end) {
            uncache(c, e);
            c->stats.invalidations++;
        }
    }
}
