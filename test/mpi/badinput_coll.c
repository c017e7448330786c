/*
 * badinput_coll: collectives whose ranks pass different sizes fail instead
 * of truncating silently or hanging, with MPI_ERRORS_RETURN, and the
 * communicator's next collectives work. A broadcast receiver that expects
 * less than the root sends gets MPI_ERR_TRUNCATE (as in MPICH and Open MPI),
 * one that expects more MPI_ERR_OTHER; in an allreduce a rank that meets a
 * longer contribution than its own gets MPI_ERR_TRUNCATE, one that meets
 * only shorter ones MPI_ERR_OTHER. Sizes: one chunk of the shared areas (on
 * two ranks their limit is 1 KiB), then several (more than 128 KiB) on more
 * ranks; the nonblocking broadcast in one chunk.
 */
#include "err_common.h"

#include <stdlib.h>

/* A broadcast from rank 0 of n ints, the other ranks expecting m. */
static void bcast_mismatch(int n, int m, int nonblocking)
{
    int me = MTest_rank, count = me == 0 ? n : m;
    int *buf = calloc((size_t)(n > m ? n : m), sizeof(int));
    for (int i = 0; i < count; i++)
        buf[i] = me == 0 ? i + 1 : -1;
    int rc;
    if (nonblocking) {
        MPI_Request r;
        MT_OK(MPI_Ibcast(buf, count, MPI_INT, 0, MPI_COMM_WORLD, &r));
        rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
        rc = MPI_Bcast(buf, count, MPI_INT, 0, MPI_COMM_WORLD);
    }
    char what[96];
    snprintf(what, sizeof(what), "%s of %d ints, rank %d expecting %d",
             nonblocking ? "Ibcast" : "Bcast", n, me, count);
    if (me == 0)
        MT_OK(rc);
    else
        MT_ERRCLASS(rc, n > m ? MPI_ERR_TRUNCATE : MPI_ERR_OTHER, what);
    if (me != 0 && n < m)
        for (int i = 0; i < n; i++)
            MT_CHECK(buf[i] == i + 1, "%s: element %d is %d, not %d", what, i, buf[i], i + 1);
    free(buf);
}

/* Rank 0 contributes n ints to an allreduce, the others m. */
static void allreduce_mismatch(int n, int m, int in_place)
{
    int me = MTest_rank, count = me == 0 ? n : m;
    int *in = calloc((size_t)(n > m ? n : m), sizeof(int));
    int *out = calloc((size_t)(n > m ? n : m), sizeof(int));
    int rc = MPI_Allreduce(in_place ? MPI_IN_PLACE : in, in_place ? in : out, count, MPI_INT,
                           MPI_SUM, MPI_COMM_WORLD);
    char what[96];
    snprintf(what, sizeof(what), "Allreduce%s of %d ints at rank 0, %d at rank %d",
             in_place ? " in place" : "", n, m, me);
    int longer = me == 0 ? m > n : n > m;
    MT_ERRCLASS(rc, longer ? MPI_ERR_TRUNCATE : MPI_ERR_OTHER, what);
    free(in);
    free(out);
}

/* A broadcast and an allreduce of n ints that agree, checked. */
static void agreed(int n, const char *after)
{
    int *buf = malloc((size_t)n * sizeof(int)), *sum = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        buf[i] = MTest_rank == 0 ? 3 * i + 7 : 0;
    MT_OK(MPI_Bcast(buf, n, MPI_INT, 0, MPI_COMM_WORLD));
    for (int i = 0; i < n; i++)
        if (buf[i] != 3 * i + 7) {
            MT_FAIL("Bcast after %s: element %d is %d, not %d", after, i, buf[i], 3 * i + 7);
            break;
        }
    MT_OK(MPI_Allreduce(buf, sum, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    for (int i = 0; i < n; i++)
        if (sum[i] != (3 * i + 7) * MTest_size) {
            MT_FAIL("Allreduce after %s: element %d is %d, not %d", after, i, sum[i],
                    (3 * i + 7) * MTest_size);
            break;
        }
    free(buf);
    free(sum);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    errors_return();
    /* One chunk: within 1 KiB. */
    bcast_mismatch(64, 32, 0);
    agreed(64, "a longer broadcast");
    bcast_mismatch(32, 64, 0);
    agreed(64, "a shorter broadcast");
    bcast_mismatch(64, 32, 1);
    agreed(64, "a longer nonblocking broadcast");
    allreduce_mismatch(64, 32, 0);
    agreed(64, "an allreduce whose rank 0 passed more");
    allreduce_mismatch(32, 64, 1);
    agreed(64, "an allreduce in place whose rank 0 passed less");
    if (MTest_size > 2) {
        /* Several chunks of 128 KiB, and an allreduce where each rank
         * reduces a segment (from 16 KiB). */
        bcast_mismatch(75000, 50000, 0);
        agreed(75000, "a longer broadcast of several chunks");
        bcast_mismatch(50000, 75000, 0);
        agreed(75000, "a shorter broadcast of several chunks");
        allreduce_mismatch(75000, 5000, 0);
        agreed(75000, "an allreduce of several chunks");
    }
    MTest_Check_comm_works(MPI_COMM_WORLD, "collectives of mismatched sizes");
    return MTest_Finalize();
}
