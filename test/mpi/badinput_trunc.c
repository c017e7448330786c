/*
 * badinput_trunc: the rooted collectives, on their message paths too
 * (RDMPI_TRANSPORTS=tcp, or sizes beyond the shared areas), report a rank
 * that is sent more than it expects with MPI_ERR_TRUNCATE, as MPICH and
 * Open MPI do, instead of truncating silently or hanging; with
 * MPI_ERRORS_RETURN, and the communicator's next collectives work. The
 * receivers are every non-root rank of Bcast, Scatter(v) and their
 * nonblocking forms (the root sends more), and the root of Gather(v),
 * Reduce and theirs (the others send more). Ranks that relay in a tree get
 * the error too, and so do the ranks they relay to. With the argument
 * "all", Allgather and Alltoall (and their nonblocking forms) whose rank 0
 * passes more than the others: every other rank gets MPI_ERR_TRUNCATE,
 * directly or through a relay that got it. Sizes: 64 against 32
 * ints, and 75000 against 70000 (rendezvous messages; as many chunks of the
 * shared areas, which MPI_Ibcast needs: doc/architecture.md, Errors), on
 * the same side of every algorithm's thresholds.
 */
#include "err_common.h"

#include <stdlib.h>

enum coll { BCAST, SCATTER, SCATTERV, GATHER, GATHERV, REDUCE, ALLGATHER, ALLTOALL, NCOLL };
static const char *const names[NCOLL] = { "Bcast", "Scatter", "Scatterv", "Gather", "Gatherv",
                                          "Reduce", "Allgather", "Alltoall" };

/* Waits for r when nonblocking, else returns rc. */
static int done(int rc, MPI_Request *r, int nonblocking)
{
    if (!nonblocking || rc != MPI_SUCCESS)
        return rc;
    return MPI_Wait(r, MPI_STATUS_IGNORE);
}

/* Collective k from root 0 where the side that sends passes big elements
 * per rank and the side that receives small ones. */
static void mismatch(enum coll k, int big, int small, int nonblocking)
{
    int me = MTest_rank, n = MTest_size, root = me == 0;
    int *sbuf = calloc((size_t)big * n, sizeof(int)), *rbuf = calloc((size_t)big * n, sizeof(int));
    int *counts = malloc((size_t)n * sizeof(int)), *displs = malloc((size_t)n * sizeof(int));
    /* the root's side: sends big for the rooted-out ones, receives small;
     * in Allgather and Alltoall rank 0 passes big and the others small */
    int out = k == BCAST || k == SCATTER || k == SCATTERV || k == ALLGATHER || k == ALLTOALL;
    int mine = out ? (root ? big : small) : (root ? small : big);
    for (int i = 0; i < n; i++) {
        counts[i] = mine;
        displs[i] = i * big;
    }
    for (int i = 0; i < big; i++)
        sbuf[i] = i + 1;
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Request r = MPI_REQUEST_NULL, *rp = &r;
    int rc = MPI_SUCCESS, nb = nonblocking;
    switch (k) {
    case BCAST:
        rc = nb ? MPI_Ibcast(root ? sbuf : rbuf, mine, MPI_INT, 0, w, rp)
                : MPI_Bcast(root ? sbuf : rbuf, mine, MPI_INT, 0, w);
        break;
    case SCATTER:
        rc = nb ? MPI_Iscatter(sbuf, mine, MPI_INT, rbuf, mine, MPI_INT, 0, w, rp)
                : MPI_Scatter(sbuf, mine, MPI_INT, rbuf, mine, MPI_INT, 0, w);
        break;
    case SCATTERV:
        rc = nb ? MPI_Iscatterv(sbuf, counts, displs, MPI_INT, rbuf, mine, MPI_INT, 0, w, rp)
                : MPI_Scatterv(sbuf, counts, displs, MPI_INT, rbuf, mine, MPI_INT, 0, w);
        break;
    case GATHER:
        rc = nb ? MPI_Igather(sbuf, mine, MPI_INT, rbuf, mine, MPI_INT, 0, w, rp)
                : MPI_Gather(sbuf, mine, MPI_INT, rbuf, mine, MPI_INT, 0, w);
        break;
    case GATHERV:
        rc = nb ? MPI_Igatherv(sbuf, mine, MPI_INT, rbuf, counts, displs, MPI_INT, 0, w, rp)
                : MPI_Gatherv(sbuf, mine, MPI_INT, rbuf, counts, displs, MPI_INT, 0, w);
        break;
    case REDUCE:
        rc = nb ? MPI_Ireduce(sbuf, rbuf, mine, MPI_INT, MPI_SUM, 0, w, rp)
                : MPI_Reduce(sbuf, rbuf, mine, MPI_INT, MPI_SUM, 0, w);
        break;
    case ALLGATHER:
        rc = nb ? MPI_Iallgather(sbuf, mine, MPI_INT, rbuf, mine, MPI_INT, w, rp)
                : MPI_Allgather(sbuf, mine, MPI_INT, rbuf, mine, MPI_INT, w);
        break;
    default:
        rc = nb ? MPI_Ialltoall(sbuf, mine, MPI_INT, rbuf, mine, MPI_INT, w, rp)
                : MPI_Alltoall(sbuf, mine, MPI_INT, rbuf, mine, MPI_INT, w);
        break;
    }
    rc = done(rc, rp, nb);
    char what[128];
    snprintf(what, sizeof(what), "%s%s, %d ints sent, %d expected, at rank %d",
             nb ? "I" : "", names[k], big, small, me);
    /* the receivers: the non-roots of the rooted-out ones, else the root */
    if (out != root)
        MT_ERRCLASS(rc, MPI_ERR_TRUNCATE, what);
    else
        MT_OK(rc);
    free(sbuf);
    free(rbuf);
    free(counts);
    free(displs);
}

/* A broadcast of n ints that agree, checked: no message of the collective
 * before was left behind or is still awaited. */
static void agreed(int n, const char *after)
{
    int *buf = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        buf[i] = MTest_rank == 0 ? 5 * i + 3 : -1;
    MT_OK(MPI_Bcast(buf, n, MPI_INT, 0, MPI_COMM_WORLD));
    for (int i = 0; i < n; i++)
        if (buf[i] != 5 * i + 3) {
            MT_FAIL("Bcast after %s: element %d is %d, not %d", after, i, buf[i], 5 * i + 3);
            break;
        }
    free(buf);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    errors_return();
    /* arg "all": Allgather and Alltoall too, where every rank sends what it
     * expects to receive (on the message paths only: the shared areas'
     * alltoall cannot see block sizes that differ) */
    int ncoll = argc > 1 && !strcmp(argv[1], "all") ? NCOLL : ALLGATHER;
    static const int sizes[][2] = { { 64, 32 }, { 75000, 70000 } };
    for (int s = 0; s < 2; s++)
        for (int nb = 0; nb < 2; nb++)
            for (int k = 0; k < ncoll; k++) {
                mismatch(k, sizes[s][0], sizes[s][1], nb);
                char after[96];
                snprintf(after, sizeof(after), "a mismatched %s%s of %d ints", nb ? "I" : "",
                         names[k], sizes[s][0]);
                agreed(sizes[s][0], after);
            }
    MTest_Check_comm_works(MPI_COMM_WORLD, "rooted collectives of mismatched sizes");
    return MTest_Finalize();
}
