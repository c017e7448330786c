/*
 * rma_sizes: contiguous Put and Get on an MPI_Win_create window (ordinary
 * user memory) at every size around the limits a one-sided transfer to a
 * node peer is cut at: the eager message size (4 KiB by default), the
 * bulk record size (16 KiB: an eighth of the 128 KiB ring), the ring
 * itself, and far beyond it (1 MiB + 3); each one byte under, at and one
 * byte over, at a byte offset that is not aligned. Each rank puts to its
 * right neighbour and gets from its left one, with lock_all + flush, with
 * fence and with request-based Rput/Rget; the bytes around each block are
 * guards that must not change, and every byte is checked. A Get into a
 * strided origin datatype checks the unpacking of each answer at its
 * offset. Last, rank 0 puts 1 MiB + 3 into rank 1 while rank 1 computes
 * outside MPI for 0.3 s. Takes any number of ranks; every transport.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

#define GUARD 64        /* guard bytes on each side of a block */
#define OFF 3           /* the block's byte offset after the guard */

static const size_t limits[] = { 4096, 16384, 131072, 1048576 };

static unsigned seed_of(int origin, size_t len, int round)
{
    return (unsigned)(origin * 131 + len * 7 + (size_t)round * 17 + 1);
}

/* The window of a rank: guard bytes of value 0x5a, then the block. */
static void reset(unsigned char *win, size_t winlen)
{
    memset(win, 0x5a, winlen);
}

static void check_guards(const unsigned char *win, size_t len, size_t winlen, const char *what)
{
    for (size_t i = 0; i < GUARD + OFF; i++)
        if (win[i] != 0x5a) {
            MT_FAIL("%s: guard byte %zu before the block changed", what, i);
            return;
        }
    for (size_t i = GUARD + OFF + len; i < winlen; i++)
        if (win[i] != 0x5a) {
            MT_FAIL("%s: guard byte %zu after the block changed", what, i - (GUARD + OFF + len));
            return;
        }
}

/* One size: put to the right, then get from the left, by each mode. */
static void one_size(MPI_Win win, unsigned char *wbuf, size_t winlen, unsigned char *src,
                     unsigned char *dst, size_t len, int rank, int size)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    char what[160];
    for (int mode = 0; mode < 3; mode++) {
        const char *mname = mode == 0 ? "lock_all+flush" : mode == 1 ? "fence" : "Rput/Rget";
        int round = mode;
        /* Put. */
        MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
        reset(wbuf, winlen);
        MT_OK(MPI_Win_unlock(rank, win));
        MTest_Fill(src, len, seed_of(rank, len, round));
        MPI_Barrier(MPI_COMM_WORLD);
        if (mode == 1) {
            MT_OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
            MT_OK(MPI_Put(src, (int)len, MPI_BYTE, right, GUARD + OFF, (int)len, MPI_BYTE, win));
            MT_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
        } else {
            MT_OK(MPI_Win_lock_all(0, win));
            if (mode == 0) {
                MT_OK(MPI_Put(src, (int)len, MPI_BYTE, right, GUARD + OFF, (int)len, MPI_BYTE,
                              win));
                MT_OK(MPI_Win_flush(right, win));
            } else {
                MPI_Request r;
                MT_OK(MPI_Rput(src, (int)len, MPI_BYTE, right, GUARD + OFF, (int)len, MPI_BYTE,
                               win, &r));
                MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
                MT_OK(MPI_Win_flush(right, win));
            }
            MT_OK(MPI_Win_unlock_all(win));
        }
        MPI_Barrier(MPI_COMM_WORLD);
        MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
        snprintf(what, sizeof what, "%s, put of %zu bytes from rank %d", mname, len, left);
        MTest_Verify(wbuf + GUARD + OFF, len, seed_of(left, len, round), what);
        check_guards(wbuf, len, winlen, what);
        /* Get: this rank's window holds what the left rank put; each rank
         * reads its left neighbour's window, which holds its own left's. */
        MT_OK(MPI_Win_unlock(rank, win));
        MPI_Barrier(MPI_COMM_WORLD);
        memset(dst, 0xa5, len + 2 * GUARD);
        if (mode == 1) {
            MT_OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
            MT_OK(MPI_Get(dst + GUARD, (int)len, MPI_BYTE, left, GUARD + OFF, (int)len, MPI_BYTE,
                          win));
            MT_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
        } else {
            MT_OK(MPI_Win_lock_all(0, win));
            if (mode == 0) {
                MT_OK(MPI_Get(dst + GUARD, (int)len, MPI_BYTE, left, GUARD + OFF, (int)len,
                              MPI_BYTE, win));
                MT_OK(MPI_Win_flush(left, win));
            } else {
                MPI_Request r;
                MT_OK(MPI_Rget(dst + GUARD, (int)len, MPI_BYTE, left, GUARD + OFF, (int)len,
                               MPI_BYTE, win, &r));
                MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
            }
            MT_OK(MPI_Win_unlock_all(win));
        }
        int lleft = (left + size - 1) % size;
        snprintf(what, sizeof what, "%s, get of %zu bytes from rank %d", mname, len, left);
        MTest_Verify(dst + GUARD, len, seed_of(lleft, len, round), what);
        for (size_t i = 0; i < GUARD; i++)
            if (dst[i] != 0xa5 || dst[GUARD + len + i] != 0xa5) {
                MT_FAIL("%s: the get wrote outside its buffer", what);
                break;
            }
        MPI_Barrier(MPI_COMM_WORLD);
    }
}

/* A Get of len bytes into every other byte of the origin buffer: the
 * answers land at their offsets through the origin datatype. */
static void strided_get(MPI_Win win, unsigned char *wbuf, size_t winlen, unsigned char *dst,
                        size_t len, int rank, int size)
{
    int left = (rank + size - 1) % size;
    MPI_Datatype every_other;
    MPI_Type_vector((int)len, 1, 2, MPI_BYTE, &every_other);
    MPI_Type_commit(&every_other);
    MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    reset(wbuf, winlen);
    MTest_Fill(wbuf + GUARD + OFF, len, seed_of(rank, len, 9));
    MT_OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
    memset(dst, 0xa5, 2 * len);
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, left, 0, win));
    MT_OK(MPI_Get(dst, 1, every_other, left, GUARD + OFF, (int)len, MPI_BYTE, win));
    MT_OK(MPI_Win_unlock(left, win));
    unsigned char *packed = MTest_Malloc(len);
    for (size_t i = 0; i < len; i++) {
        packed[i] = dst[2 * i];
        if (i + 1 < len && dst[2 * i + 1] != 0xa5) {
            MT_FAIL("strided get of %zu bytes: gap byte %zu was written", len, 2 * i + 1);
            break;
        }
    }
    char what[96];
    snprintf(what, sizeof what, "strided get of %zu bytes from rank %d", len, left);
    MTest_Verify(packed, len, seed_of(left, len, 9), what);
    free(packed);
    MPI_Type_free(&every_other);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Spins for ms milliseconds without calling MPI. */
static void busy(double ms)
{
    double t0 = MPI_Wtime();
    volatile unsigned long x = 0;
    while ((MPI_Wtime() - t0) * 1e3 < ms)
        x++;
}

/* Rank 0 puts len bytes into rank 1 while rank 1 computes outside MPI:
 * more than the rings between them hold, so the rest has to go without
 * rank 1's help (rdmpi: by CMA, counted as one-sided RDMA puts). */
static void busy_target(MPI_Win win, unsigned char *wbuf, size_t winlen, unsigned char *src,
                        size_t len, int rank)
{
    MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    reset(wbuf, winlen);
    MT_OK(MPI_Win_unlock(rank, win));
    MTest_Fill(src, len, seed_of(rank, len, 7));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        busy(300);
    } else if (rank == 0) {
        MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
        MT_OK(MPI_Put(src, (int)len, MPI_BYTE, 1, GUARD + OFF, (int)len, MPI_BYTE, win));
        MT_OK(MPI_Win_unlock(1, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        char what[96];
        MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
        snprintf(what, sizeof what, "put of %zu bytes to a busy target", len);
        MTest_Verify(wbuf + GUARD + OFF, len, seed_of(0, len, 7), what);
        check_guards(wbuf, len, winlen, what);
        MT_OK(MPI_Win_unlock(rank, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank = MTest_rank, size = MTest_size;
    size_t maxlen = limits[sizeof(limits) / sizeof(limits[0]) - 1] + 3;
    size_t winlen = maxlen + 2 * GUARD + OFF;
    unsigned char *wbuf = MTest_Malloc(winlen);
    unsigned char *src = MTest_Malloc(maxlen);
    unsigned char *dst = MTest_Malloc(2 * maxlen + 2 * GUARD);
    reset(wbuf, winlen);
    MPI_Win win;
    MT_OK(MPI_Win_create(wbuf, (MPI_Aint)winlen, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    for (size_t k = 0; k < sizeof(limits) / sizeof(limits[0]); k++)
        for (size_t len = limits[k] - 1; len <= limits[k] + (k + 1 == sizeof(limits) /
                                                                sizeof(limits[0]) ? 3 : 1);
             len++)
            one_size(win, wbuf, winlen, src, dst, len, rank, size);
    strided_get(win, wbuf, winlen, dst, 16384 + 1, rank, size);
    strided_get(win, wbuf, winlen, dst, 131072 + 5, rank, size);
    if (size > 1)
        busy_target(win, wbuf, winlen, src, maxlen, rank);
    MT_OK(MPI_Win_free(&win));
    free(wbuf);
    free(src);
    free(dst);
    return MTest_Finalize();
}
