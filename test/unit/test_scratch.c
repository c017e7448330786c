/* Unit tests of the scratch-memory cache (src/util/scratch.c). */
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "unit_main.h"

#include "util/scratch.h"

#define K 1024

static void test_reuse(void)
{
    void *a = rd_scratch_get(300 * K);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    memset(a, 1, 300 * K);
    rd_scratch_put(a);
    /* a released block that is big enough comes back for a smaller request */
    void *b = rd_scratch_get(200 * K);
    CU_ASSERT_PTR_EQUAL(b, a);
    /* and is gone from the cache while in use */
    void *c = rd_scratch_get(200 * K);
    CU_ASSERT_PTR_NOT_EQUAL(c, a);
    rd_scratch_put(b);
    rd_scratch_put(c);
    rd_scratch_fini();
}

static void test_small_not_cached(void)
{
    /* tiny blocks go straight back to malloc; they must still be usable */
    void *a = rd_scratch_get(100);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    memset(a, 2, 100);
    rd_scratch_put(a);
    void *z = rd_scratch_get(0);
    CU_ASSERT_PTR_NOT_NULL(z);
    rd_scratch_put(z);
    rd_scratch_put(NULL);
    rd_scratch_fini();
}

static void test_larger_evicts_smaller(void)
{
    /* fill all eight slots with small blocks, then release a large one: the
     * large one must be kept (the sweep-to-larger-sizes case) */
    void *small[8];
    for (int i = 0; i < 8; i++)
        small[i] = rd_scratch_get(64 * K);
    for (int i = 0; i < 8; i++)
        rd_scratch_put(small[i]);
    void *big = rd_scratch_get(1024 * K); /* 7 x 64K + 1M fits the 1.5M limit */
    CU_ASSERT_PTR_NOT_NULL_FATAL(big);
    rd_scratch_put(big);
    void *again = rd_scratch_get(512 * K);
    CU_ASSERT_PTR_EQUAL(again, big);
    rd_scratch_put(again);
    rd_scratch_fini();
}

static void test_limit(void)
{
    /* RDMPI_SCRATCH_CACHE is read on the first put of the process, so this
     * runs last with a limit set before any put: blocks over it are freed. */
    void *a = rd_scratch_get(1024 * K), *b = rd_scratch_get(1024 * K);
    rd_scratch_put(a);
    rd_scratch_put(b); /* 2 MiB > 1.5 MiB: the other one is evicted */
    /* the block kept is the one just released; a was freed to make room */
    void *x = rd_scratch_get(1024 * K);
    CU_ASSERT_PTR_EQUAL(x, b);
    rd_scratch_put(x);
    rd_scratch_fini();
}

int main(void)
{
    setenv("RDMPI_SCRATCH_CACHE", "1536K", 1);
    static const rd_unit_test_t tests[] = {
        { "released blocks are reused", test_reuse },
        { "small blocks are not cached", test_small_not_cached },
        { "a larger block evicts smaller ones", test_larger_evicts_smaller },
        { "the cache stays within RDMPI_SCRATCH_CACHE", test_limit },
    };
    return rd_unit_run("scratch", tests, RD_UNIT_COUNT(tests));
}
