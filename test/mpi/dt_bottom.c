/*
 * dt_bottom: MPI_BOTTOM with absolute addresses. A struct type built from
 * MPI_Get_address of three separate variables is sent from MPI_BOTTOM and
 * received into MPI_BOTTOM with another absolute-address type, blocking and
 * nonblocking, eager and rendezvous. The MPI-1 names MPICH still exports
 * (MPI_Address, MPI_Type_struct, MPI_Type_hvector, MPI_Type_hindexed,
 * MPI_Type_extent, MPI_Type_lb, MPI_Type_ub) build the same layouts.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

#define BIG 200000 /* doubles: 1.6 MB, rendezvous */

static int right, left;

static void absolute(int n)
{
    int *ia = MTest_Malloc(sizeof(int) * 3), *ib = MTest_Malloc(sizeof(int) * 3);
    double *da = MTest_Malloc(sizeof(double) * (size_t)n), *db = MTest_Malloc(sizeof(double) * (size_t)n);
    char ca[5], cb[5];
    for (int i = 0; i < 3; i++)
        ia[i] = MTest_rank * 10 + i;
    for (int i = 0; i < n; i++)
        da[i] = MTest_rank + i * 0.5;
    memcpy(ca, "hello", 5);
    memset(ib, 0, 3 * sizeof(int));
    memset(db, 0, (size_t)n * sizeof(double));
    memset(cb, 0, 5);

    int bl[3] = { 3, n, 5 };
    MPI_Aint d[3];
    MPI_Datatype t[3] = { MPI_INT, MPI_DOUBLE, MPI_CHAR }, st;
    MT_OK(MPI_Get_address(ia, &d[0]));
    MT_OK(MPI_Get_address(da, &d[1]));
    MT_OK(MPI_Get_address(ca, &d[2]));
    MT_OK(MPI_Type_create_struct(3, bl, d, t, &st));
    MT_OK(MPI_Type_commit(&st));
    /* the receive side: the same typemap over other variables, MPI-1 names */
    MPI_Aint rd[2];
    MT_OK(MPI_Get_address(cb, &rd[0]));
    MT_OK(MPI_Get_address(ib, &rd[1]));
    MPI_Datatype rt2;
    MPI_Aint rd2[3];
    MT_OK(MPI_Address(ib, &rd2[0]));
    MT_OK(MPI_Address(db, &rd2[1]));
    MT_OK(MPI_Address(cb, &rd2[2]));
    MT_OK(MPI_Type_struct(3, bl, rd2, t, &rt2));
    MT_OK(MPI_Type_commit(&rt2));

    MPI_Request rq[2];
    MPI_Status s;
    MT_OK(MPI_Irecv(MPI_BOTTOM, 1, rt2, left, 7, MPI_COMM_WORLD, &rq[0]));
    MT_OK(MPI_Isend(MPI_BOTTOM, 1, st, right, 7, MPI_COMM_WORLD, &rq[1]));
    MT_OK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 3; i++)
        MT_CHECK(ib[i] == left * 10 + i, "n=%d: int %d is %d", n, i, ib[i]);
    for (int i = 0; i < n; i++)
        if (db[i] != left + i * 0.5) {
            MT_FAIL("n=%d: double %d is %g", n, i, db[i]);
            break;
        }
    MT_CHECK(memcmp(cb, "hello", 5) == 0, "n=%d: chars wrong", n);

    /* blocking: ints and chars only, the receive side's addresses listed by hand */
    memset(ib, 0, 3 * sizeof(int));
    memset(cb, 0, 5);
    MPI_Datatype ints_first;
    int bl2[2] = { 3, 5 };
    MPI_Aint d2[2] = { d[0], d[2] };
    MPI_Datatype t2[2] = { MPI_INT, MPI_CHAR };
    MT_OK(MPI_Type_create_struct(2, bl2, d2, t2, &ints_first));
    MT_OK(MPI_Type_commit(&ints_first));
    MPI_Aint rd3[2] = { rd[1], rd[0] };
    MPI_Datatype recv_same;
    MT_OK(MPI_Type_create_struct(2, bl2, rd3, t2, &recv_same));
    MT_OK(MPI_Type_commit(&recv_same));
    MT_OK(MPI_Sendrecv(MPI_BOTTOM, 1, ints_first, right, 8, MPI_BOTTOM, 1, recv_same, left, 8,
                       MPI_COMM_WORLD, &s));
    int elems;
    MT_OK(MPI_Get_elements(&s, recv_same, &elems));
    MT_CHECK(elems == 8, "Get_elements %d, expected 8", elems);
    for (int i = 0; i < 3; i++)
        MT_CHECK(ib[i] == left * 10 + i, "blocking: int %d is %d", i, ib[i]);
    MT_CHECK(memcmp(cb, "hello", 5) == 0, "blocking: chars wrong");

    MT_OK(MPI_Type_free(&st));
    MT_OK(MPI_Type_free(&rt2));
    MT_OK(MPI_Type_free(&ints_first));
    MT_OK(MPI_Type_free(&recv_same));
    free(ia);
    free(ib);
    free(da);
    free(db);
}

/* MPI-1 constructors and queries. */
static void mpi1(void)
{
    MPI_Datatype hv, hi, r;
    MPI_Aint ext, lb, ub;
    MT_OK(MPI_Type_hvector(3, 2, 40, MPI_INT, &hv));
    MT_OK(MPI_Type_extent(hv, &ext));
    MT_OK(MPI_Type_lb(hv, &lb));
    MT_OK(MPI_Type_ub(hv, &ub));
    MT_CHECK(ext == 88 && lb == 0 && ub == 88, "Type_hvector: extent %ld lb %ld ub %ld", (long)ext,
             (long)lb, (long)ub);
    int bl[2] = { 1, 2 };
    MPI_Aint d[2] = { 16, -8 };
    MT_OK(MPI_Type_hindexed(2, bl, d, MPI_DOUBLE, &hi));
    MT_OK(MPI_Type_extent(hi, &ext));
    MT_OK(MPI_Type_lb(hi, &lb));
    MT_OK(MPI_Type_ub(hi, &ub));
    MT_CHECK(ext == 32 && lb == -8 && ub == 24, "Type_hindexed: extent %ld lb %ld ub %ld",
             (long)ext, (long)lb, (long)ub);
    MT_OK(MPI_Type_create_resized(hi, -16, 64, &r));
    MT_OK(MPI_Type_lb(r, &lb));
    MT_OK(MPI_Type_ub(r, &ub));
    MT_CHECK(lb == -16 && ub == 48, "resized: lb %ld ub %ld", (long)lb, (long)ub);
    MPI_Aint tlb, text;
    MT_OK(MPI_Type_get_true_extent(r, &tlb, &text));
    MT_CHECK(tlb == -8 && text == 32, "resized: true lb %ld extent %ld", (long)tlb, (long)text);
    MT_OK(MPI_Type_free(&hv));
    MT_OK(MPI_Type_free(&hi));
    MT_OK(MPI_Type_free(&r));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    right = (MTest_rank + 1) % MTest_size;
    left = (MTest_rank + MTest_size - 1) % MTest_size;
    absolute(4);
    absolute(BIG);
    mpi1();
    return MTest_Finalize();
}
