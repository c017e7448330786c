/*
 * p2p_waittest: the Wait/Test family. Empty lists (count 0), lists of only
 * MPI_REQUEST_NULL (Waitany/Testany give MPI_UNDEFINED, Waitsome/Testsome
 * outcount MPI_UNDEFINED, Testall flag true, empty statuses), Wait/Test on
 * MPI_REQUEST_NULL, lists mixing null and active requests (completed entries
 * become MPI_REQUEST_NULL, statuses name the right source and tag),
 * Test/Testall/Testany/Testsome on a receive that cannot match yet (flag 0,
 * requests untouched), Request_get_status (does not free the request), and
 * MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE everywhere. Uses sends to self on
 * COMM_SELF and the ring on COMM_WORLD.
 */
#include "mtest.h"

#include <string.h>

#define NR 6

static void check_empty(const MPI_Status *st, const char *what)
{
    int count = -1;

    MPI_Get_count(st, MPI_INT, &count);
    MT_CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG && count == 0,
             "%s: status not empty (source %d tag %d count %d)", what, st->MPI_SOURCE,
             st->MPI_TAG, count);
}

static void empty_and_null(void)
{
    MPI_Request req[NR];
    MPI_Status st, sts[NR];
    int idx = -2, flag = -2, out = -2, idxs[NR];

    /* count 0: arrays may be anything */
    MT_OK(MPI_Waitall(0, req, sts));
    MT_OK(MPI_Waitall(0, NULL, MPI_STATUSES_IGNORE));
    flag = 0;
    MT_OK(MPI_Testall(0, req, &flag, sts));
    MT_CHECK(flag, "Testall(0): flag %d, expected true", flag);
    MT_OK(MPI_Waitany(0, req, &idx, &st));
    MT_CHECK(idx == MPI_UNDEFINED, "Waitany(0): index %d, expected MPI_UNDEFINED", idx);
    flag = 0;
    MT_OK(MPI_Testany(0, req, &idx, &flag, &st));
    MT_CHECK(flag && idx == MPI_UNDEFINED, "Testany(0): flag %d index %d", flag, idx);
    MT_OK(MPI_Waitsome(0, req, &out, idxs, sts));
    MT_CHECK(out == MPI_UNDEFINED, "Waitsome(0): outcount %d, expected MPI_UNDEFINED", out);
    MT_OK(MPI_Testsome(0, req, &out, idxs, sts));
    MT_CHECK(out == MPI_UNDEFINED, "Testsome(0): outcount %d, expected MPI_UNDEFINED", out);

    /* only null requests */
    for (int i = 0; i < NR; i++)
        req[i] = MPI_REQUEST_NULL;
    MT_OK(MPI_Waitall(NR, req, sts));
    for (int i = 0; i < NR; i++)
        check_empty(&sts[i], "Waitall on null requests");
    flag = 0;
    MT_OK(MPI_Testall(NR, req, &flag, MPI_STATUSES_IGNORE));
    MT_CHECK(flag, "Testall on null requests: flag %d", flag);
    idx = -2;
    MT_OK(MPI_Waitany(NR, req, &idx, &st));
    MT_CHECK(idx == MPI_UNDEFINED, "Waitany on null requests: index %d", idx);
    check_empty(&st, "Waitany on null requests");
    flag = 0;
    MT_OK(MPI_Testany(NR, req, &idx, &flag, MPI_STATUS_IGNORE));
    MT_CHECK(flag && idx == MPI_UNDEFINED, "Testany on null requests: flag %d index %d",
             flag, idx);
    MT_OK(MPI_Waitsome(NR, req, &out, idxs, MPI_STATUSES_IGNORE));
    MT_CHECK(out == MPI_UNDEFINED, "Waitsome on null requests: outcount %d", out);
    MT_OK(MPI_Testsome(NR, req, &out, idxs, sts));
    MT_CHECK(out == MPI_UNDEFINED, "Testsome on null requests: outcount %d", out);
    MT_OK(MPI_Wait(&req[0], &st));
    check_empty(&st, "Wait(MPI_REQUEST_NULL)");
    flag = 0;
    MT_OK(MPI_Test(&req[0], &flag, &st));
    MT_CHECK(flag, "Test(MPI_REQUEST_NULL): flag %d", flag);
    check_empty(&st, "Test(MPI_REQUEST_NULL)");
    flag = 0;
    MT_OK(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st));
    MT_CHECK(flag, "Request_get_status(MPI_REQUEST_NULL): flag %d", flag);
    check_empty(&st, "Request_get_status(MPI_REQUEST_NULL)");
}

/* Receives on COMM_SELF at even slots (tags 100+i), null at odd slots. */
static void post_self(MPI_Request *req, int *in)
{
    for (int i = 0; i < NR; i++) {
        in[i] = -1;
        req[i] = MPI_REQUEST_NULL;
        if (i % 2 == 0)
            MT_OK(MPI_Irecv(&in[i], 1, MPI_INT, 0, 100 + i, MPI_COMM_SELF, &req[i]));
    }
}

static void send_self(int i)
{
    int v = 1000 + i;
    MPI_Request r;

    MT_OK(MPI_Isend(&v, 1, MPI_INT, 0, 100 + i, MPI_COMM_SELF, &r));
    MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
}

static void mixed(void)
{
    MPI_Request req[NR], saved[NR];
    MPI_Status st, sts[NR];
    int in[NR], idx, flag, out, idxs[NR], done;

    /* Test* on receives that cannot match yet leave everything alone. */
    post_self(req, in);
    memcpy(saved, req, sizeof req);
    flag = 1;
    MT_OK(MPI_Test(&req[0], &flag, &st));
    MT_CHECK(!flag && req[0] == saved[0], "Test on unmatched receive: flag %d", flag);
    flag = 1;
    MT_OK(MPI_Testall(NR, req, &flag, sts));
    MT_CHECK(!flag, "Testall with unmatched receives: flag %d", flag);
    flag = 1;
    MT_OK(MPI_Testany(NR, req, &idx, &flag, &st));
    MT_CHECK(!flag, "Testany with unmatched receives: flag %d", flag);
    out = -2;
    MT_OK(MPI_Testsome(NR, req, &out, idxs, sts));
    MT_CHECK(out == 0, "Testsome with unmatched receives: outcount %d", out);
    flag = 1;
    MT_OK(MPI_Request_get_status(req[2], &flag, &st));
    MT_CHECK(!flag, "Request_get_status on unmatched receive: flag %d", flag);
    MT_CHECK(memcmp(saved, req, sizeof req) == 0, "Test* changed pending requests");

    /* Request_get_status sees completion but does not free the request. */
    send_self(2);
    flag = 0;
    while (!flag)
        MT_OK(MPI_Request_get_status(req[2], &flag, &st));
    MT_CHECK(req[2] == saved[2], "Request_get_status freed the request");
    MT_CHECK(st.MPI_TAG == 102 && st.MPI_SOURCE == 0, "Request_get_status: tag %d source %d",
             st.MPI_TAG, st.MPI_SOURCE);

    /* Waitany returns the completed index and nulls it. */
    MT_OK(MPI_Waitany(NR, req, &idx, &st));
    MT_CHECK(idx == 2 && req[2] == MPI_REQUEST_NULL && st.MPI_TAG == 102 && in[2] == 1002,
             "Waitany: index %d tag %d value %d", idx, st.MPI_TAG, in[2]);
    send_self(4);
    flag = 0;
    while (!flag)
        MT_OK(MPI_Testany(NR, req, &idx, &flag, &st));
    MT_CHECK(idx == 4 && req[4] == MPI_REQUEST_NULL && st.MPI_TAG == 104 && in[4] == 1004,
             "Testany: index %d tag %d value %d", idx, st.MPI_TAG, in[4]);
    send_self(0);
    MT_OK(MPI_Waitany(NR, req, &idx, MPI_STATUS_IGNORE));
    MT_CHECK(idx == 0 && in[0] == 1000, "Waitany: index %d value %d", idx, in[0]);
    MT_OK(MPI_Waitany(NR, req, &idx, &st));
    MT_CHECK(idx == MPI_UNDEFINED, "Waitany after all done: index %d", idx);

    /* Waitsome / Testsome collect every completed entry. */
    post_self(req, in);
    send_self(0);
    send_self(4);
    done = 0;
    while (done < 2) {
        MT_OK(MPI_Waitsome(NR, req, &out, idxs, sts));
        MT_CHECK(out >= 1 && out <= 2, "Waitsome: outcount %d", out);
        for (int k = 0; k < out; k++) {
            int i = idxs[k];
            MT_CHECK((i == 0 || i == 4) && in[i] == 1000 + i && sts[k].MPI_TAG == 100 + i &&
                     req[i] == MPI_REQUEST_NULL, "Waitsome: index %d value %d tag %d", i,
                     in[i], sts[k].MPI_TAG);
        }
        done += out;
    }
    send_self(2);
    out = 0;
    while (out == 0)
        MT_OK(MPI_Testsome(NR, req, &out, idxs, MPI_STATUSES_IGNORE));
    MT_CHECK(out == 1 && idxs[0] == 2 && in[2] == 1002, "Testsome: outcount %d index %d",
             out, idxs[0]);
    MT_OK(MPI_Testsome(NR, req, &out, idxs, sts));
    MT_CHECK(out == MPI_UNDEFINED, "Testsome after all done: outcount %d", out);

    /* Waitall / Testall with nulls in between: statuses of null entries empty. */
    post_self(req, in);
    for (int i = 0; i < NR; i += 2)
        send_self(i);
    MT_OK(MPI_Waitall(NR, req, sts));
    for (int i = 0; i < NR; i++) {
        if (i % 2)
            check_empty(&sts[i], "Waitall null entry");
        else
            MT_CHECK(sts[i].MPI_TAG == 100 + i && in[i] == 1000 + i &&
                     req[i] == MPI_REQUEST_NULL, "Waitall entry %d: tag %d value %d", i,
                     sts[i].MPI_TAG, in[i]);
    }
    post_self(req, in);
    for (int i = 0; i < NR; i += 2)
        send_self(i);
    flag = 0;
    while (!flag)
        MT_OK(MPI_Testall(NR, req, &flag, sts));
    for (int i = 0; i < NR; i += 2)
        MT_CHECK(in[i] == 1000 + i && req[i] == MPI_REQUEST_NULL && sts[i].MPI_TAG == 100 + i,
                 "Testall entry %d: value %d", i, in[i]);
}

/* Ring with Waitsome over sends and receives together. */
static void ring(void)
{
    int right = (MTest_rank + 1) % MTest_size;
    int left = (MTest_rank + MTest_size - 1) % MTest_size;
    int out[NR], in[NR], idxs[2 * NR], n, done = 0;
    MPI_Request req[2 * NR];
    MPI_Status sts[2 * NR];

    for (int i = 0; i < NR; i++) {
        out[i] = MTest_rank * 100 + i;
        in[i] = -1;
        MT_OK(MPI_Irecv(&in[i], 1, MPI_INT, left, i, MPI_COMM_WORLD, &req[i]));
    }
    for (int i = NR - 1; i >= 0; i--)
        MT_OK(MPI_Isend(&out[i], 1, MPI_INT, right, i, MPI_COMM_WORLD, &req[NR + i]));
    while (done < 2 * NR) {
        MT_OK(MPI_Waitsome(2 * NR, req, &n, idxs, sts));
        if (n == MPI_UNDEFINED) {
            MT_FAIL("ring Waitsome: MPI_UNDEFINED after %d of %d", done, 2 * NR);
            break;
        }
        for (int k = 0; k < n; k++)
            if (idxs[k] < NR)
                MT_CHECK(sts[k].MPI_SOURCE == left && sts[k].MPI_TAG == idxs[k],
                         "ring Waitsome: index %d source %d tag %d", idxs[k],
                         sts[k].MPI_SOURCE, sts[k].MPI_TAG);
        done += n;
    }
    for (int i = 0; i < NR; i++)
        MT_CHECK(in[i] == left * 100 + i, "ring: value %d at %d, expected %d", in[i], i,
                 left * 100 + i);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    empty_and_null();
    mixed();
    ring();
    return MTest_Finalize();
}
