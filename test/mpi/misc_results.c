/*
 * misc_results: results that were wrong. MPI_Get_elements counts basic
 * elements, including those of a partly received pair type: a {double, int,
 * double} message received as 2 x MPI_DOUBLE_INT has 3 (and MPI_Get_count
 * says MPI_UNDEFINED), a full one 4. MPI_Dims_create on large node counts
 * (10^9 in 3 dimensions, numbers with many divisors in up to 8) gives the
 * most balanced factorization, with MPICH's choice among equally balanced
 * ones (larger smallest factor first).
 */
#include "mtest.h"

static void elements(int nmembers, int want_elems, int want_count)
{
    struct { double a; int b; double c; int d; } in = { 1.5, 2, 3.5, 4 }, out;
    int bl[4] = { 1, 1, 1, 1 };
    MPI_Aint disp[4] = { 0, (char *)&in.b - (char *)&in, (char *)&in.c - (char *)&in,
                         (char *)&in.d - (char *)&in };
    MPI_Datatype types[4] = { MPI_DOUBLE, MPI_INT, MPI_DOUBLE, MPI_INT }, st;
    MPI_Status status;
    int n = -5, c = -5;
    MPI_Count nx = -5;
    MT_OK(MPI_Type_create_struct(nmembers, bl, disp, types, &st));
    MT_OK(MPI_Type_commit(&st));
    MT_OK(MPI_Sendrecv(&in, 1, st, 0, 3, &out, 2, MPI_DOUBLE_INT, 0, 3, MPI_COMM_SELF, &status));
    MT_OK(MPI_Get_elements(&status, MPI_DOUBLE_INT, &n));
    MT_OK(MPI_Get_elements_x(&status, MPI_DOUBLE_INT, &nx));
    MT_OK(MPI_Get_count(&status, MPI_DOUBLE_INT, &c));
    MT_CHECK(n == want_elems && nx == want_elems, "%d members: Get_elements %d / _x %lld, "
             "expected %d", nmembers, n, (long long)nx, want_elems);
    MT_CHECK(c == want_count, "%d members: Get_count %d, expected %d", nmembers, c, want_count);
    MT_CHECK(out.a == 1.5 && out.b == 2 && out.c == 3.5, "%d members: data differs", nmembers);
    MT_OK(MPI_Type_free(&st));
}

static void dims(int nnodes, int ndims, const int *want)
{
    int d[8] = { 0 };
    MT_OK(MPI_Dims_create(nnodes, ndims, d));
    for (int i = 0; i < ndims; i++)
        if (d[i] != want[i]) {
            MT_FAIL("Dims_create(%d, %d): dims[%d] = %d, expected %d", nnodes, ndims, i, d[i],
                    want[i]);
            break;
        }
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    elements(3, 3, MPI_UNDEFINED);
    elements(4, 4, 2);

    dims(1000 * 1000 * 1000, 3, (const int[]){ 1000, 1000, 1000 });
    dims(590520, 4, (const int[]){ 38, 37, 21, 20 });
    dims(72, 2, (const int[]){ 9, 8 });
    dims(2 * 3 * 5 * 7 * 11 * 13 * 17 * 19, 8, (const int[]){ 19, 17, 13, 11, 7, 5, 3, 2 });
    dims(1 << 30, 6, (const int[]){ 32, 32, 32, 32, 32, 32 });
    dims(2147483647, 2, (const int[]){ 2147483647, 1 });  /* a prime */
    dims(997 * 991, 3, (const int[]){ 997, 991, 1 });
    /* A fixed dimension and several free ones. */
    int d[4] = { 0, 10, 0, 0 };
    MT_OK(MPI_Dims_create(1000000, 4, d));
    MT_CHECK(d[0] == 50 && d[1] == 10 && d[2] == 50 && d[3] == 40,
             "Dims_create(10^6, {0,10,0,0}) = %d %d %d %d, expected 50 10 50 40", d[0], d[1],
             d[2], d[3]);
    return MTest_Finalize();
}
