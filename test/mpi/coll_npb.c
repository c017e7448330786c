/*
 * coll_npb: collectives the way the NAS Parallel Benchmarks use them.
 * - CG / MG style: a process grid from Comm_split into rows and columns, an
 *   MPI_SUM allreduce of doubles on each row and each column, then a global
 *   allreduce (dot products, norms) and MAX / MIN of timers.
 * - FT style: a distributed 2-D transpose by MPI_Alltoall of MPI_DOUBLE_COMPLEX
 *   (and MPI_C_DOUBLE_COMPLEX), checked element by element.
 * - IS style: key counts by MPI_Alltoall, then the keys by MPI_Alltoallv with
 *   uneven counts, and MPI_Reduce of the bucket sizes.
 * - Parameters by MPI_Bcast, phases separated by MPI_Barrier.
 */
#include "mtest.h"

#include <complex.h>
#include <stdlib.h>
#include <string.h>

static void grid(void)
{
    int size = MTest_size, me = MTest_rank;
    int ncols = size >= 4 ? 2 : 1;
    int row = me / ncols, col = me % ncols;
    MPI_Comm rowc, colc;
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, row, col, &rowc));
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, col, row, &colc));
    enum { N = 1234 };
    double *v = MTest_Malloc(N * sizeof(double)), *w = MTest_Malloc(N * sizeof(double));
    for (int i = 0; i < N; i++)
        v[i] = me + i * 0.25;
    MT_OK(MPI_Allreduce(v, w, N, MPI_DOUBLE, MPI_SUM, rowc));
    for (int i = 0; i < N; i++) {
        double want = 0;
        for (int r = 0; r < size; r++)
            if (r / ncols == row)
                want += r + i * 0.25;
        if (w[i] != want) {
            MT_FAIL("row allreduce: %d is %g, expected %g", i, w[i], want);
            break;
        }
    }
    MT_OK(MPI_Allreduce(v, w, N, MPI_DOUBLE, MPI_SUM, colc));
    for (int i = 0; i < N; i++) {
        double want = 0;
        for (int r = 0; r < size; r++)
            if (r % ncols == col)
                want += r + i * 0.25;
        if (w[i] != want) {
            MT_FAIL("column allreduce: %d is %g, expected %g", i, w[i], want);
            break;
        }
    }
    /* dot product and norm */
    double dot = 0, norm[2], gnorm[2];
    for (int i = 0; i < N; i++)
        dot += v[i];
    double gdot;
    MT_OK(MPI_Allreduce(&dot, &gdot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    double want = 0;
    for (int r = 0; r < size; r++)
        for (int i = 0; i < N; i++)
            want += r + i * 0.25;
    MT_CHECK(gdot == want, "global dot %g, expected %g", gdot, want);
    norm[0] = me * 1.5;
    norm[1] = -me * 1.5;
    MT_OK(MPI_Allreduce(norm, gnorm, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    MT_CHECK(gnorm[0] == (size - 1) * 1.5 && gnorm[1] == 0, "MAX of timers wrong");
    MT_OK(MPI_Reduce(norm, gnorm, 2, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD));
    if (me == 0)
        MT_CHECK(gnorm[0] == 0 && gnorm[1] == -(size - 1) * 1.5, "MIN of timers wrong");
    MT_OK(MPI_Comm_free(&rowc));
    MT_OK(MPI_Comm_free(&colc));
    free(v);
    free(w);
}

/* Global matrix NR x NC of complex, rows distributed in blocks; transposed
 * into columns distributed in blocks, as FT does between its 1-D FFTs. */
static void transpose(MPI_Datatype type)
{
    int size = MTest_size, me = MTest_rank;
    int nr = 6 * size, nc = 4 * size, rb = nr / size, cb = nc / size;
    double _Complex *a = MTest_Malloc((size_t)rb * nc * sizeof(double _Complex));
    double _Complex *send = MTest_Malloc((size_t)rb * nc * sizeof(double _Complex));
    double _Complex *recv = MTest_Malloc((size_t)rb * nc * sizeof(double _Complex));
    for (int i = 0; i < rb; i++)
        for (int j = 0; j < nc; j++)
            a[i * nc + j] = (me * rb + i) + 1000.0 * j * I;
    /* pack: block for rank p holds my rows x its columns */
    for (int p = 0; p < size; p++)
        for (int i = 0; i < rb; i++)
            for (int j = 0; j < cb; j++)
                send[(p * rb + i) * cb + j] = a[i * nc + p * cb + j];
    MT_OK(MPI_Alltoall(send, rb * cb, type, recv, rb * cb, type, MPI_COMM_WORLD));
    /* recv block q: rows of rank q x my columns; element (global row, my col) */
    for (int q = 0; q < size; q++)
        for (int i = 0; i < rb; i++)
            for (int j = 0; j < cb; j++) {
                double _Complex got = recv[(q * rb + i) * cb + j];
                double _Complex want = (q * rb + i) + 1000.0 * (me * cb + j) * I;
                if (got != want) {
                    MT_FAIL("transpose: block %d (%d,%d) is %g%+gi, expected %g%+gi", q, i, j,
                            creal(got), cimag(got), creal(want), cimag(want));
                    q = size;
                    i = rb;
                    break;
                }
            }
    free(a);
    free(send);
    free(recv);
}

static void bucket_sort(void)
{
    int size = MTest_size, me = MTest_rank;
    int nkeys = 1000 + me * 37;
    int *keys = MTest_Malloc((size_t)nkeys * sizeof(int));
    int maxkey = 1 << 12;
    for (int i = 0; i < nkeys; i++)
        keys[i] = (i * 2654435761u + (unsigned)me * 97u) % (unsigned)maxkey;
    /* bucket p holds keys in [p * maxkey / size, (p + 1) * maxkey / size) */
    int *scount = calloc((size_t)size, sizeof(int)), *rcount = MTest_Malloc((size_t)size * sizeof(int));
    int *sdispl = MTest_Malloc((size_t)size * sizeof(int)), *rdispl = MTest_Malloc((size_t)size * sizeof(int));
    for (int i = 0; i < nkeys; i++)
        scount[(long)keys[i] * size / maxkey]++;
    MT_OK(MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, MPI_COMM_WORLD));
    int stot = 0, rtot = 0;
    for (int p = 0; p < size; p++) {
        sdispl[p] = stot;
        stot += scount[p];
        rdispl[p] = rtot;
        rtot += rcount[p];
    }
    int *sorted = MTest_Malloc((size_t)nkeys * sizeof(int)), *fill = calloc((size_t)size, sizeof(int));
    for (int i = 0; i < nkeys; i++) {
        int b = (int)((long)keys[i] * size / maxkey);
        sorted[sdispl[b] + fill[b]++] = keys[i];
    }
    int *mine = MTest_Malloc((size_t)rtot * sizeof(int) + 1);
    MT_OK(MPI_Alltoallv(sorted, scount, sdispl, MPI_INT, mine, rcount, rdispl, MPI_INT,
                        MPI_COMM_WORLD));
    for (int i = 0; i < rtot; i++)
        if ((long)mine[i] * size / maxkey != me) {
            MT_FAIL("key %d = %d is not in my bucket", i, mine[i]);
            break;
        }
    /* every key arrived: the bucket sizes add up */
    int total = 0, all = 0;
    MT_OK(MPI_Reduce(&rtot, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
    MT_OK(MPI_Reduce(&nkeys, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
    if (me == 0)
        MT_CHECK(total == all, "%d keys received, %d sent", total, all);
    free(keys);
    free(scount);
    free(rcount);
    free(sdispl);
    free(rdispl);
    free(sorted);
    free(fill);
    free(mine);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int params[3] = { 0, 0, 0 };
    if (MTest_rank == 0) {
        params[0] = 75;
        params[1] = 3;
        params[2] = 1;
    }
    MT_OK(MPI_Bcast(params, 3, MPI_INT, 0, MPI_COMM_WORLD));
    MT_CHECK(params[0] == 75 && params[1] == 3 && params[2] == 1, "Bcast of parameters");
    for (int it = 0; it < params[1]; it++) {
        grid();
        MT_OK(MPI_Barrier(MPI_COMM_WORLD));
        transpose(MPI_DOUBLE_COMPLEX);
        transpose(MPI_C_DOUBLE_COMPLEX);
        MT_OK(MPI_Barrier(MPI_COMM_WORLD));
        bucket_sort();
    }
    return MTest_Finalize();
}
