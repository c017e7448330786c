/*
 * rma_err_range: an access past the end of the target window returns
 * MPI_ERR_RMA_RANGE (MPI_ERRORS_RETURN on the window) and writes nothing,
 * neither in the window nor in the memory right after it. The window is
 * created on the first N ints of a larger buffer, so the guard ints after
 * it are ordinary memory that a missing check would overwrite; windows of
 * disp_unit 4 and 1 (whose units differ), and a size-0 window at some
 * ranks. Put, Get, Accumulate, Get_accumulate, Fetch_and_op and
 * Compare_and_swap, in a lock epoch and in a fence epoch; then a correct
 * put in the same epoch works.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

#define N 16
#define GUARDS 16

static int rank, size;

static int initial(int i)
{
    return -(rank * 1000 + i + 1);
}

static void expect(int rc, const char *what, int unit)
{
    char s[200];
    snprintf(s, sizeof s, "disp_unit %d: %s", unit, what);
    MTest_Check_class_(rc, MPI_ERR_RMA_RANGE, "MPI_ERR_RMA_RANGE", s, __FILE__, __LINE__);
}
#define EXPECT(call) expect(call, #call, unit)
/* Displacement of int i of the target (never negative: that is MPI_ERR_DISP). */
#define AT(i) ((i) < 0 ? 0 : (MPI_Aint)(i) * per)

static void run(int unit, int zero_at_odd)
{
    int *buf = MTest_Malloc(sizeof(int) * (N + GUARDS));
    int right = (rank + 1) % size;
    int n = zero_at_odd && rank % 2 ? 0 : N;          /* ints in my window */
    int rn = zero_at_odd && right % 2 ? 0 : N;        /* ints in right's */
    MPI_Aint per = (MPI_Aint)sizeof(int) / unit;      /* displacement of one int */
    MPI_Win win;
    int v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, x[8], one = 1, old;

    for (int i = 0; i < N + GUARDS; i++)
        buf[i] = initial(i);
    MT_OK(MPI_Win_create(buf, n * (MPI_Aint)sizeof(int), unit, MPI_INFO_NULL, MPI_COMM_WORLD,
                         &win));
    MT_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    EXPECT(MPI_Put(v, 4, MPI_INT, right, AT(rn - 2), 4, MPI_INT, win));
    EXPECT(MPI_Put(v, 1, MPI_INT, right, rn * per, 1, MPI_INT, win));
    EXPECT(MPI_Put(v, 1, MPI_INT, right, 1000000, 1, MPI_INT, win));
    EXPECT(MPI_Get(x, 8, MPI_INT, right, AT(rn - 1), 8, MPI_INT, win));
    EXPECT(MPI_Accumulate(v, 2, MPI_INT, right, AT(rn - 1), 2, MPI_INT, MPI_SUM, win));
    EXPECT(MPI_Get_accumulate(v, 2, MPI_INT, x, 2, MPI_INT, right, AT(rn - 1), 2, MPI_INT,
                              MPI_SUM, win));
    EXPECT(MPI_Fetch_and_op(&one, &old, MPI_INT, right, rn * per, MPI_SUM, win));
    EXPECT(MPI_Compare_and_swap(&one, &old, x, MPI_INT, right, (rn + 3) * per, win));
    if (unit == 1 && rn > 0)   /* the last int's bytes straddle the end */
        EXPECT(MPI_Put(v, 1, MPI_INT, right, rn * per - 2, 1, MPI_INT, win));
    if (rn > 0) {
        MT_OK(MPI_Put(&v[6], 1, MPI_INT, right, AT(rn - 1), 1, MPI_INT, win));
    }
    MT_OK(MPI_Win_unlock(right, win));
    MPI_Barrier(MPI_COMM_WORLD);

    MT_OK(MPI_Win_fence(0, win));
    EXPECT(MPI_Put(v, 3, MPI_INT, right, AT(rn - 1), 3, MPI_INT, win));
    EXPECT(MPI_Accumulate(v, 1, MPI_INT, right, (rn + 5) * per, 1, MPI_INT, MPI_MAX, win));
    MT_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));

    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    for (int i = 0; i < N + GUARDS; i++) {
        int want = (n > 0 && i == n - 1) ? 7 : initial(i);
        if (buf[i] != want) {
            MT_FAIL("disp_unit %d%s: %s int %d is %d, expected %d", unit,
                    zero_at_odd ? ", empty odd ranks" : "", i < n ? "window" : "guard (past the "
                    "window end)", i, buf[i], want);
            break;
        }
    }
    MT_OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_OK(MPI_Win_free(&win));
    free(buf);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    rank = MTest_rank;
    size = MTest_size;
    run(sizeof(int), 0);
    run(1, 0);
    run(sizeof(int), 1);
    MTest_Check_comm_works(MPI_COMM_WORLD, "RMA range errors");
    return MTest_Finalize();
}
