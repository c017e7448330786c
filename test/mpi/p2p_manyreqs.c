/*
 * p2p_manyreqs: large numbers of outstanding requests. NREQ Isends to self
 * on COMM_SELF, then NREQ Irecvs, one Waitall over all 2*NREQ; then a ring
 * with NREQ Irecvs posted first and NREQ Isends to the right neighbour, one
 * Waitall; then the reverse (Isends before the Irecvs are posted). Same tag
 * throughout, so message i must land in receive i (non-overtaking).
 */
#include "mtest.h"

#include <stdlib.h>

#define NREQ 10000

static void check(const int *in, int n, const char *what)
{
    for (int i = 0; i < n; i++) {
        if (in[i] != i) {
            MT_FAIL("%s: receive %d got %d", what, i, in[i]);
            return;
        }
    }
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int right = (MTest_rank + 1) % MTest_size;
    int left = (MTest_rank + MTest_size - 1) % MTest_size;
    MPI_Request *req = MTest_Malloc(2 * NREQ * sizeof(MPI_Request));
    MPI_Status *st = MTest_Malloc(2 * NREQ * sizeof(MPI_Status));
    int *out = MTest_Malloc(NREQ * sizeof(int)), *in = MTest_Malloc(NREQ * sizeof(int));

    for (int i = 0; i < NREQ; i++)
        out[i] = i;

    /* self: sends first (unexpected), then receives */
    for (int i = 0; i < NREQ; i++)
        in[i] = -1;
    for (int i = 0; i < NREQ; i++)
        MT_OK(MPI_Isend(&out[i], 1, MPI_INT, 0, 4, MPI_COMM_SELF, &req[i]));
    for (int i = 0; i < NREQ; i++)
        MT_OK(MPI_Irecv(&in[i], 1, MPI_INT, 0, 4, MPI_COMM_SELF, &req[NREQ + i]));
    MT_OK(MPI_Waitall(2 * NREQ, req, st));
    check(in, NREQ, "self");
    for (int i = 0; i < 2 * NREQ; i++)
        MT_CHECK(req[i] == MPI_REQUEST_NULL, "request %d not MPI_REQUEST_NULL after Waitall", i);

    /* ring: receives posted first */
    for (int i = 0; i < NREQ; i++)
        in[i] = -1;
    for (int i = 0; i < NREQ; i++)
        MT_OK(MPI_Irecv(&in[i], 1, MPI_INT, left, 5, MPI_COMM_WORLD, &req[i]));
    for (int i = 0; i < NREQ; i++)
        MT_OK(MPI_Isend(&out[i], 1, MPI_INT, right, 5, MPI_COMM_WORLD, &req[NREQ + i]));
    MT_OK(MPI_Waitall(2 * NREQ, req, st));
    check(in, NREQ, "ring, receives first");
    for (int i = 0; i < NREQ; i += 997)
        MT_CHECK(st[i].MPI_SOURCE == left && st[i].MPI_TAG == 5,
                 "ring status %d: source %d tag %d", i, st[i].MPI_SOURCE, st[i].MPI_TAG);

    /* ring: sends first */
    for (int i = 0; i < NREQ; i++)
        in[i] = -1;
    for (int i = 0; i < NREQ; i++)
        MT_OK(MPI_Isend(&out[i], 1, MPI_INT, right, 6, MPI_COMM_WORLD, &req[i]));
    for (int i = 0; i < NREQ; i++)
        MT_OK(MPI_Irecv(&in[i], 1, MPI_INT, left, 6, MPI_COMM_WORLD, &req[NREQ + i]));
    MT_OK(MPI_Waitall(2 * NREQ, req, MPI_STATUSES_IGNORE));
    check(in, NREQ, "ring, sends first");

    free(req);
    free(st);
    free(out);
    free(in);
    return MTest_Finalize();
}
