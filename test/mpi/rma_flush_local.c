/*
 * rma_flush_local: MPI_Win_flush_local and MPI_Win_flush_local_all on
 * every window flavor. In a lock_all epoch each rank puts into its right
 * neighbour's window a small block, a large one (many messages where the
 * data travels by message), a block from a strided origin datatype, and
 * accumulates (MPI_SUM) into a fourth, then gets a fifth block back. After
 * flush_local (or flush_local_all) the Get's data must be there and every
 * origin buffer is overwritten at once: after MPI_Win_flush the target
 * must hold the values from before the overwrite. Outside the written
 * blocks nothing may change.
 * Argument busy (the testlist runs it on rdmpi only): rank 1 stays outside
 * MPI, waiting on a flag in shared memory, while rank 0 does the same to it
 * (without the Get, whose data may need the target) with blocks that fit
 * the transports' buffers, and raises the flag only after flush_local
 * returned: local completion must not wait for the target (ranks on one
 * node only).
 */
#include "rma_common.h"

#define SMALL 8
#define STRIDED 16
#define ACC 8
#define GET 8

/* Block offsets (ints) in a window whose large block holds big ints. */
struct layout {
    int big, small, large, strided, acc, get, n;
};

static struct layout layout_of(int big)
{
    struct layout l;
    l.big = big;
    l.small = 0;
    l.large = l.small + SMALL;
    l.strided = l.large + big;
    l.acc = l.strided + STRIDED;
    l.get = l.acc + ACC;
    l.n = l.get + GET;
    return l;
}

static int value(int origin, int i)
{
    return origin * 1000003 + i * 7 + 1;
}

/* Origin buffers of one round. */
struct bufs {
    int small[SMALL];
    int *large;
    int strided[2 * STRIDED];   /* every other int is sent */
    int acc[ACC];
    int get[GET];
};

/* Issues the operations of rank me to target (the Get with get) and
 * completes them locally, then overwrites every origin buffer. Checks the
 * Get. */
static void issue(struct rw *w, const struct layout *l, struct bufs *b, int me, int target,
                  int all, int get, MPI_Datatype every_other)
{
    for (int i = 0; i < SMALL; i++)
        b->small[i] = value(me, l->small + i);
    for (int i = 0; i < l->big; i++)
        b->large[i] = value(me, l->large + i);
    for (int i = 0; i < STRIDED; i++) {
        b->strided[2 * i] = value(me, l->strided + i);
        b->strided[2 * i + 1] = -3;
    }
    for (int i = 0; i < ACC; i++)
        b->acc[i] = value(me, l->acc + i);
    for (int i = 0; i < GET; i++)
        b->get[i] = -5;
    MPI_Win win = w->win;
    MT_OK(MPI_Put(b->small, SMALL, MPI_INT, target, rw_disp(w, target, l->small), SMALL, MPI_INT,
                  win));
    MT_OK(MPI_Put(b->large, l->big, MPI_INT, target, rw_disp(w, target, l->large), l->big,
                  MPI_INT, win));
    MT_OK(MPI_Put(b->strided, 1, every_other, target, rw_disp(w, target, l->strided), STRIDED,
                  MPI_INT, win));
    MT_OK(MPI_Accumulate(b->acc, ACC, MPI_INT, target, rw_disp(w, target, l->acc), ACC, MPI_INT,
                         MPI_SUM, win));
    if (get)
        MT_OK(MPI_Get(b->get, GET, MPI_INT, target, rw_disp(w, target, l->get), GET, MPI_INT,
                      win));
    if (all)
        MT_OK(MPI_Win_flush_local_all(win));
    else
        MT_OK(MPI_Win_flush_local(target, win));
    for (int i = 0; get && i < GET; i++)
        MT_CHECK(b->get[i] == rw_initial(target, l->get + i, 1), "%s: get from rank %d after "
                 "flush_local%s: element %d is %d, expected %d", rw_name(w->flavor), target,
                 all ? "_all" : "", i, b->get[i], rw_initial(target, l->get + i, 1));
    /* Reuse: none of this may reach the target. */
    memset(b->small, 0x7f, sizeof b->small);
    memset(b->large, 0x7f, sizeof(int) * (size_t)l->big);
    memset(b->strided, 0x7f, sizeof b->strided);
    memset(b->acc, 0x7f, sizeof b->acc);
}

/* What the window of a rank holds after origin's operations. */
static void verify(struct rw *w, const struct layout *l, int origin, const char *what)
{
    int *got = MTest_Malloc(sizeof(int) * (size_t)w->n);
    int bad = 0;
    rw_read_own(w, got);
    for (int i = 0; i < l->n && bad < 4; i++) {
        int want = i < l->acc ? value(origin, i)
                 : i < l->get ? rw_initial(w->rank, i, 1) + value(origin, i)
                              : rw_initial(w->rank, i, 1);
        if (got[i] != want) {
            MT_FAIL("%s, %s: element %d of rank %d's window is %d, expected %d (from rank %d)",
                    rw_name(w->flavor), what, i, w->rank, got[i], want, origin);
            bad++;
        }
    }
    for (int i = l->n; i < w->n && bad < 4; i++)
        if (got[i] != rw_initial(w->rank, i, 1)) {
            MT_FAIL("%s, %s: element %d of rank %d's window changed", rw_name(w->flavor), what,
                    i, w->rank);
            bad++;
        }
    free(got);
}

/* Every rank to its right neighbour, with flush_local then flush_local_all. */
static void ring(struct rw *w, MPI_Datatype every_other)
{
    struct layout l = layout_of(40000);
    struct bufs b;
    b.large = MTest_Malloc(sizeof(int) * (size_t)l.big);
    int right = (w->rank + 1) % w->size, left = (w->rank + w->size - 1) % w->size;
    for (int all = 0; all < 2; all++) {
        rw_fill(w, 1);
        MT_OK(MPI_Win_lock_all(0, w->win));
        issue(w, &l, &b, w->rank, right, all, 1, every_other);
        MT_OK(MPI_Win_flush(right, w->win));
        MT_OK(MPI_Win_unlock_all(w->win));
        MPI_Barrier(w->comm);
        verify(w, &l, left, all ? "flush_local_all then flush" : "flush_local then flush");
        MPI_Barrier(w->comm);
    }
    free(b.large);
}

/* Rank 0 to rank 1 while rank 1 waits outside MPI for flush_local to return. */
static void busy(struct rw *w, MPI_Datatype every_other, struct rw_flag *f, int *raised)
{
    struct layout l = layout_of(2000);
    struct bufs b;
    b.large = MTest_Malloc(sizeof(int) * (size_t)l.big);
    rw_fill(w, 1);
    MT_OK(MPI_Win_lock_all(0, w->win));
    MPI_Barrier(w->comm);
    if (w->rank == 1) {
        MT_CHECK(rw_flag_wait(f, *raised + 1, 30.0), "%s: rank 0's flush_local did not return "
                 "in 30 s while this rank stayed outside MPI: it waited for this rank",
                 rw_name(w->flavor));
    } else if (w->rank == 0) {
        issue(w, &l, &b, 0, 1, 0, 0, every_other);
        rw_flag_raise(f);
        MT_OK(MPI_Win_flush(1, w->win));
    }
    (*raised)++;
    MT_OK(MPI_Win_unlock_all(w->win));
    MPI_Barrier(w->comm);
    if (w->rank == 1)
        verify(w, &l, 0, "flush_local to a target outside MPI");
    MPI_Barrier(w->comm);
    free(b.large);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int want_busy = argc > 1 && !strcmp(argv[1], "busy");
    if (argc > 1 && !want_busy) {
        if (MTest_rank == 0)
            fprintf(stderr, "rma_flush_local: unknown argument %s (busy)\n", argv[1]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Datatype every_other;
    MPI_Type_vector(STRIDED, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    struct rw_flag f;
    int raised = 0;
    int have_flag = want_busy && MTest_size > 1 && rw_flag_open(&f, MPI_COMM_WORLD);
    if (want_busy && !have_flag && MTest_rank == 0)
        printf("note: ranks on several nodes or alone, the busy target part is left out\n");
    for (int flavor = 0; flavor < RW_NFLAVORS; flavor++) {
        struct rw w;
        if (!rw_open(&w, flavor, layout_of(40000).n + 4, MPI_COMM_WORLD))
            continue;
        ring(&w, every_other);
        if (have_flag)
            busy(&w, every_other, &f, &raised);
        rw_close(&w);
    }
    if (have_flag)
        rw_flag_close(&f);
    MPI_Type_free(&every_other);
    return MTest_Finalize();
}
