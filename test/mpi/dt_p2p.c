/*
 * dt_p2p: derived datatypes in Send/Recv, Isend/Irecv and Sendrecv around the
 * ring (to self at np 1), at eager and rendezvous sizes (up to 2 MiB of
 * data). Sender and receiver use different but type-map-compatible types:
 * a strided vector is received as contiguous doubles and the other way
 * round, a struct with gaps is received as a different struct, an indexed
 * type as a vector. Get_count and Get_elements are checked on each receive.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

static int right, left;

static double val(long i, int rank) { return (double)(i * 3 + rank * 1000003L + 1); }

/* n doubles: sent as vector(n, 1, 2), received as n contiguous; then back. */
static void vector_vs_contig(long n)
{
    double *s = MTest_Malloc((size_t)n * 2 * sizeof(double));
    double *r = MTest_Malloc((size_t)n * 2 * sizeof(double));
    MPI_Datatype vec, contig;
    MPI_Status st;
    int count;
    MT_OK(MPI_Type_vector((int)n, 1, 2, MPI_DOUBLE, &vec));
    MT_OK(MPI_Type_commit(&vec));
    MT_OK(MPI_Type_contiguous((int)n, MPI_DOUBLE, &contig));
    MT_OK(MPI_Type_commit(&contig));
    for (long i = 0; i < 2 * n; i++)
        s[i] = val(i, MTest_rank);

    memset(r, 0, (size_t)n * 2 * sizeof(double));
    MT_OK(MPI_Sendrecv(s, 1, vec, right, 1, r, (int)n, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &st));
    MT_OK(MPI_Get_count(&st, MPI_DOUBLE, &count));
    MT_CHECK(count == n, "vector->double: Get_count %d, expected %ld", count, n);
    for (long i = 0; i < n; i++)
        if (r[i] != val(2 * i, left)) {
            MT_FAIL("vector->double n=%ld: element %ld is %g, expected %g", n, i, r[i],
                    val(2 * i, left));
            break;
        }

    /* contiguous sent with Isend, received with Irecv into the odd slots */
    MPI_Request rq[2];
    for (long i = 0; i < 2 * n; i++)
        r[i] = -1;
    MT_OK(MPI_Irecv(r + 1, 1, vec, left, 2, MPI_COMM_WORLD, &rq[0]));
    MT_OK(MPI_Isend(s, 1, contig, right, 2, MPI_COMM_WORLD, &rq[1]));
    MT_OK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    for (long i = 0; i < 2 * n; i++) {
        double want = i % 2 ? val(i / 2, left) : -1;
        if (r[i] != want) {
            MT_FAIL("contig->vector n=%ld: slot %ld is %g, expected %g", n, i, r[i], want);
            break;
        }
    }
    MT_OK(MPI_Type_free(&vec));
    MT_OK(MPI_Type_free(&contig));
    free(s);
    free(r);
}

/* A struct with gaps { int a; double b[2]; char c; } sent as count n and
 * received as a packed { int; double; double; char } struct of different
 * displacements. */
struct gap { int a; double b[2]; char c; };
struct tight { char pad[3]; int a; double b0; double b1; char c; char tail[5]; };

static MPI_Datatype gap_type(void)
{
    int bl[3] = { 1, 2, 1 };
    MPI_Aint d[3] = { offsetof(struct gap, a), offsetof(struct gap, b), offsetof(struct gap, c) };
    MPI_Datatype t[3] = { MPI_INT, MPI_DOUBLE, MPI_CHAR }, out;
    MT_OK(MPI_Type_create_struct(3, bl, d, t, &out));
    MPI_Aint lb, ext;
    MT_OK(MPI_Type_get_extent(out, &lb, &ext));
    MT_CHECK(lb == 0 && ext == (MPI_Aint)sizeof(struct gap), "struct gap: lb %ld extent %ld, expected 0 %zu",
             (long)lb, (long)ext, sizeof(struct gap));
    MT_OK(MPI_Type_commit(&out));
    return out;
}

static MPI_Datatype tight_type(void)
{
    int bl[4] = { 1, 1, 1, 1 };
    MPI_Aint d[4] = { offsetof(struct tight, a), offsetof(struct tight, b0),
                      offsetof(struct tight, b1), offsetof(struct tight, c) };
    MPI_Datatype t[4] = { MPI_INT, MPI_DOUBLE, MPI_DOUBLE, MPI_CHAR }, tmp, out;
    MT_OK(MPI_Type_create_struct(4, bl, d, t, &tmp));
    MT_OK(MPI_Type_create_resized(tmp, 0, sizeof(struct tight), &out));
    MT_OK(MPI_Type_free(&tmp));
    MT_OK(MPI_Type_commit(&out));
    return out;
}

static void structs(long n)
{
    struct gap *s = MTest_Malloc((size_t)n * sizeof(*s));
    struct tight *r = MTest_Malloc((size_t)n * sizeof(*r));
    MPI_Datatype g = gap_type(), t = tight_type();
    MPI_Status st;
    int count, elems;
    memset(s, 0x5a, (size_t)n * sizeof(*s));
    for (long i = 0; i < n; i++) {
        s[i].a = (int)(i + MTest_rank);
        s[i].b[0] = val(i, MTest_rank);
        s[i].b[1] = -val(i, MTest_rank);
        s[i].c = (char)(i % 100);
    }
    memset(r, 0x77, (size_t)n * sizeof(*r));
    MPI_Request rq;
    MT_OK(MPI_Irecv(r, (int)n, t, left, 3, MPI_COMM_WORLD, &rq));
    MT_OK(MPI_Send(s, (int)n, g, right, 3, MPI_COMM_WORLD));
    MT_OK(MPI_Wait(&rq, &st));
    MT_OK(MPI_Get_count(&st, t, &count));
    MT_OK(MPI_Get_elements(&st, t, &elems));
    MT_CHECK(count == n, "struct: Get_count %d, expected %ld", count, n);
    MT_CHECK(elems == 4 * n, "struct: Get_elements %d, expected %ld", elems, 4 * n);
    for (long i = 0; i < n; i++) {
        if (r[i].a != (int)(i + left) || r[i].b0 != val(i, left) || r[i].b1 != -val(i, left) ||
            r[i].c != (char)(i % 100) || r[i].pad[0] != 0x77 || r[i].tail[4] != 0x77) {
            MT_FAIL("struct n=%ld: element %ld wrong", n, i);
            break;
        }
    }
    MT_OK(MPI_Type_free(&g));
    MT_OK(MPI_Type_free(&t));
    free(s);
    free(r);
}

/* indexed ints {blocks of 3 at 0, 7, 14, ...} received as vector(k, 3, 7). */
static void indexed_vs_vector(int k)
{
    int *bl = MTest_Malloc((size_t)k * sizeof(int)), *disp = MTest_Malloc((size_t)k * sizeof(int));
    int *s = MTest_Malloc((size_t)k * 7 * sizeof(int)), *r = MTest_Malloc((size_t)k * 7 * sizeof(int));
    for (int i = 0; i < k; i++) {
        bl[i] = 3;
        disp[i] = 7 * i;
    }
    for (int i = 0; i < 7 * k; i++) {
        s[i] = i * 11 + MTest_rank;
        r[i] = -5;
    }
    MPI_Datatype idx, vec;
    MT_OK(MPI_Type_indexed(k, bl, disp, MPI_INT, &idx));
    MT_OK(MPI_Type_commit(&idx));
    MT_OK(MPI_Type_vector(k, 3, 7, MPI_INT, &vec));
    MT_OK(MPI_Type_commit(&vec));
    MPI_Status st;
    int elems;
    MT_OK(MPI_Sendrecv(s, 1, idx, right, 4, r, 1, vec, left, 4, MPI_COMM_WORLD, &st));
    MT_OK(MPI_Get_elements(&st, vec, &elems));
    MT_CHECK(elems == 3 * k, "indexed: Get_elements %d, expected %d", elems, 3 * k);
    for (int i = 0; i < 7 * k; i++) {
        int want = i % 7 < 3 ? i * 11 + left : -5;
        if (r[i] != want) {
            MT_FAIL("indexed->vector k=%d: slot %d is %d, expected %d", k, i, r[i], want);
            break;
        }
    }
    MT_OK(MPI_Type_free(&idx));
    MT_OK(MPI_Type_free(&vec));
    free(bl);
    free(disp);
    free(s);
    free(r);
}

/* A short receive: fewer elements arrive than the receive type holds. */
static void partial(void)
{
    double s[6], r[12];
    for (int i = 0; i < 6; i++)
        s[i] = val(i, MTest_rank);
    for (int i = 0; i < 12; i++)
        r[i] = -1;
    MPI_Datatype vec;
    MT_OK(MPI_Type_vector(4, 2, 3, MPI_DOUBLE, &vec));
    MT_OK(MPI_Type_commit(&vec));
    MPI_Status st;
    int count, elems;
    MT_OK(MPI_Sendrecv(s, 5, MPI_DOUBLE, right, 5, r, 1, vec, left, 5, MPI_COMM_WORLD, &st));
    MT_OK(MPI_Get_count(&st, vec, &count));
    MT_OK(MPI_Get_elements(&st, vec, &elems));
    MT_CHECK(count == MPI_UNDEFINED, "partial: Get_count %d, expected MPI_UNDEFINED", count);
    MT_CHECK(elems == 5, "partial: Get_elements %d, expected 5", elems);
    const int where[5] = { 0, 1, 3, 4, 6 };
    for (int i = 0; i < 5; i++)
        MT_CHECK(r[where[i]] == val(i, left), "partial: slot %d wrong", where[i]);
    MT_CHECK(r[2] == -1 && r[7] == -1 && r[9] == -1, "partial: gaps were written");
    MT_OK(MPI_Type_free(&vec));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    right = (MTest_rank + 1) % MTest_size;
    left = (MTest_rank + MTest_size - 1) % MTest_size;
    const long sizes[] = { 1, 10, 1000, 40000, 262144 };
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        vector_vs_contig(sizes[i]);
        structs(sizes[i] / 4 + 1);
        indexed_vs_vector((int)(sizes[i] / 8 + 1));
    }
    partial();
    return MTest_Finalize();
}
