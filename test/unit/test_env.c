/*
 * Unit tests of the size syntax of RDMPI_* values (src/util/env.c); the
 * readers and their rule for bad values are test_tunable.c's.
 */
#include <CUnit/Basic.h>

#include "unit_main.h"

#include "util/env.h"

static void test_parse_size_valid(void)
{
    static const struct { const char *s; long long v; } ok[] = {
        { "0", 0 },
        { "4096", 4096 },
        { "64K", 64LL << 10 },
        { "64k", 64LL << 10 },
        { "64KB", 64LL << 10 },
        { "64kb", 64LL << 10 },
        { "1m", 1LL << 20 },
        { "1MB", 1LL << 20 },
        { "3G", 3LL << 30 },
        { "2gB", 2LL << 30 },
    };
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        long long v = -1;
        CU_ASSERT_EQUAL(rd_env_parse_size(ok[i].s, &v), 0);
        CU_ASSERT_EQUAL(v, ok[i].v);
    }
}

static void test_parse_size_invalid(void)
{
    static const char *const bad[] = {
        "", "K", "abc", "-1", "-4K", "10X", "10KK", "10Kx", "1.5K", "12 ", "0x10",
        "99999999999999999999",   /* does not fit a long long */
        "9000000000G",            /* fits, but times 2^30 overflows */
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        long long v = 1234;
        CU_ASSERT_NOT_EQUAL(rd_env_parse_size(bad[i], &v), 0);
        CU_ASSERT_EQUAL(v, 1234);   /* output untouched on failure */
    }
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "rd_env_parse_size: valid", test_parse_size_valid },
        { "rd_env_parse_size: invalid", test_parse_size_invalid },
    };
    return rd_unit_run("env", tests, RD_UNIT_COUNT(tests));
}
