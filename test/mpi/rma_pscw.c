/*
 * rma_pscw: generalized active-target synchronization (MPI_Win_post,
 * start, complete, wait and test) on every window flavor. A ring: each
 * rank exposes its window to its left neighbour and accesses its right
 * one (put, then a get-only epoch with MPI_MODE_NOPUT on the post). A
 * star: rank 0 exposes to every other rank, each puts into its own slot,
 * and rank 0 ends the exposure with MPI_Win_test polling. Data and the
 * untouched rest of each window are checked.
 */
#include "rma_common.h"

#define N 64
#define LEN 9

static int ring_value(int i, void *arg)
{
    return *(int *)arg * 500 + i;
}

static int star_value(int i, void *arg)
{
    (void)arg;
    return 77000 + i;
}

static MPI_Group group_of(MPI_Group world, int r)
{
    MPI_Group g;
    MPI_Group_incl(world, 1, &r, &g);
    return g;
}

static void ring(struct rw *w, MPI_Group world)
{
    int right = (w->rank + 1) % w->size, left = (w->rank + w->size - 1) % w->size;
    MPI_Group gl = group_of(world, left), gr = group_of(world, right);
    int src[LEN], got[N], back[LEN];
    char what[128];

    for (int i = 0; i < LEN; i++)
        src[i] = ring_value(10 + i, &w->rank);
    /* Put epoch: exposed to the left, accessing the right. */
    MT_OK(MPI_Win_post(gl, 0, w->win));
    MT_OK(MPI_Win_start(gr, 0, w->win));
    MT_OK(MPI_Put(src, LEN, MPI_INT, right, rw_disp(w, right, 10), LEN, MPI_INT, w->win));
    MT_OK(MPI_Win_complete(w->win));
    MT_OK(MPI_Win_wait(w->win));
    memcpy(got, w->buf, sizeof got);
    snprintf(what, sizeof what, "%s, PSCW ring put from rank %d", rw_name(w->flavor), left);
    rw_check(got, N, 10, 10 + LEN, ring_value, &left, w->rank, 2, what);

    /* Get-only epoch: the post may say no put and no local store. */
    MT_OK(MPI_Win_post(gl, MPI_MODE_NOPUT | MPI_MODE_NOSTORE, w->win));
    MT_OK(MPI_Win_start(gr, 0, w->win));
    MT_OK(MPI_Get(back, LEN, MPI_INT, right, rw_disp(w, right, 10), LEN, MPI_INT, w->win));
    MT_OK(MPI_Win_complete(w->win));
    MT_OK(MPI_Win_wait(w->win));
    for (int i = 0; i < LEN; i++)
        MT_CHECK(back[i] == src[i], "%s: PSCW get back of element %d at rank %d: %d, expected %d",
                 rw_name(w->flavor), 10 + i, right, back[i], src[i]);
    MPI_Group_free(&gl);
    MPI_Group_free(&gr);
}

/* Rank 0 exposes to every other rank; each puts LEN values into slot r. */
static void star(struct rw *w, MPI_Group world)
{
    int got[N];
    char what[128];

    if (w->size < 2 || w->size * 4 > N)
        return;
    if (w->rank == 0) {
        MPI_Group others;
        int zero = 0, flag = 0;
        long polls = 0;
        MPI_Group_excl(world, 1, &zero, &others);
        MT_OK(MPI_Win_post(others, 0, w->win));
        while (!flag) {
            MT_OK(MPI_Win_test(w->win, &flag));
            polls++;
        }
        MT_CHECK(polls >= 1, "MPI_Win_test never called");
        memcpy(got, w->buf, sizeof got);
        snprintf(what, sizeof what, "%s, PSCW star into rank 0", rw_name(w->flavor));
        rw_check(got, N, 4, 4 * w->size, star_value, NULL, 0, 2, what);
        MPI_Group_free(&others);
    } else {
        MPI_Group g0 = group_of(world, 0);
        int v[4];
        for (int i = 0; i < 4; i++)
            v[i] = star_value(4 * w->rank + i, NULL);
        MT_OK(MPI_Win_start(g0, 0, w->win));
        MT_OK(MPI_Put(v, 4, MPI_INT, 0, rw_disp(w, 0, 4 * w->rank), 4, MPI_INT, w->win));
        MT_OK(MPI_Win_complete(w->win));
        MPI_Group_free(&g0);
    }
}

static void run(int flavor)
{
    struct rw w;
    MPI_Group world;

    if (!rw_open(&w, flavor, N, MPI_COMM_WORLD))
        return;
    MPI_Win_get_group(w.win, &world);
    rw_fill(&w, 2);
    ring(&w, world);
    rw_fill(&w, 2);
    star(&w, world);
    /* A rank may only be in one epoch at a time: the next test starts after all. */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Group_free(&world);
    rw_close(&w);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    for (int f = 0; f < RW_NFLAVORS; f++)
        run(f);
    return MTest_Finalize();
}
