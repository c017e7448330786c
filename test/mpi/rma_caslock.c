/*
 * rma_caslock: a spin lock built from MPI_Compare_and_swap guards a
 * read-modify-write that is not atomic (MPI_Get of two words, add locally,
 * MPI_Put back, each completed with a flush). All ranks take the lock in
 * turn, many times, inside one lock_all epoch; with a correct
 * Compare_and_swap and correct flush ordering no update is lost, so both
 * words end at exactly ranks x rounds (x 3 for the second). The lock is
 * released with MPI_Fetch_and_op(MPI_REPLACE), and the holder checks the
 * lock word holds its own id. The lock word and data live at rank 0 (the
 * data words at the last rank). Rounds: argument 1 (default 25).
 */
#include "rma_common.h"

#include <stdlib.h>

#define LOCKW 2     /* lock word at rank 0 */
#define DATAW 5     /* two data words at the last rank */

static void acquire(struct rw *w, int me)
{
    int unlocked = 0, old = -1;
    do {
        MT_OK(MPI_Compare_and_swap(&me, &unlocked, &old, MPI_INT, 0, rw_disp(w, 0, LOCKW), w->win));
        MT_OK(MPI_Win_flush(0, w->win));
    } while (old != 0);
}

static void release(struct rw *w, int me)
{
    int zero = 0, old = -1;
    MT_OK(MPI_Fetch_and_op(&zero, &old, MPI_INT, 0, rw_disp(w, 0, LOCKW), MPI_REPLACE, w->win));
    MT_OK(MPI_Win_flush(0, w->win));
    MT_CHECK(old == me, "%s: lock word was %d at release, expected my id %d",
             rw_name(w->flavor), old, me);
}

static void run(int flavor, int rounds)
{
    struct rw w;
    int owner;

    if (!rw_open(&w, flavor, 8, MPI_COMM_WORLD))
        return;
    owner = w.size - 1;
    rw_fill(&w, 6);
    MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, w.rank, 0, w.win));
    if (w.rank == 0)
        w.buf[LOCKW] = 0;
    if (w.rank == owner)
        w.buf[DATAW] = w.buf[DATAW + 1] = 0;
    MT_OK(MPI_Win_unlock(w.rank, w.win));
    MPI_Barrier(MPI_COMM_WORLD);

    int me = w.rank + 1;
    MT_OK(MPI_Win_lock_all(0, w.win));
    for (int r = 0; r < rounds; r++) {
        int d[2];
        acquire(&w, me);
        MT_OK(MPI_Get(d, 2, MPI_INT, owner, rw_disp(&w, owner, DATAW), 2, MPI_INT, w.win));
        MT_OK(MPI_Win_flush(owner, w.win));
        MT_CHECK(d[1] == 3 * d[0], "%s: inside the lock the words are %d and %d: another "
                 "rank's update is half done", rw_name(flavor), d[0], d[1]);
        d[0] += 1;
        d[1] += 3;
        MT_OK(MPI_Put(d, 2, MPI_INT, owner, rw_disp(&w, owner, DATAW), 2, MPI_INT, w.win));
        MT_OK(MPI_Win_flush(owner, w.win));
        release(&w, me);
    }
    MT_OK(MPI_Win_unlock_all(w.win));
    MPI_Barrier(MPI_COMM_WORLD);

    int got[8];
    rw_read_own(&w, got);
    for (int i = 0; i < 8; i++) {
        int want = rw_initial(w.rank, i, 6);
        if (w.rank == 0 && i == LOCKW)
            want = 0;
        if (w.rank == owner && i == DATAW)
            want = rounds * w.size;
        if (w.rank == owner && i == DATAW + 1)
            want = 3 * rounds * w.size;
        MT_CHECK(got[i] == want, "%s: word %d of rank %d is %d, expected %d", rw_name(flavor), i,
                 w.rank, got[i], want);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rw_close(&w);
}

int main(int argc, char **argv)
{
    int rounds = 25;

    MTest_Init(&argc, &argv);
    if (argc > 1)
        rounds = atoi(argv[1]);
    for (int f = 0; f < RW_NFLAVORS; f++)
        run(f, rounds);
    return MTest_Finalize();
}
