/*
 * coll_userop: operations from MPI_Op_create.
 * - Non-commutative: 2x2 matrix product (mod a prime) on a contiguous type
 *   of four ints. Reduce from every root, Allreduce (short and long),
 *   Scan, Exscan, Reduce_scatter(_block) must all multiply in rank order.
 * - Commutative: an integer sum, compared with MPI_SUM.
 * - A user op on a strided vector type: the function gets the datatype and
 *   the data in that layout.
 * Also MPI_Op_commutative and MPI_Op_free.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

#define P 10007

typedef struct { int a, b, c, d; } mat_t;

static MPI_Datatype mat_type;

/* inout = in * inout: in holds the lower ranks' product. */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    mat_t *x = in, *y = inout;
    if (*dt != mat_type)
        MT_FAIL("matmul called with a foreign datatype");
    for (int i = 0; i < *len; i++) {
        mat_t r;
        r.a = (int)(((long long)x[i].a * y[i].a + (long long)x[i].b * y[i].c) % P);
        r.b = (int)(((long long)x[i].a * y[i].b + (long long)x[i].b * y[i].d) % P);
        r.c = (int)(((long long)x[i].c * y[i].a + (long long)x[i].d * y[i].c) % P);
        r.d = (int)(((long long)x[i].c * y[i].b + (long long)x[i].d * y[i].d) % P);
        y[i] = r;
    }
}

static mat_t input(int rank, int i)
{
    mat_t m = { (rank + i) % 5 + 1, (rank * 3 + i) % 7, (i * 2 + rank) % 3, rank % 4 + 1 };
    return m;
}

static mat_t product(int lo, int hi, int i)
{
    mat_t acc = input(lo, i);
    for (int r = lo + 1; r < hi; r++) {
        mat_t x = acc, y = input(r, i);
        int one = 1;
        matmul(&x, &y, &one, &mat_type);
        acc = y;
    }
    return acc;
}

static int check(const mat_t *m, int n, int lo, int hi, int off, const char *what)
{
    for (int i = 0; i < n; i++) {
        mat_t want = product(lo, hi, i + off);
        if (memcmp(&m[i], &want, sizeof(want))) {
            MT_FAIL("%s: element %d is [%d %d %d %d], expected [%d %d %d %d]", what, i, m[i].a,
                    m[i].b, m[i].c, m[i].d, want.a, want.b, want.c, want.d);
            return 0;
        }
    }
    return 1;
}

static void noncommutative(int n)
{
    int size = MTest_size, me = MTest_rank;
    MPI_Op op;
    MT_OK(MPI_Op_create(matmul, 0, &op));
    int commute = -1;
    MT_OK(MPI_Op_commutative(op, &commute));
    MT_CHECK(commute == 0, "Op_commutative says %d for a non-commutative op", commute);
    mat_t *s = MTest_Malloc((size_t)n * (size_t)size * sizeof(mat_t) + 1);
    mat_t *r = MTest_Malloc((size_t)n * (size_t)size * sizeof(mat_t) + 1);
    for (int i = 0; i < n * size; i++)
        s[i] = input(me, i);
    for (int root = 0; root < size; root++) {
        memset(r, 0, (size_t)n * sizeof(mat_t));
        MT_OK(MPI_Reduce(s, r, n, mat_type, op, root, MPI_COMM_WORLD));
        if (me == root)
            check(r, n, 0, size, 0, "non-commutative Reduce");
    }
    MT_OK(MPI_Allreduce(s, r, n, mat_type, op, MPI_COMM_WORLD));
    check(r, n, 0, size, 0, "non-commutative Allreduce");
    memcpy(r, s, (size_t)n * sizeof(mat_t));
    MT_OK(MPI_Allreduce(MPI_IN_PLACE, r, n, mat_type, op, MPI_COMM_WORLD));
    check(r, n, 0, size, 0, "non-commutative Allreduce in place");
    MT_OK(MPI_Scan(s, r, n, mat_type, op, MPI_COMM_WORLD));
    check(r, n, 0, me + 1, 0, "non-commutative Scan");
    MT_OK(MPI_Exscan(s, r, n, mat_type, op, MPI_COMM_WORLD));
    if (me > 0)
        check(r, n, 0, me, 0, "non-commutative Exscan");
    MT_OK(MPI_Reduce_scatter_block(s, r, n, mat_type, op, MPI_COMM_WORLD));
    check(r, n, 0, size, me * n, "non-commutative Reduce_scatter_block");
    int *counts = MTest_Malloc((size_t)size * sizeof(int)), off = 0;
    for (int k = 0; k < size; k++) {
        counts[k] = k % 2 ? n : n / 2;
        if (k < me)
            off += counts[k];
    }
    MT_OK(MPI_Reduce_scatter(s, r, counts, mat_type, op, MPI_COMM_WORLD));
    check(r, counts[me], 0, size, off, "non-commutative Reduce_scatter");
    free(counts);
    MT_OK(MPI_Op_free(&op));
    MT_CHECK(op == MPI_OP_NULL, "Op_free did not set MPI_OP_NULL");
    free(s);
    free(r);
}

static void isum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void commutative(int n)
{
    MPI_Op op;
    MT_OK(MPI_Op_create(isum, 1, &op));
    int commute = -1;
    MT_OK(MPI_Op_commutative(op, &commute));
    MT_CHECK(commute == 1, "Op_commutative says %d for a commutative op", commute);
    MT_OK(MPI_Op_commutative(MPI_SUM, &commute));
    MT_CHECK(commute == 1, "MPI_SUM is not commutative?");
    int *s = MTest_Malloc((size_t)n * sizeof(int)), *r1 = MTest_Malloc((size_t)n * sizeof(int)), *r2 = MTest_Malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        s[i] = (MTest_rank * 31 + i) % 1000;
    MT_OK(MPI_Allreduce(s, r1, n, MPI_INT, op, MPI_COMM_WORLD));
    MT_OK(MPI_Allreduce(s, r2, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    MT_CHECK(!memcmp(r1, r2, (size_t)n * sizeof(int)), "user sum differs from MPI_SUM (n=%d)", n);
    MT_OK(MPI_Reduce(s, r1, n, MPI_INT, op, 0, MPI_COMM_WORLD));
    if (MTest_rank == 0)
        MT_CHECK(!memcmp(r1, r2, (size_t)n * sizeof(int)), "user sum Reduce differs (n=%d)", n);
    MT_OK(MPI_Op_free(&op));
    free(s);
    free(r1);
    free(r2);
}

static MPI_Datatype vec2; /* two ints with a one-int gap */

static void vecmax(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    if (*dt != vec2) {
        MT_FAIL("vecmax called with a foreign datatype");
        return;
    }
    int *x = in, *y = inout;
    for (int i = 0; i < *len; i++) /* extent 3 ints: data at 0 and 2 */
        for (int j = 0; j < 3; j += 2)
            if (x[3 * i + j] > y[3 * i + j])
                y[3 * i + j] = x[3 * i + j];
}

static void strided(int n)
{
    MPI_Op op;
    MT_OK(MPI_Op_create(vecmax, 1, &op));
    int *s = MTest_Malloc((size_t)n * 3 * sizeof(int)), *r = MTest_Malloc((size_t)n * 3 * sizeof(int));
    for (int i = 0; i < 3 * n; i++) {
        s[i] = (MTest_rank * 17 + i * 5) % 23;
        r[i] = -1;
    }
    MT_OK(MPI_Allreduce(s, r, n, vec2, op, MPI_COMM_WORLD));
    for (int i = 0; i < 3 * n; i++) {
        int want = -1;
        if (i % 3 != 1)
            for (int k = 0; k < MTest_size; k++)
                if ((k * 17 + i * 5) % 23 > want)
                    want = (k * 17 + i * 5) % 23;
        if (r[i] != want) {
            MT_FAIL("strided user op n=%d: int %d is %d, expected %d", n, i, r[i], want);
            break;
        }
    }
    MT_OK(MPI_Op_free(&op));
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MT_OK(MPI_Type_contiguous(4, MPI_INT, &mat_type));
    MT_OK(MPI_Type_commit(&mat_type));
    MT_OK(MPI_Type_vector(2, 1, 2, MPI_INT, &vec2));
    MT_OK(MPI_Type_commit(&vec2));
    noncommutative(1);
    noncommutative(7);
    noncommutative(1500);
    commutative(5);
    commutative(4000);
    strided(1);
    strided(2000);
    MT_OK(MPI_Type_free(&mat_type));
    MT_OK(MPI_Type_free(&vec2));
    return MTest_Finalize();
}
