/*
 * coll_reduce: MPI_Reduce (every root), MPI_Allreduce, MPI_Reduce_scatter,
 * MPI_Reduce_scatter_block, MPI_Scan and MPI_Exscan with MPI_SUM and MPI_MAX
 * at several counts (so every allreduce / reduce-scatter algorithm runs),
 * each also with MPI_IN_PLACE, and with derived datatypes: a strided vector
 * of ints with MPI_SUM, and MPI_DOUBLE_INT (padded) with MPI_MINLOC.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

/* MPICH 4.0.2 rejects predefined operations on derived datatypes (MPI_ERR_OP)
 * and crashes in MPI_Reduce with MPI_IN_PLACE at the root from about 700
 * ints on (np >= 2); those cases run on rdmpi only. */
#ifdef RDMPI
#define RDMPI_ONLY 1
#else
#define RDMPI_ONLY 0
#endif

static int in(int rank, int i)
{
    return (rank * 7 + i * 13) % 101 - 50;
}

/* Sum or max of in(r, i) over ranks lo..hi-1. */
static int ref(MPI_Op op, int lo, int hi, int i)
{
    int v = in(lo, i);
    for (int r = lo + 1; r < hi; r++)
        v = op == MPI_SUM ? v + in(r, i) : (in(r, i) > v ? in(r, i) : v);
    return v;
}

static int check(const int *buf, int n, MPI_Op op, int lo, int hi, const char *what, int off)
{
    for (int i = 0; i < n; i++)
        if (buf[i] != ref(op, lo, hi, i + off)) {
            MT_FAIL("%s n=%d: element %d is %d, expected %d", what, n, i, buf[i],
                    ref(op, lo, hi, i + off));
            return 0;
        }
    return 1;
}

static void reductions(int n, MPI_Op op)
{
    int size = MTest_size, me = MTest_rank;
    int *s = MTest_Malloc((size_t)n * (size_t)size * sizeof(int) + 1);
    int *r = MTest_Malloc((size_t)n * (size_t)size * sizeof(int) + 1);
    for (int inplace = 0; inplace < 2; inplace++) {
        for (int root = 0; root < size && (RDMPI_ONLY || !inplace || n < 700); root++) {
            int *sb = inplace && me == root ? r : s;
            for (int i = 0; i < n; i++)
                sb[i] = in(me, i);
            MT_OK(MPI_Reduce(inplace && me == root ? MPI_IN_PLACE : s, r, n, MPI_INT, op, root,
                             MPI_COMM_WORLD));
            if (me == root)
                check(r, n, op, 0, size, inplace ? "Reduce in place" : "Reduce", 0);
        }
        int *sb = inplace ? r : s;
        const void *sarg = inplace ? MPI_IN_PLACE : s;
        for (int i = 0; i < n; i++)
            sb[i] = in(me, i);
        MT_OK(MPI_Allreduce(sarg, r, n, MPI_INT, op, MPI_COMM_WORLD));
        check(r, n, op, 0, size, inplace ? "Allreduce in place" : "Allreduce", 0);

        for (int i = 0; i < n; i++)
            sb[i] = in(me, i);
        MT_OK(MPI_Scan(sarg, r, n, MPI_INT, op, MPI_COMM_WORLD));
        check(r, n, op, 0, me + 1, inplace ? "Scan in place" : "Scan", 0);

        for (int i = 0; i < n; i++)
            sb[i] = in(me, i);
        MT_OK(MPI_Exscan(sarg, r, n, MPI_INT, op, MPI_COMM_WORLD));
        if (me > 0)
            check(r, n, op, 0, me, inplace ? "Exscan in place" : "Exscan", 0);

        /* reduce-scatter-block: block b is elements [b*n, (b+1)*n) */
        for (int i = 0; i < n * size; i++)
            sb[i] = in(me, i);
        MT_OK(MPI_Reduce_scatter_block(sarg, r, n, MPI_INT, op, MPI_COMM_WORLD));
        check(r, n, op, 0, size, inplace ? "Reduce_scatter_block in place" : "Reduce_scatter_block",
              me * n);

        /* reduce-scatter with uneven counts (rank k gets (k % 3) * n / 2 + k) */
        int *counts = MTest_Malloc((size_t)size * sizeof(int)), total = 0, off = 0;
        for (int k = 0; k < size; k++) {
            counts[k] = (k % 3) * n / 2 + k;
            if (k < me)
                off += counts[k];
            total += counts[k];
        }
        if (total <= n * size) {
            for (int i = 0; i < total; i++)
                sb[i] = in(me, i);
            MT_OK(MPI_Reduce_scatter(sarg, r, counts, MPI_INT, op, MPI_COMM_WORLD));
            check(r, counts[me], op, 0, size,
                  inplace ? "Reduce_scatter in place" : "Reduce_scatter", off);
        }
        free(counts);
    }
    free(s);
    free(r);
}

/* MPI_SUM over a vector of k ints with stride 2 (count elements). */
static void vector_sum(int k, int count)
{
    MPI_Datatype vec;
    MT_OK(MPI_Type_vector(k, 1, 2, MPI_INT, &vec));
    MT_OK(MPI_Type_commit(&vec));
    MPI_Aint lb, ext;
    MPI_Type_get_extent(vec, &lb, &ext);
    size_t ints = (size_t)ext / sizeof(int) * (size_t)count;
    int *s = MTest_Malloc(ints * sizeof(int)), *r = MTest_Malloc(ints * sizeof(int));
    for (size_t i = 0; i < ints; i++) {
        s[i] = in(MTest_rank, (int)i);
        r[i] = -7;
    }
    MT_OK(MPI_Allreduce(s, r, count, vec, MPI_SUM, MPI_COMM_WORLD));
    for (size_t i = 0; i < ints; i++) {
        int inside = (i % ((size_t)ext / sizeof(int))) % 2 == 0;
        int want = inside ? ref(MPI_SUM, 0, MTest_size, (int)i) : -7;
        if (r[i] != want) {
            MT_FAIL("vector Allreduce k=%d count=%d: int %zu is %d, expected %d", k, count, i,
                    r[i], want);
            break;
        }
    }
    for (size_t i = 0; i < ints; i++)
        r[i] = -7;
    MT_OK(MPI_Scan(s, r, count, vec, MPI_SUM, MPI_COMM_WORLD));
    for (size_t i = 0; i < ints; i++)
        if ((i % ((size_t)ext / sizeof(int))) % 2 == 0 && r[i] != ref(MPI_SUM, 0, MTest_rank + 1, (int)i)) {
            MT_FAIL("vector Scan: int %zu is %d", i, r[i]);
            break;
        }
    MT_OK(MPI_Type_free(&vec));
    free(s);
    free(r);
}

static void double_int_minloc(int n)
{
    struct { double v; int i; } *s = MTest_Malloc((size_t)n * sizeof(*s)), *r = MTest_Malloc((size_t)n * sizeof(*s));
    for (int i = 0; i < n; i++) {
        s[i].v = (MTest_rank * 3 + i) % 4;
        s[i].i = MTest_rank;
    }
    MT_OK(MPI_Allreduce(s, r, n, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD));
    for (int i = 0; i < n; i++) {
        double best = 1e9;
        int at = -1;
        for (int k = 0; k < MTest_size; k++)
            if ((k * 3 + i) % 4 < best) {
                best = (k * 3 + i) % 4;
                at = k;
            }
        if (r[i].v != best || r[i].i != at) {
            MT_FAIL("MINLOC n=%d: element %d is (%g, %d), expected (%g, %d)", n, i, r[i].v,
                    r[i].i, best, at);
            break;
        }
    }
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    const int counts[] = { 0, 1, 5, 700, 20000 };
    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        reductions(counts[c], MPI_SUM);
        reductions(counts[c], MPI_MAX);
    }
    if (RDMPI_ONLY) {
        vector_sum(3, 1);
        vector_sum(4, 1000);
    }
    double_int_minloc(3);
    double_int_minloc(3000);
    return MTest_Finalize();
}
