/*
 * err_truncate: MPI_ERR_TRUNCATE and MPI_ERR_IN_STATUS with
 * MPI_ERRORS_RETURN. A message longer than the receive buffer (small eager
 * and 1 MiB) returns MPI_ERR_TRUNCATE from Recv, from Wait after Irecv, and
 * from Sendrecv; in Waitall, Testall, Waitsome and Testsome the call returns
 * MPI_ERR_IN_STATUS, the truncated entry's status.MPI_ERROR has class
 * MPI_ERR_TRUNCATE and the good entry's MPI_SUCCESS (or MPI_ERR_PENDING, then
 * it is waited for). After every truncation the next message arrives intact.
 */
#include "err_common.h"

#include <stdlib.h>
#include <string.h>

#define BIG (1 << 20)

static int right, left;
static char *sbuf, *rbuf;

/* send n bytes with seed to the right (nonblocking) */
static void send_next(size_t n, unsigned seed, int tag, MPI_Request *r)
{
    static char *bufs[8];
    static int k;

    k = (k + 1) % 8;
    free(bufs[k]);
    bufs[k] = MTest_Malloc(n);
    MTest_Fill(bufs[k], n, seed);
    MT_OK(MPI_Isend(bufs[k], (int)n, MPI_BYTE, right, tag, MPI_COMM_WORLD, r));
}

static void next_intact(size_t n, unsigned seed, const char *after)
{
    MPI_Request r;
    MPI_Status st;
    int count;
    char what[128];

    send_next(n, seed, 9, &r);
    memset(rbuf, 0, n);
    MT_OK(MPI_Recv(rbuf, (int)n, MPI_BYTE, left, 9, MPI_COMM_WORLD, &st));
    MPI_Get_count(&st, MPI_BYTE, &count);
    snprintf(what, sizeof what, "message after %s", after);
    MT_CHECK(count == (int)n, "%s: count %d, expected %zu", what, count, n);
    MTest_Verify(rbuf, n, seed, what);
    MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
}

static void single(size_t n)
{
    MPI_Request r, rr;
    char what[128];

    snprintf(what, sizeof what, "Recv of %zu bytes into %zu", n, n / 2);
    send_next(n, 1, 8, &r);
    MT_ERRCLASS(MPI_Recv(rbuf, (int)(n / 2), MPI_BYTE, left, 8, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE, what);
    MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    next_intact(n, 2, what);

    snprintf(what, sizeof what, "Irecv+Wait of %zu bytes into %zu", n, n / 2);
    MT_OK(MPI_Irecv(rbuf, (int)(n / 2), MPI_BYTE, left, 8, MPI_COMM_WORLD, &rr));
    send_next(n, 3, 8, &r);
    MT_ERRCLASS(MPI_Wait(&rr, MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE, what);
    MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    next_intact(n, 4, what);

    snprintf(what, sizeof what, "Sendrecv of %zu bytes into %zu", n, n / 2);
    MTest_Fill(sbuf, n, 5);
    MT_ERRCLASS(MPI_Sendrecv(sbuf, (int)n, MPI_BYTE, right, 8, rbuf, (int)(n / 2), MPI_BYTE,
                             left, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE, what);
    next_intact(n, 6, what);
}

enum multi { WAITALL, TESTALL, WAITSOME, TESTSOME };
static const char *multi_name[] = { "Waitall", "Testall", "Waitsome", "Testsome" };

static void multi(size_t n, enum multi how)
{
    MPI_Request s[2], r[2];
    MPI_Status st[2];
    char *good = MTest_Malloc(n);
    char what[128];
    int rc = MPI_SUCCESS, flag = 0, out = 0, idx[2];

    snprintf(what, sizeof what, "%s with a %zu-byte message truncated", multi_name[how], n);
    /* r[0] gets a fitting message, r[1] a too-long one */
    MT_OK(MPI_Irecv(good, (int)n, MPI_BYTE, left, 10, MPI_COMM_WORLD, &r[0]));
    MT_OK(MPI_Irecv(rbuf, (int)(n / 2), MPI_BYTE, left, 11, MPI_COMM_WORLD, &r[1]));
    send_next(n, 7, 10, &s[0]);
    send_next(n, 8, 11, &s[1]);
    st[0].MPI_ERROR = st[1].MPI_ERROR = -12345;
    switch (how) {
    case WAITALL:
        rc = MPI_Waitall(2, r, st);
        break;
    case TESTALL:
        while (!flag && rc == MPI_SUCCESS)
            rc = MPI_Testall(2, r, &flag, st);
        break;
    case WAITSOME:
    case TESTSOME:
        /* call until the truncated request has been reported */
        while (rc == MPI_SUCCESS) {
            rc = how == WAITSOME ? MPI_Waitsome(2, r, &out, idx, st)
                                 : MPI_Testsome(2, r, &out, idx, st);
            if (out == MPI_UNDEFINED)
                break;
            if (rc == MPI_SUCCESS && out > 0)
                for (int k = 0; k < out; k++)
                    MT_CHECK(idx[k] == 0, "%s: request %d completed without error",
                             what, idx[k]);
        }
        break;
    }
    MT_CHECK(rc != MPI_SUCCESS && MTest_Errclass(rc) == MPI_ERR_IN_STATUS,
             "%s: returned class %d (%s), expected MPI_ERR_IN_STATUS", what,
             rc == MPI_SUCCESS ? 0 : MTest_Errclass(rc), MTest_Errstr(rc));
    if (how == WAITALL || how == TESTALL) {
        MT_CHECK(st[1].MPI_ERROR != MPI_SUCCESS &&
                 MTest_Errclass(st[1].MPI_ERROR) == MPI_ERR_TRUNCATE,
                 "%s: truncated entry MPI_ERROR %d", what, st[1].MPI_ERROR);
        MT_CHECK(st[0].MPI_ERROR == MPI_SUCCESS || st[0].MPI_ERROR == MPI_ERR_PENDING,
                 "%s: good entry MPI_ERROR %d", what, st[0].MPI_ERROR);
        if (st[0].MPI_ERROR == MPI_ERR_PENDING)
            MT_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    } else {
        /* the entries reported in this call: find the truncated one */
        int found = 0;
        for (int k = 0; k < out && out != MPI_UNDEFINED; k++) {
            if (idx[k] == 1) {
                found = 1;
                MT_CHECK(MTest_Errclass(st[k].MPI_ERROR) == MPI_ERR_TRUNCATE,
                         "%s: truncated entry MPI_ERROR %d", what, st[k].MPI_ERROR);
            } else {
                MT_CHECK(st[k].MPI_ERROR == MPI_SUCCESS, "%s: good entry MPI_ERROR %d",
                         what, st[k].MPI_ERROR);
            }
        }
        MT_CHECK(found, "%s: truncated request not among the %d reported", what, out);
        if (r[0] != MPI_REQUEST_NULL)
            MT_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    }
    MTest_Verify(good, n, 7, "untruncated message next to a truncated one");
    MT_OK(MPI_Waitall(2, s, MPI_STATUSES_IGNORE));
    next_intact(n, 12, what);
    free(good);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    errors_return();
    right = (MTest_rank + 1) % MTest_size;
    left = (MTest_rank + MTest_size - 1) % MTest_size;
    sbuf = MTest_Malloc(BIG);
    rbuf = MTest_Malloc(BIG);

    single(16);
    single(BIG);
    for (int how = WAITALL; how <= TESTSOME; how++) {
        multi(16, how);
        multi(BIG, how);
    }
    MTest_Check_comm_works(MPI_COMM_WORLD, "truncation");
    free(sbuf);
    free(rbuf);
    return MTest_Finalize();
}
