/*
 * rma_lock: passive-target synchronization on every window flavor.
 * Exclusive lock: each rank puts a block into its right neighbour's window.
 * Shared lock: all ranks put into their own slot of rank 0's window, flush
 * and read it back inside the epoch. lock_all: a put to every rank's slot,
 * MPI_Win_flush per target, a get back; MPI_Win_flush_local lets the origin
 * buffer be reused while the data still arrives intact; flush_all and
 * flush_local_all likewise. MPI_Win_sync (in a lock_all with
 * MPI_MODE_NOCHECK): local stores published to others, remote puts seen by
 * local loads. Outside the written slots nothing may
 * change.
 */
#include "rma_common.h"

#define SLOT 8

static int slot_value(int i, void *arg)
{
    int origin = (i / SLOT) - 1;
    return *(int *)arg * 100000 + origin * 100 + i % SLOT;
}

static int excl_value(int i, void *arg)
{
    return *(int *)arg * 31 + i;
}

static void exclusive(struct rw *w)
{
    int right = (w->rank + 1) % w->size, left = (w->rank + w->size - 1) % w->size;
    int src[SLOT], got[1024];
    char what[128];

    rw_fill(w, 3);
    for (int i = 0; i < SLOT; i++)
        src[i] = excl_value(SLOT + i, &w->rank);
    MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, w->win));
    MT_OK(MPI_Put(src, SLOT, MPI_INT, right, rw_disp(w, right, SLOT), SLOT, MPI_INT, w->win));
    MT_OK(MPI_Win_unlock(right, w->win));
    MPI_Barrier(w->comm);
    rw_read_own(w, got);
    snprintf(what, sizeof what, "%s, exclusive-lock put from rank %d", rw_name(w->flavor), left);
    rw_check(got, w->n, SLOT, 2 * SLOT, excl_value, &left, w->rank, 3, what);
    MPI_Barrier(w->comm);
}

static void shared(struct rw *w)
{
    int src[SLOT], back[SLOT], got[1024], tag = 1;
    char what[128];
    int lo = SLOT * (w->rank + 1);

    rw_fill(w, 3);
    for (int i = 0; i < SLOT; i++)
        src[i] = slot_value(lo + i, &tag);
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w->win));
    MT_OK(MPI_Put(src, SLOT, MPI_INT, 0, rw_disp(w, 0, lo), SLOT, MPI_INT, w->win));
    MT_OK(MPI_Win_flush(0, w->win));
    MT_OK(MPI_Get(back, SLOT, MPI_INT, 0, rw_disp(w, 0, lo), SLOT, MPI_INT, w->win));
    MT_OK(MPI_Win_unlock(0, w->win));
    for (int i = 0; i < SLOT; i++)
        MT_CHECK(back[i] == src[i], "%s: shared lock, get after flush, element %d: %d, "
                 "expected %d", rw_name(w->flavor), lo + i, back[i], src[i]);
    MPI_Barrier(w->comm);
    if (w->rank == 0) {
        rw_read_own(w, got);
        snprintf(what, sizeof what, "%s, shared-lock puts into rank 0", rw_name(w->flavor));
        rw_check(got, w->n, SLOT, SLOT * (w->size + 1), slot_value, &tag, 0, 3, what);
    }
    MPI_Barrier(w->comm);
}

static void lock_all(struct rw *w)
{
    int lo = SLOT * (w->rank + 1), got[1024], back[SLOT];
    int *src = MTest_Malloc(sizeof(int) * SLOT * (size_t)w->size);
    char what[128];

    /* Round 1: flush per target, then read back. */
    rw_fill(w, 3);
    MT_OK(MPI_Win_lock_all(0, w->win));
    for (int t = 0; t < w->size; t++) {
        int *s = src + t * SLOT;
        for (int i = 0; i < SLOT; i++)
            s[i] = slot_value(lo + i, &t);
        MT_OK(MPI_Put(s, SLOT, MPI_INT, t, rw_disp(w, t, lo), SLOT, MPI_INT, w->win));
        MT_OK(MPI_Win_flush(t, w->win));
        MT_OK(MPI_Get(back, SLOT, MPI_INT, t, rw_disp(w, t, lo), SLOT, MPI_INT, w->win));
        MT_OK(MPI_Win_flush(t, w->win));
        for (int i = 0; i < SLOT; i++)
            MT_CHECK(back[i] == s[i], "%s: lock_all, get after flush from rank %d element %d: "
                     "%d, expected %d", rw_name(w->flavor), t, lo + i, back[i], s[i]);
    }
    MT_OK(MPI_Win_unlock_all(w->win));
    MPI_Barrier(w->comm);
    rw_read_own(w, got);
    snprintf(what, sizeof what, "%s, lock_all + flush", rw_name(w->flavor));
    rw_check(got, w->n, SLOT, SLOT * (w->size + 1), slot_value, &w->rank, w->rank, 3, what);
    MPI_Barrier(w->comm);

    /* Round 2: one origin buffer reused after flush_local, then flush_all;
     * round 3 likewise with flush_local_all. */
    for (int round = 0; round < 2; round++) {
        int buf[SLOT];
        rw_fill(w, 3);
        MT_OK(MPI_Win_lock_all(0, w->win));
        for (int t = 0; t < w->size; t++) {
            for (int i = 0; i < SLOT; i++)
                buf[i] = slot_value(lo + i, &t);
            MT_OK(MPI_Put(buf, SLOT, MPI_INT, t, rw_disp(w, t, lo), SLOT, MPI_INT, w->win));
            if (round == 0)
                MT_OK(MPI_Win_flush_local(t, w->win));
            else
                MT_OK(MPI_Win_flush_local_all(w->win));
            for (int i = 0; i < SLOT; i++)
                buf[i] = -7;    /* reuse: must not reach the target */
        }
        MT_OK(MPI_Win_flush_all(w->win));
        for (int t = 0; t < w->size; t++) {
            MT_OK(MPI_Get(back, SLOT, MPI_INT, t, rw_disp(w, t, lo), SLOT, MPI_INT, w->win));
            MT_OK(MPI_Win_flush_local(t, w->win));
            for (int i = 0; i < SLOT; i++)
                MT_CHECK(back[i] == slot_value(lo + i, &t), "%s: %s, rank %d element %d: %d, "
                         "expected %d", rw_name(w->flavor), round ? "flush_local_all" :
                         "flush_local", t, lo + i, back[i], slot_value(lo + i, &t));
        }
        MT_OK(MPI_Win_unlock_all(w->win));
        MPI_Barrier(w->comm);
        rw_read_own(w, got);
        snprintf(what, sizeof what, "%s, %s + flush_all", rw_name(w->flavor),
                 round ? "flush_local_all" : "flush_local");
        rw_check(got, w->n, SLOT, SLOT * (w->size + 1), slot_value, &w->rank, w->rank, 3, what);
        MPI_Barrier(w->comm);
    }
    free(src);
}

/* MPI_Win_sync in a lock_all epoch: local stores seen by the left
 * neighbour's get, the right neighbour's put seen by local loads. */
static void win_sync(struct rw *w)
{
    int right = (w->rank + 1) % w->size, left = (w->rank + w->size - 1) % w->size;
    int v, back = 0;

    rw_fill(w, 3);
    /* No rank holds or asks for an exclusive lock here: NOCHECK is allowed. */
    MT_OK(MPI_Win_lock_all(MPI_MODE_NOCHECK, w->win));
    w->buf[0] = 4242 + w->rank;
    MT_OK(MPI_Win_sync(w->win));
    MPI_Barrier(w->comm);
    MT_OK(MPI_Get(&back, 1, MPI_INT, right, rw_disp(w, right, 0), 1, MPI_INT, w->win));
    MT_OK(MPI_Win_flush(right, w->win));
    MT_CHECK(back == 4242 + right, "%s: Win_sync: rank %d's local store read as %d, expected %d",
             rw_name(w->flavor), right, back, 4242 + right);
    v = 9000 + w->rank;
    MT_OK(MPI_Put(&v, 1, MPI_INT, right, rw_disp(w, right, w->n - 1), 1, MPI_INT, w->win));
    MT_OK(MPI_Win_flush(right, w->win));
    MPI_Barrier(w->comm);
    MT_OK(MPI_Win_sync(w->win));
    MT_CHECK(w->buf[w->n - 1] == 9000 + left, "%s: Win_sync: local load of the put from rank "
             "%d is %d, expected %d", rw_name(w->flavor), left, w->buf[w->n - 1], 9000 + left);
    MT_CHECK(w->buf[1] == rw_initial(w->rank, 1, 3), "%s: element 1 changed to %d",
             rw_name(w->flavor), w->buf[1]);
    MT_OK(MPI_Win_unlock_all(w->win));
    MPI_Barrier(w->comm);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    if (MTest_size > 100) {
        MT_FAIL("at most 100 ranks");
        return MTest_Finalize();
    }
    for (int f = 0; f < RW_NFLAVORS; f++) {
        struct rw w;
        if (!rw_open(&w, f, SLOT * (MTest_size + 2), MPI_COMM_WORLD))
            continue;
        exclusive(&w);
        shared(&w);
        lock_all(&w);
        win_sync(&w);
        rw_close(&w);
    }
    return MTest_Finalize();
}
