/*
 * coll_bcast: MPI_Bcast from every root at several sizes (empty, short,
 * around and above the scatter-allgather threshold, sizes not divisible by
 * the process count), with a contiguous type, a strided vector type (sent as
 * a vector, received as plain ints), a pair type with padding
 * (MPI_DOUBLE_INT), and on a split communicator. coll.testlist runs it once
 * more with thresholds that force the scatter + ring algorithm.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

static int val(int i, int root)
{
    return i * 3 + root * 1000 + 7;
}

static void bcast_ints(MPI_Comm comm, int n)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *buf = MTest_Malloc((size_t)n * sizeof(int) + 1);
    for (int root = 0; root < size; root++) {
        for (int i = 0; i < n; i++)
            buf[i] = rank == root ? val(i, root) : -1;
        MT_OK(MPI_Bcast(buf, n, MPI_INT, root, comm));
        for (int i = 0; i < n; i++)
            if (buf[i] != val(i, root)) {
                MT_FAIL("Bcast of %d ints from %d: element %d is %d, expected %d", n, root, i,
                        buf[i], val(i, root));
                break;
            }
    }
    free(buf);
}

/* The root sends count vectors (every other int of a 2*k array); others
 * receive count * k contiguous ints. */
static void bcast_vector(int k, int count)
{
    MPI_Datatype vec;
    MT_OK(MPI_Type_vector(k, 1, 2, MPI_INT, &vec));
    MT_OK(MPI_Type_commit(&vec));
    MPI_Aint lb, ext;
    MPI_Type_get_extent(vec, &lb, &ext);
    int n = count * k;
    size_t span = (size_t)ext * (size_t)count / sizeof(int) + 2;
    int *buf = MTest_Malloc(span * sizeof(int)), *flat = MTest_Malloc((size_t)n * sizeof(int) + 1);
    for (int root = 0; root < MTest_size; root++) {
        if (MTest_rank == root) {
            for (size_t i = 0; i < span; i++)
                buf[i] = -5;
            for (int e = 0; e < count; e++)
                for (int j = 0; j < k; j++)
                    *(int *)((char *)buf + (size_t)e * (size_t)ext + (size_t)j * 2 * sizeof(int)) =
                        val(e * k + j, root);
            MT_OK(MPI_Bcast(buf, count, vec, root, MPI_COMM_WORLD));
        } else {
            memset(flat, 0, (size_t)n * sizeof(int));
            MT_OK(MPI_Bcast(flat, n, MPI_INT, root, MPI_COMM_WORLD));
            for (int i = 0; i < n; i++)
                if (flat[i] != val(i, root)) {
                    MT_FAIL("vector Bcast from %d: int %d is %d, expected %d", root, i, flat[i],
                            val(i, root));
                    break;
                }
        }
    }
    /* And vector to vector: the gaps stay untouched. */
    for (size_t i = 0; i < span; i++)
        buf[i] = MTest_rank == 0 ? (int)i : -5;
    MT_OK(MPI_Bcast(buf, count, vec, 0, MPI_COMM_WORLD));
    for (int e = 0; e < count; e++)
        for (int j = 0; j < 2 * k - 1; j++) {
            size_t idx = ((size_t)e * (size_t)ext) / sizeof(int) + (size_t)j;
            int want = (j % 2 == 0 || MTest_rank == 0) ? (int)idx : -5;
            if (buf[idx] != want) {
                MT_FAIL("vector to vector Bcast: int %zu is %d, expected %d", idx, buf[idx], want);
                e = count;
                break;
            }
        }
    free(buf);
    free(flat);
    MT_OK(MPI_Type_free(&vec));
}

static void bcast_double_int(int n)
{
    struct { double v; int i; } *p = MTest_Malloc((size_t)n * sizeof(*p) + 1);
    for (int root = 0; root < MTest_size; root++) {
        for (int i = 0; i < n; i++) {
            p[i].v = MTest_rank == root ? i * 0.5 + root : -1;
            p[i].i = MTest_rank == root ? i - root : -1;
        }
        MT_OK(MPI_Bcast(p, n, MPI_DOUBLE_INT, root, MPI_COMM_WORLD));
        for (int i = 0; i < n; i++)
            if (p[i].v != i * 0.5 + root || p[i].i != i - root) {
                MT_FAIL("MPI_DOUBLE_INT Bcast from %d: element %d wrong", root, i);
                break;
            }
    }
    free(p);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    const int sizes[] = { 0, 1, 5, 257, 3001, 3072, 40001 };
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
        bcast_ints(MPI_COMM_WORLD, sizes[s]);
    MPI_Comm half;
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, MTest_rank % 2, -MTest_rank, &half));
    bcast_ints(half, 1001);
    bcast_ints(half, 20000);
    MT_OK(MPI_Comm_free(&half));
    bcast_ints(MPI_COMM_SELF, 100);
    bcast_vector(3, 1);
    bcast_vector(5, 999);
    bcast_double_int(7);
    bcast_double_int(2000);
    return MTest_Finalize();
}
