/*
 * Unit tests of the tunable tables' reader (src/util/tunable.c) and of the
 * error detail it records (src/util/errdetail.c): the one rule for bad
 * values (malformed, out of range, not a listed choice) and the text that
 * names the variable, the value and what is accepted.
 * Variables are named RDMPI_TEST_* so no real tunable is disturbed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "unit_main.h"

#include "util/errdetail.h"
#include "util/status.h"
#include "util/tunable.h"

static const rd_tunable_t t_size = {
    .name = "RDMPI_TEST_SIZE", .type = RD_TUN_SIZE, .dflt = 4096, .min = 64, .max = 1 << 20,
    .meaning = "a size",
};
static const rd_tunable_t t_int = {
    .name = "RDMPI_TEST_LONG", .type = RD_TUN_INT, .dflt = -1, .min = 0, .max = 31,
    .meaning = "an int, unset by default", .flags = RD_TUN_F_UNSET,
};
static const rd_tunable_t t_bool = {
    .name = "RDMPI_TEST_BOOL", .type = RD_TUN_BOOL, .dflt = 1, .meaning = "a bool",
};
static const rd_tunable_t t_real = {
    .name = "RDMPI_TEST_REAL", .type = RD_TUN_REAL, .dflt = 0, .min = 0, .max = 0.999,
    .meaning = "a fraction",
};
static const rd_tunable_t t_str = {
    .name = "RDMPI_TEST_STR", .type = RD_TUN_STR, .dflt_str = "auto",
    .choices = "get,put,auto", .meaning = "a choice",
};

/* The recorded detail contains every word of want, then is cleared. */
static void check_detail(const char *const *want, size_t n)
{
    char buf[RD_ERR_DETAIL_MAX];
    CU_ASSERT(rd_err_detail_take(buf, sizeof(buf)) > 0);
    for (size_t i = 0; i < n; i++)
        CU_ASSERT_PTR_NOT_NULL(strstr(buf, want[i]));
    CU_ASSERT_EQUAL(rd_err_detail_take(buf, sizeof(buf)), 0);
    CU_ASSERT_STRING_EQUAL(buf, "");
}

static void set_var(const rd_tunable_t *t, const char *value)
{
    if (value)
        setenv(t->name, value, 1);
    else
        unsetenv(t->name);
}

/* t read with the variable set to value (NULL: unset) gives RD_OK and want
 * (v_ starts as something else, so a reader that writes nothing fails); a
 * macro, so that a failure names the caller's line. */
#define EXPECT_INT(t, value, want)                                 \
    do {                                                           \
        long long v_ = ~(long long)(want);                         \
        set_var((t), (value));                                     \
        CU_ASSERT_EQUAL(rd_tunable_int((t), &v_), RD_OK);          \
        CU_ASSERT_EQUAL(v_, (want));                               \
    } while (0)

static void test_size(void)
{
    long long v = 0;
    EXPECT_INT(&t_size, NULL, 4096);
    EXPECT_INT(&t_size, "", 4096);
    EXPECT_INT(&t_size, "64k", 65536);
    EXPECT_INT(&t_size, "1M", 1 << 20);
    static const char *const bad[] = { "8q", "2M", "63", "-64", "abc", "1.5K" };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        v = 77;
        setenv(t_size.name, bad[i], 1);
        CU_ASSERT_EQUAL(rd_tunable_int(&t_size, &v), RD_EINVAL);
        CU_ASSERT_EQUAL(v, 77);
        const char *want[] = { "RDMPI_TEST_SIZE", bad[i], "from 64 to 1M" };
        check_detail(want, 3);
    }
    unsetenv(t_size.name);
}

static void test_int(void)
{
    long long v = 0;
    EXPECT_INT(&t_int, NULL, -1);
    EXPECT_INT(&t_int, "31", 31);
    setenv(t_int.name, "32", 1);
    CU_ASSERT_EQUAL(rd_tunable_int(&t_int, &v), RD_EINVAL);
    const char *want[] = { "RDMPI_TEST_LONG=\"32\"", "a whole number from 0 to 31" };
    check_detail(want, 2);
    setenv(t_int.name, "1K", 1);   /* a plain integer takes no suffix */
    CU_ASSERT_EQUAL(rd_tunable_int(&t_int, &v), RD_EINVAL);
    rd_err_detail_clear();
    unsetenv(t_int.name);
}

static void test_bool(void)
{
    long long v = -1;
    EXPECT_INT(&t_bool, "off", 0);
    EXPECT_INT(&t_bool, "YES", 1);
    setenv(t_bool.name, "2", 1);
    CU_ASSERT_EQUAL(rd_tunable_int(&t_bool, &v), RD_EINVAL);
    const char *want[] = { "RDMPI_TEST_BOOL=\"2\"", "yes/no" };
    check_detail(want, 2);
    EXPECT_INT(&t_bool, NULL, 1);
}

static void test_real(void)
{
    double v = -1;
    setenv(t_real.name, "0.25", 1);
    CU_ASSERT_EQUAL(rd_tunable_real(&t_real, &v), RD_OK);
    CU_ASSERT_DOUBLE_EQUAL(v, 0.25, 1e-12);
    setenv(t_real.name, "1", 1);
    CU_ASSERT_EQUAL(rd_tunable_real(&t_real, &v), RD_EINVAL);
    setenv(t_real.name, "nan", 1);
    CU_ASSERT_EQUAL(rd_tunable_real(&t_real, &v), RD_EINVAL);
    rd_err_detail_clear();
    unsetenv(t_real.name);
}

static void test_str(void)
{
    const char *s = NULL;
    unsetenv(t_str.name);
    CU_ASSERT_EQUAL(rd_tunable_str(&t_str, &s), RD_OK);
    CU_ASSERT_STRING_EQUAL(s, "auto");
    setenv(t_str.name, "put", 1);
    CU_ASSERT_EQUAL(rd_tunable_str(&t_str, &s), RD_OK);
    CU_ASSERT_STRING_EQUAL(s, "put");
    setenv(t_str.name, "PUT", 1);   /* words are compared exactly, as their readers do */
    CU_ASSERT_EQUAL(rd_tunable_str(&t_str, &s), RD_EINVAL);
    rd_err_detail_clear();
    setenv(t_str.name, "pu", 1);
    CU_ASSERT_EQUAL(rd_tunable_str(&t_str, &s), RD_EINVAL);
    const char *want[] = { "RDMPI_TEST_STR=\"pu\"", "one of get,put,auto" };
    check_detail(want, 2);
    unsetenv(t_str.name);
}

static void test_default_text(void)
{
    char buf[64];
    rd_tunable_default_text(&t_size, buf, sizeof(buf));
    CU_ASSERT_STRING_EQUAL(buf, "4K");
    rd_tunable_default_text(&t_int, buf, sizeof(buf));
    CU_ASSERT_STRING_EQUAL(buf, "unset");
    rd_tunable_default_text(&t_str, buf, sizeof(buf));
    CU_ASSERT_STRING_EQUAL(buf, "auto");
}

static void test_detail_sys(void)
{
    char buf[RD_ERR_DETAIL_MAX], small[8];
    rd_err_detail_sys(ENOENT, "shm_open(%s)", "/x");
    CU_ASSERT_STRING_EQUAL(rd_err_detail_peek(), "shm_open(/x): No such file or directory");
    rd_err_detail("first");
    rd_err_detail("second %d", 2);   /* the last record wins */
    CU_ASSERT_EQUAL(rd_err_detail_take(buf, sizeof(buf)), strlen("second 2"));
    CU_ASSERT_STRING_EQUAL(buf, "second 2");
    rd_err_detail("a longer detail");
    CU_ASSERT_EQUAL(rd_err_detail_take(small, sizeof(small)), sizeof(small) - 1);
    CU_ASSERT_STRING_EQUAL(small, "a longe");
    CU_ASSERT_STRING_EQUAL(rd_err_detail_peek(), "");
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "size: suffixes, range, bad values named", test_size },
        { "int: range, no suffix, unset default", test_int },
        { "bool", test_bool },
        { "real: range, nan", test_real },
        { "string choices", test_str },
        { "default as text", test_default_text },
        { "error detail: errno text, last wins, take clears", test_detail_sys },
    };
    return rd_unit_run("tunable", tests, RD_UNIT_COUNT(tests));
}
