/*
 * nbc_ibcast: MPI_Ibcast, meant for the node-local path through the shared
 * areas (src/coll/coll_shm.c; the testlist runs it with that path on, off
 * and with small areas, so that messages take many chunks):
 *  - sizes from 0 B to 1 MiB + 3 from every root, completed with MPI_Wait or
 *    a loop of MPI_Test alone;
 *  - a derived (strided) datatype from roots other than 0, the type freed
 *    before the broadcast completes;
 *  - many broadcasts outstanding at once from rotating roots, completed in
 *    an order that differs between ranks;
 *  - broadcasts interleaved with blocking Bcast, Allreduce, Alltoall and a
 *    p2p-scheduled Iallreduce while earlier ones are still pending, waited
 *    for in different orders on different ranks (a blocking shared-area
 *    collective must keep the pending broadcasts' readers moving, or a
 *    root waiting for a free buffer would hang), also across communicators
 *    (a split's collectives while a world Ibcast holds the root's buffers).
 * Every result is compared with what the root sent.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

#define MANY 24

static int n, me;
static volatile double sink;

/* Busy work so that ranks reach their waits at different times. */
static void work(int units)
{
    double x = 0;
    for (int i = 0; i < units * 1000; i++)
        x += i * 0.25;
    sink = x;
}

static void fill_for(unsigned char *buf, size_t len, int root, unsigned seed)
{
    if (me == root)
        MTest_Fill(buf, len, seed);
    else
        memset(buf, 0xee, len);
}

static void test_sizes(void)
{
    static const size_t sizes[] = { 0, 1, 8, 100, 4096, 65536 + 7, 131072, 300000,
                                    (1 << 20) + 3 };
    unsigned char *buf = MTest_Malloc((1 << 20) + 3);
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        for (int root = 0; root < n; root++) {
            size_t len = sizes[k];
            unsigned seed = (unsigned)(k * 16 + (size_t)root);
            MPI_Request r;
            fill_for(buf, len, root, seed);
            MT_OK(MPI_Ibcast(buf, (int)len, MPI_BYTE, root, MPI_COMM_WORLD, &r));
            if ((k + (size_t)me) % 2) {
                MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
            } else {
                int flag = 0;
                while (!flag) {
                    work(1);
                    MT_OK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
                }
            }
            MT_CHECK(r == MPI_REQUEST_NULL, "completed request not freed");
            MTest_Verify(buf, len, seed, "Ibcast of one size");
        }
    }
    free(buf);
}

/* Every third int of 3-int blocks strided by 5: 3 * count ints of data in
 * 5 * count ints of memory; the gaps must stay untouched. */
static void test_strided(void)
{
    const int count = 20000; /* 240 KB of data: several chunks */
    int *buf = MTest_Malloc((size_t)count * 5 * sizeof(int));
    for (int root = n - 1; root >= 0; root--) {
        MPI_Datatype vec;
        MPI_Request r;
        MT_OK(MPI_Type_vector(count, 3, 5, MPI_INT, &vec));
        MT_OK(MPI_Type_commit(&vec));
        for (int i = 0; i < count * 5; i++)
            buf[i] = me == root || i % 5 >= 3 ? i * 7 + root : -1;
        MT_OK(MPI_Ibcast(buf, 1, vec, root, MPI_COMM_WORLD, &r));
        MT_OK(MPI_Type_free(&vec));
        work(me);
        MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        for (int i = 0; i < count * 5; i++)
            if (buf[i] != i * 7 + root)
                MT_FAIL("strided Ibcast from %d: int %d is %d, expected %d", root, i, buf[i],
                        i * 7 + root);
    }
    free(buf);
}

/* MANY broadcasts of growing sizes from rotating roots all in flight;
 * odd ranks wait newest first, even ranks with Waitall or Testany. */
static void test_many(int rep)
{
    unsigned char *bufs[MANY];
    MPI_Request r[MANY];
    for (int i = 0; i < MANY; i++) {
        size_t len = (size_t)1 << (i % 18);
        int root = (i + rep) % n;
        bufs[i] = MTest_Malloc(len);
        fill_for(bufs[i], len, root, (unsigned)(i + 100 * rep));
        MT_OK(MPI_Ibcast(bufs[i], (int)len, MPI_BYTE, root, MPI_COMM_WORLD, &r[i]));
    }
    if (me % 2) {
        for (int i = MANY - 1; i >= 0; i--)
            MT_OK(MPI_Wait(&r[i], MPI_STATUS_IGNORE));
    } else if (rep % 2) {
        MT_OK(MPI_Waitall(MANY, r, MPI_STATUSES_IGNORE));
    } else {
        for (int left = MANY; left > 0;) {
            int idx, flag;
            MT_OK(MPI_Testany(MANY, r, &idx, &flag, MPI_STATUS_IGNORE));
            if (flag && idx != MPI_UNDEFINED)
                left--;
        }
    }
    for (int i = 0; i < MANY; i++) {
        MTest_Verify(bufs[i], (size_t)1 << (i % 18), (unsigned)(i + 100 * rep),
                     "one of many outstanding Ibcasts");
        free(bufs[i]);
    }
}

/* Ibcast (big), Bcast, Allreduce, Ibcast (small), Iallreduce, Alltoall,
 * Ibcast (big) with the nonblocking ones pending across the blocking ones,
 * then the waits in a rank-dependent order. */
static void test_interleaved(int rep, size_t big)
{
    unsigned char *a = MTest_Malloc(big), *b = MTest_Malloc(big), *c = MTest_Malloc(64);
    unsigned char *d = MTest_Malloc(big);
    long *ato = MTest_Malloc((size_t)n * sizeof(long));
    long *ati = MTest_Malloc((size_t)n * sizeof(long));
    int ra = rep % n, rb = (rep + 1) % n, rc = (rep + 2) % n, rd = (rep + 3) % n;
    MPI_Request r[4];
    long sum = 0, isum = 0, mine = me + 1, imine = 10L * (me + 1);
    fill_for(a, big, ra, 300u + (unsigned)rep);
    fill_for(b, big, rb, 400u + (unsigned)rep);
    fill_for(c, 64, rc, 500u + (unsigned)rep);
    fill_for(d, big, rd, 600u + (unsigned)rep);
    for (int i = 0; i < n; i++)
        ato[i] = 1000L * me + i;
    MT_OK(MPI_Ibcast(a, (int)big, MPI_BYTE, ra, MPI_COMM_WORLD, &r[0]));
    work(me * 3);
    MT_OK(MPI_Bcast(b, (int)big, MPI_BYTE, rb, MPI_COMM_WORLD));
    MT_OK(MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    MT_OK(MPI_Ibcast(c, 64, MPI_BYTE, rc, MPI_COMM_WORLD, &r[1]));
    MT_OK(MPI_Iallreduce(&imine, &isum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &r[2]));
    MT_OK(MPI_Alltoall(ato, 1, MPI_LONG, ati, 1, MPI_LONG, MPI_COMM_WORLD));
    MT_OK(MPI_Ibcast(d, (int)big, MPI_BYTE, rd, MPI_COMM_WORLD, &r[3]));
    work((n - me) * 3);
    /* Rank-dependent wait orders: rotate the starting request by rank. */
    for (int k = 0; k < 4; k++) {
        int i = me % 2 ? (me + k) % 4 : (4 + me - k) % 4;
        MT_OK(MPI_Wait(&r[i], MPI_STATUS_IGNORE));
    }
    MTest_Verify(a, big, 300u + (unsigned)rep, "first Ibcast across blocking collectives");
    MTest_Verify(b, big, 400u + (unsigned)rep, "Bcast with an Ibcast pending");
    MTest_Verify(c, 64, 500u + (unsigned)rep, "small Ibcast between blocking collectives");
    MTest_Verify(d, big, 600u + (unsigned)rep, "last Ibcast");
    MT_CHECK(sum == (long)n * (n + 1) / 2, "Allreduce with Ibcasts pending: %ld", sum);
    MT_CHECK(isum == 10L * n * (n + 1) / 2, "Iallreduce between Ibcasts: %ld", isum);
    for (int i = 0; i < n; i++)
        MT_CHECK(ati[i] == 1000L * i + me, "Alltoall with Ibcasts pending: block %d is %ld", i,
                 ati[i]);
    free(a);
    free(b);
    free(c);
    free(d);
    free(ato);
    free(ati);
}

/* An Ibcast pending while the same root publishes through blocking
 * broadcasts of several chunks (its buffers held by the Ibcast's chunks). */
static void test_root_busy(void)
{
    const size_t big = 600000;
    unsigned char *a = MTest_Malloc(big), *b = MTest_Malloc(big);
    for (int root = 0; root < n; root++) {
        MPI_Request r;
        fill_for(a, big, root, 700u + (unsigned)root);
        MT_OK(MPI_Ibcast(a, (int)big, MPI_BYTE, root, MPI_COMM_WORLD, &r));
        for (int k = 0; k < 3; k++) {
            fill_for(b, big, root, 800u + (unsigned)k);
            MT_OK(MPI_Bcast(b, (int)big, MPI_BYTE, root, MPI_COMM_WORLD));
            MTest_Verify(b, big, 800u + (unsigned)k, "Bcast behind a pending Ibcast");
        }
        MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        MTest_Verify(a, big, 700u + (unsigned)root, "Ibcast pending across Bcasts");
    }
    free(a);
    free(b);
}

/* The areas are per process, shared by all its communicators: an Ibcast
 * pending on the world holds the root's buffers while the root publishes
 * through a blocking Bcast on a split (whose members are only some of the
 * Ibcast's readers) and both halves run an Ibcast of their own. */
static void test_cross_comm(void)
{
    const size_t big = 600000;
    unsigned char *a = MTest_Malloc(big), *b = MTest_Malloc(big), *c = MTest_Malloc(big);
    MPI_Comm half;
    MPI_Request r[2];
    int hrank;
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half));
    MPI_Comm_rank(half, &hrank);
    fill_for(a, big, 0, 900u);
    MT_OK(MPI_Ibcast(a, (int)big, MPI_BYTE, 0, MPI_COMM_WORLD, &r[0]));
    if (hrank == 0)
        MTest_Fill(c, big, 950u + (unsigned)(me % 2));
    else
        memset(c, 0, big);
    MT_OK(MPI_Ibcast(c, (int)big, MPI_BYTE, 0, half, &r[1]));
    if (hrank == 0)
        MTest_Fill(b, big, 910u + (unsigned)(me % 2));
    else
        memset(b, 0, big);
    MT_OK(MPI_Bcast(b, (int)big, MPI_BYTE, 0, half));
    MTest_Verify(b, big, 910u + (unsigned)(me % 2), "Bcast on a split behind a world Ibcast");
    MT_OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    MTest_Verify(a, big, 900u, "world Ibcast across a split's collectives");
    MTest_Verify(c, big, 950u + (unsigned)(me % 2), "Ibcast on a split");
    MT_OK(MPI_Comm_free(&half));
    free(a);
    free(b);
    free(c);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    n = MTest_size;
    me = MTest_rank;
    test_sizes();
    test_strided();
    for (int rep = 0; rep < 4; rep++)
        test_many(rep);
    for (int rep = 0; rep < 4; rep++)
        test_interleaved(rep, rep % 2 ? 1000 : 400000);
    test_root_busy();
    test_cross_comm();
    return MTest_Finalize();
}
