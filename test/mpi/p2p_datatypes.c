/*
 * p2p_datatypes: every predefined C datatype in a send/receive around the
 * ring (to self at np 1): values survive, Get_count equals the count sent,
 * and for the non-pair types Get_elements equals it too. Get_elements on the
 * pair types (MPI_DOUBLE_INT ...) is p2p_pair_elements: MPICH 4.0.2 crashes
 * there.
 */
#include "mtest.h"

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define N 257

static int right, left;
static void *sbuf, *rbuf;

static int value(int i, int rank)
{
    return (i * 5 + rank * 3 + 1) % 101;
}

static void xfer(MPI_Datatype t, size_t extent, const char *name, int elems_per)
{
    MPI_Status st;
    int count = -1, elems = -1;

    memset(rbuf, 0, N * extent);
    MT_OK(MPI_Sendrecv(sbuf, N, t, right, 3, rbuf, N, t, left, 3, MPI_COMM_WORLD, &st));
    MT_OK(MPI_Get_count(&st, t, &count));
    MT_CHECK(count == N, "%s: Get_count %d, expected %d", name, count, N);
    if (elems_per == 1) {
        MT_OK(MPI_Get_elements(&st, t, &elems));
        MT_CHECK(elems == N, "%s: Get_elements %d, expected %d", name, elems, N);
    }
}

/* Scalars: fill with value(i, me), expect value(i, left). */
#define SCALAR(T, MT, CONV)                                                      \
    do {                                                                         \
        T *s_ = sbuf, *r_ = rbuf;                                                \
        for (int i = 0; i < N; i++)                                              \
            s_[i] = (T)CONV(value(i, MTest_rank));                               \
        xfer(MT, sizeof(T), #MT, 1);                                             \
        for (int i = 0; i < N; i++) {                                            \
            if (r_[i] != (T)CONV(value(i, left))) {                              \
                MT_FAIL("%s: element %d wrong", #MT, i);                         \
                break;                                                           \
            }                                                                    \
        }                                                                        \
    } while (0)

#define ID(x) (x)
#define BOOL(x) ((x) % 2)
#define CPLX(x) ((x) + 2.0 * I * (x))

/* Pairs {value; int index}. */
#define PAIR(VT, MT)                                                             \
    do {                                                                         \
        struct { VT v; int i; } *s_ = sbuf, *r_ = rbuf;                          \
        for (int i = 0; i < N; i++) {                                            \
            s_[i].v = (VT)value(i, MTest_rank);                                  \
            s_[i].i = i + MTest_rank;                                            \
        }                                                                        \
        xfer(MT, sizeof *s_, #MT, 2);                                            \
        for (int i = 0; i < N; i++) {                                            \
            if (r_[i].v != (VT)value(i, left) || r_[i].i != i + left) {          \
                MT_FAIL("%s: element %d wrong", #MT, i);                         \
                break;                                                           \
            }                                                                    \
        }                                                                        \
    } while (0)

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    right = (MTest_rank + 1) % MTest_size;
    left = (MTest_rank + MTest_size - 1) % MTest_size;
    sbuf = MTest_Malloc(N * 64);
    rbuf = MTest_Malloc(N * 64);

    SCALAR(char, MPI_CHAR, ID);
    SCALAR(signed char, MPI_SIGNED_CHAR, ID);
    SCALAR(unsigned char, MPI_UNSIGNED_CHAR, ID);
    SCALAR(unsigned char, MPI_BYTE, ID);
    SCALAR(wchar_t, MPI_WCHAR, ID);
    SCALAR(short, MPI_SHORT, ID);
    SCALAR(unsigned short, MPI_UNSIGNED_SHORT, ID);
    SCALAR(int, MPI_INT, ID);
    SCALAR(unsigned, MPI_UNSIGNED, ID);
    SCALAR(long, MPI_LONG, ID);
    SCALAR(unsigned long, MPI_UNSIGNED_LONG, ID);
    SCALAR(long long, MPI_LONG_LONG, ID);
    SCALAR(long long, MPI_LONG_LONG_INT, ID);
    SCALAR(unsigned long long, MPI_UNSIGNED_LONG_LONG, ID);
    SCALAR(float, MPI_FLOAT, ID);
    SCALAR(double, MPI_DOUBLE, ID);
    SCALAR(long double, MPI_LONG_DOUBLE, ID);
    SCALAR(bool, MPI_C_BOOL, BOOL);
    SCALAR(int8_t, MPI_INT8_T, ID);
    SCALAR(int16_t, MPI_INT16_T, ID);
    SCALAR(int32_t, MPI_INT32_T, ID);
    SCALAR(int64_t, MPI_INT64_T, ID);
    SCALAR(uint8_t, MPI_UINT8_T, ID);
    SCALAR(uint16_t, MPI_UINT16_T, ID);
    SCALAR(uint32_t, MPI_UINT32_T, ID);
    SCALAR(uint64_t, MPI_UINT64_T, ID);
    SCALAR(float _Complex, MPI_C_COMPLEX, CPLX);
    SCALAR(float _Complex, MPI_C_FLOAT_COMPLEX, CPLX);
    SCALAR(double _Complex, MPI_C_DOUBLE_COMPLEX, CPLX);
    SCALAR(long double _Complex, MPI_C_LONG_DOUBLE_COMPLEX, CPLX);
    SCALAR(MPI_Aint, MPI_AINT, ID);
    SCALAR(MPI_Offset, MPI_OFFSET, ID);
    SCALAR(MPI_Count, MPI_COUNT, ID);

    PAIR(float, MPI_FLOAT_INT);
    PAIR(double, MPI_DOUBLE_INT);
    PAIR(long, MPI_LONG_INT);
    PAIR(int, MPI_2INT);
    PAIR(short, MPI_SHORT_INT);
    PAIR(long double, MPI_LONG_DOUBLE_INT);

    free(sbuf);
    free(rbuf);
    return MTest_Finalize();
}
