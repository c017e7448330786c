/*
 * Unit tests of the registration cache (src/transport/verbs/common/rcache.c)
 * and of the munmap/mmap interception that keeps it correct (memhook.c),
 * without an RDMA device: registration is a fake that records which ranges
 * are "pinned" and whether a handle is still live.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "unit_main.h"

#include "transport/verbs/common/memhook.h"
#include "transport/verbs/common/rcache.h"
#include "util/status.h"

#define PG 4096u

typedef struct fake_mr {
    uintptr_t start;
    size_t len;
    int live;
    int serial;
} fake_mr_t;

static struct {
    int regs, deregs, live;
    size_t live_bytes, limit;   /* limit: registration fails beyond this (memlock) */
    int serial;
} fk;

static int fake_reg(void *arg, uintptr_t start, size_t len, void **handle)
{
    (void)arg;
    if (fk.limit && fk.live_bytes + len > fk.limit)
        return RD_ENOMEM;
    fake_mr_t *m = malloc(sizeof(*m));
    m->start = start;
    m->len = len;
    m->live = 1;
    m->serial = ++fk.serial;
    fk.regs++;
    fk.live++;
    fk.live_bytes += len;
    *handle = m;
    return RD_OK;
}

static void fake_dereg(void *arg, void *handle)
{
    (void)arg;
    fake_mr_t *m = handle;
    CU_ASSERT_EQUAL_FATAL(m->live, 1);   /* never twice */
    m->live = 0;
    fk.deregs++;
    fk.live--;
    fk.live_bytes -= m->len;
    free(m);
}

static void reset(void)
{
    memset(&fk, 0, sizeof(fk));
}

/* A page-aligned fake address space: nothing is dereferenced. */
static const void *addr(unsigned page) { return (const void *)(uintptr_t)(0x10000000u + page * PG); }

static void test_hit_and_containment(void)
{
    rd_rcache_t c;
    rd_rcache_ent_t *a, *b, *d;
    reset();
    rd_rcache_init(&c, 1, 16, 1 << 30, fake_reg, fake_dereg, NULL);
    CU_ASSERT_EQUAL(rd_rcache_acquire(&c, (const char *)addr(0) + 100, 3 * PG, &a), RD_OK);
    CU_ASSERT_EQUAL(a->start, (uintptr_t)addr(0));
    CU_ASSERT_EQUAL(a->end, (uintptr_t)addr(4));            /* rounded to pages */
    rd_rcache_release(&c, a);
    CU_ASSERT_EQUAL(rd_rcache_acquire(&c, (const char *)addr(0) + 100, 3 * PG, &b), RD_OK);
    CU_ASSERT_PTR_EQUAL(a, b);                               /* same buffer: a hit */
    CU_ASSERT_EQUAL(rd_rcache_acquire(&c, addr(1), PG, &d), RD_OK);
    CU_ASSERT_PTR_EQUAL(a, d);                               /* inside: a hit */
    CU_ASSERT_EQUAL(a->refs, 2);
    CU_ASSERT_EQUAL(fk.regs, 1);
    CU_ASSERT_EQUAL(c.stats.hits, 2);
    rd_rcache_release(&c, b);
    rd_rcache_release(&c, d);
    CU_ASSERT_EQUAL(fk.live, 1);                             /* stays pinned */
    CU_ASSERT_EQUAL(rd_rcache_acquire(&c, addr(3), 2 * PG, &d), RD_OK);
    CU_ASSERT_PTR_NOT_EQUAL(a, d);                           /* sticks out: a miss */
    rd_rcache_release(&c, d);
    CU_ASSERT_EQUAL(rd_rcache_acquire(&c, addr(0), 0, &d), RD_EINVAL);
    rd_rcache_destroy(&c);
    CU_ASSERT_EQUAL(fk.live, 0);
}

static void test_lru_eviction(void)
{
    rd_rcache_t c;
    rd_rcache_ent_t *e[4];
    reset();
    rd_rcache_init(&c, 1, 2, 1 << 30, fake_reg, fake_dereg, NULL);
    rd_rcache_acquire(&c, addr(0), PG, &e[0]);
    rd_rcache_release(&c, e[0]);
    rd_rcache_acquire(&c, addr(10), PG, &e[1]);
    rd_rcache_release(&c, e[1]);
    /* Use page 0 again: page 10 becomes the least recently used. */
    rd_rcache_acquire(&c, addr(0), PG, &e[2]);
    rd_rcache_release(&c, e[2]);
    CU_ASSERT_EQUAL(fk.regs, 2);
    rd_rcache_acquire(&c, addr(20), PG, &e[3]);
    rd_rcache_release(&c, e[3]);
    CU_ASSERT_EQUAL(c.stats.evictions, 1);
    CU_ASSERT_EQUAL(fk.live, 2);
    int regs = fk.regs;
    rd_rcache_acquire(&c, addr(0), PG, &e[0]);               /* survived */
    CU_ASSERT_EQUAL(fk.regs, regs);
    rd_rcache_release(&c, e[0]);
    rd_rcache_acquire(&c, addr(10), PG, &e[1]);              /* was evicted */
    CU_ASSERT_EQUAL(fk.regs, regs + 1);
    rd_rcache_release(&c, e[1]);
    rd_rcache_destroy(&c);
    CU_ASSERT_EQUAL(fk.live, 0);
}

static void test_byte_bound_and_in_use(void)
{
    rd_rcache_t c;
    rd_rcache_ent_t *a, *b, *d;
    reset();
    rd_rcache_init(&c, 1, 100, 4 * PG, fake_reg, fake_dereg, NULL);
    rd_rcache_acquire(&c, addr(0), 3 * PG, &a);              /* held */
    rd_rcache_acquire(&c, addr(10), 3 * PG, &b);             /* over the bound: a is in use */
    CU_ASSERT_EQUAL(fk.live, 2);
    CU_ASSERT_EQUAL(c.stats.evictions, 0);
    rd_rcache_release(&c, a);                                /* trimmed back under the bound */
    CU_ASSERT_EQUAL(fk.live, 1);
    CU_ASSERT_TRUE(c.nbytes <= 4 * PG);
    rd_rcache_release(&c, b);
    rd_rcache_acquire(&c, addr(20), 2 * PG, &d);             /* evicts b to fit */
    CU_ASSERT_EQUAL(fk.live, 1);
    rd_rcache_release(&c, d);
    rd_rcache_destroy(&c);
}

static void test_memlock_retry(void)
{
    rd_rcache_t c;
    rd_rcache_ent_t *a, *b;
    reset();
    fk.limit = 4 * PG;
    rd_rcache_init(&c, 1, 100, 1 << 30, fake_reg, fake_dereg, NULL);
    rd_rcache_acquire(&c, addr(0), 3 * PG, &a);
    rd_rcache_release(&c, a);
    /* The pin fails first; the idle entry is given back and it succeeds. */
    CU_ASSERT_EQUAL(rd_rcache_acquire(&c, addr(10), 3 * PG, &b), RD_OK);
    CU_ASSERT_EQUAL(fk.live, 1);
    /* Held and no room: the error comes back. */
    CU_ASSERT_EQUAL(rd_rcache_acquire(&c, addr(20), 3 * PG, &a), RD_ENOMEM);
    rd_rcache_release(&c, b);
    rd_rcache_destroy(&c);
    CU_ASSERT_EQUAL(fk.live, 0);
}

static void test_invalidate(void)
{
    rd_rcache_t c;
    rd_rcache_ent_t *a, *b, *d;
    reset();
    rd_rcache_init(&c, 1, 16, 1 << 30, fake_reg, fake_dereg, NULL);
    rd_rcache_acquire(&c, addr(0), 4 * PG, &a);
    rd_rcache_release(&c, a);
    rd_rcache_acquire(&c, addr(10), PG, &b);                 /* held while invalidated */
    rd_rcache_invalidate(&c, (uintptr_t)addr(3), PG);        /* overlaps a's last page */
    CU_ASSERT_EQUAL(fk.live, 1);                             /* a gone at once */
    rd_rcache_invalidate(&c, (uintptr_t)addr(10), 1);
    CU_ASSERT_EQUAL(fk.live, 1);                             /* b still in use */
    fake_mr_t *old = b->handle;
    int old_serial = old->serial;
    rd_rcache_acquire(&c, addr(10), PG, &d);                 /* never the stale one */
    CU_ASSERT_PTR_NOT_EQUAL(d, b);
    CU_ASSERT_NOT_EQUAL(((fake_mr_t *)d->handle)->serial, old_serial);
    rd_rcache_release(&c, b);                                /* stale one dropped now */
    CU_ASSERT_EQUAL(fk.live, 1);
    rd_rcache_release(&c, d);
    rd_rcache_acquire(&c, addr(1), PG, &a);                  /* a's range: new pin */
    CU_ASSERT_EQUAL(c.stats.invalidations, 2);
    rd_rcache_release(&c, a);
    rd_rcache_destroy(&c);
    CU_ASSERT_EQUAL(fk.live, 0);
}

static void test_disabled(void)
{
    rd_rcache_t c;
    rd_rcache_ent_t *a, *b;
    reset();
    rd_rcache_init(&c, 0, 16, 1 << 30, fake_reg, fake_dereg, NULL);
    rd_rcache_acquire(&c, addr(0), PG, &a);
    rd_rcache_acquire(&c, addr(0), PG, &b);
    CU_ASSERT_PTR_NOT_EQUAL(a, b);
    CU_ASSERT_EQUAL(fk.regs, 2);
    rd_rcache_release(&c, a);
    rd_rcache_release(&c, b);
    CU_ASSERT_EQUAL(fk.live, 0);
    rd_rcache_destroy(&c);
}

static void invalidate_cb(void *arg, uintptr_t start, size_t len)
{
    rd_rcache_invalidate(arg, start, len);
}

/* The whole chain on real memory: a buffer registered, unmapped, and new
 * memory mapped at the same address must get a new registration. */
static void test_munmap_reuse(void)
{
    rd_rcache_t c;
    rd_rcache_ent_t *a, *b;
    reset();
    rd_rcache_init(&c, 1, 16, 1 << 30, fake_reg, fake_dereg, NULL);
    rd_memhook_enable();
    size_t len = 4 * PG;
    char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CU_ASSERT_FATAL(p != MAP_FAILED);
    rd_memhook_drain(invalidate_cb, &c);                     /* the mmap itself */
    rd_rcache_acquire(&c, p, len, &a);
    int first = ((fake_mr_t *)a->handle)->serial;
    rd_rcache_release(&c, a);
    CU_ASSERT_EQUAL(munmap(p, len), 0);
    char *q = mmap(p, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    CU_ASSERT_FATAL(q == p);
    rd_memhook_drain(invalidate_cb, &c);
    rd_rcache_acquire(&c, q, len, &b);
    CU_ASSERT_NOT_EQUAL(((fake_mr_t *)b->handle)->serial, first);
    rd_rcache_release(&c, b);
    /* madvise(DONTNEED) gives anonymous memory fresh pages too. */
    int regs = fk.regs;
    CU_ASSERT_EQUAL(madvise(q, PG, MADV_DONTNEED), 0);
    rd_memhook_drain(invalidate_cb, &c);
    rd_rcache_acquire(&c, q, len, &b);
    CU_ASSERT_EQUAL(fk.regs, regs + 1);
    rd_rcache_release(&c, b);
    /* More ranges than the record holds: everything is invalidated. */
    for (int i = 0; i < 100; i++)
        madvise(q + PG, PG, MADV_DONTNEED);
    rd_memhook_drain(invalidate_cb, &c);
    CU_ASSERT_EQUAL(c.nentries, 0);
    munmap(q, len);
    rd_memhook_disable();
    rd_rcache_destroy(&c);
    CU_ASSERT_EQUAL(fk.live, 0);
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "hit on reuse and containment", test_hit_and_containment },
        { "LRU eviction by entry count", test_lru_eviction },
        { "byte bound; entries in use are kept", test_byte_bound_and_in_use },
        { "pin failure: evict idle entries and retry", test_memlock_retry },
        { "invalidation, also of entries in use", test_invalidate },
        { "RDMPI_RCACHE=0: register every time", test_disabled },
        { "munmap/mmap/madvise at the same address", test_munmap_reuse },
    };
    return rd_unit_run("rcache", tests, RD_UNIT_COUNT(tests));
}
