/*
 * Reduction kernels (see op.h): one loop per (operation, basic kind), written
 * once as a macro and instantiated for every C type that carries the kind.
 *
 * Kernels work on the packed form: count basic elements back to back. For a
 * contiguous datatype that is the user's layout; a non-contiguous one (pair
 * types with padding, derived types of one basic kind) is packed through a
 * small bounce buffer in chunks, so applying an operation never allocates.
 * A derived type's kind is found through the types it was built from.
 * Pair types (MINLOC / MAXLOC) are read with memcpy because their packed form
 * (value then index, no padding) is not aligned for the index.
 */
#include "core/op.h"

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Per basic kind: packed bytes of one element, and for pairs the value's size. */
typedef struct basic_info {
    unsigned char esize;
    unsigned char len1;     /* pairs: bytes of the value; 0 for scalars */
    unsigned short groups;  /* OPG_* classes of operations defined on it */
} basic_info_t;

/* Operation classes of MPI-3.1 5.9.2, as far as the kernels need them. */
enum {
    OPG_MINMAX = 1 << 0,   /* MAX, MIN */
    OPG_SUMPROD = 1 << 1,  /* SUM, PROD */
    OPG_LOGICAL = 1 << 2,  /* LAND, LOR, LXOR */
    OPG_BITWISE = 1 << 3,  /* BAND, BOR, BXOR */
    OPG_LOC = 1 << 4,      /* MINLOC, MAXLOC */
};

#define OPG_INT (OPG_MINMAX | OPG_SUMPROD | OPG_LOGICAL | OPG_BITWISE)
#define OPG_FLOAT (OPG_MINMAX | OPG_SUMPROD | OPG_LOGICAL)
#define PAIR_INFO(t1, t2) { sizeof(t1) + sizeof(t2), sizeof(t1), OPG_LOC }

static const basic_info_t info[] = {
    [RD_BASIC_INT8] = { 1, 0, OPG_INT },
    [RD_BASIC_INT16] = { 2, 0, OPG_INT },
    [RD_BASIC_INT32] = { 4, 0, OPG_INT },
    [RD_BASIC_INT64] = { 8, 0, OPG_INT },
    [RD_BASIC_UINT8] = { 1, 0, OPG_INT },
    [RD_BASIC_UINT16] = { 2, 0, OPG_INT },
    [RD_BASIC_UINT32] = { 4, 0, OPG_INT },
    [RD_BASIC_UINT64] = { 8, 0, OPG_INT },
    [RD_BASIC_FLOAT] = { sizeof(float), 0, OPG_FLOAT },
    [RD_BASIC_DOUBLE] = { sizeof(double), 0, OPG_FLOAT },
    [RD_BASIC_LONG_DOUBLE] = { sizeof(long double), 0, OPG_FLOAT },
    [RD_BASIC_C_FLOAT_COMPLEX] = { sizeof(float _Complex), 0, OPG_SUMPROD },
    [RD_BASIC_C_DOUBLE_COMPLEX] = { sizeof(double _Complex), 0, OPG_SUMPROD },
    [RD_BASIC_C_LONG_DOUBLE_COMPLEX] = { sizeof(long double _Complex), 0, OPG_SUMPROD },
    [RD_BASIC_BOOL] = { sizeof(bool), 0, OPG_LOGICAL },
    [RD_BASIC_FLOGICAL] = { 4, 0, OPG_LOGICAL },
    /* MPI_CHAR as the C integer it is: the standard leaves it out of the
     * reductions, MPICH applies them and programs written against it rely on it. */
    [RD_BASIC_CHAR] = { 1, 0, OPG_INT },
    [RD_BASIC_PAIR_FLOAT_INT] = PAIR_INFO(float, int),
    [RD_BASIC_PAIR_DOUBLE_INT] = PAIR_INFO(double, int),
    [RD_BASIC_PAIR_LONG_INT] = PAIR_INFO(long, int),
    [RD_BASIC_PAIR_SHORT_INT] = PAIR_INFO(short, int),
    [RD_BASIC_PAIR_LONG_DOUBLE_INT] = PAIR_INFO(long double, int),
    [RD_BASIC_PAIR_INT_INT] = PAIR_INFO(int, int),
    [RD_BASIC_PAIR_FLOAT_FLOAT] = PAIR_INFO(float, float),
    [RD_BASIC_PAIR_DOUBLE_DOUBLE] = PAIR_INFO(double, double),
};

#define NINFO ((int)(sizeof(info) / sizeof(info[0])))

static int op_group(int kind)
{
    switch (kind) {
    case RD_OP_MAX: case RD_OP_MIN: return OPG_MINMAX;
    case RD_OP_SUM: case RD_OP_PROD: return OPG_SUMPROD;
    case RD_OP_LAND: case RD_OP_LOR: case RD_OP_LXOR: return OPG_LOGICAL;
    case RD_OP_BAND: case RD_OP_BOR: case RD_OP_BXOR: return OPG_BITWISE;
    case RD_OP_MINLOC: case RD_OP_MAXLOC: return OPG_LOC;
    default: return 0;
    }
}

/* MPI_BYTE (and MPI_PACKED, and rd_dt_bytes): predefined, one byte, no
 * arithmetic kind. Only the bitwise operations apply, as on uint8. */
static int byte_like(const rd_datatype_t *dt)
{
    return dt->builtin && dt->basic == RD_BASIC_NONE && dt->size == 1;
}

/* The basic kind the kernels use for dt, or RD_BASIC_NONE. A derived type
 * has one when every type it was built from has the same one (a vector of
 * doubles, a struct of two ints): its packed form is then an array of that
 * kind, which is what predefined operations on derived types work on. */
static int kind_of(const rd_datatype_t *dt)
{
    if (byte_like(dt))
        return RD_BASIC_UINT8;
    if (dt->basic >= 0)
        return dt->basic < NINFO && info[dt->basic].esize ? dt->basic : RD_BASIC_NONE;
    if (dt->builtin || dt->nt <= 0 || !dt->types)
        return RD_BASIC_NONE;
    int k = RD_BASIC_NONE;
    for (int i = 0; i < dt->nt; i++) {
        int ki = kind_of(dt->types[i]);
        if (ki == RD_BASIC_NONE || (k != RD_BASIC_NONE && ki != k))
            return RD_BASIC_NONE;
        k = ki;
    }
    return k;
}

int rd_op_valid(const rd_op_t *op, const rd_datatype_t *dt)
{
    if (op->kind == RD_OP_USER || op->kind == RD_OP_REPLACE || op->kind == RD_OP_NO_OP)
        return 1;
    int g = op_group(op->kind);
    if (byte_like(dt))
        return g == OPG_BITWISE;
    int k = kind_of(dt);
    if (k == RD_BASIC_NONE)
        return 0;
    return (info[k].groups & g) != 0;
}

/* b[i] = a[i] op b[i] for n elements of C type T. The bulk goes in blocks of
 * LOOP_BLOCK elements: a loop with a constant trip count and no possible
 * overlap between a and b (ivdep: the buffers are distinct, or the very same
 * one) is what gcc -O2 turns into SIMD instructions; the tail is scalar. */
#define LOOP_BLOCK 16
#define LOOP(T, EXPR)                                                                    \
    do {                                                                                 \
        const T *a = in;                                                                 \
        T *b = inout;                                                                    \
        size_t left = n;                                                                 \
        for (; left >= LOOP_BLOCK; left -= LOOP_BLOCK, a += LOOP_BLOCK, b += LOOP_BLOCK) \
            _Pragma("GCC ivdep") for (size_t i = 0; i < LOOP_BLOCK; i++)                 \
                b[i] = (EXPR);                                                           \
        for (size_t i = 0; i < left; i++)                                                \
            b[i] = (EXPR);                                                               \
    } while (0)

#define MAXE(x, y) ((x) > (y) ? (x) : (y))
#define MINE(x, y) ((x) < (y) ? (x) : (y))

/* The operations on the real floating types: MAX, MIN, SUM, PROD, and the
 * logical ones (a value is true when non-zero), which MPICH applies to them
 * beyond the standard's list. */
#define ARITH(T, kind)                                                                   \
    switch (kind) {                                                                      \
    case RD_OP_SUM: LOOP(T, a[i] + b[i]); break;                                         \
    case RD_OP_PROD: LOOP(T, a[i] * b[i]); break;                                        \
    case RD_OP_MAX: LOOP(T, MAXE(a[i], b[i])); break;                                    \
    case RD_OP_MIN: LOOP(T, MINE(a[i], b[i])); break;                                    \
    case RD_OP_LAND: LOOP(T, (T)(a[i] && b[i])); break;                                  \
    case RD_OP_LOR: LOOP(T, (T)(a[i] || b[i])); break;                                   \
    case RD_OP_LXOR: LOOP(T, (T)(!a[i] != !b[i])); break;                                \
    default: break;                                                                      \
    }

/* Integer SUM and PROD wrap modulo 2^bits: computed in uintmax_t, since
 * signed overflow (and uint16 * uint16 promoted to int) is undefined in C. */
#define INTEGER(T, kind)                                                                 \
    switch (kind) {                                                                      \
    case RD_OP_SUM: LOOP(T, (T)((uintmax_t)a[i] + (uintmax_t)b[i])); break;              \
    case RD_OP_PROD: LOOP(T, (T)((uintmax_t)a[i] * (uintmax_t)b[i])); break;             \
    case RD_OP_LAND: LOOP(T, (T)(a[i] && b[i])); break;                                  \
    case RD_OP_LOR: LOOP(T, (T)(a[i] || b[i])); break;                                   \
    case RD_OP_LXOR: LOOP(T, (T)(!a[i] != !b[i])); break;                                \
    case RD_OP_BAND: LOOP(T, (T)(a[i] & b[i])); break;                                   \
    case RD_OP_BOR: LOOP(T, (T)(a[i] | b[i])); break;                                    \
    case RD_OP_BXOR: LOOP(T, (T)(a[i] ^ b[i])); break;                                   \
    default: ARITH(T, kind); break;                                                      \
    }

/* MINLOC / MAXLOC on packed (value, index) pairs: the better value wins, and
 * on a tie the smaller index (MPI-3.1 5.9.4). */
#define PAIRS(TV, TI, kind)                                                              \
    do {                                                                                 \
        const char *a = in;                                                              \
        char *b = inout;                                                                 \
        const size_t sz = sizeof(TV) + sizeof(TI);                                       \
        for (size_t i = 0; i < n; i++) {                                                 \
            TV av, bv;                                                                   \
            TI ai, bi;                                                                   \
            memcpy(&av, a + i * sz, sizeof(TV));                                         \
            memcpy(&ai, a + i * sz + sizeof(TV), sizeof(TI));                            \
            memcpy(&bv, b + i * sz, sizeof(TV));                                         \
            memcpy(&bi, b + i * sz + sizeof(TV), sizeof(TI));                            \
            int better = (kind) == RD_OP_MINLOC ? av < bv : av > bv;                     \
            if (better || (av == bv && ai < bi))                                         \
                memcpy(b + i * sz, a + i * sz, sz);                                      \
        }                                                                                \
    } while (0)

/* Applies a predefined operation to n packed elements of basic kind k. */
static void kernel(int op, int k, const void *in, void *inout, size_t n)
{
    if (op == RD_OP_NO_OP)
        return;
    if (op == RD_OP_REPLACE) {
        memmove(inout, in, n * info[k].esize);
        return;
    }
    switch (k) {
    case RD_BASIC_INT8: INTEGER(int8_t, op); break;
    case RD_BASIC_CHAR: INTEGER(char, op); break;
    case RD_BASIC_INT16: INTEGER(int16_t, op); break;
    case RD_BASIC_INT32: INTEGER(int32_t, op); break;
    case RD_BASIC_INT64: INTEGER(int64_t, op); break;
    case RD_BASIC_UINT8: INTEGER(uint8_t, op); break;
    case RD_BASIC_UINT16: INTEGER(uint16_t, op); break;
    case RD_BASIC_UINT32: INTEGER(uint32_t, op); break;
    case RD_BASIC_UINT64: INTEGER(uint64_t, op); break;
    case RD_BASIC_FLOAT: ARITH(float, op); break;
    case RD_BASIC_DOUBLE: ARITH(double, op); break;
    case RD_BASIC_LONG_DOUBLE: ARITH(long double, op); break;
    /* complex: SUM and PROD only (rd_op_valid keeps MAX/MIN away) */
    case RD_BASIC_C_FLOAT_COMPLEX:
        if (op == RD_OP_SUM) LOOP(float _Complex, a[i] + b[i]);
        else if (op == RD_OP_PROD) LOOP(float _Complex, a[i] * b[i]);
        break;
    case RD_BASIC_C_DOUBLE_COMPLEX:
        if (op == RD_OP_SUM) LOOP(double _Complex, a[i] + b[i]);
        else if (op == RD_OP_PROD) LOOP(double _Complex, a[i] * b[i]);
        break;
    case RD_BASIC_C_LONG_DOUBLE_COMPLEX:
        if (op == RD_OP_SUM) LOOP(long double _Complex, a[i] + b[i]);
        else if (op == RD_OP_PROD) LOOP(long double _Complex, a[i] * b[i]);
        break;
    case RD_BASIC_BOOL:
        switch (op) {
        case RD_OP_LAND: LOOP(bool, a[i] && b[i]); break;
        case RD_OP_LOR: LOOP(bool, a[i] || b[i]); break;
        case RD_OP_LXOR: LOOP(bool, a[i] != b[i]); break;
        default: break;
        }
        break;
    case RD_BASIC_FLOGICAL: /* Fortran LOGICAL: zero is .false. */
        switch (op) {
        case RD_OP_LAND: LOOP(int32_t, a[i] && b[i]); break;
        case RD_OP_LOR: LOOP(int32_t, a[i] || b[i]); break;
        case RD_OP_LXOR: LOOP(int32_t, !a[i] != !b[i]); break;
        default: break;
        }
        break;
    case RD_BASIC_PAIR_FLOAT_INT: PAIRS(float, int, op); break;
    case RD_BASIC_PAIR_DOUBLE_INT: PAIRS(double, int, op); break;
    case RD_BASIC_PAIR_LONG_INT: PAIRS(long, int, op); break;
    case RD_BASIC_PAIR_SHORT_INT: PAIRS(short, int, op); break;
    case RD_BASIC_PAIR_LONG_DOUBLE_INT: PAIRS(long double, int, op); break;
    case RD_BASIC_PAIR_INT_INT: PAIRS(int, int, op); break;
    case RD_BASIC_PAIR_FLOAT_FLOAT: PAIRS(float, float, op); break;
    case RD_BASIC_PAIR_DOUBLE_DOUBLE: PAIRS(double, double, op); break;
    default: break;
    }
}

/* Calls the user's function; the length argument of the int form is an
 * int, so huge counts go in several calls, each on whole elements at their
 * layout addresses. The large-count form takes them in one call. */
static void apply_user(const rd_op_t *op, const void *in, void *inout, size_t count,
                       const rd_datatype_t *dt)
{
    ptrdiff_t ext = rd_dt_extent(dt);
    int h = dt->handle;
    if (op->large) {
        int64_t len = (int64_t)count;
        ((rd_op_user_c_fn)(void (*)(void))op->fn)((void *)in, inout, &len, &h);
        return;
    }
    while (count) {
        int len = count > INT32_MAX ? INT32_MAX : (int)count;
        op->fn((void *)in, inout, &len, &h);
        in = (const char *)in + (ptrdiff_t)len * ext;
        inout = (char *)inout + (ptrdiff_t)len * ext;
        count -= (size_t)len;
    }
}

/* Bounce buffers for non-contiguous data, in whole basic elements. */
#define CHUNK 4096

void rd_op_apply(const rd_op_t *op, const void *in, void *inout, size_t count,
                 const rd_datatype_t *dt)
{
    if (!count || op->kind == RD_OP_NO_OP)
        return;
    if (op->kind == RD_OP_USER) {
        apply_user(op, in, inout, count, dt);
        return;
    }
    int k = kind_of(dt);
    if (k == RD_BASIC_NONE)
        return; /* rd_op_valid said no; the API layer reported it */
    size_t esz = info[k].esize, bytes = count * dt->size;
    if (rd_dt_is_contig(dt, count)) {
        kernel(op->kind, k, rd_dt_contig_ptr(in, dt), rd_dt_contig_ptr(inout, dt), bytes / esz);
        return;
    }
    union {
        long double align;
        unsigned char b[CHUNK];
    } ab, bb;
    size_t step = CHUNK / esz * esz;
    for (size_t off = 0; off < bytes; off += step) {
        size_t len = bytes - off < step ? bytes - off : step;
        rd_dt_pack(in, count, dt, off, ab.b, len);
        rd_dt_pack(inout, count, dt, off, bb.b, len);
        kernel(op->kind, k, ab.b, bb.b, len / esz);
        rd_dt_unpack(inout, count, dt, off, bb.b, len);
    }
}
