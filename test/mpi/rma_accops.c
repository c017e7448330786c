/*
 * rma_accops: MPI_Accumulate with every predefined operation, on the types
 * it applies to, from every rank into every rank's window (lock_all). The
 * result must be the operation folded over the initial value and all
 * ranks' contributions (every predefined op is commutative, and the values
 * are exact in floating point). MPI_REPLACE: each rank replaces its own
 * element. MINLOC/MAXLOC on MPI_2INT, MPI_DOUBLE_INT, MPI_LONG_INT,
 * MPI_SHORT_INT and MPI_FLOAT_INT with ties (the lower index wins). Guard
 * bytes before and after the target range must not change.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

#define K 8             /* elements per case */
#define OFF 16          /* byte offset of the range in the window */
#define WBYTES 256
#define GUARD 0xa5

static int rank, size;
static MPI_Win win;
static unsigned char *wbuf;

static const char *opname(MPI_Op op)
{
    if (op == MPI_SUM) return "MPI_SUM";
    if (op == MPI_PROD) return "MPI_PROD";
    if (op == MPI_MAX) return "MPI_MAX";
    if (op == MPI_MIN) return "MPI_MIN";
    if (op == MPI_LAND) return "MPI_LAND";
    if (op == MPI_LOR) return "MPI_LOR";
    if (op == MPI_LXOR) return "MPI_LXOR";
    if (op == MPI_BAND) return "MPI_BAND";
    if (op == MPI_BOR) return "MPI_BOR";
    if (op == MPI_BXOR) return "MPI_BXOR";
    if (op == MPI_MINLOC) return "MPI_MINLOC";
    if (op == MPI_MAXLOC) return "MPI_MAXLOC";
    if (op == MPI_REPLACE) return "MPI_REPLACE";
    return "?";
}

/* Value r contributes at element i (r = -1: the initial value). */
static long long gen(MPI_Op op, int r, int i)
{
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
        return r < 0 ? i % 2 : (r + i) % 3 != 0;
    if (op == MPI_PROD)
        return r < 0 ? 1 + i % 3 : 1 + (r + i) % 2;
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
        return r < 0 ? 0x3c + i : (0x5a ^ (r * 37 + i * 11)) & 0x7f;
    return r < 0 ? 7 - i : (r * 13 + i * 5) % 50 - 20;
}

#define APPLY(op, a, b) \
    ((op) == MPI_SUM ? (a) + (b) : (op) == MPI_PROD ? (a) * (b) : \
     (op) == MPI_MAX ? ((a) > (b) ? (a) : (b)) : (op) == MPI_MIN ? ((a) < (b) ? (a) : (b)) : \
     (op) == MPI_REPLACE ? (b) : 0)
#define APPLY_INT(op, a, b) \
    ((op) == MPI_LAND ? ((a) && (b)) : (op) == MPI_LOR ? ((a) || (b)) : \
     (op) == MPI_LXOR ? (!(a) != !(b)) : (op) == MPI_BAND ? ((a) & (b)) : \
     (op) == MPI_BOR ? ((a) | (b)) : (op) == MPI_BXOR ? ((a) ^ (b)) : APPLY(op, a, b))

/* Sets the window to guard bytes with the initial values of a case at OFF. */
static void init_window(const void *init, size_t bytes)
{
    MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    memset(wbuf, GUARD, WBYTES);
    memcpy(wbuf + OFF, init, bytes);
    MT_OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Accumulates contrib (count elements of type) into every rank at OFF,
 * then copies this rank's result to out and checks the guards. */
static void accumulate_all(const void *contrib, int count, MPI_Datatype type, size_t bytes,
                           MPI_Op op, void *out, const char *tname)
{
    MT_OK(MPI_Win_lock_all(0, win));
    for (int t = 0; t < size; t++)
        MT_OK(MPI_Accumulate(contrib, count, type, t, OFF, count, type, op, win));
    MT_OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    memcpy(out, wbuf + OFF, bytes);
    for (size_t b = 0; b < WBYTES; b++)
        if ((b < OFF || b >= OFF + bytes) && wbuf[b] != GUARD) {
            MT_FAIL("%s on %s: byte %zu outside the target range changed to 0x%02x",
                    opname(op), tname, b, wbuf[b]);
            break;
        }
    MT_OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
}

#define DEFINE_CASE(NAME, T, FMT, APPLYM) \
static void NAME(MPI_Op op, MPI_Datatype type, const char *tname) \
{ \
    T init[K], mine[K], got[K]; \
    for (int i = 0; i < K; i++) { \
        init[i] = (T)gen(op, -1, i); \
        mine[i] = (T)gen(op, rank, i); \
    } \
    init_window(init, sizeof init); \
    accumulate_all(mine, K, type, sizeof mine, op, got, tname); \
    for (int i = 0; i < K; i++) { \
        T want = init[i]; \
        for (int r = 0; r < size; r++) \
            want = (T)APPLYM(op, want, (T)gen(op, r, i)); \
        if (got[i] != want) { \
            MT_FAIL("%s on %s: element %d is " FMT ", expected " FMT, opname(op), tname, i, \
                    got[i], want); \
            break; \
        } \
    } \
}

DEFINE_CASE(case_int, int, "%d", APPLY_INT)
DEFINE_CASE(case_long, long, "%ld", APPLY_INT)
DEFINE_CASE(case_llong, long long, "%lld", APPLY_INT)
DEFINE_CASE(case_short, short, "%hd", APPLY_INT)
DEFINE_CASE(case_uint, unsigned, "%u", APPLY_INT)
DEFINE_CASE(case_uchar, unsigned char, "%u", APPLY_INT)
DEFINE_CASE(case_u64, unsigned long long, "%llu", APPLY_INT)
DEFINE_CASE(case_double, double, "%g", APPLY)
DEFINE_CASE(case_float, float, "%g", APPLY)

/* MINLOC/MAXLOC on a pair type: value (r * 3 + i) % 4 gives ties, the
 * index is the rank; the initial pair (2, 99) ties too. */
#define DEFINE_PAIR(NAME, T, FMT) \
static void NAME(MPI_Op op, MPI_Datatype type, const char *tname) \
{ \
    struct { T v; int loc; } init[K], mine[K], got[K]; \
    memset(init, 0, sizeof init); \
    memset(mine, 0, sizeof mine); \
    for (int i = 0; i < K; i++) { \
        init[i].v = 2; \
        init[i].loc = 99; \
        mine[i].v = (T)((rank * 3 + i) % 4); \
        mine[i].loc = rank; \
    } \
    init_window(init, sizeof init); \
    accumulate_all(mine, K, type, sizeof mine, op, got, tname); \
    for (int i = 0; i < K; i++) { \
        T wv = 2; \
        int wl = 99; \
        for (int r = 0; r < size; r++) { \
            T v = (T)((r * 3 + i) % 4); \
            int better = op == MPI_MINLOC ? v < wv : v > wv; \
            if (better || (v == wv && r < wl)) { \
                wv = v; \
                wl = r; \
            } \
        } \
        if (got[i].v != wv || got[i].loc != wl) { \
            MT_FAIL("%s on %s: element %d is (" FMT ", %d), expected (" FMT ", %d)", \
                    opname(op), tname, i, got[i].v, got[i].loc, wv, wl); \
            break; \
        } \
    } \
}

DEFINE_PAIR(pair_int, int, "%d")
DEFINE_PAIR(pair_double, double, "%g")
DEFINE_PAIR(pair_long, long, "%ld")
DEFINE_PAIR(pair_short, short, "%hd")
DEFINE_PAIR(pair_float, float, "%g")

/* MPI_REPLACE: rank r replaces element r only (K ints, r < K). */
static void replace(void)
{
    int init[K], got[K], v = 4000 + rank;
    for (int i = 0; i < K; i++)
        init[i] = -i;
    init_window(init, sizeof init);
    MT_OK(MPI_Win_lock_all(0, win));
    if (rank < K)
        for (int t = 0; t < size; t++)
            MT_OK(MPI_Accumulate(&v, 1, MPI_INT, t, OFF + rank * (int)sizeof(int), 1, MPI_INT,
                                 MPI_REPLACE, win));
    MT_OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    memcpy(got, wbuf + OFF, sizeof got);
    MT_OK(MPI_Win_unlock(rank, win));
    for (int i = 0; i < K; i++) {
        int want = i < size ? 4000 + i : -i;
        MT_CHECK(got[i] == want, "MPI_REPLACE: element %d is %d, expected %d", i, got[i], want);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    rank = MTest_rank;
    size = MTest_size;
    MT_OK(MPI_Win_allocate(WBYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &wbuf, &win));

    MPI_Op arith[] = { MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN };
    MPI_Op logic[] = { MPI_LAND, MPI_LOR, MPI_LXOR };
    MPI_Op bits[] = { MPI_BAND, MPI_BOR, MPI_BXOR };
    for (int o = 0; o < 4; o++) {
        MPI_Op op = arith[o];
        case_int(op, MPI_INT, "MPI_INT");
        case_long(op, MPI_LONG, "MPI_LONG");
        case_llong(op, MPI_LONG_LONG, "MPI_LONG_LONG");
        case_short(op, MPI_SHORT, "MPI_SHORT");
        case_double(op, MPI_DOUBLE, "MPI_DOUBLE");
        case_float(op, MPI_FLOAT, "MPI_FLOAT");
        if (op != MPI_SUM && op != MPI_PROD)
            continue;   /* negative values: unsigned only for sums and products */
        case_uint(op, MPI_UNSIGNED, "MPI_UNSIGNED");
        case_u64(op, MPI_UINT64_T, "MPI_UINT64_T");
    }
    for (int o = 0; o < 3; o++) {
        case_int(logic[o], MPI_INT, "MPI_INT");
        case_long(logic[o], MPI_LONG, "MPI_LONG");
        case_uchar(logic[o], MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR");
    }
    for (int o = 0; o < 3; o++) {
        case_int(bits[o], MPI_INT, "MPI_INT");
        case_uint(bits[o], MPI_UNSIGNED, "MPI_UNSIGNED");
        case_uchar(bits[o], MPI_BYTE, "MPI_BYTE");
        case_u64(bits[o], MPI_UINT64_T, "MPI_UINT64_T");
    }
    MPI_Op locs[] = { MPI_MINLOC, MPI_MAXLOC };
    for (int o = 0; o < 2; o++) {
        pair_int(locs[o], MPI_2INT, "MPI_2INT");
        pair_double(locs[o], MPI_DOUBLE_INT, "MPI_DOUBLE_INT");
        pair_long(locs[o], MPI_LONG_INT, "MPI_LONG_INT");
        pair_short(locs[o], MPI_SHORT_INT, "MPI_SHORT_INT");
        pair_float(locs[o], MPI_FLOAT_INT, "MPI_FLOAT_INT");
    }
    replace();
    MT_OK(MPI_Win_free(&win));
    return MTest_Finalize();
}
