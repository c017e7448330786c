/*
 * dt_envelope: MPI_Type_get_envelope / get_contents for every combiner
 * (predefined types are MPI_COMBINER_NAMED), names, sizes and extents with
 * their _x forms, dup keeping the committed state, and MPI_Type_free while
 * an operation using the type is in flight.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

/* Checks t's envelope and contents against the expected arrays. */
static void expect(MPI_Datatype t, int combiner, int ni, const int *ints, int na,
                   const MPI_Aint *aints, int nt, const MPI_Datatype *types, const char *what)
{
    int gi, ga, gt, gc;
    MT_OK(MPI_Type_get_envelope(t, &gi, &ga, &gt, &gc));
    MT_CHECK(gc == combiner && gi == ni && ga == na && gt == nt,
             "%s: envelope (%d, %d, %d, combiner %d), expected (%d, %d, %d, %d)", what, gi, ga,
             gt, gc, ni, na, nt, combiner);
    if (gc != combiner || gi != ni || ga != na || gt != nt || combiner == MPI_COMBINER_NAMED)
        return;
    int ri[64];
    MPI_Aint ra[16];
    MPI_Datatype rt[16];
    MT_OK(MPI_Type_get_contents(t, 64, 16, 16, ri, ra, rt));
    for (int i = 0; i < ni; i++)
        MT_CHECK(ri[i] == ints[i], "%s: integer %d is %d, expected %d", what, i, ri[i], ints[i]);
    for (int i = 0; i < na; i++)
        MT_CHECK(ra[i] == aints[i], "%s: address %d is %ld, expected %ld", what, i, (long)ra[i],
                 (long)aints[i]);
    for (int i = 0; i < nt; i++) {
        MT_CHECK(rt[i] == types[i], "%s: type %d differs", what, i);
        int ci, ca, ct, cc;
        MT_OK(MPI_Type_get_envelope(rt[i], &ci, &ca, &ct, &cc));
        if (cc != MPI_COMBINER_NAMED)
            MT_OK(MPI_Type_free(&rt[i]));
    }
}

static void envelopes(void)
{
    MPI_Datatype t, v, s;
    expect(MPI_INT, MPI_COMBINER_NAMED, 0, NULL, 0, NULL, 0, NULL, "MPI_INT");
    expect(MPI_DOUBLE_INT, MPI_COMBINER_NAMED, 0, NULL, 0, NULL, 0, NULL, "MPI_DOUBLE_INT");

    MT_OK(MPI_Type_contiguous(5, MPI_INT, &t));
    expect(t, MPI_COMBINER_CONTIGUOUS, 1, (int[]){ 5 }, 0, NULL, 1, (MPI_Datatype[]){ MPI_INT },
           "contiguous");
    MT_OK(MPI_Type_vector(3, 2, 4, t, &v));
    expect(v, MPI_COMBINER_VECTOR, 3, (int[]){ 3, 2, 4 }, 0, NULL, 1, &t, "vector");
    MT_OK(MPI_Type_free(&v));
    MT_OK(MPI_Type_create_hvector(3, 2, 100, t, &v));
    expect(v, MPI_COMBINER_HVECTOR, 2, (int[]){ 3, 2 }, 1, (MPI_Aint[]){ 100 }, 1, &t, "hvector");
    MT_OK(MPI_Type_free(&v));
    MT_OK(MPI_Type_indexed(2, (int[]){ 1, 3 }, (int[]){ 4, 0 }, MPI_INT, &v));
    expect(v, MPI_COMBINER_INDEXED, 5, (int[]){ 2, 1, 3, 4, 0 }, 0, NULL, 1,
           (MPI_Datatype[]){ MPI_INT }, "indexed");
    MT_OK(MPI_Type_free(&v));
    MT_OK(MPI_Type_create_hindexed(2, (int[]){ 1, 3 }, (MPI_Aint[]){ 40, 0 }, MPI_INT, &v));
    expect(v, MPI_COMBINER_HINDEXED, 3, (int[]){ 2, 1, 3 }, 2, (MPI_Aint[]){ 40, 0 }, 1,
           (MPI_Datatype[]){ MPI_INT }, "hindexed");
    MT_OK(MPI_Type_free(&v));
    MT_OK(MPI_Type_create_indexed_block(3, 2, (int[]){ 0, 5, 9 }, MPI_SHORT, &v));
    expect(v, MPI_COMBINER_INDEXED_BLOCK, 5, (int[]){ 3, 2, 0, 5, 9 }, 0, NULL, 1,
           (MPI_Datatype[]){ MPI_SHORT }, "indexed_block");
    MT_OK(MPI_Type_free(&v));
    MT_OK(MPI_Type_create_hindexed_block(2, 4, (MPI_Aint[]){ 0, 64 }, MPI_SHORT, &v));
    expect(v, MPI_COMBINER_HINDEXED_BLOCK, 2, (int[]){ 2, 4 }, 2, (MPI_Aint[]){ 0, 64 }, 1,
           (MPI_Datatype[]){ MPI_SHORT }, "hindexed_block");
    MT_OK(MPI_Type_free(&v));
    MT_OK(MPI_Type_create_struct(2, (int[]){ 1, 2 }, (MPI_Aint[]){ 0, 8 },
                                 (MPI_Datatype[]){ MPI_DOUBLE, t }, &s));
    expect(s, MPI_COMBINER_STRUCT, 3, (int[]){ 2, 1, 2 }, 2, (MPI_Aint[]){ 0, 8 }, 2,
           (MPI_Datatype[]){ MPI_DOUBLE, t }, "struct");
    MT_OK(MPI_Type_create_subarray(2, (int[]){ 8, 6 }, (int[]){ 3, 2 }, (int[]){ 1, 4 },
                                   MPI_ORDER_FORTRAN, MPI_FLOAT, &v));
    expect(v, MPI_COMBINER_SUBARRAY, 8, (int[]){ 2, 8, 6, 3, 2, 1, 4, MPI_ORDER_FORTRAN }, 0, NULL,
           1, (MPI_Datatype[]){ MPI_FLOAT }, "subarray");
    MT_OK(MPI_Type_free(&v));
    MT_OK(MPI_Type_create_darray(4, 3, 2, (int[]){ 8, 6 },
                                 (int[]){ MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC },
                                 (int[]){ MPI_DISTRIBUTE_DFLT_DARG, 2 }, (int[]){ 2, 2 },
                                 MPI_ORDER_C, MPI_FLOAT, &v));
    expect(v, MPI_COMBINER_DARRAY, 12,
           (int[]){ 4, 3, 2, 8, 6, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC,
                    MPI_DISTRIBUTE_DFLT_DARG, 2, 2, 2, MPI_ORDER_C },
           0, NULL, 1, (MPI_Datatype[]){ MPI_FLOAT }, "darray");
    int size;
    MT_OK(MPI_Type_size(v, &size));
    MT_CHECK(size == 4 * 2 * 4, "darray rank 3 (rows 4..7, columns 2..3): size %d, expected 32", size);
    MT_OK(MPI_Type_free(&v));
    MT_OK(MPI_Type_create_resized(s, -8, 64, &v));
    expect(v, MPI_COMBINER_RESIZED, 0, NULL, 2, (MPI_Aint[]){ -8, 64 }, 1, &s, "resized");
    MT_OK(MPI_Type_free(&v));
    MT_OK(MPI_Type_dup(s, &v));
    expect(v, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &s, "dup");
    MT_OK(MPI_Type_free(&v));
    MT_OK(MPI_Type_free(&s));
    MT_OK(MPI_Type_free(&t));
}

static void queries(void)
{
    MPI_Datatype v, d;
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MT_OK(MPI_Type_get_name(MPI_DOUBLE, name, &len));
    MT_CHECK(strcmp(name, "MPI_DOUBLE") == 0 && len == 10, "name of MPI_DOUBLE is '%s'", name);
    MT_OK(MPI_Type_vector(4, 1, 3, MPI_DOUBLE, &v));
    MT_OK(MPI_Type_get_name(v, name, &len));
    MT_CHECK(len == 0 && name[0] == 0, "derived type has name '%s'", name);
    MT_OK(MPI_Type_set_name(v, "strided doubles"));
    MT_OK(MPI_Type_get_name(v, name, &len));
    MT_CHECK(strcmp(name, "strided doubles") == 0 && len == 15, "name is '%s'", name);

    MPI_Count sx, lbx, extx;
    MPI_Aint lb, ext;
    MT_OK(MPI_Type_size_x(v, &sx));
    MT_OK(MPI_Type_get_extent_x(v, &lbx, &extx));
    MT_OK(MPI_Type_get_true_extent(v, &lb, &ext));
    MT_CHECK(sx == 32 && lbx == 0 && extx == 80 && lb == 0 && ext == 80,
             "vector: size %lld extent [%lld, +%lld) true [%ld, +%ld)", (long long)sx,
             (long long)lbx, (long long)extx, (long)lb, (long)ext);

    /* dup keeps the committed state */
    MT_OK(MPI_Type_commit(&v));
    MT_OK(MPI_Type_dup(v, &d));
    double buf[10], out[10];
    for (int i = 0; i < 10; i++)
        buf[i] = i;
    MT_OK(MPI_Sendrecv(buf, 1, d, 0, 1, out, 4, MPI_DOUBLE, 0, 1, MPI_COMM_SELF,
                       MPI_STATUS_IGNORE));
    MT_CHECK(out[0] == 0 && out[1] == 3 && out[2] == 6 && out[3] == 9, "dup: wrong data");
    MT_OK(MPI_Type_free(&d));

    /* free while an Isend and an Irecv hold the type */
    MPI_Request rq[2];
    for (int i = 0; i < 10; i++)
        out[i] = -1;
    MPI_Datatype w = v;
    MT_OK(MPI_Irecv(out, 1, w, 0, 2, MPI_COMM_SELF, &rq[0]));
    MT_OK(MPI_Isend(buf, 4, MPI_DOUBLE, 0, 2, MPI_COMM_SELF, &rq[1]));
    MT_OK(MPI_Type_free(&v));
    MT_CHECK(v == MPI_DATATYPE_NULL, "Type_free did not set MPI_DATATYPE_NULL");
    MT_OK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    MT_CHECK(out[0] == 0 && out[3] == 1 && out[6] == 2 && out[9] == 3 && out[1] == -1,
             "free in flight: wrong data");
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    envelopes();
    queries();
    return MTest_Finalize();
}
