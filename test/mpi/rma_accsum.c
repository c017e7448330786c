/*
 * rma_accsum: concurrent MPI_Accumulate from all ranks to the same
 * locations must be exact (element-wise atomic). Every rank adds to the
 * same block of rank 0's window many times under a shared lock (no
 * exclusion between origins), once with MPI_SUM on int, once on double
 * (small integers: exact), and with MPI_MAX from all ranks on the same
 * words; then the same with MPI_Win_fence epochs. Ranks' contributions
 * differ per element so a lost or doubled update shows. Rounds: argument 1
 * (default 100).
 */
#include "rma_common.h"

#include <stdlib.h>

#define BLK 16

static void run(int flavor, int rounds)
{
    struct rw w;
    int add[BLK], mx[BLK], got[128];
    double dadd[BLK];

    /* ints 0..15: int sums; 16..47: 16 doubles; 48..63: max; 64..79: fence sums */
    if (!rw_open(&w, flavor, 128, MPI_COMM_WORLD))
        return;
    rw_fill(&w, 7);
    MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, w.rank, 0, w.win));
    for (int i = 0; i < 80; i++)
        w.buf[i] = 0;
    double zero = 0.0;
    for (int i = 0; i < BLK; i++)
        memcpy(&w.buf[16 + 2 * i], &zero, sizeof zero);
    MT_OK(MPI_Win_unlock(w.rank, w.win));
    MPI_Barrier(MPI_COMM_WORLD);

    for (int i = 0; i < BLK; i++) {
        add[i] = w.rank + i + 1;
        dadd[i] = 0.5 * (w.rank + 1);
        mx[i] = (w.rank * 17 + i * 5) % 23;
    }
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w.win));
    for (int r = 0; r < rounds; r++) {
        MT_OK(MPI_Accumulate(add, BLK, MPI_INT, 0, rw_disp(&w, 0, 0), BLK, MPI_INT, MPI_SUM,
                             w.win));
        MT_OK(MPI_Accumulate(dadd, BLK, MPI_DOUBLE, 0, rw_disp(&w, 0, 16), BLK, MPI_DOUBLE,
                             MPI_SUM, w.win));
        MT_OK(MPI_Accumulate(mx, BLK, MPI_INT, 0, rw_disp(&w, 0, 48), BLK, MPI_INT, MPI_MAX,
                             w.win));
        if (r % 16 == 15)
            MT_OK(MPI_Win_flush(0, w.win));
    }
    MT_OK(MPI_Win_unlock(0, w.win));
    /* The same sums in fence epochs, to every rank. */
    MT_OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, w.win));
    for (int r = 0; r < rounds / 10 + 1; r++) {
        for (int t = 0; t < w.size; t++)
            MT_OK(MPI_Accumulate(add, BLK, MPI_INT, t, rw_disp(&w, t, 64), BLK, MPI_INT, MPI_SUM,
                                 w.win));
        MT_OK(MPI_Win_fence(0, w.win));
    }
    MT_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, w.win));
    MPI_Barrier(MPI_COMM_WORLD);

    rw_read_own(&w, got);
    long long nsum = (long long)w.size * (w.size - 1) / 2;
    int frounds = rounds / 10 + 1;
    for (int i = 0; i < BLK; i++) {
        long long want = w.rank == 0 ? rounds * (nsum + (long long)w.size * (i + 1)) : 0;
        MT_CHECK(got[i] == want, "%s: int sum element %d is %d, expected %lld", rw_name(flavor),
                 i, got[i], want);
        double d, dwant = w.rank == 0 ? rounds * 0.5 * (nsum + w.size) : 0.0;
        memcpy(&d, &got[16 + 2 * i], sizeof d);
        MT_CHECK(d == dwant, "%s: double sum element %d is %g, expected %g", rw_name(flavor), i,
                 d, dwant);
        int mwant = 0;
        for (int r = 0; r < w.size && w.rank == 0; r++)
            if ((r * 17 + i * 5) % 23 > mwant)
                mwant = (r * 17 + i * 5) % 23;
        MT_CHECK(got[48 + i] == mwant, "%s: max element %d is %d, expected %d", rw_name(flavor),
                 i, got[48 + i], mwant);
        long long fwant = frounds * (nsum + (long long)w.size * (i + 1));
        MT_CHECK(got[64 + i] == fwant, "%s: fence sum element %d is %d, expected %lld",
                 rw_name(flavor), i, got[64 + i], fwant);
    }
    for (int i = 80; i < 128; i++)
        MT_CHECK(got[i] == rw_initial(w.rank, i, 7), "%s: element %d changed to %d",
                 rw_name(flavor), i, got[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    rw_close(&w);
}

int main(int argc, char **argv)
{
    int rounds = 100;

    MTest_Init(&argc, &argv);
    if (argc > 1)
        rounds = atoi(argv[1]);
    for (int f = 0; f < RW_NFLAVORS; f++)
        run(f, rounds);
    return MTest_Finalize();
}
