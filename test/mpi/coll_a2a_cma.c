/*
 * coll_a2a_cma: MPI_Alltoall with blocks large enough for rdmpi's
 * single-copy node-local path (src/coll/coll_shm.c, rd_coll_shm_alltoall_cma:
 * every rank reads its blocks straight from the peers' send buffers), run
 * with the path forced on for every size, off, and with CMA unavailable
 * (coll.testlist). Checks contiguous blocks, a strided send type, a strided
 * receive type, a resized type with gaps between blocks, MPI_IN_PLACE, a
 * split communicator, and many repetitions that overwrite the send buffer
 * the moment the call returns (a rank that returned while a peer still
 * read its send buffer would hand that peer the next round's data).
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

/* Element i of the block rank `from` sends to rank `to` in round `round`. */
static int val(int from, int to, int i, int round)
{
    return (int)(((unsigned)from * 2654435761u) ^ ((unsigned)to * 40503u) ^
                 ((unsigned)i * 97u) ^ ((unsigned)round << 20));
}

/* Contiguous ints, n per block, `rounds` times on comm, optionally in place. */
static void plain(MPI_Comm comm, int n, int rounds, int inplace)
{
    int me, size;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &size);
    size_t all = (size_t)n * (size_t)size;
    int *s = MTest_Malloc(all * sizeof(int) + 1), *r = MTest_Malloc(all * sizeof(int) + 1);
    for (int round = 0; round < rounds; round++) {
        int *out = inplace ? r : s;
        for (int d = 0; d < size; d++)
            for (int i = 0; i < n; i++)
                out[(size_t)d * (size_t)n + (size_t)i] = val(me, d, i, round);
        if (!inplace)
            memset(r, 0xff, all * sizeof(int));
        MT_OK(MPI_Alltoall(inplace ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT, comm));
        /* Reuse the send buffer at once: a peer still reading it sees garbage. */
        if (!inplace)
            memset(s, 0xee, all * sizeof(int));
        for (int w = 0; w < size; w++)
            for (int i = 0; i < n; i++)
                if (r[(size_t)w * (size_t)n + (size_t)i] != val(w, me, i, round)) {
                    MT_FAIL("Alltoall n=%d round=%d inplace=%d size=%d: int %d from %d is %d, "
                            "expected %d", n, round, inplace, size, i, w,
                            r[(size_t)w * (size_t)n + (size_t)i], val(w, me, i, round));
                    free(s);
                    free(r);
                    return;
                }
    }
    free(s);
    free(r);
}

/* Derived types: blocks of n ints sent as every other int of a buffer
 * twice as large (vector), received contiguous; then sent contiguous and
 * received strided; then both with a resized type whose extent leaves a
 * gap of 16 ints between blocks, which must stay untouched. */
static void derived(int n)
{
    int me = MTest_rank, size = MTest_size;
    size_t all = (size_t)n * (size_t)size;
    MPI_Datatype strided, gapped, one_block;
    MT_OK(MPI_Type_vector(n, 1, 2, MPI_INT, &strided));
    MT_OK(MPI_Type_commit(&strided));
    MT_OK(MPI_Type_contiguous(n, MPI_INT, &one_block));
    MT_OK(MPI_Type_create_resized(one_block, 0, (MPI_Aint)(n + 16) * (MPI_Aint)sizeof(int),
                                  &gapped));
    MT_OK(MPI_Type_commit(&gapped));
    /* Room for 2n ints per block (strided) or n + 16 (gapped). */
    size_t room = (size_t)size * (size_t)(2 * n + 16);
    int *wide = MTest_Malloc(room * sizeof(int)), *flat = MTest_Malloc(all * sizeof(int));
    for (int way = 0; way < 3; way++) {
        for (size_t i = 0; i < room; i++)
            wide[i] = -7;
        /* strided: block d starts at int (2n - 1)d (the vector's extent)
         * and takes every other int; gapped: block d occupies
         * [(n+16)d, (n+16)d + n). */
        size_t bstride = way == 2 ? (size_t)n + 16 : 2 * (size_t)n - 1;
        size_t estride = way == 2 ? 1 : 2;
        if (way == 0 || way == 2)
            for (int d = 0; d < size; d++)
                for (int i = 0; i < n; i++)
                    wide[(size_t)d * bstride + (size_t)i * estride] = val(me, d, i, way);
        else
            for (int d = 0; d < size; d++)
                for (int i = 0; i < n; i++)
                    flat[(size_t)d * (size_t)n + (size_t)i] = val(me, d, i, way);
        if (way == 0) {
            memset(flat, 0xff, all * sizeof(int));
            MT_OK(MPI_Alltoall(wide, 1, strided, flat, n, MPI_INT, MPI_COMM_WORLD));
        } else if (way == 1) {
            MT_OK(MPI_Alltoall(flat, n, MPI_INT, wide, 1, strided, MPI_COMM_WORLD));
        } else {
            int *g = MTest_Malloc(room * sizeof(int));
            for (size_t i = 0; i < room; i++)
                g[i] = -9;
            MT_OK(MPI_Alltoall(wide, 1, gapped, g, 1, gapped, MPI_COMM_WORLD));
            for (int w = 0; w < size; w++) {
                for (int i = 0; i < n; i++)
                    flat[(size_t)w * (size_t)n + (size_t)i] = g[(size_t)w * bstride + (size_t)i];
                if (w < size - 1)
                    for (int i = n; i < n + 16; i++)
                        MT_CHECK(g[(size_t)w * bstride + (size_t)i] == -9,
                                 "Alltoall gapped n=%d: gap after block %d written", n, w);
            }
            free(g);
        }
        for (int w = 0; w < size; w++)
            for (int i = 0; i < n; i++) {
                int got = way == 1 ? wide[(size_t)w * bstride + (size_t)i * estride]
                                   : flat[(size_t)w * (size_t)n + (size_t)i];
                if (got != val(w, me, i, way)) {
                    MT_FAIL("Alltoall derived way=%d n=%d: int %d from %d is %d, expected %d",
                            way, n, i, w, got, val(w, me, i, way));
                    w = size;
                    break;
                }
                if (way == 1 && i < n - 1)
                    MT_CHECK(wide[(size_t)w * bstride + (size_t)i * 2 + 1] == -7,
                             "Alltoall strided receive n=%d wrote between elements", n);
            }
    }
    MT_OK(MPI_Type_free(&strided));
    MT_OK(MPI_Type_free(&gapped));
    MT_OK(MPI_Type_free(&one_block));
    free(wide);
    free(flat);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    /* Ints per block: 16 KiB and below (the areas take those by default),
     * just above, odd sizes, and 256 KiB. */
    const int sizes[] = { 1, 1000, 4096, 4097, 8192, 12345, 65536 };
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        plain(MPI_COMM_WORLD, sizes[k], 3, 0);
        plain(MPI_COMM_WORLD, sizes[k], 2, 1);
    }
    plain(MPI_COMM_WORLD, 5000, 200, 0);
    plain(MPI_COMM_WORLD, 5000, 50, 1);
    derived(5000);
    derived(3);
    MPI_Comm half;
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, MTest_rank % 2, -MTest_rank, &half));
    plain(half, 6000, 20, 0);
    plain(MPI_COMM_WORLD, 6000, 20, 0);
    plain(half, 6000, 5, 1);
    MT_OK(MPI_Comm_free(&half));
    return MTest_Finalize();
}
