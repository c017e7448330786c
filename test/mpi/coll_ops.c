/*
 * coll_ops: every predefined reduction operation on every predefined
 * datatype it is defined for (MPI-3.1 5.9.2 and 5.9.4), through
 * MPI_Allreduce, MPI_Reduce (root size-1) and MPI_Reduce_local, at a short
 * and a long count (so both allreduce algorithms run), against a reference
 * computed here. Inputs are small integers so every result is exact in
 * every type and independent of the combining order.
 */
#include "mtest.h"

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum kind {
    K_I8, K_U8, K_I16, K_U16, K_I32, K_U32, K_I64, K_U64, K_F, K_D, K_LD,
    K_CF, K_CD, K_CLD, K_BOOL, K_LOGICAL,
    K_PFI, K_PDI, K_PLI, K_PSI, K_PLDI, K_PII, K_PFF, K_PDD,
};

typedef struct { float v; int i; } pfi_t;
typedef struct { double v; int i; } pdi_t;
typedef struct { long v; int i; } pli_t;
typedef struct { short v; int i; } psi_t;
typedef struct { long double v; int i; } pldi_t;
typedef struct { int v; int i; } pii_t;
typedef struct { float v; float i; } pff_t;
typedef struct { double v; double i; } pdd_t;

/* What an element holds, abstractly: a value (re), and the imaginary part
 * or the MINLOC/MAXLOC index (im). */
typedef struct { long double re, im; } val_t;

enum opclass { OC_MINMAX = 1, OC_SUMPROD = 2, OC_LOGICAL = 4, OC_BITWISE = 8, OC_LOC = 16 };

typedef struct tcase {
    MPI_Datatype t;
    const char *name;
    int kind;
    int classes;
} tcase_t;

#define CINT (OC_MINMAX | OC_SUMPROD | OC_LOGICAL | OC_BITWISE)
#define FINT (OC_MINMAX | OC_SUMPROD | OC_BITWISE)
#define T(t, k, c) { t, #t, k, c }

static const tcase_t types[] = {
    T(MPI_INT, K_I32, CINT), T(MPI_LONG, K_I64, CINT), T(MPI_SHORT, K_I16, CINT),
    T(MPI_UNSIGNED_SHORT, K_U16, CINT), T(MPI_UNSIGNED, K_U32, CINT),
    T(MPI_UNSIGNED_LONG, K_U64, CINT), T(MPI_LONG_LONG, K_I64, CINT),
    T(MPI_UNSIGNED_LONG_LONG, K_U64, CINT), T(MPI_SIGNED_CHAR, K_I8, CINT),
    T(MPI_UNSIGNED_CHAR, K_U8, CINT), T(MPI_INT8_T, K_I8, CINT), T(MPI_INT16_T, K_I16, CINT),
    T(MPI_INT32_T, K_I32, CINT), T(MPI_INT64_T, K_I64, CINT), T(MPI_UINT8_T, K_U8, CINT),
    T(MPI_UINT16_T, K_U16, CINT), T(MPI_UINT32_T, K_U32, CINT), T(MPI_UINT64_T, K_U64, CINT),
    T(MPI_INTEGER, K_I32, FINT), T(MPI_INTEGER1, K_I8, FINT), T(MPI_INTEGER2, K_I16, FINT),
    T(MPI_INTEGER4, K_I32, FINT), T(MPI_INTEGER8, K_I64, FINT),
    T(MPI_AINT, K_I64, FINT), T(MPI_OFFSET, K_I64, FINT), T(MPI_COUNT, K_I64, FINT),
    T(MPI_FLOAT, K_F, OC_MINMAX | OC_SUMPROD), T(MPI_DOUBLE, K_D, OC_MINMAX | OC_SUMPROD),
    T(MPI_LONG_DOUBLE, K_LD, OC_MINMAX | OC_SUMPROD), T(MPI_REAL, K_F, OC_MINMAX | OC_SUMPROD),
    T(MPI_DOUBLE_PRECISION, K_D, OC_MINMAX | OC_SUMPROD),
    T(MPI_REAL4, K_F, OC_MINMAX | OC_SUMPROD), T(MPI_REAL8, K_D, OC_MINMAX | OC_SUMPROD),
    T(MPI_C_FLOAT_COMPLEX, K_CF, OC_SUMPROD), T(MPI_C_DOUBLE_COMPLEX, K_CD, OC_SUMPROD),
    T(MPI_C_LONG_DOUBLE_COMPLEX, K_CLD, OC_SUMPROD), T(MPI_COMPLEX, K_CF, OC_SUMPROD),
    T(MPI_DOUBLE_COMPLEX, K_CD, OC_SUMPROD), T(MPI_COMPLEX8, K_CF, OC_SUMPROD),
    T(MPI_COMPLEX16, K_CD, OC_SUMPROD),
    T(MPI_C_BOOL, K_BOOL, OC_LOGICAL), T(MPI_LOGICAL, K_LOGICAL, OC_LOGICAL),
    T(MPI_BYTE, K_U8, OC_BITWISE),
    T(MPI_FLOAT_INT, K_PFI, OC_LOC), T(MPI_DOUBLE_INT, K_PDI, OC_LOC),
    T(MPI_LONG_INT, K_PLI, OC_LOC), T(MPI_SHORT_INT, K_PSI, OC_LOC),
    T(MPI_LONG_DOUBLE_INT, K_PLDI, OC_LOC), T(MPI_2INT, K_PII, OC_LOC),
    T(MPI_2INTEGER, K_PII, OC_LOC), T(MPI_2REAL, K_PFF, OC_LOC),
    T(MPI_2DOUBLE_PRECISION, K_PDD, OC_LOC),
};

typedef struct ocase {
    MPI_Op op;
    const char *name;
    int cls;
} ocase_t;

static const ocase_t ops[] = {
    { MPI_MAX, "MPI_MAX", OC_MINMAX }, { MPI_MIN, "MPI_MIN", OC_MINMAX },
    { MPI_SUM, "MPI_SUM", OC_SUMPROD }, { MPI_PROD, "MPI_PROD", OC_SUMPROD },
    { MPI_LAND, "MPI_LAND", OC_LOGICAL }, { MPI_LOR, "MPI_LOR", OC_LOGICAL },
    { MPI_LXOR, "MPI_LXOR", OC_LOGICAL }, { MPI_BAND, "MPI_BAND", OC_BITWISE },
    { MPI_BOR, "MPI_BOR", OC_BITWISE }, { MPI_BXOR, "MPI_BXOR", OC_BITWISE },
    { MPI_MINLOC, "MPI_MINLOC", OC_LOC }, { MPI_MAXLOC, "MPI_MAXLOC", OC_LOC },
};

static int is_signed(int k)
{
    return k == K_I8 || k == K_I16 || k == K_I32 || k == K_I64 || k >= K_F;
}

/* Input of rank r at element i for operation op. */
static val_t input(MPI_Op op, int k, int r, int i)
{
    val_t v = { 0, 0 };
    if (op == MPI_SUM) {
        v.re = (r * 7 + i * 3) % 11 + 1;
        v.im = (r + i) % 3;
    } else if (op == MPI_PROD) {
        v.re = 1 + (r + i) % 2;
        v.im = (r * i) % 2;
    } else if (op == MPI_MAX || op == MPI_MIN) {
        v.re = (r * 13 + i * 5) % 17 - (is_signed(k) ? 8 : 0);
    } else if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) {
        int p = (r * 3 + i) % 5;
        v.re = k == K_BOOL ? p % 2 : (p < 2 ? 0 : p - 1);
    } else if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR) {
        v.re = (r * 37 + i * 11 + 5) % 128;
    } else {
        v.re = (r + i) % 3;
        v.im = (r * 5 + i) % 7;
    }
    return v;
}

static val_t combine(MPI_Op op, int k, val_t a, val_t b)
{
    val_t v = { 0, 0 };
    long long x = (long long)a.re, y = (long long)b.re;
    if (op == MPI_SUM) {
        v.re = a.re + b.re;
        v.im = a.im + b.im;
    } else if (op == MPI_PROD) {
        if (k == K_CF || k == K_CD || k == K_CLD) {
            v.re = a.re * b.re - a.im * b.im;
            v.im = a.re * b.im + a.im * b.re;
        } else {
            v.re = a.re * b.re;
        }
    } else if (op == MPI_MAX) {
        v.re = a.re > b.re ? a.re : b.re;
    } else if (op == MPI_MIN) {
        v.re = a.re < b.re ? a.re : b.re;
    } else if (op == MPI_LAND) {
        v.re = x && y;
    } else if (op == MPI_LOR) {
        v.re = x || y;
    } else if (op == MPI_LXOR) {
        v.re = !x != !y;
    } else if (op == MPI_BAND) {
        v.re = x & y;
    } else if (op == MPI_BOR) {
        v.re = x | y;
    } else if (op == MPI_BXOR) {
        v.re = x ^ y;
    } else {
        int first = op == MPI_MINLOC ? a.re < b.re : a.re > b.re;
        v = first || (a.re == b.re && a.im < b.im) ? a : b;
    }
    return v;
}

static size_t extent_of(int k)
{
    static const size_t ext[] = {
        1, 1, 2, 2, 4, 4, 8, 8, sizeof(float), sizeof(double), sizeof(long double),
        sizeof(float _Complex), sizeof(double _Complex), sizeof(long double _Complex),
        sizeof(bool), 4, sizeof(pfi_t), sizeof(pdi_t), sizeof(pli_t), sizeof(psi_t),
        sizeof(pldi_t), sizeof(pii_t), sizeof(pff_t), sizeof(pdd_t),
    };
    return ext[k];
}

#define PUT_PAIR(T_) do { T_ *p_ = (T_ *)e; p_->v = v.re; p_->i = v.im; } while (0)
#define GET_PAIR(T_) do { const T_ *p_ = (const T_ *)e; v.re = p_->v; v.im = p_->i; } while (0)

static void put(void *buf, int k, int i, val_t v)
{
    char *e = (char *)buf + (size_t)i * extent_of(k);
    switch (k) {
    case K_I8: *(int8_t *)e = (int8_t)v.re; break;
    case K_U8: *(uint8_t *)e = (uint8_t)v.re; break;
    case K_I16: *(int16_t *)e = (int16_t)v.re; break;
    case K_U16: *(uint16_t *)e = (uint16_t)v.re; break;
    case K_I32: case K_LOGICAL: *(int32_t *)e = (int32_t)v.re; break;
    case K_U32: *(uint32_t *)e = (uint32_t)v.re; break;
    case K_I64: *(int64_t *)e = (int64_t)v.re; break;
    case K_U64: *(uint64_t *)e = (uint64_t)v.re; break;
    case K_F: *(float *)e = (float)v.re; break;
    case K_D: *(double *)e = (double)v.re; break;
    case K_LD: *(long double *)e = v.re; break;
    case K_CF: *(float _Complex *)e = (float)v.re + (float)v.im * I; break;
    case K_CD: *(double _Complex *)e = (double)v.re + (double)v.im * I; break;
    case K_CLD: *(long double _Complex *)e = v.re + v.im * I; break;
    case K_BOOL: *(bool *)e = v.re != 0; break;
    case K_PFI: PUT_PAIR(pfi_t); break;
    case K_PDI: PUT_PAIR(pdi_t); break;
    case K_PLI: PUT_PAIR(pli_t); break;
    case K_PSI: PUT_PAIR(psi_t); break;
    case K_PLDI: PUT_PAIR(pldi_t); break;
    case K_PII: PUT_PAIR(pii_t); break;
    case K_PFF: PUT_PAIR(pff_t); break;
    case K_PDD: PUT_PAIR(pdd_t); break;
    }
}

static val_t get(const void *buf, int k, int i)
{
    const char *e = (const char *)buf + (size_t)i * extent_of(k);
    val_t v = { 0, 0 };
    switch (k) {
    case K_I8: v.re = *(const int8_t *)e; break;
    case K_U8: v.re = *(const uint8_t *)e; break;
    case K_I16: v.re = *(const int16_t *)e; break;
    case K_U16: v.re = *(const uint16_t *)e; break;
    case K_I32: case K_LOGICAL: v.re = *(const int32_t *)e; break;
    case K_U32: v.re = *(const uint32_t *)e; break;
    case K_I64: v.re = (long double)*(const int64_t *)e; break;
    case K_U64: v.re = (long double)*(const uint64_t *)e; break;
    case K_F: v.re = *(const float *)e; break;
    case K_D: v.re = *(const double *)e; break;
    case K_LD: v.re = *(const long double *)e; break;
    case K_CF: v.re = crealf(*(const float _Complex *)e); v.im = cimagf(*(const float _Complex *)e); break;
    case K_CD: v.re = creal(*(const double _Complex *)e); v.im = cimag(*(const double _Complex *)e); break;
    case K_CLD: v.re = creall(*(const long double _Complex *)e); v.im = cimagl(*(const long double _Complex *)e); break;
    case K_BOOL: v.re = *(const bool *)e; break;
    case K_PFI: GET_PAIR(pfi_t); break;
    case K_PDI: GET_PAIR(pdi_t); break;
    case K_PLI: GET_PAIR(pli_t); break;
    case K_PSI: GET_PAIR(psi_t); break;
    case K_PLDI: GET_PAIR(pldi_t); break;
    case K_PII: GET_PAIR(pii_t); break;
    case K_PFF: GET_PAIR(pff_t); break;
    case K_PDD: GET_PAIR(pdd_t); break;
    }
    return v;
}

static int has_im(int k)
{
    return k == K_CF || k == K_CD || k == K_CLD || k >= K_PFI;
}

/* Checks buf against the reduction over ranks 0..nranks-1. */
static int verify(const void *buf, const tcase_t *t, const ocase_t *o, int n, int nranks,
                  const char *what)
{
    for (int i = 0; i < n; i++) {
        val_t ref = input(o->op, t->kind, 0, i);
        for (int r = 1; r < nranks; r++)
            ref = combine(o->op, t->kind, ref, input(o->op, t->kind, r, i));
        if (t->kind == K_BOOL || t->kind == K_LOGICAL || o->cls == OC_LOGICAL)
            ref.re = ref.re != 0;
        val_t got = get(buf, t->kind, i);
        if (o->cls == OC_LOGICAL)
            got.re = got.re != 0;
        if (got.re != ref.re || (has_im(t->kind) && got.im != ref.im)) {
            MT_FAIL("%s %s %s: element %d is (%Lg, %Lg), expected (%Lg, %Lg)", what, o->name,
                    t->name, i, got.re, got.im, ref.re, ref.im);
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    const int counts[] = { 37, 1000 };
    size_t maxext = sizeof(pldi_t) > sizeof(long double _Complex) ? sizeof(pldi_t)
                                                                  : sizeof(long double _Complex);
    char *in = MTest_Malloc(1000 * maxext), *out = MTest_Malloc(1000 * maxext);
    char *other = MTest_Malloc(1000 * maxext);
    int tested = 0;

    for (size_t ti = 0; ti < sizeof(types) / sizeof(types[0]); ti++) {
        const tcase_t *t = &types[ti];
        for (size_t oi = 0; oi < sizeof(ops) / sizeof(ops[0]); oi++) {
            const ocase_t *o = &ops[oi];
            if (!(t->classes & o->cls))
                continue;
            for (int ci = 0; ci < 2; ci++) {
                int n = counts[ci];
                for (int i = 0; i < n; i++)
                    put(in, t->kind, i, input(o->op, t->kind, MTest_rank, i));
                memset(out, 0, (size_t)n * extent_of(t->kind));
                MT_OK(MPI_Allreduce(in, out, n, t->t, o->op, MPI_COMM_WORLD));
                verify(out, t, o, n, MTest_size, "Allreduce");

                int root = MTest_size - 1;
                memset(out, 0, (size_t)n * extent_of(t->kind));
                MT_OK(MPI_Reduce(in, out, n, t->t, o->op, root, MPI_COMM_WORLD));
                if (MTest_rank == root)
                    verify(out, t, o, n, MTest_size, "Reduce");
                tested++;
            }
            /* Reduce_local: rank 1's input into rank 0's, locally. */
            for (int i = 0; i < 37; i++) {
                put(in, t->kind, i, input(o->op, t->kind, 0, i));
                put(other, t->kind, i, input(o->op, t->kind, 1, i));
            }
            MT_OK(MPI_Reduce_local(other, in, 37, t->t, o->op));
            verify(in, t, o, 37, 2, "Reduce_local");
        }
    }
    if (MTest_rank == 0)
        printf("# %d type/op/count combinations\n", tested);
    free(in);
    free(out);
    free(other);
    return MTest_Finalize();
}
