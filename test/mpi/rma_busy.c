/*
 * rma_busy: passive-target operations to a target that computes for one
 * second without calling MPI. Rank 0 leaves a barrier and spins on the
 * clock; meanwhile every other rank takes exclusive and shared locks on
 * it, puts a block, gets it back and reads initial data, accumulates into
 * a shared counter and does a fetch-and-op, then unlocks. The results must
 * be exact. When the operations completed (during the busy second or only
 * after it) is printed as a note, never asserted. On a Win_create and a
 * Win_allocate window. Needs 2 ranks.
 */
#include "rma_common.h"

#include <time.h>

#define SLOT 8
#define CTR 0           /* counter word at rank 0 */
#define FAO 1           /* fetch-and-op word at rank 0 */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One second of arithmetic, no MPI call. */
static double compute(double seconds)
{
    volatile double x = 1.0;
    double t0 = now();
    while (now() - t0 < seconds)
        for (int i = 0; i < 1000; i++)
            x = x * 1.0000001 + 1e-9;
    return x;
}

static void run(int flavor)
{
    struct rw w;
    int n = SLOT * (MTest_size + 1);

    if (!rw_open(&w, flavor, n, MPI_COMM_WORLD))
        return;
    rw_fill(&w, 10);
    if (w.rank == 0) {
        MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w.win));
        w.buf[CTR] = 0;
        w.buf[FAO] = 0;
        MT_OK(MPI_Win_unlock(0, w.win));
    }
    MPI_Barrier(MPI_COMM_WORLD);

    double elapsed = 0;
    if (w.rank == 0) {
        compute(1.0);
    } else {
        int src[SLOT], back[SLOT], init[SLOT], add = w.rank, fetched = -1, one = 1;
        int lo = SLOT * w.rank;
        double t0 = now();
        for (int i = 0; i < SLOT; i++)
            src[i] = 300 * w.rank + i;
        MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w.win));
        MT_OK(MPI_Put(src, SLOT, MPI_INT, 0, rw_disp(&w, 0, lo), SLOT, MPI_INT, w.win));
        MT_OK(MPI_Get(init, 4, MPI_INT, 0, rw_disp(&w, 0, 2), 4, MPI_INT, w.win));
        MT_OK(MPI_Win_unlock(0, w.win));
        MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w.win));
        MT_OK(MPI_Get(back, SLOT, MPI_INT, 0, rw_disp(&w, 0, lo), SLOT, MPI_INT, w.win));
        MT_OK(MPI_Accumulate(&add, 1, MPI_INT, 0, rw_disp(&w, 0, CTR), 1, MPI_INT, MPI_SUM,
                             w.win));
        MT_OK(MPI_Fetch_and_op(&one, &fetched, MPI_INT, 0, rw_disp(&w, 0, FAO), MPI_SUM, w.win));
        MT_OK(MPI_Win_unlock(0, w.win));
        elapsed = now() - t0;
        for (int i = 0; i < SLOT; i++)
            MT_CHECK(back[i] == src[i], "%s: get back of element %d: %d, expected %d",
                     rw_name(flavor), lo + i, back[i], src[i]);
        for (int i = 0; i < 4; i++)
            MT_CHECK(init[i] == rw_initial(0, 2 + i, 10), "%s: get of element %d: %d, "
                     "expected %d", rw_name(flavor), 2 + i, init[i], rw_initial(0, 2 + i, 10));
        MT_CHECK(fetched >= 0 && fetched < w.size - 1, "%s: fetch-and-op gave %d, expected 0 to "
                 "%d", rw_name(flavor), fetched, w.size - 2);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (w.rank == 1)
        printf("note: %s: the origin's epochs took %.2f s (%s the target's busy second)\n",
               rw_name(flavor), elapsed, elapsed < 0.9 ? "within" : "longer than");
    if (w.rank == 0) {
        int *got = MTest_Malloc(sizeof(int) * (size_t)n);
        rw_read_own(&w, got);
        int sum = w.size * (w.size - 1) / 2;
        MT_CHECK(got[CTR] == sum, "%s: accumulated counter %d, expected %d", rw_name(flavor),
                 got[CTR], sum);
        MT_CHECK(got[FAO] == w.size - 1, "%s: fetch-and-op word %d, expected %d",
                 rw_name(flavor), got[FAO], w.size - 1);
        for (int i = 2; i < n; i++) {
            int r = i / SLOT;
            int want = r >= 1 && r < w.size ? 300 * r + i % SLOT : rw_initial(0, i, 10);
            if (got[i] != want) {
                MT_FAIL("%s: element %d is %d, expected %d", rw_name(flavor), i, got[i], want);
                break;
            }
        }
        free(got);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rw_close(&w);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    run(RW_CREATE);
    run(RW_ALLOCATE);
    return MTest_Finalize();
}
