/*
 * lc_dtype: the large-count (_c) datatype constructors build the layouts of
 * their int forms (checked by packing with MPI_Pack_c and unpacking with
 * MPI_Unpack_c) and record their arguments as large counts
 * (MPI_Type_get_envelope_c / get_contents_c; the int queries refuse such a
 * type); sizes and extents above INT_MAX come back whole through
 * MPI_Type_size_c / get_extent_c / get_true_extent_c, MPI_Pack_size_c and
 * MPI_Get_count_c / Get_elements_c, and as MPI_UNDEFINED or an error
 * through the int forms; indexed and struct blocks may hold more than
 * INT_MAX elements; counts beyond what a datatype can describe are
 * MPI_ERR_COUNT.
 */
#include "mtest.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define BIG ((MPI_Count)INT_MAX + 1000) /* just above INT_MAX */

/* Whether the library is rdmpi, whose internals bound some counts (int
 * counts per rank in the v-collectives, int block lengths in the datatype
 * engine, spans of at most PTRDIFF_MAX bytes): beyond them a call fails
 * there, where MPICH goes ahead. */
static int rdmpi_limits(void)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n;
    MPI_Get_library_version(v, &n);
    return strstr(v, "rdmpi") != NULL;
}

static void expect(MPI_Datatype t, int combiner, int ni, const int *ints, int nc,
                   const MPI_Count *counts, int nt, const char *what)
{
    MPI_Count gi, ga, gc, gt;
    int comb;
    MT_OK(MPI_Type_get_envelope_c(t, &gi, &ga, &gc, &gt, &comb));
    MT_CHECK(comb == combiner && gi == ni && ga == 0 && gc == nc && gt == nt,
             "%s: envelope_c (%lld, %lld, %lld, %lld, combiner %d), expected (%d, 0, %d, %d, %d)",
             what, (long long)gi, (long long)ga, (long long)gc, (long long)gt, comb, ni, nc, nt,
             combiner);
    int ri[16];
    MPI_Aint ra[1];
    MPI_Count rc[16];
    MPI_Datatype rt[4];
    MT_OK(MPI_Type_get_contents_c(t, 16, 1, 16, 4, ri, ra, rc, rt));
    for (int i = 0; i < ni && i < gi; i++)
        MT_CHECK(ri[i] == ints[i], "%s: integer %d is %d, expected %d", what, i, ri[i], ints[i]);
    for (int i = 0; i < nc && i < gc; i++)
        MT_CHECK(rc[i] == counts[i], "%s: large count %d is %lld, expected %lld", what, i,
                 (long long)rc[i], (long long)counts[i]);
    for (int i = 0; i < nt && i < gt; i++) {
        MPI_Count a, b, c, d;
        int cb;
        MT_OK(MPI_Type_get_envelope_c(rt[i], &a, &b, &c, &d, &cb));
        if (cb != MPI_COMBINER_NAMED)
            MT_OK(MPI_Type_free(&rt[i]));
    }
    /* the int queries cannot return large counts */
    int i1, i2, i3, i4;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MT_CHECK(MPI_Type_get_envelope(t, &i1, &i2, &i3, &i4) != MPI_SUCCESS,
             "%s: MPI_Type_get_envelope accepted a type with large counts", what);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* Packs one element of a (committed here) with MPI_Pack_c from a buffer
 * of ints i, checks the packed ints against want (n of them), unpacks them
 * back into a zeroed buffer with MPI_Unpack_c and checks the round trip. */
static void layout(MPI_Datatype t, const int *want, int n, const char *what)
{
    int src[64], back[64], packed[64];
    MPI_Count pos = 0, psize, size;
    for (int i = 0; i < 64; i++)
        src[i] = i;
    MT_OK(MPI_Type_commit(&t));
    MT_OK(MPI_Type_size_c(t, &size));
    MT_CHECK(size == n * (MPI_Count)sizeof(int), "%s: size %lld, expected %zu", what,
             (long long)size, n * sizeof(int));
    MT_OK(MPI_Pack_size_c(1, t, MPI_COMM_WORLD, &psize));
    MT_CHECK(psize >= size, "%s: Pack_size_c %lld is less than the size", what,
             (long long)psize);
    MT_OK(MPI_Pack_c(src, 1, t, packed, sizeof(packed), &pos, MPI_COMM_WORLD));
    MT_CHECK(pos == size, "%s: Pack_c position %lld, expected %lld", what, (long long)pos,
             (long long)size);
    for (int i = 0; i < n; i++)
        MT_CHECK(packed[i] == want[i], "%s: packed element %d is %d, expected %d", what, i,
                 packed[i], want[i]);
    memset(back, 0, sizeof(back));
    pos = 0;
    MT_OK(MPI_Unpack_c(packed, sizeof(packed), &pos, back, 1, t, MPI_COMM_WORLD));
    for (int i = 0; i < n; i++)
        MT_CHECK(back[want[i]] == want[i], "%s: unpacked element %d is %d", what, want[i],
                 back[want[i]]);
}

static void constructors(void)
{
    MPI_Datatype t;
    MT_OK(MPI_Type_contiguous_c(3, MPI_INT, &t));
    expect(t, MPI_COMBINER_CONTIGUOUS, 0, NULL, 1, (MPI_Count[]){ 3 }, 1, "contiguous_c");
    layout(t, (int[]){ 0, 1, 2 }, 3, "contiguous_c");
    MT_OK(MPI_Type_free(&t));

    MT_OK(MPI_Type_vector_c(3, 2, 4, MPI_INT, &t));
    expect(t, MPI_COMBINER_VECTOR, 0, NULL, 3, (MPI_Count[]){ 3, 2, 4 }, 1, "vector_c");
    layout(t, (int[]){ 0, 1, 4, 5, 8, 9 }, 6, "vector_c");
    MT_OK(MPI_Type_free(&t));

    MT_OK(MPI_Type_create_hvector_c(2, 3, 5 * sizeof(int), MPI_INT, &t));
    expect(t, MPI_COMBINER_HVECTOR, 0, NULL, 3, (MPI_Count[]){ 2, 3, 5 * sizeof(int) }, 1,
           "hvector_c");
    layout(t, (int[]){ 0, 1, 2, 5, 6, 7 }, 6, "hvector_c");
    MT_OK(MPI_Type_free(&t));

    MT_OK(MPI_Type_indexed_c(2, (MPI_Count[]){ 1, 3 }, (MPI_Count[]){ 10, 2 }, MPI_INT, &t));
    expect(t, MPI_COMBINER_INDEXED, 0, NULL, 5, (MPI_Count[]){ 2, 1, 3, 10, 2 }, 1, "indexed_c");
    layout(t, (int[]){ 10, 2, 3, 4 }, 4, "indexed_c");
    MT_OK(MPI_Type_free(&t));

    MT_OK(MPI_Type_create_hindexed_c(2, (MPI_Count[]){ 2, 1 },
                                     (MPI_Count[]){ 4 * sizeof(int), 0 }, MPI_INT, &t));
    expect(t, MPI_COMBINER_HINDEXED, 0, NULL, 5,
           (MPI_Count[]){ 2, 2, 1, 4 * sizeof(int), 0 }, 1, "hindexed_c");
    layout(t, (int[]){ 4, 5, 0 }, 3, "hindexed_c");
    MT_OK(MPI_Type_free(&t));

    MT_OK(MPI_Type_create_indexed_block_c(3, 2, (MPI_Count[]){ 6, 0, 3 }, MPI_INT, &t));
    expect(t, MPI_COMBINER_INDEXED_BLOCK, 0, NULL, 5, (MPI_Count[]){ 3, 2, 6, 0, 3 }, 1,
           "indexed_block_c");
    layout(t, (int[]){ 6, 7, 0, 1, 3, 4 }, 6, "indexed_block_c");
    MT_OK(MPI_Type_free(&t));

    MT_OK(MPI_Type_create_hindexed_block_c(2, 2, (MPI_Count[]){ 8 * sizeof(int), 0 }, MPI_INT,
                                           &t));
    expect(t, MPI_COMBINER_HINDEXED_BLOCK, 0, NULL, 4,
           (MPI_Count[]){ 2, 2, 8 * sizeof(int), 0 }, 1, "hindexed_block_c");
    layout(t, (int[]){ 8, 9, 0, 1 }, 4, "hindexed_block_c");
    MT_OK(MPI_Type_free(&t));

    MT_OK(MPI_Type_create_struct_c(2, (MPI_Count[]){ 1, 2 },
                                   (MPI_Count[]){ 12 * sizeof(int), sizeof(int) },
                                   (MPI_Datatype[]){ MPI_INT, MPI_INT }, &t));
    expect(t, MPI_COMBINER_STRUCT, 0, NULL, 5,
           (MPI_Count[]){ 2, 1, 2, 12 * sizeof(int), sizeof(int) }, 2, "struct_c");
    layout(t, (int[]){ 12, 1, 2 }, 3, "struct_c");
    MT_OK(MPI_Type_free(&t));

    /* rows 1..2, columns 2..4 of a 4 x 6 array */
    MT_OK(MPI_Type_create_subarray_c(2, (MPI_Count[]){ 4, 6 }, (MPI_Count[]){ 2, 3 },
                                     (MPI_Count[]){ 1, 2 }, MPI_ORDER_C, MPI_INT, &t));
    expect(t, MPI_COMBINER_SUBARRAY, 2, (int[]){ 2, MPI_ORDER_C }, 6,
           (MPI_Count[]){ 4, 6, 2, 3, 1, 2 }, 1, "subarray_c");
    layout(t, (int[]){ 8, 9, 10, 14, 15, 16 }, 6, "subarray_c");
    MT_OK(MPI_Type_free(&t));

    /* rank 1 of 2 holds the second half of 8 elements (block) */
    MT_OK(MPI_Type_create_darray_c(2, 1, 1, (MPI_Count[]){ 8 }, (int[]){ MPI_DISTRIBUTE_BLOCK },
                                   (int[]){ MPI_DISTRIBUTE_DFLT_DARG }, (int[]){ 2 },
                                   MPI_ORDER_C, MPI_INT, &t));
    expect(t, MPI_COMBINER_DARRAY, 7,
           (int[]){ 2, 1, 1, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_DFLT_DARG, 2, MPI_ORDER_C }, 1,
           (MPI_Count[]){ 8 }, 1, "darray_c");
    layout(t, (int[]){ 4, 5, 6, 7 }, 4, "darray_c");
    MT_OK(MPI_Type_free(&t));

    MPI_Count lb, ext;
    MT_OK(MPI_Type_create_resized_c(MPI_INT, -8, 32, &t));
    expect(t, MPI_COMBINER_RESIZED, 0, NULL, 2, (MPI_Count[]){ -8, 32 }, 1, "resized_c");
    MT_OK(MPI_Type_get_extent_c(t, &lb, &ext));
    MT_CHECK(lb == -8 && ext == 32, "resized_c: extent (%lld, %lld), expected (-8, 32)",
             (long long)lb, (long long)ext);
    MT_OK(MPI_Type_free(&t));

    /* an int constructor's type: no large counts, the int queries work */
    MPI_Count gi, ga, gc, gt;
    int comb;
    MT_OK(MPI_Type_vector(2, 1, 3, MPI_INT, &t));
    MT_OK(MPI_Type_get_envelope_c(t, &gi, &ga, &gc, &gt, &comb));
    MT_CHECK(comb == MPI_COMBINER_VECTOR && gi == 3 && ga == 0 && gc == 0 && gt == 1,
             "vector: envelope_c (%lld, %lld, %lld, %lld)", (long long)gi, (long long)ga,
             (long long)gc, (long long)gt);
    MT_OK(MPI_Type_free(&t));
}

/* A type of more than INT_MAX bytes (nothing of that size is allocated). */
static void big(void)
{
    MPI_Datatype t, v;
    MPI_Count size, lb, ext, n;
    int isize;
    MPI_Status st = { 0 };
    MT_OK(MPI_Type_contiguous_c(BIG, MPI_CHAR, &t));
    MT_OK(MPI_Type_commit(&t));
    MT_OK(MPI_Type_size_c(t, &size));
    MT_CHECK(size == BIG, "Type_size_c %lld, expected %lld", (long long)size, (long long)BIG);
    MT_OK(MPI_Type_size(t, &isize));
    MT_CHECK(isize == MPI_UNDEFINED, "Type_size of a %lld-byte type is %d, not MPI_UNDEFINED",
             (long long)BIG, isize);
    MT_OK(MPI_Type_get_extent_c(t, &lb, &ext));
    MT_CHECK(lb == 0 && ext == BIG, "get_extent_c (%lld, %lld)", (long long)lb, (long long)ext);
    MT_OK(MPI_Type_get_true_extent_c(t, &lb, &ext));
    MT_CHECK(lb == 0 && ext == BIG, "get_true_extent_c (%lld, %lld)", (long long)lb,
             (long long)ext);
    MT_OK(MPI_Pack_size_c(2, t, MPI_COMM_WORLD, &size));
    MT_CHECK(size >= 2 * BIG, "Pack_size_c of two elements: %lld", (long long)size);

    /* a status counting BIG bytes: the _c queries see it whole */
    MT_OK(MPI_Status_set_elements(&st, t, 1));
    MT_OK(MPI_Get_count_c(&st, MPI_CHAR, &n));
    MT_CHECK(n == BIG, "Get_count_c %lld, expected %lld", (long long)n, (long long)BIG);
    MT_OK(MPI_Get_elements_c(&st, MPI_CHAR, &n));
    MT_CHECK(n == BIG, "Get_elements_c %lld, expected %lld", (long long)n, (long long)BIG);
    MT_OK(MPI_Get_count_c(&st, t, &n));
    MT_CHECK(n == 1, "Get_count_c in the big type %lld, expected 1", (long long)n);
    MT_OK(MPI_Get_count(&st, MPI_CHAR, &isize));
    MT_CHECK(isize == MPI_UNDEFINED, "Get_count of %lld bytes is %d, not MPI_UNDEFINED",
             (long long)BIG, isize);

    /* a vector of BIG blocks with a stride: the extent comes from the counts */
    MT_OK(MPI_Type_vector_c(BIG, 1, 2, MPI_CHAR, &v));
    MT_OK(MPI_Type_size_c(v, &size));
    MT_OK(MPI_Type_get_extent_c(v, &lb, &ext));
    MT_CHECK(size == BIG && ext == 2 * BIG - 1, "vector_c: size %lld, extent %lld",
             (long long)size, (long long)ext);
    MT_OK(MPI_Type_free(&v));

    /* blocks of more than INT_MAX elements in the indexed and struct types */
    MT_OK(MPI_Type_create_hindexed_c(2, (MPI_Count[]){ 3, BIG }, (MPI_Count[]){ BIG, 0 },
                                     MPI_CHAR, &v));
    MT_OK(MPI_Type_size_c(v, &size));
    MT_OK(MPI_Type_get_true_extent_c(v, &lb, &ext));
    MT_CHECK(size == BIG + 3 && lb == 0 && ext == BIG + 3,
             "hindexed_c: size %lld, true extent (%lld, %lld)", (long long)size, (long long)lb,
             (long long)ext);
    MT_OK(MPI_Type_free(&v));
    MT_OK(MPI_Type_create_struct_c(2, (MPI_Count[]){ BIG, 1 }, (MPI_Count[]){ 0, BIG },
                                   (MPI_Datatype[]){ MPI_CHAR, MPI_INT }, &v));
    MT_OK(MPI_Type_size_c(v, &size));
    MT_CHECK(size == BIG + 4, "struct_c: size %lld, expected %lld", (long long)size,
             (long long)BIG + 4);
    MT_OK(MPI_Type_free(&v));
    MT_OK(MPI_Type_free(&t));
}

static void errors(void)
{
    MPI_Datatype t;
    MPI_Count size;
    int isize, x[4] = { 0 }, y[4];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MT_ERRCLASS(MPI_Type_contiguous_c(-1, MPI_INT, &t), MPI_ERR_COUNT,
                "Type_contiguous_c with a negative count");
    MPI_Count pos = 0;
    MT_ERRCLASS(MPI_Pack_c(x, 4, MPI_INT, y, 8, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
                "Pack_c into too small a buffer");
    if (!rdmpi_limits())
        goto out;
    MT_ERRCLASS(MPI_Type_contiguous_c((MPI_Count)1 << 62, MPI_DOUBLE, &t), MPI_ERR_COUNT,
                "Type_contiguous_c of 2^62 doubles");
    MT_ERRCLASS(MPI_Type_vector_c(4, 1, (MPI_Count)1 << 61, MPI_DOUBLE, &t), MPI_ERR_COUNT,
                "Type_vector_c with a stride of 2^61 doubles");
    MT_ERRCLASS(MPI_Type_indexed_c(1, (MPI_Count[]){ -3 }, (MPI_Count[]){ 0 }, MPI_INT, &t),
                MPI_ERR_COUNT, "Type_indexed_c with a negative blocklength");
    MT_ERRCLASS(MPI_Type_create_subarray_c(1, (MPI_Count[]){ BIG }, (MPI_Count[]){ 1 },
                                           (MPI_Count[]){ 0 }, MPI_ORDER_C, MPI_CHAR, &t),
                MPI_ERR_COUNT, "Type_create_subarray_c with a size above INT_MAX");
    MT_OK(MPI_Type_contiguous_c(BIG, MPI_CHAR, &t));
    MT_OK(MPI_Type_commit(&t));
    MT_ERRCLASS(MPI_Pack_size(1, t, MPI_COMM_WORLD, &isize), MPI_ERR_COUNT,
                "Pack_size of more than INT_MAX bytes");
    MT_OK(MPI_Type_free(&t));
    MT_ERRCLASS(MPI_Pack_size_c(-1, MPI_INT, MPI_COMM_WORLD, &size), MPI_ERR_COUNT,
                "Pack_size_c with a negative count");
out:
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    constructors();
    big();
    errors();
    return MTest_Finalize();
}
