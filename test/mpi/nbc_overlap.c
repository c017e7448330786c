/*
 * nbc_overlap: nonblocking collectives make progress and stay apart.
 *  - overlap: an Ibcast of 1 MiB completes through a loop of MPI_Test and
 *    local work alone (no blocking call), from every root;
 *  - several NBCs outstanding at once on one communicator and on two others
 *    (a dup and a split), started in the same order everywhere and completed
 *    in different orders with Waitall, Waitany and Testsome;
 *  - blocking collectives (Barrier, Bcast, Allreduce) issued while NBCs on
 *    the same communicator are in flight;
 *  - (rdmpi only) MPI_Request_free of an active NBC: it still completes;
 *  - a request's status after completion, MPI_Request_get_status.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

#define BIG (1 << 20)

static volatile double sink;

static void work(void)
{
    double x = 0;
    for (int i = 0; i < 2000; i++)
        x += i * 0.5;
    sink = x;
}

static void test_overlap(void)
{
    unsigned char *buf = MTest_Malloc(BIG);
    for (int root = 0; root < MTest_size; root++) {
        MPI_Request r;
        if (MTest_rank == root)
            MTest_Fill(buf, BIG, 40 + root);
        else
            memset(buf, 0, BIG);
        MT_OK(MPI_Ibcast(buf, BIG, MPI_BYTE, root, MPI_COMM_WORLD, &r));
        int flag = 0;
        while (!flag) {
            work();
            MT_OK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
        }
        MT_CHECK(r == MPI_REQUEST_NULL, "Test did not free the completed request");
        MTest_Verify(buf, BIG, 40 + root, "Ibcast 1 MiB completed by MPI_Test");
    }
    free(buf);
}

/* Six NBCs on three communicators, completed in an order that depends on
 * the rank; each result checked. */
static void test_outstanding(int rep)
{
    MPI_Comm dup, split;
    MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, MTest_rank % 2, MTest_rank, &split));
    int ssize, srank, n = MTest_size, me = MTest_rank;
    MPI_Comm_size(split, &ssize);
    MPI_Comm_rank(split, &srank);

    enum { NR = 7, CNT = 5000 };
    MPI_Request r[NR];
    int *b1 = MTest_Malloc(CNT * sizeof(int)), *b2 = MTest_Malloc(CNT * sizeof(int));
    int *sum = MTest_Malloc(CNT * sizeof(int)), *g = MTest_Malloc((size_t)n * sizeof(int));
    int *a2a_s = MTest_Malloc((size_t)n * sizeof(int)), *a2a_r = MTest_Malloc((size_t)n * sizeof(int));
    int ssum_in = srank + 1, ssum = 0, mx_in = me * 3, mx = -1;
    for (int i = 0; i < CNT; i++) {
        b1[i] = me == 0 ? i * 3 + rep : -1;
        b2[i] = me == n - 1 ? i * 5 + rep : -1;
        sum[i] = i + me;
    }
    for (int k = 0; k < n; k++)
        a2a_s[k] = me * 100 + k;

    /* Two Ibcasts from different roots on one communicator, then others. */
    MT_OK(MPI_Ibcast(b1, CNT, MPI_INT, 0, MPI_COMM_WORLD, &r[0]));
    MT_OK(MPI_Ibcast(b2, CNT, MPI_INT, n - 1, MPI_COMM_WORLD, &r[1]));
    MT_OK(MPI_Iallreduce(MPI_IN_PLACE, sum, CNT, MPI_INT, MPI_SUM, dup, &r[2]));
    MT_OK(MPI_Iallreduce(&ssum_in, &ssum, 1, MPI_INT, MPI_SUM, split, &r[3]));
    MT_OK(MPI_Iallgather(&me, 1, MPI_INT, g, 1, MPI_INT, dup, &r[4]));
    MT_OK(MPI_Ialltoall(a2a_s, 1, MPI_INT, a2a_r, 1, MPI_INT, MPI_COMM_WORLD, &r[5]));
    MT_OK(MPI_Ireduce(&mx_in, &mx, 1, MPI_INT, MPI_MAX, ssize / 2, split, &r[6]));

    switch ((me + rep) % 3) {
    case 0:
        MT_OK(MPI_Waitall(NR, r, MPI_STATUSES_IGNORE));
        break;
    case 1:
        for (int k = 0; k < NR; k++) {
            int idx;
            MT_OK(MPI_Waitany(NR, r, &idx, MPI_STATUS_IGNORE));
            MT_CHECK(idx >= 0 && idx < NR && r[idx] == MPI_REQUEST_NULL, "Waitany index %d", idx);
        }
        break;
    default: {
        int left = NR, idx[NR];
        while (left > 0) {
            int out;
            MT_OK(MPI_Testsome(NR, r, &out, idx, MPI_STATUSES_IGNORE));
            if (out == MPI_UNDEFINED)
                break;
            left -= out;
            work();
        }
        MT_CHECK(left == 0, "Testsome left %d requests", left);
    }
    }
    for (int k = 0; k < NR; k++)
        MT_CHECK(r[k] == MPI_REQUEST_NULL, "request %d not completed", k);
    for (int i = 0; i < CNT; i++) {
        int want = 0;
        for (int k = 0; k < n; k++)
            want += i + k;
        if (b1[i] != i * 3 + rep || b2[i] != i * 5 + rep || sum[i] != want) {
            MT_FAIL("rep %d element %d: bcast %d / %d, allreduce %d (want %d)", rep, i, b1[i],
                    b2[i], sum[i], want);
            break;
        }
    }
    MT_CHECK(ssum == ssize * (ssize + 1) / 2, "split allreduce %d", ssum);
    for (int k = 0; k < n; k++) {
        MT_CHECK(g[k] == k, "allgather[%d] = %d", k, g[k]);
        MT_CHECK(a2a_r[k] == k * 100 + me, "alltoall[%d] = %d", k, a2a_r[k]);
    }
    if (srank == ssize / 2) {
        int want = -1;
        for (int k = me % 2; k < n; k += 2)
            want = k * 3;
        MT_CHECK(mx == want, "split reduce max %d, expected %d", mx, want);
    }
    free(b1);
    free(b2);
    free(sum);
    free(g);
    free(a2a_s);
    free(a2a_r);
    MT_OK(MPI_Comm_free(&dup));
    MT_OK(MPI_Comm_free(&split));
}

/* Blocking collectives while NBCs on the same communicator are in flight. */
static void test_mixed(void)
{
    int n = MTest_size, me = MTest_rank;
    int a = me, asum = 0, b[4], c = 0, csum = 0;
    MPI_Request r[2];
    MT_OK(MPI_Iallreduce(&a, &asum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]));
    for (int i = 0; i < 4; i++)
        b[i] = me == 0 ? 77 + i : 0;
    MT_OK(MPI_Ibcast(b, 4, MPI_INT, 0, MPI_COMM_WORLD, &r[1]));
    MT_OK(MPI_Barrier(MPI_COMM_WORLD));
    int x = me == n - 1 ? 1234 : 0;
    MT_OK(MPI_Bcast(&x, 1, MPI_INT, n - 1, MPI_COMM_WORLD));
    c = me + 1;
    MT_OK(MPI_Allreduce(&c, &csum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    MT_OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    MT_CHECK(x == 1234, "blocking bcast gave %d", x);
    MT_CHECK(csum == n * (n + 1) / 2, "blocking allreduce gave %d", csum);
    MT_CHECK(asum == n * (n - 1) / 2, "iallreduce gave %d", asum);
    for (int i = 0; i < 4; i++)
        MT_CHECK(b[i] == 77 + i, "ibcast b[%d] = %d", i, b[i]);
}

/* Request_free of an active NBC, then the status of a completed one. */
static void test_free_and_status(void)
{
    MPI_Request r;
#ifdef RDMPI
    /* MPI-3.1 5.12 makes MPI_Request_free of an NBC request erroneous (MPICH
     * fails it); rdmpi lets the schedule finish and free itself. */
    static volatile int v;
    v = MTest_rank == 0 ? 4242 : 0;
    MT_OK(MPI_Ibcast((void *)&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &r));
    MT_OK(MPI_Request_free(&r));
    MT_CHECK(r == MPI_REQUEST_NULL, "Request_free did not null the handle");
    /* Nothing tells when the freed Ibcast is done: keep the progress engine
     * turning with other NBCs until the data shows up. */
    for (int k = 0; k < 1000000 && v != 4242; k++) {
        int flag;
        MT_OK(MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        work();
    }
    MT_CHECK(v == 4242, "freed Ibcast did not deliver (%d)", v);
#endif
    /* A completed NBC: Request_get_status, then Wait with a status. */
    int flag = 0;
    MT_OK(MPI_Ibarrier(MPI_COMM_WORLD, &r));
    while (!flag) {
        MT_OK(MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE));
        work();
    }
    MT_CHECK(r != MPI_REQUEST_NULL, "Request_get_status freed the request");
    MPI_Status st;
    MT_OK(MPI_Wait(&r, &st));
    MT_CHECK(r == MPI_REQUEST_NULL, "Wait did not null the handle");
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    test_overlap();
    for (int rep = 0; rep < 6; rep++)
        test_outstanding(rep);
    test_mixed();
    test_free_and_status();
    return MTest_Finalize();
}
