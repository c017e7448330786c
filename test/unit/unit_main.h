/*
 * The main() every CUnit test program shares: one suite, a table of named
 * tests, verbose output, exit status 1 when any assertion or test failed.
 *
 *   static const rd_unit_test_t tests[] = { { "name", fn }, ... };
 *   return rd_unit_run("suite", tests, RD_UNIT_COUNT(tests));
 */
#ifndef RD_TEST_UNIT_MAIN_H
#define RD_TEST_UNIT_MAIN_H

#include <stddef.h>

#include <CUnit/Basic.h>

typedef struct rd_unit_test {
    const char *name;
    CU_TestFunc fn;
} rd_unit_test_t;

#define RD_UNIT_COUNT(tests) (sizeof(tests) / sizeof((tests)[0]))

/* With a suite set-up and tear-down (CU_InitializeFunc/CU_CleanupFunc, or NULL). */
static inline int rd_unit_run_fixture(const char *suite_name, CU_InitializeFunc init,
                                      CU_CleanupFunc clean, const rd_unit_test_t *tests, size_t n)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return CU_get_error();
    CU_pSuite suite = CU_add_suite(suite_name, init, clean);
    if (!suite)
        goto err;
    for (size_t i = 0; i < n; i++)
        if (!CU_add_test(suite, tests[i].name, tests[i].fn))
            goto err;
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
err:
    CU_cleanup_registry();
    return CU_get_error();
}

static inline int rd_unit_run(const char *suite_name, const rd_unit_test_t *tests, size_t n)
{
    return rd_unit_run_fixture(suite_name, NULL, NULL, tests, n);
}

#endif
