/*
 * rma_large: one-sided transfers far beyond any eager or inline size, on
 * every window flavor: a Put of LEN ints (argument 1, default 1 Mi + 3, an
 * odd size) into the right neighbour in a fence epoch, a Get of it back
 * under a shared lock, an Accumulate (MPI_SUM) of the whole block from
 * every rank, and a strided Put (a vector target type over half the
 * window). The window has guard ints on both sides of the block; their
 * values and the data are checked in full.
 */
#include "rma_common.h"

#include <stdlib.h>

#define G 16            /* guard ints before and after the block */

static int pattern(int origin, long i)
{
    return (int)((origin + 1) * 1000003L + i * 7);
}

static void check_block(const int *buf, long len, int (*want)(int, long), int origin,
                        int owner, int round, const char *what)
{
    for (long i = 0; i < G; i++)
        if (buf[i] != rw_initial(owner, (int)i, round) ||
            buf[G + len + i] != rw_initial(owner, (int)(G + len + i), round)) {
            MT_FAIL("%s: guard int %ld around the block changed", what, i);
            return;
        }
    for (long i = 0; i < len; i++)
        if (buf[G + i] != want(origin, i)) {
            MT_FAIL("%s: int %ld of %ld is %d, expected %d", what, i, len, buf[G + i],
                    want(origin, i));
            return;
        }
}

static int summed_size;
static int summed(int origin, long i)
{
    (void)origin;
    long s = 0;
    for (int r = 0; r < summed_size; r++)
        s += pattern(r, i);
    return (int)s;
}

static void run(int flavor, long len)
{
    struct rw w;
    char what[128];
    /* A window of a multiple of 16 bytes: MPICH 4.0.2's Win_allocate returns
     * a wrong base pointer otherwise (see rma.testlist); the block stays odd. */
    int n = (int)((len + 2 * G + 3) / 4 * 4);

    if (!rw_open(&w, flavor, n, MPI_COMM_WORLD))
        return;
    int right = (w.rank + 1) % w.size, left = (w.rank + w.size - 1) % w.size;
    int *src = MTest_Malloc(sizeof(int) * (size_t)len), *back = MTest_Malloc(sizeof(int) * (size_t)len);
    for (long i = 0; i < len; i++)
        src[i] = pattern(w.rank, i);
    rw_fill(&w, 11);
    MT_OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, w.win));
    MT_OK(MPI_Put(src, (int)len, MPI_INT, right, rw_disp(&w, right, G), (int)len, MPI_INT, w.win));
    MT_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, w.win));
    snprintf(what, sizeof what, "%s, fence put of %ld ints", rw_name(flavor), len);
    check_block(w.buf, len, pattern, left, w.rank, 11, what);

    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w.win));
    MT_OK(MPI_Get(back, (int)len, MPI_INT, right, rw_disp(&w, right, G), (int)len, MPI_INT,
                  w.win));
    MT_OK(MPI_Win_unlock(right, w.win));
    for (long i = 0; i < len; i++)
        if (back[i] != src[i]) {
            MT_FAIL("%s: get back of %ld ints: int %ld is %d, expected %d", rw_name(flavor), len,
                    i, back[i], src[i]);
            break;
        }
    MPI_Barrier(MPI_COMM_WORLD);

    /* Every rank accumulates its whole block into every rank's window. */
    rw_fill(&w, 11);
    MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, w.rank, 0, w.win));
    for (long i = 0; i < len; i++)
        w.buf[G + i] = 0;
    MT_OK(MPI_Win_unlock(w.rank, w.win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_OK(MPI_Win_lock_all(0, w.win));
    for (int t = 0; t < w.size; t++)
        MT_OK(MPI_Accumulate(src, (int)len, MPI_INT, t, rw_disp(&w, t, G), (int)len, MPI_INT,
                             MPI_SUM, w.win));
    MT_OK(MPI_Win_unlock_all(w.win));
    MPI_Barrier(MPI_COMM_WORLD);
    summed_size = w.size;
    int *own = MTest_Malloc(sizeof(int) * (size_t)n);
    rw_read_own(&w, own);
    snprintf(what, sizeof what, "%s, accumulate of %ld ints from every rank", rw_name(flavor),
             len);
    check_block(own, len, summed, 0, w.rank, 11, what);
    MPI_Barrier(MPI_COMM_WORLD);

    /* A strided target: every other int of the block gets src[0..len/2). */
    MPI_Datatype every_other;
    int half = (int)(len / 2);
    MPI_Type_vector(half, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    rw_fill(&w, 11);
    MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, w.win));
    MT_OK(MPI_Put(src, half, MPI_INT, right, rw_disp(&w, right, G), 1, every_other, w.win));
    MT_OK(MPI_Win_unlock(right, w.win));
    MPI_Barrier(MPI_COMM_WORLD);
    rw_read_own(&w, own);
    for (long i = 0; i < n; i++) {
        long k = i - G;
        int want = (k >= 0 && k < 2L * half && k % 2 == 0) ? pattern(left, k / 2) :
                   rw_initial(w.rank, (int)i, 11);
        if (own[i] != want) {
            MT_FAIL("%s: strided put: int %ld is %d, expected %d", rw_name(flavor), i, own[i],
                    want);
            break;
        }
    }
    MPI_Type_free(&every_other);
    MPI_Barrier(MPI_COMM_WORLD);
    free(own);
    free(src);
    free(back);
    rw_close(&w);
}

int main(int argc, char **argv)
{
    long len = 1048576 + 3;

    MTest_Init(&argc, &argv);
    if (argc > 1)
        len = atol(argv[1]);
    for (int f = 0; f < RW_NFLAVORS; f++)
        run(f, len);
    return MTest_Finalize();
}
