/*
 * req_comm_free: MPI_Comm_free while requests still use the communicator.
 * The standard frees a communicator only once no operation and no request
 * refers to it: persistent point-to-point and collective requests made on
 * a communicator stay usable after it is freed, a receive posted on it
 * still receives, and its context id is not given to a new communicator
 * in the meantime. Each part frees the communicator first, then makes new
 * communicators (which reuse freed memory and free context ids), then uses
 * the request with checked data:
 *   1. Send_init / Recv_init around the ring, started 3 times; a message of
 *      the same tag on a new communicator meanwhile must not be mixed in;
 *   2. Irecv posted, communicator freed, the message sent afterwards;
 *   3. Bcast_init and Allreduce_init, started twice;
 *   4. an intercommunicator's Allreduce_init (np >= 2).
 */
#include "mtest.h"

#define N 64
#define TAG 5

static void fill(int *b, int v)
{
    for (int i = 0; i < N; i++)
        b[i] = v * 1000 + i;
}

static int bad(const int *b, int v)
{
    for (int i = 0; i < N; i++)
        if (b[i] != v * 1000 + i)
            return 1;
    return 0;
}

/* New communicators over the freed one's memory and ids, each checked. */
static void churn(MPI_Comm *keep)
{
    MPI_Comm c[4];
    for (int i = 0; i < 4; i++)
        MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c[i]));
    for (int i = 1; i < 4; i++)
        MT_OK(MPI_Comm_free(&c[i]));
    *keep = c[0];
}

static void ring_persistent(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[N], in[N], other[N], decoy[N];
    MPI_Comm dup, fresh;
    MPI_Request rq[2], dr[2];

    MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MT_OK(MPI_Recv_init(in, N, MPI_INT, left, TAG, dup, &rq[0]));
    MT_OK(MPI_Send_init(out, N, MPI_INT, right, TAG, dup, &rq[1]));
    MT_OK(MPI_Comm_free(&dup));
    MT_CHECK(dup == MPI_COMM_NULL, "MPI_Comm_free left the handle set");
    churn(&fresh);
    for (int it = 0; it < 3; it++) {
        /* the same tag and peers on the new communicator, posted first */
        fill(decoy, 900 + rank);
        MT_OK(MPI_Irecv(other, N, MPI_INT, left, TAG, fresh, &dr[0]));
        MT_OK(MPI_Isend(decoy, N, MPI_INT, right, TAG, fresh, &dr[1]));
        fill(out, rank * 10 + it);
        MT_OK(MPI_Startall(2, rq));
        MT_OK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        MT_OK(MPI_Waitall(2, dr, MPI_STATUSES_IGNORE));
        MT_CHECK(!bad(in, left * 10 + it), "persistent receive, round %d: got %d, want %d", it,
                 in[0], (left * 10 + it) * 1000);
        MT_CHECK(!bad(other, 900 + left), "new communicator's receive, round %d: got %d", it,
                 other[0]);
    }
    MT_OK(MPI_Request_free(&rq[0]));
    MT_OK(MPI_Request_free(&rq[1]));
    MTest_Check_comm_works(fresh, "a communicator made while freed ones had requests");
    MT_OK(MPI_Comm_free(&fresh));
}

static void posted_receive(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[N], in[N];
    MPI_Comm dup, fresh;
    MPI_Request r, s;

    MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MT_OK(MPI_Irecv(in, N, MPI_INT, left, TAG, dup, &r));
    fill(out, 500 + rank);
    MT_OK(MPI_Isend(out, N, MPI_INT, right, TAG, dup, &s));
    MT_OK(MPI_Comm_free(&dup));
    churn(&fresh);
    MT_OK(MPI_Wait(&s, MPI_STATUS_IGNORE));
    MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    MT_CHECK(!bad(in, 500 + left), "receive posted before MPI_Comm_free: got %d", in[0]);
    MT_OK(MPI_Comm_free(&fresh));
}

static void persistent_coll(MPI_Comm base, int root_bcast, const char *what)
{
    int buf[N], sum[N], one[N];
    MPI_Comm dup, fresh;
    MPI_Request rq[2];
    int rank, size, inter;

    MT_OK(MPI_Comm_test_inter(base, &inter));
    MT_OK(MPI_Comm_dup(base, &dup));
    MT_OK(MPI_Comm_rank(dup, &rank));
    MT_OK(inter ? MPI_Comm_remote_size(dup, &size) : MPI_Comm_size(dup, &size));
    for (int i = 0; i < N; i++)
        one[i] = 1;
    MT_OK(MPI_Allreduce_init(one, sum, N, MPI_INT, MPI_SUM, dup, MPI_INFO_NULL, &rq[0]));
    if (root_bcast)
        MT_OK(MPI_Bcast_init(buf, N, MPI_INT, 0, dup, MPI_INFO_NULL, &rq[1]));
    MT_OK(MPI_Comm_free(&dup));
    churn(&fresh);
    for (int it = 0; it < 2; it++) {
        if (rank == 0)
            fill(buf, 700 + it);
        MT_OK(MPI_Startall(root_bcast ? 2 : 1, rq));
        MT_OK(MPI_Waitall(root_bcast ? 2 : 1, rq, MPI_STATUSES_IGNORE));
        /* on an intercommunicator each side sums the other's ones */
        for (int i = 0; i < N; i++)
            MT_CHECK(sum[i] == size, "%s: Allreduce_init after MPI_Comm_free, round %d: %d, want %d",
                     what, it, sum[i], size);
        if (root_bcast)
            MT_CHECK(!bad(buf, 700 + it), "%s: Bcast_init after MPI_Comm_free, round %d: %d",
                     what, it, buf[0]);
    }
    MT_OK(MPI_Request_free(&rq[0]));
    if (root_bcast)
        MT_OK(MPI_Request_free(&rq[1]));
    MT_OK(MPI_Comm_free(&fresh));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank = MTest_rank, size = MTest_size;

    ring_persistent(rank, size);
    posted_receive(rank, size);
    persistent_coll(MPI_COMM_WORLD, 1, "MPI_COMM_WORLD's dup");
    if (size >= 2) {
        MPI_Comm half, inter;
        MT_OK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
        MT_OK(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 9, &inter));
        persistent_coll(inter, 0, "an intercommunicator's dup");
        MT_OK(MPI_Comm_free(&inter));
        MT_OK(MPI_Comm_free(&half));
    }
    return MTest_Finalize();
}
