/*
 * rma_counter: every rank hammers one shared counter with MPI_Fetch_and_op
 * (MPI_SUM of 1, a flush after each, no lock held by anyone else: the
 * atomicity of the operation itself must make it exact). The final value
 * is ranks x iterations, every fetched value from 0 to that minus 1 was
 * fetched exactly once over all ranks, and each rank's own fetches
 * increase. On every window flavor, with the counter at the last rank
 * (the words around it stay). Iterations: argument 1 (default 100).
 */
#include "rma_common.h"

#include <stdlib.h>

static void run(int flavor, int iters)
{
    struct rw w;
    int target;
    long long total;

    if (!rw_open(&w, flavor, 8, MPI_COMM_WORLD))
        return;
    target = w.size - 1;
    rw_fill(&w, 5);
    if (w.rank == target) {
        MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, w.win));
        w.buf[3] = 0;
        MT_OK(MPI_Win_unlock(target, w.win));
    }
    MPI_Barrier(MPI_COMM_WORLD);

    int *mine = MTest_Malloc(sizeof(int) * (size_t)iters);
    int one = 1;
    MT_OK(MPI_Win_lock_all(0, w.win));
    for (int i = 0; i < iters; i++) {
        MT_OK(MPI_Fetch_and_op(&one, &mine[i], MPI_INT, target, rw_disp(&w, target, 3), MPI_SUM,
                               w.win));
        MT_OK(MPI_Win_flush(target, w.win));
    }
    MT_OK(MPI_Win_unlock_all(w.win));
    for (int i = 1; i < iters; i++)
        if (mine[i] <= mine[i - 1]) {
            MT_FAIL("%s: fetch %d gave %d after %d: not increasing", rw_name(flavor), i,
                    mine[i], mine[i - 1]);
            break;
        }

    total = (long long)iters * w.size;
    int *all = w.rank == 0 ? MTest_Malloc(sizeof(int) * (size_t)total) : NULL;
    MPI_Gather(mine, iters, MPI_INT, all, iters, MPI_INT, 0, MPI_COMM_WORLD);
    if (w.rank == 0) {
        char *seen = calloc((size_t)total, 1);
        int bad = 0;
        for (long long i = 0; i < total && bad < 4; i++) {
            int v = all[i];
            if (v < 0 || v >= total) {
                MT_FAIL("%s: rank %lld fetched %d, outside [0, %lld)", rw_name(flavor),
                        i / iters, v, total);
                bad++;
            } else if (seen[v]++) {
                MT_FAIL("%s: value %d fetched twice (second time by rank %lld)",
                        rw_name(flavor), v, i / iters);
                bad++;
            }
        }
        free(seen);
        free(all);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (w.rank == target) {
        int got[8];
        rw_read_own(&w, got);
        MT_CHECK(got[3] == total, "%s: counter is %d, expected %lld", rw_name(flavor), got[3],
                 total);
        for (int i = 0; i < 8; i++)
            MT_CHECK(i == 3 || got[i] == rw_initial(target, i, 5), "%s: word %d next to the "
                     "counter is %d", rw_name(flavor), i, got[i]);
    }
    free(mine);
    MPI_Barrier(MPI_COMM_WORLD);
    rw_close(&w);
}

int main(int argc, char **argv)
{
    int iters = 100;

    MTest_Init(&argc, &argv);
    if (argc > 1)
        iters = atoi(argv[1]);
    for (int f = 0; f < RW_NFLAVORS; f++)
        run(f, iters);
    return MTest_Finalize();
}
