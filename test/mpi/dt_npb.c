/*
 * dt_npb: datatype uses shaped like NPB's and other stencil codes'.
 * - A Fortran-order 3-D array u(0:nx+1, 0:ny+1, 0:nz+1) of doubles split
 *   along z over a ring of processes: each sends its first and last interior
 *   z-planes and receives them into its ghost planes, with Fortran-order
 *   subarrays; and the x-faces (strided in every dimension) to self through
 *   a subarray on both sides.
 * - A struct of (int key, double value[3]) records exchanged as a count of a
 *   contiguous type of that struct, as NPB's DT/IS-style record exchange.
 * - A darray scatter: rank 0 sends each rank its block-cyclic part of a
 *   global C-order array; the receiver checks every element's global index.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

#define NX 12
#define NY 9
#define NZ 6

static int right, left;

/* Global value of the interior point (i, j, k) on rank r. */
static double gval(int i, int j, int k, int r) { return i + 100.0 * j + 10000.0 * k + 1e6 * r; }

#define U(a, i, j, k) (a)[(i) + (NX + 2) * ((j) + (NY + 2) * (size_t)(k))]

static MPI_Datatype plane(int start_z)
{
    int sizes[3] = { NX + 2, NY + 2, NZ + 2 }, subs[3] = { NX, NY, 1 }, starts[3] = { 1, 1, start_z };
    MPI_Datatype t;
    MT_OK(MPI_Type_create_subarray(3, sizes, subs, starts, MPI_ORDER_FORTRAN, MPI_DOUBLE, &t));
    MT_OK(MPI_Type_commit(&t));
    return t;
}

static void halo(void)
{
    size_t n = (size_t)(NX + 2) * (NY + 2) * (NZ + 2);
    double *u = MTest_Malloc(n * sizeof(double));
    for (size_t i = 0; i < n; i++)
        u[i] = -1;
    for (int k = 1; k <= NZ; k++)
        for (int j = 1; j <= NY; j++)
            for (int i = 1; i <= NX; i++)
                U(u, i, j, k) = gval(i, j, k, MTest_rank);
    MPI_Datatype first = plane(1), last = plane(NZ), ghost_lo = plane(0), ghost_hi = plane(NZ + 1);
    /* my last plane goes right, into its low ghost; my first goes left */
    MT_OK(MPI_Sendrecv(u, 1, last, right, 10, u, 1, ghost_lo, left, 10, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    MT_OK(MPI_Sendrecv(u, 1, first, left, 11, u, 1, ghost_hi, right, 11, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    int bad = 0;
    for (int j = 0; j <= NY + 1; j++)
        for (int i = 0; i <= NX + 1; i++) {
            int inner = i >= 1 && i <= NX && j >= 1 && j <= NY;
            double lo = inner ? gval(i, j, NZ, left) : -1, hi = inner ? gval(i, j, 1, right) : -1;
            if (U(u, i, j, 0) != lo || U(u, i, j, NZ + 1) != hi)
                bad++;
        }
    MT_CHECK(bad == 0, "halo: %d ghost points wrong", bad);

    /* x-faces: the plane i = NX copied into the ghost plane i = 0 (to self) */
    int sizes[3] = { NX + 2, NY + 2, NZ + 2 }, subs[3] = { 1, NY, NZ };
    int s_from[3] = { NX, 1, 1 }, s_to[3] = { 0, 1, 1 };
    MPI_Datatype from, to;
    MT_OK(MPI_Type_create_subarray(3, sizes, subs, s_from, MPI_ORDER_FORTRAN, MPI_DOUBLE, &from));
    MT_OK(MPI_Type_create_subarray(3, sizes, subs, s_to, MPI_ORDER_FORTRAN, MPI_DOUBLE, &to));
    MT_OK(MPI_Type_commit(&from));
    MT_OK(MPI_Type_commit(&to));
    MPI_Status st;
    int count;
    MT_OK(MPI_Sendrecv(u, 1, from, 0, 12, u, 1, to, 0, 12, MPI_COMM_SELF, &st));
    MT_OK(MPI_Get_count(&st, MPI_DOUBLE, &count));
    MT_CHECK(count == NY * NZ, "x-face: Get_count %d, expected %d", count, NY * NZ);
    bad = 0;
    for (int k = 1; k <= NZ; k++)
        for (int j = 1; j <= NY; j++)
            bad += U(u, 0, j, k) != gval(NX, j, k, MTest_rank);
    MT_CHECK(bad == 0, "x-face: %d points wrong", bad);
    MPI_Datatype all[] = { first, last, ghost_lo, ghost_hi, from, to };
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        MT_OK(MPI_Type_free(&all[i]));
    free(u);
}

struct rec { int key; double v[3]; };

static void records(int n)
{
    int bl[2] = { 1, 3 };
    MPI_Aint d[2] = { offsetof(struct rec, key), offsetof(struct rec, v) };
    MPI_Datatype t[2] = { MPI_INT, MPI_DOUBLE }, rt, block;
    MT_OK(MPI_Type_create_struct(2, bl, d, t, &rt));
    MT_OK(MPI_Type_contiguous(4, rt, &block));
    MT_OK(MPI_Type_commit(&block));
    MT_OK(MPI_Type_free(&rt)); /* block keeps it */
    struct rec *s = MTest_Malloc(sizeof(*s) * 4 * (size_t)n), *r = MTest_Malloc(sizeof(*r) * 4 * (size_t)n);
    for (int i = 0; i < 4 * n; i++) {
        s[i].key = i ^ MTest_rank;
        for (int k = 0; k < 3; k++)
            s[i].v[k] = i * 3 + k + 0.25 * MTest_rank;
    }
    memset(r, 0, sizeof(*r) * 4 * (size_t)n);
    MPI_Status st;
    MT_OK(MPI_Sendrecv(s, n, block, right, 13, r, n, block, left, 13, MPI_COMM_WORLD, &st));
    int count;
    MT_OK(MPI_Get_count(&st, block, &count));
    MT_CHECK(count == n, "records: Get_count %d, expected %d", count, n);
    int bad = 0;
    for (int i = 0; i < 4 * n; i++) {
        bad += r[i].key != (i ^ left);
        for (int k = 0; k < 3; k++)
            bad += r[i].v[k] != i * 3 + k + 0.25 * left;
    }
    MT_CHECK(bad == 0, "records n=%d: %d values wrong", n, bad);
    MT_OK(MPI_Type_free(&block));
    free(s);
    free(r);
}

/* Owner coordinate of index x in a dimension. */
static int owner(int x, int g, int dist, int darg, int p)
{
    if (dist == MPI_DISTRIBUTE_BLOCK)
        return x / (darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg);
    return (x / (darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg)) % p;
}

static void darray(void)
{
    int np = MTest_size;
    int p[2] = { np >= 4 ? 2 : 1, np >= 4 ? np / 2 : np };
    if (p[0] * p[1] != np)
        return;
    int g[2] = { 10, 13 }, dist[2] = { MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK };
    int darg[2] = { 2, MPI_DISTRIBUTE_DFLT_DARG };
    int total = g[0] * g[1];
    int *mine = MTest_Malloc(sizeof(int) * (size_t)total);
    MPI_Request rq;
    MT_OK(MPI_Irecv(mine, total, MPI_INT, 0, 14, MPI_COMM_WORLD, &rq));
    if (MTest_rank == 0) {
        int *glob = MTest_Malloc(sizeof(int) * (size_t)total);
        for (int i = 0; i < total; i++)
            glob[i] = i;
        for (int r = 0; r < np; r++) {
            MPI_Datatype t;
            MT_OK(MPI_Type_create_darray(np, r, 2, g, dist, darg, p, MPI_ORDER_C, MPI_INT, &t));
            MT_OK(MPI_Type_commit(&t));
            MPI_Aint lb, ext;
            MT_OK(MPI_Type_get_extent(t, &lb, &ext));
            MT_CHECK(lb == 0 && ext == (MPI_Aint)(total * sizeof(int)), "darray extent %ld", (long)ext);
            MT_OK(MPI_Send(glob, 1, t, r, 14, MPI_COMM_WORLD));
            MT_OK(MPI_Type_free(&t));
        }
        free(glob);
    }
    MPI_Status st;
    MT_OK(MPI_Wait(&rq, &st));
    int got;
    MT_OK(MPI_Get_count(&st, MPI_INT, &got));
    int c0 = MTest_rank / p[1], c1 = MTest_rank % p[1], k = 0, bad = 0;
    for (int i = 0; i < g[0]; i++)
        for (int j = 0; j < g[1]; j++)
            if (owner(i, g[0], dist[0], darg[0], p[0]) == c0 &&
                owner(j, g[1], dist[1], darg[1], p[1]) == c1) {
                if (k >= got || mine[k] != i * g[1] + j)
                    bad++;
                k++;
            }
    MT_CHECK(k == got && bad == 0, "darray: got %d elements, expected %d, %d wrong", got, k, bad);
    free(mine);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    right = (MTest_rank + 1) % MTest_size;
    left = (MTest_rank + MTest_size - 1) % MTest_size;
    halo();
    records(3);
    records(20000);
    darray();
    return MTest_Finalize();
}
