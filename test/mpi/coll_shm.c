/*
 * coll_shm: the cases node-local collectives through shared memory must get
 * right (rdmpi takes that path for MPI_Bcast, MPI_Allreduce and MPI_Alltoall when every
 * rank is on one node; other MPIs run it as a plain collective test):
 *   - two communicators used alternately (world and a split half, the
 *     half's ranks in reverse order), roots rotating;
 *   - a communicator freed and created again many times (context ids get
 *     reused, sequence numbers start again);
 *   - sizes across several multiples of the chunk (coll.testlist runs it
 *     with a small RDMPI_SHM_AREA_BYTES) and on both sides of the size
 *     limits (coll.testlist runs it with small RDMPI_*_SHM_MAX);
 *   - a non-commutative user op (composition of affine maps), in place and
 *     not, compared with the rank-order result computed locally;
 *   - MPI_SUM of doubles: every rank must hold bit-identical results;
 *   - MPI_Bcast of a non-contiguous (vector) type.
 */
#include "mtest.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const int sizes[] = { 1, 7, 250, 251, 252, 511, 512, 513, 976, 1000, 1024, 3903, 3904, 3905, 8000,
                             20000, 70001 };
#define NSIZES (int)(sizeof(sizes) / sizeof(sizes[0]))

static int val(int i, int root, int round)
{
    return i * 7 + root * 100003 + round * 31 + 1;
}

static void bcast_check(MPI_Comm comm, int n, int root, int round)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    int *buf = MTest_Malloc((size_t)n * sizeof(int) + 1);
    for (int i = 0; i < n; i++)
        buf[i] = rank == root ? val(i, root, round) : -1;
    MT_OK(MPI_Bcast(buf, n, MPI_INT, root, comm));
    for (int i = 0; i < n; i++)
        if (buf[i] != val(i, root, round)) {
            MT_FAIL("Bcast n=%d root=%d round=%d: int %d is %d, expected %d", n, root, round, i,
                    buf[i], val(i, root, round));
            break;
        }
    free(buf);
}

static void allreduce_check(MPI_Comm comm, int n, int round, int inplace)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *s = MTest_Malloc((size_t)n * sizeof(int) + 1), *r = MTest_Malloc((size_t)n * sizeof(int) + 1);
    for (int i = 0; i < n; i++)
        s[i] = r[i] = val(i, rank, round);
    MT_OK(MPI_Allreduce(inplace ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM, comm));
    for (int i = 0; i < n; i++) {
        int want = 0;
        for (int p = 0; p < size; p++)
            want += val(i, p, round);
        if (r[i] != want) {
            MT_FAIL("Allreduce n=%d round=%d inplace=%d: int %d is %d, expected %d", n, round,
                    inplace, i, r[i], want);
            break;
        }
    }
    free(s);
    free(r);
}

static void alltoall_check(MPI_Comm comm, int n, int round)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    size_t all = (size_t)n * (size_t)size;
    int *s = MTest_Malloc(all * sizeof(int) + 1), *r = MTest_Malloc(all * sizeof(int) + 1);
    for (int d = 0; d < size; d++)
        for (int i = 0; i < n; i++) {
            s[(size_t)d * (size_t)n + (size_t)i] = val(i, rank * 64 + d, round);
            r[(size_t)d * (size_t)n + (size_t)i] = -1;
        }
    MT_OK(MPI_Alltoall(s, n, MPI_INT, r, n, MPI_INT, comm));
    for (int w = 0; w < size; w++)
        for (int i = 0; i < n; i++)
            if (r[(size_t)w * (size_t)n + (size_t)i] != val(i, w * 64 + rank, round)) {
                MT_FAIL("Alltoall n=%d round=%d: int %d from %d is %d, expected %d", n, round, i,
                        w, r[(size_t)w * (size_t)n + (size_t)i], val(i, w * 64 + rank, round));
                w = size;
                break;
            }
    free(s);
    free(r);
}

/* Two communicators alternately, every size, rotating roots. */
static void two_comms(void)
{
    MPI_Comm half;
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, MTest_rank % 2, -MTest_rank, &half));
    int hsize;
    MPI_Comm_size(half, &hsize);
    for (int k = 0; k < NSIZES; k++) {
        bcast_check(MPI_COMM_WORLD, sizes[k], k % MTest_size, k);
        bcast_check(half, sizes[k], k % hsize, k);
        allreduce_check(half, sizes[k], k, k % 2);
        allreduce_check(MPI_COMM_WORLD, sizes[k], k, (k + 1) % 2);
        bcast_check(half, sizes[k], (k + 1) % hsize, k + 1);
        bcast_check(MPI_COMM_WORLD, sizes[k], (k + 1) % MTest_size, k + 1);
        alltoall_check(MPI_COMM_WORLD, sizes[k] / 4 + 1, k);
        alltoall_check(half, sizes[k] / 4 + 1, k);
        allreduce_check(MPI_COMM_WORLD, sizes[k], k + 2, 0);
    }
    MT_OK(MPI_Comm_free(&half));
}

/* A communicator created and freed again and again. */
static void reused_comms(void)
{
    for (int round = 0; round < 20; round++) {
        MPI_Comm d;
        MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
        bcast_check(d, 100 + round, round % MTest_size, round);
        allreduce_check(d, 50 + round, round, round % 2);
        alltoall_check(d, 10 + round, round);
        MT_OK(MPI_Comm_free(&d));
    }
}

/* Affine maps x -> a x + b on unsigned 32-bit integers: composition is
 * associative and not commutative. in o inout: x -> in(inout(x)). */
typedef struct { unsigned a, b; } affine_t;

static void compose(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const affine_t *f = in;
    affine_t *g = inout;
    for (int i = 0; i < *len; i++) {
        affine_t r = { f[i].a * g[i].a, f[i].a * g[i].b + f[i].b };
        g[i] = r;
    }
}

static affine_t affine_of(int rank, int i)
{
    affine_t f = { 2u * (unsigned)rank + 3u + (unsigned)i, (unsigned)rank * 17u + (unsigned)i };
    return f;
}

static void noncommutative(void)
{
    MPI_Datatype t;
    MPI_Op op;
    MT_OK(MPI_Type_contiguous(2, MPI_UNSIGNED, &t));
    MT_OK(MPI_Type_commit(&t));
    MT_OK(MPI_Op_create(compose, 0, &op));
    for (int k = 0; k < NSIZES; k++) {
        int n = sizes[k] / 2 + 1;
        affine_t *s = MTest_Malloc((size_t)n * sizeof(affine_t));
        affine_t *r = MTest_Malloc((size_t)n * sizeof(affine_t));
        for (int i = 0; i < n; i++)
            s[i] = r[i] = affine_of(MTest_rank, i);
        MT_OK(MPI_Allreduce(k % 2 ? MPI_IN_PLACE : s, r, n, t, op, MPI_COMM_WORLD));
        for (int i = 0; i < n; i++) {
            /* x0 o x1 o ... o x(n-1) */
            affine_t want = affine_of(MTest_size - 1, i);
            for (int p = MTest_size - 2; p >= 0; p--) {
                affine_t f = affine_of(p, i);
                int one = 1;
                compose(&f, &want, &one, &t);
            }
            if (r[i].a != want.a || r[i].b != want.b) {
                MT_FAIL("non-commutative Allreduce n=%d: element %d is (%u,%u), expected (%u,%u)",
                        n, i, r[i].a, r[i].b, want.a, want.b);
                break;
            }
        }
        free(s);
        free(r);
    }
    MT_OK(MPI_Op_free(&op));
    MT_OK(MPI_Type_free(&t));
}

/* Sums of doubles that depend on the order: every rank gets the same bits. */
static void identical_doubles(void)
{
    for (int k = 0; k < NSIZES; k++) {
        int n = sizes[k];
        double *s = MTest_Malloc((size_t)n * sizeof(double));
        double *r = MTest_Malloc((size_t)n * sizeof(double));
        double *all = MTest_Malloc((size_t)n * sizeof(double) * (size_t)MTest_size);
        for (int i = 0; i < n; i++)
            s[i] = (MTest_rank % 2 ? 1e16 : 1.0) * (1.0 + (double)i / 3.0) / (MTest_rank + 1);
        MT_OK(MPI_Allreduce(s, r, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
        MT_OK(MPI_Allgather(r, n, MPI_DOUBLE, all, n, MPI_DOUBLE, MPI_COMM_WORLD));
        for (int p = 0; p < MTest_size; p++)
            if (memcmp(all + (size_t)p * (size_t)n, r, (size_t)n * sizeof(double)) != 0) {
                MT_FAIL("Allreduce of doubles n=%d: rank %d's result differs from rank %d's",
                        n, p, MTest_rank);
                break;
            }
        free(s);
        free(r);
        free(all);
    }
}

/* Every third int of 3 * n, from every root. */
static void bcast_vector(int n)
{
    MPI_Datatype v;
    MT_OK(MPI_Type_vector(n, 1, 3, MPI_INT, &v));
    MT_OK(MPI_Type_commit(&v));
    int *buf = MTest_Malloc((size_t)n * 3 * sizeof(int));
    for (int root = 0; root < MTest_size; root++) {
        for (int i = 0; i < 3 * n; i++)
            buf[i] = MTest_rank == root || i % 3 ? val(i, root, 0) : -1;
        MT_OK(MPI_Bcast(buf, 1, v, root, MPI_COMM_WORLD));
        for (int i = 0; i < 3 * n; i++)
            if (buf[i] != val(i, root, 0)) {
                MT_FAIL("vector Bcast n=%d root=%d: int %d is %d, expected %d", n, root, i,
                        buf[i], val(i, root, 0));
                break;
            }
    }
    free(buf);
    MT_OK(MPI_Type_free(&v));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    two_comms();
    reused_comms();
    noncommutative();
    identical_doubles();
    bcast_vector(5);
    bcast_vector(3000);
    return MTest_Finalize();
}
