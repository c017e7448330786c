/*
 * Unit tests of the reduction kernels (src/core/op.c) on their own: every
 * predefined operation on types of every class (signed and unsigned
 * integers of each width, float / double / long double, the complex types,
 * C bool and Fortran LOGICAL, MPI_BYTE, characters, the MINLOC / MAXLOC
 * pair types), derived types of one basic kind, user functions, and
 * rd_op_valid's yes and no answers. Expected values are computed here,
 * element by element, in a wider type where the kernel's type could
 * overflow, and a few are spelled out by hand.
 *
 * The datatype objects are built the way src/api/types.c builds the
 * predefined ones (one leaf; pairs with padding a list of two leaves), with
 * the core constructors of core/datatype.h.
 */
#include <complex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "unit_main.h"

#include "core/datatype.h"
#include "core/dt_build.h"
#include "core/op.h"

/* ---- fixtures ---- */

static rd_op_t mkop(int kind)
{
    rd_op_t op = { .handle = 0, .refs = 1, .kind = kind, .commute = 1, .builtin = 1 };
    return op;
}

static const char *op_name(int kind)
{
    static const char *const names[] = {
        [RD_OP_MAX] = "MAX", [RD_OP_MIN] = "MIN", [RD_OP_SUM] = "SUM",
        [RD_OP_PROD] = "PROD", [RD_OP_LAND] = "LAND", [RD_OP_BAND] = "BAND",
        [RD_OP_LOR] = "LOR", [RD_OP_BOR] = "BOR", [RD_OP_LXOR] = "LXOR",
        [RD_OP_BXOR] = "BXOR", [RD_OP_MINLOC] = "MINLOC", [RD_OP_MAXLOC] = "MAXLOC",
        [RD_OP_REPLACE] = "REPLACE", [RD_OP_NO_OP] = "NO_OP", [RD_OP_USER] = "USER",
    };
    return kind >= 0 && kind <= RD_OP_USER ? names[kind] : "?";
}

static int valid(int kind, const rd_datatype_t *dt)
{
    rd_op_t op = mkop(kind);
    return rd_op_valid(&op, dt);
}

static void apply(int kind, const void *in, void *inout, size_t count, const rd_datatype_t *dt)
{
    rd_op_t op = mkop(kind);
    rd_op_apply(&op, in, inout, count, dt);
}

/* A predefined scalar type of basic kind `basic`: one leaf of size bytes. */
static rd_datatype_t *scalar(int basic, size_t size)
{
    rd_datatype_t *t = rd_dt_new();
    CU_ASSERT_FATAL(t != NULL);
    t->lb = 0;
    t->ub = (ptrdiff_t)size;
    t->align = size;
    t->basic = basic;
    t->committed = 1;
    rd_dt_set_root(t, rd_dt_leaf(t, 0, size, (uint32_t)size));
    return t;
}

/* A pair type laid out as struct { value; index; }: one leaf when the index
 * follows the value directly, else a list of two leaves around the padding. */
static rd_datatype_t *pair(int basic, size_t len1, size_t off2, size_t len2, size_t extent,
                           size_t align)
{
    rd_datatype_t *t = rd_dt_new();
    CU_ASSERT_FATAL(t != NULL);
    t->lb = 0;
    t->ub = (ptrdiff_t)extent;
    t->align = align;
    t->basic = basic;
    t->committed = 1;
    if (off2 == len1) {
        rd_dt_set_root(t, rd_dt_leaf(t, 0, len1 + len2, (uint32_t)len1));
    } else {
        const rd_dt_node_t *kids[2] = { rd_dt_leaf(t, 0, len1, (uint32_t)len1),
                                        rd_dt_leaf(t, 0, len2, (uint32_t)len2) };
        const ptrdiff_t offs[2] = { 0, (ptrdiff_t)off2 };
        CU_ASSERT_FATAL(kids[0] && kids[1]);
        rd_dt_set_root(t, rd_dt_list(t, 2, kids, offs));
    }
    CU_ASSERT_EQUAL(t->size, len1 + len2);
    return t;
}

/* Reports the first wrong element of one (type, operation) case. */
#define MISMATCH(tname, kind, i, fmt, ...)                                                   \
    do {                                                                                     \
        CU_FAIL("wrong result");                                                             \
        printf("\n    %s %s: element %zu: " fmt "\n", tname, op_name(kind), (size_t)(i),     \
               __VA_ARGS__);                                                                 \
    } while (0)

/* ---- integers ---- */

static const int int_ops[] = {
    RD_OP_MAX, RD_OP_MIN, RD_OP_SUM, RD_OP_PROD, RD_OP_LAND, RD_OP_LOR, RD_OP_LXOR,
    RD_OP_BAND, RD_OP_BOR, RD_OP_BXOR, RD_OP_REPLACE, RD_OP_NO_OP,
};
#define NINT_OPS (sizeof(int_ops) / sizeof(int_ops[0]))

/* Operands for every operation: products of two stay far inside int32, so
 * the signed kernels never overflow (that would be the caller's bug). Cast
 * to an unsigned type the negative ones become large values whose sums and
 * products wrap, as unsigned arithmetic must. */
static const int64_t small_vals[] = {
    0, 1, -1, 2, -3, 7, -12, 25, 100, -100, 127, -128, 255, 1000, -4096, 30000, -30000, 5,
};
#define NSMALL (sizeof(small_vals) / sizeof(small_vals[0]))

/* The expected a op b, with sums and products in the wider type W. */
#define INT_REF(T, W, kind, x, y)                                                            \
    ((kind) == RD_OP_MAX ? ((x) > (y) ? (x) : (y))                                           \
     : (kind) == RD_OP_MIN ? ((x) < (y) ? (x) : (y))                                         \
     : (kind) == RD_OP_SUM ? (T)((W)(x) + (W)(y))                                            \
     : (kind) == RD_OP_PROD ? (T)((W)(x) * (W)(y))                                           \
     : (kind) == RD_OP_LAND ? (T)((x) != 0 && (y) != 0)                                      \
     : (kind) == RD_OP_LOR ? (T)((x) != 0 || (y) != 0)                                       \
     : (kind) == RD_OP_LXOR ? (T)(((x) != 0) != ((y) != 0))                                  \
     : (kind) == RD_OP_BAND ? (T)((x) & (y))                                                 \
     : (kind) == RD_OP_BOR ? (T)((x) | (y))                                                  \
     : (kind) == RD_OP_BXOR ? (T)((x) ^ (y))                                                 \
     : (kind) == RD_OP_REPLACE ? (x)                                                         \
     : (y))

/*
 * One test per integer type: every operation on the small operands (b is a
 * and shifted, so every pair differs), then everything but SUM and PROD on
 * the extremes of the type; the pair operations are not defined on it.
 */
#define INT_TEST(NAME, T, W, BASIC, TMIN, TMAX)                                              \
    static void NAME(void)                                                                   \
    {                                                                                        \
        rd_datatype_t *dt = scalar(BASIC, sizeof(T));                                        \
        const T ext[] = { TMIN, TMAX, 0, 1, (T)-1, (T)(TMAX / 2), (T)(TMIN / 2),             \
                          (T)(TMAX / 3), TMAX, TMIN, (T)(TMAX - 1), (T)(TMIN + 1) };         \
        const size_t next = sizeof(ext) / sizeof(ext[0]);                                    \
        T a[NSMALL], b[NSMALL], io[NSMALL], want[NSMALL];                                    \
        for (int set = 0; set < 2; set++) {                                                  \
            size_t n = set == 0 ? NSMALL : next;                                             \
            for (size_t i = 0; i < n; i++) {                                                 \
                a[i] = set == 0 ? (T)small_vals[i] : ext[i];                                 \
                b[i] = set == 0 ? (T)small_vals[(i * 5 + 3) % NSMALL] : ext[(i + 5) % next]; \
            }                                                                                \
            for (size_t k = 0; k < NINT_OPS; k++) {                                          \
                int kind = int_ops[k];                                                       \
                if (set == 1 && (kind == RD_OP_SUM || kind == RD_OP_PROD))                   \
                    continue;                                                                \
                CU_ASSERT_TRUE(valid(kind, dt));                                             \
                for (size_t i = 0; i < n; i++)                                               \
                    want[i] = INT_REF(T, W, kind, a[i], b[i]);                               \
                memcpy(io, b, n * sizeof(T));                                                \
                apply(kind, a, io, n, dt);                                                   \
                for (size_t i = 0; i < n; i++)                                               \
                    if (io[i] != want[i]) {                                                  \
                        MISMATCH(#T, kind, i, "%lld op %lld gave %lld, expected %lld",       \
                                 (long long)a[i], (long long)b[i], (long long)io[i],         \
                                 (long long)want[i]);                                        \
                        break;                                                               \
                    }                                                                        \
            }                                                                                \
        }                                                                                    \
        CU_ASSERT_FALSE(valid(RD_OP_MINLOC, dt));                                            \
        CU_ASSERT_FALSE(valid(RD_OP_MAXLOC, dt));                                            \
        rd_dt_release(dt);                                                                   \
    }

INT_TEST(test_int8, int8_t, int64_t, RD_BASIC_INT8, INT8_MIN, INT8_MAX)
INT_TEST(test_int16, int16_t, int64_t, RD_BASIC_INT16, INT16_MIN, INT16_MAX)
INT_TEST(test_int32, int32_t, int64_t, RD_BASIC_INT32, INT32_MIN, INT32_MAX)
INT_TEST(test_int64, int64_t, int64_t, RD_BASIC_INT64, INT64_MIN, INT64_MAX)
INT_TEST(test_uint8, uint8_t, uint64_t, RD_BASIC_UINT8, 0, UINT8_MAX)
INT_TEST(test_uint16, uint16_t, uint64_t, RD_BASIC_UINT16, 0, UINT16_MAX)
INT_TEST(test_uint32, uint32_t, uint64_t, RD_BASIC_UINT32, 0, UINT32_MAX)
INT_TEST(test_uint64, uint64_t, uint64_t, RD_BASIC_UINT64, 0, UINT64_MAX)

/* A few results written out by hand, so the reference above is not the
 * only judge. */
static void test_int_literals(void)
{
    rd_datatype_t *i32 = scalar(RD_BASIC_INT32, 4), *u8 = scalar(RD_BASIC_UINT8, 1),
                  *u32 = scalar(RD_BASIC_UINT32, 4), *i8 = scalar(RD_BASIC_INT8, 1);
    int32_t a[4] = { 5, -3, 0, 7 }, b[4] = { 7, 10, -4, -7 };
    apply(RD_OP_SUM, a, b, 4, i32);
    CU_ASSERT(b[0] == 12 && b[1] == 7 && b[2] == -4 && b[3] == 0);
    int32_t c[4] = { 6, 0, -2, 3 };
    apply(RD_OP_PROD, a, c, 4, i32);
    CU_ASSERT(c[0] == 30 && c[1] == 0 && c[2] == 0 && c[3] == 21);
    int32_t d[4] = { 0, -3, 5, 9 };
    apply(RD_OP_LXOR, a, d, 4, i32);
    CU_ASSERT(d[0] == 1 && d[1] == 0 && d[2] == 1 && d[3] == 0);

    uint8_t x[3] = { 250, 0xf0, 3 }, y[3] = { 10, 0x3c, 200 };
    apply(RD_OP_SUM, x, y, 3, u8);
    CU_ASSERT(y[0] == 4 && y[1] == 0x2c && y[2] == 203);
    uint8_t z[3] = { 0, 0x3c, 0x81 };
    apply(RD_OP_BAND, x, z, 3, u8);
    CU_ASSERT(z[0] == 0 && z[1] == 0x30 && z[2] == 1);

    uint32_t p[2] = { 0x10000, 0xffffffffu }, q[2] = { 0x10000, 2 };
    apply(RD_OP_PROD, p, q, 2, u32);
    CU_ASSERT(q[0] == 0 && q[1] == 0xfffffffeu);

    int8_t s[3] = { -5, -128, 127 }, t[3] = { 3, 127, -128 };
    apply(RD_OP_MAX, s, t, 3, i8);
    CU_ASSERT(t[0] == 3 && t[1] == 127 && t[2] == 127);
    int8_t u[3] = { 3, 127, -128 };
    apply(RD_OP_MIN, s, u, 3, i8);
    CU_ASSERT(u[0] == -5 && u[1] == -128 && u[2] == -128);

    rd_dt_release(i32);
    rd_dt_release(u8);
    rd_dt_release(u32);
    rd_dt_release(i8);
}

/*
 * unsigned short (and unsigned char) operands are promoted to int in C, so
 * a product of two large uint16 values exceeds INT_MAX unless the kernel
 * multiplies in an unsigned type. MPI wants the result modulo 2^16.
 */
static void test_uint16_prod_wraps(void)
{
    rd_datatype_t *u16 = scalar(RD_BASIC_UINT16, 2);
    uint16_t a[3] = { 65535, 40000, 65535 }, b[3] = { 65535, 50000, 2 };
    apply(RD_OP_PROD, a, b, 3, u16);
    CU_ASSERT_EQUAL(b[0], 1);                          /* (2^16 - 1)^2 mod 2^16 */
    CU_ASSERT_EQUAL(b[1], (uint16_t)(40000u * 50000u));
    CU_ASSERT_EQUAL(b[2], 65534);
    rd_dt_release(u16);
}

/* ---- floating point ---- */

/* The logical operations too: MPICH applies them to floating types. */
static const int float_ops[] = { RD_OP_MAX, RD_OP_MIN, RD_OP_SUM, RD_OP_PROD, RD_OP_LAND,
                                 RD_OP_LOR, RD_OP_LXOR, RD_OP_REPLACE, RD_OP_NO_OP };
static const int not_float_ops[] = { RD_OP_BAND, RD_OP_BOR, RD_OP_BXOR, RD_OP_MINLOC,
                                     RD_OP_MAXLOC };
static const double float_vals[] = { 0.0, 1.5, -2.25, 1e10, -0.5, 3.0, 0.001, 42.0, -1e-3,
                                     65504.0, -7.75, 0.1 };
#define NFLOAT (sizeof(float_vals) / sizeof(float_vals[0]))

/* Results are compared by value: long double carries padding bytes. The
 * reference does the same arithmetic in the same type, which x86-64 (SSE,
 * FLT_EVAL_METHOD 0) rounds identically. */
#define FLOAT_TEST(NAME, T, BASIC)                                                           \
    static void NAME(void)                                                                   \
    {                                                                                        \
        rd_datatype_t *dt = scalar(BASIC, sizeof(T));                                        \
        T a[NFLOAT], b[NFLOAT], io[NFLOAT], want[NFLOAT];                                    \
        for (size_t i = 0; i < NFLOAT; i++) {                                                \
            a[i] = (T)float_vals[i];                                                         \
            b[i] = (T)float_vals[(i * 5 + 3) % NFLOAT];                                      \
        }                                                                                    \
        for (size_t k = 0; k < sizeof(float_ops) / sizeof(float_ops[0]); k++) {             \
            int kind = float_ops[k];                                                         \
            CU_ASSERT_TRUE(valid(kind, dt));                                                 \
            for (size_t i = 0; i < NFLOAT; i++) {                                            \
                T x = a[i], y = b[i];                                                        \
                want[i] = kind == RD_OP_MAX ? (x > y ? x : y)                                \
                        : kind == RD_OP_MIN ? (x < y ? x : y)                                \
                        : kind == RD_OP_SUM ? (T)(x + y)                                     \
                        : kind == RD_OP_PROD ? (T)(x * y)                                    \
                        : kind == RD_OP_LAND ? (T)(x != 0 && y != 0)                         \
                        : kind == RD_OP_LOR ? (T)(x != 0 || y != 0)                          \
                        : kind == RD_OP_LXOR ? (T)((x != 0) != (y != 0))                     \
                        : kind == RD_OP_REPLACE ? x : y;                                     \
            }                                                                                \
            memcpy(io, b, sizeof(io));                                                       \
            apply(kind, a, io, NFLOAT, dt);                                                  \
            for (size_t i = 0; i < NFLOAT; i++)                                              \
                if (io[i] != want[i]) {                                                      \
                    MISMATCH(#T, kind, i, "%Lg op %Lg gave %Lg, expected %Lg",               \
                             (long double)a[i], (long double)b[i], (long double)io[i],       \
                             (long double)want[i]);                                          \
                    break;                                                                   \
                }                                                                            \
        }                                                                                    \
        for (size_t k = 0; k < sizeof(not_float_ops) / sizeof(not_float_ops[0]); k++)       \
            CU_ASSERT_FALSE(valid(not_float_ops[k], dt));                                    \
        rd_dt_release(dt);                                                                   \
    }

FLOAT_TEST(test_float, float, RD_BASIC_FLOAT)
FLOAT_TEST(test_double, double, RD_BASIC_DOUBLE)
FLOAT_TEST(test_long_double, long double, RD_BASIC_LONG_DOUBLE)

static void test_float_literals(void)
{
    rd_datatype_t *d = scalar(RD_BASIC_DOUBLE, sizeof(double)),
                  *ld = scalar(RD_BASIC_LONG_DOUBLE, sizeof(long double));
    double a[3] = { 1.5, -2.0, 0.25 }, b[3] = { 2.25, 3.0, -0.25 };
    apply(RD_OP_SUM, a, b, 3, d);
    CU_ASSERT(b[0] == 3.75 && b[1] == 1.0 && b[2] == 0.0);
    double c[3] = { 4.0, 0.5, 8.0 };
    apply(RD_OP_PROD, a, c, 3, d);
    CU_ASSERT(c[0] == 6.0 && c[1] == -1.0 && c[2] == 2.0);
    /* 1 + 2^-60 exists in the 64-bit mantissa of x87 long double, not in double */
    long double x[1] = { 1.0L }, y[1] = { 0x1p-60L };
    apply(RD_OP_SUM, x, y, 1, ld);
    CU_ASSERT(y[0] - 1.0L == 0x1p-60L);
    rd_dt_release(d);
    rd_dt_release(ld);
}

/* ---- complex ---- */

#define COMPLEX_TEST(NAME, T, BASIC, RE, IM)                                                 \
    static void NAME(void)                                                                   \
    {                                                                                        \
        rd_datatype_t *dt = scalar(BASIC, sizeof(T));                                        \
        enum { N = 6 };                                                                      \
        T a[N], b[N], io[N], want[N];                                                        \
        for (size_t i = 0; i < N; i++) {                                                     \
            a[i] = (T)(float_vals[i] + float_vals[i + 1] * I);                               \
            b[i] = (T)(float_vals[(i + 4) % NFLOAT] + float_vals[(i + 7) % NFLOAT] * I);     \
        }                                                                                    \
        const int ops[] = { RD_OP_SUM, RD_OP_PROD };                                         \
        for (size_t k = 0; k < 2; k++) {                                                     \
            int kind = ops[k];                                                               \
            CU_ASSERT_TRUE(valid(kind, dt));                                                 \
            for (size_t i = 0; i < N; i++)                                                   \
                want[i] = kind == RD_OP_SUM ? a[i] + b[i] : a[i] * b[i];                     \
            memcpy(io, b, sizeof(io));                                                       \
            apply(kind, a, io, N, dt);                                                       \
            for (size_t i = 0; i < N; i++)                                                   \
                if (RE(io[i]) != RE(want[i]) || IM(io[i]) != IM(want[i])) {                  \
                    MISMATCH(#T, kind, i, "gave %Lg%+Lgi, expected %Lg%+Lgi",                \
                             (long double)RE(io[i]), (long double)IM(io[i]),                 \
                             (long double)RE(want[i]), (long double)IM(want[i]));            \
                    break;                                                                   \
                }                                                                            \
        }                                                                                    \
        T p[1] = { 1 + 2 * I }, q[1] = { 3 + 4 * I };                                        \
        apply(RD_OP_PROD, p, q, 1, dt);                                                      \
        CU_ASSERT(RE(q[0]) == -5 && IM(q[0]) == 10);                                         \
        const int nots[] = { RD_OP_MAX, RD_OP_MIN, RD_OP_LAND, RD_OP_LXOR, RD_OP_BAND,       \
                             RD_OP_BXOR, RD_OP_MINLOC };                                     \
        for (size_t k = 0; k < sizeof(nots) / sizeof(nots[0]); k++)                          \
            CU_ASSERT_FALSE(valid(nots[k], dt));                                             \
        rd_dt_release(dt);                                                                   \
    }

COMPLEX_TEST(test_float_complex, float _Complex, RD_BASIC_C_FLOAT_COMPLEX, crealf, cimagf)
COMPLEX_TEST(test_double_complex, double _Complex, RD_BASIC_C_DOUBLE_COMPLEX, creal, cimag)
COMPLEX_TEST(test_long_double_complex, long double _Complex, RD_BASIC_C_LONG_DOUBLE_COMPLEX,
             creall, cimagl)

/* ---- logical types ---- */

static void test_c_bool(void)
{
    rd_datatype_t *dt = scalar(RD_BASIC_BOOL, sizeof(bool));
    const bool a[4] = { false, false, true, true }, b[4] = { false, true, false, true };
    const bool land[4] = { false, false, false, true }, lor[4] = { false, true, true, true },
               lxor[4] = { false, true, true, false };
    const struct { int kind; const bool *want; } cases[] = {
        { RD_OP_LAND, land }, { RD_OP_LOR, lor }, { RD_OP_LXOR, lxor }, { RD_OP_REPLACE, a },
        { RD_OP_NO_OP, b },
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        bool io[4];
        memcpy(io, b, sizeof(io));
        CU_ASSERT_TRUE(valid(cases[k].kind, dt));
        apply(cases[k].kind, a, io, 4, dt);
        for (size_t i = 0; i < 4; i++)
            if (io[i] != cases[k].want[i]) {
                MISMATCH("bool", cases[k].kind, i, "gave %d, expected %d", io[i],
                         cases[k].want[i]);
                break;
            }
    }
    const int nots[] = { RD_OP_SUM, RD_OP_PROD, RD_OP_MAX, RD_OP_MIN, RD_OP_BAND, RD_OP_BOR,
                         RD_OP_BXOR, RD_OP_MINLOC };
    for (size_t k = 0; k < sizeof(nots) / sizeof(nots[0]); k++)
        CU_ASSERT_FALSE(valid(nots[k], dt));
    rd_dt_release(dt);
}

/* Fortran LOGICAL: any nonzero value is .true.; results are 0 or 1. */
static void test_fortran_logical(void)
{
    rd_datatype_t *dt = scalar(RD_BASIC_FLOGICAL, 4);
    const int32_t a[6] = { 0, 0, 5, -1, 1, 7 }, b[6] = { 0, 3, 0, -2, 1, 0 };
    const int32_t land[6] = { 0, 0, 0, 1, 1, 0 }, lor[6] = { 0, 1, 1, 1, 1, 1 },
                  lxor[6] = { 0, 1, 1, 0, 0, 1 };
    const struct { int kind; const int32_t *want; } cases[] = {
        { RD_OP_LAND, land }, { RD_OP_LOR, lor }, { RD_OP_LXOR, lxor },
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        int32_t io[6];
        memcpy(io, b, sizeof(io));
        CU_ASSERT_TRUE(valid(cases[k].kind, dt));
        apply(cases[k].kind, a, io, 6, dt);
        for (size_t i = 0; i < 6; i++)
            if (io[i] != cases[k].want[i]) {
                MISMATCH("LOGICAL", cases[k].kind, i, "gave %d, expected %d", (int)io[i],
                         (int)cases[k].want[i]);
                break;
            }
    }
    const int nots[] = { RD_OP_SUM, RD_OP_MAX, RD_OP_BAND, RD_OP_BXOR, RD_OP_MAXLOC };
    for (size_t k = 0; k < sizeof(nots) / sizeof(nots[0]); k++)
        CU_ASSERT_FALSE(valid(nots[k], dt));
    rd_dt_release(dt);
}

/* ---- bytes and characters ---- */

/* MPI_BYTE (core's rd_dt_bytes, as MPI_PACKED): the bitwise operations only. */
static void test_byte(void)
{
    const uint8_t a[5] = { 0x00, 0xff, 0xf0, 0x5a, 0x81 }, b[5] = { 0xff, 0xff, 0x3c, 0xa5, 0x01 };
    const int ops[] = { RD_OP_BAND, RD_OP_BOR, RD_OP_BXOR };
    for (size_t k = 0; k < 3; k++) {
        uint8_t io[5];
        memcpy(io, b, sizeof(io));
        CU_ASSERT_TRUE(valid(ops[k], &rd_dt_bytes));
        apply(ops[k], a, io, 5, &rd_dt_bytes);
        for (size_t i = 0; i < 5; i++) {
            uint8_t want = ops[k] == RD_OP_BAND ? a[i] & b[i]
                         : ops[k] == RD_OP_BOR ? a[i] | b[i] : a[i] ^ b[i];
            if (io[i] != want) {
                MISMATCH("MPI_BYTE", ops[k], i, "gave 0x%02x, expected 0x%02x", io[i], want);
                break;
            }
        }
    }
    uint8_t io[5];
    memcpy(io, b, sizeof(io));
    apply(RD_OP_REPLACE, a, io, 5, &rd_dt_bytes);
    CU_ASSERT(memcmp(io, a, 5) == 0);
    const int nots[] = { RD_OP_SUM, RD_OP_PROD, RD_OP_MAX, RD_OP_MIN, RD_OP_LAND, RD_OP_LOR,
                         RD_OP_LXOR, RD_OP_MINLOC, RD_OP_MAXLOC };
    for (size_t k = 0; k < sizeof(nots) / sizeof(nots[0]); k++)
        CU_ASSERT_FALSE(valid(nots[k], &rd_dt_bytes));
}

/* MPI_CHAR and MPI_CHARACTER: the integer operations (as MPICH), no MINLOC/MAXLOC. */
static void test_char(void)
{
    rd_datatype_t *dt = scalar(RD_BASIC_CHAR, 1);
    for (int kind = RD_OP_MAX; kind <= RD_OP_MAXLOC; kind++)
        CU_ASSERT_EQUAL(valid(kind, dt) != 0, kind != RD_OP_MINLOC && kind != RD_OP_MAXLOC);
    CU_ASSERT_TRUE(valid(RD_OP_REPLACE, dt));
    CU_ASSERT_TRUE(valid(RD_OP_NO_OP, dt));
    char a[3] = { 'x', 'y', 'z' }, b[3] = { 'a', 'b', 'c' };
    apply(RD_OP_NO_OP, a, b, 3, dt);
    CU_ASSERT(memcmp(b, "abc", 3) == 0);
    apply(RD_OP_REPLACE, a, b, 3, dt);
    CU_ASSERT(memcmp(b, "xyz", 3) == 0);
    char c[3] = { 1, -3, 100 }, d[3] = { 2, 5, 27 };
    apply(RD_OP_SUM, c, d, 3, dt);
    CU_ASSERT(d[0] == 3 && d[1] == 2 && d[2] == 127);
    apply(RD_OP_MIN, c, d, 3, dt);
    CU_ASSERT(d[0] == 1 && d[1] == -3 && d[2] == 100);
    apply(RD_OP_BXOR, c, d, 3, dt);
    CU_ASSERT(d[0] == 0 && d[1] == 0 && d[2] == 0);
    rd_dt_release(dt);
}

/* ---- MINLOC / MAXLOC ---- */

/* Hand-picked (value, index) cases: a better, b better, ties either way
 * round (the smaller index wins), equal pairs, negative values. */
static const struct { int av, ai, bv, bi; } loc_cases[] = {
    { 1, 5, 2, 3 }, { 4, 1, 2, 9 }, { 3, 2, 3, 7 }, { 3, 8, 3, 4 },
    { -2, 0, -2, 0 }, { -5, 1, 6, 0 }, { 6, 3, -5, 2 }, { 0, 6, 0, 1 },
};
#define NLOC (sizeof(loc_cases) / sizeof(loc_cases[0]))
/* Elements of the long run: padded pairs then span several of op.c's
 * bounce buffers. */
#define NLOC_LONG 1000

#define LOC_WANT(kind, av, ai, bv, bi, wv, wi)                                               \
    do {                                                                                     \
        int better_ = (kind) == RD_OP_MINLOC ? (av) < (bv) : (av) > (bv);                    \
        if (better_) {                                                                       \
            wv = (av);                                                                       \
            wi = (ai);                                                                       \
        } else if ((av) == (bv)) {                                                           \
            wv = (av);                                                                       \
            wi = (ai) < (bi) ? (ai) : (bi);                                                  \
        } else {                                                                             \
            wv = (bv);                                                                       \
            wi = (bi);                                                                       \
        }                                                                                    \
    } while (0)

#define PAIR_TEST(NAME, TV, TI, BASIC)                                                       \
    static void NAME(void)                                                                   \
    {                                                                                        \
        typedef struct { TV v; TI i; } pair_t;                                               \
        rd_datatype_t *dt = pair(BASIC, sizeof(TV), offsetof(pair_t, i), sizeof(TI),        \
                                 sizeof(pair_t), _Alignof(pair_t));                          \
        static pair_t a[NLOC_LONG], b[NLOC_LONG], io[NLOC_LONG];                             \
        const int ops[] = { RD_OP_MINLOC, RD_OP_MAXLOC };                                    \
        for (int run = 0; run < 2; run++) {                                                  \
            size_t n = run == 0 ? NLOC : NLOC_LONG;                                          \
            memset(a, 0, sizeof(a));                                                         \
            memset(b, 0, sizeof(b));                                                         \
            for (size_t i = 0; i < n; i++) {                                                 \
                if (run == 0) {                                                              \
                    a[i].v = (TV)loc_cases[i].av;                                            \
                    a[i].i = (TI)loc_cases[i].ai;                                            \
                    b[i].v = (TV)loc_cases[i].bv;                                            \
                    b[i].i = (TI)loc_cases[i].bi;                                            \
                } else {                                                                     \
                    a[i].v = (TV)((int)(i * 7 % 13) - 6);                                    \
                    a[i].i = (TI)(i % 5);                                                    \
                    b[i].v = (TV)((int)(i * 11 % 13) - 6);                                   \
                    b[i].i = (TI)(i % 3);                                                    \
                }                                                                            \
            }                                                                                \
            for (size_t k = 0; k < 2; k++) {                                                 \
                int kind = ops[k];                                                           \
                CU_ASSERT_TRUE(valid(kind, dt));                                             \
                memcpy(io, b, n * sizeof(pair_t));                                           \
                apply(kind, a, io, n, dt);                                                   \
                for (size_t i = 0; i < n; i++) {                                             \
                    TV wv;                                                                   \
                    TI wi;                                                                   \
                    LOC_WANT(kind, a[i].v, a[i].i, b[i].v, b[i].i, wv, wi);                  \
                    if (io[i].v != wv || io[i].i != wi) {                                    \
                        MISMATCH(#TV "+" #TI, kind, i,                                       \
                                 "(%Lg,%Lg) vs (%Lg,%Lg) gave (%Lg,%Lg)",                    \
                                 (long double)a[i].v, (long double)a[i].i,                   \
                                 (long double)b[i].v, (long double)b[i].i,                   \
                                 (long double)io[i].v, (long double)io[i].i);                \
                        break;                                                               \
                    }                                                                        \
                }                                                                            \
            }                                                                                \
        }                                                                                    \
        const int nots[] = { RD_OP_SUM, RD_OP_PROD, RD_OP_MAX, RD_OP_MIN, RD_OP_LAND,        \
                             RD_OP_BAND, RD_OP_BXOR };                                       \
        for (size_t k = 0; k < sizeof(nots) / sizeof(nots[0]); k++)                          \
            CU_ASSERT_FALSE(valid(nots[k], dt));                                             \
        rd_dt_release(dt);                                                                   \
    }

PAIR_TEST(test_float_int, float, int, RD_BASIC_PAIR_FLOAT_INT)
PAIR_TEST(test_double_int, double, int, RD_BASIC_PAIR_DOUBLE_INT)
PAIR_TEST(test_long_int, long, int, RD_BASIC_PAIR_LONG_INT)
PAIR_TEST(test_short_int, short, int, RD_BASIC_PAIR_SHORT_INT)
PAIR_TEST(test_long_double_int, long double, int, RD_BASIC_PAIR_LONG_DOUBLE_INT)
PAIR_TEST(test_2int, int, int, RD_BASIC_PAIR_INT_INT)
PAIR_TEST(test_2real, float, float, RD_BASIC_PAIR_FLOAT_FLOAT)
PAIR_TEST(test_2double, double, double, RD_BASIC_PAIR_DOUBLE_DOUBLE)

/* The tie rule written out: equal values keep the smaller index, whichever
 * operand holds it. */
static void test_loc_literals(void)
{
    typedef struct { double v; int i; } di_t;
    rd_datatype_t *dt = pair(RD_BASIC_PAIR_DOUBLE_INT, sizeof(double), offsetof(di_t, i),
                             sizeof(int), sizeof(di_t), _Alignof(di_t));
    di_t a[3] = { { 2.5, 7 }, { 2.5, 1 }, { -1.0, 9 } }, b[3] = { { 2.5, 3 }, { 2.5, 4 },
                                                                 { 0.5, 0 } };
    di_t lo[3], hi[3];
    memcpy(lo, b, sizeof(lo));
    memcpy(hi, b, sizeof(hi));
    apply(RD_OP_MINLOC, a, lo, 3, dt);
    apply(RD_OP_MAXLOC, a, hi, 3, dt);
    CU_ASSERT(lo[0].v == 2.5 && lo[0].i == 3 && lo[1].v == 2.5 && lo[1].i == 1);
    CU_ASSERT(lo[2].v == -1.0 && lo[2].i == 9);
    CU_ASSERT(hi[0].v == 2.5 && hi[0].i == 3 && hi[1].v == 2.5 && hi[1].i == 1);
    CU_ASSERT(hi[2].v == 0.5 && hi[2].i == 0);
    rd_dt_release(dt);
}

/* ---- derived types, user functions, edge cases ---- */

/* A derived type is reduced as the array of its one basic kind; bytes in
 * its gaps stay as they were. */
static void test_derived(void)
{
    rd_datatype_t *dbl = scalar(RD_BASIC_DOUBLE, sizeof(double));
    rd_datatype_t *i32 = scalar(RD_BASIC_INT32, 4);

    /* three doubles 16 bytes apart: extent 40 bytes, five doubles */
    rd_datatype_t *vec = rd_dt_build_hvector(3, 1, 16, dbl);
    CU_ASSERT_FATAL(vec != NULL);
    CU_ASSERT_FATAL(rd_dt_set_contents(vec, 0, 0, NULL, 0, NULL, 1, &dbl) == 0);
    CU_ASSERT_TRUE(valid(RD_OP_SUM, vec));
    CU_ASSERT_TRUE(valid(RD_OP_MAX, vec));
    CU_ASSERT_FALSE(valid(RD_OP_BAND, vec));
    CU_ASSERT_FALSE(valid(RD_OP_MINLOC, vec));
    double in[10], io[10];
    for (int i = 0; i < 10; i++) {
        in[i] = i + 0.5;
        io[i] = 100.0 * i;
    }
    apply(RD_OP_SUM, in, io, 2, vec);
    for (int i = 0; i < 10; i++) {
        int covered = i == 0 || i == 2 || i == 4 || i == 5 || i == 7 || i == 9;
        double want = covered ? 100.0 * i + i + 0.5 : 100.0 * i;
        if (io[i] != want) {
            MISMATCH("hvector(double)", RD_OP_SUM, i, "gave %g, expected %g", io[i], want);
            break;
        }
    }

    /* { int32 at 0, int32 at 8 }: one kind, so the integer operations apply */
    rd_datatype_t *olds2[2] = { i32, i32 };
    const size_t bls[2] = { 1, 1 };
    const ptrdiff_t disps[2] = { 0, 8 };
    rd_datatype_t *ii = rd_dt_build_struct(2, bls, 0, disps, olds2, NULL);
    CU_ASSERT_FATAL(ii != NULL);
    CU_ASSERT_FATAL(rd_dt_set_contents(ii, 0, 0, NULL, 0, NULL, 2, olds2) == 0);
    CU_ASSERT_TRUE(valid(RD_OP_BXOR, ii));
    CU_ASSERT_TRUE(valid(RD_OP_PROD, ii));
    int32_t x[3] = { 6, 99, -2 }, y[3] = { 7, 55, 9 };
    apply(RD_OP_PROD, x, y, 1, ii);
    CU_ASSERT(y[0] == 42 && y[1] == 55 && y[2] == -18);

    /* { int32, double }: two kinds, no predefined reduction but REPLACE */
    rd_datatype_t *olds[2] = { i32, dbl };
    rd_datatype_t *id = rd_dt_build_struct(2, bls, 0, disps, olds, NULL);
    CU_ASSERT_FATAL(id != NULL);
    CU_ASSERT_FATAL(rd_dt_set_contents(id, 0, 0, NULL, 0, NULL, 2, olds) == 0);
    CU_ASSERT_FALSE(valid(RD_OP_SUM, id));
    CU_ASSERT_FALSE(valid(RD_OP_MAX, id));
    CU_ASSERT_FALSE(valid(RD_OP_BAND, id));
    CU_ASSERT_FALSE(valid(RD_OP_MINLOC, id));
    CU_ASSERT_TRUE(valid(RD_OP_REPLACE, id));
    CU_ASSERT_TRUE(valid(RD_OP_USER, id));
    unsigned char m[16], n[16], before[16];
    memset(m, 1, sizeof(m));
    memset(n, 2, sizeof(n));
    memcpy(before, n, sizeof(n));
    apply(RD_OP_SUM, m, n, 1, id);   /* invalid: a no-op, nothing written */
    CU_ASSERT(memcmp(n, before, sizeof(n)) == 0);

    rd_dt_release(vec);
    rd_dt_release(ii);
    rd_dt_release(id);
    rd_dt_release(dbl);
    rd_dt_release(i32);
}

static struct { int calls, len, handle; } user_seen;

/* A non-commutative user operation: inout = in - inout. */
static void user_minus(void *in, void *inout, int *len, int *datatype_handle)
{
    const int32_t *a = in;
    int32_t *b = inout;
    user_seen.calls++;
    user_seen.len = *len;
    user_seen.handle = *datatype_handle;
    for (int i = 0; i < *len; i++)
        b[i] = a[i] - b[i];
}

static void test_user(void)
{
    rd_datatype_t *i32 = scalar(RD_BASIC_INT32, 4);
    rd_op_t op = mkop(RD_OP_USER);
    op.fn = user_minus;
    op.commute = 0;
    op.builtin = 0;
    i32->handle = 0x4c000405;   /* MPICH's MPI_INT, as the API would set it */
    CU_ASSERT_TRUE(rd_op_valid(&op, i32));
    CU_ASSERT_TRUE(rd_op_valid(&op, &rd_dt_bytes));
    int32_t a[5] = { 10, 20, 30, 40, 50 }, b[5] = { 1, 2, 3, 4, 5 };
    rd_op_apply(&op, a, b, 5, i32);
    CU_ASSERT_EQUAL(user_seen.calls, 1);
    CU_ASSERT_EQUAL(user_seen.len, 5);
    CU_ASSERT_EQUAL(user_seen.handle, 0x4c000405);
    CU_ASSERT(b[0] == 9 && b[1] == 18 && b[2] == 27 && b[3] == 36 && b[4] == 45);
    rd_op_apply(&op, a, b, 0, i32);   /* count 0: the function is not called */
    CU_ASSERT_EQUAL(user_seen.calls, 1);
    i32->handle = 0;   /* never registered: nothing for rd_dt_release to free */
    rd_dt_release(i32);
}

/* REPLACE, NO_OP and a zero count on every class. */
static void test_replace_noop_zero(void)
{
    rd_datatype_t *dbl = scalar(RD_BASIC_DOUBLE, sizeof(double));
    double a[3] = { 1, 2, 3 }, b[3] = { 4, 5, 6 };
    apply(RD_OP_SUM, a, b, 0, dbl);
    CU_ASSERT(b[0] == 4 && b[1] == 5 && b[2] == 6);
    apply(RD_OP_NO_OP, a, b, 3, dbl);
    CU_ASSERT(b[0] == 4 && b[1] == 5 && b[2] == 6);
    apply(RD_OP_REPLACE, a, b, 2, dbl);
    CU_ASSERT(b[0] == 1 && b[1] == 2 && b[2] == 6);
    rd_dt_release(dbl);
}

/* rd_op_valid across the classes of MPI-3.1 5.9.2, one table. */
static void test_valid_table(void)
{
    typedef struct { double v; int i; } di_t;
    rd_datatype_t *i32 = scalar(RD_BASIC_INT32, 4), *u64 = scalar(RD_BASIC_UINT64, 8),
                  *dbl = scalar(RD_BASIC_DOUBLE, sizeof(double)),
                  *cpx = scalar(RD_BASIC_C_DOUBLE_COMPLEX, sizeof(double _Complex)),
                  *bl = scalar(RD_BASIC_BOOL, sizeof(bool)),
                  *lg = scalar(RD_BASIC_FLOGICAL, 4), *ch = scalar(RD_BASIC_CHAR, 1),
                  *di = pair(RD_BASIC_PAIR_DOUBLE_INT, sizeof(double), offsetof(di_t, i),
                             sizeof(int), sizeof(di_t), _Alignof(di_t));
    const struct { int kind; const rd_datatype_t *dt; int yes; const char *what; } t[] = {
        { RD_OP_SUM, di, 0, "SUM on MPI_DOUBLE_INT" },
        { RD_OP_MAX, di, 0, "MAX on MPI_DOUBLE_INT" },
        { RD_OP_MINLOC, di, 1, "MINLOC on MPI_DOUBLE_INT" },
        { RD_OP_BAND, dbl, 0, "BAND on MPI_DOUBLE" },
        { RD_OP_LAND, dbl, 1, "LAND on MPI_DOUBLE" },
        { RD_OP_MINLOC, dbl, 0, "MINLOC on MPI_DOUBLE" },
        { RD_OP_MAX, dbl, 1, "MAX on MPI_DOUBLE" },
        { RD_OP_LAND, i32, 1, "LAND on MPI_INT" },
        { RD_OP_BXOR, u64, 1, "BXOR on MPI_UINT64_T" },
        { RD_OP_MAXLOC, i32, 0, "MAXLOC on MPI_INT" },
        { RD_OP_MAX, cpx, 0, "MAX on MPI_C_DOUBLE_COMPLEX" },
        { RD_OP_PROD, cpx, 1, "PROD on MPI_C_DOUBLE_COMPLEX" },
        { RD_OP_LOR, bl, 1, "LOR on MPI_C_BOOL" },
        { RD_OP_SUM, bl, 0, "SUM on MPI_C_BOOL" },
        { RD_OP_BOR, lg, 0, "BOR on MPI_LOGICAL" },
        { RD_OP_LXOR, lg, 1, "LXOR on MPI_LOGICAL" },
        { RD_OP_MAX, ch, 1, "MAX on MPI_CHAR" },
        { RD_OP_MAXLOC, ch, 0, "MAXLOC on MPI_CHAR" },
        { RD_OP_BAND, &rd_dt_bytes, 1, "BAND on MPI_BYTE" },
        { RD_OP_SUM, &rd_dt_bytes, 0, "SUM on MPI_BYTE" },
        { RD_OP_REPLACE, di, 1, "REPLACE on MPI_DOUBLE_INT" },
        { RD_OP_NO_OP, ch, 1, "NO_OP on MPI_CHAR" },
    };
    for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
        int got = valid(t[k].kind, t[k].dt) != 0;
        CU_ASSERT_EQUAL(got, t[k].yes);
        if (got != t[k].yes)
            printf("\n    %s: rd_op_valid says %s\n", t[k].what, got ? "yes" : "no");
    }
    rd_datatype_t *all[] = { i32, u64, dbl, cpx, bl, lg, ch, di };
    for (size_t k = 0; k < sizeof(all) / sizeof(all[0]); k++)
        rd_dt_release(all[k]);
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "int8: every operation, small and extreme values", test_int8 },
        { "int16", test_int16 },
        { "int32", test_int32 },
        { "int64", test_int64 },
        { "uint8 (sums and products wrap)", test_uint8 },
        { "uint16", test_uint16 },
        { "uint32", test_uint32 },
        { "uint64", test_uint64 },
        { "integer results written out", test_int_literals },
        { "uint16 PROD past INT_MAX wraps modulo 2^16", test_uint16_prod_wraps },
        { "float: MAX MIN SUM PROD REPLACE NO_OP", test_float },
        { "double", test_double },
        { "long double (compared by value)", test_long_double },
        { "floating-point results written out", test_float_literals },
        { "float complex: SUM PROD", test_float_complex },
        { "double complex", test_double_complex },
        { "long double complex", test_long_double_complex },
        { "C bool: LAND LOR LXOR", test_c_bool },
        { "Fortran LOGICAL: nonzero is true", test_fortran_logical },
        { "MPI_BYTE: bitwise only", test_byte },
        { "characters: REPLACE and NO_OP only", test_char },
        { "MINLOC/MAXLOC float+int", test_float_int },
        { "MINLOC/MAXLOC double+int (padded)", test_double_int },
        { "MINLOC/MAXLOC long+int (padded)", test_long_int },
        { "MINLOC/MAXLOC short+int (padded)", test_short_int },
        { "MINLOC/MAXLOC long double+int (padded)", test_long_double_int },
        { "MINLOC/MAXLOC 2int", test_2int },
        { "MINLOC/MAXLOC 2real", test_2real },
        { "MINLOC/MAXLOC 2double", test_2double },
        { "MINLOC/MAXLOC ties: the smaller index", test_loc_literals },
        { "derived types of one kind, and of two", test_derived },
        { "user function: arguments, order, count 0", test_user },
        { "REPLACE, NO_OP, count 0", test_replace_noop_zero },
        { "rd_op_valid yes / no table", test_valid_table },
    };
    return rd_unit_run("op", tests, RD_UNIT_COUNT(tests));
}
