/*
 * comm_cart: Cartesian topologies on 1D, 2D and 3D grids from Dims_create,
 * periodic and not. For every rank: Cart_coords / Cart_rank round trips,
 * Cart_rank wrap-around on periodic dimensions, Cart_shift against
 * neighbours computed here (MPI_PROC_NULL at non-periodic edges) and a
 * message exchange along each shift, Cart_get, Cartdim_get, Topo_test,
 * Cart_sub, Cart_map, grids smaller than the communicator, a 0-dimensional
 * grid, the topology surviving Comm_dup (and not Comm_split), and error
 * classes.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

/* Row-major rank of coords; -1 if outside a non-periodic dimension. */
static int ref_rank(int nd, const int *dims, const int *per, const int *co)
{
    int r = 0;
    for (int i = 0; i < nd; i++) {
        int x = co[i];
        if (per[i])
            x = ((x % dims[i]) + dims[i]) % dims[i];
        else if (x < 0 || x >= dims[i])
            return -1;
        r = r * dims[i] + x;
    }
    return r;
}

static void check_grid(MPI_Comm cart, int nd, const int *dims, const int *per, const char *what)
{
    int me, size, st = -1, n = -1;
    MPI_Comm_rank(cart, &me);
    MPI_Comm_size(cart, &size);
    MT_OK(MPI_Topo_test(cart, &st));
    MT_OK(MPI_Cartdim_get(cart, &n));
    MT_CHECK(st == MPI_CART && n == nd, "%s: topo %d ndims %d", what, st, n);

    int gd[3], gp[3], gc[3], co[3], c2[3];
    MT_OK(MPI_Cart_get(cart, nd, gd, gp, gc));
    MT_OK(MPI_Cart_coords(cart, me, nd, co));
    for (int i = 0; i < nd; i++)
        MT_CHECK(gd[i] == dims[i] && !!gp[i] == !!per[i] && gc[i] == co[i],
                 "%s: Cart_get dim %d: %d %d %d", what, i, gd[i], gp[i], gc[i]);

    /* coords <-> rank for every rank, with wrap-around */
    for (int r = 0; r < size; r++) {
        int back = -1;
        MT_OK(MPI_Cart_coords(cart, r, nd, c2));
        MT_CHECK(ref_rank(nd, dims, per, c2) == r, "%s: coords of %d map back to %d", what, r,
                 ref_rank(nd, dims, per, c2));
        MT_OK(MPI_Cart_rank(cart, c2, &back));
        MT_CHECK(back == r, "%s: Cart_rank(coords(%d)) = %d", what, r, back);
        for (int i = 0; i < nd; i++)
            if (per[i]) {
                c2[i] += 3 * dims[i];
                MT_OK(MPI_Cart_rank(cart, c2, &back));
                MT_CHECK(back == r, "%s: wrapped Cart_rank dim %d: %d, expected %d", what, i,
                         back, r);
                c2[i] -= 5 * dims[i];
                MT_OK(MPI_Cart_rank(cart, c2, &back));
                MT_CHECK(back == r, "%s: negative wrapped Cart_rank dim %d", what, i);
                c2[i] += 2 * dims[i];
            }
    }

    /* shifts by 1 and 2 in each direction, then a message along each */
    for (int dir = 0; dir < nd; dir++)
        for (int disp = -2; disp <= 2; disp++) {
            int src = -9, dst = -9;
            MT_OK(MPI_Cart_shift(cart, dir, disp, &src, &dst));
            memcpy(c2, co, sizeof(co));
            c2[dir] = co[dir] + disp;
            int edst = ref_rank(nd, dims, per, c2);
            c2[dir] = co[dir] - disp;
            int esrc = ref_rank(nd, dims, per, c2);
            if (edst < 0)
                edst = MPI_PROC_NULL;
            if (esrc < 0)
                esrc = MPI_PROC_NULL;
            MT_CHECK(src == esrc && dst == edst, "%s: shift dir %d disp %d: %d %d, expected %d %d",
                     what, dir, disp, src, dst, esrc, edst);
            int got = -7;
            MPI_Status s;
            MT_OK(MPI_Sendrecv(&me, 1, MPI_INT, dst, 100 + dir, &got, 1, MPI_INT, src, 100 + dir,
                               cart, &s));
            if (src != MPI_PROC_NULL)
                MT_CHECK(got == src, "%s: shift dir %d disp %d: got %d from %d", what, dir, disp,
                         got, src);
            else
                MT_CHECK(got == -7, "%s: receive from MPI_PROC_NULL changed the buffer", what);
        }
}

/* Cart_sub keeping the dimensions in keep: the slice through me. */
static void check_sub(MPI_Comm cart, int nd, const int *dims, const int *per, const int *keep,
                      const char *what)
{
    MPI_Comm sub;
    int co[3], sd[3], sp[3], n = 0, idx = 0, size = -1, rank = -1, snd = -1;
    MPI_Comm_rank(cart, &rank);
    MT_OK(MPI_Cart_coords(cart, rank, nd, co));
    MT_OK(MPI_Cart_sub(cart, keep, &sub));
    int expect_size = 1, expect_rank = 0;
    for (int i = 0; i < nd; i++)
        if (keep[i]) {
            sd[n] = dims[i];
            sp[n++] = per[i];
            expect_size *= dims[i];
            expect_rank = expect_rank * dims[i] + co[i];
        }
    MPI_Comm_size(sub, &size);
    MPI_Comm_rank(sub, &idx);
    MT_OK(MPI_Cartdim_get(sub, &snd));
    MT_CHECK(size == expect_size && idx == expect_rank && snd == n,
             "%s: sub size %d rank %d ndims %d, expected %d %d %d", what, size, idx, snd,
             expect_size, expect_rank, n);
    if (snd == n)
        check_grid(sub, n, sd, sp, what);
    MT_OK(MPI_Comm_free(&sub));
}

static void grid(int nd, const int *per, const char *what)
{
    int dims[3] = { 0, 0, 0 };
    MPI_Comm cart, dup, split;
    MT_OK(MPI_Dims_create(MTest_size, nd, dims));
    MT_OK(MPI_Cart_create(MPI_COMM_WORLD, nd, dims, per, 0, &cart));
    check_grid(cart, nd, dims, per, what);

    int keep[3];
    for (int i = 0; i < nd; i++) {
        memset(keep, 0, sizeof(keep));
        keep[i] = 1;
        check_sub(cart, nd, dims, per, keep, what);
    }
    if (nd > 1) {
        keep[0] = keep[1] = keep[2] = 1;
        keep[nd - 1] = 0;
        check_sub(cart, nd, dims, per, keep, what);
    }
    /* nothing kept: a 0-dimensional grid of the grid's rank 0 alone (as
     * MPI_Cart_create with ndims 0, and as MPICH 4.0 does), MPI_COMM_NULL
     * elsewhere */
    {
        MPI_Comm sub;
        int r, nd0 = -1, size = -1;
        keep[0] = keep[1] = keep[2] = 0;
        MPI_Comm_rank(cart, &r);
        MT_OK(MPI_Cart_sub(cart, keep, &sub));
        if (r == 0 && sub != MPI_COMM_NULL) {
            MPI_Comm_size(sub, &size);
            MT_OK(MPI_Cartdim_get(sub, &nd0));
            MT_CHECK(size == 1 && nd0 == 0, "%s: sub with nothing kept: size %d ndims %d", what,
                     size, nd0);
            MT_OK(MPI_Comm_free(&sub));
        } else {
            MT_CHECK(r != 0, "%s: sub with nothing kept: MPI_COMM_NULL at rank 0", what);
            MT_CHECK(sub == MPI_COMM_NULL, "%s: sub with nothing kept at rank %d: not MPI_COMM_NULL",
                     what, r);
        }
    }

    MT_OK(MPI_Comm_dup(cart, &dup));
    check_grid(dup, nd, dims, per, what);
    MT_OK(MPI_Comm_split(cart, 0, 0, &split));
    int st = 0;
    MT_OK(MPI_Topo_test(split, &st));
    MT_CHECK(st == MPI_UNDEFINED, "%s: a split of a Cartesian communicator has topology %d",
             what, st);
    MT_OK(MPI_Comm_free(&split));
    MT_OK(MPI_Comm_free(&dup));
    MT_OK(MPI_Comm_free(&cart));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int np = MTest_size, me = MTest_rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    grid(1, (int[]){ 1 }, "1D ring");
    grid(1, (int[]){ 0 }, "1D line");
    grid(2, (int[]){ 0, 0 }, "2D");
    grid(2, (int[]){ 1, 1 }, "2D torus");
    grid(2, (int[]){ 1, 0 }, "2D cylinder");
    grid(3, (int[]){ 0, 1, 0 }, "3D mixed");
    grid(3, (int[]){ 1, 1, 1 }, "3D torus");

    /* a grid smaller than the communicator */
    {
        MPI_Comm cart;
        int n = np > 1 ? np - 1 : 1, newrank = -5;
        MT_OK(MPI_Cart_create(MPI_COMM_WORLD, 1, &n, (int[]){ 0 }, 1, &cart));
        MT_OK(MPI_Cart_map(MPI_COMM_WORLD, 1, &n, (int[]){ 0 }, &newrank));
        if (me < n) {
            MT_CHECK(cart != MPI_COMM_NULL && newrank == me, "rank %d: cart %s, map %d", me,
                     cart == MPI_COMM_NULL ? "null" : "ok", newrank);
            if (cart != MPI_COMM_NULL) {
                check_grid(cart, 1, &n, (int[]){ 0 }, "smaller grid");
                MT_OK(MPI_Comm_free(&cart));
            }
        } else {
            MT_CHECK(cart == MPI_COMM_NULL && newrank == MPI_UNDEFINED,
                     "rank %d: outside the grid, map %d", me, newrank);
        }
    }

    /* 0-dimensional: one process */
    {
        MPI_Comm cart;
        int size = -1, nd = -1, r = -1;
        MT_OK(MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &cart));
        if (me == 0) {
            MT_CHECK(cart != MPI_COMM_NULL, "0-dim grid: rank 0 got MPI_COMM_NULL");
            if (cart != MPI_COMM_NULL) {
                MPI_Comm_size(cart, &size);
                MT_OK(MPI_Cartdim_get(cart, &nd));
                MT_OK(MPI_Cart_rank(cart, NULL, &r));
                MT_CHECK(size == 1 && nd == 0 && r == 0, "0-dim grid: size %d ndims %d rank %d",
                         size, nd, r);
                MT_OK(MPI_Comm_free(&cart));
            }
        } else {
            MT_CHECK(cart == MPI_COMM_NULL, "0-dim grid: rank %d is in it", me);
        }
    }

    /* errors */
    {
        MPI_Comm cart;
        int big[2] = { np + 1, 1 }, per[2] = { 0, 0 }, one[2] = { np, 1 }, r, s, d;
        int co[2] = { 0, 0 };
        MT_ERRCLASS(MPI_Cart_create(MPI_COMM_WORLD, 2, big, per, 0, &cart), MPI_ERR_ARG,
                    "grid larger than the communicator");
        MT_ERRCLASS(MPI_Cart_create(MPI_COMM_WORLD, -1, big, per, 0, &cart), MPI_ERR_ARG,
                    "ndims < 0");
        MT_ERRCLASS(MPI_Cartdim_get(MPI_COMM_WORLD, &d), MPI_ERR_TOPOLOGY,
                    "Cartdim_get without a topology");
        MT_ERRCLASS(MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &s, &d), MPI_ERR_TOPOLOGY,
                    "Cart_shift without a topology");
        MT_OK(MPI_Cart_create(MPI_COMM_WORLD, 2, one, per, 0, &cart));
        MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
        co[0] = np;
        MT_ERRCLASS(MPI_Cart_rank(cart, co, &r), MPI_ERR_ARG, "coordinate past a non-periodic edge");
        co[0] = -1;
        MT_ERRCLASS(MPI_Cart_rank(cart, co, &r), MPI_ERR_ARG, "negative non-periodic coordinate");
        MT_ERRCLASS(MPI_Cart_coords(cart, np, 2, co), MPI_ERR_RANK, "Cart_coords of rank = size");
        MT_ERRCLASS(MPI_Cart_coords(cart, 0, 1, co), MPI_ERR_ARG, "Cart_coords with maxdims < ndims");
        MT_ERRCLASS(MPI_Cart_shift(cart, 2, 1, &s, &d), MPI_ERR_ARG, "Cart_shift direction = ndims");
        MT_ERRCLASS(MPI_Graphdims_get(cart, &s, &d), MPI_ERR_TOPOLOGY,
                    "Graphdims_get on a Cartesian communicator");
        MT_OK(MPI_Comm_free(&cart));
    }
    return MTest_Finalize();
}
