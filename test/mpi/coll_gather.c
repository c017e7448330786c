/*
 * coll_gather: MPI_Gather, MPI_Gatherv, MPI_Scatter, MPI_Scatterv from every
 * root, short (binomial tree) and long (direct) blocks, MPI_IN_PLACE at the
 * root, uneven v counts with gaps and zero counts, and different send and
 * receive types (ints sent, a strided vector of ints received).
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

static int val(int rank, int i, int root)
{
    return rank * 10000 + i * 7 + root;
}

static void gather_scatter(int n)
{
    int size = MTest_size, me = MTest_rank;
    int *mine = MTest_Malloc((size_t)n * sizeof(int) + 1);
    int *all = MTest_Malloc((size_t)n * (size_t)size * sizeof(int) + 1);
    for (int root = 0; root < size; root++) {
        for (int inplace = 0; inplace < 2; inplace++) {
            /* gather */
            for (int i = 0; i < n; i++)
                mine[i] = val(me, i, root);
            for (int i = 0; i < n * size; i++)
                all[i] = inplace && i / (n ? n : 1) == me ? val(me, i % n, root) : -1;
            const void *sb = inplace && me == root ? MPI_IN_PLACE : mine;
            MT_OK(MPI_Gather(sb, n, MPI_INT, all, n, MPI_INT, root, MPI_COMM_WORLD));
            if (me == root)
                for (int i = 0; i < n * size; i++)
                    if (all[i] != val(i / n, i % n, root)) {
                        MT_FAIL("Gather n=%d root=%d inplace=%d: %d is %d", n, root, inplace, i,
                                all[i]);
                        break;
                    }
            /* scatter */
            for (int i = 0; i < n * size; i++)
                all[i] = me == root ? val(i / n, i % n, root) + 1 : -1;
            for (int i = 0; i < n; i++)
                mine[i] = -1;
            void *rb = inplace && me == root ? MPI_IN_PLACE : mine;
            MT_OK(MPI_Scatter(all, n, MPI_INT, rb, n, MPI_INT, root, MPI_COMM_WORLD));
            if (!(inplace && me == root))
                for (int i = 0; i < n; i++)
                    if (mine[i] != val(me, i, root) + 1) {
                        MT_FAIL("Scatter n=%d root=%d inplace=%d: %d is %d", n, root, inplace, i,
                                mine[i]);
                        break;
                    }
        }
    }
    free(mine);
    free(all);
}

/* Rank r contributes (r * 3 + 1) % 4 ints (some zero) at gapped displacements. */
static void gatherv_scatterv(void)
{
    int size = MTest_size, me = MTest_rank;
    int *counts = MTest_Malloc((size_t)size * sizeof(int)), *displs = MTest_Malloc((size_t)size * sizeof(int));
    int total = 0;
    for (int r = 0; r < size; r++) {
        counts[r] = (r * 3 + 1) % 4;
        displs[r] = total + 1;
        total += counts[r] + 2;
    }
    int *all = MTest_Malloc((size_t)total * sizeof(int) + 1), mine[4];
    for (int root = 0; root < size; root++) {
        for (int inplace = 0; inplace < 2; inplace++) {
            for (int i = 0; i < total; i++)
                all[i] = -1;
            for (int i = 0; i < counts[me]; i++) {
                mine[i] = val(me, i, root);
                if (inplace)
                    all[displs[me] + i] = mine[i];
            }
            const void *sb = inplace && me == root ? MPI_IN_PLACE : mine;
            MT_OK(MPI_Gatherv(sb, counts[me], MPI_INT, all, counts, displs, MPI_INT, root,
                              MPI_COMM_WORLD));
            if (me == root) {
                for (int r = 0; r < size; r++) {
                    for (int i = 0; i < counts[r]; i++)
                        MT_CHECK(all[displs[r] + i] == val(r, i, root),
                                 "Gatherv root %d: rank %d element %d is %d", root, r, i,
                                 all[displs[r] + i]);
                    MT_CHECK(all[displs[r] - 1] == -1, "Gatherv wrote into a gap");
                }
            }
            for (int r = 0; r < size; r++)
                for (int i = 0; i < counts[r]; i++)
                    all[displs[r] + i] = me == root ? val(r, i, root) + 5 : -1;
            for (int i = 0; i < 4; i++)
                mine[i] = -1;
            void *rb = inplace && me == root ? MPI_IN_PLACE : mine;
            MT_OK(MPI_Scatterv(all, counts, displs, MPI_INT, rb, counts[me], MPI_INT, root,
                               MPI_COMM_WORLD));
            if (!(inplace && me == root)) {
                for (int i = 0; i < counts[me]; i++)
                    MT_CHECK(mine[i] == val(me, i, root) + 5, "Scatterv root %d: %d is %d", root,
                             i, mine[i]);
                for (int i = counts[me]; i < 4; i++)
                    MT_CHECK(mine[i] == -1, "Scatterv wrote past the count");
            }
        }
    }
    free(all);
    free(counts);
    free(displs);
}

/* Send k ints, receive one vector of k ints spaced by 3 per rank (resized so
 * that consecutive ranks' blocks interleave). */
static void gather_vector_type(int k)
{
    int size = MTest_size, me = MTest_rank;
    MPI_Datatype vec, rvec;
    MT_OK(MPI_Type_vector(k, 1, size, MPI_INT, &vec));
    MT_OK(MPI_Type_create_resized(vec, 0, sizeof(int), &rvec));
    MT_OK(MPI_Type_commit(&rvec));
    int *mine = MTest_Malloc((size_t)k * sizeof(int)), *all = MTest_Malloc((size_t)k * (size_t)size * sizeof(int));
    for (int i = 0; i < k; i++)
        mine[i] = val(me, i, 0);
    for (int i = 0; i < k * size; i++)
        all[i] = -1;
    /* all[i * size + r] = rank r's element i: a transpose */
    MT_OK(MPI_Gather(mine, k, MPI_INT, all, 1, rvec, 0, MPI_COMM_WORLD));
    if (me == 0)
        for (int i = 0; i < k * size; i++)
            if (all[i] != val(i % size, i / size, 0)) {
                MT_FAIL("Gather into a vector type: %d is %d, expected %d", i, all[i],
                        val(i % size, i / size, 0));
                break;
            }
    for (int i = 0; i < k; i++)
        mine[i] = -1;
    MT_OK(MPI_Scatter(all, 1, rvec, mine, k, MPI_INT, 0, MPI_COMM_WORLD));
    for (int i = 0; i < k; i++)
        MT_CHECK(mine[i] == val(me, i, 0), "Scatter from a vector type: %d is %d", i, mine[i]);
    MT_OK(MPI_Type_free(&vec));
    MT_OK(MPI_Type_free(&rvec));
    free(mine);
    free(all);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    const int sizes[] = { 0, 1, 3, 100, 5000 };
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
        gather_scatter(sizes[s]);
    gatherv_scatterv();
    gather_vector_type(1);
    gather_vector_type(333);
    return MTest_Finalize();
}
