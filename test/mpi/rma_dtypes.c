/*
 * rma_dtypes: derived datatypes on the origin and the target of MPI_Put,
 * MPI_Get and MPI_Accumulate, every pair of contiguous, vector, indexed
 * (blocks out of order), struct and subarray (each six ints), plus a
 * vector of count 2 against a contiguous 12. The test knows each type's
 * int offsets, so the expected target (or origin, for a get) is computed
 * without MPI: the k-th int of the origin's type map lands on the k-th int
 * of the target's; every other int stays. Each rank works on its right
 * neighbour's window in one lock_all epoch, resets it with a plain put and
 * reads it back with a plain get, on every window flavor.
 */
#include "rma_common.h"

#define N 64
#define AT 3            /* the typed access starts at element AT */
#define NT 6

struct ty {
    const char *name;
    MPI_Datatype t;
    int count;
    int n;              /* ints in the type map of count elements */
    int off[12];
};
static struct ty types[NT];

static void make_types(void)
{
    MPI_Datatype t;
    int bl[3] = { 1, 3, 2 }, dis[3] = { 7, 2, 12 };

    MPI_Type_contiguous(6, MPI_INT, &t);
    types[0] = (struct ty){ "contiguous", t, 1, 6, { 0, 1, 2, 3, 4, 5 } };
    MPI_Type_vector(3, 2, 5, MPI_INT, &t);
    types[1] = (struct ty){ "vector", t, 1, 6, { 0, 1, 5, 6, 10, 11 } };
    MPI_Type_indexed(3, bl, dis, MPI_INT, &t);
    types[2] = (struct ty){ "indexed", t, 1, 6, { 7, 2, 3, 4, 12, 13 } };
    {
        int sbl[2] = { 2, 4 };
        MPI_Aint sdis[2] = { 1 * sizeof(int), 20 * sizeof(int) };
        MPI_Datatype st[2] = { MPI_INT, MPI_INT };
        MPI_Type_create_struct(2, sbl, sdis, st, &t);
        types[3] = (struct ty){ "struct", t, 1, 6, { 1, 2, 20, 21, 22, 23 } };
    }
    {
        int sizes[2] = { 4, 5 }, sub[2] = { 2, 3 }, start[2] = { 1, 1 };
        MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_INT, &t);
        types[4] = (struct ty){ "subarray", t, 1, 6, { 6, 7, 8, 11, 12, 13 } };
    }
    MPI_Type_vector(3, 2, 5, MPI_INT, &t);
    types[5] = (struct ty){ "vector x 2", t, 2, 12,
                            { 0, 1, 5, 6, 10, 11, 12, 13, 17, 18, 22, 23 } };
    for (int i = 0; i < NT; i++)
        MPI_Type_commit(&types[i].t);
}

static int origin_value(int i)
{
    return 5000 + i * 3;
}

/* Resets the right neighbour's window (t) to rw_initial(t, i, 8). */
static void reset_target(struct rw *w, int t)
{
    int init[N];
    for (int i = 0; i < N; i++)
        init[i] = rw_initial(t, i, 8);
    MT_OK(MPI_Put(init, N, MPI_INT, t, rw_disp(w, t, 0), N, MPI_INT, w->win));
    MT_OK(MPI_Win_flush(t, w->win));
}

static void pair(struct rw *w, int t, const struct ty *o, const struct ty *tg)
{
    int obuf[N], got[N], want[N];
    const char *ops[3] = { "Put", "Get", "Accumulate" };

    for (int op = 0; op < 3; op++) {
        reset_target(w, t);
        for (int i = 0; i < N; i++)
            obuf[i] = origin_value(i);
        if (op == 0)
            MT_OK(MPI_Put(obuf + AT, o->count, o->t, t, rw_disp(w, t, AT), tg->count, tg->t,
                          w->win));
        else if (op == 1)
            MT_OK(MPI_Get(obuf + AT, o->count, o->t, t, rw_disp(w, t, AT), tg->count, tg->t,
                          w->win));
        else
            MT_OK(MPI_Accumulate(obuf + AT, o->count, o->t, t, rw_disp(w, t, AT), tg->count,
                                 tg->t, MPI_SUM, w->win));
        MT_OK(MPI_Win_flush(t, w->win));
        MT_OK(MPI_Get(got, N, MPI_INT, t, rw_disp(w, t, 0), N, MPI_INT, w->win));
        MT_OK(MPI_Win_flush(t, w->win));

        /* Expected target, then (for Get) the expected origin buffer. */
        for (int i = 0; i < N; i++)
            want[i] = rw_initial(t, i, 8);
        for (int k = 0; k < o->n && op != 1; k++) {
            int ti = AT + tg->off[k], oi = AT + o->off[k];
            want[ti] = op == 0 ? origin_value(oi) : want[ti] + origin_value(oi);
        }
        for (int i = 0; i < N; i++)
            if (got[i] != want[i]) {
                MT_FAIL("%s: %s origin %s, target %s: target element %d is %d, expected %d",
                        rw_name(w->flavor), ops[op], o->name, tg->name, i, got[i], want[i]);
                break;
            }
        if (op != 1)
            continue;
        for (int i = 0; i < N; i++)
            want[i] = origin_value(i);
        for (int k = 0; k < o->n; k++)
            want[AT + o->off[k]] = rw_initial(t, AT + tg->off[k], 8);
        for (int i = 0; i < N; i++)
            if (obuf[i] != want[i]) {
                MT_FAIL("%s: Get origin %s, target %s: origin element %d is %d, expected %d",
                        rw_name(w->flavor), o->name, tg->name, i, obuf[i], want[i]);
                break;
            }
    }
}

static void run(int flavor)
{
    struct rw w;

    if (!rw_open(&w, flavor, N, MPI_COMM_WORLD))
        return;
    int t = (w.rank + 1) % w.size;
    MT_OK(MPI_Win_lock_all(0, w.win));
    for (int a = 0; a < NT; a++)
        for (int b = 0; b < NT; b++)
            if (types[a].n == types[b].n)
                pair(&w, t, &types[a], &types[b]);
    /* A contiguous 12 against a vector of count 2 and back. */
    MPI_Datatype c12;
    MPI_Type_contiguous(12, MPI_INT, &c12);
    MPI_Type_commit(&c12);
    struct ty tc = { "contiguous 12", c12, 1, 12, { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 } };
    pair(&w, t, &tc, &types[5]);
    pair(&w, t, &types[5], &tc);
    MPI_Type_free(&c12);
    MT_OK(MPI_Win_unlock_all(w.win));
    MPI_Barrier(MPI_COMM_WORLD);
    rw_close(&w);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    make_types();
    for (int f = 0; f < RW_NFLAVORS; f++)
        run(f);
    for (int i = 0; i < NT; i++)
        MPI_Type_free(&types[i].t);
    return MTest_Finalize();
}
