/*
 * inter_coll: every collective on an intercommunicator between two groups
 * of different sizes (A: the first (np + 1) / 3 ranks of MPI_COMM_WORLD, B:
 * the rest), blocking and nonblocking (arg "nb"), with data checked at every
 * rank: barrier, bcast, reduce, allreduce, gather(v), scatter(v),
 * allgather(v), alltoall(v, w), reduce_scatter(_block). The rooted ones run
 * with the root in each group in turn (MPI_ROOT at the root, MPI_PROC_NULL
 * at the rest of its group, whose buffers must stay untouched). Then the
 * errors: scans are not defined on an intercommunicator (MPI_ERR_COMM),
 * MPI_IN_PLACE is not allowed (MPI_ERR_BUFFER), a root outside the remote
 * group is MPI_ERR_ROOT.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

static MPI_Comm ic;
static int in_a, lrank, lsize, rsize, nb;

/* A rank's identity in the data: B's ranks are told apart from A's. */
static int id_of(int group_a, int r)
{
    return (group_a ? 0 : 50) + r;
}

static int my_id(void)
{
    return id_of(in_a, lrank);
}

static int remote_id(int r)
{
    return id_of(!in_a, r);
}

/* Runs the blocking call, or its nonblocking form and a wait. */
#define RUN(blocking, ...)                                                  \
    do {                                                                    \
        if (nb) {                                                           \
            MPI_Request rq_ = MPI_REQUEST_NULL;                             \
            MT_OK(__VA_ARGS__);                                             \
            MT_OK(MPI_Wait(&rq_, MPI_STATUS_IGNORE));                       \
        } else {                                                            \
            MT_OK(blocking);                                                \
        }                                                                   \
    } while (0)
#define REQ (&rq_)

/* The root argument for this rank when the root is rank rr of group A
 * (root_a) or B. */
static int root_arg(int root_a, int rr)
{
    if (in_a != root_a)
        return rr;
    return lrank == rr ? MPI_ROOT : MPI_PROC_NULL;
}

static void test_barrier(void)
{
    RUN(MPI_Barrier(ic), MPI_Ibarrier(ic, REQ));
}

static void test_bcast(int root_a)
{
    int rr = root_a ? 0 : (in_a ? rsize : lsize) - 1, root = root_arg(root_a, rr), buf[5];
    for (int i = 0; i < 5; i++)
        buf[i] = root == MPI_ROOT ? 1000 * root_a + 7 * i : -1;
    RUN(MPI_Bcast(buf, 5, MPI_INT, root, ic), MPI_Ibcast(buf, 5, MPI_INT, root, ic, REQ));
    for (int i = 0; i < 5; i++) {
        int want = root == MPI_PROC_NULL ? -1 : 1000 * root_a + 7 * i;
        MT_CHECK(buf[i] == want, "bcast (root in %c) [%d] = %d, expected %d", root_a ? 'A' : 'B',
                 i, buf[i], want);
    }
}

static void test_reduce(int root_a)
{
    int rr = root_a ? 0 : (in_a ? rsize : lsize) - 1, root = root_arg(root_a, rr);
    int sbuf[4], rbuf[4];
    for (int i = 0; i < 4; i++) {
        sbuf[i] = 10 * my_id() + i;
        rbuf[i] = -1;
    }
    RUN(MPI_Reduce(sbuf, rbuf, 4, MPI_INT, MPI_SUM, root, ic),
        MPI_Ireduce(sbuf, rbuf, 4, MPI_INT, MPI_SUM, root, ic, REQ));
    for (int i = 0; i < 4; i++) {
        int want = root == MPI_ROOT ? 0 : -1;
        for (int r = 0; root == MPI_ROOT && r < rsize; r++)
            want += 10 * remote_id(r) + i;
        MT_CHECK(rbuf[i] == want, "reduce (root in %c) [%d] = %d, expected %d",
                 root_a ? 'A' : 'B', i, rbuf[i], want);
    }
}

static void test_allreduce(void)
{
    int sbuf[3], rbuf[3];
    for (int i = 0; i < 3; i++) {
        sbuf[i] = my_id() * (i + 1);
        rbuf[i] = -1;
    }
    RUN(MPI_Allreduce(sbuf, rbuf, 3, MPI_INT, MPI_SUM, ic),
        MPI_Iallreduce(sbuf, rbuf, 3, MPI_INT, MPI_SUM, ic, REQ));
    for (int i = 0; i < 3; i++) {
        int want = 0;
        for (int r = 0; r < rsize; r++)
            want += remote_id(r) * (i + 1);
        MT_CHECK(rbuf[i] == want, "allreduce [%d] = %d, expected %d", i, rbuf[i], want);
    }
}

/* gather (v = 0: 3 ints from each rank) and gatherv (v = 1: rank r sends
 * r + 1 ints, placed with a gap of one between blocks). */
static void test_gather(int root_a, int v)
{
    int rr = root_a ? 0 : (in_a ? rsize : lsize) - 1, root = root_arg(root_a, rr);
    int scount = v ? lrank + 1 : 3, sbuf[8], rbuf[64], counts[8], displs[8];
    for (int k = 0; k < scount; k++)
        sbuf[k] = 100 * my_id() + k;
    for (int i = 0; i < 64; i++)
        rbuf[i] = -1;
    for (int r = 0, d = 0; r < rsize; r++) {
        counts[r] = v ? r + 1 : 3;
        displs[r] = d;
        d += counts[r] + v;
    }
    if (v)
        RUN(MPI_Gatherv(sbuf, scount, MPI_INT, rbuf, counts, displs, MPI_INT, root, ic),
            MPI_Igatherv(sbuf, scount, MPI_INT, rbuf, counts, displs, MPI_INT, root, ic, REQ));
    else
        RUN(MPI_Gather(sbuf, 3, MPI_INT, rbuf, 3, MPI_INT, root, ic),
            MPI_Igather(sbuf, 3, MPI_INT, rbuf, 3, MPI_INT, root, ic, REQ));
    int expect[64];
    for (int i = 0; i < 64; i++)
        expect[i] = -1;
    if (root == MPI_ROOT)
        for (int r = 0; r < rsize; r++)
            for (int k = 0; k < counts[r]; k++)
                expect[displs[r] + k] = 100 * remote_id(r) + k;
    for (int i = 0; i < 64; i++)
        MT_CHECK(rbuf[i] == expect[i], "gather%s (root in %c) [%d] = %d, expected %d",
                 v ? "v" : "", root_a ? 'A' : 'B', i, rbuf[i], expect[i]);
}

/* scatter (3 ints to each rank) and scatterv (r + 1 ints to rank r, from
 * blocks with a gap of one). */
static void test_scatter(int root_a, int v)
{
    int rr = root_a ? 0 : (in_a ? rsize : lsize) - 1, root = root_arg(root_a, rr);
    int rcount = v ? lrank + 1 : 3, sbuf[64], rbuf[8], counts[8], displs[8];
    for (int r = 0, d = 0; r < rsize; r++) {
        counts[r] = v ? r + 1 : 3;
        displs[r] = d;
        d += counts[r] + v;
    }
    for (int i = 0; i < 64; i++)
        sbuf[i] = -2;
    for (int r = 0; r < rsize; r++)
        for (int k = 0; k < counts[r]; k++)
            sbuf[displs[r] + k] = 100 * remote_id(r) + k;
    for (int i = 0; i < 8; i++)
        rbuf[i] = -1;
    if (v)
        RUN(MPI_Scatterv(sbuf, counts, displs, MPI_INT, rbuf, rcount, MPI_INT, root, ic),
            MPI_Iscatterv(sbuf, counts, displs, MPI_INT, rbuf, rcount, MPI_INT, root, ic, REQ));
    else
        RUN(MPI_Scatter(sbuf, 3, MPI_INT, rbuf, 3, MPI_INT, root, ic),
            MPI_Iscatter(sbuf, 3, MPI_INT, rbuf, 3, MPI_INT, root, ic, REQ));
    for (int i = 0; i < 8; i++) {
        int want = root >= 0 && i < rcount ? 100 * my_id() + i : -1;
        MT_CHECK(rbuf[i] == want, "scatter%s (root in %c) [%d] = %d, expected %d", v ? "v" : "",
                 root_a ? 'A' : 'B', i, rbuf[i], want);
    }
}

/* allgather: 2 ints from every rank; allgatherv: r + 1 ints from rank r,
 * blocks in reverse order. */
static void test_allgather(int v)
{
    int scount = v ? lrank + 1 : 2, sbuf[8], rbuf[64], counts[8], displs[8];
    for (int k = 0; k < scount; k++)
        sbuf[k] = 100 * my_id() + k;
    for (int i = 0; i < 64; i++)
        rbuf[i] = -1;
    for (int r = rsize - 1, d = 0; r >= 0; r--) {
        counts[r] = v ? r + 1 : 2;
        displs[r] = d;
        d += counts[r];
    }
    if (v)
        RUN(MPI_Allgatherv(sbuf, scount, MPI_INT, rbuf, counts, displs, MPI_INT, ic),
            MPI_Iallgatherv(sbuf, scount, MPI_INT, rbuf, counts, displs, MPI_INT, ic, REQ));
    else
        RUN(MPI_Allgather(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, ic),
            MPI_Iallgather(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, ic, REQ));
    for (int r = 0; r < rsize; r++)
        for (int k = 0; k < counts[r]; k++) {
            int at = v ? displs[r] + k : 2 * r + k;
            MT_CHECK(rbuf[at] == 100 * remote_id(r) + k, "allgather%s from %d [%d] = %d, "
                     "expected %d", v ? "v" : "", r, k, rbuf[at], 100 * remote_id(r) + k);
        }
}

/* alltoall: 2 ints to every remote rank; alltoallv: j + 1 ints to remote
 * rank j (so lrank + 1 from each); alltoallw: the v layout with byte
 * displacements (blocking only: MPI_Ialltoallw is another matter). The
 * value names sender, receiver and position. */
static int a2a_val(int from_id, int to, int k)
{
    return 10000 * from_id + 100 * to + k;
}

static void test_alltoall(int kind)
{
    int sbuf[64], rbuf[64], sc[8], sd[8], rc[8], rd[8];
    MPI_Datatype types[8];
    for (int j = 0, d = 0; j < rsize; j++) {
        sc[j] = kind ? j + 1 : 2;
        sd[j] = d;
        d += sc[j];
    }
    for (int j = 0, d = 0; j < rsize; j++) {
        rc[j] = kind ? lrank + 1 : 2;
        rd[j] = d;
        d += rc[j] + 1;
        types[j] = MPI_INT;
    }
    for (int j = 0; j < rsize; j++)
        for (int k = 0; k < sc[j]; k++)
            sbuf[sd[j] + k] = a2a_val(my_id(), j, k);
    for (int i = 0; i < 64; i++)
        rbuf[i] = -1;
    if (kind == 0) {
        for (int j = 0; j < rsize; j++)
            rd[j] = 2 * j;
        RUN(MPI_Alltoall(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, ic),
            MPI_Ialltoall(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, ic, REQ));
    } else if (kind == 1) {
        RUN(MPI_Alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, ic),
            MPI_Ialltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, ic, REQ));
    } else {
        int sdb[8], rdb[8];
        for (int j = 0; j < rsize; j++) {
            sdb[j] = sd[j] * (int)sizeof(int);
            rdb[j] = rd[j] * (int)sizeof(int);
        }
        MT_OK(MPI_Alltoallw(sbuf, sc, sdb, types, rbuf, rc, rdb, types, ic));
    }
    for (int j = 0; j < rsize; j++)
        for (int k = 0; k < rc[j]; k++)
            MT_CHECK(rbuf[rd[j] + k] == a2a_val(remote_id(j), lrank, k),
                     "alltoall kind %d from %d [%d] = %d, expected %d", kind, j, k,
                     rbuf[rd[j] + k], a2a_val(remote_id(j), lrank, k));
    if (kind == 1)
        for (int j = 0; j < rsize; j++)
            MT_CHECK(rbuf[rd[j] + rc[j]] == -1, "alltoallv wrote the gap after block %d", j);
}

/* Each group receives the sum of the other group's vectors, scattered in
 * its own counts. Both totals are 2 * lsize * rsize elements; block: 2 *
 * rsize per rank; v: rank 0 gets rsize more and the last rank rsize less. */
static void test_reduce_scatter(int v)
{
    int total = 2 * lsize * rsize, counts[8], displs[8];
    int *sbuf = malloc((size_t)total * sizeof(int)), rbuf[64];
    for (int i = 0, d = 0; i < lsize; i++) {
        counts[i] = 2 * rsize + (v && lsize > 1 ? (i == 0) * rsize - (i == lsize - 1) * rsize : 0);
        displs[i] = d;
        d += counts[i];
    }
    for (int e = 0; e < total; e++)
        sbuf[e] = (my_id() + 1) * (e + 1);
    for (int i = 0; i < 64; i++)
        rbuf[i] = -1;
    if (v)
        RUN(MPI_Reduce_scatter(sbuf, rbuf, counts, MPI_INT, MPI_SUM, ic),
            MPI_Ireduce_scatter(sbuf, rbuf, counts, MPI_INT, MPI_SUM, ic, REQ));
    else
        RUN(MPI_Reduce_scatter_block(sbuf, rbuf, 2 * rsize, MPI_INT, MPI_SUM, ic),
            MPI_Ireduce_scatter_block(sbuf, rbuf, 2 * rsize, MPI_INT, MPI_SUM, ic, REQ));
    int rsum = 0;
    for (int r = 0; r < rsize; r++)
        rsum += remote_id(r) + 1;
    for (int k = 0; k < counts[lrank] + 1; k++) {
        int want = k < counts[lrank] ? rsum * (displs[lrank] + k + 1) : -1;
        MT_CHECK(rbuf[k] == want, "reduce_scatter%s [%d] = %d, expected %d", v ? "" : "_block",
                 k, rbuf[k], want);
    }
    free(sbuf);
}

static void expect_class(int rc, int cls, const char *what)
{
    int got = MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &got);
    MT_CHECK(got == cls, "%s: error class %d, expected %d", what, got, cls);
}

static void test_errors(void)
{
    int a = 1, b = 0;
    MPI_Request r;
    MT_OK(MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN));
    expect_class(MPI_Scan(&a, &b, 1, MPI_INT, MPI_SUM, ic), MPI_ERR_COMM, "MPI_Scan");
    expect_class(MPI_Exscan(&a, &b, 1, MPI_INT, MPI_SUM, ic), MPI_ERR_COMM, "MPI_Exscan");
    expect_class(MPI_Iscan(&a, &b, 1, MPI_INT, MPI_SUM, ic, &r), MPI_ERR_COMM, "MPI_Iscan");
    expect_class(MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_INT, MPI_SUM, ic), MPI_ERR_BUFFER,
                 "MPI_Allreduce in place");
    expect_class(MPI_Iallgather(MPI_IN_PLACE, 1, MPI_INT, &b, 1, MPI_INT, ic, &r),
                 MPI_ERR_BUFFER, "MPI_Iallgather in place");
    expect_class(MPI_Bcast(&a, 1, MPI_INT, rsize, ic), MPI_ERR_ROOT, "MPI_Bcast root = rsize");
    expect_class(MPI_Ireduce(&a, &b, 1, MPI_INT, MPI_SUM, -7, ic, &r), MPI_ERR_ROOT,
                 "MPI_Ireduce root -7");
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    nb = argc > 1 && !strcmp(argv[1], "nb");
    int na = (MTest_size + 1) / 3;
    in_a = MTest_rank < na;
    MPI_Comm local;
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, in_a, MTest_rank, &local));
    MT_OK(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, in_a ? na : 0, 7, &ic));
    MT_OK(MPI_Comm_rank(ic, &lrank));
    MT_OK(MPI_Comm_size(ic, &lsize));
    MT_OK(MPI_Comm_remote_size(ic, &rsize));
    if (lsize > 8 || rsize > 8) {
        MT_FAIL("the buffers are sized for at most 8 ranks a group");
        return MTest_Finalize();
    }
    test_barrier();
    for (int root_a = 1; root_a >= 0; root_a--) {
        test_bcast(root_a);
        test_reduce(root_a);
        test_gather(root_a, 0);
        test_gather(root_a, 1);
        test_scatter(root_a, 0);
        test_scatter(root_a, 1);
    }
    test_allreduce();
    test_allgather(0);
    test_allgather(1);
    test_alltoall(0);
    test_alltoall(1);
    if (!nb)
        test_alltoall(2);
    test_reduce_scatter(0);
    test_reduce_scatter(1);
    test_barrier();
    test_errors();
    MT_OK(MPI_Comm_free(&ic));
    MT_OK(MPI_Comm_free(&local));
    return MTest_Finalize();
}
