/*
 * rma_zero: windows of size 0. First every rank contributes 0 bytes
 * (Win_create with a NULL base, Win_allocate, Win_allocate_shared): the
 * window works for every synchronization mode with operations of count 0,
 * and MPI_WIN_SIZE says 0. Then even ranks contribute 0 bytes and odd ranks
 * 16 ints: puts, gets and accumulates to the odd ranks are correct, count-0
 * operations to the even ranks are allowed, in fence, lock and lock_all
 * epochs. A rank of a dynamic window with nothing attached takes part in
 * the epochs too.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

static int rank, size;

static void check_size(MPI_Win win, MPI_Aint want, const char *what)
{
    MPI_Aint *sz;
    int flag = 0;
    MT_OK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &flag));
    MT_CHECK(flag && *sz == want, "%s: MPI_WIN_SIZE is %ld (flag %d), expected %ld", what,
             flag ? (long)*sz : -1L, flag, (long)want);
}

/* Every epoch kind on win with count-0 operations to every rank. */
static void empty_epochs(MPI_Win win, const char *what)
{
    int x = 5, y = 6;
    MT_OK(MPI_Win_fence(0, win));
    for (int t = 0; t < size; t++) {
        MT_OK(MPI_Put(&x, 0, MPI_INT, t, 0, 0, MPI_INT, win));
        MT_OK(MPI_Get(&y, 0, MPI_INT, t, 0, 0, MPI_INT, win));
        MT_OK(MPI_Accumulate(&x, 0, MPI_INT, t, 0, 0, MPI_INT, MPI_SUM, win));
    }
    MT_OK(MPI_Win_fence(0, win));
    for (int t = 0; t < size; t++) {
        MT_OK(MPI_Win_lock(t % 2 ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, t, 0, win));
        MT_OK(MPI_Put(&x, 0, MPI_INT, t, 0, 0, MPI_INT, win));
        MT_OK(MPI_Win_unlock(t, win));
    }
    MT_OK(MPI_Win_lock_all(0, win));
    MT_OK(MPI_Win_flush_all(win));
    MT_OK(MPI_Win_unlock_all(win));
    MT_CHECK(x == 5 && y == 6, "%s: count-0 operations changed the buffers (%d, %d)", what, x, y);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void all_zero(void)
{
    MPI_Win win;
    void *base;

    MT_OK(MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    check_size(win, 0, "Win_create of 0 bytes");
    empty_epochs(win, "Win_create of 0 bytes");
    MT_OK(MPI_Win_free(&win));

    MT_OK(MPI_Win_allocate(0, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    check_size(win, 0, "Win_allocate of 0 bytes");
    empty_epochs(win, "Win_allocate of 0 bytes");
    MT_OK(MPI_Win_free(&win));

    MPI_Comm node;
    int nsize;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &nsize);
    MT_OK(MPI_Win_allocate_shared(0, 4, MPI_INFO_NULL, node, &base, &win));
    check_size(win, 0, "Win_allocate_shared of 0 bytes");
    MT_OK(MPI_Win_fence(0, win));
    MT_OK(MPI_Win_fence(0, win));
    MT_OK(MPI_Win_free(&win));
    MPI_Comm_free(&node);

    MT_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    check_size(win, 0, "Win_create_dynamic");
    MT_OK(MPI_Win_fence(0, win));
    MT_OK(MPI_Win_fence(0, win));
    MT_OK(MPI_Win_free(&win));
}

/* Even ranks 0 bytes, odd ranks 16 ints. */
static void some_zero(int allocate)
{
    MPI_Win win;
    int *buf = NULL, n = rank % 2 ? 16 : 0;
    const char *what = allocate ? "Win_allocate, even ranks empty" :
                                  "Win_create, even ranks empty";

    if (allocate) {
        MT_OK(MPI_Win_allocate(n * (MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &buf, &win));
    } else {
        buf = n ? MTest_Malloc(sizeof(int) * 16) : NULL;
        MT_OK(MPI_Win_create(buf, n * (MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));
    }
    check_size(win, n * (MPI_Aint)sizeof(int), what);
    if (n) {
        MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
        for (int i = 0; i < n; i++)
            buf[i] = -i;
        MT_OK(MPI_Win_unlock(rank, win));
    }
    empty_epochs(win, what);

    /* Fence: each rank puts its rank into element rank % 16 of every odd
     * rank (ranks below 16 only) and adds 1 to element 15 of every odd rank. */
    int one = 1;
    MT_OK(MPI_Win_fence(0, win));
    for (int t = 1; t < size; t += 2) {
        if (rank < 15)
            MT_OK(MPI_Put(&rank, 1, MPI_INT, t, rank, 1, MPI_INT, win));
        MT_OK(MPI_Accumulate(&one, 1, MPI_INT, t, 15, 1, MPI_INT, MPI_SUM, win));
    }
    MT_OK(MPI_Win_fence(0, win));
    if (n) {
        for (int i = 0; i < 15; i++) {
            int want = i < size ? i : -i;
            MT_CHECK(buf[i] == want, "%s: element %d is %d, expected %d", what, i, buf[i], want);
        }
        MT_CHECK(buf[15] == -15 + size, "%s: element 15 is %d, expected %d", what, buf[15],
                 -15 + size);
    }
    /* Lock_all: get element 0 of every odd rank. */
    MT_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    MT_OK(MPI_Win_lock_all(0, win));
    for (int t = 1; t < size; t += 2) {
        int v = -99;
        MT_OK(MPI_Get(&v, 1, MPI_INT, t, 0, 1, MPI_INT, win));
        MT_OK(MPI_Win_flush(t, win));
        MT_CHECK(v == 0, "%s: get of element 0 at rank %d: %d, expected 0", what, t, v);
    }
    MT_OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_OK(MPI_Win_free(&win));
    if (!allocate)
        free(buf);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    rank = MTest_rank;
    size = MTest_size;
    all_zero();
    some_zero(0);
    some_zero(1);
    return MTest_Finalize();
}
