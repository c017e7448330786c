/*
 * Unit tests of the tunables reader (src/util/env.c): size parsing, and the
 * rule that an unset, empty or malformed variable yields the default.
 * Variables are named RDMPI_TEST_* so no real tunable is disturbed.
 */
#include <limits.h>
#include <stdlib.h>

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

static void test_size(void)
{
    unsetenv("RDMPI_TEST_SIZE");
    CU_ASSERT_EQUAL(rd_env_size("RDMPI_TEST_SIZE", 77), 77);
    setenv("RDMPI_TEST_SIZE", "", 1);
    CU_ASSERT_EQUAL(rd_env_size("RDMPI_TEST_SIZE", 77), 77);
    setenv("RDMPI_TEST_SIZE", "8k", 1);
    CU_ASSERT_EQUAL(rd_env_size("RDMPI_TEST_SIZE", 77), 8192);
    setenv("RDMPI_TEST_SIZE", "8q", 1);
    CU_ASSERT_EQUAL(rd_env_size("RDMPI_TEST_SIZE", 77), 77);
    unsetenv("RDMPI_TEST_SIZE");
}

static void test_bool(void)
{
    static const char *const yes[] = { "1", "yes", "YES", "on", "On", "true", "TRUE" };
    static const char *const no[] = { "0", "no", "No", "off", "OFF", "false", "False" };
    static const char *const bad[] = { "2", "y", "n", "enable", "truee", " 1", "-1" };
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
        setenv("RDMPI_TEST_BOOL", yes[i], 1);
        CU_ASSERT_EQUAL(rd_env_bool("RDMPI_TEST_BOOL", 0), 1);
    }
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
        setenv("RDMPI_TEST_BOOL", no[i], 1);
        CU_ASSERT_EQUAL(rd_env_bool("RDMPI_TEST_BOOL", 1), 0);
    }
    /* malformed: the default, whichever it is */
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        setenv("RDMPI_TEST_BOOL", bad[i], 1);
        CU_ASSERT_EQUAL(rd_env_bool("RDMPI_TEST_BOOL", 0), 0);
        CU_ASSERT_EQUAL(rd_env_bool("RDMPI_TEST_BOOL", 1), 1);
    }
    setenv("RDMPI_TEST_BOOL", "", 1);
    CU_ASSERT_EQUAL(rd_env_bool("RDMPI_TEST_BOOL", 1), 1);
    unsetenv("RDMPI_TEST_BOOL");
    CU_ASSERT_EQUAL(rd_env_bool("RDMPI_TEST_BOOL", 0), 0);
    CU_ASSERT_EQUAL(rd_env_bool("RDMPI_TEST_BOOL", 1), 1);
}

static void test_long(void)
{
    static const char *const bad[] = {
        "12abc", "abc", "1.5", "0x", "12 ", "-", "99999999999999999999999",
    };
    setenv("RDMPI_TEST_LONG", "42", 1);
    CU_ASSERT_EQUAL(rd_env_long("RDMPI_TEST_LONG", -7), 42);
    setenv("RDMPI_TEST_LONG", "-5", 1);
    CU_ASSERT_EQUAL(rd_env_long("RDMPI_TEST_LONG", -7), -5);
    setenv("RDMPI_TEST_LONG", "0", 1);
    CU_ASSERT_EQUAL(rd_env_long("RDMPI_TEST_LONG", -7), 0);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        setenv("RDMPI_TEST_LONG", bad[i], 1);
        CU_ASSERT_EQUAL(rd_env_long("RDMPI_TEST_LONG", -7), -7);
    }
    setenv("RDMPI_TEST_LONG", "", 1);
    CU_ASSERT_EQUAL(rd_env_long("RDMPI_TEST_LONG", -7), -7);
    unsetenv("RDMPI_TEST_LONG");
    CU_ASSERT_EQUAL(rd_env_long("RDMPI_TEST_LONG", LONG_MAX), LONG_MAX);
}

static void test_str(void)
{
    setenv("RDMPI_TEST_STR", "shm,rc", 1);
    CU_ASSERT_STRING_EQUAL(rd_env_str("RDMPI_TEST_STR", "tcp"), "shm,rc");
    setenv("RDMPI_TEST_STR", "", 1);
    CU_ASSERT_STRING_EQUAL(rd_env_str("RDMPI_TEST_STR", "tcp"), "tcp");
    unsetenv("RDMPI_TEST_STR");
    CU_ASSERT_PTR_NULL(rd_env_str("RDMPI_TEST_STR", NULL));
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "rd_env_parse_size: valid", test_parse_size_valid },
        { "rd_env_parse_size: invalid", test_parse_size_invalid },
        { "rd_env_size", test_size },
        { "rd_env_bool", test_bool },
        { "rd_env_long: malformed gives the default", test_long },
        { "rd_env_str", test_str },
    };
    return rd_unit_run("env", tests, RD_UNIT_COUNT(tests));
}
