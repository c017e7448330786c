/*
 * coll_allgather: MPI_Allgather and MPI_Allgatherv at several block sizes
 * (recursive doubling / Bruck for short data, ring for long), MPI_IN_PLACE,
 * uneven v counts with zeros and gaps, a strided receive type, and on the
 * row / column communicators of a Comm_split.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

static int val(int rank, int i)
{
    return rank * 100003 + i * 3 + 1;
}

static void allgather(MPI_Comm comm, int n)
{
    int me, size;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &size);
    int *mine = MTest_Malloc((size_t)n * sizeof(int) + 1);
    int *all = MTest_Malloc((size_t)n * (size_t)size * sizeof(int) + 1);
    for (int inplace = 0; inplace < 2; inplace++) {
        for (int i = 0; i < n; i++)
            mine[i] = val(me, i);
        for (int i = 0; i < n * size; i++)
            all[i] = inplace && i / n == me ? val(me, i % n) : -1;
        MT_OK(MPI_Allgather(inplace ? MPI_IN_PLACE : mine, n, MPI_INT, all, n, MPI_INT, comm));
        for (int i = 0; i < n * size; i++)
            if (all[i] != val(i / n, i % n)) {
                MT_FAIL("Allgather n=%d size=%d inplace=%d: %d is %d", n, size, inplace, i,
                        all[i]);
                break;
            }
    }
    free(mine);
    free(all);
}

static void allgatherv(void)
{
    int size = MTest_size, me = MTest_rank;
    int *counts = MTest_Malloc((size_t)size * sizeof(int)), *displs = MTest_Malloc((size_t)size * sizeof(int));
    int total = 0;
    for (int r = 0; r < size; r++) {
        counts[r] = r % 3 == 1 ? 0 : r * 50 + 3;
        displs[r] = total + 2;
        total += counts[r] + 3;
    }
    int *all = MTest_Malloc((size_t)total * sizeof(int)), *mine = MTest_Malloc((size_t)counts[me] * sizeof(int) + 1);
    for (int inplace = 0; inplace < 2; inplace++) {
        for (int i = 0; i < total; i++)
            all[i] = -1;
        for (int i = 0; i < counts[me]; i++) {
            mine[i] = val(me, i);
            if (inplace)
                all[displs[me] + i] = mine[i];
        }
        MT_OK(MPI_Allgatherv(inplace ? MPI_IN_PLACE : mine, counts[me], MPI_INT, all, counts,
                             displs, MPI_INT, MPI_COMM_WORLD));
        for (int r = 0; r < size; r++) {
            for (int i = 0; i < counts[r]; i++)
                if (all[displs[r] + i] != val(r, i)) {
                    MT_FAIL("Allgatherv inplace=%d: rank %d element %d is %d", inplace, r, i,
                            all[displs[r] + i]);
                    break;
                }
            MT_CHECK(all[displs[r] - 1] == -1, "Allgatherv wrote into a gap");
        }
    }
    free(all);
    free(mine);
    free(counts);
    free(displs);
}

/* Each rank sends k ints; the receive type puts rank r's ints at r, r + size,
 * r + 2 * size... (a vector resized to one int). */
static void allgather_strided(int k)
{
    int size = MTest_size, me = MTest_rank;
    MPI_Datatype vec, rvec;
    MT_OK(MPI_Type_vector(k, 1, size, MPI_INT, &vec));
    MT_OK(MPI_Type_create_resized(vec, 0, sizeof(int), &rvec));
    MT_OK(MPI_Type_commit(&rvec));
    int *mine = MTest_Malloc((size_t)k * sizeof(int)), *all = MTest_Malloc((size_t)k * (size_t)size * sizeof(int));
    for (int i = 0; i < k; i++)
        mine[i] = val(me, i);
    MT_OK(MPI_Allgather(mine, k, MPI_INT, all, 1, rvec, MPI_COMM_WORLD));
    for (int i = 0; i < k * size; i++)
        if (all[i] != val(i % size, i / size)) {
            MT_FAIL("strided Allgather k=%d: %d is %d", k, i, all[i]);
            break;
        }
    /* in place with the strided type */
    for (int i = 0; i < k * size; i++)
        all[i] = i % size == me ? val(me, i / size) : -1;
    MT_OK(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, rvec, MPI_COMM_WORLD));
    for (int i = 0; i < k * size; i++)
        if (all[i] != val(i % size, i / size)) {
            MT_FAIL("strided in-place Allgather k=%d: %d is %d", k, i, all[i]);
            break;
        }
    MT_OK(MPI_Type_free(&vec));
    MT_OK(MPI_Type_free(&rvec));
    free(mine);
    free(all);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    const int sizes[] = { 1, 7, 300, 20000 };
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
        allgather(MPI_COMM_WORLD, sizes[s]);
    /* rows of two ranks and columns */
    MPI_Comm row, col;
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, MTest_rank / 2, MTest_rank, &row));
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, MTest_rank % 2, MTest_rank, &col));
    allgather(row, 33);
    allgather(col, 33);
    allgather(col, 5000);
    MT_OK(MPI_Comm_free(&row));
    MT_OK(MPI_Comm_free(&col));
    allgatherv();
    allgather_strided(1);
    allgather_strided(1000);
    return MTest_Finalize();
}
