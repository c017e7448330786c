/*
 * ibcast_order: nonblocking broadcasts from one root on several
 * communicators, called in the same order everywhere but completed in each
 * rank's own order (as MPICH's coll/nonblocking3 does). The root here starts
 * two later broadcasts after the readers have freed its shared buffers, while
 * an earlier one still waits for a buffer; the readers complete the earlier
 * ones before they start the later ones. The later broadcasts must not take
 * the root's buffers first, or no rank moves again.
 */
#include <string.h>
#include <unistd.h>

#include "mtest.h"

#define COUNT 8
#define NCOMM 5 /* x, y (hold the root's buffers), a, then b, c */

static void fill(int *buf, int k, int root_side)
{
    for (int i = 0; i < COUNT; i++)
        buf[i] = root_side ? 1000 * k + i : -1;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm comm[NCOMM];
    int buf[NCOMM][COUNT];
    MPI_Request req[NCOMM];
    for (int k = 0; k < NCOMM; k++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comm[k]);
        fill(buf[k], k, MTest_rank == 0);
    }
    for (int round = 0; round < 3; round++) {
        /* x, y, a: a finds the root's buffers taken by x and y. */
        for (int k = 0; k < 3; k++)
            MPI_Ibcast(buf[k], COUNT, MPI_INT, 0, comm[k], &req[k]);
        if (MTest_rank == 0) {
            /* Let the readers free x's and y's buffers while the root runs
             * no progress, then start b and c. */
            usleep(300000);
            for (int k = 3; k < NCOMM; k++)
                MPI_Ibcast(buf[k], COUNT, MPI_INT, 0, comm[k], &req[k]);
            MPI_Waitall(NCOMM, req, MPI_STATUSES_IGNORE);
        } else {
            MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
            for (int k = 3; k < NCOMM; k++)
                MPI_Ibcast(buf[k], COUNT, MPI_INT, 0, comm[k], &req[k]);
            MPI_Waitall(NCOMM - 3, req + 3, MPI_STATUSES_IGNORE);
        }
        for (int k = 0; k < NCOMM; k++)
            for (int i = 0; i < COUNT; i++)
                MT_CHECK(buf[k][i] == 1000 * k + i, "comm %d [%d] = %d", k, i, buf[k][i]);
        for (int k = 0; k < NCOMM; k++)
            fill(buf[k], k, MTest_rank == 0);
    }
    for (int k = 0; k < NCOMM; k++)
        MPI_Comm_free(&comm[k]);
    return MTest_Finalize();
}
