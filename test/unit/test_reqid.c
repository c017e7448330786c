/*
 * Unit tests of p2p's request id table (src/p2p/reqid.c): an id names its
 * object until released and never after (stale generation), ids out of
 * range or never handed out name nothing, released slots are reused under
 * a new generation, and the table grows past its first allocation with
 * every live id still valid.
 */
#include <stdint.h>
#include <stdlib.h>

#include <CUnit/Basic.h>

#include "unit_main.h"

#include "p2p/reqid.h"

static void test_new_get_release(void)
{
    rd_reqid_tab_t t;
    int a, b;
    rd_reqid_init(&t);
    uint64_t ia = rd_reqid_new(&t, &a), ib = rd_reqid_new(&t, &b);
    CU_ASSERT_NOT_EQUAL(ia, 0);
    CU_ASSERT_NOT_EQUAL(ib, 0);
    CU_ASSERT_NOT_EQUAL(ia, ib);
    CU_ASSERT_PTR_EQUAL(rd_reqid_get(&t, ia), &a);
    CU_ASSERT_PTR_EQUAL(rd_reqid_get(&t, ib), &b);
    CU_ASSERT_EQUAL(t.live, 2);
    rd_reqid_release(&t, ia);
    CU_ASSERT_PTR_NULL(rd_reqid_get(&t, ia));
    CU_ASSERT_PTR_EQUAL(rd_reqid_get(&t, ib), &b);
    CU_ASSERT_EQUAL(t.live, 1);
    /* A second release of the same id, or of a stale one, changes nothing. */
    rd_reqid_release(&t, ia);
    CU_ASSERT_EQUAL(t.live, 1);
    CU_ASSERT_PTR_EQUAL(rd_reqid_get(&t, ib), &b);
    rd_reqid_fini(&t);
}

/* Ids that were never handed out: 0, past the slots in use, an address. */
static void test_out_of_range(void)
{
    rd_reqid_tab_t t;
    int a;
    rd_reqid_init(&t);
    CU_ASSERT_PTR_NULL(rd_reqid_get(&t, 0));
    CU_ASSERT_PTR_NULL(rd_reqid_get(&t, 1));
    CU_ASSERT_PTR_NULL(rd_reqid_get(&t, UINT64_MAX));
    uint64_t ia = rd_reqid_new(&t, &a);
    CU_ASSERT_PTR_NULL(rd_reqid_get(&t, 0));
    CU_ASSERT_PTR_NULL(rd_reqid_get(&t, ia + 1));                 /* the next slot: unused */
    CU_ASSERT_PTR_NULL(rd_reqid_get(&t, ia & 0xffffffffu));        /* generation 0 */
    CU_ASSERT_PTR_NULL(rd_reqid_get(&t, ia ^ (1ull << 40)));       /* another generation */
    CU_ASSERT_PTR_NULL(rd_reqid_get(&t, (uint64_t)(uintptr_t)&a)); /* what ids once were */
    CU_ASSERT_PTR_NULL(rd_reqid_get(&t, (ia & ~0xffffffffull) | 0xffffffffu));
    CU_ASSERT_PTR_NULL(rd_reqid_get(&t, (ia & ~0xffffffffull) | 65)); /* inside cap, past n */
    CU_ASSERT_PTR_EQUAL(rd_reqid_get(&t, ia), &a);
    rd_reqid_fini(&t);
}

/* A released slot serves the next id with a new generation: the old id
 * stays dead while the new one names the new object. */
static void test_reuse_stale(void)
{
    rd_reqid_tab_t t;
    int a, b;
    rd_reqid_init(&t);
    uint64_t ia = rd_reqid_new(&t, &a);
    rd_reqid_release(&t, ia);
    uint64_t ib = rd_reqid_new(&t, &b);
    CU_ASSERT_EQUAL(ib & 0xffffffffu, ia & 0xffffffffu);  /* same slot */
    CU_ASSERT_NOT_EQUAL(ib, ia);
    CU_ASSERT_EQUAL(t.n, 1);
    CU_ASSERT_PTR_NULL(rd_reqid_get(&t, ia));
    CU_ASSERT_PTR_EQUAL(rd_reqid_get(&t, ib), &b);
    /* Releasing the stale id must not end the new one. */
    rd_reqid_release(&t, ia);
    CU_ASSERT_PTR_EQUAL(rd_reqid_get(&t, ib), &b);
    CU_ASSERT_EQUAL(t.live, 1);
    /* Many cycles through one slot: every old id stays dead. */
    uint64_t old[100];
    for (int i = 0; i < 100; i++) {
        old[i] = ib;
        rd_reqid_release(&t, ib);
        ib = rd_reqid_new(&t, &b);
    }
    for (int i = 0; i < 100; i++)
        CU_ASSERT_PTR_NULL(rd_reqid_get(&t, old[i]));
    CU_ASSERT_PTR_EQUAL(rd_reqid_get(&t, ib), &b);
    CU_ASSERT_EQUAL(t.n, 1);
    rd_reqid_fini(&t);
}

/* Growth keeps every live id valid; releases in any order, then the freed
 * slots are all reused before the table grows again. */
static void test_grow(void)
{
    enum { N = 1000 };
    rd_reqid_tab_t t;
    static int obj[N];
    static uint64_t id[N];
    rd_reqid_init(&t);
    for (int i = 0; i < N; i++) {
        id[i] = rd_reqid_new(&t, &obj[i]);
        CU_ASSERT_NOT_EQUAL_FATAL(id[i], 0);
    }
    CU_ASSERT(t.cap >= N);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += rd_reqid_get(&t, id[i]) != &obj[i];
    CU_ASSERT_EQUAL(bad, 0);
    for (int i = 0; i < N; i += 3)
        rd_reqid_release(&t, id[i]);
    for (int i = 0; i < N; i++)
        bad += rd_reqid_get(&t, id[i]) != (i % 3 ? &obj[i] : NULL);
    CU_ASSERT_EQUAL(bad, 0);
    uint32_t n = t.n;
    for (int i = 0; i < N; i += 3) {
        id[i] = rd_reqid_new(&t, &obj[i]);
        CU_ASSERT_EQUAL(t.n, n);
    }
    for (int i = 0; i < N; i++)
        bad += rd_reqid_get(&t, id[i]) != &obj[i];
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(t.live, N);
    rd_reqid_fini(&t);
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "new, get, release", test_new_get_release },
        { "ids out of range", test_out_of_range },
        { "reuse under a new generation", test_reuse_stale },
        { "growth", test_grow },
    };
    return rd_unit_run("reqid", tests, RD_UNIT_COUNT(tests));
}
