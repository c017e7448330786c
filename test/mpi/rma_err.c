/*
 * rma_err: erroneous one-sided calls return the right error class with
 * MPI_ERRORS_RETURN set on the window, write nothing, and the job goes on.
 * In a lock epoch on the right neighbour: a target rank out of range
 * (MPI_ERR_RANK), a negative displacement (MPI_ERR_DISP); a range past the
 * end of the target window is rma_err_range's. Outside any epoch: put,
 * get, accumulate, fetch-and-op, Rput, Rget, flush, unlock and unlock_all
 * without a lock, complete without a start, wait without a post
 * (MPI_ERR_RMA_SYNC). Afterwards
 * every window still holds its initial values, the epoch the errors were
 * made in still works, MPI_PROC_NULL targets are no-ops, and point-to-point
 * communication works. On a Win_create and a Win_allocate window.
 */
#include "rma_common.h"

#define N 16

static void expect(int rc, int cls, const char *clsname, const char *what, const char *flav)
{
    char s[160];
    snprintf(s, sizeof s, "%s: %s", flav, what);
    MTest_Check_class_(rc, cls, clsname, s, __FILE__, __LINE__);
}
#define EXPECT(call, cls) expect(call, cls, #cls, #call, rw_name(w.flavor))

static void check_untouched(struct rw *w, const char *when)
{
    int got[N];
    MPI_Barrier(MPI_COMM_WORLD);
    rw_read_own(w, got);
    for (int i = 0; i < N; i++)
        if (got[i] != rw_initial(w->rank, i, 9)) {
            MT_FAIL("%s: %s: element %d changed to %d (initial %d)", rw_name(w->flavor), when,
                    i, got[i], rw_initial(w->rank, i, 9));
            break;
        }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void run(int flavor)
{
    struct rw w;
    int v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, x[8], size = MTest_size;
    MPI_Request req = MPI_REQUEST_NULL;

    if (!rw_open(&w, flavor, N, MPI_COMM_WORLD))
        return;
    MT_OK(MPI_Win_set_errhandler(w.win, MPI_ERRORS_RETURN));
    int right = (w.rank + 1) % size;
    rw_fill(&w, 9);

    /* Inside a lock epoch. */
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w.win));
    EXPECT(MPI_Put(v, 1, MPI_INT, size, 0, 1, MPI_INT, w.win), MPI_ERR_RANK);
    EXPECT(MPI_Put(v, 1, MPI_INT, size + 3, 0, 1, MPI_INT, w.win), MPI_ERR_RANK);
    EXPECT(MPI_Get(x, 1, MPI_INT, -5, 0, 1, MPI_INT, w.win), MPI_ERR_RANK);
    EXPECT(MPI_Accumulate(v, 1, MPI_INT, size, 0, 1, MPI_INT, MPI_SUM, w.win), MPI_ERR_RANK);
    EXPECT(MPI_Put(v, 1, MPI_INT, right, -1, 1, MPI_INT, w.win), MPI_ERR_DISP);
    EXPECT(MPI_Get(x, 2, MPI_INT, right, -3, 2, MPI_INT, w.win), MPI_ERR_DISP);
    EXPECT(MPI_Accumulate(v, 1, MPI_INT, right, -1, 1, MPI_INT, MPI_SUM, w.win), MPI_ERR_DISP);
    /* The epoch is still usable: MPI_PROC_NULL is a no-op, a get in range works. */
    MT_OK(MPI_Put(v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, w.win));
    x[0] = 0;
    MT_OK(MPI_Get(x, 1, MPI_INT, right, N - 1, 1, MPI_INT, w.win));
    MT_OK(MPI_Win_unlock(right, w.win));
    MT_CHECK(x[0] == rw_initial(right, N - 1, 9), "%s: get of the last element after the errors: "
             "%d, expected %d", rw_name(flavor), x[0], rw_initial(right, N - 1, 9));
    check_untouched(&w, "after errors in a lock epoch");

    /* Outside any epoch. */
    EXPECT(MPI_Put(v, 1, MPI_INT, right, 0, 1, MPI_INT, w.win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Get(x, 1, MPI_INT, right, 0, 1, MPI_INT, w.win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Accumulate(v, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_SUM, w.win),
           MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Fetch_and_op(v, x, MPI_INT, right, 0, MPI_SUM, w.win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_unlock(right, w.win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_unlock_all(w.win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_flush(right, w.win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_complete(w.win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_wait(w.win), MPI_ERR_RMA_SYNC);
    check_untouched(&w, "after operations outside an epoch");

    /* Request-based operations too. */
    EXPECT(MPI_Rput(v, 1, MPI_INT, right, 0, 1, MPI_INT, w.win, &req), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Rget(x, 1, MPI_INT, right, 0, 1, MPI_INT, w.win, &req), MPI_ERR_RMA_SYNC);
    check_untouched(&w, "after request-based operations outside an epoch");

    /* Still works: a put to the right neighbour, then a ring exchange. */
    MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, w.win));
    MT_OK(MPI_Put(&v[5], 1, MPI_INT, right, rw_disp(&w, right, 4), 1, MPI_INT, w.win));
    MT_OK(MPI_Win_unlock(right, w.win));
    MPI_Barrier(MPI_COMM_WORLD);
    int got[N];
    rw_read_own(&w, got);
    MT_CHECK(got[4] == 6, "%s: a put after the errors: element 4 is %d, expected 6",
             rw_name(flavor), got[4]);
    MTest_Check_comm_works(MPI_COMM_WORLD, "RMA errors");
    MPI_Barrier(MPI_COMM_WORLD);
    rw_close(&w);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    run(RW_CREATE);
    run(RW_ALLOCATE);
    return MTest_Finalize();
}
